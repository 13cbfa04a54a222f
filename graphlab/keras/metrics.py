"""``tf.keras.metrics``: stateful metrics whose totals live in variables, and the metric functions.

A metric object owns variables (``total`` and ``count`` for the means), made as tf-keras makes them in
graph mode: resource variables outside any name scope, in no collection (Keras's session initializes them),
not trainable. ``update_state`` adds a batch to them and returns the update; ``result`` reads them
(``div_no_nan`` then ``Identity``); calling the metric does both, the result after the update. ``compile``
calls metrics inside ``metrics/<name>/``, which is where their ops then live.
"""
import numpy as np

from graphlab.framework import dtypes
from graphlab.framework.graph import get_default_graph as _current_graph
from graphlab.framework.registry import convert_to_tensor
from graphlab.keras.backend import session as _ksession
from graphlab.keras.backend import variables as kvariables
from graphlab.keras.losses import squeeze_or_expand_dimensions
from graphlab.keras.utils import generic_utils
from graphlab.ops import array_ops, control_flow_ops, init_ops, math_ops, nn_ops
from graphlab.ops import variables as variables_mod
from graphlab.ops.weights_broadcast_ops import broadcast_weights


FLOATX = "float32"


class Reduction:
    SUM = "sum"
    SUM_OVER_BATCH_SIZE = "sum_over_batch_size"
    WEIGHTED_MEAN = "weighted_mean"


def _floatx():
    return FLOATX


class Metric:
    """A stateful metric: ``update_state`` (returns the update), ``result``, ``reset_state``, and calling it
    (update, then the result read after it)."""

    _in_result = False

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        for name, wrap in (("update_state", _wrap_update), ("result", _wrap_result)):
            fn = cls.__dict__.get(name)
            if fn is not None and not getattr(fn, "_wrapped", False):
                setattr(cls, name, wrap(fn))

    def __init__(self, name=None, dtype=None, **kwargs):
        self.name = name if name is not None else generic_utils.to_snake_case(type(self).__name__)
        self._dtype = dtypes.as_dtype(dtype).name if dtype is not None else _floatx()
        self._metric_variables = []
        self.stateful = True
        self.built = True

    @property
    def dtype(self):
        return self._dtype

    @property
    def variables(self):
        return list(self._metric_variables)

    weights = variables
    non_trainable_weights = variables

    @property
    def trainable_weights(self):
        return []

    def add_weight(self, name, shape=(), initializer="zeros", dtype=None):
        """A metric variable: resource, not trainable, in no collection, named ``name`` (uniquified)."""
        dtype = dtypes.as_dtype(dtype or self._dtype)
        if initializer in (None, "zeros"):
            initializer = init_ops.zeros_initializer()
        init = initializer

        def initial_value():
            return init(shape, dtype=dtype)
        variable = variables_mod.Variable(initial_value=initial_value, name=name, trainable=False, dtype=dtype,
                                          collections=[], use_resource=True)
        _ksession.track_variable(variable)
        self._metric_variables.append(variable)
        return variable

    def __call__(self, *args, **kwargs):
        update_op = self.update_state(*args, **kwargs)
        with control_flow_ops.control_dependencies([update_op] if update_op is not None else []):
            return self.result()

    def reset_state(self):
        """Set every variable back to 0 in Keras's session."""
        kvariables.batch_set_value([(v, 0) for v in self.variables])

    reset_states = reset_state

    def update_state(self, *args, **kwargs):
        raise NotImplementedError("Must be implemented in subclasses.")

    def result(self):
        raise NotImplementedError("Must be implemented in subclasses.")

    def get_config(self):
        return {"name": self.name, "dtype": self._dtype}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


def _wrap_update(fn):
    """In graph mode tf-keras's update wrapper returns the graph's newest op (the last read or update)."""
    def update_state(self, *args, **kwargs):
        fn(self, *args, **kwargs)
        return _current_graph().get_operations()[-1]
    update_state.__doc__ = fn.__doc__
    update_state._wrapped = True
    return update_state


