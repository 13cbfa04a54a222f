"""``tf.layers.Layer``: the base of TF1's layer classes, with the variable-scope rules of TF 1.15's
``tf.layers`` (kept in tf_keras's ``legacy_tf_layers``).

A layer captures a variable scope the first time it is used (``dense``, then ``dense_1``, ...; a ``name``
given to a functional call is opened at once), builds its variables there on the first call, and runs every
call inside that scope's name scope, so a second call of the same layer makes ``dense/MatMul_1`` with the
same variables. Its update ops (batch normalization's moving averages) go to ``UPDATE_OPS``.
"""
import re

from graphlab.framework import dtypes
from graphlab.framework import graph as graph_mod
from graphlab.framework import object_names
from graphlab.ops import control_flow_ops
from graphlab.framework.registry import const_value, convert_to_tensor
from graphlab.ops.variable_scope import get_variable, variable_scope


def _snake(name):
    """Keras's to_snake_case: Conv2DTranspose -> conv2d_transpose."""
    name = re.sub("(.)([A-Z][a-z0-9]+)", r"\1_\2", name)
    return re.sub("([a-z])([A-Z])", r"\1_\2", name).lower()


def _unique_layer_name(base):
    """Keras's per-graph object names: the n-th unnamed layer of a kind is ``<kind>_<n>`` (from 1), counted
    with Keras layers and RNN cells of that name."""
    return object_names.unique_object_name(base)


def smart_cond(pred, true_fn, false_fn, name=None):
    """Call one branch when ``pred`` is a Python bool or a constant tensor, else build a cond."""
    value = pred if isinstance(pred, bool) else const_value(pred) if hasattr(pred, "op") else bool(pred)
    if value is not None:
        return true_fn() if value else false_fn()
    return control_flow_ops.cond(pred, true_fn, false_fn, name=name)


def constant_value(pred):
    """True, False, or None when ``pred`` is a tensor whose value is only known at run time."""
    if isinstance(pred, bool) or pred is None:
        return pred
    if hasattr(pred, "op"):
        value = const_value(pred)
        return None if value is None else bool(value)
    return bool(pred)


class InputSpec:
    """``tf.layers.InputSpec``: what a layer accepts (dtype, shape, ndim, max_ndim, min_ndim, axes)."""

    def __init__(self, dtype=None, shape=None, ndim=None, max_ndim=None, min_ndim=None, axes=None):
        self.dtype, self.shape, self.max_ndim, self.min_ndim = dtype, shape, max_ndim, min_ndim
        self.ndim = len(shape) if shape is not None else ndim
        self.axes = axes or {}


