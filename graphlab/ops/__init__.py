"""Op families, one block per op (kernel, shape rule, gradient rule, public function), with variables and
variable scopes. Importing this package registers every op type in the op table (graphlab/framework/registry.py)
and fills the hooks the framework offers (IndexedSlices' ops, meta graph proto functions)."""
from graphlab.ops import array_ops, control_flow_ops, math_ops, state_ops  # noqa: F401  (registration)
from graphlab.framework import indexed_slices as _indexed_slices
_indexed_slices.register_ops(   # the ops an IndexedSlices builds for -x, its dense form and its static shape
    math_ops.negative, array_ops.unsorted_segment_sum,
    lambda shape: array_ops._shape_of(array_ops._partial_shape(shape)))
from graphlab.ops import io_ops  # noqa: F401,E402  (SaveV2 / RestoreV2)
from graphlab.ops import data_flow_ops, script_ops, training_ops  # noqa: F401,E402
from graphlab.ops import logging_ops  # noqa: F401,E402  (Print, Assert)
from graphlab.ops import scan_ops, special_math_ops  # noqa: F401,E402  (Cumsum, Cumprod; Erf, Lgamma ...)
array_ops.install_getitem()  # Tensor.__getitem__ -> StridedSlice, once math_ops made the operator table
from graphlab.ops import space_batch_ops, conv3d_ops, depthwise_conv_ops  # noqa: F401,E402  (N-d conv and pools)
from graphlab.ops import batch_norm_ops  # noqa: F401,E402  (FusedBatchNormV3)
from graphlab.ops import diag_ops, einsum_ops, linalg_impl, linalg_ops  # noqa: F401,E402  (tf.linalg)
from graphlab.ops import segment_ops  # noqa: F401,E402  (Segment*, UnsortedSegmentMax/Min/Prod, DynamicPartition)
from graphlab.ops import scatter_ops  # noqa: F401,E402  (GatherNd, ScatterNd, TensorScatter*, Scatter* on variables)
from graphlab.ops import sequence_ops  # noqa: F401,E402  (BroadcastArgs, Roll, ReverseSequence)
from graphlab.ops import counting_ops  # noqa: F401,E402  (Unique, DenseBincount, HistogramFixedWidth)
from graphlab.ops import random_sampling_ops  # noqa: F401,E402  (Multinomial, RandomGamma, RandomPoissonV2)
from graphlab.ops import quantization_ops  # noqa: F401,E402  (Dequantize)
from graphlab.ops import control_flow_protos  # noqa: F401,E402  (cond/while contexts in meta graphs)
from graphlab.ops import resource_variable_ops  # noqa: F401,E402  (VarHandleOp, ReadVariableOp, *VariableOp, ResourceGather/Scatter*)
from graphlab.ops import resource_training_ops  # noqa: F401,E402  (ResourceApply*, ResourceSparseApply*)
from graphlab.ops import keras_training_ops  # noqa: F401,E402  (ResourceApplyKerasMomentum, AdagradV2, AdamWithAmsgrad, AdaMax)
