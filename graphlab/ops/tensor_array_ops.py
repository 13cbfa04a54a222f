"""The ops of ``tf.TensorArray`` (TensorArrayV3 and its Write/Read/Gather/Scatter/Concat/Split/Size/Close ops,
TensorArrayGradV3): TF's kernels with their run-time errors, and TF's gradient rules. The Python class that
builds them is in graphlab/ops/tensor_array.py.

A TensorArray is a list of tensors that lives for one run: the TensorArrayV3 op makes a new one each time it
runs and outputs its handle and a *flow*, a float scalar that carries no data but orders the ops: each
write outputs a new flow, and later reads take it as an input. So a TensorArray in a while loop is a loop
variable (its flow), and ``write`` returns a new TensorArray object on the new flow. The gradient of a read
writes into a *gradient* TensorArray that belongs to the forward one (TensorArrayGradV3, one per
``tf.gradients`` call, named after its scope); writes to the same index of a gradient array add up.
"""
import itertools

import numpy as np

from graphlab.framework import dtypes, tensor_shape
from graphlab.formats.errors import InvalidArgumentError, OutOfRangeError, UnimplementedError
from graphlab.framework.registry import NOT_DIFFERENTIABLE, no_outputs, register_op

_FLOW = np.float32(0.0)        # the flow's value (TF's is an arbitrary float too)


class _Array:
    """One run's TensorArray: its elements (None where nothing was written yet) and TF's flags."""

    __slots__ = ("name", "dtype", "items", "dynamic_size", "clear_after_read", "_element_shape", "known_dims",
                 "identical_shapes", "aggregate", "cleared", "grads", "closed")

    def __init__(self, name, dtype, size, dynamic_size, clear_after_read, element_shape, identical_shapes,
                 aggregate=False):
        self.name, self.dtype = name, dtype
        self.items = [None] * size
        self.dynamic_size, self.clear_after_read = dynamic_size, clear_after_read
        self.element_shape, self.identical_shapes = element_shape, identical_shapes
        self.aggregate = aggregate        # a gradient array: writes to one index add up
        self.cleared = set()
        self.grads = {}                   # gradient source name -> gradient _Array
        self.closed = False

    def __repr__(self):
        return "<TensorArray %s: %d elements>" % (self.name, len(self.items))

    @property
    def element_shape(self):
        return self._element_shape

    @element_shape.setter
    def element_shape(self, shape):
        self._element_shape = shape
        # the fully known element shape as a tuple: a write of an array of that shape needs no TensorShape
        # check (an LSTM writes one element per time step)
        self.known_dims = tuple(shape.as_list()) if shape.is_fully_defined() else None


def _array(ctx, handle):
    if not isinstance(handle, _Array):
        raise InvalidArgumentError(None, ctx.op, "Input 'handle' of %s is not a TensorArray handle." % ctx.op.name)
    if handle.closed:
        raise InvalidArgumentError(None, ctx.op, "TensorArray %s has already been closed." % handle.name)
    return handle


_CREATED = itertools.count()     # as TF: one count of created arrays per process, from 0


def _new_name(ctx, base):
    """The name run-time errors give the array: the op's name and the process-wide creation count."""
    return "%s_%d" % (base, next(_CREATED))


