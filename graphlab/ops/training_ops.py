"""Training ops: the fused update kernels optimizers add (ApplyGradientDescent, ApplyMomentum, ApplyAdagrad,
ApplyRMSProp, ApplyAdam, ApplyAdadelta). Each takes its variable and slots by reference and changes them in
place, with the same arithmetic as TensorFlow's CPU kernels (training_ops.cc), and outputs the variable's handle.

Buffers a variable owns are written with numpy's ``out=`` where the session holds the only reference
(slots); the variable itself gets a new array each step, so values fetched earlier never change under the
user's feet.

ApplyAdam runs in one pass over its arrays in C (graphlab/ops/_fused.c) when that module was built: its
numpy form takes a dozen passes, which made it the slowest op of a small MLP's training step. The numpy
form stays as the fallback and rounds exactly as the C loop does (tests/train/test_fused_kernels.py).
"""
import numpy as np

from graphlab.formats.errors import InvalidArgumentError
from graphlab.framework.registry import NOT_DIFFERENTIABLE, build_op, register_op
from graphlab.ops.state_ops import _dims

try:    # one-pass kernels in C (graphlab/ops/_fused.c), built at install time when a C compiler is there
    from graphlab.ops import _fused as fused
except ImportError:
    fused = None


def _ref_output(op):
    return [(op._inputs[0]._dtype, op._inputs[0]._shape)]


def _check(ctx, var, grad, slots=(), scalars=(), grad_name="grad", spaced_colon=()):
    """TF's checks before an update, with its messages: every buffer initialized, the hyper-parameters
    scalars, the slots and the gradient of the variable's shape. ``slots`` and ``scalars`` are (name, value)
    pairs; returns the variable's value and the slots' values. TF words a few scalar checks with a space
    before the colon ("lr is not a scalar : [3]" in ApplyAdam and ApplyRMSProp): ``spaced_colon`` names them."""
    value = var.read(ctx)
    slot_values = [ref.read(ctx) for _, ref in slots]
    for name, x in scalars:
        if getattr(x, "ndim", None) != 0 and np.ndim(x) != 0:     # numpy values answer .ndim quickly
            raise InvalidArgumentError(None, ctx.op, "%s is not a scalar%s: %s" % (
                name, " " if name in spaced_colon else "", _dims(np.shape(x))))
    shape = value.shape
    for (name, _), x in zip(list(slots) + [(grad_name, None)], slot_values + [grad]):
        if getattr(x, "shape", None) != shape and np.shape(x) != shape:
            raise InvalidArgumentError(None, ctx.op, "var and %s do not have the same shape%s %s" % (
                name, _dims(shape), _dims(np.shape(x))))
    return value, slot_values


# ----------------------------------------------------------------------------------- ApplyGradientDescent
def _gd_kernel(ctx, var, alpha, delta):
    value, _ = _check(ctx, var, delta, scalars=[("alpha", alpha)], grad_name="delta")
    var.write(value - alpha * delta)
    return var


register_op(
    "ApplyGradientDescent",
    inputs=["var: Ref(T)", "alpha: T", "delta: T"],
    outputs=_ref_output,
    kernel=_gd_kernel,
    grad=NOT_DIFFERENTIABLE,
    stateful=True,
    doc="var -= alpha * delta.")


def apply_gradient_descent(var, alpha, delta, use_locking=False, name=None):
    return build_op("ApplyGradientDescent", [var, alpha, delta], attrs={"use_locking": use_locking},
                    name=name).outputs[0]


# ------------------------------------------------------------------------------------------ ApplyMomentum
def _momentum_kernel(ctx, var, accum, lr, grad, momentum):
    value, (acc,) = _check(ctx, var, grad, [("accum", accum)], [("lr", lr), ("momentum", momentum)])
    np.multiply(acc, momentum, out=acc)
    acc += grad
    if ctx.attrs.get("use_nesterov"):
        var.write(value - (grad * lr + acc * momentum * lr))     # TF's order: (accum * momentum) * lr
    else:
        var.write(value - acc * lr)
    return var


register_op(
    "ApplyMomentum",
    inputs=["var: Ref(T)", "accum: Ref(T)", "lr: T", "grad: T", "momentum: T"],
    outputs=_ref_output,
    kernel=_momentum_kernel,
    grad=NOT_DIFFERENTIABLE,
    stateful=True,
    doc="accum = accum * momentum + grad; var -= lr * accum (Nesterov: lr * (grad + momentum * accum)).")


def apply_momentum(var, accum, lr, grad, momentum, use_locking=False, use_nesterov=False, name=None):
    return build_op("ApplyMomentum", [var, accum, lr, grad, momentum],
                    attrs={"use_locking": use_locking, "use_nesterov": use_nesterov}, name=name).outputs[0]


