"""TF1 root names that are aliases, constants, enums, small utilities and composites of existing ops:
``tf.log_sigmoid``, ``tf.sort``, ``tf.meshgrid``, ``tf.hessians``, ``tf.tables_initializer``, the
version constants, the v2-behaviour switches ... graphlab/__init__.py re-exports ``__all__``."""
import contextlib
import enum
import logging as _py_logging
import platform

import numpy as np

from graphlab.framework import dtypes, graph as graph_mod, tensor_shape
from graphlab.formats.errors import OpError
from graphlab.framework.tensor import Tensor
from graphlab.ops import array_ops, control_flow_ops, math_ops, nn_ops
from graphlab.ops.special_math_ops import (acosh, asinh, atan2, atanh, erfc, rint, truncatediv,  # noqa: F401
                                          truncatemod)
from graphlab.framework.registry import broadcast_shape, const_value, convert_to_tensor
from graphlab.ops.search_ops import (argsort, ensure_shape, parallel_stack, searchsorted, sort,  # noqa: F401
                                     unravel_index)
from graphlab.ops.special_math_ops import lgamma
from graphlab.ops.variables import (assert_variables_initialized, local_variables_initializer,  # noqa: F401
                                variables_initializer)

# ------------------------------------------------------------------------------------------ versions
GRAPH_DEF_VERSION = 134            # the GraphDef producer version graphlab writes (graphlab.framework.graph_io)
GRAPH_DEF_VERSION_MIN_CONSUMER = 0
GRAPH_DEF_VERSION_MIN_PRODUCER = 0
VERSION = "1.15.5"                 # the TensorFlow API graphlab follows
GIT_VERSION = "graphlab-0.1.0"
COMPILER_VERSION = platform.python_compiler()
CXX_VERSION = 0
CXX11_ABI_FLAG = 0
MONOLITHIC_BUILD = 0
QUANTIZED_DTYPES = dtypes.QUANTIZED_DTYPES
qint8, quint8, qint16, quint16, qint32 = dtypes.qint8, dtypes.quint8, dtypes.qint16, dtypes.quint16, dtypes.qint32


# ---------------------------------------------------------------------------------------------- enums
class AggregationMethod:
    """How tf.gradients sums the gradients reaching one tensor (graphlab always adds them with AddN)."""
    ADD_N = 0
    DEFAULT = ADD_N
    EXPERIMENTAL_TREE = 1
    EXPERIMENTAL_ACCUMULATE_N = 2


class UnconnectedGradients(str, enum.Enum):
    """``tf.gradients(..., unconnected_gradients=...)``: None or zeros for an x that ys do not depend on."""
    NONE = "none"
    ZERO = "zero"


class VariableSynchronization(enum.Enum):
    AUTO = 0
    NONE = 1
    ON_WRITE = 2
    ON_READ = 3


class VariableAggregation(enum.Enum):
    NONE = 0
    SUM = 1
    MEAN = 2
    ONLY_FIRST_REPLICA = 3


# ------------------------------------------------------------------------ v2-behaviour switches (TF1: off)
def executing_eagerly_outside_functions():
    """False: graphlab builds graphs (TF1 with v2 behaviour disabled)."""
    return False


def control_flow_v2_enabled():
    return False


def resource_variables_enabled():
    from graphlab.ops import variable_scope
    return variable_scope.resource_variables_enabled()


def enable_resource_variables():
    """Variables made from now on are resource variables (VarHandleOp, ReadVariableOp), as in TF."""
    from graphlab.ops import variable_scope
    variable_scope.enable_resource_variables()


def disable_control_flow_v2():
    """Already so: graphlab builds TF1's Switch/Merge control flow."""


def disable_resource_variables():
    """Variables made from now on are TF1 reference variables (the default)."""
    from graphlab.ops import variable_scope
    variable_scope.disable_resource_variables()


def disable_tensor_equality():
    """Already so: tensors compare by identity, as in TF1."""


def disable_v2_tensorshape():
    """Already so: TensorShape holds TF1 Dimension objects."""


# ---------------------------------------------------------------------------------- small utilities
def get_logger():
    """``tf.get_logger``: Python's logger named "tensorflow" (the one tf.logging writes to)."""
    return _py_logging.getLogger("tensorflow")


