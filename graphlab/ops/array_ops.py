"""Array ops: constants, placeholders, identity, and ops that rearrange values without arithmetic.

Each op is one block: its registration (inputs, output rule, kernel, gradient) followed by its public
Python function(s).
"""
import builtins

import numpy as np

from graphlab.framework import dtypes, tensor_shape
from graphlab.framework.errors import InvalidArgumentError
from graphlab.ops.registry import (NOT_DIFFERENTIABLE, build_op, constant, convert_to_tensor,
                                   register_op, same_as_input)

# ---------------------------------------------------------------------------------------------- Const
register_op(
    "Const",
    outputs=lambda op: [(op._attrs["dtype"], tensor_shape.from_tuple(op._attrs["value"].shape))],
    kernel=lambda ctx: ctx.attrs["value"],
    grad=NOT_DIFFERENTIABLE,
    doc="A value embedded in the graph itself (and so in every file the graph is saved to).")

# ----------------------------------------------------------------------------------------- Placeholder


def _placeholder_kernel(ctx):
    """Runs only when nothing was fed: that is the error."""
    shape = ctx.attrs["shape"]
    raise InvalidArgumentError(None, ctx.op, "You must feed a value for placeholder tensor '%s' with dtype %s%s" % (
        ctx.op.name, dtypes.tf_type_name(ctx.attrs["dtype"]),
        "" if shape.ndims is None else " and shape %s" % shape.bracket_str()))


register_op(
    "Placeholder",
    outputs=lambda op: [(op._attrs["dtype"], op._attrs["shape"])],
    kernel=_placeholder_kernel,
    grad=NOT_DIFFERENTIABLE,
    doc="A value supplied at run time through feed_dict.")


def placeholder(dtype, shape=None, name=None):
    """``tf.placeholder``: a tensor whose value must be fed; ``None`` dims accept any size."""
    return build_op("Placeholder", (), attrs={"dtype": dtypes.as_dtype(dtype),
                                             "shape": tensor_shape.as_shape(shape)},
                    name=name).outputs[0]


register_op(
    "PlaceholderWithDefault",
    inputs=["input: dtype"],
    outputs=lambda op: [(op._attrs["dtype"], op._attrs["shape"])],
    kernel=lambda ctx, value: value,
    grad=lambda op, grad: [grad],
    doc="Like a placeholder, but computes `input` when nothing is fed.")


def placeholder_with_default(input, shape, name=None):  # noqa: A002  (TF's argument name)
    value = convert_to_tensor(input)
    shape = tensor_shape.as_shape(shape)
    if not value.shape.is_compatible_with(shape):
        raise ValueError("Shapes %s and %s are incompatible" % (value.shape, shape))
    return build_op("PlaceholderWithDefault", [value], attrs={"dtype": value.dtype.base_dtype, "shape": shape},
                    name=name).outputs[0]


# -------------------------------------------------------------------------------------------- Identity
register_op(
    "Identity",
    inputs=["input: T"],
    outputs=same_as_input(0),
    kernel=lambda ctx, x: x,
    grad=lambda op, grad: [grad],
    doc="Passes its input through; used to name a value or to attach control dependencies.")


def identity(input, name=None):  # noqa: A002
    """``tf.identity``: the same value under a new name (a Variable gives a snapshot of its value)."""
    return build_op("Identity", [input], name=name).outputs[0]


# ------------------------------------------------------------------------------------------------ Pack
def _pack_outputs(op):
    values = op._inputs
    axis = op._attrs["axis"]
    shape = values[0]._shape
    for t in values[1:]:
        if not shape.is_compatible_with(t._shape):
            raise ValueError("Shapes must be equal rank, but are %s and %s" % (
                shape.ndims, t._shape.ndims) if shape.ndims != t._shape.ndims else
                "Dimension mismatch in Pack: %s vs %s" % (shape, t._shape))
        shape = shape.merge_with(t._shape)
    if shape.ndims is None:
        return [(values[0]._dtype.base_dtype, tensor_shape.UNKNOWN)]
    dims = shape.as_list()
    rank = len(dims) + 1
    if not -rank <= axis < rank:
        raise ValueError("axis = %d not in [%d, %d)" % (axis, -rank, rank))
    dims.insert(axis % rank, len(values))
    return [(values[0]._dtype.base_dtype, tensor_shape.TensorShape(dims))]


