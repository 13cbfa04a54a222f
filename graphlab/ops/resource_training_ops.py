"""The fused updates on resource variables: ResourceApplyAdam and its kin, which Keras's optimizers (and
TF1 optimizers over ``use_resource`` variables) add.

Each ``ResourceApply<X>`` takes its variable and slots as resource handles and has no outputs; its
arithmetic is the reference-variable ``Apply<X>`` kernel's (training_ops.py, proximal_training_ops.py),
run on the session's ``ResourceVar`` objects, which offer the same ``read``/``write`` as a reference (a
read for an update makes the array private first, so earlier ReadVariableOp snapshots keep their values).
Three updates exist only for resources, because only tf-keras's optimizers use them: KerasMomentum (SGD's
``accum = momentum * accum - lr * grad; var += accum``), AdagradV2 (Adagrad with epsilon outside the
root) and AdaMax; their arithmetic follows TF's training_ops.cc in its order of operations.
"""
import numpy as np

from graphlab.framework.registry import NOT_DIFFERENTIABLE, build_op, get_opdef, register_op
from graphlab.ops import proximal_training_ops, training_ops  # noqa: F401  (the Apply* kernels reused)
from graphlab.ops.training_ops import _check

_TWINS = ("GradientDescent", "Momentum", "Adagrad", "RMSProp", "CenteredRMSProp", "Adam", "Adadelta",
          "ProximalGradientDescent", "ProximalAdagrad", "Ftrl", "FtrlV2", "AdagradDA")


def _no_outputs(op):
    return []


def _resource_inputs(args):
    """The Apply op's signature with each reference input a resource handle instead."""
    return ["%s: %s" % (a.name, "resource" if a.is_ref else a.type_attr or a.fixed.name) for a in args]


def _twin_kernel(ref_kernel):
    def kernel(ctx, *args):
        ref_kernel(ctx, *args)
    return kernel


for _name in _TWINS:
    _ref = get_opdef("Apply" + _name)
    register_op("ResourceApply" + _name, inputs=_resource_inputs(_ref.inputs), outputs=_no_outputs,
                kernel=_twin_kernel(_ref.kernel), grad=NOT_DIFFERENTIABLE, stateful=True,
                doc="Apply%s on a resource variable and resource slots." % _name)


# ----------------------------------------------------------------------------- Keras's own three updates
def _keras_momentum_kernel(ctx, var, accum, lr, grad, momentum):
    value, (acc,) = _check(ctx, var, grad, [("accum", accum)], [("lr", lr), ("momentum", momentum)])
    np.multiply(acc, momentum, out=acc)
    acc -= grad * lr
    if ctx.attrs.get("use_nesterov"):
        var.write(value + (acc * momentum - grad * lr))
    else:
        var.write(value + acc)


register_op(
    "ResourceApplyKerasMomentum",
    inputs=["var: resource", "accum: resource", "lr: T", "grad: T", "momentum: T"],
    outputs=_no_outputs, kernel=_keras_momentum_kernel, grad=NOT_DIFFERENTIABLE, stateful=True,
    doc="accum = accum * momentum - lr * grad; var += accum (Nesterov: var += accum * momentum - lr * grad).")


def _adagrad_v2_kernel(ctx, var, accum, lr, epsilon, grad):
    value, (acc,) = _check(ctx, var, grad, [("accum", accum)], [("lr", lr), ("epsilon", epsilon)])
    if ctx.attrs.get("update_slots", True):
        acc += grad * grad
    var.write(value - grad * lr / (np.sqrt(acc) + epsilon))


register_op(
    "ResourceApplyAdagradV2",
    inputs=["var: resource", "accum: resource", "lr: T", "epsilon: T", "grad: T"],
    outputs=_no_outputs, kernel=_adagrad_v2_kernel, grad=NOT_DIFFERENTIABLE, stateful=True,
    doc="accum += grad^2; var -= lr * grad / (sqrt(accum) + epsilon).")


def _adamax_kernel(ctx, var, m, v, beta1_power, lr, beta1, beta2, epsilon, grad):
    value, (m_v, v_v) = _check(ctx, var, grad, [("m", m), ("v", v)], [
        ("beta1_power", beta1_power), ("lr", lr), ("beta1", beta1), ("beta2", beta2), ("epsilon", epsilon)])
    m_v += (grad - m_v) * (1 - beta1)
    np.maximum(beta2 * v_v, np.abs(grad), out=v_v)
    var.write(value - lr / (1 - beta1_power) * (m_v / (v_v + epsilon)))


register_op(
    "ResourceApplyAdaMax",
    inputs=["var: resource", "m: resource", "v: resource", "beta1_power: T", "lr: T", "beta1: T", "beta2: T",
            "epsilon: T", "grad: T"],
    outputs=_no_outputs, kernel=_adamax_kernel, grad=NOT_DIFFERENTIABLE, stateful=True,
    doc="AdaMax: m moving mean of grad, v = max(beta2 * v, |grad|); var -= lr / (1 - beta1^t) * m / (v + eps).")


def resource_apply(op_type, inputs, use_locking=False, name=None, **attrs):
    """Build ``ResourceApply<op_type>`` on handles and tensors (in the op's input order); returns the op."""
    return build_op("ResourceApply" + op_type, list(inputs), attrs=dict(attrs, use_locking=use_locking),
                    name=name)