def is_tensor(x):
    """``tf.is_tensor``: a graph tensor (Tensor, SparseTensor or IndexedSlices), not a numpy value."""
    from graphlab.framework.indexed_slices import IndexedSlices
    from graphlab.ops.parsing_ops import SparseTensor
    return isinstance(x, (Tensor, SparseTensor, IndexedSlices))


def is_numeric_tensor(tensor):
    """``tf.debugging.is_numeric_tensor``: a Tensor of a number type (not bool, string, resource...)."""
    return isinstance(tensor, Tensor) and (tensor.dtype.is_floating or tensor.dtype.is_integer
                                           or tensor.dtype.is_complex)


def dimension_value(dimension):
    """``tf.dimension_value``: the int (or None) of a Dimension; ints and None pass through."""
    return dimension.value if isinstance(dimension, tensor_shape.Dimension) else dimension


def dimension_at_index(shape, index):
    """``tf.dimension_at_index``: the Dimension at ``index`` of a shape (unknown for an unknown rank)."""
    shape = tensor_shape.TensorShape(shape) if not isinstance(shape, tensor_shape.TensorShape) else shape
    if shape.ndims is None:
        return tensor_shape.Dimension(None)
    return shape.dims[index] if isinstance(shape.dims[index], tensor_shape.Dimension) else \
        tensor_shape.Dimension(shape.dims[index])


def broadcast_static_shape(shape_x, shape_y):
    """``tf.broadcast_static_shape``: the broadcast of two TensorShapes, known at build time."""
    try:
        return broadcast_shape(shape_x, shape_y)
    except ValueError:
        raise ValueError("Incompatible shapes for broadcasting: %s and %s" % (shape_x, shape_y)) from None


def get_static_value(tensor, partial=False):
    """``tf.get_static_value``: the numpy value of a tensor known at build time, else None."""
    if not isinstance(tensor, Tensor):
        return np.asarray(tensor)
    return const_value(tensor)


def make_tensor_proto(values, dtype=None, shape=None, verify_shape=False, allow_broadcast=False):
    """``tf.make_tensor_proto``: a TensorProto (graphlab's own proto class) holding ``values``."""
    from graphlab.framework.graph_io import make_tensor_proto as make
    np_dtype = dtypes.as_dtype(dtype).as_numpy_dtype if dtype is not None else None
    value = np.asarray(values, dtype=np_dtype)
    if shape is not None:
        if verify_shape and list(value.shape) != list(shape):
            raise TypeError("Expected Tensor's shape: %s, but got %s." % (tuple(shape), value.shape))
        value = np.broadcast_to(value, shape) if value.size == 1 or allow_broadcast else value.reshape(shape)
    return make(np.ascontiguousarray(value), dtypes.as_dtype(dtype).as_datatype_enum if dtype is not None else None)


def make_ndarray(tensor):
    """``tf.make_ndarray``: the numpy array a TensorProto holds."""
    from graphlab.framework.graph_io import tensor_proto_to_numpy
    return tensor_proto_to_numpy(tensor)


def no_regularizer(_):
    """``tf.no_regularizer``: use no regularizer for a variable (returns None)."""
    return None


@contextlib.contextmanager
def colocate_with(op, ignore_existing=False):
    """``tf.colocate_with``: accepted; every op runs in one place in graphlab."""
    with graph_mod.get_default_graph().colocate_with(op, ignore_existing):
        yield


@contextlib.contextmanager
def container(container_name):
    """``tf.container``: accepted; stateful ops share one session-wide container in graphlab."""
    yield container_name


@contextlib.contextmanager
def init_scope():
    """``tf.init_scope``: leave any control-dependency blocks (for ops that must run unconditionally)."""
    with graph_mod.get_default_graph().control_dependencies(None):
        yield


def op_scope(values, name, default_name=None):
    """``tf.op_scope`` (deprecated TF1 form of name_scope(name, default_name, values))."""
    return graph_mod.name_scope(name, default_name, values)


# ------------------------------------------------------------------------------------------ initializers
def tables_initializer(name="init_all_tables"):
    """``tf.tables_initializer``: graphlab has no lookup tables, so a no-op named as TF names it."""
    return control_flow_ops.no_op(name=name)


initialize_all_tables = tables_initializer


def initialize_local_variables():
    return local_variables_initializer()


def initialize_variables(var_list, name="init"):
    return variables_initializer(var_list, name=name)