def _write(ctx, ta, index, value):
    """Write one element, with TF's checks (bounds, growth, written twice, dtype, element shape)."""
    value = np.asarray(value)
    if value.dtype.kind in "SU" and ta.dtype == object:    # a string element from numpy's fixed-width arrays
        value = value.astype(object)
    if value.dtype != ta.dtype:
        raise InvalidArgumentError(None, ctx.op, "TensorArray dtype is %s but Op is trying to write dtype %s." % (
            dtypes.as_dtype(ta.dtype).name, dtypes.as_dtype(value.dtype).name))
    if index < 0:
        raise OutOfRangeError(None, ctx.op, "Writing to negative indices (index %d) is not allowed." % index)
    if index >= len(ta.items):
        if not ta.dynamic_size:
            raise InvalidArgumentError(None, ctx.op, "TensorArray %s: Tried to write to index %d but array is not "
                                       "resizeable and size is: %d" % (ta.name, index, len(ta.items)))
        ta.items.extend([None] * (index + 1 - len(ta.items)))
    if value.shape != ta.known_dims and not ta.element_shape.is_compatible_with(value.shape):
        raise InvalidArgumentError(None, ctx.op, "TensorArray %s: Could not write to TensorArray index %d because "
                                   "the value shape is %s which is incompatible with the TensorArray's inferred "
                                   "element shape: %s (consider setting infer_shape=False)." % (
                                       ta.name, index, list(value.shape), ta.element_shape.bracket_str()))
    if ta.identical_shapes and ta.known_dims is None:
        ta.element_shape = tensor_shape.TensorShape(list(value.shape))
    current = ta.items[index]
    if current is not None or index in ta.cleared:
        if not ta.aggregate:
            raise InvalidArgumentError(None, ctx.op, "TensorArray %s: Could not write to TensorArray index %d "
                                       "because it has already been written to." % (ta.name, index))
        if current is not None:
            if current.shape != value.shape:
                raise InvalidArgumentError(None, ctx.op, "TensorArray %s: Could not aggregate to TensorArray index "
                                           "%d because the existing shape is %s but the new input shape is %s."
                                           % (ta.name, index, list(current.shape), list(value.shape)))
            value = current + value
    ta.items[index] = value
    ta.cleared.discard(index)


def _read(ctx, ta, index):
    """Read one element: zeros if never written and the element shape is known, TF's errors otherwise."""
    if not 0 <= index < len(ta.items):
        raise InvalidArgumentError(None, ctx.op, "Tried to read from index %d but array size is: %d" % (
            index, len(ta.items)))
    value = ta.items[index]
    if value is None:
        if index in ta.cleared:
            raise InvalidArgumentError(None, ctx.op, "TensorArray %s: Could not read index %d twice because it was "
                                       "cleared after a previous read (perhaps try setting clear_after_read = "
                                       "false?)." % (ta.name, index))
        if not ta.element_shape.is_fully_defined():
            raise InvalidArgumentError(None, ctx.op, "TensorArray %s: Could not read from TensorArray index %d.  "
                                       "Furthermore, the element shape is not fully defined: %s.  It is possible "
                                       "you are working with a resizeable TensorArray and stop_gradients is not "
                                       "allowing the gradients to be written.  If you set the full element_shape "
                                       "property on the forward TensorArray, the proper all-zeros tensor will be "
                                       "returned instead of incurring this error." % (
                                           ta.name, index, ta.element_shape.bracket_str()))
        return np.zeros(ta.element_shape.as_list(), ta.dtype)
    if ta.clear_after_read and not ta.aggregate:
        ta.items[index] = None
        ta.cleared.add(index)
    return value


# ---------------------------------------------------------------------------------------- TensorArrayV3
def _create_kernel(ctx, size):
    a = ctx.attrs
    ta = _Array(_new_name(ctx, a.get("tensor_array_name") or ctx.op.name), a["dtype"].as_numpy_dtype,
                int(size), a["dynamic_size"], a["clear_after_read"], tensor_shape.as_shape(a["element_shape"]),
                a["identical_element_shapes"])
    return ta, _FLOW


register_op(
    "TensorArrayV3",
    inputs=["size: int32"],
    outputs=lambda op: [(dtypes.resource, tensor_shape.TensorShape([2])), (dtypes.float32, tensor_shape.SCALAR)],
    kernel=_create_kernel,
    grad=NOT_DIFFERENTIABLE,
    stateful=True,
    doc="A new TensorArray of `size` elements each run; outputs its handle and a flow.")


