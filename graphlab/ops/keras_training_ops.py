"""The three fused updates only tf-keras's optimizers use, all on resource variables: ResourceApplyKerasMomentum
(SGD with momentum: ``accum = accum * momentum - lr * grad; var += accum``), ResourceApplyAdagradV2 (Adagrad
with epsilon outside the root) and ResourceApplyAdaMax. Their arithmetic follows TF's training_ops.cc in its
order of operations; the checks and messages are training_ops' (``_check``), and each runs holding its
variables' locks as every resource update does (resource_variable_ops.updating)."""
import numpy as np

from graphlab.framework.registry import NOT_DIFFERENTIABLE, register_op
from graphlab.ops.resource_variable_ops import updating
from graphlab.ops.training_ops import _check


def _no_outputs(op):
    return []


# ------------------------------------------------------------------------------ ResourceApplyKerasMomentum
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
    outputs=_no_outputs, kernel=updating(_keras_momentum_kernel), grad=NOT_DIFFERENTIABLE, stateful=True,
    doc="accum = accum * momentum - lr * grad; var += accum (Nesterov: var += accum * momentum - lr * grad).")


# ---------------------------------------------------------------------------------- ResourceApplyAdagradV2
def _adagrad_v2_kernel(ctx, var, accum, lr, epsilon, grad):
    value, (acc,) = _check(ctx, var, grad, [("accum", accum)], [("lr", lr), ("epsilon", epsilon)])
    if ctx.attrs.get("update_slots", True):
        acc += grad * grad
    var.write(value - grad * lr / (np.sqrt(acc) + epsilon))


register_op(
    "ResourceApplyAdagradV2",
    inputs=["var: resource", "accum: resource", "lr: T", "epsilon: T", "grad: T"],
    outputs=_no_outputs, kernel=updating(_adagrad_v2_kernel), grad=NOT_DIFFERENTIABLE, stateful=True,
    doc="accum += grad^2; var -= lr * grad / (sqrt(accum) + epsilon).")


# ------------------------------------------------------------------------------------- ResourceApplyAdaMax
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
    outputs=_no_outputs, kernel=updating(_adamax_kernel), grad=NOT_DIFFERENTIABLE, stateful=True,
    doc="AdaMax: m moving mean of grad, v = max(beta2 * v, |grad|); var -= lr / (1 - beta1^t) * m / (v + eps).")


# ------------------------------------------------------------------------ ResourceSparseApplyKerasMomentum
def _sparse_keras_momentum_kernel(ctx, var, accum, lr, grad, indices, momentum):
    """The rows ``indices`` of var and accum updated as KerasMomentum does, one row at a time in order (so a
    repeated index is applied twice, as TF's kernel does)."""
    value = var.read(ctx)
    acc = accum.read(ctx)
    first = value.shape[0]
    for row, g in zip(np.asarray(indices).reshape(-1), np.asarray(grad).reshape((-1,) + value.shape[1:])):
        if not 0 <= row < first:
            from graphlab.formats.errors import InvalidArgumentError
            raise InvalidArgumentError(None, ctx.op, "Index %d at offset 0 in indices is out of range" % row)
        acc[row] = acc[row] * momentum - g * lr
        if ctx.attrs.get("use_nesterov"):
            value[row] += acc[row] * momentum - g * lr
        else:
            value[row] += acc[row]
    var.write(value)


register_op(
    "ResourceSparseApplyKerasMomentum",
    inputs=["var: resource", "accum: resource", "lr: T", "grad: T", "indices: Tindices", "momentum: T"],
    outputs=_no_outputs, kernel=updating(_sparse_keras_momentum_kernel), grad=NOT_DIFFERENTIABLE, stateful=True,
    doc="KerasMomentum on the rows ``indices`` only (SGD with momentum on an embedding's gradient).")