# ------------------------------------------------------------------------------------------- ApplyAdagrad
def _adagrad_kernel(ctx, var, accum, lr, grad):
    value, (acc,) = _check(ctx, var, grad, [("accum", accum)], [("lr", lr)])
    if ctx.attrs.get("update_slots", True):
        acc += grad * grad
    # TF's order, (grad * lr) * rsqrt(accum); TF's rsqrt is a refined hardware estimate, so a few elements
    # land one unit in the last place away from this exactly rounded one.
    var.write(value - grad * lr * (1 / np.sqrt(acc)))
    return var


register_op(
    "ApplyAdagrad",
    inputs=["var: Ref(T)", "accum: Ref(T)", "lr: T", "grad: T"],
    outputs=_ref_output,
    kernel=_adagrad_kernel,
    grad=NOT_DIFFERENTIABLE,
    stateful=True,
    doc="accum += grad^2; var -= lr * grad / sqrt(accum).")


def apply_adagrad(var, accum, lr, grad, use_locking=False, update_slots=True, name=None):
    return build_op("ApplyAdagrad", [var, accum, lr, grad],
                    attrs={"use_locking": use_locking, "update_slots": update_slots}, name=name).outputs[0]


# ------------------------------------------------------------------------------------------- ApplyRMSProp
def _rmsprop_kernel(ctx, var, ms, mom, lr, rho, momentum, epsilon, grad):
    value, (ms_v, mom_v) = _check(ctx, var, grad, [("ms", ms), ("mom", mom)],
                                  [("lr", lr), ("rho", rho), ("momentum", momentum), ("epsilon", epsilon)],
                                  spaced_colon=("lr",))
    ms_v += (grad * grad - ms_v) * (1 - rho)
    np.multiply(mom_v, momentum, out=mom_v)
    mom_v += lr * grad / np.sqrt(ms_v + epsilon)
    var.write(value - mom_v)
    return var


register_op(
    "ApplyRMSProp",
    inputs=["var: Ref(T)", "ms: Ref(T)", "mom: Ref(T)", "lr: T", "rho: T", "momentum: T", "epsilon: T",
            "grad: T"],
    outputs=_ref_output,
    kernel=_rmsprop_kernel,
    grad=NOT_DIFFERENTIABLE,
    stateful=True,
    doc="ms += (grad^2 - ms)(1 - rho); mom = momentum * mom + lr * grad / sqrt(ms + eps); var -= mom.")


def apply_rms_prop(var, ms, mom, lr, rho, momentum, epsilon, grad, use_locking=False, name=None):
    return build_op("ApplyRMSProp", [var, ms, mom, lr, rho, momentum, epsilon, grad],
                    attrs={"use_locking": use_locking}, name=name).outputs[0]


# ----------------------------------------------------------------------------------- ApplyCenteredRMSProp
def _centered_rmsprop_kernel(ctx, var, mg, ms, mom, lr, rho, momentum, epsilon, grad):
    value, (mg_v, ms_v, mom_v) = _check(ctx, var, grad, [("mg", mg), ("ms", ms), ("mom", mom)],
                                        [("lr", lr), ("rho", rho), ("momentum", momentum), ("epsilon", epsilon)])
    ms_v += (grad * grad - ms_v) * (1 - rho)
    mg_v += (grad - mg_v) * (1 - rho)
    denom = (ms_v - mg_v * mg_v) + epsilon
    np.multiply(mom_v, momentum, out=mom_v)
    mom_v += grad * lr / np.sqrt(denom)
    var.write(value - mom_v)
    return var


register_op(
    "ApplyCenteredRMSProp",
    inputs=["var: Ref(T)", "mg: Ref(T)", "ms: Ref(T)", "mom: Ref(T)", "lr: T", "rho: T", "momentum: T",
            "epsilon: T", "grad: T"],
    outputs=_ref_output,
    kernel=_centered_rmsprop_kernel,
    grad=NOT_DIFFERENTIABLE,
    stateful=True,
    doc="RMSProp on the variance: ms and mg (the mean gradient) decay by rho; mom = momentum * mom + "
        "lr * grad / sqrt(ms - mg^2 + eps); var -= mom.")


def apply_centered_rms_prop(var, mg, ms, mom, lr, rho, momentum, epsilon, grad, use_locking=False, name=None):
    return build_op("ApplyCenteredRMSProp", [var, mg, ms, mom, lr, rho, momentum, epsilon, grad],
                    attrs={"use_locking": use_locking}, name=name).outputs[0]


