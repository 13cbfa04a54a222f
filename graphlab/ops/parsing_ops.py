"""Parsing records: ``decode_raw``, ``decode_csv``, and ``parse_example`` / ``parse_single_example`` of
``tf.train.Example`` protos with ``FixedLenFeature`` and ``VarLenFeature`` (graph as TF 2.21 builds it: one
ParseExampleV2 op, keys sorted, dense defaults reshaped to their feature's shape).

A VarLenFeature comes back as a ``SparseTensor`` (indices, values, dense_shape), as in TF.
"""
import collections
import csv
import io

import numpy as np

from graphlab.formats.protos import example_pb2
from graphlab.framework import dtypes, graph as graph_mod, tensor_shape
from graphlab.formats.errors import InvalidArgumentError
from graphlab.ops import array_ops
from graphlab.framework.registry import NOT_DIFFERENTIABLE, build_op, constant, register_op


class SparseTensor(collections.namedtuple("SparseTensor", ["indices", "values", "dense_shape"])):
    """``tf.SparseTensor``: the non-zero ``values`` at ``indices`` of a tensor of shape ``dense_shape``
    (Python values become constants under ``SparseTensor/``, as in TF)."""

    def __new__(cls, indices, values, dense_shape):
        from graphlab.framework import graph as graph_mod
        from graphlab.framework.tensor import Tensor
        from graphlab.framework.registry import convert_to_tensor
        parts = (indices, values, dense_shape)
        # numpy parts are a fetched value (Session.run packs results into the fetch's type): kept as they are
        if not all(isinstance(x, Tensor) for x in parts) and not all(isinstance(x, np.ndarray) for x in parts):
            with graph_mod.name_scope(None, "SparseTensor", [indices, values, dense_shape]):
                indices = convert_to_tensor(indices, dtype=dtypes.int64, name="indices")
                values = convert_to_tensor(values, name="values")
                dense_shape = convert_to_tensor(dense_shape, dtype=dtypes.int64, name="dense_shape")
        return super().__new__(cls, indices, values, dense_shape)

    def __repr__(self):
        # TF prints its three tensors with str(): SparseTensor(indices=Tensor("..."), ...)
        return "SparseTensor(indices=%s, values=%s, dense_shape=%s)" % self

    @property
    def dtype(self):
        return self.values.dtype

    @property
    def graph(self):
        return self.values.graph


class SparseTensorValue(collections.namedtuple("SparseTensorValue", ["indices", "values", "dense_shape"])):
    """What ``Session.run`` gives for a fetched SparseTensor."""


FixedLenFeature = collections.namedtuple("FixedLenFeature", ["shape", "dtype", "default_value"])
FixedLenFeature.__new__.__defaults__ = (None,)
VarLenFeature = collections.namedtuple("VarLenFeature", ["dtype"])


