"""The ``tf.nn.rnn_cell.RNNCell`` base: what every TF1 cell shares (sizes, zero state, and the scoping that
gives variables and ops TF's names).

TF 2.21 serves these cells from tf-keras' legacy layers, and their names come from that layer machinery:

* A cell's first call opens ``variable_scope(None, default_name=<snake_case class name>)`` where it is
  called (``rnn/basic_lstm_cell``); that scope is kept, so its variables (``rnn/basic_lstm_cell/kernel``)
  are made once, in ``build``, and every later call reuses them.
* Every call builds its ops in the name scope the first call opened (``rnn/basic_lstm_cell/MatMul``, then
  ``MatMul_1``...), wherever the later call happens.
* A cell whose variables live in sub-cells (MultiRNNCell, the wrappers) is first entered through the
  variable scope current at its first call, re-opened at each call: that is TF's ``rnn/rnn/multi_rnn_cell``.
* ``cell.name`` is the class name with a per-graph counter starting at 1 (``basic_lstm_cell_1``), which
  only error messages and ``cell.name`` show.
"""
import collections
import re

from graphlab.framework import dtypes, graph as graph_mod, nest, object_names, tensor_shape
from graphlab.framework.tensor import Tensor
from graphlab.ops import array_ops, math_ops
from graphlab.framework.registry import const_value, constant, convert_to_tensor
from graphlab.ops import variable_scope as vs

def _unique_object_name(base_name):
    """``basic_lstm_cell_1``, ``basic_lstm_cell_2``... counted per graph with tf.layers and Keras layers."""
    return object_names.unique_object_name(base_name)


def _snake_case(class_name):
    name = re.sub(r"(.)([A-Z][a-z]+)", r"\1_\2", class_name)
    return re.sub(r"([a-z])([A-Z])", r"\1_\2", name).lower()


class LSTMStateTuple(collections.namedtuple("LSTMStateTuple", ("c", "h"))):
    """An LSTM's state ``(c, h)``: the memory cell first, then the output it last emitted."""
    __slots__ = ()

    @property
    def dtype(self):
        c, h = self
        if c.dtype != h.dtype:
            raise TypeError("Inconsistent dtypes for internal state: %s vs %s" % (c.dtype, h.dtype))
        return c.dtype


def assert_like_rnncell(cell_name, cell):
    """TypeError naming what a would-be cell lacks (TF's wording)."""
    def has(attr):
        try:
            getattr(cell, attr)
        except AttributeError:
            return False
        return True
    problems = [text for ok, text in [
        (has("output_size"), "'output_size' property is missing"),
        (has("state_size"), "'state_size' property is missing"),
        (has("get_initial_state") or has("zero_state"),
         "either 'zero_state' or 'get_initial_state' method is required"),
        (callable(cell), "is not callable")] if not ok]
    if problems:
        raise TypeError("The argument %r (%s) is not an RNNCell: %s." % (cell_name, cell, ", ".join(problems)))


def check_supported_dtype(dtype):
    if dtype is None:
        return
    dtype = dtypes.as_dtype(dtype)
    if not (dtype.is_floating or dtype.is_complex):
        raise ValueError("RNN cell only supports floating point inputs, but received dtype: %s" % dtype)


def check_input_dtypes(structure):
    for t in nest.flatten(structure):
        check_supported_dtype(t.dtype)


# ------------------------------------------------------------------------------------------- sizes
def _size_tensor(size):
    """TF's _concat half: (the int32 vector to concatenate or None, the static dims or None)."""
    if isinstance(size, Tensor):
        static = const_value(size)
        static = None if static is None else static.tolist()
        if size.shape.ndims == 0:
            return array_ops.expand_dims(size, 0), static
        if size.shape.ndims != 1:
            raise ValueError("Prefix tensor must be either a scalar or vector, but received tensor: %s" % size)
        return size, static
    shape = tensor_shape.as_shape(size)
    static = shape.as_list() if shape.ndims is not None else None
    vector = constant(shape.as_list(), dtype=dtypes.int32) if shape.is_fully_defined() else None
    return vector, static


def concat_sizes(prefix, suffix, static=False):
    """``[prefix..., suffix...]`` as an int32 tensor, or (``static=True``) as a Python list with None for
    unknown sizes. Each of prefix and suffix is an int, a TensorShape or an int32 tensor. Built exactly as
    TF does: constants for the known sizes even when only the static list is asked for."""
    p, p_static = _size_tensor(prefix)
    s, s_static = _size_tensor(suffix)
    if static:
        if p_static is None or s_static is None:
            return None
        return list(p_static if isinstance(p_static, list) else [p_static]) + \
            list(s_static if isinstance(s_static, list) else [s_static])
    if p is None or s is None:
        raise ValueError("Prefix or suffix can't be None. Received prefix = %s and suffix = %s" % (prefix, suffix))
    return array_ops.concat((p, s), 0)


