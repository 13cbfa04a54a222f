"""Checkpoint ops: SaveV2 writes tensors to a V2 checkpoint (tensor bundle), RestoreV2 reads them back.

They are ordinary graph ops, as in TF, so a Saver's save and restore are runs of ``save/control_dependency``
and ``save/restore_all``, and TensorFlow finds the same ops in a graph or meta graph graphlab wrote.
"""
import os

import numpy as np

from graphlab.framework import dtypes, tensor_shape
from graphlab.formats.errors import InvalidArgumentError, NotFoundError, OpError
from graphlab.framework.registry import NOT_DIFFERENTIABLE, build_op, no_outputs, register_op


def _text(value):
    value = np.asarray(value, dtype=object).reshape(-1)
    return [v.decode("utf-8", "surrogateescape") if isinstance(v, bytes) else str(v) for v in value]


def _reraise_at(ctx, err):
    """File-layer errors carry no op; give them this op so str() points at the user's line."""
    return type(err)(None, ctx.op, err.message)


def _check_slices(ctx, slices):
    if any(s for s in _text(slices)):
        raise InvalidArgumentError(None, ctx.op, "graphlab does not support saving or restoring slices of "
                                   "tensors (partitioned variables); shape_and_slices must be empty strings")


# ------------------------------------------------------------------------------------------------ SaveV2
def _save_kernel(ctx, prefix, tensor_names, shape_and_slices, *tensors):
    from graphlab.formats import tensor_bundle
    names = _text(tensor_names)
    if len(names) != len(tensors):
        raise InvalidArgumentError(None, ctx.op, "Expected %d tensors to save, got %d (tensor_names has %d "
                                   "entries)" % (len(names), len(tensors), len(names)))
    _check_slices(ctx, shape_and_slices)
    path = _text(prefix)[0]
    try:
        tensor_bundle.write_bundle(path, dict(zip(names, tensors)))
    except OpError as e:
        raise _reraise_at(ctx, e) from None
    except FileNotFoundError:   # TF's words: the directory that could not be created or written
        raise NotFoundError(None, ctx.op, "%s; No such file or directory"
                            % (os.path.dirname(path) or ".")) from None
    except OSError as e:
        raise NotFoundError(None, ctx.op, "Failed to write checkpoint %s: %s" % (path, e)) from None


register_op(
    "SaveV2",
    inputs=["prefix: string", "tensor_names: string", "shape_and_slices: string", "tensors: list"],
    outputs=no_outputs,
    kernel=_save_kernel,
    grad=NOT_DIFFERENTIABLE,
    stateful=True,
    doc="Writes the tensors under tensor_names to the V2 checkpoint PREFIX.index/.data-00000-of-00001.")


def save_v2(prefix, tensor_names, shape_and_slices, tensors, name=None):
    tensors = list(tensors)
    attrs = {"dtypes": [t.dtype.base_dtype for t in tensors]}
    return build_op("SaveV2", [prefix, tensor_names, shape_and_slices, tensors], attrs=attrs, name=name,
                    default_name="SaveV2")


# --------------------------------------------------------------------------------------------- RestoreV2
def _restore_outputs(op):
    return [(dt, tensor_shape.UNKNOWN) for dt in op._attrs["dtypes"]]


def _restore_kernel(ctx, prefix, tensor_names, shape_and_slices):
    from graphlab.formats import tensor_bundle
    from graphlab.ops import state_ops
    names = _text(tensor_names)
    wanted = ctx.attrs["dtypes"]
    if len(names) != len(wanted):
        raise InvalidArgumentError(None, ctx.op, "RestoreV2 has %d tensor names but %d dtypes"
                                   % (len(names), len(wanted)))
    _check_slices(ctx, shape_and_slices)
    path = _text(prefix)[0]
    if not os.path.exists(tensor_bundle.index_path(path)):
        raise NotFoundError(None, ctx.op, "Unsuccessful TensorSliceReader constructor: Failed to find any "
                            "matching files for %s" % path)
    out = []
    try:
        reader = tensor_bundle.BundleReader(path)
        for name, dt in zip(names, wanted):
            stored = reader.dtype_enum(name)
            if stored != dt.base_dtype.as_datatype_enum:
                raise InvalidArgumentError(None, ctx.op, "tensor_name = %s; expected dtype %s does not equal "
                                           "original dtype %s" % (name, dt.base_dtype.name,
                                                                  dtypes.as_dtype(stored).name))
            out.append(state_ops.hand_over(reader.read(name)))
    except OpError as e:
        raise _reraise_at(ctx, e) if e.op is None else e from None
    return tuple(out) if len(out) != 1 else out[0]


register_op(
    "RestoreV2",
    inputs=["prefix: string", "tensor_names: string", "shape_and_slices: string"],
    outputs=_restore_outputs,
    kernel=_restore_kernel,
    grad=NOT_DIFFERENTIABLE,
    stateful=True,
    doc="Reads the tensors under tensor_names from the V2 checkpoint at prefix.")


def restore_v2(prefix, tensor_names, shape_and_slices, dtypes_list, name=None):
    op = build_op("RestoreV2", [prefix, tensor_names, shape_and_slices],
                  attrs={"dtypes": [dtypes.as_dtype(d).base_dtype for d in dtypes_list]}, name=name,
                  default_name="RestoreV2")
    return op.outputs


