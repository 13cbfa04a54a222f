"""The sparse update ops optimizers add for an IndexedSlices gradient: SparseApplyMomentum,
SparseApplyAdagrad, SparseApplyRMSProp, SparseApplyCenteredRMSProp and SparseApplyAdadelta. Each changes only the rows of the variable
(and of its slots) that ``indices`` names, one row at a time in the order given, so a repeated row is
updated twice, as TF's CPU kernels do (optimizers sum repeated rows first, with Unique).

GradientDescent and Adam need no op of their own: TF builds their sparse updates from ScatterSub and
ScatterAdd (graphlab.ops.indexed_ops).
"""
import numpy as np

from graphlab.formats.errors import InvalidArgumentError
from graphlab.ops.indexed_ops import merge_shapes
from graphlab.framework.registry import NOT_DIFFERENTIABLE, build_op, register_op
from graphlab.ops.state_ops import _dims


# ------------------------------------------------------------------------------ shapes and run-time checks
def _sparse_outputs(slots, scalars_before, scalars_after=()):
    """TF's shape rule: var merged with its slots, hyper-parameters scalars, indices a vector as long as
    grad's first dimension, grad's other dimensions those of var. Positions count op inputs."""
    def outputs(op):
        ins = op._inputs
        shape = ins[0]._shape
        for i in slots:
            shape = merge_shapes(shape, ins[i]._shape)
        for i in scalars_before:
            _scalar(ins[i])
        grad_at = max(list(slots) + list(scalars_before)) + 1
        grad, indices = ins[grad_at], ins[grad_at + 1]
        if indices._shape.ndims not in (None, 1):
            raise ValueError("Shape must be rank 1 but is rank %d" % indices._shape.ndims)
        if grad._shape.ndims == 0:
            raise ValueError("Shape must be at least rank 1 but is rank 0")
        n, rows = indices._shape.as_list()[0] if indices._shape.ndims else None, \
            grad._shape.as_list()[0] if grad._shape.ndims else None
        if n is not None and rows is not None and n != rows:
            raise ValueError("Dimensions must be equal, but are %d and %d" % (n, rows))
        if grad._shape.ndims is not None:
            from graphlab.framework import tensor_shape
            shape = merge_shapes(shape, tensor_shape.TensorShape([None] + grad._shape.as_list()[1:]))
        for i in scalars_after:
            _scalar(ins[i])
        return [(ins[0]._dtype, shape)]
    return outputs


def _scalar(t):
    if t._shape.ndims not in (None, 0):
        raise ValueError("Shape must be rank 0 but is rank %d" % t._shape.ndims)


def _check(ctx, var, slots, scalars, grad, indices, inner_dim_check=False):
    """TF's checks, in its order and words; returns the variable's and slots' current values."""
    value = var.read(ctx)
    slot_values = [ref.read(ctx) for _, ref in slots]
    for (name, _), slot in zip(slots, slot_values):
        if slot.shape != value.shape:
            raise InvalidArgumentError(None, ctx.op, "var and %s do not have the same shape%s %s" % (
                name, _dims(value.shape), _dims(slot.shape)))
    if value.ndim < 1:
        raise InvalidArgumentError(None, ctx.op, "var must be at least 1 dimensional")
    for name, x in scalars:
        if np.ndim(x) != 0:
            raise InvalidArgumentError(None, ctx.op, "%s is not a scalar: %s" % (name, _dims(np.shape(x))))
    if np.ndim(indices) != 1:
        raise InvalidArgumentError(None, ctx.op, "indices must be one-dimensional")
    for d in range(1, value.ndim):
        if np.ndim(grad) <= d or grad.shape[d] != value.shape[d]:
            raise InvalidArgumentError(None, ctx.op, "var and grad must match in dimension %d" % d)
    if np.ndim(grad) < 1 or grad.shape[0] != indices.shape[0]:
        raise InvalidArgumentError(None, ctx.op, "grad must be the same size as indices in the first dimension.")
    if inner_dim_check and not int(np.prod(value.shape[1:])):
        raise InvalidArgumentError(None, ctx.op, "Inner dimension should be greater than zero.")
    for i, index in enumerate(np.asarray(indices).reshape(-1)):
        if not 0 <= index < value.shape[0]:
            raise InvalidArgumentError(None, ctx.op, "Index %d at offset %d in indices is out of range" % (index, i))
    return value, slot_values        # the buffer itself: TF's sparse updates change the rows in place