def _pack_grad(op, grad):
    return unstack(grad, num=op._attrs["N"], axis=op._attrs["axis"])


register_op(
    "Pack",
    inputs=["values: N*T"],
    outputs=_pack_outputs,
    kernel=lambda ctx, *values: np.stack(values, axis=ctx.attrs["axis"]),
    grad=_pack_grad,
    doc="Stacks N tensors of one shape along a new axis.")


def stack(values, axis=0, name="stack"):
    """``tf.stack``: N tensors of shape S become one tensor with a new axis of size N."""
    return build_op("Pack", [list(values)], attrs={"axis": axis}, name=name).outputs[0]


def _unpack_outputs(op):
    value = op._inputs[0]
    axis, num = op._attrs["axis"], op._attrs["num"]
    if value._shape.ndims is None:
        return [(value._dtype.base_dtype, tensor_shape.UNKNOWN)] * num
    dims = value._shape.as_list()
    del dims[axis]
    return [(value._dtype.base_dtype, tensor_shape.TensorShape(dims))] * num


def _unpack_kernel(ctx, value):
    axis = ctx.attrs["axis"]
    return tuple(np.take(value, i, axis=axis) for i in range(value.shape[axis]))


register_op(
    "Unpack",
    inputs=["value: T"],
    outputs=_unpack_outputs,
    kernel=_unpack_kernel,
    grad=lambda op, *grads: [stack([g if g is not None else zeros_like_output(op, i)
                                    for i, g in enumerate(grads)], axis=op._attrs["axis"])],
    doc="Splits a tensor along an axis into that many tensors.")


def unstack(value, num=None, axis=0, name="unstack"):
    """``tf.unstack``: the inverse of stack; ``num`` must be known statically or given."""
    value = convert_to_tensor(value)
    if num is None:
        if value.shape.ndims is None or value.shape.as_list()[axis] is None:
            raise ValueError("Cannot infer num from shape %s" % value.shape)
        num = value.shape.as_list()[axis]
    return build_op("Unpack", [value], attrs={"num": num, "axis": axis}, name=name).outputs


# ------------------------------------------------------------------------------------------- ZerosLike
register_op(
    "ZerosLike",
    inputs=["x: T"],
    outputs=same_as_input(0),
    kernel=lambda ctx, x: np.zeros_like(x),
    grad=NOT_DIFFERENTIABLE,
    doc="Zeros with the shape and dtype of x.")


def zeros_like(tensor, dtype=None, name=None, optimize=True):
    """``tf.zeros_like``."""
    tensor = convert_to_tensor(tensor)
    if dtype is not None and dtypes.as_dtype(dtype) != tensor.dtype.base_dtype:
        from graphlab.ops import math_ops
        return math_ops.cast(build_op("ZerosLike", [tensor], name=name).outputs[0], dtype)
    return build_op("ZerosLike", [tensor], name=name).outputs[0]


def zeros_like_output(op, index):
    """Zeros shaped like output ``index`` of ``op`` (for gradient rules where one output got no gradient)."""
    return zeros_like(op.outputs[index])



# ================================================================================= shape-changing ops
# Helpers shared by the shape rules below: what is known at build time about a shape-valued input.

def _math():
    """math_ops, imported late: gradient rules use its public functions, and it may import this module."""
    from graphlab.ops import math_ops
    return math_ops


def _known(tensor):
    from graphlab.ops.registry import const_value
    return const_value(tensor)