# ------------------------------------------------------------------------------------- math composites
def log_sigmoid(x, name=None):
    """``tf.math.log_sigmoid``: -softplus(-x), stable for large |x| (TF's graph: Neg, Softplus, Neg)."""
    with graph_mod.name_scope(name, "LogSigmoid", [x]) as scope:
        x = convert_to_tensor(x, name="x")
        return math_ops.negative(nn_ops.softplus(math_ops.negative(x)), name=scope)


def lbeta(x, name=None):
    """``tf.math.lbeta``: log(|Beta(x)|) over the last axis: sum(lgamma(x)) - lgamma(sum(x))."""
    with graph_mod.name_scope(name, "lbeta", [x]):
        x = convert_to_tensor(x, name="x")
        log_prod_gamma_x = math_ops.reduce_sum(lgamma(x), axis=[-1])
        sum_x = math_ops.reduce_sum(x, axis=[-1])
        return log_prod_gamma_x - lgamma(sum_x)


def _monotone(x, compare, name, default_name):
    with graph_mod.name_scope(name, default_name, [x]):
        diff = _diff_flat(convert_to_tensor(x, name="x"))
        zero = math_ops.cast(0, diff.dtype.base_dtype)
        return math_ops.reduce_all(compare(zero, diff))


def _diff_flat(x):
    flat = array_ops.reshape(x, [-1])
    return flat[1:] - flat[:-1]


def is_non_decreasing(x, name=None):
    """``tf.math.is_non_decreasing``: True when each element (flattened) is >= the one before."""
    return _monotone(x, math_ops.less_equal, name, "is_non_decreasing")


def is_strictly_increasing(x, name=None):
    """``tf.math.is_strictly_increasing``: True when each element (flattened) is > the one before."""
    return _monotone(x, math_ops.less, name, "is_strictly_increasing")


def accumulate_n(inputs, shape=None, tensor_dtype=None, name=None):
    """``tf.math.accumulate_n``: the sum of ``inputs`` (AddN, as TF 2.x builds it)."""
    return math_ops.add_n(inputs, name=name)


def to_bfloat16(x, name="ToBFloat16"):
    return math_ops.cast(x, dtypes.bfloat16, name=name)


def to_complex64(x, name="ToComplex64"):
    return math_ops.cast(x, dtypes.complex64, name=name)


def to_complex128(x, name="ToComplex128"):
    return math_ops.cast(x, dtypes.complex128, name=name)


def confusion_matrix(labels, predictions, num_classes=None, weights=None, dtype=dtypes.int32, name=None):
    """``tf.math.confusion_matrix``: counts (or summed weights) of each (label, prediction) pair."""
    from graphlab.ops.scatter_ops import scatter_nd
    with graph_mod.name_scope(name, "confusion_matrix", [predictions, labels, num_classes, weights]):
        labels = math_ops.cast(convert_to_tensor(labels, name="labels"), dtypes.int64)
        predictions = math_ops.cast(convert_to_tensor(predictions, name="predictions"), dtypes.int64)
        if num_classes is None:
            num_classes = math_ops.maximum(math_ops.reduce_max(predictions), math_ops.reduce_max(labels)) + 1
        else:
            num_classes = math_ops.cast(num_classes, dtypes.int64)
        indices = array_ops.stack([labels, predictions], axis=1)
        values = (array_ops.ones_like(predictions, dtype) if weights is None
                  else math_ops.cast(convert_to_tensor(weights, name="weights"), dtype))
        shape = array_ops.stack([num_classes, num_classes])
        return scatter_nd(indices=indices, updates=values, shape=math_ops.cast(shape, dtypes.int64))


def meshgrid(*args, **kwargs):
    """``tf.meshgrid``: coordinate grids from 1-D tensors (indexing "xy", the default, or "ij")."""
    indexing = kwargs.pop("indexing", "xy")
    name = kwargs.pop("name", "meshgrid")
    if kwargs:
        raise TypeError("'%s' is an invalid keyword argument for this function" % next(iter(kwargs)))
    if indexing not in ("xy", "ij"):
        raise ValueError("Argument `indexing` parameter must be either 'xy' or 'ij', got '%s'" % indexing)
    with graph_mod.name_scope(name, "meshgrid", list(args)):
        ndim = len(args)
        s0 = (1,) * ndim
        output = []
        for i, x in enumerate(args):
            output.append(array_ops.reshape(array_ops.stack(x), (s0[:i] + (-1,) + s0[i + 1:])))
        shapes = [array_ops.size(x) for x in args]
        output_dtype = convert_to_tensor(args[0]).dtype.base_dtype
        if indexing == "xy" and ndim > 1:
            output[0] = array_ops.reshape(output[0], (1, -1) + (1,) * (ndim - 2))
            output[1] = array_ops.reshape(output[1], (-1, 1) + (1,) * (ndim - 2))
            shapes[0], shapes[1] = shapes[1], shapes[0]
        mult_fact = array_ops.ones(shapes, output_dtype)
        return [x * mult_fact for x in output]


