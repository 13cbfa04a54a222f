"""``tf.quantization``: ``dequantize`` reads quantized weights back as float32 (graphlab/ops/quantization_ops.py);
quantizing and fake-quant training are left out on purpose (graphlab/omissions.py says why)."""
from graphlab.ops.quantization_ops import dequantize  # noqa: F401
from graphlab import omissions as _omissions

_omissions.install(globals(), "tf.quantization")