def _partial_shape(tensor):
    """What is known at build time about a 1-D shape tensor: a list of ints/None, or None if even its
    length is unknown (TF's "input tensors computed as partial shapes")."""
    value = _known(tensor)
    if value is not None:
        return [int(v) for v in np.reshape(value, [-1])]
    op = tensor._op
    if op._type == "Shape":
        return op._inputs[0]._shape.as_list() if op._inputs[0]._shape.ndims is not None else None
    if op._type == "Pack" and op._attrs.get("axis", 0) == 0:
        out = []
        for t in op._inputs:
            v = _known(t)
            out.append(None if v is None or np.ndim(v) else int(v))
        return out
    if tensor._shape.ndims == 1 and tensor._shape.as_list()[0] is not None:
        return [None] * tensor._shape.as_list()[0]
    return None


def _shape_of(dims):
    return tensor_shape.TensorShape(dims) if dims is not None else tensor_shape.UNKNOWN


def _dims(tensor):
    return tensor._shape.as_list() if tensor._shape.ndims is not None else None


def _dtype_of(op, index=0):
    return op._inputs[index]._dtype.base_dtype


def _axis_attr(value, rank, what="axis"):
    if rank is not None and not -rank <= value < rank:
        raise ValueError("%s %d is out of range for a tensor of rank %d: use an axis in [%d, %d)" % (
            what, value, rank, -rank, rank))
    return value % rank if rank is not None else value


# --------------------------------------------------------------------------------------------- Reshape
def _reshape_outputs(op):
    x, shape = op._inputs
    if shape._shape.ndims not in (None, 1):
        raise ValueError("Shape must be rank 1 but is rank %d" % shape._shape.ndims)
    target = _partial_shape(shape)
    if target is None:
        return [(_dtype_of(op), tensor_shape.UNKNOWN)]
    if sum(1 for d in target if d == -1) > 1:
        raise ValueError("Cannot infer multiple unknown dimensions in shape %s" % target)
    n = x._shape.num_elements() if x._shape.ndims is not None and x._shape.is_fully_defined() else None
    known = [d for d in target if d is not None and d != -1]
    product = int(np.prod(known)) if known else 1
    if -1 in target:
        i = target.index(-1)
        if n is not None and None not in target:
            if product == 0 or n % product:
                raise ValueError("Cannot reshape a tensor with %d elements to shape %s (%d elements)" % (
                    n, "[%s]" % ",".join(str(d) for d in target), product))
            target[i] = n // product
        else:
            target[i] = None
    elif n is not None and None not in target and n != product:
        raise ValueError("Cannot reshape a tensor with %d elements to shape %s (%d elements)" % (
            n, "[%s]" % ",".join(str(d) for d in target), product))
    elif n is None and x._shape.ndims is not None and None not in target:
        inner = [d for d in x._shape.as_list() if d is not None]
        if inner and product and product % int(np.prod(inner)):
            raise ValueError("Dimension size must be evenly divisible by %d but is %d" % (
                int(np.prod(inner)), product))
    return [(_dtype_of(op), tensor_shape.TensorShape(target))]


def _reshape_kernel(ctx, x, shape):
    try:
        return np.reshape(x, shape)
    except ValueError:
        raise InvalidArgumentError(None, ctx.op, "Input to reshape is a tensor with %d values, but the requested "
                                   "shape has %d" % (x.size, int(np.prod(shape)))) from None


register_op(
    "Reshape",
    inputs=["tensor: T", "shape: Tshape=int32"],
    outputs=_reshape_outputs,
    kernel=_reshape_kernel,
    grad=lambda op, grad: [reshape(grad, shape(op.inputs[0])), None],
    doc="The same values in a new shape; one -1 in the shape is inferred from the element count.")


def reshape(tensor, shape, name=None):  # noqa: F811  (TF's argument name shadows the function below)
    """``tf.reshape``."""
    return build_op("Reshape", [tensor, shape], name=name).outputs[0]