def _wrap_result(fn):
    """tf-keras's result wrapper: the outermost ``result`` passes through one Identity."""
    def result(self):
        if self._in_result:
            return fn(self)
        self._in_result = True
        try:
            return array_ops.identity(fn(self))
        finally:
            self._in_result = False
    result.__doc__ = fn.__doc__
    result._wrapped = True
    return result


class Reduce(Metric):
    """Sums values into ``total`` (and their count, or the sum of their weights, into ``count``)."""

    def __init__(self, reduction, name, dtype=None):
        super().__init__(name=name, dtype=dtype)
        self.reduction = reduction
        self.total = self.add_weight("total")
        if reduction in (Reduction.SUM_OVER_BATCH_SIZE, Reduction.WEIGHTED_MEAN):
            self.count = self.add_weight("count")

    def update_state(self, values, sample_weight=None):
        values = math_ops.cast(values, self._dtype)
        if sample_weight is not None:
            sample_weight = math_ops.cast(sample_weight, self._dtype)
            values, _, sample_weight = squeeze_or_expand_dimensions(values, sample_weight=sample_weight)
            try:
                sample_weight = broadcast_weights(sample_weight, values)
            except ValueError:
                ndim, weight_ndim = values.shape.ndims, sample_weight.shape.ndims
                reduce = math_ops.reduce_sum if self.reduction == Reduction.SUM else math_ops.reduce_mean
                values = reduce(values, axis=list(range(weight_ndim, ndim)))
            values = math_ops.multiply(values, sample_weight)
        value_sum = math_ops.reduce_sum(values)
        with control_flow_ops.control_dependencies([value_sum]):
            update_total = self.total.assign_add(value_sum)
        if self.reduction == Reduction.SUM:
            return update_total
        if self.reduction == Reduction.WEIGHTED_MEAN and sample_weight is not None:
            num_values = math_ops.reduce_sum(sample_weight)
        else:
            num_values = math_ops.cast(array_ops.size(values), self._dtype)
        with control_flow_ops.control_dependencies([update_total]):
            return self.count.assign_add(num_values)

    def result(self):
        if self.reduction == Reduction.SUM:
            return array_ops.identity(self.total)
        return math_ops.div_no_nan(self.total, self.count)


class Sum(Reduce):
    def __init__(self, name="sum", dtype=None):
        super().__init__(Reduction.SUM, name=name, dtype=dtype)


class Mean(Reduce):
    def __init__(self, name="mean", dtype=None):
        super().__init__(Reduction.WEIGHTED_MEAN, name=name, dtype=dtype)


class MeanMetricWrapper(Mean):
    """The weighted mean of a per-sample function of (y_true, y_pred)."""

    def __init__(self, fn, name=None, dtype=None, **kwargs):
        super().__init__(name=name, dtype=dtype)
        self._fn = fn
        self._fn_kwargs = kwargs

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_true = math_ops.cast(y_true, self._dtype)
        y_pred = math_ops.cast(y_pred, self._dtype)
        y_pred, y_true = squeeze_or_expand_dimensions(y_pred, y_true)
        matches = self._fn(y_true, y_pred, **self._fn_kwargs)
        return super().update_state(matches, sample_weight=sample_weight)

    def get_config(self):
        return dict(super().get_config(), **self._fn_kwargs)


# ---- metric functions ----

def accuracy(y_true, y_pred):
    y_pred = convert_to_tensor(y_pred)
    y_true = convert_to_tensor(y_true)
    y_true.shape.assert_is_compatible_with(y_pred.shape)
    if y_true.dtype != y_pred.dtype:
        y_pred = math_ops.cast(y_pred, y_true.dtype)
    return math_ops.cast(math_ops.equal(y_true, y_pred), _floatx())


