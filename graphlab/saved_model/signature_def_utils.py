"""Building SignatureDefs: the named inputs and outputs a server feeds and fetches."""
from graphlab.formats.protos import meta_graph_pb2
from graphlab.saved_model import signature_constants
from graphlab.saved_model.utils import build_tensor_info


def build_signature_def(inputs=None, outputs=None, method_name=None):
    sd = meta_graph_pb2.SignatureDef()
    for key, info in (inputs or {}).items():
        sd.inputs[key].CopyFrom(info)
    for key, info in (outputs or {}).items():
        sd.outputs[key].CopyFrom(info)
    if method_name is not None:
        sd.method_name = method_name
    return sd


def predict_signature_def(inputs, outputs):
    """A predict SignatureDef from {key: tensor} dicts (what simple_save uses)."""
    if inputs is None or not inputs:
        raise ValueError("Prediction inputs cannot be None or empty.")
    if outputs is None or not outputs:
        raise ValueError("Prediction outputs cannot be None or empty.")
    return build_signature_def({k: build_tensor_info(t) for k, t in inputs.items()},
                               {k: build_tensor_info(t) for k, t in outputs.items()},
                               signature_constants.PREDICT_METHOD_NAME)


def is_valid_signature(signature_def):
    return bool(signature_def.inputs) and bool(signature_def.outputs) and bool(signature_def.method_name)
