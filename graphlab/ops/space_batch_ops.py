"""Moving spatial blocks into the batch or depth axis and back: SpaceToBatchND / BatchToSpaceND (what TF's
dilated convolutions and pools are built on), SpaceToDepth / DepthToSpace, and the Python helpers TF
builds around them (``tf.space_to_batch``, ``tf.batch_to_space``, ``tf.required_space_to_batch_paddings``).

Each pair of ops are each other's gradient, as in TF. Kernels are one reshape, one transpose and one
reshape in numpy.
"""
import numpy as np

from graphlab.framework import dtypes, tensor_shape
from graphlab.framework import graph as graph_mod
from graphlab.formats.errors import InvalidArgumentError
from graphlab.ops import array_ops
from graphlab.framework.registry import ShapeError, build_op, const_value, convert_to_tensor, register_op


def _ints(tensor):
    value = const_value(tensor)
    return None if value is None else np.asarray(value).astype(np.int64)


# ----------------------------------------------------------------------------- SpaceToBatchND / BatchToSpaceND
def _block_geometry(op, pads_name):
    """Static checks shared by both ops: (input dims or None, block list or None, pads (M, 2) or None)."""
    x, block_t, pads_t = op._inputs
    if block_t._shape.ndims is not None and block_t._shape.ndims != 1:
        raise ValueError("block_shape must have rank 1.")
    if pads_t._shape.ndims is not None and pads_t._shape.ndims != 2:
        raise ValueError("%s must have rank 2." % pads_name)
    m = block_t._shape.as_list()[0] if block_t._shape.ndims == 1 else None
    dims = x._shape.as_list() if x._shape.ndims is not None else None
    if m is not None and dims is not None and len(dims) < m + 1:
        raise ValueError("Shape must be at least rank %d but is rank %d" % (m + 1, len(dims)))
    block, pads = _ints(block_t), _ints(pads_t)
    if block is not None and np.any(block < 1):
        raise ShapeError("block_shape must be positive", (1, 2))
    if pads is not None and np.any(pads < 0):
        raise ShapeError("%s cannot be negative" % pads_name, (1, 2))
    return dims, block, pads