def binary_matches(y_true, y_pred, threshold=0.5):
    y_pred = convert_to_tensor(y_pred)
    threshold = math_ops.cast(threshold, y_pred.dtype)
    y_pred = math_ops.cast(y_pred > threshold, y_pred.dtype)
    return math_ops.cast(math_ops.equal(y_true, y_pred), _floatx())


def binary_accuracy(y_true, y_pred, threshold=0.5):
    return math_ops.reduce_mean(binary_matches(y_true, y_pred, threshold), axis=-1)


def sparse_categorical_matches(y_true, y_pred):
    """1.0 where the class index ``y_true`` is the arg-max of ``y_pred``."""
    y_pred = convert_to_tensor(y_pred)
    y_true = convert_to_tensor(y_true)
    y_true_org_shape = array_ops.shape(y_true)
    reshape = False
    if y_true.shape.ndims is not None and y_pred.shape.ndims is not None and \
            y_true.shape.ndims == y_pred.shape.ndims:
        y_true = array_ops.squeeze(y_true, [-1])
        reshape = True
    y_pred = math_ops.argmax(y_pred, axis=-1)
    if y_pred.dtype.base_dtype != y_true.dtype.base_dtype:
        y_pred = math_ops.cast(y_pred, y_true.dtype.base_dtype)
    matches = math_ops.cast(math_ops.equal(y_true, y_pred), _floatx())
    if reshape:
        matches = array_ops.reshape(matches, shape=y_true_org_shape)
    return matches


def categorical_accuracy(y_true, y_pred):
    return sparse_categorical_matches(math_ops.argmax(y_true, axis=-1), y_pred)


def sparse_categorical_accuracy(y_true, y_pred):
    matches = sparse_categorical_matches(y_true, y_pred)
    if matches.shape.ndims > 1 and matches.shape[-1] == 1:
        matches = array_ops.squeeze(matches, [-1])
    return matches


def sparse_top_k_categorical_matches(y_true, y_pred, k=5):
    y_true = convert_to_tensor(y_true)
    y_pred = convert_to_tensor(y_pred)
    y_true_rank, y_pred_rank = y_true.shape.ndims, y_pred.shape.ndims
    y_true_org_shape = array_ops.shape(y_true)
    reshape = False
    if y_true_rank is not None and y_pred_rank is not None:
        if y_pred_rank > 2:
            y_pred = array_ops.reshape(y_pred, [-1, y_pred.shape[-1]])
        if y_true_rank > 1:
            reshape = True
            y_true = array_ops.reshape(y_true, [-1])
    matches = math_ops.cast(nn_ops.in_top_k(predictions=y_pred, targets=math_ops.cast(y_true, "int32"), k=k),
                            dtype=_floatx())
    if reshape:
        return array_ops.reshape(matches, shape=y_true_org_shape)
    return matches


def top_k_categorical_accuracy(y_true, y_pred, k=5):
    return sparse_top_k_categorical_matches(math_ops.argmax(y_true, axis=-1), y_pred, k)


def sparse_top_k_categorical_accuracy(y_true, y_pred, k=5):
    return sparse_top_k_categorical_matches(y_true, y_pred, k)


from graphlab.keras.losses import (binary_crossentropy, categorical_crossentropy, categorical_hinge,  # noqa: E402
                                   cosine_similarity, hinge, kl_divergence, kld, KLD, log_cosh, mae, MAE,
                                   mape, MAPE, mean_absolute_error, mean_absolute_percentage_error,
                                   mean_squared_error, mean_squared_logarithmic_error, mse, MSE, msle, MSLE,
                                   poisson, sparse_categorical_crossentropy, squared_hinge)

cosine = cosine_proximity = cosine_similarity


