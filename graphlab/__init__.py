"""graphlab: TensorFlow 1 graph mode on numpy, for learning how deferred dataflow graphs work.

``import graphlab as tf`` and write TF1 code: build a graph, then run parts of it in a Session.
This module only re-exports; each name is defined in the module that owns it.
"""
from graphlab import errors
from graphlab.framework import dtypes
from graphlab.framework.dtypes import (DType, as_dtype, bfloat16, bool, complex64, complex128, double,  # noqa: A004
                                       float16, float32, float64, half, int8, int16, int32, int64, resource,
                                       string, uint8, uint16, uint32, uint64, variant)
from graphlab.framework.graph import (Graph, GraphKeys, get_default_graph, name_scope,
                                      reset_default_graph)
from graphlab.framework.indexed_slices import IndexedSlices, convert_to_tensor_or_indexed_slices
from graphlab.framework.operation import Operation
from graphlab.framework.tensor import Tensor
from graphlab.framework.tensor_shape import Dimension, TensorShape
from graphlab.ops import array_ops, control_flow_ops, math_ops, state_ops
from graphlab.ops.array_ops import (boolean_mask, clip_by_value, concat, expand_dims, fill, gather,  # noqa: A004
                                    identity, invert_permutation, one_hot, ones, ones_like, pad, placeholder,
                                    placeholder_with_default, range, rank, reshape, reverse, shape, shape_n,
                                    reverse_sequence, size, slice, split, squeeze, stack, stop_gradient,
                                    strided_slice, tile, transpose, unsorted_segment_sum, unstack, where,
                                    where_v2, zeros, zeros_like)
from graphlab.ops.random_ops import (random_normal, random_shuffle, random_uniform, set_random_seed,
                                     truncated_normal)
from graphlab.framework.random_seed import get_seed
from graphlab import nn, random  # noqa: E402  (tf.nn, tf.random namespaces)
newaxis = None
from graphlab.ops.control_flow_ops import control_dependencies, group, no_op
from graphlab.ops.control_flow_ops import case, cond, while_loop, tuple  # noqa: A004
from graphlab.ops.tensor_array import TensorArray
from graphlab.ops.functional_ops import foldl, foldr, map_fn, scan
from graphlab.ops.clip_ops import clip_by_average_norm, clip_by_global_norm, clip_by_norm, global_norm
from graphlab.ops.logging_ops import Assert, Print, assert_equal
from graphlab.ops.logging_ops import print_v2 as print  # noqa: A004  (tf.print; builtins.print is not used here)
from graphlab.ops.data_flow_ops import FIFOQueue, PaddingFIFOQueue, PriorityQueue, QueueBase, RandomShuffleQueue
from graphlab.ops.accumulator_ops import (ConditionalAccumulator, ConditionalAccumulatorBase,  # noqa: E402
                                        SparseConditionalAccumulator)
from graphlab.ops.script_ops import py_func
from graphlab.gradients import gradients
from graphlab.ops.broadcast_ops import broadcast_to
from graphlab.ops.segment_ops import dynamic_stitch
from graphlab.ops.math_ops import (abs, add, add_n, argmax, argmin, cast, ceil, cos, count_nonzero,  # noqa: A004
                                   div, divide, equal, exp, floor, floor_div, floordiv, floormod, greater,
                                   greater_equal, less, less_equal, log, log1p, logical_and, logical_not,
                                   logical_or, logical_xor, matmul, maximum, minimum, mod, multiply, negative,
                                   not_equal, pow, realdiv, reciprocal, reduce_all, reduce_any, reduce_max,
                                   reduce_mean, reduce_min, reduce_prod, reduce_sum, round, rsqrt, sigmoid,
                                   sign, sin, sqrt, square, squared_difference, subtract, tanh, to_double,
                                   to_float, to_int32, to_int64, truediv)
from graphlab import math  # noqa: E402  (tf.math namespace)
from graphlab import nest  # noqa: E402  (tf.nest namespace)
from graphlab.framework.registry import constant, convert_to_tensor
from graphlab.ops.state_ops import assign, assign_add, assign_sub, is_variable_initialized
from graphlab.runtime.run_metadata import RunMetadata, RunOptions
from graphlab.runtime.session import InteractiveSession, Session, get_default_session
from graphlab.ops.variables import (Variable, all_variables, global_variables, global_variables_initializer,
                                initialize_all_variables, local_variables, local_variables_initializer,
                                model_variables, moving_average_variables, trainable_variables, variables_initializer)
from graphlab.ops.variables import report_uninitialized_variables
from graphlab.ops.variable_scope import (AUTO_REUSE, VariableScope, get_local_variable, get_variable,
                                     get_variable_scope, variable_op_scope, variable_scope)
from graphlab.ops.init_ops import (constant_initializer, glorot_normal_initializer,
                                   glorot_uniform_initializer, ones_initializer, random_normal_initializer,
                                   random_uniform_initializer, truncated_normal_initializer,
                                   variance_scaling_initializer, zeros_initializer)