def zero_state_tensors(state_size, batch_size, dtype):
    """Zeros shaped ``[batch_size] + size`` for each size in the (nested) ``state_size``."""
    def zeros_for(size):
        shape = concat_sizes(batch_size, size)
        zeros = array_ops.zeros(shape, dtype=dtype)
        static = concat_sizes(batch_size, size, static=True)
        if static is not None:
            zeros.set_shape(static)
        return zeros
    return nest.map_structure(zeros_for, state_size)


# -------------------------------------------------------------------------------------------- cells
class RNNCell:
    """An RNN cell: ``output, new_state = cell(inputs, state)`` on one time step of a batch.

    Subclasses give ``state_size``, ``output_size`` and ``call(inputs, state)``; cells with their own
    variables make them in ``build(input_shape)`` with ``add_weight`` (called once, before the first call).
    A subclass may instead call ``tf.get_variable`` inside ``call``, as TF1's older cells do."""

    def __init__(self, trainable=True, name=None, dtype=None, _reuse=None, _scope=None):
        self.trainable = trainable
        self._reuse = _reuse
        self._dtype = dtypes.as_dtype(dtype).base_dtype if dtype is not None else None
        self._base_name = name or _snake_case(type(self).__name__)
        self._name = name or _unique_object_name(self._base_name)
        self.built = False
        self._trainable_weights = []
        self._non_trainable_weights = []
        self._scope = None              # the variable scope of the first call (TF's Layer._scope)
        self._entry_scope = None        # the variable scope a scope-less call re-enters (TF's rnncell_scope)
        if _scope is not None:
            with vs.variable_scope(_scope) as captured:
                self._scope = captured

    # --- what a cell is ---------------------------------------------------------------------------
    @property
    def name(self):
        return self._name

    @property
    def dtype(self):
        return self._dtype

    @property
    def state_size(self):
        raise NotImplementedError("Abstract method")

    @property
    def output_size(self):
        raise NotImplementedError("Abstract method")

    @property
    def scope_name(self):
        if self._scope is None:
            raise ValueError('No name available for layer scope because the layer "%s" has not been used yet. '
                             "The scope name  is determined the first time the layer instance is called. You "
                             "must therefore call the layer before querying `scope_name`." % self._name)
        return self._scope.name

    @property
    def trainable_weights(self):
        return list(self._trainable_weights) if self.trainable else []

    @property
    def non_trainable_weights(self):
        if self.trainable:
            return list(self._non_trainable_weights)
        return list(self._trainable_weights) + list(self._non_trainable_weights)

    @property
    def weights(self):
        return self.trainable_weights + self.non_trainable_weights

    @property
    def trainable_variables(self):
        return self.trainable_weights

    @property
    def variables(self):
        return self.weights

    # --- state ------------------------------------------------------------------------------------
    def zero_state(self, batch_size, dtype):
        """Zeros for a batch of ``batch_size`` (int or scalar tensor), under ``<Class>ZeroState/``."""
        with graph_mod.name_scope(type(self).__name__ + "ZeroState"):
            return zero_state_tensors(self.state_size, batch_size, dtype)

    def get_initial_state(self, inputs=None, batch_size=None, dtype=None):
        if inputs is not None:
            inputs = convert_to_tensor(inputs, name="inputs")
            if batch_size is not None:
                known = const_value(batch_size) if isinstance(batch_size, Tensor) else batch_size
                if inputs.shape[0].value != known:
                    raise ValueError("batch size from input tensor is different from the input param. Input "
                                     "tensor batch: %s, batch_size: %s" % (inputs.shape[0].value, batch_size))
            if dtype is not None and inputs.dtype != dtype:
                raise ValueError("dtype from input tensor is different from the input param. Input tensor "
                                 "dtype: %s, dtype: %s" % (inputs.dtype, dtype))
            batch_size = inputs.shape[0].value or array_ops.shape(inputs)[0]
            dtype = inputs.dtype
        if batch_size is None or dtype is None:
            raise ValueError("batch_size and dtype cannot be None while constructing initial state: "
                             "batch_size=%s, dtype=%s" % (batch_size, dtype))
        return self.zero_state(batch_size, dtype)

    # --- calling ----------------------------------------------------------------------------------
    def __call__(self, inputs, state, scope=None):
        """Run one step. ``scope`` (a name or VariableScope) places the cell's variables, as in TF1."""
        if scope is not None:
            with vs.variable_scope(scope, custom_getter=self._track_variable) as scope:
                return self._layer_call(inputs, state, scope=scope)
        if self._entry_scope is None:
            self._entry_scope = vs.get_variable_scope()
        with vs.variable_scope(self._entry_scope, custom_getter=self._track_variable):
            return self._layer_call(inputs, state)

    def _track_variable(self, getter, *args, **kwargs):
        """Custom getter: variables a cell makes with get_variable count among its weights."""
        variable = getter(*args, **kwargs)
        trainable = any(variable is v for v in graph_mod.get_default_graph().get_collection(
            graph_mod.GraphKeys.TRAINABLE_VARIABLES))
        weights = self._trainable_weights if trainable else self._non_trainable_weights
        if all(variable is not v for v in weights):
            weights.append(variable)
        return variable

    def _set_scope(self, scope=None):
        if self._scope is None:
            if self._reuse:
                with vs.variable_scope(scope if scope is not None else self._base_name) as captured:
                    self._scope = captured
            else:
                with vs.variable_scope(scope, default_name=self._base_name) as captured:
                    self._scope = captured

    def _layer_call(self, inputs, state, scope=None):
        """TF's legacy Layer.__call__: in the cell's own variable scope (reusing it once built) and its
        first name scope, build on the first call, then ``call``."""
        self._set_scope(scope)
        reuse = True if self.built else self._reuse
        with vs.variable_scope(self._scope, reuse=reuse, auxiliary_name_scope=False) as current:
            with graph_mod.get_default_graph().name_scope(current.original_name_scope):
                if not self.built:
                    self._check_inputs(inputs)
                    first = nest.flatten(inputs)[0]
                    if self._dtype is None and hasattr(first, "dtype"):
                        self._dtype = first.dtype.base_dtype
                    self.build(_shape_of(inputs))
                    self.built = True
                self._check_inputs(inputs)
                return self.call(inputs, state)

    def _check_inputs(self, inputs):
        """Cells with variables take a batch of vectors (TF's InputSpec(ndim=2) check)."""
        ndim = getattr(self, "_input_ndim", None)
        if ndim is None:
            return
        inputs = convert_to_tensor(inputs)
        shape = inputs.shape
        if shape.ndims is not None and shape.ndims != ndim:
            shown = "(" + ", ".join(repr(d) for d in shape.dims) + ("," if shape.ndims == 1 else "") + ")"
            raise ValueError('Input 0 of layer "%s" is incompatible with the layer: expected ndim=%d, found '
                             "ndim=%d. Full shape received: %s" % (self._name, ndim, shape.ndims, shown))

    def build(self, input_shape):
        """Make the cell's variables (cells without variables of their own make none)."""

    def call(self, inputs, state):
        raise NotImplementedError("Abstract method")

    def add_weight(self, name, shape, dtype=None, initializer=None, trainable=True, partitioner=None):
        """``get_variable(name)`` in the cell's scope, with TF's defaults (the scope's initializer, else
        glorot_uniform for floats), counted among the cell's weights."""
        if partitioner is not None:
            raise NotImplementedError("graphlab has no partitioned variables: build %s without "
                                      "num_unit_shards/num_proj_shards (or a partitioner)" % self._name)
        dtype = dtypes.as_dtype(dtype or self._dtype or dtypes.float32)
        self._set_scope(None)
        with vs.variable_scope(self._scope, reuse=self.built or self._reuse,
                               auxiliary_name_scope=False) as scope:
            with graph_mod.get_default_graph().name_scope(scope.original_name_scope):
                variable = vs.get_variable(name, shape, dtype=dtype,
                                           initializer=initializer or scope.initializer,
                                           trainable=trainable and self.trainable)
        weights = self._trainable_weights if trainable and self.trainable else self._non_trainable_weights
        if all(variable is not v for v in weights):
            weights.append(variable)
        return variable


def _shape_of(inputs):
    """The inputs' shapes as ``build`` sees them: tuples of ints and None (None for an unknown rank)."""
    def as_tuple(t):
        shape = convert_to_tensor(t).shape
        return tuple(shape.as_list()) if shape.ndims is not None else None
    shapes = [as_tuple(t) for t in nest.flatten(inputs)]
    return shapes[0] if not nest.is_nested(inputs) else nest.pack_sequence_as(inputs, shapes)


def get_activation(activation):
    """A cell's activation: a callable, a Keras name (``"relu"``), or None for tanh."""
    if not activation:
        return math_ops.tanh
    if callable(activation):
        return activation
    from graphlab.ops import nn_ops
    known = {"tanh": math_ops.tanh, "sigmoid": math_ops.sigmoid, "relu": nn_ops.relu, "elu": nn_ops.elu,
             "selu": nn_ops.selu, "softplus": nn_ops.softplus, "softsign": nn_ops.softsign,
             "relu6": nn_ops.relu6, "linear": lambda x: x}
    if activation not in known:
        raise ValueError("Unknown activation function: '%s'. Please ensure you are using a "
                         "`keras.utils.custom_object_scope` and that this object is included in the scope."
                         % activation)
    return known[activation]
