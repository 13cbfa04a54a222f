"""The update ops TF's Keras optimizers (optimizer_v2) use on resource variables and that tf.train's do not:
ResourceApplyKerasMomentum (SGD with momentum, accum holding the negative step), ResourceApplyAdagradV2
(Adagrad with epsilon), ResourceApplyAdamWithAmsgrad (Adam keeping the maximum of v), ResourceApplyAdaMax
(Adamax), and the sparse forms ResourceSparseApplyKerasMomentum and ResourceSparseApplyAdagradV2 (one row at a time, in the order given).

The arithmetic is that of TF's CPU kernels (training_ops.cc), in their order. Variables and slots arrive as
handles; a ResourceVar's ``read`` is its own array (copied first if a read handed it out), changed in place.
"""
import numpy as np

from graphlab.framework.registry import NOT_DIFFERENTIABLE, OpDef, register_op
from graphlab.ops import sparse_training_ops, training_ops
from graphlab.ops.resource_training_ops import _shape_rule
from graphlab.ops.resource_variable_ops import updating


def _register(op_type, reference_inputs, kernel, doc, reference_outputs):
    """Register ``op_type`` taking handles where ``reference_inputs`` (a reference-op signature) has Ref(T)."""
    reference = OpDef(op_type, reference_inputs, reference_outputs, None, None, True, doc)
    register_op(op_type, inputs=[s.replace("Ref(T)", "resource") for s in reference_inputs],
                outputs=_shape_rule(reference), kernel=updating(kernel), grad=NOT_DIFFERENTIABLE, stateful=True,
                doc=doc)


# ------------------------------------------------------------------------------ ResourceApplyKerasMomentum
def _keras_momentum_kernel(ctx, var, accum, lr, grad, momentum):
    value, (acc,) = training_ops._check(ctx, var, grad, [("accum", accum)], [("lr", lr), ("momentum", momentum)])
    np.multiply(acc, momentum, out=acc)
    acc -= grad * lr
    if ctx.attrs.get("use_nesterov"):
        value += acc * momentum - grad * lr
    else:
        value += acc


_register("ResourceApplyKerasMomentum",
          ["var: Ref(T)", "accum: Ref(T)", "lr: T", "grad: T", "momentum: T"], _keras_momentum_kernel,
          "accum = accum * momentum - lr * grad; var += accum (Nesterov: var += accum * momentum - lr * grad).",
          training_ops._ref_output)


def _sparse_keras_momentum_kernel(ctx, var, accum, lr, grad, indices, momentum):
    value, (acc,) = sparse_training_ops._check(ctx, var, [("accum", accum)], [("lr", lr), ("momentum", momentum)],
                                               grad, indices)
    nesterov = ctx.attrs.get("use_nesterov")
    for i, row in enumerate(indices):
        g = grad[i]
        acc[row] = acc[row] * momentum - g * lr
        if nesterov:
            value[row] += acc[row] * momentum - g * lr
        else:
            value[row] += acc[row]


_register("ResourceSparseApplyKerasMomentum",
          ["var: Ref(T)", "accum: Ref(T)", "lr: T", "grad: T", "indices: Tindices", "momentum: T"],
          _sparse_keras_momentum_kernel, "ResourceApplyKerasMomentum on the rows named by indices.",
          sparse_training_ops._sparse_outputs(slots=[1], scalars_before=[2], scalars_after=[5]))


# ---------------------------------------------------------------------------------- ResourceApplyAdagradV2
def _adagrad_v2_kernel(ctx, var, accum, lr, epsilon, grad):
    value, (acc,) = training_ops._check(ctx, var, grad, [("accum", accum)], [("lr", lr), ("epsilon", epsilon)])
    if ctx.attrs.get("update_slots", True):
        acc += grad * grad
    value -= grad * lr / (np.sqrt(acc) + epsilon)


_register("ResourceApplyAdagradV2",
          ["var: Ref(T)", "accum: Ref(T)", "lr: T", "epsilon: T", "grad: T"], _adagrad_v2_kernel,
          "accum += grad^2; var -= lr * grad / (sqrt(accum) + epsilon).", training_ops._ref_output)


def _sparse_adagrad_v2_kernel(ctx, var, accum, lr, epsilon, grad, indices):
    value, (acc,) = sparse_training_ops._check(ctx, var, [("accum", accum)], [("lr", lr), ("epsilon", epsilon)],
                                               grad, indices, inner_dim_check=True)
    update_slots = ctx.attrs.get("update_slots", True)
    for i, row in enumerate(indices):
        g = grad[i]
        if update_slots:
            acc[row] += g * g
        value[row] -= g * lr / (np.sqrt(acc[row]) + epsilon)


_register("ResourceSparseApplyAdagradV2",
          ["var: Ref(T)", "accum: Ref(T)", "lr: T", "epsilon: T", "grad: T", "indices: Tindices"],
          _sparse_adagrad_v2_kernel, "ResourceApplyAdagradV2 on the rows named by indices.",
          sparse_training_ops._sparse_outputs(slots=[1], scalars_before=[2, 3]))


# ---------------------------------------------------------------------------- ResourceApplyAdamWithAmsgrad
def _amsgrad_kernel(ctx, var, m, v, vhat, beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad):
    value, (m_v, v_v, vhat_v) = training_ops._check(
        ctx, var, grad, [("m", m), ("v", v), ("vhat", vhat)],
        [("beta1_power", beta1_power), ("beta2_power", beta2_power), ("lr", lr), ("beta1", beta1),
         ("beta2", beta2), ("epsilon", epsilon)], spaced_colon=("lr",))
    dt = value.dtype.type
    alpha = dt(lr * np.sqrt(1 - beta2_power) / (1 - beta1_power))
    m_v += (grad - m_v) * (1 - beta1)
    v_v += (grad * grad - v_v) * (1 - beta2)
    np.maximum(vhat_v, v_v, out=vhat_v)
    value -= (m_v * alpha) / (np.sqrt(vhat_v) + epsilon)


_register("ResourceApplyAdamWithAmsgrad",
          ["var: Ref(T)", "m: Ref(T)", "v: Ref(T)", "vhat: Ref(T)", "beta1_power: T", "beta2_power: T", "lr: T",
           "beta1: T", "beta2: T", "epsilon: T", "grad: T"], _amsgrad_kernel,
          "Adam with vhat = max(vhat, v) in the denominator (AMSGrad).", training_ops._ref_output)


# ------------------------------------------------------------------------------------- ResourceApplyAdaMax
def _adamax_kernel(ctx, var, m, v, beta1_power, lr, beta1, beta2, epsilon, grad):
    value, (m_v, v_v) = training_ops._check(ctx, var, grad, [("m", m), ("v", v)], [
        ("beta1_power", beta1_power), ("lr", lr), ("beta1", beta1), ("beta2", beta2), ("epsilon", epsilon)])
    m_v += (grad - m_v) * (1 - beta1)
    np.maximum(beta2 * v_v, np.abs(grad), out=v_v)
    var.write(value - lr / (1 - beta1_power) * (m_v / (v_v + epsilon)))


_register("ResourceApplyAdaMax",
          ["var: Ref(T)", "m: Ref(T)", "v: Ref(T)", "beta1_power: T", "lr: T", "beta1: T", "beta2: T", "epsilon: T",
           "grad: T"], _adamax_kernel,
          "AdaMax: m moving mean of grad, v = max(beta2 * v, |grad|); var -= lr / (1 - beta1^t) * m / (v + eps).",
          training_ops._ref_output)