from graphlab import graph_util, saved_model, train  # noqa: E402  (tf.train, tf.graph_util, tf.saved_model)
from graphlab import layers  # noqa: E402  (tf.layers)
from graphlab import keras  # noqa: E402  (tf.keras)
from graphlab import losses, metrics  # noqa: E402  (tf.losses, tf.metrics)
from graphlab.ops.math_ops import div_no_nan  # noqa: E402
from graphlab.ops.scan_ops import cumprod, cumsum  # noqa: E402
from graphlab.ops.math_ops import acos, asin, atan, cosh, expm1, scalar_mul, sinh, tan  # noqa: E402
from graphlab.ops.special_math_ops import digamma, erf, lgamma, polygamma  # noqa: E402
from graphlab.ops.array_ops import setdiff1d  # noqa: E402
from graphlab.ops.math_ops import (check_numerics, is_finite, is_inf, is_nan, reduce_logsumexp,  # noqa: E402
                                   verify_tensor_all_finite)
from graphlab import contrib, summary  # noqa: E402  (tf.summary, tf.contrib.framework)
from graphlab.summary import Summary  # noqa: E402,F401  (tf.Summary, the proto summaries parse into)
from graphlab import logging_compat as logging  # noqa: E402  (tf.logging)
from graphlab import app, gfile  # noqa: E402  (tf.app.run / tf.app.flags, tf.gfile)
from graphlab.framework.graph_io import import_graph_def  # noqa: E402
from graphlab.ops.reader_ops import (FixedLengthRecordReader, ReaderBase, TextLineReader,  # noqa: E402
                                     TFRecordReader, WholeFileReader, read_file, write_file)
from graphlab.ops.parsing_ops import (FixedLenFeature, SparseTensor, SparseTensorValue,  # noqa: E402
                                      VarLenFeature, decode_csv, decode_raw, parse_example, parse_single_example,
                                      sparse_tensor_to_dense)
from graphlab.ops.reader_ops import matching_files  # noqa: E402
from graphlab.image import saturate_cast  # noqa: E402
from graphlab.ops.state_ops import count_up_to  # noqa: E402
from graphlab import image, io, python_io, queue  # noqa: E402  (tf.image, tf.io, tf.python_io, tf.queue)
from graphlab import data  # noqa: E402  (tf.data)
from graphlab import viz as _viz  # noqa: E402,F401  (loads the drawing a Graph shows in a notebook)
from graphlab import linalg  # noqa: E402  (tf.linalg)
from graphlab.ops.sequence_ops import (arg_max, arg_min, broadcast_dynamic_shape, lin_space,  # noqa: E402
                                       linspace, roll, sequence_mask)
from graphlab.ops.scatter_ops import (gather_nd, scatter_nd, scatter_nd_add, scatter_nd_sub,  # noqa: E402
                                      scatter_nd_update, tensor_scatter_add, tensor_scatter_sub, tensor_scatter_update)
from graphlab.ops.scatter_ops import tensor_scatter_add as tensor_scatter_nd_add  # noqa: E402
from graphlab.ops.scatter_ops import tensor_scatter_max as tensor_scatter_nd_max  # noqa: E402
from graphlab.ops.scatter_ops import tensor_scatter_min as tensor_scatter_nd_min  # noqa: E402
from graphlab.ops.scatter_ops import tensor_scatter_sub as tensor_scatter_nd_sub  # noqa: E402
from graphlab.ops.scatter_ops import tensor_scatter_update as tensor_scatter_nd_update  # noqa: E402
from graphlab.ops.segment_ops import (dynamic_partition, segment_max, segment_mean, segment_min,  # noqa: E402
                                      segment_prod, segment_sum, unsorted_segment_max, unsorted_segment_mean,
                                      unsorted_segment_min, unsorted_segment_prod, unsorted_segment_sqrt_n)
from graphlab.ops.counting_ops import (bincount, histogram_fixed_width, histogram_fixed_width_bins,  # noqa: E402
                                       unique, unique_with_counts)
from graphlab.ops.random_sampling_ops import multinomial, random_crop  # noqa: E402
from graphlab.ops.random_sampling_ops import random_gamma, random_poisson  # noqa: E402
from graphlab import manip  # noqa: E402  (tf.manip.roll)
from graphlab.ops.diag_ops import (diag, diag_part, matrix_band_part, matrix_diag, matrix_diag_part,  # noqa: E402
                                   matrix_set_diag)
from graphlab.ops.einsum_ops import einsum  # noqa: E402
from graphlab.ops.linalg_impl import cross, eye, matrix_transpose, norm, tensordot, trace  # noqa: E402
from graphlab.ops.linalg_ops import (cholesky, cholesky_solve, matrix_determinant, matrix_inverse,  # noqa: E402
                                     matrix_solve, matrix_solve_ls, matrix_triangular_solve, qr,
                                     self_adjoint_eig, self_adjoint_eigvals, svd)
from graphlab.ops.space_batch_ops import (batch_to_space, batch_to_space_nd, depth_to_space,  # noqa: E402
                                          required_space_to_batch_paddings, space_to_batch, space_to_batch_nd,
                                          space_to_depth)