def _wrapper(class_name, fn, default_name, doc, order=("name", "dtype"), **defaults):
    """A MeanMetricWrapper subclass over ``fn``; ``order`` is its positional parameters, as tf-keras's."""
    def __init__(self, *args, **kwargs):
        options = dict(defaults, name=default_name, dtype=None)
        if len(args) > len(order):
            raise TypeError(f"{class_name}.__init__() takes at most {len(order)} positional arguments")
        for key, value in zip(order, args):
            options[key] = value
        for key, value in kwargs.items():
            if key not in options:
                raise TypeError(f"{class_name}.__init__() got an unexpected keyword argument '{key}'")
            options[key] = value
        name, dtype = options.pop("name"), options.pop("dtype")
        MeanMetricWrapper.__init__(self, fn, name=name, dtype=dtype, **options)
    return type(class_name, (MeanMetricWrapper,), {"__init__": __init__, "__doc__": doc})


def _argmax_matches(y_true, y_pred):
    return sparse_categorical_matches(math_ops.argmax(y_true, axis=-1), y_pred)


def _argmax_top_k_matches(y_true, y_pred, k):
    return sparse_top_k_categorical_matches(math_ops.argmax(y_true, axis=-1), y_pred, k)


Accuracy = _wrapper("Accuracy", accuracy, "accuracy", "How often predictions equal labels.")
BinaryAccuracy = _wrapper("BinaryAccuracy", binary_matches, "binary_accuracy",
                          "How often a thresholded prediction equals its 0/1 label.",
                          order=("name", "dtype", "threshold"), threshold=0.5)
CategoricalAccuracy = _wrapper("CategoricalAccuracy", _argmax_matches, "categorical_accuracy",
                               "How often the arg-max of the prediction is the one-hot label's.")
SparseCategoricalAccuracy = _wrapper("SparseCategoricalAccuracy", sparse_categorical_matches,
                                     "sparse_categorical_accuracy",
                                     "How often the arg-max of the prediction is the integer label.")
TopKCategoricalAccuracy = _wrapper("TopKCategoricalAccuracy", _argmax_top_k_matches,
                                   "top_k_categorical_accuracy", "One-hot label within the top k.",
                                   order=("k", "name", "dtype"), k=5)
SparseTopKCategoricalAccuracy = _wrapper("SparseTopKCategoricalAccuracy", sparse_top_k_categorical_matches,
                                         "sparse_top_k_categorical_accuracy", "Integer label within the top k.",
                                         order=("k", "name", "dtype"), k=5)
MeanSquaredError = _wrapper("MeanSquaredError", mean_squared_error, "mean_squared_error", "Mean of MSE.")
MeanAbsoluteError = _wrapper("MeanAbsoluteError", mean_absolute_error, "mean_absolute_error", "Mean of MAE.")
MeanAbsolutePercentageError = _wrapper("MeanAbsolutePercentageError", mean_absolute_percentage_error,
                                       "mean_absolute_percentage_error", "Mean of MAPE.")
MeanSquaredLogarithmicError = _wrapper("MeanSquaredLogarithmicError", mean_squared_logarithmic_error,
                                       "mean_squared_logarithmic_error", "Mean of MSLE.")
Hinge = _wrapper("Hinge", hinge, "hinge", "Mean hinge loss.")
SquaredHinge = _wrapper("SquaredHinge", squared_hinge, "squared_hinge", "Mean squared hinge loss.")
CategoricalHinge = _wrapper("CategoricalHinge", categorical_hinge, "categorical_hinge",
                            "Mean categorical hinge loss.")
BinaryCrossentropy = _wrapper("BinaryCrossentropy", binary_crossentropy, "binary_crossentropy",
                              "Mean binary cross entropy.", order=("name", "dtype", "from_logits", "label_smoothing"),
                              from_logits=False, label_smoothing=0)
CategoricalCrossentropy = _wrapper("CategoricalCrossentropy", categorical_crossentropy,
                                   "categorical_crossentropy", "Mean categorical cross entropy.",
                                   order=("name", "dtype", "from_logits", "label_smoothing"),
                                   from_logits=False, label_smoothing=0)
SparseCategoricalCrossentropy = _wrapper("SparseCategoricalCrossentropy", sparse_categorical_crossentropy,
                                         "sparse_categorical_crossentropy",
                                         "Mean sparse categorical cross entropy.",
                                         order=("name", "dtype", "from_logits"), from_logits=False, axis=-1)