class Layer:
    """``tf.layers.Layer``: subclasses define ``build(input_shape)`` (creating variables with
    ``add_weight``) and ``call(inputs, ...)``; calling the layer builds it once, then calls it."""

    def __init__(self, trainable=True, name=None, dtype=None, **kwargs):
        scope = kwargs.pop("_scope", None)
        self._reuse = kwargs.pop("_reuse", None)
        for key in kwargs:
            if key not in ("input_shape", "batch_input_shape", "batch_size", "weights", "activity_regularizer",
                           "autocast", "dynamic", "input_dim"):
                raise TypeError("Keyword argument not understood:", key)
        self.activity_regularizer = kwargs.get("activity_regularizer")
        self.trainable = trainable
        self.built = False
        self._dtype = dtypes.as_dtype(dtype).name if dtype is not None else None
        self._trainable_weights, self._non_trainable_weights = [], []
        self._updates, self._losses = [], []
        self.input_spec = None
        self._base_name = _snake(type(self).__name__)
        self._name = name if name else _unique_layer_name(self._base_name)
        if name:
            self._base_name = name
        self._scope = None
        if scope:
            with variable_scope(scope) as captured:
                self._scope = captured
        self._current_scope = None

    # ------------------------------------------------------------------------------------- properties
    name = property(lambda self: self._name)
    dtype = property(lambda self: self._dtype)
    trainable_weights = property(lambda self: list(self._trainable_weights) if self.trainable else [])
    trainable_variables = trainable_weights
    updates = property(lambda self: list(self._updates))
    losses = property(lambda self: list(self._losses))

    @property
    def non_trainable_weights(self):
        if self.trainable:
            return list(self._non_trainable_weights)
        return self._trainable_weights + self._non_trainable_weights

    non_trainable_variables = non_trainable_weights

    @property
    def weights(self):
        return self.trainable_weights + self.non_trainable_weights

    variables = weights

    @property
    def scope_name(self):
        if not self._scope:
            raise ValueError('No name available for layer scope because the layer "%s" has not been used yet. '
                             'The scope name  is determined the first time the layer instance is called. You '
                             'must therefore call the layer before querying `scope_name`.' % self._name)
        return self._scope.name

    @property
    def graph(self):
        return None

    # ------------------------------------------------------------------------------------ subclass API
    def build(self, input_shape):
        self.built = True

    def call(self, inputs, **kwargs):
        return inputs

    def compute_output_shape(self, input_shape):
        raise NotImplementedError

    def add_update(self, updates, inputs=None):
        """Record update ops (as Operations, like TF's UPDATE_OPS holds them)."""
        for update in updates if isinstance(updates, (list, tuple)) else [updates]:
            self._updates.append(update.op if hasattr(update, "op") and hasattr(update, "value_index") else update)

    def add_loss(self, losses, inputs=None):
        self._losses.extend(losses if isinstance(losses, (list, tuple)) else [losses])

    def get_weights(self):
        from graphlab.framework.default_stacks import get_default_session
        return get_default_session().run(self.weights)

    def _set_scope(self, scope=None):
        if self._scope is None:
            if self._reuse:
                with variable_scope(scope if scope is not None else self._base_name) as captured:
                    self._scope = captured
            else:
                with variable_scope(scope, default_name=self._base_name) as captured:
                    self._scope = captured

    def add_weight(self, name, shape, dtype=None, initializer=None, regularizer=None, trainable=None,
                   constraint=None, **kwargs):
        """A variable of this layer, made by ``get_variable`` in the layer's scope (reused once built)."""
        trainable = True if trainable is None else trainable
        dtype = dtype or self._dtype or dtypes.float32
        self._set_scope(None)
        with variable_scope(self._scope, reuse=self.built or self._reuse, auxiliary_name_scope=False) as scope:
            self._current_scope = scope
            with graph_mod.name_scope(scope.original_name_scope):
                existing = {id(v) for v in _global_variables()}
                graph = graph_mod.get_default_graph()
                losses_before = len(graph.get_collection("regularization_losses"))
                variable = get_variable(name, shape, dtype=dtypes.as_dtype(dtype), initializer=initializer,
                                        regularizer=regularizer, trainable=trainable and self.trainable,
                                        constraint=constraint)
                self._losses.extend(graph.get_collection("regularization_losses")[losses_before:])
        if id(variable) not in {id(v) for v in self._trainable_weights + self._non_trainable_weights}:
            if trainable and (id(variable) not in existing or variable in _trainable_variables()):
                self._trainable_weights.append(variable)
            else:
                self._non_trainable_weights.append(variable)
        return variable

    def __call__(self, inputs, *args, **kwargs):
        scope = kwargs.pop("scope", None)
        if not hasattr(inputs, "op") and not isinstance(inputs, (list, tuple)):
            inputs = convert_to_tensor(inputs)
        self._set_scope(scope)
        reuse = True if self.built else self._reuse
        with variable_scope(self._scope, reuse=reuse, auxiliary_name_scope=False) as scope:
            self._current_scope = scope
            with graph_mod.name_scope(scope.original_name_scope):
                if not self.built:
                    first = inputs[0] if isinstance(inputs, (list, tuple)) else inputs
                    if self._dtype is None:
                        self._dtype = first.dtype.base_dtype.name
                    self.build(first.shape)
                    self.built = True
                before = len(self._updates)
                outputs = self.call(inputs, *args, **kwargs)
        graph = graph_mod.get_default_graph()
        collection = graph.get_collection_ref("update_ops")
        seen = {id(u) for u in collection}
        for update in self._updates[before:]:
            if id(update) not in seen:
                collection.append(update)
        return outputs

    apply = __call__


def _global_variables():
    from graphlab.ops.variables import global_variables
    return global_variables()


def _trainable_variables():
    from graphlab.ops.variables import trainable_variables
    return trainable_variables()


__all__ = ["Layer", "InputSpec"]