# ------------------------------------------------------------------------------------------- Transpose
def _transpose_outputs(op):
    x, perm = op._inputs
    dims = _dims(x)
    p = _known(perm)
    if perm._shape.ndims == 1 and dims is not None and perm._shape.as_list()[0] not in (None, len(dims)):
        raise ValueError("Dimension must be %d but is %d" % (len(dims), perm._shape.as_list()[0]))
    if p is None or dims is None:
        rank = len(dims) if dims is not None else perm._shape.as_list()[0] if perm._shape.ndims == 1 else None
        return [(_dtype_of(op), tensor_shape.unknown_shape(rank) if rank is not None else tensor_shape.UNKNOWN)]
    p = [int(v) for v in p]
    if sorted(v % len(dims) if len(dims) else v for v in p) != list(builtins.range(len(dims))):
        raise ValueError("perm %s is not a permutation of [0, %d)" % (p, len(dims)))
    return [(_dtype_of(op), tensor_shape.TensorShape([dims[i] for i in p]))]


register_op(
    "Transpose",
    inputs=["x: T", "perm: Tperm=int32"],
    outputs=_transpose_outputs,
    kernel=lambda ctx, x, perm: np.ascontiguousarray(np.transpose(x, perm)),
    grad=lambda op, grad: [transpose(grad, invert_permutation(op.inputs[1])), None],
    doc="Permutes the axes; the default permutation reverses them.")


def transpose(a, perm=None, name="transpose", conjugate=False):
    """``tf.transpose``: without ``perm`` the axes are reversed (a matrix transpose for rank 2)."""
    with _scope(name, "transpose", [a]) as scope:
        a = convert_to_tensor(a, name="a")
        if perm is None:
            if a.shape.ndims is not None:
                perm = np.arange(a.shape.ndims - 1, -1, -1, dtype=np.int32)
            else:
                r = rank(a)
                perm = _math().subtract(_math().subtract(r, 1), range(0, r))
        return build_op("Transpose", [a, perm], name=scope).outputs[0]


def _scope(name, default_name, values):
    from graphlab.framework import graph as graph_mod
    return graph_mod.name_scope(name, default_name, values)


register_op(
    "InvertPermutation",
    inputs=["x: T=int32"],
    outputs=same_as_input(0),
    kernel=lambda ctx, x: np.argsort(x).astype(x.dtype),
    grad=NOT_DIFFERENTIABLE,
    doc="The permutation that undoes x (used by Transpose's gradient).")


def invert_permutation(x, name=None):
    """``tf.invert_permutation``."""
    return build_op("InvertPermutation", [x], name=name).outputs[0]


# ---------------------------------------------------------------------------------- ExpandDims/Squeeze
def _expand_dims_outputs(op):
    x, dim = op._inputs
    dims, d = _dims(x), _known(dim)
    if dims is None or d is None:
        return [(_dtype_of(op), tensor_shape.UNKNOWN)]
    d = int(np.reshape(d, [-1])[0])
    rank = len(dims) + 1
    if not -rank <= d < rank:
        raise ValueError("Tried to expand dim index %d for tensor with %d dimensions." % (d, len(dims)))
    dims.insert(d % rank, 1)
    return [(_dtype_of(op), tensor_shape.TensorShape(dims))]


register_op(
    "ExpandDims",
    inputs=["input: T", "dim: Tdim=int32"],
    outputs=_expand_dims_outputs,
    kernel=lambda ctx, x, dim: np.expand_dims(x, int(np.reshape(dim, [-1])[0])),
    grad=lambda op, grad: [reshape(grad, shape(op.inputs[0])), None],
    doc="Inserts an axis of size 1.")