def repeat(input, repeats, axis=None, name=None):  # noqa: A002  (TF's argument name)
    """``tf.repeat``: each element (or slice along ``axis``) repeated ``repeats`` times."""
    from graphlab.ops.sequence_ops import sequence_mask
    with graph_mod.name_scope(name, "Repeat", [input, repeats]):
        input = convert_to_tensor(input, name="input")  # noqa: A001
        repeats = math_ops.cast(convert_to_tensor(repeats, name="repeats"), dtypes.int32)
        if axis is None:
            input = array_ops.reshape(input, [-1])  # noqa: A001
            axis = 0
        n = array_ops.shape(input)[axis]
        repeats = repeats + array_ops.zeros([n], dtypes.int32)     # a scalar count applies to every slice
        mask = sequence_mask(repeats, math_ops.reduce_max(repeats))
        rows = array_ops.tile(array_ops.expand_dims(array_ops.range(n), 1), array_ops.stack([1, array_ops.shape(mask)[1]]))
        return array_ops.gather(input, array_ops.boolean_mask(rows, mask), axis=axis)


def batch_gather(params, indices, name=None):
    """``tf.batch_gather`` (deprecated): gather along the axis after the batch dimensions of ``indices``."""
    with graph_mod.name_scope(name, "BatchGather", [params, indices]):
        indices = convert_to_tensor(indices, name="indices")
        return array_ops.gather(params, indices, batch_dims=indices.shape.ndims - 1)


def hessians(ys, xs, name="hessians", colocate_gradients_with_ops=False, gate_gradients=False,
             aggregation_method=None):
    """``tf.hessians``: for each x, the matrix of second derivatives of sum(ys), shaped x.shape + x.shape.
    (TF loops over the gradient's elements with a while_loop; graphlab unrolls it, so x's size must be
    known when the graph is built.)"""
    from graphlab.gradients import gradients
    xs = list(xs) if isinstance(xs, (list, tuple)) else [xs]
    out = []
    with graph_mod.get_default_graph().name_scope(name):
        for gradient, x in zip(gradients(ys, xs), xs):
            n = x.shape.num_elements()
            if n is None:
                raise ValueError("graphlab's tf.hessians needs the size of %s known when the graph is built"
                                 % x.name)
            flat = array_ops.reshape(gradient, [-1])
            rows = [gradients(flat[i], x)[0] for i in range(n)]
            out.append(array_ops.reshape(array_ops.stack(rows), x.shape.concatenate(x.shape).as_list()))
    return out


def add_check_numerics_ops():
    """``tf.add_check_numerics_ops``: a CheckNumerics op on every float output in the graph so far, grouped."""
    graph = graph_mod.get_default_graph()
    checks = []
    for op in graph.get_operations():
        for output in op.outputs:
            if output.dtype.base_dtype in (dtypes.float16, dtypes.float32, dtypes.float64):
                message = op.name + ":" + str(output.value_index)
                with graph.control_dependencies(checks):
                    checks = [math_ops.check_numerics(output, message=message)]
    return control_flow_ops.group(*checks)


def numpy_function(func, inp, Tout, stateful=True, name=None):  # noqa: N803  (TF's argument name)
    """``tf.numpy_function``: a PyFunc op calling ``func`` on numpy values (tf.py_func under TF2's name)."""
    from graphlab.ops.script_ops import py_func
    return py_func(func, inp, Tout, stateful=stateful, name=name)


def reverse_v2(tensor, axis, name=None):
    return array_ops.reverse(tensor, axis, name=name)


__all__ = sorted(n for n in list(globals()) if not n.startswith("_") and n not in {
    "contextlib", "enum", "np", "platform", "dtypes", "graph_mod", "tensor_shape", "Tensor", "array_ops",
    "control_flow_ops", "math_ops", "nn_ops", "broadcast_shape", "const_value", "convert_to_tensor", "lgamma",
    "local_variables_initializer", "variables_initializer"}) + ["OpError"]
