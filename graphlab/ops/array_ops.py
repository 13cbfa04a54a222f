"""Array ops: constants, placeholders, identity, and ops that rearrange values without arithmetic.

Each op is one block: its registration (inputs, output rule, kernel, gradient) followed by its public
Python function(s).
"""
import builtins
import collections
import functools
import os

import numpy as np

from graphlab.framework import control_flow_util, dtypes, registry, tensor_shape
from graphlab.framework import graph as graph_mod
from graphlab.formats import dtypes_map
from graphlab.formats.errors import InvalidArgumentError
from graphlab.framework.tensor import Tensor
from graphlab.framework.registry import (NOT_DIFFERENTIABLE, build_op, const_value, constant, convert_to_tensor,
                                         ShapeError, register_op, same_as_input)

# ---------------------------------------------------------------------------------------------- Const
_VAL_FIELD = {"f": {2: "half_val", 4: "float_val", 8: "double_val"}, "b": "bool_val", "O": "string_val",
              "S": "string_val", "c": {8: "scomplex_val", 16: "dcomplex_val"}}


def _unmaterializable(value):
    """True when a Const stored as one value and a shape (TF's compact TensorProto, here a read-only broadcast)
    spans more memory than the machine can give: TF's Const fails to build that tensor; so does this one."""
    if value.size < (1 << 24) or all(value.strides):
        return False
    try:
        physical = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        physical = None
    if physical and value.nbytes > physical:
        return True
    try:
        np.empty(value.shape, value.dtype)  # address space only: no page is touched
    except (MemoryError, ValueError):
        return True
    return False


def _const_kernel(ctx):
    value = ctx.attrs["value"]
    if _unmaterializable(value):
        field = _VAL_FIELD.get(value.dtype.kind, "int64_val" if value.dtype.itemsize == 8 else "int_val")
        if isinstance(field, dict):
            field = field.get(value.dtype.itemsize, "float_val")
        one = value.reshape(-1)[0]
        text = "dtype: %s\ntensor_shape {\n%s}\n%s: %s\n" % (
            dtypes_map.enum_name(dtypes_map.numpy_to_enum(value.dtype)),
            "".join("  dim {\n    size: %d\n  }\n" % d for d in value.shape), field,
            repr(one) if isinstance(one, bytes) else ("%g" % one if value.dtype.kind == "f" else str(one)))
        raise InvalidArgumentError(None, ctx.op, "Cannot parse tensor from proto: %s(a constant of %s elements, "
                                   "%d bytes: more than this machine can hold; build it with tf.fill inside the "
                                   "computation that needs it, or make it smaller)" % (
                                       text, "x".join(map(str, value.shape)), value.nbytes))
    return value