def expand_dims(input, axis=None, name=None, dim=None):  # noqa: A002
    """``tf.expand_dims`` (``dim`` is TF1's old name for ``axis``)."""
    axis = dim if axis is None else axis
    if axis is None:
        raise ValueError("Must specify an axis argument to tf.expand_dims()")
    return build_op("ExpandDims", [input, axis], name=name).outputs[0]


def _squeeze_outputs(op):
    x = op._inputs[0]
    dims, axes = _dims(x), op._attrs["squeeze_dims"]
    if dims is None:
        return [(_dtype_of(op), tensor_shape.UNKNOWN)]
    if not axes:
        if None in dims:
            return [(_dtype_of(op), tensor_shape.UNKNOWN)]
        return [(_dtype_of(op), tensor_shape.TensorShape([d for d in dims if d != 1]))]
    keep = set(builtins.range(len(dims)))
    for a in axes:
        i = _axis_attr(a, len(dims))
        if dims[i] not in (None, 1):
            raise ValueError("Can not squeeze dim[%d], expected a dimension of 1, got %d" % (i, dims[i]))
        keep.discard(i)
    return [(_dtype_of(op), tensor_shape.TensorShape([dims[i] for i in sorted(keep)]))]


def _squeeze_kernel(ctx, x):
    axes = ctx.attrs["squeeze_dims"]
    try:
        return np.squeeze(x, axis=tuple(axes) if axes else None)
    except ValueError:
        raise InvalidArgumentError(None, ctx.op, "Can not squeeze dims %s of a tensor of shape %s" % (
            list(axes), list(x.shape))) from None


register_op(
    "Squeeze",
    inputs=["input: T"],
    outputs=_squeeze_outputs,
    kernel=_squeeze_kernel,
    grad=lambda op, grad: [reshape(grad, shape(op.inputs[0]))],
    doc="Removes axes of size 1 (all of them, or those in squeeze_dims).")


def squeeze(input, axis=None, name=None, squeeze_dims=None):  # noqa: A002
    """``tf.squeeze``."""
    axis = squeeze_dims if axis is None else axis
    if isinstance(axis, int):
        axis = [axis]
    return build_op("Squeeze", [input], attrs={"squeeze_dims": list(axis or [])}, name=name).outputs[0]


# ---------------------------------------------------------------------------------------------- Concat
def _concat_outputs(op):
    values, axis_t = op._inputs[:-1], op._inputs[-1]
    axis = _known(axis_t)
    ranks = {t._shape.ndims for t in values} - {None}
    if len(ranks) > 1:
        a, b = sorted(ranks)[:2]
        raise ValueError("Shape must be rank %d but is rank %d" % (a, b))
    if not ranks:
        return [(_dtype_of(op), tensor_shape.UNKNOWN)]
    rank = ranks.pop()
    if axis is None:
        return [(_dtype_of(op), tensor_shape.unknown_shape(rank))]
    axis = int(axis)
    if not -rank <= axis < rank:
        raise ValueError("ConcatOp : Expected concatenating dimensions in the range [%d, %d), but got %d" % (
            -rank, rank, axis))
    axis %= rank
    out = None
    total = 0
    for t in values:
        dims = _dims(t)
        if dims is None:
            total = None
            continue
        total = None if total is None or dims[axis] is None else total + dims[axis]
        rest = dims[:axis] + [None] + dims[axis + 1:]
        if out is None:
            out = rest
        else:
            for i, (a, b) in enumerate(zip(out, rest)):
                if a is not None and b is not None and a != b:
                    raise ValueError("Dimension %d in both shapes must be equal, but are %d and %d. Shapes are "
                                     "%s and %s." % (i, a, b, tensor_shape.TensorShape(out).bracket_str(),
                                                     tensor_shape.TensorShape(rest).bracket_str()))
                out[i] = a if a is not None else b
    out = out or [None] * rank
    out[axis] = total
    return [(_dtype_of(op), tensor_shape.TensorShape(out))]


