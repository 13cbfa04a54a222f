"""Conditional accumulators, where synchronous replicas meet (TF1's ``tf.ConditionalAccumulator`` and
``tf.SparseConditionalAccumulator``, the ops SyncReplicasOptimizer builds on the parameter servers).

An accumulator sums the gradients it is given and hands out their average (or sum) once enough have come.
It keeps a time step of its own: a gradient computed at an earlier step than the accumulator's is stale and
silently dropped, so a slow replica cannot pull the model back. Taking the gradient blocks until
``num_required`` gradients are in, then empties the accumulator and advances its step by one;
``set_global_step`` moves the step to the global step (TF only logs a warning when that goes backwards).

The dense accumulator is TF 2.21's resource form (ResourceConditionalAccumulator and its
ResourceAccumulator* ops); the sparse one keeps TF's reference form (SparseConditionalAccumulator, a string
ref, with AccumulatorNumAccumulated and AccumulatorSetGlobalStep). Both live in the session, shared by
shared_name as queues are, and wait as queue kernels do (graphlab/runtime/waiting.py).
"""
import collections
import threading

import numpy as np

from graphlab.formats.errors import InvalidArgumentError
from graphlab.framework import dtypes, tensor_shape
from graphlab.framework import registry
from graphlab.framework.indexed_slices import IndexedSlices
from graphlab.framework.registry import NOT_DIFFERENTIABLE, build_op, no_outputs, register_op
from graphlab.runtime.waiting import wait_for

_HANDLE_SHAPE = tensor_shape.TensorShape([2])    # TF's shape function gives both handle forms the shape [2]


class _AccumulatorState:
    """One accumulator's state in a session: the running sum, how many gradients it holds, its time step.
    A dense sum is one array; a sparse sum is (indices, rows, how many gradients each row holds)."""

    def __init__(self, name, shape, reduction_type, sparse):
        self.name, self.sparse = name, sparse
        self.shape = shape                 # the declared shape (TensorShape), maybe partly unknown
        self.mean = reduction_type == "MEAN"
        self.counter = 0
        self.global_step = 0
        self.sum = None
        self.cond = threading.Condition(threading.Lock())


def _state(ctx, sparse):
    key = ("__accumulator__", ctx.attrs.get("shared_name") or ctx.op.name)
    acc = ctx.state.get(key)
    if acc is None:
        with ctx.session._lock:
            acc = ctx.state.get(key)
            if acc is None:
                acc = ctx.state[key] = _AccumulatorState(ctx.op.name, ctx.attrs["shape"],
                                                         ctx.attrs.get("reduction_type", "MEAN"), sparse)
    return acc


def _dims(shape):
    return "[%s]" % ",".join(str(d) for d in shape)


def _handle_outputs(dtype):
    return lambda op: [(dtype, _HANDLE_SHAPE)]


# ------------------------------------------------------------------------------------------- creation
register_op("ResourceConditionalAccumulator", outputs=_handle_outputs(dtypes.resource),
            kernel=lambda ctx: _state(ctx, False), grad=NOT_DIFFERENTIABLE, stateful=True,
            doc="A dense gradient accumulator owned by the session; outputs its handle.")
register_op("ConditionalAccumulator", outputs=_handle_outputs(dtypes.string._as_ref),
            kernel=lambda ctx: _state(ctx, False), grad=NOT_DIFFERENTIABLE, stateful=True,
            doc="The reference form of ResourceConditionalAccumulator (graphs written by older TF).")
register_op("SparseConditionalAccumulator", outputs=_handle_outputs(dtypes.string._as_ref),
            kernel=lambda ctx: _state(ctx, True), grad=NOT_DIFFERENTIABLE, stateful=True,
            doc="An accumulator of IndexedSlices gradients, averaged row by row; outputs its handle.")


# ------------------------------------------------------------------------------------ apply gradient
def _check_step(acc, local_step):
    """Whether a gradient of ``local_step`` counts (lock held); a stale one is dropped without a word."""
    return int(local_step) >= acc.global_step


def _apply_dense_kernel(ctx, acc, local_step, gradient):
    gradient = np.asarray(gradient)
    with acc.cond:
        if not _check_step(acc, local_step):
            return
        if acc.shape.ndims and not acc.shape.is_compatible_with(gradient.shape):
            raise InvalidArgumentError(None, ctx.op, "Shape mismatch: expected %s, got %s" % (
                acc.shape.bracket_str(), _dims(gradient.shape)))
        if acc.sum is not None and acc.sum.shape != gradient.shape:
            raise InvalidArgumentError(None, ctx.op, "Shape mismatch: expected %s, got %s" % (
                _dims(acc.sum.shape), _dims(gradient.shape)))
        if acc.sum is None:
            acc.sum = np.array(gradient, copy=True)
        else:
            acc.sum += gradient
        acc.counter += 1
        acc.cond.notify_all()