def _grad_kernel(ctx, handle, flow):
    ta = _array(ctx, handle)
    source = ctx.attrs["source"]
    grad = ta.grads.get(source)
    if grad is None:
        grad = ta.grads[source] = _Array("%s@%s" % (ta.name, source), ta.dtype, len(ta.items), False, True,
                                         ta.element_shape, ta.identical_shapes, aggregate=True)
    return grad, flow


register_op(
    "TensorArrayGradV3",
    inputs=["handle: resource", "flow_in: float32"],
    outputs=lambda op: [(dtypes.resource, tensor_shape.TensorShape([2])), (dtypes.float32, tensor_shape.SCALAR)],
    kernel=_grad_kernel,
    grad=NOT_DIFFERENTIABLE,
    stateful=True,
    doc="The gradient TensorArray of a forward one for one gradient computation (attr source): made on first "
        "use, the same size; writes to one index add up.")


# --------------------------------------------------------------------------------------- Write and Read
def _grad_source(t):
    """The ``gradients`` scope a gradient tensor was built in (TF's rule: up to the last name part that
    starts with "gradients"), which names the gradient TensorArray."""
    tokens = t.name.split("/")
    positions = [i for i, x in enumerate(tokens) if x.startswith("gradients")]
    if not positions:
        raise ValueError("Expected op/tensor name to start with gradients (excluding scope), got: %s. This means "
                         "that a tf.gradients op with this op in its dependency path has a custom name that does "
                         "not start with 'gradients'. Please make sure all calls to tf.gradients that have "
                         "non-empty `name` arguments use names that start with 'gradients'." % t.name)
    return "/".join(tokens[:positions[-1] + 1])


def _grad_array(op, flow, grad):
    """The gradient TensorArray for the forward one that ``op`` reads or writes."""
    handle = op.inputs[0]
    dtype = op._attrs.get("dtype") or op._attrs.get("T")
    from graphlab.ops.tensor_array import TensorArray
    ta = TensorArray(dtype=dtype, handle=handle, flow=flow, colocate_with_first_write_call=False)
    return ta.grad(source=_grad_source(grad), flow=flow)


def _barrier(op, flow):
    """TF's write_barrier: the gradient's flow waits for the forward write's flow (flow_out)."""
    from graphlab.ops import array_ops
    flow_out = array_ops.identity(op.outputs[0], "flow_out")
    with op.graph.control_dependencies([flow_out]):
        return array_ops.identity(flow, "write_barrier")


def _write_kernel(ctx, handle, index, value, flow):
    _write(ctx, _array(ctx, handle), int(index), value)
    return _FLOW


def _write_grad(op, flow):
    """The gradient of a write is a read of the gradient array at the same index."""
    flow = _barrier(op, flow)
    grad = _grad_array(op, flow, flow).read(op.inputs[1])
    return [None, None, grad, flow]


register_op(
    "TensorArrayWriteV3",
    inputs=["handle: resource", "index: int32", "value: T", "flow_in: float32"],
    outputs=lambda op: [(dtypes.float32, tensor_shape.SCALAR)],
    kernel=_write_kernel,
    grad=_write_grad,
    stateful=True,
    doc="Writes value at index; outputs the new flow.")


def _read_kernel(ctx, handle, index, flow):
    return _read(ctx, _array(ctx, handle), int(index))


def _read_grad(op, grad):
    """The gradient of a read is a write into the gradient array at the same index."""
    flow = op.inputs[2]
    written = _grad_array(op, flow, grad).write(op.inputs[1], grad)
    return [None, None, written.flow]


register_op(
    "TensorArrayReadV3",
    inputs=["handle: resource", "index: int32", "flow_in: float32"],
    outputs=lambda op: [(op._attrs["dtype"], tensor_shape.UNKNOWN)],
    kernel=_read_kernel,
    grad=_read_grad,
    stateful=True,
    doc="Reads the element at index (zeros if never written and the element shape is known).")


