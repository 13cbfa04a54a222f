"""TensorInfo protos: how a SignatureDef names a tensor of the graph (name, dtype, static shape)."""
from graphlab.framework import graph_io
from graphlab.formats.protos import meta_graph_pb2


def build_tensor_info(tensor):
    """TensorInfo for a graph tensor (a Variable gives its value tensor)."""
    tensor = getattr(tensor, "_snapshot", tensor)
    info = meta_graph_pb2.TensorInfo(name=tensor.name, dtype=tensor.dtype.base_dtype.as_datatype_enum)
    info.tensor_shape.CopyFrom(graph_io.shape_to_proto(tensor.shape))
    return info


def get_tensor_from_tensor_info(tensor_info, graph=None, import_scope=None):
    """The tensor a TensorInfo names, in `graph` (default graph if None)."""
    from graphlab.framework import graph as graph_mod
    graph = graph or graph_mod.get_default_graph()
    if tensor_info.WhichOneof("encoding") != "name":
        raise ValueError("Only dense tensors (TensorInfo.name) are supported by graphlab, got %s"
                         % tensor_info.WhichOneof("encoding"))
    name = tensor_info.name
    if import_scope:
        name = import_scope + "/" + name
    return graph.get_tensor_by_name(name)