def _s2b_outputs(op):
    dims, block, pads = _block_geometry(op, "paddings")
    dtype = op._inputs[0]._dtype.base_dtype
    if dims is None:
        return [(dtype, tensor_shape.UNKNOWN)]
    if block is None or pads is None:
        return [(dtype, tensor_shape.TensorShape([None] * len(dims)))]
    m = len(block)
    out = [None if dims[0] is None else dims[0] * int(np.prod(block))]
    for i in range(m):
        size = dims[i + 1]
        if size is None:
            out.append(None)
            continue
        padded = size + int(pads[i].sum())
        if padded % block[i]:
            raise ShapeError("Dimension size must be evenly divisible by %d but is %d" % (block[i], padded), (1, 2))
        out.append(padded // int(block[i]))
    return [(dtype, tensor_shape.TensorShape(out + dims[m + 1:]))]


def _s2b_kernel(ctx, x, block, pads):
    block = [int(b) for b in np.reshape(block, [-1])]
    m = len(block)
    pads = np.asarray(pads).reshape(m, 2)
    if x.ndim < m + 1:
        raise InvalidArgumentError(None, ctx.op, "input rank should be >= %d instead of %d" % (m + 1, x.ndim))
    if min(block, default=1) < 1:
        raise InvalidArgumentError(None, ctx.op, "block_shape must be positive")
    if np.any(pads < 0):
        raise InvalidArgumentError(None, ctx.op, "paddings cannot be negative")
    padded = np.pad(x, [(0, 0)] + [tuple(int(v) for v in p) for p in pads] + [(0, 0)] * (x.ndim - 1 - m))
    split = [padded.shape[0]]
    for i, b in enumerate(block):
        if padded.shape[i + 1] % b:
            raise InvalidArgumentError(None, ctx.op, "padded_shape[%d]=%d is not divisible by block_shape[%d]=%d"
                                       % (i, padded.shape[i + 1], i, b))
        split += [padded.shape[i + 1] // b, b]
    rest = list(padded.shape[m + 1:])
    blocks = padded.reshape(split + rest)
    # (batch, o1, b1, o2, b2, ..., rest) -> (b1, b2, ..., batch, o1, o2, ..., rest)
    perm = [2 + 2 * i for i in range(m)] + [0] + [1 + 2 * i for i in range(m)] + \
        list(range(1 + 2 * m, 1 + 2 * m + len(rest)))
    out_shape = [padded.shape[0] * int(np.prod(block))] + [split[1 + 2 * i] for i in range(m)] + rest
    return blocks.transpose(perm).reshape(out_shape)


register_op(
    "SpaceToBatchND",
    inputs=["input: T", "block_shape: Tblock_shape=int32", "paddings: Tpaddings=int32"],
    outputs=_s2b_outputs,
    kernel=_s2b_kernel,
    grad=lambda op, grad: [batch_to_space_nd(grad, op.inputs[1], op.inputs[2]), None, None],
    doc="Pads the spatial axes, then moves each block offset into the batch axis (block offsets major).")


def _b2s_outputs(op):
    dims, block, crops = _block_geometry(op, "crops")
    dtype = op._inputs[0]._dtype.base_dtype
    if dims is None:
        return [(dtype, tensor_shape.UNKNOWN)]
    if block is None or crops is None:
        return [(dtype, tensor_shape.TensorShape([None] * len(dims)))]
    m, batch = len(block), dims[0]
    for b in block:   # TF divides the batch by one block size after another
        if batch is not None and batch % int(b):
            raise ShapeError("Dimension size must be evenly divisible by %d but is %d" % (b, batch), (1, 2))
        batch = None if batch is None else batch // int(b)
    out = [batch]
    for i in range(m):
        size = dims[i + 1]
        if size is None:
            out.append(None)
            continue
        cropped = size * int(block[i]) - int(crops[i].sum())
        if cropped < 0:
            raise ShapeError("Negative dimension size caused by subtracting %d from %d"
                             % (int(crops[i].sum()), size * int(block[i])), (1, 2))
        out.append(cropped)
    return [(dtype, tensor_shape.TensorShape(out + dims[m + 1:]))]


def _b2s_kernel(ctx, x, block, crops):
    block = [int(b) for b in np.reshape(block, [-1])]
    m = len(block)
    crops = np.asarray(crops).reshape(m, 2)
    count = int(np.prod(block))
    if x.ndim < m + 1:
        raise InvalidArgumentError(None, ctx.op, "input rank should be >= %d instead of %d" % (m + 1, x.ndim))
    if min(block, default=1) < 1:
        raise InvalidArgumentError(None, ctx.op, "block_shape must be positive")
    if np.any(crops < 0):
        raise InvalidArgumentError(None, ctx.op, "Crops must be non-negative")
    if x.shape[0] % count:
        raise InvalidArgumentError(None, ctx.op, "Input batch dimension (%d) is not divisible by product of "
                                   "block sizes (%d)" % (x.shape[0], count))
    batch, spatial, rest = x.shape[0] // count, list(x.shape[1:m + 1]), list(x.shape[m + 1:])
    blocks = x.reshape(block + [batch] + spatial + rest)
    # (b1, ..., bm, batch, s1, ..., sm, rest) -> (batch, s1, b1, s2, b2, ..., rest)
    perm = [m]
    for i in range(m):
        perm += [m + 1 + i, i]
    perm += list(range(2 * m + 1, 2 * m + 1 + len(rest)))
    full = blocks.transpose(perm).reshape([batch] + [s * b for s, b in zip(spatial, block)] + rest)
    index = [slice(None)]
    for i in range(m):
        size = full.shape[i + 1]
        if crops[i].sum() > size:
            raise InvalidArgumentError(None, ctx.op, "Crops must be non-negative and not exceed the size: "
                                       "crop_start[%d]=%d, crop_end[%d]=%d, size %d"
                                       % (i, crops[i][0], i, crops[i][1], size))
        index.append(slice(int(crops[i][0]), size - int(crops[i][1])))
    return np.ascontiguousarray(full[tuple(index)])


register_op(
    "BatchToSpaceND",
    inputs=["input: T", "block_shape: Tblock_shape=int32", "crops: Tcrops=int32"],
    outputs=_b2s_outputs,
    kernel=_b2s_kernel,
    grad=lambda op, grad: [space_to_batch_nd(grad, op.inputs[1], op.inputs[2]), None, None],
    doc="The inverse of SpaceToBatchND: interleaves batch blocks back into space, then crops.")


def space_to_batch_nd(input, block_shape, paddings, name=None):  # noqa: A002
    """``tf.space_to_batch_nd`` (and ``tf.compat.v2.space_to_batch``)."""
    return build_op("SpaceToBatchND", [input, block_shape, paddings], name=name).outputs[0]


def batch_to_space_nd(input, block_shape, crops, name=None):  # noqa: A002
    """``tf.batch_to_space_nd``."""
    return build_op("BatchToSpaceND", [input, block_shape, crops], name=name).outputs[0]


def _as_rank_4(result):
    if result.shape.ndims is not None and result.shape.ndims != 4:
        raise ValueError("Shape must be rank 4 but is rank %d" % result.shape.ndims)
    if result.shape.ndims is None:
        result.set_shape([None] * 4)
    return result


def space_to_batch(input, paddings, block_size=None, name=None, block_shape=None):  # noqa: A002
    """TF1's ``tf.space_to_batch`` / ``tf.nn.space_to_batch``: SpaceToBatchND with a square int64 block."""
    size = block_shape if block_size is None else block_size
    return _as_rank_4(space_to_batch_nd(input, np.array([size, size], np.int64), paddings, name=name))


def batch_to_space(input, crops, block_size, name=None, block_shape=None):  # noqa: A002
    """TF1's ``tf.batch_to_space``: BatchToSpaceND with a square int64 block."""
    size = block_shape if block_size is None else block_size
    return _as_rank_4(batch_to_space_nd(input, np.array([size, size], np.int64), crops, name=name))


def required_space_to_batch_paddings(input_shape, block_shape, base_paddings=None, name=None):
    """``tf.required_space_to_batch_paddings``: (paddings, crops) making each padded spatial size a multiple
    of its block. Computed in numpy (two Consts "paddings" and "crops") when every input is known at build
    time, with graph ops otherwise, as TF does."""
    with graph_mod.name_scope(name, "required_space_to_batch_paddings", [input_shape, block_shape]):
        input_shape = convert_to_tensor(input_shape, dtype=dtypes.int32, name="input_shape")
        block_shape = convert_to_tensor(block_shape, dtype=dtypes.int32, name="block_shape")
        if not block_shape.shape.is_fully_defined() or block_shape.shape.ndims != 1:
            raise ValueError("block_shape must be a 1-D tensor of known length, got shape %s" % block_shape.shape)
        m = block_shape.shape.as_list()[0]
        if m == 0:
            return array_ops.zeros([0, 2], dtypes.int32), array_ops.zeros([0, 2], dtypes.int32)
        if base_paddings is not None:
            base_paddings = convert_to_tensor(base_paddings, dtype=dtypes.int32, name="base_paddings")
        else:
            base_paddings = array_ops.zeros([m, 2], dtypes.int32)
        known = [const_value(t) for t in (block_shape, input_shape, base_paddings)]
        if all(v is not None for v in known):
            block_shape, input_shape, base_paddings = (np.asarray(v) for v in known)
        pad_start = base_paddings[:, 0]
        orig_pad_end = base_paddings[:, 1]
        full_input_shape = input_shape + pad_start + orig_pad_end
        pad_end_extra = (block_shape - full_input_shape % block_shape) % block_shape
        pad_end = orig_pad_end + pad_end_extra
        paddings = array_ops.stack([[pad_start[i], pad_end[i]] for i in range(m)], name="paddings")
        crops = array_ops.stack([[0, pad_end_extra[i]] for i in range(m)], name="crops")
        return paddings, crops


# ------------------------------------------------------------------------------ SpaceToDepth / DepthToSpace
def _nhwc_only(op):
    fmt = op._attrs.get("data_format", "NHWC")
    if fmt != "NHWC":
        raise ValueError("only data_format='NHWC' is supported (got %r): transpose to NHWC first" % fmt)
    if op._attrs["block_size"] < 2:
        raise ValueError("Block size must be greater than 1 but is %d" % op._attrs["block_size"])


def _times(d, k):
    return None if d is None else d * k


def _over(d, k):
    return None if d is None else d // k


def _depth_outputs(to_depth):
    """SpaceToDepth (to_depth): [n, h, w, c] -> [n, h/b, w/b, c*b*b]; DepthToSpace the reverse."""
    def outputs(op):
        _nhwc_only(op)
        x, b = op._inputs[0], op._attrs["block_size"]
        if x._shape.ndims is None:
            return [(x._dtype.base_dtype, tensor_shape.unknown_shape(4))]
        if x._shape.ndims != 4:
            raise ValueError("Shape must be rank 4 but is rank %d" % x._shape.ndims)
        n, h, w, c = x._shape.as_list()
        divided, factor = ((h, w), b) if to_depth else ((c,), b * b)
        for size in divided:
            if size is not None and size % factor:
                raise ValueError("Dimension size must be evenly divisible by %d but is %d" % (factor, size))
        if to_depth:
            out = [n, _over(h, b), _over(w, b), _times(c, b * b)]
        else:
            out = [n, _times(h, b), _times(w, b), _over(c, b * b)]
        return [(x._dtype.base_dtype, tensor_shape.TensorShape(out))]
    return outputs


def _s2d_kernel(ctx, x):
    b = ctx.attrs["block_size"]
    if x.ndim != 4:
        raise InvalidArgumentError(None, ctx.op, "Input rank should be: 4 instead of: %d" % x.ndim)
    n, h, w, c = x.shape
    if h % b or w % b:
        raise InvalidArgumentError(None, ctx.op, "Image width %d and height %d should be divisible by "
                                   "block_size: %d" % (w, h, b))
    return x.reshape(n, h // b, b, w // b, b, c).transpose(0, 1, 3, 2, 4, 5).reshape(n, h // b, w // b, b * b * c)


def _d2s_kernel(ctx, x):
    b = ctx.attrs["block_size"]
    if x.ndim != 4:
        raise InvalidArgumentError(None, ctx.op, "Input rank should be: 4 instead of: %d" % x.ndim)
    n, h, w, c = x.shape
    if c % (b * b):
        raise InvalidArgumentError(None, ctx.op, "Input depth dimension %d should be divisible by: %d"
                                   % (c, b * b))
    return x.reshape(n, h, w, b, b, c // (b * b)).transpose(0, 1, 3, 2, 4, 5).reshape(n, h * b, w * b, c // (b * b))


register_op(
    "SpaceToDepth",
    inputs=["input: T"],
    outputs=_depth_outputs(True),
    kernel=_s2d_kernel,
    grad=lambda op, grad: [depth_to_space(grad, op._attrs["block_size"], data_format=op._attrs["data_format"])],
    doc="Moves each block_size x block_size spatial block into the depth axis.")
register_op(
    "DepthToSpace",
    inputs=["input: T"],
    outputs=_depth_outputs(False),
    kernel=_d2s_kernel,
    grad=lambda op, grad: [space_to_depth(grad, op._attrs["block_size"], data_format=op._attrs["data_format"])],
    doc="The inverse of SpaceToDepth: spreads depth back into block_size x block_size spatial blocks.")


def space_to_depth(input, block_size, name=None, data_format="NHWC"):  # noqa: A002
    """``tf.space_to_depth`` / ``tf.nn.space_to_depth``."""
    return build_op("SpaceToDepth", [input], attrs={"block_size": int(block_size), "data_format": data_format},
                    name=name).outputs[0]


def depth_to_space(input, block_size, name=None, data_format="NHWC"):  # noqa: A002
    """``tf.depth_to_space`` / ``tf.nn.depth_to_space``."""
    return build_op("DepthToSpace", [input], attrs={"block_size": int(block_size), "data_format": data_format},
                    name=name).outputs[0]


__all__ = ["space_to_batch_nd", "batch_to_space_nd", "space_to_batch", "batch_to_space",
           "required_space_to_batch_paddings", "space_to_depth", "depth_to_space"]