# ------------------------------------------------------------------------------------- Gather and Scatter
def _set_element_shape(ctx, ta, shape):
    """TF's SetElemShape: what the op knows of the element shape refines the array's (zeros for unwritten
    elements then have a shape)."""
    if not ta.element_shape.is_compatible_with(shape):
        raise InvalidArgumentError(None, ctx.op, "Incompatible shapes during merge: %s vs. %s" % (
            ta.element_shape.bracket_str(), shape.bracket_str()))
    ta.element_shape = ta.element_shape.merge_with(shape)


def _gather_kernel(ctx, handle, indices, flow):
    ta = _array(ctx, handle)
    shape = tensor_shape.as_shape(ctx.attrs["element_shape"])
    _set_element_shape(ctx, ta, shape)
    indices = np.asarray(indices).reshape(-1)
    if not indices.size:
        if not shape.is_fully_defined():
            raise UnimplementedError(None, ctx.op, "TensorArray has size zero, but element shape %s is not fully "
                                     "defined. Currently only static shapes are supported when packing zero-size "
                                     "TensorArrays." % shape.bracket_str())
        return np.zeros([0] + shape.as_list(), ta.dtype)
    values = [_read(ctx, ta, int(i)) for i in indices]
    first = values[0].shape
    if not shape.is_compatible_with(first):
        raise InvalidArgumentError(None, ctx.op, "TensorArray was passed element_shape %s which does not match the "
                                   "Tensor at index 0: %s" % (shape.bracket_str(), list(first)))
    for i, v in enumerate(values):
        if v.shape != first:
            raise InvalidArgumentError(None, ctx.op, "TensorArray has inconsistent shapes.  Index 0 has shape: %s "
                                       "but index %d has shape: %s" % (list(first), i, list(v.shape)))
    return np.stack(values)


def _gather_grad(op, grad):
    flow = op.inputs[2]
    scattered = _grad_array(op, flow, grad).scatter(op.inputs[1], grad)
    return [None, None, scattered.flow]


register_op(
    "TensorArrayGatherV3",
    inputs=["handle: resource", "indices: int32", "flow_in: float32"],
    outputs=lambda op: [(op._attrs["dtype"], tensor_shape.TensorShape([None]).concatenate(
        tensor_shape.as_shape(op._attrs["element_shape"])))],
    kernel=_gather_kernel,
    grad=_gather_grad,
    stateful=True,
    doc="Stacks the elements at indices into one tensor.")


def _scatter_kernel(ctx, handle, indices, value, flow):
    ta = _array(ctx, handle)
    indices = np.asarray(indices).reshape(-1)
    value = np.asarray(value)
    if value.ndim == 0 or value.shape[0] != len(indices):
        raise InvalidArgumentError(None, ctx.op, "Expected len(indices) == values.shape[0], but saw: %d vs. %d" % (
            len(indices), value.shape[0] if value.ndim else 0))
    for i, v in zip(indices, value):
        _write(ctx, ta, int(i), v)
    return _FLOW


def _scatter_grad(op, flow):
    flow = _barrier(op, flow)
    grad = _grad_array(op, flow, flow).gather(op.inputs[1])
    return [None, None, grad, flow]


register_op(
    "TensorArrayScatterV3",
    inputs=["handle: resource", "indices: int32", "value: T", "flow_in: float32"],
    outputs=lambda op: [(dtypes.float32, tensor_shape.SCALAR)],
    kernel=_scatter_kernel,
    grad=_scatter_grad,
    stateful=True,
    doc="Writes value[i] at indices[i]; outputs the new flow.")