from graphlab.ops.custom_gradient import (NoGradient, NotDifferentiable, RegisterGradient,  # noqa: E402
                                          custom_gradient, identity_n, no_gradient)
from graphlab.template import make_template  # noqa: E402
from graphlab.ops.indexed_ops import (scatter_add, scatter_div, scatter_max, scatter_min, scatter_mul,  # noqa: E402
                                      scatter_sub, scatter_update, sparse_to_dense)

# --- the rest of TF1's root API (bench/api_coverage.py measures how much of it graphlab provides)
from graphlab.tf1_root import *  # noqa: E402,F401,F403  (aliases, constants, enums, small composites)
from graphlab.ops.init_ops import orthogonal_initializer, uniform_unit_scaling_initializer  # noqa: E402
from graphlab import audio, bitwise, initializers, version  # noqa: E402  (tf.audio, tf.bitwise, tf.initializers, tf.version)
from graphlab import quantization  # noqa: E402,F401  (tf.quantization)
from graphlab.ops.quantization_ops import dequantize  # noqa: E402,F401
from graphlab.config import GraphOptions, OptimizerOptions  # noqa: E402
from graphlab import signal, spectral  # noqa: E402  (tf.signal, tf.spectral)
from graphlab import strings  # noqa: E402  (tf.strings)
from graphlab.ops.io_ops import string_join  # noqa: E402
from graphlab.ops.string_ops import (as_string, reduce_join, regex_replace, string_split, string_strip,  # noqa: E402
                                     string_to_number)
from graphlab.ops.complex_ops import angle, complex, conj, imag, real  # noqa: E402,A004
from graphlab.ops.fft_ops import fft, fft2d, fft3d, ifft, ifft2d, ifft3d  # noqa: E402
from graphlab.formats.protos.attr_value_pb2 import AttrValue, NameAttrList  # noqa: E402
from graphlab.formats.protos.event_pb2 import Event, LogMessage, SessionLog  # noqa: E402
from graphlab.formats.protos.meta_graph_pb2 import TensorInfo  # noqa: E402
from graphlab.formats.protos.summary_pb2 import HistogramProto, Summary, SummaryMetadata  # noqa: E402
from graphlab.ops.string_codec_ops import (decode_base64, decode_compressed, encode_base64,  # noqa: E402
                                           parse_tensor, serialize_tensor, substr)


# --- api-programs (issue 16 items 5-6): assertions, tf.debugging, tf.test, tf.flags, devices
from graphlab.ops.check_ops import (assert_greater, assert_greater_equal, assert_integer, assert_less,  # noqa: E402
                                    assert_less_equal, assert_near, assert_negative, assert_non_negative,
                                    assert_non_positive, assert_none_equal, assert_positive, assert_proper_iterable,
                                    assert_rank, assert_rank_at_least, assert_rank_in, assert_same_float_dtype,
                                    assert_scalar, assert_type, is_numeric_tensor)
from graphlab import debugging, test  # noqa: E402  (tf.debugging, tf.test)
from graphlab.framework.device_spec import DeviceSpec  # noqa: E402
from graphlab.app import flags  # noqa: E402  (tf.flags)
# --- end api-programs

from graphlab.compat import compat, disable_eager_execution, disable_v2_behavior, executing_eagerly  # noqa: E402
from graphlab.config import ConfigProto, GPUOptions  # noqa: E402
from graphlab.formats.protos.graph_def_pb2 import GraphDef  # noqa: E402
from graphlab.formats.protos.meta_graph_pb2 import MetaGraphDef  # noqa: E402
from graphlab.formats.protos.node_def_pb2 import NodeDef  # noqa: E402


def device(device_name_or_function):
    """``tf.device``: ops built inside ask for this device (recorded on them; the Session checks it as TF's
    placer does; every op runs on the CPU with numpy)."""
    return get_default_graph().device(device_name_or_function)


def colocate_with(op, ignore_existing=False):
    """``tf.colocate_with``: ops built inside share ``op``'s device (their ``_class`` attr: ``loc:@op``)."""
    return get_default_graph().colocate_with(op, ignore_existing)


def add_to_collection(name, value):
    get_default_graph().add_to_collection(name, value)


def add_to_collections(names, value):
    get_default_graph().add_to_collections(names, value)


def get_collection(key, scope=None):
    return get_default_graph().get_collection(key, scope)


def get_collection_ref(key):
    return get_default_graph().get_collection_ref(key)


def load_ipython_extension(ip):
    """``%load_ext graphlab``: load the IPython extension (imported only now: the engine never needs IPython)."""
    from graphlab_ipython import load_ipython_extension as load
    load(ip)


def unload_ipython_extension(ip):
    """``%unload_ext graphlab``: remove everything the extension registered."""
    from graphlab_ipython import unload_ipython_extension as unload
    unload(ip)


__version__ = "0.1.0"

from graphlab import omissions as _omissions  # noqa: E402
_omissions.install(globals(), "tf")   # last: names left out on purpose raise UnimplementedError saying why