register_op(
    "Const",
    outputs=lambda op: [(op._attrs["dtype"], tensor_shape.from_tuple(op._attrs["value"].shape))],
    kernel=_const_kernel,
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
    """``tf.placeholder_with_default``: a Python default becomes the Const ``PlaceholderWithDefault/input``."""
    with graph_mod.name_scope(name, "PlaceholderWithDefault", [input]) as scope:
        value = convert_to_tensor(input, name="input")
        shape = tensor_shape.as_shape(shape)
        if not value.shape.is_compatible_with(shape):
            raise ValueError("Shapes %s and %s are incompatible" % (value.shape, shape))
        return build_op("PlaceholderWithDefault", [value], attrs={"dtype": value.dtype.base_dtype, "shape": shape},
                        name=scope).outputs[0]


# -------------------------------------------------------------------------------------------- Identity
def _identity_grad(op, grad):
    return [grad]


register_op(
    "Identity",
    inputs=["input: T"],
    outputs=same_as_input(0),
    kernel=lambda ctx, x: x,
    grad=_identity_grad,
    doc="Passes its input through; used to name a value or to attach control dependencies.")


def identity(input, name=None):  # noqa: A002
    """``tf.identity``: the same value under a new name (a Variable gives a snapshot of its value)."""
    return build_op("Identity", [input], name=name)._outputs[0]


# ----------------------------------------------------------------------------------------- RefIdentity
register_op(
    "RefIdentity",
    inputs=["input: Ref(T)"],
    outputs=lambda op: [(op._inputs[0]._dtype, op._inputs[0]._shape)],
    kernel=lambda ctx, ref: ref,
    grad=_identity_grad,
    doc="Passes a variable's handle through (what tf.tuple and control dependencies wrap a *_ref tensor in).")


def ref_identity(input, name=None):  # noqa: A002
    """TF's ``gen_array_ops.ref_identity``: a ``*_ref`` tensor passed on as a ``*_ref`` tensor."""
    return build_op("RefIdentity", [input], name=name)._outputs[0]


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
    """``tf.stack``: N tensors of shape S become one tensor with a new axis of size N. Along axis 0 the
    list is converted as ``tf.convert_to_tensor`` would: one Const when it holds no tensor, else packed
    with its plain values as constants named by their position ("stack/0"), as TF names them."""
    if axis == 0:
        return convert_to_tensor(list(values), name=name)
    return build_op("Pack", [list(values)], attrs={"axis": axis}, name=name)._outputs[0]


def autopack(values, dtype, name):
    """A (nested) list holding tensors as one Pack op named ``name``; its other entries become Consts
    named by their index inside that scope, of the first tensor's dtype unless ``dtype`` is given. A list
    without tensors comes back as it is."""
    if dtype is None:
        dtype = _first_tensor_dtype(values)
    with _scope(name, name, []) as scope:
        items = []
        must_pack = False
        for i, item in enumerate(values):
            if isinstance(item, (list, tuple)):
                item = autopack(item, dtype, str(i))
            elif not isinstance(item, Tensor) and hasattr(item, "_to_tensor"):
                item = convert_to_tensor(item)
            must_pack = must_pack or isinstance(item, Tensor)
            items.append(item)
        if not must_pack:
            return items
        tensors = [item if isinstance(item, Tensor) else constant(item, dtype=dtype, name=str(i))
                   for i, item in enumerate(items)]
        return build_op("Pack", [tensors], attrs={"axis": 0}, name=scope)._outputs[0]


def _first_tensor_dtype(values):
    for item in values:
        if isinstance(item, Tensor):
            return item.dtype.base_dtype
        if isinstance(item, (list, tuple)):
            found = _first_tensor_dtype(item)
            if found is not None:
                return found
    return None


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
    return tuple(np.take(value, i, axis=axis) for i in builtins.range(value.shape[axis]))


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
    """``tf.zeros_like`` as TF builds it under the scope "zeros_like": tf.zeros of the static shape when
    that is fully known, else a ZerosLike op (or zeros of tf.shape when the dtype changes)."""
    with _scope(name, "zeros_like", [tensor]) as scope:
        if not (getattr(tensor, "_is_resource_variable", False) and tensor.shape.is_fully_defined()):
            tensor = convert_to_tensor(tensor, name="tensor")    # TF reads no variable for a known shape
        dt = dtypes.as_dtype(dtype).base_dtype if dtype is not None else tensor.dtype.base_dtype
        if optimize and tensor.shape.is_fully_defined():
            return zeros(tensor.shape.as_list(), dt, name=scope)
        if dt != tensor.dtype.base_dtype:
            return zeros(shape(tensor, optimize=optimize), dt, name=scope)
        return build_op("ZerosLike", [tensor], name=scope)._outputs[0]


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
    return const_value(tensor)


def _partial_shape(tensor):
    """What is known at build time about a 1-D shape tensor: a list of ints/None, or None if even its
    length is unknown (TF's "input tensors computed as partial shapes")."""
    value = _folded(tensor)
    if value is not None:
        return [int(v) for v in np.reshape(value, [-1])]
    op = tensor._op
    if op._type == "ConcatV2" and len(op._inputs) > 2:     # TF concatenates the parts' partial shapes
        parts = [_partial_shape(t) for t in op._inputs[:-1]]
        if all(p is not None for p in parts):
            return [d for p in parts for d in p]
    if op._type == "Shape":
        return op._inputs[0]._shape.as_list() if op._inputs[0]._shape.ndims is not None else None
    if op._type == "StridedSlice":        # TF's PartialStridedSliceShape: e.g. tf.shape(x)[1:] of x [?, 3]
        return _partial_strided_slice(op)
    if op._type == "Pack" and op._attrs.get("axis", 0) == 0:
        out = []
        for t in op._inputs:
            v = _known(t)
            out.append(None if v is None or np.ndim(v) else int(v))
        return out
    if tensor._shape.ndims == 1 and tensor._shape.as_list()[0] is not None:
        return [None] * tensor._shape.as_list()[0]
    return None


def _partial_strided_slice(op):
    """What is known of a 1-D slice ``t[begin:end:stride]`` of a partially known shape tensor (constant
    bounds, only begin_mask/end_mask), else None."""
    attrs = op._attrs
    if attrs.get("ellipsis_mask") or attrs.get("new_axis_mask") or attrs.get("shrink_axis_mask") or \
            attrs.get("begin_mask", 0) not in (0, 1) or attrs.get("end_mask", 0) not in (0, 1):
        return None
    bounds = [_known(t) for t in op._inputs[1:]]
    parts = _partial_shape(op._inputs[0])
    if parts is None or any(b is None or np.size(b) != 1 for b in bounds):
        return None
    begin, end, stride = (int(np.reshape(b, [-1])[0]) for b in bounds)
    return parts[None if attrs.get("begin_mask") else begin:None if attrs.get("end_mask") else end:stride]


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
def _product(sizes):
    """``int(np.prod(sizes))`` of a short list of Python ints, without numpy's call overhead (a few us, and
    a shape rule runs per Reshape built); numpy's own (int64) product where the exact one would not fit."""
    product = 1
    for d in sizes:
        product *= d
    return product if -2 ** 62 < product < 2 ** 62 else int(np.prod(sizes))


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
    product = _product(known)
    if -1 in target:
        i = target.index(-1)
        if n is not None and None not in target:
            if product == 0 or n % product:
                raise ShapeError("Cannot reshape a tensor with %d elements to shape %s (%d elements)" % (
                    n, "[%s]" % ",".join(str(d) for d in target), product), partial_inputs=(1,))
            target[i] = n // product
        else:
            target[i] = None
    elif n is not None and None not in target and n != product:
        raise ShapeError("Cannot reshape a tensor with %d elements to shape %s (%d elements)" % (
            n, "[%s]" % ",".join(str(d) for d in target), product), partial_inputs=(1,))
    elif n is not None and target.count(None) == 1 and product and n % product == 0:
        target[target.index(None)] = n // product     # TF: one unknown size follows from the input's
    elif n is None and x._shape.ndims is not None and None not in target:
        inner = [d for d in x._shape.as_list() if d is not None]
        if inner and product and product % _product(inner):
            raise ShapeError("Dimension size must be evenly divisible by %d but is %d" % (
                _product(inner), product), partial_inputs=(1,))
    return [(_dtype_of(op), tensor_shape.TensorShape(target))]


def _reshape_kernel(ctx, x, shape):
    try:
        return np.reshape(x, shape)
    except ValueError:   # only on failure: say it in TF's words
        shape = [int(d) for d in np.asarray(shape).reshape(-1)]
        known = int(np.prod([d for d in shape if d != -1]))
        if -1 in shape:
            msg = "requires a multiple of %d" % known
        else:
            msg = "has %d" % known
        raise InvalidArgumentError(None, ctx.op, "Input to reshape is a tensor with %d values, but the requested "
                                   "shape %s" % (np.size(x), msg)) from None


def _reshape_grad(op, grad):
    """Back to the input's shape. With exactly one unknown dimension (and no zero-sized one) TF 2.x writes
    that shape as a constant with -1 for the unknown (no run-time Shape op); otherwise tf.shape."""
    dims = op.inputs[0].shape.as_list() if op.inputs[0].shape.ndims is not None else None
    if dims is not None and dims.count(None) == 1 and 0 not in dims:
        return [reshape(_dense(grad), [-1 if d is None else d for d in dims]), None]
    return [_reshape_to_input(op, grad), None]


def _dense(grad):
    """An IndexedSlices gradient as a dense tensor (TF's _IndexedSlicesToTensorNoWarning); others as is."""
    from graphlab.framework.indexed_slices import to_dense
    return to_dense(grad)


def _reshape_to_input(op, grad):
    """TF's _ReshapeToInput: the gradient (made dense) reshaped to the shape of the op's first input."""
    return reshape(_dense(grad), shape(op.inputs[0]))


register_op(
    "Reshape",
    inputs=["tensor: T", "shape: Tshape=int32"],
    outputs=_reshape_outputs,
    kernel=_reshape_kernel,
    grad=_reshape_grad,
    doc="The same values in a new shape; one -1 in the shape is inferred from the element count.")


def reshape(tensor, shape, name=None):  # noqa: F811  (TF's argument name shadows the function below)
    """``tf.reshape``."""
    return build_op("Reshape", [tensor, shape], name=name)._outputs[0]


# ------------------------------------------------------------------------------------------- Transpose
_FOLDABLE = {"ConcatV2", "Range", "Pack", "AddV2", "Sub", "Mul", "StridedSlice", "GatherV2", "ExpandDims",
             "Reshape", "Cast", "Identity", "FloorMod", "Fill"}


_FoldContext = collections.namedtuple("FoldContext", "op attrs state session")   # what a kernel reads


def _folded(tensor, depth=6):
    """The value of a small all-constant subgraph of shape arithmetic, computed by its kernels at build time
    (TF's shape inference evaluates such subgraphs too, e.g. a gradient's permutation made of Ranges), or
    None when a placeholder or anything else is in the way."""
    value = _known(tensor)
    if value is not None or depth == 0 or tensor._op._type not in _FOLDABLE:
        return value
    op = tensor._op
    args = [_folded(t, depth - 1) for t in op._inputs]
    if any(a is None for a in args):
        return None
    ctx = _FoldContext(op, op._attrs, {}, None)
    try:
        out = registry.get_opdef(op._type).kernel(ctx, *[np.asarray(a) for a in args])
    except Exception:   # an error is the kernel's to report at run time
        return None
    return np.asarray(out[tensor._value_index] if isinstance(out, tuple) else out)


def _transpose_outputs(op):
    x, perm = op._inputs
    dims = _dims(x)
    p = _folded(perm)
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
    kernel=lambda ctx, x, perm: np.transpose(x, perm).copy(),   # copy() keeps a scalar 0-d (ascontiguousarray would not)
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
                # as TF: Range(Rank - 1, -1, -1) built as the raw op (Range/limit, Range/delta)
                perm = build_op("Range", [rank(a) - 1, -1, -1], name="Range")._outputs[0]
        return build_op("Transpose", [a, perm], name=scope)._outputs[0]


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
    return build_op("InvertPermutation", [x], name=name)._outputs[0]


# ------------------------------------------------------------------------------------ ListDiff (setdiff1d)
def _list_diff_outputs(op):
    out_idx = op._attrs["out_idx"]
    if out_idx not in (dtypes.int32, dtypes.int64):
        raise TypeError("Value passed to parameter 'out_idx' has DataType %s not in list of allowed values: "
                        "int32, int64" % out_idx.name)
    for t in op._inputs:
        if t._shape.ndims not in (None, 1):
            raise ValueError("Shape must be rank 1 but is rank %d" % t._shape.ndims)
    return [(_dtype_of(op), tensor_shape.TensorShape([None])), (out_idx, tensor_shape.TensorShape([None]))]


def _list_diff_kernel(ctx, x, y):
    for value, what in ((x, "x"), (y, "y")):
        if np.ndim(value) != 1:
            raise InvalidArgumentError(None, ctx.op, "%s should be a 1D vector." % what)
    x, remove = np.asarray(x), set(np.asarray(y).tolist())
    keep = np.array([v not in remove for v in x.tolist()], dtype=bool).reshape(-1)
    return x[keep], np.flatnonzero(keep).astype(ctx.attrs["out_idx"].as_numpy_dtype)


register_op(
    "ListDiff",
    inputs=["x: T", "y: T"],
    outputs=_list_diff_outputs,
    kernel=_list_diff_kernel,
    grad=NOT_DIFFERENTIABLE,
    doc="The values of x that are not in y, in x's order (duplicates kept), and their positions in x.")

ListDiff = collections.namedtuple("ListDiff", ["out", "idx"])


def setdiff1d(x, y, index_dtype=dtypes.int32, name=None):
    """``tf.setdiff1d``: (out, idx) with out the values of x not in y, in order, and x[idx] == out."""
    op = build_op("ListDiff", [x, y], attrs={"out_idx": dtypes.as_dtype(index_dtype).base_dtype}, name=name)
    return ListDiff(*op.outputs)

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
    grad=lambda op, grad: [_reshape_to_input(op, grad), None],
    doc="Inserts an axis of size 1.")


def expand_dims(input, axis=None, name=None, dim=None):  # noqa: A002
    """``tf.expand_dims`` (``dim`` is TF1's old name for ``axis``)."""
    axis = dim if axis is None else axis
    if axis is None:
        raise ValueError("Must specify an axis argument to tf.expand_dims()")
    return build_op("ExpandDims", [input, axis], name=name)._outputs[0]


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
    grad=lambda op, grad: [_reshape_to_input(op, grad)],
    doc="Removes axes of size 1 (all of them, or those in squeeze_dims).")


def squeeze(input, axis=None, name=None, squeeze_dims=None):  # noqa: A002
    """``tf.squeeze``."""
    axis = squeeze_dims if axis is None else axis
    if isinstance(axis, int):
        axis = [axis]
    return build_op("Squeeze", [input], attrs={"squeeze_dims": list(axis or [])}, name=name)._outputs[0]


# ---------------------------------------------------------------------------------------------- Concat
def _concat_outputs(op):
    values, axis_t = op._inputs[:-1], op._inputs[-1]
    if axis_t._shape.ndims not in (None, 0):
        raise ValueError("Shape must be rank 0 but is rank %d" % axis_t._shape.ndims)
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
            # as TF's rule: the axes before the concatenated one, then those after it, each merged as a shape
            for lo, hi in ((0, axis), (axis + 1, rank)):
                for i in builtins.range(lo, hi):
                    a, b = out[i], rest[i]
                    if a is not None and b is not None and a != b:
                        raise ShapeError("Dimension %d in both shapes must be equal, but are %d and %d. Shapes "
                                         "are %s and %s." % (i - lo, a, b, registry.dims_text(out[lo:hi]),
                                                             registry.dims_text(rest[lo:hi])),
                                         read_inputs=(len(values),))
                    out[i] = a if a is not None else b
    out = out or [None] * rank
    out[axis] = total
    return [(_dtype_of(op), tensor_shape.TensorShape(out))]