def _check_sparse(ctx, acc, indices, values, shape, has_known_shape):
    """TF's checks of a sparse gradient, in TF's order: its dense shape against the accumulator's, its rows
    against the accumulator's shape (or the rows already summed), one row per index, indices in range."""
    declared = acc.shape.as_list() if acc.shape.ndims is not None else None
    if has_known_shape and declared is not None:
        shape = [int(d) for d in np.asarray(shape).reshape(-1)]
        for i, (want, got) in enumerate(zip(declared, shape)):
            if want is not None and want != got:
                raise InvalidArgumentError(None, ctx.op, "Shape mismatch: expected shape dim %d to be %d, got %d"
                                           % (i, want, got))
    wanted_rows = declared[1:] if declared else (list(acc.sum[1].shape[1:]) if acc.sum is not None else None)
    if wanted_rows is not None:
        for i, (want, got) in enumerate(zip(wanted_rows, values.shape[1:]), start=1):
            if want is not None and want != got:
                raise InvalidArgumentError(None, ctx.op, "Shape mismatch: expected values dim %d to be %d, got %d"
                                           % (i, want, got))
    rows = values.shape[0] if values.ndim else 0
    if len(indices) != rows:
        raise InvalidArgumentError(None, ctx.op, "Expected %d non-empty input values, got %d" % (len(indices), rows))
    if declared and declared[0] is not None:
        for k, index in enumerate(indices.tolist()):
            if index >= declared[0]:
                raise InvalidArgumentError(None, ctx.op, "Shape mismatch: index of slice %d exceeded limits of "
                                           "shape; index is %d exceeded %d" % (k, index, declared[0]))


def _apply_sparse_kernel(ctx, acc, local_step, indices, values, shape):
    indices, values = np.asarray(indices, np.int64).reshape(-1), np.asarray(values)
    with acc.cond:
        if not _check_step(acc, local_step):
            return
        _check_sparse(ctx, acc, indices, values, shape, ctx.attrs["has_known_shape"])
        if acc.sum is None:
            acc.sum = (indices.copy(), np.array(values, copy=True), np.ones(len(indices), np.int64))
        else:
            acc.sum = _merge(acc.sum, indices, values)
        acc.counter += 1
        acc.cond.notify_all()


def _merge(summed, indices, values):
    """TF's merge of a new sparse gradient into the sum: one walk along both index lists, taking the smaller
    index first and adding the rows whose indices meet (each row counts the gradients it holds). The walk
    takes both lists as sorted: unsorted or repeated indices stay as they fall, as in TF."""
    old_idx, old_val, old_cnt = summed
    idx, val, cnt = [], [], []
    i = j = 0
    while i < len(old_idx) and j < len(indices):
        if old_idx[i] < indices[j]:
            idx.append(old_idx[i]), val.append(old_val[i]), cnt.append(old_cnt[i])
            i += 1
        elif old_idx[i] > indices[j]:
            idx.append(indices[j]), val.append(values[j]), cnt.append(1)
            j += 1
        else:
            idx.append(old_idx[i]), val.append(old_val[i] + values[j]), cnt.append(old_cnt[i] + 1)
            i, j = i + 1, j + 1
    for k in range(i, len(old_idx)):
        idx.append(old_idx[k]), val.append(old_val[k]), cnt.append(old_cnt[k])
    for k in range(j, len(indices)):
        idx.append(indices[k]), val.append(values[k]), cnt.append(1)
    rows = np.stack(val).astype(old_val.dtype, copy=False) if val else old_val[:0]
    return np.array(idx, np.int64), rows, np.array(cnt, np.int64)


register_op("ResourceAccumulatorApplyGradient",
            inputs=["handle: resource", "local_step: int64", "gradient: dtype"], outputs=no_outputs,
            kernel=_apply_dense_kernel, grad=NOT_DIFFERENTIABLE, stateful=True,
            doc="Adds a gradient unless it is stale (local_step below the accumulator's step).")
register_op("AccumulatorApplyGradient",
            inputs=["handle: Ref(string)", "local_step: int64", "gradient: dtype"], outputs=no_outputs,
            kernel=_apply_dense_kernel, grad=NOT_DIFFERENTIABLE, stateful=True,
            doc="ResourceAccumulatorApplyGradient on the reference form.")
register_op("SparseAccumulatorApplyGradient",
            inputs=["handle: Ref(string)", "local_step: int64", "gradient_indices: int64",
                    "gradient_values: dtype", "gradient_shape: int64"], outputs=no_outputs,
            kernel=_apply_sparse_kernel, grad=NOT_DIFFERENTIABLE, stateful=True,
            doc="Adds an IndexedSlices gradient row by row unless it is stale.")