# ----------------------------------------------------------------------------------------- DecodeRaw
def _decode_raw_kernel(ctx, data):
    dt = np.dtype(ctx.attrs["out_type"].as_numpy_dtype)
    if not ctx.attrs.get("little_endian", True):
        dt = dt.newbyteorder(">")
    flat = [bytes(b) for b in np.asarray(data, dtype=object).reshape(-1)]
    sizes = {len(b) for b in flat}
    if any(s % dt.itemsize for s in sizes):
        raise InvalidArgumentError(None, ctx.op, "Input to DecodeRaw has length %d that is not a multiple of %d, "
                                   "the size of %s" % (min(s for s in sizes if s % dt.itemsize), dt.itemsize,
                                                       ctx.attrs["out_type"].name))
    if len(sizes) > 1:
        raise InvalidArgumentError(None, ctx.op, "DecodeRaw requires input strings to all be the same size, but "
                                   "element 0 has size %d != %d" % (len(flat[0]), max(sizes - {len(flat[0])})))
    n = (sizes.pop() // dt.itemsize) if sizes else 0
    out = np.frombuffer(b"".join(flat), dtype=dt).astype(dt.newbyteorder("="))
    return out.reshape(np.shape(data) + (n,))


register_op("DecodeRaw", inputs=["bytes: string"],
            outputs=lambda op: [(op._attrs["out_type"], op._inputs[0].shape.concatenate([None]))],
            kernel=_decode_raw_kernel, grad=NOT_DIFFERENTIABLE,
            doc="Reinterprets the bytes of each string as a vector of numbers.")


def decode_raw(input_bytes=None, out_type=None, little_endian=True, name=None, bytes=None):  # noqa: A002
    """``tf.decode_raw`` / ``tf.io.decode_raw``."""
    data = input_bytes if input_bytes is not None else bytes
    return build_op("DecodeRaw", [data], attrs={"out_type": dtypes.as_dtype(out_type),
                                               "little_endian": bool(little_endian)},
                    name=name, default_name="DecodeRaw").outputs[0]


# ----------------------------------------------------------------------------------------- DecodeCSV
def _decode_csv_kernel(ctx, records, *defaults):
    a = ctx.attrs
    records = np.asarray(records, dtype=object)
    columns = [np.empty(records.shape, dtype=d.dtype if d.dtype != object else object) for d in defaults]
    for index, record in np.ndenumerate(records):
        text = record.decode("utf-8") if isinstance(record, bytes) else str(record)
        if a.get("use_quote_delim", True):
            fields = next(csv.reader(io.StringIO(text), delimiter=a.get("field_delim", ","))) if text else [""]
        else:
            fields = text.split(a.get("field_delim", ","))
        select = a.get("select_cols") or []
        if select:
            fields = [fields[c] for c in select if c < len(fields)]
        if len(fields) != len(defaults):
            raise InvalidArgumentError(None, ctx.op, "Expect %d fields but have %d in record %d" % (
                len(defaults), len(fields), int(np.ravel_multi_index(index, records.shape)) if index else 0))
        for i, (field, default) in enumerate(zip(fields, defaults)):
            if field == "" or field == a.get("na_value", ""):
                if np.size(default) == 0:
                    raise InvalidArgumentError(None, ctx.op, "Field %d is required but missing in record %d!" % (i, 0))
                columns[i][index] = np.asarray(default).reshape(-1)[0]
                continue
            try:
                columns[i][index] = field.encode("utf-8") if default.dtype == object else \
                    np.asarray(float(field) if default.dtype.kind == "f" else int(field), dtype=default.dtype)
            except ValueError:
                raise InvalidArgumentError(None, ctx.op, "Field %d in record %d is not a valid %s: %s" % (
                    i, 0, "float" if default.dtype.kind == "f" else "int", field)) from None
    return columns[0] if len(columns) == 1 else tuple(columns)


register_op("DecodeCSV", inputs=["records: string", "record_defaults: list"],
            outputs=lambda op: [(t.dtype.base_dtype, op._inputs[0].shape) for t in op._inputs[1:]],
            kernel=_decode_csv_kernel, grad=NOT_DIFFERENTIABLE,
            doc="Splits CSV records into one tensor per column, with defaults for empty fields.")


def decode_csv(records, record_defaults, field_delim=",", use_quote_delim=True, name=None, na_value="",
               select_cols=None):
    """``tf.decode_csv`` / ``tf.io.decode_csv``: one tensor per column, typed like ``record_defaults``."""
    with graph_mod.name_scope(name, "DecodeCSV", [records]) as scope:
        defaults = [constant(d, name="record_defaults_%d" % i) if not hasattr(d, "op") else d
                    for i, d in enumerate(record_defaults)]
        op = build_op("DecodeCSV", [records, defaults], name=scope, attrs={
            "OUT_TYPE": [d.dtype.base_dtype for d in defaults], "field_delim": field_delim,
            "use_quote_delim": bool(use_quote_delim), "na_value": na_value, "select_cols": list(select_cols or [])})
    return list(op.outputs)


# ------------------------------------------------------------------------------------ ParseExampleV2
_KINDS = {dtypes.int64: "int64_list", dtypes.float32: "float_list", dtypes.string: "bytes_list"}


def _feature_values(ctx, feature, key, dtype):
    kind = feature.WhichOneof("kind")
    if kind is None:
        return np.zeros(0, dtype=object if dtype == dtypes.string else dtype.as_numpy_dtype)
    if kind != _KINDS[dtype]:
        raise InvalidArgumentError(None, ctx.op, "Name: <unknown>, Feature: %s.  Data types don't match. Data "
                                   "type: %s but expected type: %s" % (key, kind.split("_")[0], dtype.name))
    values = list(getattr(feature, kind).value)
    if dtype == dtypes.string:
        out = np.empty(len(values), dtype=object)
        out[:] = values
        return out
    return np.asarray(values, dtype=dtype.as_numpy_dtype)


def _parse_example_kernel(ctx, serialized, names, sparse_keys, dense_keys, ragged_keys, *defaults):
    a = ctx.attrs
    serialized = np.asarray(serialized, dtype=object)
    examples = []
    for index, blob in np.ndenumerate(serialized):
        ex = example_pb2.Example()
        try:
            ex.ParseFromString(bytes(blob))
        except Exception:         # noqa: BLE001  (protobuf's DecodeError and friends)
            raise InvalidArgumentError(None, ctx.op, "Could not parse example input, value: '%s'"
                                       % bytes(blob)[:40]) from None
        examples.append((index, ex.features.feature))
    batch = serialized.shape
    sparse_out = ([], [], [])
    for key, dtype in zip(sparse_keys.reshape(-1), a["sparse_types"]):
        key = key.decode("utf-8")
        indices, values, longest = [], [], 0
        for index, features in examples:
            vals = _feature_values(ctx, features[key], key, dtype) if key in features else []
            longest = max(longest, len(vals))
            for j in range(len(vals)):
                indices.append(list(index) + [j])
            values.extend(vals)
        sparse_out[0].append(np.asarray(indices, dtype=np.int64).reshape(-1, len(batch) + 1))
        sparse_out[1].append(np.asarray(values, dtype=object if dtype == dtypes.string else dtype.as_numpy_dtype))
        sparse_out[2].append(np.asarray(list(batch) + [longest], dtype=np.int64))
    dense_out = []
    for key, dtype, shape, default in zip(dense_keys.reshape(-1), a["Tdense"], a["dense_shapes"], defaults):
        key = key.decode("utf-8")
        dims = shape.as_list()
        out = np.empty(batch + tuple(dims), dtype=object if dtype == dtypes.string else dtype.as_numpy_dtype)
        for index, features in examples:
            if key not in features:
                if np.size(default) == 0:
                    raise InvalidArgumentError(None, ctx.op, "Feature: %s (data type: %s) is required but could "
                                               "not be found." % (key, dtype.name))
                out[index + (Ellipsis,)] = default      # element-wise: never an array inside an object cell
                continue
            vals = _feature_values(ctx, features[key], key, dtype)
            if vals.size != int(np.prod(dims)):
                raise InvalidArgumentError(None, ctx.op, "Name: <unknown>, Key: %s, Index: %d.  Number of %s values "
                                           "!= expected.  Values size: %d but output shape: [%s]" % (
                                               key, int(np.ravel_multi_index(index, batch)) if batch else 0,
                                               _KINDS[dtype].split("_")[0], vals.size, ",".join(map(str, dims))))
            out[index + (Ellipsis,)] = vals.reshape(dims)
        dense_out.append(out)
    outputs = sparse_out[0] + sparse_out[1] + sparse_out[2] + dense_out
    return outputs[0] if len(outputs) == 1 else tuple(outputs)


def _parse_example_outputs(op):
    a = op._attrs
    rank = op._inputs[0].shape.ndims
    n = a["num_sparse"]
    batch = op._inputs[0].shape
    out = [(dtypes.int64, tensor_shape.TensorShape([None, rank + 1 if rank is not None else None]))] * n
    out += [(t, tensor_shape.TensorShape([None])) for t in a["sparse_types"]]
    out += [(dtypes.int64, tensor_shape.TensorShape([rank + 1 if rank is not None else None]))] * n
    out += [(t, batch.concatenate(s)) for t, s in zip(a["Tdense"], a["dense_shapes"])]
    return out


register_op("ParseExampleV2", inputs=["serialized: string", "names: string", "sparse_keys: string",
                                      "dense_keys: string", "ragged_keys: string", "dense_defaults: list"],
            outputs=_parse_example_outputs, kernel=_parse_example_kernel, grad=NOT_DIFFERENTIABLE,
            doc="Reads the features of serialized tf.train.Example protos into dense and sparse tensors.")


def _parse(serialized, features, name, default_name):
    with graph_mod.name_scope(name, default_name, [serialized]):
        sparse = sorted((k, f) for k, f in features.items() if isinstance(f, VarLenFeature))
        dense = sorted((k, f) for k, f in features.items() if isinstance(f, FixedLenFeature))
        defaults = []
        for key, f in dense:
            dtype = dtypes.as_dtype(f.dtype)
            if f.default_value is None:
                defaults.append(constant([], dtype=dtype))
            else:
                value = constant(f.default_value, dtype=dtype, name="key_%s" % key)
                defaults.append(array_ops.reshape(value, list(tensor_shape.as_shape(f.shape).as_list())))
        with graph_mod.name_scope(None, name or "ParseExampleV2") as scope:   # TF names the op by ``name``
            strings = [constant(v, dtype=dtypes.string, name=n) for n, v in (
                ("names", []), ("sparse_keys", [k for k, _ in sparse]), ("dense_keys", [k for k, _ in dense]),
                ("ragged_keys", []))]
            op = build_op("ParseExampleV2", [serialized] + strings + [defaults], name=scope, attrs={
                "Tdense": [dtypes.as_dtype(f.dtype) for _, f in dense], "num_sparse": len(sparse),
                "sparse_types": [dtypes.as_dtype(f.dtype) for _, f in sparse],
                "dense_shapes": [tensor_shape.as_shape(f.shape) for _, f in dense],
                "ragged_value_types": [], "ragged_split_types": []})
    outs, n = op.outputs, len(sparse)
    result = {}
    for i, (key, _) in enumerate(sparse):
        result[key] = SparseTensor(outs[i], outs[n + i], outs[2 * n + i])
    for i, (key, _) in enumerate(dense):
        result[key] = outs[3 * n + i]
    return result


def parse_example(serialized, features, name=None, example_names=None):
    """``tf.parse_example``: a batch (vector) of serialized Examples."""
    return _parse(serialized, features, name, "ParseExample")


def parse_single_example(serialized, features, name=None, example_names=None):
    """``tf.parse_single_example``: one serialized Example (a scalar string)."""
    with graph_mod.name_scope(name, "ParseSingleExample", [serialized]):
        return _parse(serialized, features, name, "ParseExample")


__all__ = ["FixedLenFeature", "SparseTensor", "SparseTensorValue", "VarLenFeature", "decode_csv", "decode_raw",
           "parse_example", "parse_single_example"]


def sparse_tensor_to_dense(sp_input, default_value=None, validate_indices=True, name=None):
    """``tf.sparse_tensor_to_dense`` / ``tf.sparse.to_dense``: SparseToDense with a default of zero."""
    from graphlab.ops.indexed_ops import sparse_to_dense
    if default_value is None:
        default_value = array_ops.zeros([], dtype=sp_input.values.dtype.base_dtype)
    return sparse_to_dense(sp_input.indices, sp_input.dense_shape, sp_input.values, default_value=default_value,
                           validate_indices=validate_indices, name=name)
