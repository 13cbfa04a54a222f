"""The update kernels of TF1's proximal and follow-the-regularized-leader optimizers:
ApplyProximalGradientDescent, ApplyProximalAdagrad, ApplyFtrl / ApplyFtrlV2 and ApplyAdagradDA, with the
arithmetic of TensorFlow's CPU kernels (training_ops.cc). Like training_ops.py, each takes its variable and
slots by reference, changes them in place and outputs the variable."""
import numpy as np

from graphlab.framework.registry import NOT_DIFFERENTIABLE, build_op, register_op
from graphlab.ops.training_ops import _check, _ref_output


def _shrink(prox_var, l1_step, l2_step):
    """sign(v) * max(|v| - l1_step, 0) / (1 + l2_step), or v / (1 + l2_step) without L1."""
    if l1_step is not None:
        return np.sign(prox_var) * np.maximum(np.abs(prox_var) - l1_step, 0) / (1 + l2_step)
    return prox_var / (1 + l2_step)


def _register(op_type, inputs, kernel, doc):
    register_op(op_type, inputs=inputs, outputs=_ref_output, kernel=kernel, grad=NOT_DIFFERENTIABLE, stateful=True,
                doc=doc)

    def apply(*args, use_locking=False, name=None):
        return build_op(op_type, list(args), attrs={"use_locking": use_locking}, name=name).outputs[0]
    return apply


# --------------------------------------------------------------------------- ApplyProximalGradientDescent
def _proximal_gd_kernel(ctx, var, alpha, l1, l2, delta):
    value, _ = _check(ctx, var, delta, scalars=[("alpha", alpha), ("l1", l1), ("l2", l2)], grad_name="delta")
    prox_var = value - delta * alpha
    var.write(_shrink(prox_var, alpha * l1 if l1 > 0 else None, l2 * alpha).astype(value.dtype, copy=False))
    return var


apply_proximal_gradient_descent = _register(
    "ApplyProximalGradientDescent", ["var: Ref(T)", "alpha: T", "l1: T", "l2: T", "delta: T"], _proximal_gd_kernel,
    "var = prox(var - alpha * delta) with L1 soft-thresholding and L2 shrinkage.")


# -------------------------------------------------------------------------------- ApplyProximalAdagrad
def _proximal_adagrad_kernel(ctx, var, accum, lr, l1, l2, grad):
    value, (acc,) = _check(ctx, var, grad, [("accum", accum)], [("lr", lr), ("l1", l1), ("l2", l2)])
    acc += grad * grad
    learning_rate = lr * (1 / np.sqrt(acc))
    prox_var = value - grad * learning_rate
    var.write(_shrink(prox_var, learning_rate * l1 if l1 > 0 else None, l2 * learning_rate).astype(
        value.dtype, copy=False))
    return var


apply_proximal_adagrad = _register(
    "ApplyProximalAdagrad", ["var: Ref(T)", "accum: Ref(T)", "lr: T", "l1: T", "l2: T", "grad: T"],
    _proximal_adagrad_kernel, "Adagrad's step size lr / sqrt(accum), then the proximal L1/L2 step.")


# ------------------------------------------------------------------------------- ApplyFtrl, ApplyFtrlV2
def _ftrl_update(ctx, var, accum, linear, grad, lr, l1, l2, lr_power, l2_shrinkage=None):
    scalars = [("lr", lr), ("l1", l1), ("l2", l2), ("lr_power", lr_power)]
    if l2_shrinkage is not None:
        scalars.append(("l2_shrinkage", l2_shrinkage))
    value, (acc, lin) = _check(ctx, var, grad, [("accum", accum), ("linear", linear)], scalars)
    shrunk = grad if l2_shrinkage is None else grad + 2 * l2_shrinkage * value
    new_accum = acc + grad * grad
    if lr_power == -0.5:
        lin += shrunk - (np.sqrt(new_accum) - np.sqrt(acc)) / lr * value
        y = np.sqrt(new_accum) / lr + 2 * l2
    else:
        lin += shrunk - (new_accum ** -lr_power - acc ** -lr_power) / lr * value
        y = new_accum ** -lr_power / lr + 2 * l2
    x = l1 * np.sign(lin) - lin
    var.write(np.where(np.abs(lin) > l1, x / y, 0).astype(value.dtype, copy=False))
    acc += grad * grad
    return var


apply_ftrl = _register(
    "ApplyFtrl", ["var: Ref(T)", "accum: Ref(T)", "linear: Ref(T)", "grad: T", "lr: T", "l1: T", "l2: T",
                  "lr_power: T"],
    lambda ctx, var, accum, linear, grad, lr, l1, l2, lr_power: _ftrl_update(ctx, var, accum, linear, grad, lr,
                                                                             l1, l2, lr_power),
    "Follow-the-regularized-leader (FTRL-proximal) with L1 and L2 regularization.")
apply_ftrl_v2 = _register(
    "ApplyFtrlV2", ["var: Ref(T)", "accum: Ref(T)", "linear: Ref(T)", "grad: T", "lr: T", "l1: T", "l2: T",
                    "l2_shrinkage: T", "lr_power: T"],
    lambda ctx, var, accum, linear, grad, lr, l1, l2, l2_shrinkage, lr_power: _ftrl_update(
        ctx, var, accum, linear, grad, lr, l1, l2, lr_power, l2_shrinkage),
    "FTRL-proximal with an extra L2 shrinkage of the gradient.")


# ------------------------------------------------------------------------------------- ApplyAdagradDA
def _adagrad_da_kernel(ctx, var, g_acc, gg_acc, grad, lr, l1, l2, global_step):
    value, (g, gg) = _check(ctx, var, grad, [("gradient_accumulator", g_acc), ("gradient_squared_accumulator",
                                                                               gg_acc)],
                            [("lr", lr), ("l1", l1), ("l2", l2), ("global_step", global_step)])
    g += grad
    gg += grad * grad
    step = float(global_step)
    denominator = l2 * step * lr + np.sqrt(gg)
    if l1 > 0:
        new = -1.0 * lr * np.sign(g) * np.maximum(np.abs(g) - l1 * step, 0) / denominator
    else:
        new = -1.0 * lr * g / denominator
    var.write(np.asarray(new).astype(value.dtype, copy=False))
    return var


apply_adagrad_da = _register(
    "ApplyAdagradDA", ["var: Ref(T)", "gradient_accumulator: Ref(T)", "gradient_squared_accumulator: Ref(T)",
                       "grad: T", "lr: T", "l1: T", "l2: T", "global_step: int64"],
    _adagrad_da_kernel, "Adagrad dual averaging: var from the accumulated gradients and the global step.")