# ------------------------------------------------------------------------------------- take gradient
def _wait_for_gradients(ctx, acc, num_required):
    """Wait (lock held) until ``num_required`` gradients are in; TF's check of num_required first."""
    num_required = int(num_required)
    if num_required < 1:
        raise InvalidArgumentError(None, ctx.op, "Argument num_required must be positive, but was %d"
                                   % num_required)
    wait_for(ctx, acc.cond, lambda: acc.counter >= num_required)


def _reset(acc):
    """After a take: empty, and one step further."""
    acc.sum, acc.counter = None, 0
    acc.global_step += 1


def _take_dense_kernel(ctx, acc, num_required):
    with acc.cond:
        _wait_for_gradients(ctx, acc, num_required)
        total = acc.sum
        if acc.mean:
            total = (total / np.asarray(acc.counter, total.dtype)).astype(total.dtype, copy=False)
        _reset(acc)
        return total


def _take_sparse_kernel(ctx, acc, num_required):
    with acc.cond:
        _wait_for_gradients(ctx, acc, num_required)
        indices, values, counts = acc.sum
        if acc.mean:    # each row over the gradients that had it
            values = values / counts.reshape((-1,) + (1,) * (values.ndim - 1)).astype(values.dtype)
        # the dense shape: the accumulator's when fully known, else the rows' with -1 for the first dimension
        shape = acc.shape.as_list() if acc.shape.is_fully_defined() else [-1] + list(values.shape[1:])
        _reset(acc)
        return indices, np.asarray(values, ctx.attrs["dtype"].as_numpy_dtype), np.array(shape, np.int64)


register_op("ResourceAccumulatorTakeGradient", inputs=["handle: resource", "num_required: int32"],
            outputs=lambda op: [(op._attrs["dtype"], tensor_shape.UNKNOWN)],
            kernel=_take_dense_kernel, grad=NOT_DIFFERENTIABLE, stateful=True,
            doc="Waits for num_required gradients; outputs their mean (or sum), empties the accumulator and "
                "advances its step.")
register_op("AccumulatorTakeGradient", inputs=["handle: Ref(string)", "num_required: int32"],
            outputs=lambda op: [(op._attrs["dtype"], tensor_shape.UNKNOWN)],
            kernel=_take_dense_kernel, grad=NOT_DIFFERENTIABLE, stateful=True,
            doc="ResourceAccumulatorTakeGradient on the reference form.")
register_op("SparseAccumulatorTakeGradient", inputs=["handle: Ref(string)", "num_required: int32"],
            outputs=lambda op: [(dtypes.int64, tensor_shape.UNKNOWN), (op._attrs["dtype"], tensor_shape.UNKNOWN),
                                (dtypes.int64, tensor_shape.UNKNOWN)],
            kernel=_take_sparse_kernel, grad=NOT_DIFFERENTIABLE, stateful=True,
            doc="Waits for num_required gradients; outputs indices, values (each row averaged over the "
                "gradients that had it) and dense shape.")


# ------------------------------------------------------------------------ num accumulated, global step
def _num_kernel(ctx, acc):
    with acc.cond:
        return np.int32(acc.counter)


def _set_step_kernel(ctx, acc, new_global_step):
    with acc.cond:
        # TF logs a warning when the step goes backwards, and sets it all the same; the sum is kept
        acc.global_step = int(new_global_step)


for _type, _handle in (("ResourceAccumulatorNumAccumulated", "resource"), ("AccumulatorNumAccumulated", "Ref(string)")):
    register_op(_type, inputs=["handle: %s" % _handle], outputs=lambda op: [(dtypes.int32, tensor_shape.SCALAR)],
                kernel=_num_kernel, grad=NOT_DIFFERENTIABLE, stateful=True,
                doc="How many gradients the accumulator holds now.")
for _type, _handle in (("ResourceAccumulatorSetGlobalStep", "resource"), ("AccumulatorSetGlobalStep", "Ref(string)")):
    register_op(_type, inputs=["handle: %s" % _handle, "new_global_step: int64"], outputs=no_outputs,
                kernel=_set_step_kernel, grad=NOT_DIFFERENTIABLE, stateful=True,
                doc="Moves the accumulator's step; later gradients older than it are dropped.")


# ------------------------------------------------------------------------------------ Python classes
def _int64(value):
    from graphlab.ops import math_ops
    return math_ops.cast(registry.convert_to_tensor(value), dtypes.int64)