KLDivergence = _wrapper("KLDivergence", kl_divergence, "kullback_leibler_divergence", "Mean KL divergence.")
Poisson = _wrapper("Poisson", poisson, "poisson", "Mean Poisson loss.")
LogCoshError = _wrapper("LogCoshError", log_cosh, "logcosh", "Mean log-cosh error.")
CosineSimilarity = _wrapper("CosineSimilarity", cosine_similarity, "cosine_similarity",
                            "Mean cosine similarity.", order=("name", "dtype", "axis"), axis=-1)


class RootMeanSquaredError(Mean):
    """The square root of the mean squared error."""

    def __init__(self, name="root_mean_squared_error", dtype=None):
        super().__init__(name, dtype=dtype)

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_true = math_ops.cast(y_true, self._dtype)
        y_pred = math_ops.cast(y_pred, self._dtype)
        y_pred, y_true = squeeze_or_expand_dimensions(y_pred, y_true)
        error_sq = math_ops.squared_difference(y_pred, y_true)
        return super().update_state(error_sq, sample_weight=sample_weight)

    def result(self):
        return math_ops.sqrt(math_ops.div_no_nan(self.total, self.count))


class _ThresholdCounts(Metric):
    """Precision and Recall: true positives and one kind of error counted at each threshold (0.5 by
    default), predictions above a threshold being positive."""

    _other = None

    def __init__(self, thresholds=None, top_k=None, class_id=None, name=None, dtype=None):
        super().__init__(name=name, dtype=dtype)
        if top_k is not None:
            raise NotImplementedError("graphlab's %s does not implement top_k" % type(self).__name__)
        self.init_thresholds = thresholds
        self.class_id = class_id
        thresholds = [0.5] if thresholds is None else (
            list(thresholds) if isinstance(thresholds, (list, tuple)) else [thresholds])
        self.thresholds = thresholds
        n = len(thresholds)
        self.true_positives = self.add_weight("true_positives", shape=(n,))
        setattr(self, self._other, self.add_weight(self._other, shape=(n,)))

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_true = math_ops.cast(y_true, dtypes.bool)
        y_pred = math_ops.cast(y_pred, dtypes.float32)
        if self.class_id is not None:
            y_true = y_true[..., self.class_id]
            y_pred = y_pred[..., self.class_id]
        flat_pred = array_ops.reshape(y_pred, [1, -1])
        flat_true = array_ops.reshape(y_true, [1, -1])
        thresholds = convert_to_tensor(np.array(self.thresholds, np.float32).reshape(-1, 1))
        pred_pos = math_ops.greater(flat_pred, thresholds)
        if self._other == "false_positives":
            other = math_ops.logical_and(pred_pos, math_ops.logical_not(flat_true))
        else:
            other = math_ops.logical_and(math_ops.logical_not(pred_pos), flat_true)
        tp = math_ops.logical_and(pred_pos, flat_true)
        if sample_weight is not None:
            sample_weight = math_ops.cast(sample_weight, dtypes.float32)
            y_pred, _, sample_weight = squeeze_or_expand_dimensions(y_pred, sample_weight=sample_weight)
            w = array_ops.reshape(broadcast_weights(sample_weight, y_pred), [1, -1])
        else:
            w = 1.0
        tp_sum = math_ops.reduce_sum(math_ops.cast(tp, dtypes.float32) * w, axis=1)
        other_sum = math_ops.reduce_sum(math_ops.cast(other, dtypes.float32) * w, axis=1)
        return control_flow_ops.group(self.true_positives.assign_add(tp_sum),
                                      getattr(self, self._other).assign_add(other_sum))

    def reset_state(self):
        kvariables.batch_set_value([(v, np.zeros(v.shape.as_list(), v.dtype.base_dtype.as_numpy_dtype))
                                 for v in self.variables])

    reset_states = reset_state

    def result(self):
        value = math_ops.div_no_nan(self.true_positives, self.true_positives + getattr(self, self._other))
        return value[0] if len(self.thresholds) == 1 else value


