"""ImageSummary and TensorSummaryV2 (``tf.summary.image``, ``tensor_summary``, ``text``): serialized Summary
protos as scalar string tensors, as TF's ops give them. Float images are scaled to uint8 one image at a time
as TF's kernel does (all >= 0: largest becomes 255; any < 0: 0.0 maps to 128 and the largest |value| to
+-127), non-finite pixels take ``bad_color``, and the PNG is encoded by Pillow."""

import numpy as np

from graphlab.framework import dtypes, graph as graph_mod
from graphlab.formats.protos import summary_pb2
from graphlab.framework.registry import NOT_DIFFERENTIABLE, build_op, constant, convert_to_tensor, register_op
from graphlab.summary.summary_ops import _as_str, _bytes, _clean, _collect, _string_scalar, _tag  # noqa: F401


# --------------------------------------------------------------------------------------- ImageSummary
# ------------------------------------------------------------------------------------- TensorSummaryV2
def _tensor_summary_kernel(ctx, tag, tensor, serialized_summary_metadata):
    from graphlab.framework.graph_io import make_tensor_proto
    summary = summary_pb2.Summary()
    value = summary.value.add(tag=_as_str(tag))
    meta = np.asarray(serialized_summary_metadata, dtype=object).item()
    if meta:
        value.metadata.ParseFromString(bytes(meta))
    enum = ctx.op.inputs[1].dtype.base_dtype.as_datatype_enum
    value.tensor.CopyFrom(make_tensor_proto(np.asarray(tensor), enum))
    return _bytes(summary)


register_op("TensorSummaryV2", inputs=["tag: string", "tensor: T", "serialized_summary_metadata: string"],
            outputs=_string_scalar, kernel=_tensor_summary_kernel, grad=NOT_DIFFERENTIABLE,
            doc="A Summary holding a whole tensor, with its (serialized) SummaryMetadata.")


def tensor_summary(name, tensor, summary_description=None, collections=None, summary_metadata=None, family=None,
                   display_name=None):
    """``tf.summary.tensor_summary``: a TensorSummaryV2 of ``tensor``."""
    if summary_metadata is None:
        summary_metadata = summary_pb2.SummaryMetadata()
    if summary_description is not None:
        summary_metadata.summary_description = summary_description
    if display_name is not None:
        summary_metadata.display_name = display_name
    serialized = summary_metadata.SerializeToString()
    name = _clean(name)
    scope_name = name if family is None else "%s/%s" % (_clean(family), name)
    with graph_mod.name_scope(scope_name, values=[tensor]) as scope:
        tag = convert_to_tensor(_tag(scope, family), dtype=dtypes.string, name="tag")
        meta = constant(np.array(serialized, dtype=object), dtype=dtypes.string, name="serialized_summary_metadata")
        out = build_op("TensorSummaryV2", [tag, tensor, meta], name=scope).outputs[0]
    return _collect(out, collections)


def text(name, tensor, collections=None):
    """``tf.summary.text``: a string tensor for TensorBoard's Text tab (plugin "text")."""
    tensor = convert_to_tensor(tensor)
    if tensor.dtype != dtypes.string:
        raise ValueError("Expected tensor %s to have dtype string, got %s" % (tensor.name, tensor.dtype))
    metadata = summary_pb2.SummaryMetadata(plugin_data=summary_pb2.SummaryMetadata.PluginData(plugin_name="text"))
    return tensor_summary(name=name, tensor=tensor, summary_metadata=metadata, collections=collections)