# ---------------------------------------------------------------------------------------------- ApplyAdam
def _adam_kernel(ctx, var, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad):
    value, (m_v, v_v) = _check(ctx, var, grad, [("m", m), ("v", v)], [
        ("beta1_power", beta1_power), ("beta2_power", beta2_power), ("lr", lr), ("beta1", beta1),
        ("beta2", beta2), ("epsilon", epsilon)], spaced_colon=("lr",))
    dt = value.dtype.type
    alpha = dt(lr * np.sqrt(1 - beta2_power) / (1 - beta1_power))   # in the variable's type, as TF
    nesterov = bool(ctx.attrs.get("use_nesterov"))
    # in place, as TF's ApplyAdam: readers of the buffer earlier in the run see the step
    if fused is None or not fused.apply_adam(value, value, m_v, v_v, grad, alpha, beta1, beta2, epsilon, nesterov):
        _adam_numpy(ctx, value, m_v, v_v, grad, alpha, dt(beta1), dt(beta2), dt(epsilon), nesterov)
    return var


def _adam_numpy(ctx, value, m_v, v_v, grad, alpha, beta1, beta2, epsilon, nesterov):
    """The same arithmetic as the C kernel, in the same order (so the same roundings), in whole-array passes.
    One scratch buffer per op is kept in the session: large temporaries cost more than the arithmetic."""
    scratch = ctx.state.get(("adam-scratch", ctx.op.name))
    if scratch is None or scratch.shape != value.shape or scratch.dtype != value.dtype:
        scratch = ctx.state[("adam-scratch", ctx.op.name)] = np.empty_like(value)
    np.subtract(grad, m_v, out=scratch)
    scratch *= 1 - beta1
    m_v += scratch                                   # m += (g - m)(1 - beta1)
    np.multiply(grad, grad, out=scratch)
    scratch -= v_v
    scratch *= 1 - beta2
    v_v += scratch                                   # v += (g^2 - v)(1 - beta2)
    step = np.multiply(grad * (1 - beta1) + beta1 * m_v if nesterov else m_v, alpha)
    np.sqrt(v_v, out=scratch)
    scratch += epsilon
    step /= scratch                                  # (m * alpha) / (sqrt(v) + epsilon)
    np.subtract(value, step, out=value)


register_op(
    "ApplyAdam",
    inputs=["var: Ref(T)", "m: Ref(T)", "v: Ref(T)", "beta1_power: T", "beta2_power: T", "lr: T", "beta1: T",
            "beta2: T", "epsilon: T", "grad: T"],
    outputs=_ref_output,
    kernel=_adam_kernel,
    grad=NOT_DIFFERENTIABLE,
    stateful=True,
    doc="Adam: m, v moving moments of grad and grad^2; var -= lr_t * m / (sqrt(v) + epsilon).")


def apply_adam(var, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad, use_locking=False,
               use_nesterov=False, name=None):
    return build_op("ApplyAdam", [var, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad],
                    attrs={"use_locking": use_locking, "use_nesterov": use_nesterov}, name=name).outputs[0]


# ------------------------------------------------------------------------------------------ ApplyAdadelta
def _adadelta_kernel(ctx, var, accum, accum_update, lr, rho, epsilon, grad):
    value, (acc, acc_up) = _check(ctx, var, grad, [("accum", accum), ("accum_update", accum_update)],
                                  [("lr", lr), ("rho", rho), ("epsilon", epsilon)])
    keep = 1 - rho
    acc *= rho
    acc += grad * grad * keep                         # accum = accum * rho + grad^2 * (1 - rho)
    # TF's order: (sqrt(accum_update + eps) * rsqrt(accum + eps)) * grad, from the *new* accum and the
    # old accum_update; var moves by update * lr before accum_update takes in update^2.
    update = np.sqrt(acc_up + epsilon) * (1 / np.sqrt(acc + epsilon)) * grad
    var.write(value - update * lr)
    acc_up *= rho
    acc_up += update * update * keep
    return var


register_op(
    "ApplyAdadelta",
    inputs=["var: Ref(T)", "accum: Ref(T)", "accum_update: Ref(T)", "lr: T", "rho: T", "epsilon: T",
            "grad: T"],
    outputs=_ref_output,
    kernel=_adadelta_kernel,
    grad=NOT_DIFFERENTIABLE,
    stateful=True,
    doc="Adadelta: accum, accum_update moving averages of grad^2 and update^2; "
        "update = sqrt(accum_update + eps) / sqrt(accum + eps) * grad; var -= lr * update.")


def apply_adadelta(var, accum, accum_update, lr, rho, epsilon, grad, use_locking=False, name=None):
    return build_op("ApplyAdadelta", [var, accum, accum_update, lr, rho, epsilon, grad],
                    attrs={"use_locking": use_locking}, name=name).outputs[0]


__all__ = ["apply_gradient_descent", "apply_momentum", "apply_adagrad", "apply_rms_prop", "apply_adam",
           "apply_adadelta"]