class ConditionalAccumulatorBase:
    """What both accumulators share: the handle, ``num_accumulated`` and ``set_global_step``."""

    _num_type, _step_type = "ResourceAccumulatorNumAccumulated", "ResourceAccumulatorSetGlobalStep"

    def __init__(self, dtype, shape, accumulator_ref):
        self._dtype = dtype
        self._shape = tensor_shape.TensorShape(shape) if shape is not None else tensor_shape.unknown_shape()
        self._accumulator_ref = accumulator_ref
        self._name = accumulator_ref.op.name.split("/")[-1]

    accumulator_ref = property(lambda self: self._accumulator_ref)
    name = property(lambda self: self._name, doc="The accumulator op's own name (its last path part).")
    dtype = property(lambda self: self._dtype)

    def num_accumulated(self, name=None):
        return build_op(self._num_type, [self._accumulator_ref],
                        name=name or "%s_NumAccumulated" % self._name).outputs[0]

    def set_global_step(self, new_global_step, name=None):
        return build_op(self._step_type, [self._accumulator_ref, _int64(new_global_step)], name=name,
                        default_name=self._step_type)


def _make(op_type, dtype, shape, shared_name, name, reduction_type):
    dtype = dtypes.as_dtype(dtype)
    return build_op(op_type, (), name=name, attrs={
        "dtype": dtype, "shape": tensor_shape.as_shape(shape) if shape is not None else tensor_shape.unknown_shape(),
        "container": "", "shared_name": shared_name or "", "reduction_type": reduction_type}).outputs[0]


class ConditionalAccumulator(ConditionalAccumulatorBase):
    """``tf.ConditionalAccumulator(dtype, shape=None, shared_name=None, name="conditional_accumulator",
    reduction_type="MEAN")``: dense gradients, averaged (or summed) once enough have come."""

    def __init__(self, dtype, shape=None, shared_name=None, name="conditional_accumulator", reduction_type="MEAN"):
        ref = _make("ResourceConditionalAccumulator", dtype, shape, shared_name, name, reduction_type)
        super().__init__(dtypes.as_dtype(dtype), shape, ref)

    def apply_grad(self, grad, local_step=0, name=None):
        grad = registry.convert_to_tensor(grad, dtype=self._dtype)
        grad.get_shape().assert_is_compatible_with(self._shape)
        return build_op("ResourceAccumulatorApplyGradient", [self._accumulator_ref, _int64(local_step), grad],
                        name=name, attrs={"dtype": self._dtype})

    def take_grad(self, num_required, name=None):
        out = build_op("ResourceAccumulatorTakeGradient", [self._accumulator_ref, num_required], name=name,
                       attrs={"dtype": self._dtype}).outputs[0]
        out.set_shape(self._shape)
        return out


class SparseConditionalAccumulator(ConditionalAccumulatorBase):
    """``tf.SparseConditionalAccumulator``: IndexedSlices gradients; each row of the result is averaged over
    the gradients that had that row."""

    _num_type, _step_type = "AccumulatorNumAccumulated", "AccumulatorSetGlobalStep"

    def __init__(self, dtype, shape=None, shared_name=None, name="sparse_conditional_accumulator",
                 reduction_type="MEAN"):
        ref = _make("SparseConditionalAccumulator", dtype, shape, shared_name, name, reduction_type)
        super().__init__(dtypes.as_dtype(dtype), shape, ref)

    def apply_indexed_slices_grad(self, grad, local_step=0, name=None):
        return self.apply_grad(grad_indices=grad.indices, grad_values=grad.values, grad_shape=grad.dense_shape,
                               local_step=local_step, name=name)

    def apply_grad(self, grad_indices, grad_values, grad_shape=None, local_step=0, name=None):
        from graphlab.ops import math_ops
        local_step = _int64(local_step)
        indices = math_ops.cast(grad_indices, dtypes.int64)
        shape = math_ops.cast([] if grad_shape is None else grad_shape, dtypes.int64)
        return build_op("SparseAccumulatorApplyGradient",
                        [self._accumulator_ref, local_step, indices, grad_values, shape], name=name,
                        attrs={"dtype": self._dtype, "has_known_shape": grad_shape is not None})

    def _take(self, num_required, name):
        return build_op("SparseAccumulatorTakeGradient", [self._accumulator_ref, num_required], name=name,
                        attrs={"dtype": self._dtype}).outputs

    def take_grad(self, num_required, name=None):
        indices, values, shape = self._take(num_required, name)
        return _SparseTaken(indices, values, shape)

    def take_indexed_slices_grad(self, num_required, name=None):
        indices, values, shape = self._take(num_required, name)
        return IndexedSlices(indices=indices, values=values, dense_shape=shape)


# what TF's generated op wrapper returns; a run gives back the same kind with the values
_SparseTaken = collections.namedtuple("SparseAccumulatorTakeGradient", ["indices", "values", "shape"])


__all__ = ["ConditionalAccumulator", "ConditionalAccumulatorBase", "SparseConditionalAccumulator"]