def _concat_grad(op, grad):
    values, axis = op.inputs[:-1], op.inputs[-1]
    if len(values) == 1:
        return [grad, None]
    static = [_dims(t) for t in values]
    a = _known(axis)
    if a is not None and all(d is not None and d[int(a)] is not None for d in static):
        sizes = [d[int(a)] for d in static]
    else:
        sizes = stack([gather(shape(t), axis) for t in values])
    return list(split(grad, sizes, axis=axis)) + [None]


register_op(
    "ConcatV2",
    inputs=["values: N*T", "axis: Tidx=int32"],
    outputs=_concat_outputs,
    kernel=lambda ctx, *args: np.concatenate(args[:-1], axis=int(args[-1])),
    grad=_concat_grad,
    doc="Joins tensors along an existing axis.")


def concat(values, axis, name="concat"):
    """``tf.concat``: a single value is passed through an Identity, as TF does."""
    if not isinstance(values, (list, tuple)):
        values = [values]
    if len(values) == 1:
        with _scope(name, "concat", values) as scope:
            convert_to_tensor(axis, name="concat_dim", dtype="int32")
            return identity(values[0], name=scope)
    return build_op("ConcatV2", [list(values), axis], name=name).outputs[0]


# ----------------------------------------------------------------------------------------- Split/SplitV
def _split_outputs(op):
    axis_t, x = op._inputs
    n = op._attrs["num_split"]
    dims, axis = _dims(x), _known(axis_t)
    if dims is None:
        return [(_dtype_of(op, 1), tensor_shape.UNKNOWN)] * n
    if axis is None:
        return [(_dtype_of(op, 1), tensor_shape.unknown_shape(len(dims)))] * n
    axis = _axis_attr(int(axis), len(dims))
    if dims[axis] is not None:
        if dims[axis] % n:
            raise ValueError("Dimension size must be evenly divisible by %d but is %d" % (n, dims[axis]))
        dims[axis] //= n
    return [(_dtype_of(op, 1), tensor_shape.TensorShape(dims))] * n


register_op(
    "Split",
    inputs=["split_dim: int32", "value: T"],
    outputs=_split_outputs,
    kernel=lambda ctx, axis, x: tuple(np.split(x, ctx.attrs["num_split"], axis=int(axis))),
    grad=lambda op, *grads: [None, concat([g if g is not None else zeros_like(t)
                                          for g, t in zip(grads, op.outputs)], op.inputs[0])],
    doc="Splits a tensor into num_split equal pieces along an axis.")


def _splitv_outputs(op):
    x, sizes_t, axis_t = op._inputs
    n = op._attrs["num_split"]
    dims, axis, sizes = _dims(x), _known(axis_t), _partial_shape(sizes_t)
    if dims is None or axis is None:
        return [(_dtype_of(op), tensor_shape.UNKNOWN if dims is None else tensor_shape.unknown_shape(len(dims)))] * n
    axis = _axis_attr(int(axis), len(dims))
    sizes = list(sizes) if sizes is not None else [None] * n
    if -1 in sizes and dims[axis] is not None and None not in sizes:
        sizes[sizes.index(-1)] = dims[axis] - (sum(sizes) + 1)
    if None not in sizes and -1 not in sizes and dims[axis] is not None and sum(sizes) != dims[axis]:
        raise ValueError("Determined shape must either match input shape along split_dim exactly if fully "
                         "specified, or be less than the size of the input along split_dim if not fully "
                         "specified.  Got: %d" % sum(sizes))
    out = []
    for s in sizes:
        d = list(dims)
        d[axis] = None if s == -1 else s
        out.append((_dtype_of(op), tensor_shape.TensorShape(d)))
    return out


def _splitv_kernel(ctx, x, sizes, axis):
    sizes = [int(s) for s in sizes]
    if -1 in sizes:
        sizes[sizes.index(-1)] = x.shape[int(axis)] - (sum(sizes) + 1)
    return tuple(np.split(x, np.cumsum(sizes)[:-1], axis=int(axis)))