def _concat_grad(op, grad):
    """TF's rule: the axis made non-negative (FloorMod by the Rank), the inputs' shapes (Consts when all are
    known, else one ShapeN), then up to 16 inputs slice their part at the offsets ConcatOffset computes;
    more than 16 split once along the axis with sizes taken from the stacked shapes."""
    values, axis = op.inputs[:-1], op.inputs[-1]
    if len(values) == 1:
        return [grad, None]
    if axis.op.type == "Const":
        # as TF: a constant axis made in another control-flow context (a cond branch, a loop body) is
        # copied into the gradient's, rather than reached through a Switch or an Enter
        if control_flow_util.get_output_context(axis.op) is not control_flow_util.get_output_context(grad.op):
            axis = constant(_known(axis), dtype=axis.dtype)
    axis = _math().floormod(axis, rank(values[0]), name="mod")
    sizes = []
    for t in values:
        s = shape(t)
        if s.op.type != "Const":
            sizes = shape_n(values)
            break
        sizes.append(s)
    if len(sizes) > 16:
        along = squeeze(slice(stack(sizes, axis=1), [axis, 0], [1, -1]))
        return list(split(grad, along, axis)) + [None]
    offsets = build_op("ConcatOffset", [axis, list(sizes)], name="ConcatOffset").outputs
    return [slice(grad, begin, size) for begin, size in zip(offsets, sizes)] + [None]


def _concat_kernel(ctx, *args):
    axis = int(args[-1])
    try:
        return np.concatenate(args[:-1], axis=axis)
    except ValueError:   # only on failure: find the first input that disagrees with the running result
        values = [np.asarray(v) for v in args[:-1]]
        first = list(values[0].shape)
        axis %= max(len(first), 1)
        for i, v in enumerate(values[1:], 1):
            dims = list(v.shape)
            if len(dims) != len(first):
                raise InvalidArgumentError(None, ctx.op, "ConcatOp : Ranks of all input tensors should match: "
                                           "shape[0] = %s vs. shape[%d] = %s" % (_br(first), i, _br(dims))) from None
            for d, (a, b) in enumerate(zip(first, dims)):
                if d != axis and a != b:
                    raise InvalidArgumentError(
                        None, ctx.op, "ConcatOp : Dimension %d in both shapes must be equal: shape[0] = %s vs. "
                        "shape[%d] = %s" % (d, _br(first), i, _br(dims))) from None
        raise


def _br(dims):
    return "[%s]" % ",".join(str(int(d)) for d in dims)


register_op(
    "ConcatV2",
    inputs=["values: N*T", "axis: Tidx=int32"],
    outputs=_concat_outputs,
    kernel=_concat_kernel,
    grad=_concat_grad,
    doc="Joins tensors along an existing axis.")


def concat(values, axis, name="concat"):
    """``tf.concat``: a single value is passed through an Identity, as TF does."""
    if not isinstance(values, (list, tuple)):
        values = [values]
    if len(values) == 1:
        with _scope(name, "concat", values) as scope:
            axis_t = convert_to_tensor(axis, name="concat_dim", dtype="int32")
            if axis_t.shape.ndims not in (None, 0):   # e.g. the pre-1.0 order tf.concat(1, [x, x])
                raise ValueError("Shape %s must have rank 0" % axis_t.shape)
            return identity(values[0], name=name)      # inside the scope: "concat/concat", as TF names it
    return build_op("ConcatV2", [list(values), axis], name=name)._outputs[0]


# ---------------------------------------------------------------------------------------- ConcatOffset
def _concat_offset_outputs(op):
    if op._inputs[0]._shape.ndims not in (None, 0):
        raise ValueError("Shape must be rank 0 but is rank %d" % op._inputs[0]._shape.ndims)
    for t in op._inputs[1:]:
        if t._shape.ndims not in (None, 1):
            raise ValueError("Shape must be rank 1 but is rank %d" % t._shape.ndims)
    return [(t._dtype.base_dtype, t._shape) for t in op._inputs[1:]]


def _concat_offset_kernel(ctx, axis, *shapes):
    """Where each input starts inside the concatenation: zeros except along the axis, a running sum."""
    first = np.asarray(shapes[0])
    dims, axis = len(first), int(axis)
    if not -dims <= axis < dims:
        raise InvalidArgumentError(None, ctx.op, "Concat dim is out of range: %d vs. %d" % (axis, dims))
    axis %= dims
    offsets, at = [], 0
    for i, s in enumerate(shapes):
        s = np.asarray(s)
        if s.size != dims:
            raise InvalidArgumentError(None, ctx.op, "input %d should contain %d elements, but got %d" % (
                i, dims, s.size))
        if any(s[d] != first[d] for d in builtins.range(dims) if d != axis):
            raise InvalidArgumentError(None, ctx.op, "All dimensions except %d must match. Input %d has shape "
                                       "[%s] and doesn't match input 0 with shape [%s]." % (
                                           axis, i, " ".join(str(int(v)) for v in s),
                                           " ".join(str(int(v)) for v in first)))
        offset = np.zeros(dims, dtype=s.dtype)
        offset[axis] = at
        offsets.append(offset)
        at += int(s[axis])
    return tuple(offsets)


register_op(
    "ConcatOffset",
    inputs=["concat_dim: int32", "shape: N*shape_type=int32"],
    outputs=_concat_offset_outputs,
    kernel=_concat_offset_kernel,
    grad=NOT_DIFFERENTIABLE,
    doc="The offsets of each of N concatenated shapes along concat_dim (ConcatV2's gradient slices with them).")


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
            raise ShapeError("Dimension size must be evenly divisible by %d but is %d\n\tNumber of ways to split "
                             "should evenly divide the split dimension" % (n, dims[axis]), read_inputs=(0,))
        dims[axis] //= n
    return [(_dtype_of(op, 1), tensor_shape.TensorShape(dims))] * n