# ------------------------------------------------------------------------------------ SparseApplyMomentum
def _momentum_kernel(ctx, var, accum, lr, grad, indices, momentum):
    value, (acc,) = _check(ctx, var, [("accum", accum)], [("lr", lr), ("momentum", momentum)], grad, indices)
    nesterov = ctx.attrs.get("use_nesterov")
    for i, row in enumerate(indices):
        g = grad[i]
        acc[row] = acc[row] * momentum + g
        if nesterov:
            value[row] -= g * lr + acc[row] * lr * momentum
        else:
            value[row] -= lr * acc[row]
    return var


register_op(
    "SparseApplyMomentum",
    inputs=["var: Ref(T)", "accum: Ref(T)", "lr: T", "grad: T", "indices: Tindices", "momentum: T"],
    outputs=_sparse_outputs(slots=[1], scalars_before=[2], scalars_after=[5]),
    kernel=_momentum_kernel,
    grad=NOT_DIFFERENTIABLE,
    stateful=True,
    doc="For each row i named by indices: accum[i] = accum[i] * momentum + grad; var[i] -= lr * accum[i].")


def sparse_apply_momentum(var, accum, lr, grad, indices, momentum, use_locking=False, use_nesterov=False,
                          name=None):
    return build_op("SparseApplyMomentum", [var, accum, lr, grad, indices, momentum],
                    attrs={"use_locking": use_locking, "use_nesterov": use_nesterov}, name=name).outputs[0]


# ------------------------------------------------------------------------------------- SparseApplyAdagrad
def _adagrad_kernel(ctx, var, accum, lr, grad, indices):
    value, (acc,) = _check(ctx, var, [("accum", accum)], [("lr", lr)], grad, indices, inner_dim_check=True)
    update_slots = ctx.attrs.get("update_slots", True)
    one_per_row = value.size == value.shape[0]     # TF's kernel then divides by sqrt instead of rsqrt
    for i, row in enumerate(indices):
        g = grad[i]
        if update_slots:
            acc[row] += g * g
        if one_per_row:
            value[row] -= lr * g / np.sqrt(acc[row])
        else:
            value[row] -= lr * g * (1 / np.sqrt(acc[row]))    # TF: lr * g * rsqrt(accum)
    return var


register_op(
    "SparseApplyAdagrad",
    inputs=["var: Ref(T)", "accum: Ref(T)", "lr: T", "grad: T", "indices: Tindices"],
    outputs=_sparse_outputs(slots=[1], scalars_before=[2]),
    kernel=_adagrad_kernel,
    grad=NOT_DIFFERENTIABLE,
    stateful=True,
    doc="For each row i named by indices: accum[i] += grad^2; var[i] -= lr * grad / sqrt(accum[i]).")


def sparse_apply_adagrad(var, accum, lr, grad, indices, use_locking=False, update_slots=True, name=None):
    return build_op("SparseApplyAdagrad", [var, accum, lr, grad, indices],
                    attrs={"use_locking": use_locking, "update_slots": update_slots}, name=name).outputs[0]


# ------------------------------------------------------------------------------------ SparseApplyRMSProp
def _rmsprop_kernel(ctx, var, ms, mom, lr, rho, momentum, epsilon, grad, indices):
    value, (ms_v, mom_v) = _check(ctx, var, [("ms", ms), ("mom", mom)],
                                  [("lr", lr), ("rho", rho), ("momentum", momentum), ("epsilon", epsilon)],
                                  grad, indices)
    for i, row in enumerate(indices):
        g = grad[i]
        ms_v[row] = ms_v[row] * rho + g * g * (1 - rho)
        mom_v[row] = mom_v[row] * momentum + (1 / np.sqrt(ms_v[row] + epsilon)) * lr * g
        value[row] -= mom_v[row]
    return var


register_op(
    "SparseApplyRMSProp",
    inputs=["var: Ref(T)", "ms: Ref(T)", "mom: Ref(T)", "lr: T", "rho: T", "momentum: T", "epsilon: T",
            "grad: T", "indices: Tindices"],
    outputs=_sparse_outputs(slots=[1, 2], scalars_before=[3, 4, 5, 6]),
    kernel=_rmsprop_kernel,
    grad=NOT_DIFFERENTIABLE,
    stateful=True,
    doc="ApplyRMSProp on the rows named by indices only.")