# --- the string ops TF's sharded Saver (SavedModel builders use sharded=True) puts in front of SaveV2 ---
# The filename becomes "<prefix>_temp/part-00000-of-00001" (StaticRegexFullMatch tests for s3://, Select
# picks the suffix, StringJoin and ShardedFilename build it) and MergeV2Checkpoints moves it into place.

def _string_scalar(x):
    return np.asarray(x, dtype=object)


def _regex_kernel(ctx, value):
    """RE2, as TF: matching takes time linear in the input whatever the pattern (Python's backtracking
    ``re`` takes exponential time on patterns such as ``(a+)+b``, which a loaded graph may hold)."""
    import re2
    options = re2.Options()
    options.log_errors = False
    try:
        pattern = re2.compile(ctx.attrs["pattern"], options)
    except re2.error as e:
        raise InvalidArgumentError(None, ctx.op, "Invalid pattern: %s, error: %s" % (
            ctx.attrs["pattern"], e.args[0].decode() if e.args and isinstance(e.args[0], bytes) else e)) from None
    flat = [bool(pattern.fullmatch(v)) for v in _text(value)]
    return np.array(flat, dtype=bool).reshape(np.shape(value))


register_op(
    "StaticRegexFullMatch",
    inputs=["input: string"],
    outputs=lambda op: [(dtypes.bool, op._inputs[0]._shape)],
    kernel=_regex_kernel,
    grad=NOT_DIFFERENTIABLE,
    doc="True where the whole string matches the regex attr `pattern` (RE2 syntax, as TF).")


def static_regex_full_match(input, pattern, name=None):  # noqa: A002  (TF's argument name)
    return build_op("StaticRegexFullMatch", [input], attrs={"pattern": pattern}, name=name).outputs[0]


def _string_join_kernel(ctx, *values):
    sep = ctx.attrs.get("separator", "")
    arrays = [np.asarray(v, dtype=object) for v in values]
    shape = np.broadcast_shapes(*[a.shape for a in arrays]) if arrays else ()
    out = np.empty(shape, dtype=object)
    for idx in np.ndindex(*shape) if shape else [()]:
        parts = []
        for a in arrays:
            v = a[tuple(i if a.shape and a.shape[k] != 1 else 0 for k, i in enumerate(idx[len(idx) - a.ndim:]))] \
                if a.ndim else a[()]
            parts.append(v.decode("utf-8", "surrogateescape") if isinstance(v, bytes) else str(v))
        out[idx] = sep.join(parts).encode("utf-8", "surrogateescape")
    return out


def _string_join_outputs(op):
    from graphlab.framework.registry import broadcast_shape
    shape = tensor_shape.TensorShape([])
    for t in op._inputs:
        shape = broadcast_shape(shape, t._shape)
    return [(dtypes.string, shape)]


register_op(
    "StringJoin",
    inputs=["inputs: N*string"],
    outputs=_string_join_outputs,
    kernel=_string_join_kernel,
    grad=NOT_DIFFERENTIABLE,
    doc="Joins strings elementwise with the `separator` attr.")


def string_join(inputs, separator="", name=None):
    inputs = list(inputs)
    return build_op("StringJoin", [inputs], attrs={"separator": separator}, name=name).outputs[0]


def _sharded_filename_kernel(ctx, basename, shard, num_shards):
    name = "%s-%05d-of-%05d" % (_text(basename)[0], int(shard), int(num_shards))
    return _string_scalar(name.encode("utf-8", "surrogateescape"))


register_op(
    "ShardedFilename",
    inputs=["basename: string", "shard: int32", "num_shards: int32"],
    outputs=lambda op: [(dtypes.string, tensor_shape.TensorShape([]))],
    kernel=_sharded_filename_kernel,
    grad=NOT_DIFFERENTIABLE,
    doc="The name of one shard of a checkpoint: BASENAME-00000-of-00001.")


def sharded_filename(basename, shard, num_shards, name=None):
    return build_op("ShardedFilename", [basename, shard, num_shards], name=name).outputs[0]


def _merge_kernel(ctx, checkpoint_prefixes, destination_prefix):
    from graphlab.formats import tensor_bundle
    sources = _text(checkpoint_prefixes)
    dest = _text(destination_prefix)[0]
    merged = {}
    try:
        for src in sources:
            reader = tensor_bundle.BundleReader(src)
            for name in reader.keys():
                merged[name] = reader.read(name)
        tensor_bundle.write_bundle(dest, merged)
    except OpError as e:
        raise _reraise_at(ctx, e) if e.op is None else e from None
    for src in sources:
        if os.path.abspath(src) == os.path.abspath(dest):
            continue
        for f in (tensor_bundle.index_path(src), tensor_bundle.data_path(src)):
            try:
                os.remove(f)
            except OSError:
                pass
        if ctx.attrs.get("delete_old_dirs", True):
            try:
                os.rmdir(os.path.dirname(src))
            except OSError:
                pass


register_op(
    "MergeV2Checkpoints",
    inputs=["checkpoint_prefixes: string", "destination_prefix: string"],
    outputs=no_outputs,
    kernel=_merge_kernel,
    grad=NOT_DIFFERENTIABLE,
    stateful=True,
    doc="Merges the shards written by sharded SaveV2 ops into one checkpoint at destination_prefix.")


def merge_v2_checkpoints(checkpoint_prefixes, destination_prefix, delete_old_dirs=True, allow_missing_files=False,
                         name=None):
    return build_op("MergeV2Checkpoints", [checkpoint_prefixes, destination_prefix],
                    attrs={"delete_old_dirs": delete_old_dirs, "allow_missing_files": allow_missing_files},
                    name=name)