register_op(
    "SplitV",
    inputs=["value: T", "size_splits: Tlen=int32", "split_dim: int32"],
    outputs=_splitv_outputs,
    kernel=_splitv_kernel,
    grad=lambda op, *grads: [concat([g if g is not None else zeros_like(t)
                                     for g, t in zip(grads, op.outputs)], op.inputs[2]), None, None],
    doc="Splits a tensor into pieces of the given sizes along an axis.")


def split(value, num_or_size_splits, axis=0, num=None, name="split"):
    """``tf.split``: an int makes equal pieces (Split), a list of sizes makes SplitV."""
    if isinstance(num_or_size_splits, (int, np.integer)):
        with _scope(name, "split", [value]) as scope:
            dim = convert_to_tensor(axis, dtype="int32", name="split_dim")
            return build_op("Split", [dim, value], attrs={"num_split": int(num_or_size_splits)},
                            name=scope).outputs
    sizes = convert_to_tensor(num_or_size_splits)
    if num is None:
        known = sizes.shape.as_list() if sizes.shape.ndims == 1 else [None]
        num = known[0]
        if num is None:
            raise ValueError("Cannot infer num from shape %s" % sizes.shape)
    with _scope(name, "split", [value]) as scope:
        dim = convert_to_tensor(axis, dtype="int32", name="split_dim")
        return build_op("SplitV", [value, sizes, dim], attrs={"num_split": int(num)}, name=scope).outputs


# ----------------------------------------------------------------------------------------------- Slice
def _slice_outputs(op):
    x, begin_t, size_t = op._inputs
    dims = _dims(x)
    begin, size = _partial_shape(begin_t), _partial_shape(size_t)
    rank = len(dims) if dims is not None else len(begin) if begin is not None else None
    if rank is None:
        return [(_dtype_of(op), tensor_shape.UNKNOWN)]
    for name, v in (("begin", begin), ("size", size)):
        if v is not None and len(v) != rank:
            raise ValueError("Length of %s and input must be equal (%d vs %d)" % (name, len(v), rank))
    out = []
    for i in builtins.range(rank):
        b = begin[i] if begin is not None else None
        s = size[i] if size is not None else None
        d = dims[i] if dims is not None else None
        if s == -1:
            out.append(d - b if d is not None and b is not None else None)
        else:
            if s is not None and b is not None and d is not None and b + s > d:
                raise ValueError("Expected size[%d] in [0, %d], but got %d" % (i, d - b, s))
            out.append(s)
    return [(_dtype_of(op), tensor_shape.TensorShape(out))]


def _slice_kernel(ctx, x, begin, size):
    index = tuple(builtins.slice(int(b), None if s == -1 else int(b) + int(s)) for b, s in zip(begin, size))
    for i, (b, s) in enumerate(zip(begin, size)):
        if b < 0 or (s != -1 and b + s > x.shape[i]):
            raise InvalidArgumentError(None, ctx.op, "Expected size[%d] in [0, %d], but got %d" % (
                i, x.shape[i] - b, s))
    return x[index].copy()


def _slice_grad(op, grad):
    x, begin = op.inputs[0], op.inputs[1]
    m = _math()
    before = begin
    after = m.subtract(m.subtract(shape(x, out_type=begin.dtype), begin), shape(grad, out_type=begin.dtype))
    return [pad(grad, stack([before, after], axis=1)), None, None]


register_op(
    "Slice",
    inputs=["input: T", "begin: Index=int32", "size: Index"],
    outputs=_slice_outputs,
    kernel=_slice_kernel,
    grad=_slice_grad,
    doc="A contiguous block starting at begin with the given size (-1: to the end).")


def slice(input_, begin, size, name=None):  # noqa: A001  (TF's name)
    """``tf.slice``."""
    return build_op("Slice", [input_, begin, size], name=name).outputs[0]