class Precision(_ThresholdCounts):
    _other = "false_positives"

    def __init__(self, thresholds=None, top_k=None, class_id=None, name="precision", dtype=None):
        super().__init__(thresholds, top_k, class_id, name, dtype)


class Recall(_ThresholdCounts):
    _other = "false_negatives"

    def __init__(self, thresholds=None, top_k=None, class_id=None, name="recall", dtype=None):
        super().__init__(thresholds, top_k, class_id, name, dtype)


acc = ACC = accuracy
bce = BCE = binary_crossentropy

_CLASSES = {cls.__name__: cls for cls in (
    Metric, Reduce, Sum, Mean, MeanMetricWrapper, Accuracy, BinaryAccuracy, CategoricalAccuracy,
    SparseCategoricalAccuracy, TopKCategoricalAccuracy, SparseTopKCategoricalAccuracy, MeanSquaredError,
    MeanAbsoluteError, MeanAbsolutePercentageError, MeanSquaredLogarithmicError, Hinge, SquaredHinge,
    CategoricalHinge, BinaryCrossentropy, CategoricalCrossentropy, SparseCategoricalCrossentropy, KLDivergence,
    Poisson, LogCoshError, CosineSimilarity, RootMeanSquaredError, Precision, Recall)}
_FUNCTIONS = {fn.__name__: fn for fn in (
    accuracy, binary_accuracy, categorical_accuracy, sparse_categorical_accuracy, top_k_categorical_accuracy,
    sparse_top_k_categorical_accuracy)}
_FUNCTIONS.update({"mse": mse, "MSE": MSE, "mae": mae, "MAE": MAE, "mape": mape, "MAPE": MAPE, "msle": msle,
                   "MSLE": MSLE, "kld": kld, "KLD": KLD, "mean_squared_error": mean_squared_error,
                   "mean_absolute_error": mean_absolute_error, "hinge": hinge, "squared_hinge": squared_hinge,
                   "mean_absolute_percentage_error": mean_absolute_percentage_error,
                   "mean_squared_logarithmic_error": mean_squared_logarithmic_error,
                   "binary_crossentropy": binary_crossentropy, "categorical_crossentropy": categorical_crossentropy,
                   "sparse_categorical_crossentropy": sparse_categorical_crossentropy, "poisson": poisson,
                   "kullback_leibler_divergence": kl_divergence, "kl_divergence": kl_divergence,
                   "logcosh": log_cosh, "log_cosh": log_cosh, "cosine_proximity": cosine_similarity,
                   "categorical_hinge": categorical_hinge})


def serialize(metric):
    if isinstance(metric, Metric):
        return {"class_name": type(metric).__name__, "config": metric.get_config()}
    return metric.__name__


def deserialize(config, custom_objects=None):
    table = dict(_CLASSES, **_FUNCTIONS, **(custom_objects or {}))
    if isinstance(config, dict):
        cls = table.get(config["class_name"])
        if cls is None:
            raise ValueError(f"Unknown metric function: '{config['class_name']}'. Please ensure you are using a "
                             "`keras.utils.custom_object_scope` and that this object is included in the scope.")
        return cls.from_config(config["config"])
    if config not in table:
        raise ValueError(f"Unknown metric function: '{config}'. Please ensure you are using a "
                         "`keras.utils.custom_object_scope` and that this object is included in the scope. See "
                         "https://www.tensorflow.org/guide/keras/save_and_serialize#registering_the_custom_object "
                         "for details.")
    return table[config]


def get(identifier):
    """A metric function or object from its name or config; a callable as it is."""
    if isinstance(identifier, (str, dict)):
        return deserialize(identifier)
    if callable(identifier):
        return identifier
    raise ValueError(f"Could not interpret metric identifier: {identifier}")