# ---------------------------------------------------------------------------------------- Concat and Split
def _concat_kernel(ctx, handle, flow):
    ta = _array(ctx, handle)
    rest = tensor_shape.as_shape(ctx.attrs["element_shape_except0"])
    if not ta.items:
        if not rest.is_fully_defined():
            raise UnimplementedError(None, ctx.op, "TensorArray has size zero, but element_shape_except0 %s is not "
                                     "fully defined. Currently only static shapes are supported when concatenating "
                                     "zero-size TensorArrays." % rest.bracket_str())
        return np.zeros([0] + rest.as_list(), ta.dtype), np.zeros([0], np.int64)
    values = [_read(ctx, ta, i) for i in range(len(ta.items))]
    for i, v in enumerate(values):
        if v.ndim == 0:
            raise InvalidArgumentError(None, ctx.op, "Concat saw a scalar shape at index %d but requires at least "
                                       "vectors.  Did you mean to call pack?" % i)
        if i == 0 and not rest.is_compatible_with(v.shape[1:]):
            raise InvalidArgumentError(None, ctx.op, "TensorArray was passed element_shape_except0 %s but index 0 "
                                       "has (excepting dimension 0) shape: %s which does not match." % (
                                           rest.bracket_str(), list(v.shape[1:])))
        if v.shape[1:] != values[0].shape[1:]:
            raise InvalidArgumentError(None, ctx.op, "TensorArray has inconsistent shapes.  Index 0 has (excepting "
                                       "dimension 0) shape: %s but index %d has (excepting dimension 0) shape: %s"
                                       % (list(values[0].shape[1:]), i, list(v.shape[1:])))
    return np.concatenate(values), np.array([v.shape[0] for v in values], np.int64)


def _concat_grad(op, grad, unused_lengths_grad):
    flow = op.inputs[1]
    split = _grad_array(op, flow, grad).split(grad, lengths=op.outputs[1])
    return [None, split.flow]


register_op(
    "TensorArrayConcatV3",
    inputs=["handle: resource", "flow_in: float32"],
    outputs=lambda op: [(op._attrs["dtype"], tensor_shape.TensorShape([None]).concatenate(
        tensor_shape.as_shape(op._attrs["element_shape_except0"]))),
        (dtypes.int64, tensor_shape.TensorShape([None]))],
    kernel=_concat_kernel,
    grad=_concat_grad,
    stateful=True,
    doc="Concatenates all elements along their first axis; also outputs each one's length.")


def _split_kernel(ctx, handle, value, lengths, flow):
    ta = _array(ctx, handle)
    value = np.asarray(value)
    lengths = [int(n) for n in np.asarray(lengths).reshape(-1)]
    if value.ndim == 0 or sum(lengths) != value.shape[0]:
        raise InvalidArgumentError(None, ctx.op, "Expected sum of lengths to be equal to values.shape[0], but sum "
                                   "of lengths is %d and value's shape is: %s" % (sum(lengths), list(value.shape)))
    start = 0
    for i, n in enumerate(lengths):
        _write(ctx, ta, i, value[start:start + n])
        start += n
    return _FLOW


def _split_grad(op, flow):
    flow = _barrier(op, flow)
    grad = _grad_array(op, flow, flow).concat()
    return [None, grad, None, flow]


register_op(
    "TensorArraySplitV3",
    inputs=["handle: resource", "value: T", "lengths: int64", "flow_in: float32"],
    outputs=lambda op: [(dtypes.float32, tensor_shape.SCALAR)],
    kernel=_split_kernel,
    grad=_split_grad,
    stateful=True,
    doc="Splits value along its first axis into elements of the given lengths.")


# ---------------------------------------------------------------------------------------- Size and Close
register_op(
    "TensorArraySizeV3",
    inputs=["handle: resource", "flow_in: float32"],
    outputs=lambda op: [(dtypes.int32, tensor_shape.SCALAR)],
    kernel=lambda ctx, handle, flow: np.int32(len(_array(ctx, handle).items)),
    grad=NOT_DIFFERENTIABLE,
    stateful=True,
    doc="The current number of elements.")


def _close_kernel(ctx, handle):
    if isinstance(handle, _Array):
        handle.closed = True
        handle.items = []


register_op(
    "TensorArrayCloseV3",
    inputs=["handle: resource"],
    outputs=no_outputs,
    kernel=_close_kernel,
    grad=NOT_DIFFERENTIABLE,
    stateful=True,
    doc="Frees the TensorArray's elements.")