def sparse_apply_rms_prop(var, ms, mom, lr, rho, momentum, epsilon, grad, indices, use_locking=False, name=None):
    return build_op("SparseApplyRMSProp", [var, ms, mom, lr, rho, momentum, epsilon, grad, indices],
                    attrs={"use_locking": use_locking}, name=name).outputs[0]


# ---------------------------------------------------------------------------- SparseApplyCenteredRMSProp
def _centered_rmsprop_kernel(ctx, var, mg, ms, mom, lr, rho, momentum, epsilon, grad, indices):
    value, (mg_v, ms_v, mom_v) = _check(ctx, var, [("mg", mg), ("ms", ms), ("mom", mom)],
                                        [("lr", lr), ("rho", rho), ("momentum", momentum), ("epsilon", epsilon)],
                                        grad, indices)
    for i, row in enumerate(indices):
        g = grad[i]
        ms_v[row] = ms_v[row] * rho + g * g * (1 - rho)
        mg_v[row] = mg_v[row] * rho + g * (1 - rho)
        denom = (ms_v[row] + epsilon) - mg_v[row] * mg_v[row]
        mom_v[row] = mom_v[row] * momentum + (1 / np.sqrt(denom)) * lr * g
        value[row] -= mom_v[row]
    return var


register_op(
    "SparseApplyCenteredRMSProp",
    inputs=["var: Ref(T)", "mg: Ref(T)", "ms: Ref(T)", "mom: Ref(T)", "lr: T", "rho: T", "momentum: T",
            "epsilon: T", "grad: T", "indices: Tindices"],
    outputs=_sparse_outputs(slots=[1, 2, 3], scalars_before=[4, 5, 6, 7]),
    kernel=_centered_rmsprop_kernel,
    grad=NOT_DIFFERENTIABLE,
    stateful=True,
    doc="ApplyCenteredRMSProp on the rows named by indices only.")


def sparse_apply_centered_rms_prop(var, mg, ms, mom, lr, rho, momentum, epsilon, grad, indices, use_locking=False,
                                   name=None):
    return build_op("SparseApplyCenteredRMSProp", [var, mg, ms, mom, lr, rho, momentum, epsilon, grad, indices],
                    attrs={"use_locking": use_locking}, name=name).outputs[0]


# ----------------------------------------------------------------------------------- SparseApplyAdadelta
def _adadelta_kernel(ctx, var, accum, accum_update, lr, rho, epsilon, grad, indices):
    value, (acc, acc_up) = _check(ctx, var, [("accum_grad", accum), ("accum_update", accum_update)],
                                  [("lr", lr), ("rho", rho), ("epsilon", epsilon)], grad, indices)
    for i, row in enumerate(indices):
        g = grad[i]
        acc[row] = acc[row] * rho + g * g * (1 - rho)
        update = np.sqrt(acc_up[row] + epsilon) * (1 / np.sqrt(acc[row] + epsilon)) * g
        value[row] -= update * lr
        acc_up[row] = acc_up[row] * rho + update * update * (1 - rho)
    return var


register_op(
    "SparseApplyAdadelta",
    inputs=["var: Ref(T)", "accum: Ref(T)", "accum_update: Ref(T)", "lr: T", "rho: T", "epsilon: T", "grad: T",
            "indices: Tindices"],
    outputs=_sparse_outputs(slots=[1, 2], scalars_before=[3, 4, 5]),
    kernel=_adadelta_kernel,
    grad=NOT_DIFFERENTIABLE,
    stateful=True,
    doc="ApplyAdadelta on the rows named by indices only.")


def sparse_apply_adadelta(var, accum, accum_update, lr, rho, epsilon, grad, indices, use_locking=False,
                          name=None):
    return build_op("SparseApplyAdadelta", [var, accum, accum_update, lr, rho, epsilon, grad, indices],
                    attrs={"use_locking": use_locking}, name=name).outputs[0]


__all__ = ["sparse_apply_momentum", "sparse_apply_adagrad", "sparse_apply_rms_prop", "sparse_apply_centered_rms_prop",
           "sparse_apply_adadelta"]