def _split_kernel(ctx, axis, x):
    """num_split equal views along the axis: slices made directly (np.split's own Python costs more than
    the slicing); what does not divide evenly, or a bad axis, is left to np.split and its errors."""
    n, axis = ctx.attrs["num_split"], int(axis)
    if type(x) is np.ndarray and -x.ndim <= axis < x.ndim and n > 0 and x.shape[axis] % n == 0:
        return tuple([x[index] for index in _split_indices(axis % x.ndim, n, x.shape[axis] // n)])
    return tuple(np.split(x, n, axis=axis))


@functools.lru_cache(maxsize=256)
def _split_indices(axis, n, size):
    """The index tuples of ``n`` equal pieces of ``size`` along ``axis`` (made once per shape: an LSTM splits
    the same gates in every step)."""
    head = (builtins.slice(None),) * axis
    return tuple(head + (builtins.slice(i * size, (i + 1) * size),) for i in builtins.range(n))


register_op(
    "Split",
    inputs=["split_dim: int32", "value: T"],
    outputs=_split_outputs,
    kernel=_split_kernel,
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
    size_known = _folded(size_t) is not None   # TF: a -1 in a size computed at run time is just unknown
    for i in builtins.range(rank):
        b = begin[i] if begin is not None else None
        s = size[i] if size is not None else None
        d = dims[i] if dims is not None else None
        if s == -1:
            out.append(d - b if d is not None and b is not None and size_known else None)
        else:
            if s is not None and b is not None and d is not None and b + s > d:
                raise ValueError("Expected size[%d] in [0, %d], but got %d" % (i, d - b, s))
            out.append(s)
    return [(_dtype_of(op), tensor_shape.TensorShape(out))]


def _slice_kernel(ctx, x, begin, size):
    # begin and size as Python ints first: indexing and comparing numpy scalars one by one costs more
    # than the copy itself for the small slices of a recurrent network's gradient
    index = []
    dims = x.shape
    for i, (b, s) in enumerate(zip(np.asarray(begin).tolist(), np.asarray(size).tolist())):
        if b < 0 or (s != -1 and b + s > dims[i]):
            raise InvalidArgumentError(None, ctx.op, "Expected size[%d] in [0, %d], but got %d" % (
                i, dims[i] - b, s))
        index.append(builtins.slice(b, None if s == -1 else b + s))
    return x[tuple(index)].copy()


def _slice_grad(op, grad):
    """TF's rule: pad the gradient back, with begin before and (input shape - slice shape - begin) after,
    each reshaped to a [rank, 1] column and joined into the [rank, 2] paddings."""
    x, begin = op.inputs[0], op.inputs[1]
    input_rank = rank(x)
    slice_size = shape(op.outputs[0], out_type=begin.dtype)
    column = stack([input_rank, 1])
    before = reshape(begin, column)
    after = reshape(shape(x, out_type=begin.dtype) - slice_size - begin, column)
    return [pad(grad, concat([before, after], 1)), None, None]


register_op(
    "Slice",
    inputs=["input: T", "begin: Index=int32", "size: Index"],
    outputs=_slice_outputs,
    kernel=_slice_kernel,
    grad=_slice_grad,
    doc="A contiguous block starting at begin with the given size (-1: to the end).")


def slice(input_, begin, size, name=None):  # noqa: A001  (TF's name)
    """``tf.slice``."""
    return build_op("Slice", [input_, begin, size], name=name)._outputs[0]




# ---------------------------------------------------------------------------------------- StridedSlice
_MASKS = ("begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask", "shrink_axis_mask")


def _index_items(attrs, begin, end, strides):
    """The numpy index TF's masks describe; begin/end/strides entries may be None (unknown at build)."""
    items = []
    for i in builtins.range(len(strides)):
        bit = 1 << i
        if attrs["ellipsis_mask"] & bit:
            items.append(Ellipsis)
        elif attrs["new_axis_mask"] & bit:
            items.append(None)
        elif attrs["shrink_axis_mask"] & bit:
            items.append(("int", begin[i]))
        else:
            items.append(builtins.slice(None if attrs["begin_mask"] & bit else begin[i],
                                        None if attrs["end_mask"] & bit else end[i], strides[i]))
    return items


_UNK = type("Unknown", (), {"__slots__": ()})()  # a begin/end/stride value not known at build time


def _strided_slice_outputs(op):
    x = op._inputs[0]
    parts = [_partial_shape(t) for t in op._inputs[1:4]]
    dims = _dims(x)
    if any(p is None for p in parts) or dims is None:
        return [(_dtype_of(op), tensor_shape.UNKNOWN)]
    parts = [[_UNK if v is None else v for v in p] for p in parts]
    items = _index_items(op._attrs, *parts)
    used = sum(1 for it in items if it is not None and it is not Ellipsis)
    if Ellipsis not in items:
        items.append(Ellipsis)
    if used > len(dims):      # more indices than the input has axes
        raise ShapeError("Index out of range using input dim %d; input has only %d dims" % (len(dims), len(dims)),
                         read_inputs=(3,))
    out, d = [], 0
    for it in items:
        if it is Ellipsis:
            n = len(dims) - used
            out.extend(dims[d:d + n])
            d += n
        elif it is None:
            out.append(1)
        elif isinstance(it, tuple):
            b, size = it[1], dims[d]
            if b is not _UNK and size is not None and not -size <= b < size:
                raise ValueError("slice index %d of dimension %d out of bounds." % (b, d))
            d += 1
        else:
            size = dims[d]
            if it.step == 0:
                raise ValueError("strides[%d] must be non-zero" % d)
            if size is None or any(v is _UNK for v in (it.start, it.stop, it.step)):
                out.append(None)
            else:
                out.append(len(builtins.range(*it.indices(size))))
            d += 1
    if d > len(dims):
        raise ShapeError("Index out of range using input dim %d; input has only %d dims" % (d - 1, len(dims)),
                         read_inputs=(3,))
    return [(_dtype_of(op), tensor_shape.TensorShape(out))]


def _numpy_index(attrs, begin, end, strides):
    return tuple(int(it[1]) if isinstance(it, tuple) else it
                 for it in _index_items(attrs, [int(v) for v in begin], [int(v) for v in end],
                                        [int(v) for v in strides]))


def _strided_slice_kernel(ctx, x, begin, end, strides):
    index = _numpy_index(ctx.attrs, begin, end, strides)
    try:
        return np.array(x[index], copy=True)
    except IndexError:
        raise InvalidArgumentError(None, ctx.op, "slice index out of bounds: index %s on a tensor of shape %s" % (
            _show_index(index), list(x.shape))) from None


def _show_index(index):
    return "[%s]" % ", ".join("..." if i is Ellipsis else "newaxis" if i is None else
                              "%s:%s:%s" % (i.start if i.start is not None else "",
                                            i.stop if i.stop is not None else "", i.step)
                              if isinstance(i, builtins.slice) else str(i) for i in index)


def _strided_slice_grad(op, grad):
    """TF's rule: the input's shape, begin, end and strides go in as new Consts (inside StridedSliceGrad's
    scope) whenever their values are known at build time, else as the tensors themselves."""
    x, begin, end, strides = op.inputs
    args = [shape(x, out_type=begin.dtype), begin, end, strides]
    args = [t if const_value(t) is None else const_value(t) for t in args]
    attrs = {k: op._attrs[k] for k in _MASKS}
    dx = build_op("StridedSliceGrad", args + [grad], attrs=attrs, name="StridedSliceGrad")._outputs[0]
    return [dx, None, None, None]


register_op(
    "StridedSlice",
    inputs=["input: T", "begin: Index=int32", "end: Index", "strides: Index"],
    outputs=_strided_slice_outputs,
    kernel=_strided_slice_kernel,
    grad=_strided_slice_grad,
    doc="Python/numpy basic slicing (x[1:, ::2, tf.newaxis, ..., 0]) encoded as begin/end/strides and masks.")


def _strided_slice_grad_outputs(op):
    target = _partial_shape(op._inputs[0])
    return [(op._inputs[4]._dtype.base_dtype, _shape_of(target))]


def _strided_slice_grad_kernel(ctx, shape_value, begin, end, strides, dy):
    out = np.zeros([int(d) for d in shape_value], dtype=dy.dtype)
    index = _numpy_index(ctx.attrs, begin, end, strides)
    view = out[index]
    out[index] = np.reshape(dy, np.shape(view))
    return out


register_op(
    "StridedSliceGrad",
    inputs=["shape: Index=int32", "begin: Index", "end: Index", "strides: Index", "dy: T"],
    outputs=_strided_slice_grad_outputs,
    kernel=_strided_slice_grad_kernel,
    grad=lambda op, grad: [None, None, None, None, strided_slice(
        grad, op.inputs[1], op.inputs[2], op.inputs[3], **{k: op._attrs[k] for k in _MASKS})],
    doc="Gradient of StridedSlice: dy scattered into zeros of the input's shape.")


def strided_slice(input_, begin, end, strides=None, begin_mask=0, end_mask=0, ellipsis_mask=0,
                  new_axis_mask=0, shrink_axis_mask=0, var=None, name=None):
    """``tf.strided_slice``; ``x[...]`` on a Tensor builds the same op."""
    if strides is None:       # as TF: a ones_like of begin (tensor, shape and Fill ops of its own)
        strides = ones_like(begin)
    attrs = dict(begin_mask=begin_mask, end_mask=end_mask, ellipsis_mask=ellipsis_mask,
                 new_axis_mask=new_axis_mask, shrink_axis_mask=shrink_axis_mask)
    return build_op("StridedSlice", [input_, begin, end, strides], attrs=attrs, name=name,
                    default_name="StridedSlice").outputs[0]


def _slice_helper(tensor, key):
    """``tensor[key]``: TF's translation of Python indexing into one StridedSlice named "strided_slice"."""
    from graphlab.framework.tensor import Tensor
    if not isinstance(key, (tuple, list)) or isinstance(key, list) and not key:
        key = (key,)
    begin, end, strides = [], [], []
    masks = dict.fromkeys(_MASKS, 0)
    for i, item in enumerate(key):
        bit = 1 << i
        if isinstance(item, builtins.slice):
            parts = (item.start, item.stop, item.step)
            for part in parts:
                if part is not None and not isinstance(part, (int, np.integer, Tensor)):
                    raise TypeError("Only integers, slices (`:`), ellipsis (`...`), tf.newaxis (`None`) and "
                                    "scalar tf.int32/tf.int64 tensors are valid indices, got %r" % (part,))
            # as TF: next to a tensor bound, a missing bound is a Const of its dtype (made outside the scope)
            kinds = {p.dtype.base_dtype for p in parts if isinstance(p, Tensor)}
            dtype = dtypes.int64 if dtypes.int64 in kinds else dtypes.int32 if dtypes.int32 in kinds else \
                dtypes.int16 if dtypes.int16 in kinds else None
            for part, default, into, mask in ((item.start, 0, begin, "begin_mask"), (item.stop, 0, end, "end_mask"),
                                              (item.step, 1, strides, None)):
                if part is None:
                    part = default if dtype is None else constant(default, dtype=dtype)
                    if mask:
                        masks[mask] |= bit
                into.append(part)
        elif item is Ellipsis:
            masks["ellipsis_mask"] |= bit
            begin.append(0), end.append(0), strides.append(1)
        elif item is None:
            masks["new_axis_mask"] |= bit
            begin.append(0), end.append(0), strides.append(1)
        elif isinstance(item, (int, np.integer)) and not isinstance(item, bool):
            masks["shrink_axis_mask"] |= bit
            begin.append(int(item)), end.append(int(item) + 1), strides.append(1)
        elif isinstance(item, Tensor) and item.dtype.base_dtype.is_integer:
            masks["shrink_axis_mask"] |= bit
            begin.append(item), end.append(item + 1)     # "add", outside the scope, as TF
            wide = item.dtype.base_dtype in (dtypes.int16, dtypes.int64)
            strides.append(constant(1, dtype=item.dtype.base_dtype) if wide else 1)
        else:
            raise TypeError("Only integers, slices (`:`), ellipsis (`...`), tf.newaxis (`None`) and scalar "
                            "tf.int32/tf.int64 tensors are valid indices, got %r" % (item,))
    with _scope(None, "strided_slice", [tensor]) as scope:
        packed = [stack(v, name="stack") for v in (begin, end, strides)]
        if any(t.dtype.base_dtype == dtypes.int64 for t in packed):
            packed = [t if t.dtype.base_dtype == dtypes.int64 else _math().cast(t, dtypes.int64) for t in packed]
        return build_op("StridedSlice", [tensor] + packed, attrs=masks, name=scope)._outputs[0]


def install_getitem():
    """Register ``Tensor.__getitem__`` in the operator table math_ops installs (called after it exists)."""
    from graphlab.framework import tensor as tensor_mod
    if tensor_mod._OVERLOADS is not None:
        tensor_mod._OVERLOADS["__getitem__"] = _slice_helper


# ---------------------------------------------------------------------------------------------- Gather
def _gather_outputs(op):
    params, indices, axis_t = op._inputs
    pd, idx, axis = _dims(params), _dims(indices), _known(axis_t)
    if pd is None or idx is None or axis is None:
        return [(_dtype_of(op), tensor_shape.UNKNOWN)]
    axis = _axis_attr(int(axis), len(pd))
    b = int(op._attrs.get("batch_dims", 0))
    if not -len(idx) <= b <= len(idx):
        raise ValueError("Shape must be at least rank %d but is rank %d" % (abs(b), len(idx)))
    b = _batch_dims(b, len(idx))
    if b > axis:     # tf.gather never builds this (axis 0 drops batch_dims); TF's own rule is no guide here
        return [(_dtype_of(op), tensor_shape.UNKNOWN)]
    return [(_dtype_of(op), tensor_shape.TensorShape(pd[:axis] + idx[b:] + pd[axis + 1:]))]


def _batch_dims(b, indices_rank):
    """A negative batch_dims counts back from the indices' rank, as TF's kernel does."""
    b = int(b)
    if b < 0:
        b += indices_rank
    if not 0 <= b <= indices_rank:
        raise ValueError("Expected batch_dims in the range [%d, %d], but got %d" % (
            -indices_rank, indices_rank, b - (indices_rank if b < 0 else 0)))
    return b


def _gather_kernel(ctx, params, indices, axis):
    axis = int(axis) % params.ndim
    size = params.shape[axis]
    if indices.size and (indices.min() < 0 or indices.max() >= size):
        where = np.argwhere((indices < 0) | (indices >= size))[0]
        bad = indices[tuple(where)]
        at = "[%s]" % ",".join(str(int(i)) for i in where) if indices.ndim else ""
        raise InvalidArgumentError(None, ctx.op, "indices%s = %d is not in [0, %d)" % (at, bad, size))
    b = _batch_dims(ctx.attrs.get("batch_dims", 0), indices.ndim)
    if not b:
        return np.take(params, indices, axis=axis)
    # batch_dims: the leading b axes of params and indices are walked together, one gather per batch
    lead = params.shape[:b]
    flat_p = params.reshape((-1,) + params.shape[b:])
    flat_i = indices.reshape((-1,) + indices.shape[b:])
    out_shape = params.shape[:axis] + indices.shape[b:] + params.shape[axis + 1:]
    if not flat_p.shape[0]:
        return np.zeros(out_shape, params.dtype)
    parts = [np.take(flat_p[k], flat_i[k], axis=axis - b) for k in builtins.range(flat_p.shape[0])]
    return np.stack(parts).reshape(lead + out_shape[b:])


def _gather_grad(op, grad):
    """TF's rule. Axis 0: IndexedSlices, the rows of grad reshaped to [size(indices), params_shape[1:]] at
    rows ``indices`` of a tensor shaped like params (added up only where something needs it dense). Other
    axes: move the gathered axis first (behind the batch axes), segment-sum, move it back, as TF's
    transpose/range/concat chain builds it. An IndexedSlices grad is made dense first, as TF does."""
    from graphlab.framework.indexed_slices import IndexedSlices
    params, indices, axis = op.inputs
    with params.graph.colocate_with(params):     # as TF: the shape is read where params live
        params_shape = shape(params)
    indices_size = expand_dims(size(indices), 0)
    a = _known(axis)
    b = int(op._attrs.get("batch_dims", 0))
    if b < 0:
        if indices.shape.ndims is None:
            raise ValueError("Currently, it is unsupported to take the gradient of tf.gather when batch_dims < 0 "
                             "and the rank of the indices is unknown. Please pass a positive batch_dims or use "
                             "tf.ensure_shape to update the shape of indices when calling tf.gather. Got "
                             "batch_dims=%d and indices=%s" % (b, indices))
        b += indices.shape.ndims
    if a is not None and int(a) == 0:
        values_shape = concat([indices_size, params_shape[1:]], 0)
        values = reshape(_dense(grad), values_shape)
        return [IndexedSlices(values, reshape(indices, indices_size), params_shape), None, None]
    outer_shape = params_shape[:axis]
    inner_shape = params_shape[axis:][1:]
    values_shape = concat([outer_shape, [-1], inner_shape], 0)
    values_dims = size(values_shape)
    axis_dims = size(outer_shape)
    outer_batches = range(b)
    batch_axis = range(b, axis_dims)
    inner_axes = range(axis_dims + 1, values_dims)
    values = reshape(_dense(grad), values_shape)
    perm = concat([outer_batches, [axis_dims], batch_axis, inner_axes], 0)
    values_t = transpose(values, perm)
    params_shape_t = gather(params_shape, perm)
    summed = _batch_gather_grad(params_shape_t, values_t, indices, b, params_shape[axis])
    back = concat([outer_batches, batch_axis + 1, [b], inner_axes], 0)
    return [reshape(transpose(summed, back), shape(params)), None, None]


def _batch_gather_grad(params_shape, values, indices, batch_dims, gather_dim_size):
    """TF's _BatchGatherGrad: with batch axes, indices are offset per batch and all batches summed at once."""
    m = _math()
    indices_size = expand_dims(size(indices), 0)
    if batch_dims:
        values_shape = shape(values)
        outer_shape = values_shape[:batch_dims]
        inner_shape = values_shape[batch_dims:][1:]
        batch_size = m.reduce_prod(outer_shape, [0])
        flat_values_shape = concat([[-1], inner_shape], 0)
        gather_dim_size = gather_dim_size * batch_size
        indices = _batch_indices(params_shape, indices, batch_dims)
        values = reshape(values, flat_values_shape)
    indices = reshape(indices, indices_size)
    params_grad = unsorted_segment_sum(values, indices, gather_dim_size)
    if batch_dims:
        params_grad = reshape(params_grad, concat([outer_shape, flat_values_shape], 0))
    return params_grad


def _batch_indices(params_shape, indices, batch_dims):
    """TF's _GetBatchIndices: each batch's indices shifted past the rows of the batches before it."""
    dtype = indices.dtype.base_dtype
    batch_indices = indices
    casted = _math().cast(params_shape, dtype)
    accum = ones((), dtype=dtype)
    for dim in builtins.range(batch_dims, 0, -1):
        dim_value = casted[dim - 1]
        accum = accum * casted[dim]
        dim_indices = range(zeros((), dtype=dtype), dim_value, ones((), dtype=dtype))
        dim_indices = dim_indices * accum
        dim_shape = concat([tile([1], [dim - 1]), [dim_value], tile([1], [rank(indices) - dim])], axis=0)
        batch_indices = batch_indices + reshape(dim_indices, dim_shape)
    return batch_indices


register_op(
    "GatherV2",
    inputs=["params: Tparams", "indices: Tindices=int32", "axis: Taxis=int32"],
    outputs=_gather_outputs,
    kernel=_gather_kernel,
    grad=_gather_grad,
    doc="Picks slices of params along axis at the given indices.")


def gather(params, indices, validate_indices=None, name=None, axis=None, batch_dims=0):
    """``tf.gather``: the axis defaults to batch_dims, as in TF."""
    axis = batch_dims if axis is None else axis
    from graphlab.framework.tensor import Tensor
    if not isinstance(axis, Tensor) and int(axis) == 0 or isinstance(axis, Tensor) and _known(axis) == 0:
        batch_dims = 0      # as TF: a gather on axis 0 is built without batch_dims
        if getattr(params, "_is_resource_variable", False):
            return params.sparse_read(indices, name=name)      # ResourceGather, as TF
    return build_op("GatherV2", [params, indices, axis], attrs={"batch_dims": int(batch_dims)},
                    name=name).outputs[0]


register_op(
    "UnsortedSegmentSum",
    inputs=["data: T", "segment_ids: Tindices=int32", "num_segments: Tnumsegments=int32"],
    outputs=lambda op: _segment_ops().unsorted_segment_sum_outputs(op),      # shared with the other unsorted
    kernel=lambda ctx, *args: _segment_ops().unsorted_segment_sum_kernel(ctx, *args),   # segment reductions
    grad=lambda op, grad: _segment_ops().unsorted_segment_sum_grad(op, grad),
    doc="Sums rows of data that share a segment id (Gather's gradient).")


def _segment_ops():
    from graphlab.ops import segment_ops
    return segment_ops


def unsorted_segment_sum(data, segment_ids, num_segments, name=None):
    return build_op("UnsortedSegmentSum", [data, segment_ids, num_segments], name=name)._outputs[0]


# ------------------------------------------------------------------------------------------------ Tile
def _tile_outputs(op):
    x, mult = op._inputs
    dims, m = _dims(x), _partial_shape(mult)
    if dims is None:
        return [(_dtype_of(op), tensor_shape.unknown_shape(len(m)) if m is not None else tensor_shape.UNKNOWN)]
    if m is not None and len(m) != len(dims):
        raise ValueError("Shape must be rank %d but is rank %d" % (len(dims), len(m)))
    m = m or [None] * len(dims)
    return [(_dtype_of(op), tensor_shape.TensorShape([None if d is None or k is None else d * k
                                                      for d, k in zip(dims, m)]))]


def _tile_grad(op, grad):
    x, multiples = op.inputs
    m = _math()
    split_shape = reshape(transpose(stack([multiples, shape(x, out_type=multiples.dtype)])), [-1])
    axes = range(0, size(split_shape), 2)
    return [m.reduce_sum(reshape(grad, split_shape), axes), None]


register_op(
    "Tile",
    inputs=["input: T", "multiples: Tmultiples=int32"],
    outputs=_tile_outputs,
    kernel=lambda ctx, x, m: np.tile(x, [int(k) for k in m]) if x.ndim else x.copy(),
    grad=_tile_grad,
    doc="Repeats the whole tensor multiples[i] times along axis i.")


def tile(input, multiples, name=None):  # noqa: A002
    """``tf.tile``."""
    return build_op("Tile", [input, multiples], name=name)._outputs[0]


# ------------------------------------------------------------------------------------------------- Pad
def _pad_outputs(op):
    x, paddings = op._inputs[:2]
    dims, p = _dims(x), _known(paddings)
    if dims is None:     # as TF: the paddings' first dimension, when known, gives the rank
        n = paddings._shape.dims[0].value if paddings._shape.ndims == 2 else None
        if n is None:
            return [(_dtype_of(op), tensor_shape.UNKNOWN)]
        dims = [None] * n
    if p is None:
        return [(_dtype_of(op), tensor_shape.unknown_shape(len(dims)))]
    p = np.asarray(p).reshape(-1, 2) if np.size(p) else np.zeros([0, 2], np.int64)
    if len(p) != len(dims):
        raise ValueError("Shape must be rank %d but is rank %d: paddings must be a [%d, 2] matrix" % (
            len(dims), len(p), len(dims)))
    if (p < 0).any():
        raise ValueError("Paddings must be non-negative")
    return [(_dtype_of(op), tensor_shape.TensorShape([None if d is None else d + int(a) + int(b)
                                                      for d, (a, b) in zip(dims, p)]))]


def _pad_grad(op, grad):
    x, paddings = op.inputs[:2]
    begin = reshape(slice(paddings, [0, 0], stack([rank(x), 1])), [-1])
    return [slice(grad, begin, shape(x, out_type=paddings.dtype))] + [None] * (len(op.inputs) - 1)


def _pad_kernel(ctx, x, paddings, value=0):
    return np.pad(x, np.asarray(paddings, dtype=np.int64).reshape(-1, 2), mode="constant", constant_values=value)


register_op(
    "Pad",
    inputs=["input: T", "paddings: Tpaddings=int32"],
    outputs=_pad_outputs,
    kernel=_pad_kernel,
    grad=_pad_grad,
    doc="Adds zeros around a tensor: paddings[i] = [before, after] for axis i.")

register_op(
    "PadV2",
    inputs=["input: T", "paddings: Tpaddings=int32", "constant_values: T"],
    outputs=_pad_outputs,
    kernel=_pad_kernel,
    grad=_pad_grad,
    doc="Pad with a chosen constant instead of zeros.")

register_op(
    "MirrorPad",
    inputs=["input: T", "paddings: Tpaddings=int32"],
    outputs=_pad_outputs,
    kernel=lambda ctx, x, p: np.pad(x, np.asarray(p, np.int64).reshape(-1, 2),
                                    mode="reflect" if ctx.attrs["mode"] == "REFLECT" else "symmetric"),
    grad=lambda op, grad: [build_op("MirrorPadGrad", [grad, op.inputs[1]], attrs={"mode": op._attrs["mode"]},
                                    name="MirrorPadGrad").outputs[0], None],
    doc="Pads by mirroring the edges (REFLECT excludes the edge, SYMMETRIC repeats it).")


def _mirror_pad_grad_outputs(op):
    dims, p = _dims(op._inputs[0]), _known(op._inputs[1])
    if dims is None or p is None:
        return [(_dtype_of(op), tensor_shape.UNKNOWN if dims is None else tensor_shape.unknown_shape(len(dims)))]
    p = np.asarray(p).reshape(-1, 2)
    return [(_dtype_of(op), tensor_shape.TensorShape([None if d is None else d - int(a) - int(b)
                                                      for d, (a, b) in zip(dims, p)]))]


def _mirror_pad_grad_kernel(ctx, grad, p):
    """Folds the mirrored border back onto the elements it copies: pad an array of flat indices the same
    way, then add each gradient element into the index it came from."""
    p = np.asarray(p, np.int64).reshape(-1, 2)
    in_shape = [int(d - a - b) for d, (a, b) in zip(grad.shape, p)]
    index = np.arange(int(np.prod(in_shape)), dtype=np.int64).reshape(in_shape)
    index = np.pad(index, p, mode="reflect" if ctx.attrs["mode"] == "REFLECT" else "symmetric")
    out = np.zeros(int(np.prod(in_shape)), dtype=grad.dtype)
    np.add.at(out, index.reshape(-1), grad.reshape(-1))
    return out.reshape(in_shape)


register_op(
    "MirrorPadGrad",
    inputs=["input: T", "paddings: Tpaddings=int32"],
    outputs=_mirror_pad_grad_outputs,
    kernel=_mirror_pad_grad_kernel,
    grad=lambda op, grad: [build_op("MirrorPad", [grad, op.inputs[1]], attrs={"mode": op._attrs["mode"]},
                                    name="MirrorPad").outputs[0], None],
    doc="Gradient of MirrorPad: the padded gradient folded back onto the input's shape.")


def pad(tensor, paddings, mode="CONSTANT", name=None, constant_values=0):
    """``tf.pad``: CONSTANT (Pad, or PadV2 for a nonzero value), REFLECT and SYMMETRIC (MirrorPad)."""
    mode = mode.upper()
    if mode == "CONSTANT":
        if not isinstance(constant_values, (int, float)) or constant_values != 0:
            tensor = convert_to_tensor(tensor)
            return build_op("PadV2", [tensor, paddings, constant_values], name=name)._outputs[0]
        return build_op("Pad", [tensor, paddings], name=name)._outputs[0]
    if mode in ("REFLECT", "SYMMETRIC"):
        return build_op("MirrorPad", [tensor, paddings], attrs={"mode": mode}, name=name)._outputs[0]
    raise ValueError("Unknown padding mode: %s" % mode)


# ------------------------------------------------------------------------------------------------ Fill
def _fill_outputs(op):
    dims_t, value = op._inputs
    if value._shape.ndims not in (None, 0):
        raise ValueError("Shape must be rank 0 but is rank %d" % value._shape.ndims)
    return [(_dtype_of(op, 1), _shape_of(_partial_shape(dims_t)))]


register_op(
    "Fill",
    inputs=["dims: index_type=int32", "value: T"],
    outputs=_fill_outputs,
    kernel=lambda ctx, dims, value: np.full([int(d) for d in dims], value, dtype=value.dtype),
    grad=lambda op, grad: [None, _math().reduce_sum(grad)],
    doc="A tensor of shape dims filled with one scalar value.")


def fill(dims, value, name=None):
    """``tf.fill``."""
    return build_op("Fill", [dims, value], name=name)._outputs[0]


def _filled(shape_, value, dtype, name, default):
    """zeros/ones as TF builds them: a Const when the shape is known in Python and holds fewer than 1000
    elements, else Fill(shape, value)."""
    from graphlab.framework.tensor import Tensor
    dtype = dtypes.as_dtype(dtype).base_dtype
    with _scope(name, default, []) as scope:
        if isinstance(shape_, tensor_shape.TensorShape):
            shape_ = shape_.as_list()
        if not isinstance(shape_, Tensor) and not (isinstance(shape_, (list, tuple))
                                                   and any(isinstance(d, Tensor) for d in shape_)):
            dims = [int(d) for d in np.reshape(np.asarray(shape_, dtype=np.int64), [-1])]
            # a bare int shape fails TF's small-constant path (tf.zeros(3) is a Fill, like big shapes)
            if int(np.prod(dims, dtype=np.int64)) < 1000 and not isinstance(shape_, (int, np.integer)):
                return constant(np.asarray(value, dtype=dtype.as_numpy_dtype), shape=dims, name=scope)
            # as TF: a Fill keeps big zeros/ones out of the GraphDef (and out of "large constant" warnings)
            shape_ = constant(np.array(dims, dtype=np.int32), name="shape_as_tensor")
        elif isinstance(shape_, (list, tuple)):
            shape_ = stack(shape_, name="packed")
        return fill(shape_, constant(np.asarray(value, dtype=dtype.as_numpy_dtype), name="Const"), name=scope)


def zeros(shape, dtype=dtypes.float32, name=None):  # noqa: F811
    """``tf.zeros``."""
    return _filled(shape, 0, dtype, name, "zeros")


def ones(shape, dtype=dtypes.float32, name=None):  # noqa: F811
    """``tf.ones``."""
    return _filled(shape, 1, dtype, name, "ones")


register_op(
    "OnesLike",
    inputs=["x: T"],
    outputs=same_as_input(0),
    kernel=lambda ctx, x: np.ones_like(x),
    grad=NOT_DIFFERENTIABLE,
    doc="Ones with the shape and dtype of x.")


def ones_like(tensor, dtype=None, name=None, optimize=True):
    """``tf.ones_like``: TF1 builds Fill(Shape(x), 1) under the scope "ones_like"."""
    with _scope(name, "ones_like", [tensor]) as scope:
        tensor = convert_to_tensor(tensor, name="tensor")
        dt = dtypes.as_dtype(dtype).base_dtype if dtype is not None else tensor.dtype.base_dtype
        if optimize and tensor.shape.is_fully_defined():   # TF 2.x: the shape as a constant, still a Fill
            with _scope(None, "Shape", [tensor]):
                dims = constant(np.array(tensor.shape.as_list(), np.int32), name="shape_as_tensor")
        else:
            dims = shape(tensor, optimize=False)
        out = fill(dims, constant(np.asarray(1, dt.as_numpy_dtype), name="Const"), name=scope)
        out.set_shape(tensor.shape)
        return out


# ----------------------------------------------------------------------------------------------- Range
def _range_outputs(op):
    start, limit, delta = (_known(t) for t in op._inputs)
    dt = _dtype_of(op)
    if start is None or limit is None or delta is None:
        return [(dt, tensor_shape.TensorShape([None]))]
    if delta == 0:
        raise ValueError("Requires delta != 0: %s" % delta)
    n = int(np.ceil((float(limit) - float(start)) / float(delta))) if dt.is_integer else \
        len(np.arange(start, limit, delta))
    return [(dt, tensor_shape.TensorShape([max(n, 0)]))]


register_op(
    "Range",
    inputs=["start: Tidx", "limit: Tidx", "delta: Tidx"],
    outputs=_range_outputs,
    kernel=lambda ctx, s, l, d: np.arange(s, l, d, dtype=ctx.attrs["Tidx"].as_numpy_dtype),
    grad=NOT_DIFFERENTIABLE,
    doc="The sequence start, start+delta, ... up to but excluding limit.")


def range(start, limit=None, delta=1, dtype=None, name="range"):  # noqa: A001
    """``tf.range``: ints give int32; floats anywhere promote the ints (named "range/Cast", as TF)."""
    if limit is None:
        start, limit = 0, start
    from graphlab.framework.tensor import Tensor
    with _scope(name, "range", [start, limit, delta]) as scope:
        vals = []
        for v, nm in ((start, "start"), (limit, "limit"), (delta, "delta")):
            vals.append(v if isinstance(v, Tensor) else convert_to_tensor(v, dtype=dtype, name=nm))
        order = [dtypes.int32, dtypes.int64, dtypes.float32, dtypes.float64]
        target = dtypes.as_dtype(dtype).base_dtype if dtype else max(
            (t.dtype.base_dtype for t in vals), key=lambda d: order.index(d) if d in order else 0)
        vals = [t if t.dtype.base_dtype == target else _math().cast(t, target) for t in vals]
        return build_op("Range", vals, name=scope)._outputs[0]


# ---------------------------------------------------------------------------------- Shape, Size, Rank
register_op(
    "Shape",
    inputs=["input: T"],
    outputs=lambda op: [(op._attrs["out_type"], tensor_shape.TensorShape([op._inputs[0]._shape.ndims]))],
    kernel=lambda ctx, x: np.array(np.shape(x), dtype=ctx.attrs["out_type"].as_numpy_dtype),
    grad=NOT_DIFFERENTIABLE,
    doc="The run-time shape of a tensor, as a 1-D tensor.")


def shape(input, name=None, out_type=dtypes.int32, optimize=True):  # noqa: A002
    """``tf.shape``: the dynamic shape (``x.shape`` is the static one, which may hold None). When the static
    shape is fully known TF builds a Const named "Shape" instead of a Shape op, and so does graphlab
    (``optimize=False`` always builds the op)."""
    out_type = dtypes.as_dtype(out_type)
    if getattr(input, "_is_resource_variable", False):     # TF reads it inside the scope: Shape/ReadVariableOp
        with _scope(name, "Shape", [input]) as scope:
            return shape(convert_to_tensor(input), scope, out_type, optimize)
    input = convert_to_tensor(input)
    if optimize and input.shape.is_fully_defined():
        return constant(np.array(input.shape.as_list(), dtype=out_type.as_numpy_dtype), name=name or "Shape")
    return build_op("Shape", [input], attrs={"out_type": out_type}, name=name)._outputs[0]


register_op(
    "ShapeN",
    inputs=["input: N*T"],
    outputs=lambda op: [(op._attrs["out_type"], tensor_shape.TensorShape([t._shape.ndims]))
                        for t in op._inputs],
    kernel=lambda ctx, *xs: tuple(np.array(np.shape(x), dtype=ctx.attrs["out_type"].as_numpy_dtype) for x in xs),
    grad=NOT_DIFFERENTIABLE,
    doc="The shapes of N tensors at once.")


def shape_n(input, out_type=dtypes.int32, name=None):  # noqa: A002
    return build_op("ShapeN", [list(input)], attrs={"out_type": dtypes.as_dtype(out_type)}, name=name).outputs


register_op(
    "Size",
    inputs=["input: T"],
    outputs=lambda op: [(op._attrs["out_type"], tensor_shape.TensorShape([]))],
    kernel=lambda ctx, x: np.array(np.size(x), dtype=ctx.attrs["out_type"].as_numpy_dtype),
    grad=NOT_DIFFERENTIABLE,
    doc="The number of elements of a tensor.")


def size(input, name=None, out_type=dtypes.int32, optimize=True):  # noqa: A002
    """``tf.size``: a Const named "Size" when the element count is known statically (as TF), else a Size
    op."""
    out_type = dtypes.as_dtype(out_type)
    if getattr(input, "_is_resource_variable", False):     # TF reads it inside the scope: Size/ReadVariableOp
        with _scope(name, "Size", [input]) as scope:
            return size(convert_to_tensor(input), scope, out_type, optimize)
    input = convert_to_tensor(input)
    static = input.shape
    if optimize and static.ndims is not None:
        if static.is_fully_defined() or 0 in static.as_list():
            count = static.num_elements() if static.is_fully_defined() else 0
            return constant(np.array(count, dtype=out_type.as_numpy_dtype), name=name or "Size")
    return build_op("Size", [input], attrs={"out_type": out_type}, name=name)._outputs[0]


register_op(
    "Rank",
    inputs=["input: T"],
    outputs=lambda op: [(dtypes.int32, tensor_shape.TensorShape([]))],
    kernel=lambda ctx, x: np.array(np.ndim(x), dtype=np.int32),
    grad=NOT_DIFFERENTIABLE,
    doc="The number of axes of a tensor.")


def rank(input, name=None):  # noqa: A002
    """``tf.rank``: a Const named "Rank" when the rank is known statically (as TF), else a Rank op. A value
    that is not a tensor yet becomes one inside the scope ("Rank/Const"), as in TF."""
    with _scope(name, "Rank", [input]) as scope:
        input = convert_to_tensor(input)
        if input.shape.ndims is not None:
            return constant(np.int32(input.shape.ndims), name=scope)
        return build_op("Rank", [input], name=scope)._outputs[0]


# ---------------------------------------------------------------------------------------------- OneHot
def _one_hot_outputs(op):
    indices, depth, on, off = op._inputs
    dims, d = _dims(indices), _known(depth)
    if dims is None:
        return [(_dtype_of(op, 2), tensor_shape.UNKNOWN)]
    axis = op._attrs["axis"]
    dims.insert(len(dims) if axis == -1 else axis, None if d is None else int(d))
    return [(_dtype_of(op, 2), tensor_shape.TensorShape(dims))]


def _one_hot_kernel(ctx, indices, depth, on, off):
    hot = indices[..., None] == np.arange(int(depth))
    out = np.where(hot, on, off).astype(on.dtype)
    axis = ctx.attrs["axis"]
    return out if axis == -1 else np.moveaxis(out, -1, axis)


register_op(
    "OneHot",
    inputs=["indices: TI=int32", "depth: int32", "on_value: T", "off_value: T"],
    outputs=_one_hot_outputs,
    kernel=_one_hot_kernel,
    grad=NOT_DIFFERENTIABLE,
    doc="on_value where the last axis equals the index, off_value elsewhere (out-of-range rows are all off).")


def one_hot(indices, depth, on_value=None, off_value=None, axis=None, dtype=None, name=None):
    """``tf.one_hot``: float32 1/0 unless told otherwise. As TF, given on/off values are converted unnamed
    ("Const", "Const_1") with dtype as a hint and set the dtype; the defaults are named on_value/off_value."""
    with _scope(name, "one_hot", [indices, depth, on_value, off_value]) as scope:
        dtype = dtypes.as_dtype(dtype).base_dtype if dtype is not None else None
        on = None if on_value is None else convert_to_tensor(on_value, dtype_hint=dtype)
        off = None if off_value is None else convert_to_tensor(off_value, dtype_hint=dtype)
        for given, what in ((on, "on_value"), (off, "off_value")):
            if given is not None and dtype is not None and given.dtype.base_dtype != dtype:
                raise TypeError("dtype <dtype: '%s'> of %s does not match dtype parameter <dtype: '%s'>" % (
                    given.dtype.base_dtype.name, what, dtype.name))
        if dtype is None:
            dtype = on.dtype.base_dtype if on is not None else off.dtype.base_dtype if off is not None else \
                dtypes.float32
        on = convert_to_tensor(1, dtype=dtype, name="on_value") if on is None else on
        off = convert_to_tensor(0, dtype=dtype, name="off_value") if off is None else off
        if on.dtype.base_dtype != off.dtype.base_dtype:
            raise TypeError("dtype <dtype: '%s'> of on_value does not match dtype <dtype: '%s'> of off_value" % (
                on.dtype.base_dtype.name, off.dtype.base_dtype.name))
        indices = convert_to_tensor(indices, name="indices")
        depth = convert_to_tensor(depth, dtype=dtypes.int32, name="depth")
        return build_op("OneHot", [indices, depth, on, off], attrs={"axis": -1 if axis is None else axis},
                        name=scope).outputs[0]


# ------------------------------------------------------------------------------------ Where and Select
register_op(
    "Where",
    inputs=["input: T=bool"],
    outputs=lambda op: [(dtypes.int64, tensor_shape.TensorShape([None, op._inputs[0]._shape.ndims]))],
    kernel=lambda ctx, x: np.argwhere(x).astype(np.int64),
    grad=NOT_DIFFERENTIABLE,
    doc="The coordinates of the true (nonzero) elements, one row each, as int64.")


def _select_outputs(op):
    c, x, y = op._inputs
    if not x._shape.is_compatible_with(y._shape):
        raise ValueError("Shapes %s and %s are incompatible" % (x._shape, y._shape))
    out = x._shape.merge_with(y._shape)
    if c._shape.ndims is not None and out.ndims is not None and c._shape.ndims not in (1, out.ndims) \
            and out.ndims:
        raise ValueError("Shape must be rank %d but is rank %d" % (out.ndims, c._shape.ndims))
    return [(_dtype_of(op, 1), out)]


def _select_kernel(ctx, c, x, y):
    if c.ndim == 1 and x.ndim > 1:
        c = c.reshape((-1,) + (1,) * (x.ndim - 1))
    return np.where(c, x, y)


def _select_grad(op, grad):
    c = op.inputs[0]
    z = zeros_like(op.inputs[1])
    return [None, where(c, grad, z), where(c, z, grad)]


register_op(
    "Select",
    inputs=["condition: bool", "t: T", "e: T"],
    outputs=_select_outputs,
    kernel=_select_kernel,
    grad=_select_grad,
    doc="Elementwise choice (condition may also pick whole rows when it is a vector).")


def _select_v2_grad(op, grad):
    """As TF: a scalar zero broadcast by SelectV2; each branch's gradient is summed back to its own shape
    from the output's (gradients.py does that for SelectV2)."""
    c = op.inputs[0]
    z = zeros([], dtype=grad.dtype.base_dtype)
    return [None, where_v2(c, grad, z), where_v2(c, z, grad)]


register_op(
    "SelectV2",
    inputs=["condition: bool", "t: T", "e: T"],
    outputs=lambda op: [(_dtype_of(op, 1), _broadcast3(op))],
    kernel=lambda ctx, c, x, y: np.where(c, x, y),
    grad=_select_v2_grad,
    doc="Elementwise choice with numpy broadcasting of all three inputs.")


def _broadcast3(op):
    c, x, y = (t._shape for t in op._inputs)
    return registry.broadcast_shape(registry.broadcast_shape(c, x), y)


def where(condition, x=None, y=None, name=None):
    """TF1 ``tf.where``: coordinates of true elements (Where, int64) or an elementwise choice (Select)."""
    if x is None and y is None:
        return build_op("Where", [condition], name=name)._outputs[0]
    if x is None or y is None:
        raise ValueError("x and y must both be non-None or both be None.")
    return build_op("Select", [condition, x, y], name=name)._outputs[0]


def where_v2(condition, x=None, y=None, name=None):
    """``tf.where_v2``: like where, but broadcasting (SelectV2)."""
    if x is None and y is None:
        return build_op("Where", [condition], name=name)._outputs[0]
    return build_op("SelectV2", [condition, x, y], name=name)._outputs[0]


# ---------------------------------------------------------------------------- clip, stop_gradient, ...
def clip_by_value(t, clip_value_min, clip_value_max, name=None):
    """``tf.clip_by_value``: Maximum(Minimum(t, max), min) under the scope "clip_by_value", as TF."""
    m = _math()
    from graphlab.framework.indexed_slices import IndexedSlices
    with _scope(name, "clip_by_value", [t, clip_value_min, clip_value_max]) as scope:
        values = convert_to_tensor(t.values if isinstance(t, IndexedSlices) else t, name="t")
        low = m.minimum(values, clip_value_max)
        clipped = m.maximum(low, clip_value_min, name=scope)
        # an IndexedSlices is clipped by its rows and stays sparse, as in TF
        return IndexedSlices(clipped, t.indices, t.dense_shape) if isinstance(t, IndexedSlices) else clipped


register_op(
    "StopGradient",
    inputs=["input: T"],
    outputs=same_as_input(0),
    kernel=lambda ctx, x: x,
    grad=NOT_DIFFERENTIABLE,
    doc="Passes its input through but blocks gradients: the value is treated as a constant.")


def stop_gradient(input, name=None):  # noqa: A002
    """``tf.stop_gradient``."""
    return build_op("StopGradient", [input], name=name)._outputs[0]


def _reverse_outputs(op):
    x, axis = op._inputs
    dims, a = _dims(x), _known(axis)
    if dims is not None and a is not None:
        for v in np.reshape(a, [-1]):
            _axis_attr(int(v), len(dims))
    return [(_dtype_of(op), x._shape)]


register_op(
    "ReverseV2",
    inputs=["tensor: T", "axis: Tidx=int32"],
    outputs=_reverse_outputs,
    kernel=lambda ctx, x, axis: np.flip(x, tuple(int(a) for a in np.reshape(axis, [-1]))).copy(),
    grad=lambda op, grad: [reverse(grad, op.inputs[1]), None],
    doc="Reverses the order of elements along the given axes.")


def reverse(tensor, axis, name=None):
    """``tf.reverse`` (ReverseV2)."""
    return build_op("ReverseV2", [tensor, axis], name=name)._outputs[0]


def _reverse_sequence_outputs(op):
    x, lengths = op._inputs
    seq_dim, batch_dim = op._attrs["seq_dim"], op._attrs["batch_dim"]
    if lengths._shape.ndims not in (None, 1):
        raise ValueError("Shape must be rank 1 but is rank %d" % lengths._shape.ndims)
    dims = _dims(x)
    if dims is not None:
        if seq_dim >= len(dims):
            raise ValueError("seq_dim must be < input rank: %d vs. %d" % (seq_dim, len(dims)))
        if batch_dim >= len(dims):
            raise ValueError("batch_dim must be < input rank: %d vs. %d" % (batch_dim, len(dims)))
        n = lengths._shape.as_list()[0] if lengths._shape.ndims == 1 else None
        if n is not None and dims[batch_dim] is not None and n != dims[batch_dim]:
            raise ValueError("Dimensions must be equal, but are %d and %d" % (dims[batch_dim], n))
    return [(_dtype_of(op), x._shape)]


def _reverse_sequence_kernel(ctx, x, lengths):
    seq_dim, batch_dim = ctx.attrs["seq_dim"], ctx.attrs["batch_dim"]
    if seq_dim == batch_dim:
        raise InvalidArgumentError(None, ctx.op, "batch_dim == seq_dim == %d" % seq_dim)
    if lengths.shape[0] != x.shape[batch_dim]:
        raise InvalidArgumentError(None, ctx.op, "Length of seq_lengths != input.dims(%d), (%d vs. %d)" % (
            batch_dim, lengths.shape[0], x.shape[batch_dim]))
    out = x.copy()
    for b, n in enumerate(lengths):
        if n < 0:
            raise InvalidArgumentError(None, ctx.op, "seq_lens(%d) < 0" % b)
        if n > x.shape[seq_dim]:
            raise InvalidArgumentError(None, ctx.op, "seq_lens(%d) > input.dims(%d)" % (b, seq_dim))
        row = [builtins.slice(None)] * x.ndim
        row[batch_dim], row[seq_dim] = b, builtins.slice(0, int(n))
        out[tuple(row)] = np.flip(x[tuple(row)], seq_dim - (seq_dim > batch_dim))
    return out


register_op(
    "ReverseSequence",
    inputs=["input: T", "seq_lengths: Tlen=int32"],     # as TF 2.21: a Python list of lengths becomes int32
    outputs=_reverse_sequence_outputs,
    kernel=_reverse_sequence_kernel,
    grad=lambda op, grad: [reverse_sequence(grad, op.inputs[1], op.get_attr("seq_dim"),
                                            op.get_attr("batch_dim")), None],
    doc="Reverses the first seq_lengths[b] entries along seq_dim of each slice b along batch_dim (the rest "
        "stays in place): how a backward RNN reads sequences of different lengths.")


def reverse_sequence(input, seq_lengths, seq_axis=None, batch_axis=None, name=None,  # noqa: A002
                     seq_dim=None, batch_dim=None):
    """``tf.reverse_sequence`` (TF1 also takes ``seq_dim``/``batch_dim``; batch axis defaults to 0)."""
    seq_axis = seq_axis if seq_axis is not None else seq_dim
    batch_axis = batch_axis if batch_axis is not None else (batch_dim if batch_dim is not None else 0)
    return build_op("ReverseSequence", [input, seq_lengths],
                    attrs={"seq_dim": int(seq_axis), "batch_dim": int(batch_axis)}, name=name).outputs[0]


def boolean_mask(tensor, mask, name="boolean_mask", axis=None):
    """``tf.boolean_mask``: flatten the masked axes, find the true positions (Where), gather them."""
    with _scope(name, "boolean_mask", [tensor, mask]):
        tensor = convert_to_tensor(tensor, name="tensor")
        mask = convert_to_tensor(mask, name="mask")
        k = mask.shape.ndims
        if k is None:
            raise ValueError("Number of mask dimensions must be specified, even if some dimensions are None.  "
                             "E.g. shape=[None] is ok, but shape=None is not.")
        axis = 0 if axis is None else axis
        if tensor.shape.ndims is not None and not tensor.shape[axis:axis + k].is_compatible_with(mask.shape):
            raise ValueError("Shapes %s and %s are incompatible" % (tensor.shape[axis:axis + k], mask.shape))
        # three Shape ops (Shape, Shape_1, Shape_2) and the size as a list entry (concat/values_1), as TF
        lead = _math().reduce_prod(shape(tensor)[axis:axis + k], [0])
        flat = reshape(tensor, concat([shape(tensor)[:axis], [lead], shape(tensor)[axis + k:]], 0))
        flat_mask = reshape(mask, [-1])
        return gather(flat, squeeze(where(flat_mask), axis=[1]), axis=axis)


install_getitem()
registry.register_array_hooks(autopack, _partial_shape)   # tf.convert_to_tensor([t1, t2]) packs; shape errors

__all__ = ["constant", "placeholder", "placeholder_with_default", "identity", "stack", "unstack", "zeros_like",
           "reshape", "transpose", "invert_permutation", "expand_dims", "squeeze", "concat", "split", "slice",
           "strided_slice", "gather", "unsorted_segment_sum", "tile", "pad", "fill", "zeros", "ones",
           "ones_like", "range", "shape", "shape_n", "size", "rank", "one_hot", "where", "where_v2",
           "clip_by_value", "stop_gradient", "reverse", "boolean_mask", "setdiff1d"]
