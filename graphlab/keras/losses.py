"""``tf.keras.losses``: loss functions (one value per sample) and Loss objects that weight and reduce them.

A function such as ``mean_squared_error(y_true, y_pred)`` returns the per-sample losses, reducing only the
last axis; a Loss object calls it inside a name scope of its own name (``mean_squared_error/``), then
weights the values and reduces them (``weighted_loss/``, ``value`` by ``DivNoNan``), as tf-keras does in
graph mode. ``compile`` reuses the same pieces under ``loss/<output>_loss/``. The op sequences follow
tf-keras 2.21 so that a graph built here has the names a TF graph has.
"""
from graphlab.framework import dtypes
from graphlab.framework.registry import constant, convert_to_tensor
from graphlab.framework.graph import name_scope
from graphlab.keras.engine.training_utils import smart_cond
from graphlab.keras.utils import generic_utils
from graphlab.ops import array_ops, math_ops, nn_impl, nn_ops

EPSILON = 1e-7  # tf.keras.backend.epsilon()
FLOATX = "float32"


class Reduction:
    """``tf.keras.losses.Reduction``: how a Loss object reduces its weighted per-sample values."""
    AUTO = "auto"
    NONE = "none"
    SUM = "sum"
    SUM_OVER_BATCH_SIZE = "sum_over_batch_size"

    @classmethod
    def all(cls):
        return (cls.AUTO, cls.NONE, cls.SUM, cls.SUM_OVER_BATCH_SIZE)

    @classmethod
    def validate(cls, key):
        if key not in cls.all():
            raise ValueError(f'Invalid Reduction Key: {key}. Expected keys are "{cls.all()}"')


# ---- shape and weighting helpers (tf-keras's losses_utils) ----

def remove_squeezable_dimensions(labels, predictions, expected_rank_diff=0, name=None):
    """Drop a trailing axis of size 1 from whichever side has one axis more than expected."""
    with name_scope(name or "remove_squeezable_dimensions"):
        predictions = convert_to_tensor(predictions)
        labels = convert_to_tensor(labels)
        p_rank, l_rank = predictions.shape.ndims, labels.shape.ndims
        if p_rank is not None and l_rank is not None:
            diff = p_rank - l_rank
            if diff == expected_rank_diff + 1 and predictions.shape.dims[-1].is_compatible_with(1):
                predictions = array_ops.squeeze(predictions, [-1])
            elif diff == expected_rank_diff - 1 and labels.shape.dims[-1].is_compatible_with(1):
                labels = array_ops.squeeze(labels, [-1])
        return labels, predictions


def squeeze_or_expand_dimensions(y_pred, y_true=None, sample_weight=None):
    """Line up the ranks of predictions, labels and sample weights by one trailing axis (static ranks)."""
    y_pred_rank = y_pred.shape.ndims
    if y_true is not None:
        y_true_rank = y_true.shape.ndims
        if y_true_rank is not None and y_pred_rank is not None:
            if (y_pred_rank - y_true_rank != 1) or y_pred.shape[-1] == 1:
                y_true, y_pred = remove_squeezable_dimensions(y_true, y_pred)
    if sample_weight is None:
        return y_pred, y_true
    weights_rank = sample_weight.shape.ndims
    if weights_rank == 0:
        return y_pred, y_true, sample_weight
    if y_pred_rank is not None and weights_rank is not None:
        if weights_rank - y_pred_rank == 1:
            sample_weight = array_ops.squeeze(sample_weight, [-1])
        elif y_pred_rank - weights_rank == 1:
            sample_weight = array_ops.expand_dims(sample_weight, [-1])
    return y_pred, y_true, sample_weight


def _num_elements(losses):
    with name_scope("num_elements") as scope:
        return math_ops.cast(array_ops.size(losses, name=scope), dtype=losses.dtype)


def reduce_weighted_loss(weighted_losses, reduction=Reduction.SUM_OVER_BATCH_SIZE):
    """Sum the weighted losses; SUM_OVER_BATCH_SIZE then divides by their count (``value``, DivNoNan)."""
    if reduction == Reduction.NONE:
        return weighted_losses
    loss = math_ops.reduce_sum(weighted_losses)
    if reduction == Reduction.SUM_OVER_BATCH_SIZE:
        count = _num_elements(weighted_losses)
        loss = math_ops.div_no_nan(math_ops.reduce_sum(loss), count, name="value")
    return loss


def compute_weighted_loss(losses, sample_weight=None, reduction=Reduction.SUM_OVER_BATCH_SIZE, name=None):
    """Multiply per-sample losses by their weights (1.0 when none) under ``weighted_loss/``, then reduce."""
    Reduction.validate(reduction)
    if reduction == Reduction.AUTO:
        reduction = Reduction.SUM_OVER_BATCH_SIZE
    if sample_weight is None:
        sample_weight = 1.0
    with name_scope(name or "weighted_loss"):
        losses = convert_to_tensor(losses)
        sample_weight = convert_to_tensor(sample_weight)
        input_dtype = None
        if not losses.dtype.is_floating:
            input_dtype = losses.dtype
            losses = math_ops.cast(losses, "float32")
        sample_weight = math_ops.cast(sample_weight, losses.dtype)
        losses, _, sample_weight = squeeze_or_expand_dimensions(losses, None, sample_weight)
        weighted = math_ops.multiply(losses, sample_weight)
        loss = reduce_weighted_loss(weighted, reduction)
        if input_dtype is not None:
            loss = math_ops.cast(loss, input_dtype)
        return loss


# ---- backend pieces the losses share (tf.keras.backend's versions) ----

def _mean(x, axis=None, keepdims=False):
    if x.dtype.base_dtype == dtypes.bool:
        x = math_ops.cast(x, FLOATX)
    return math_ops.reduce_mean(x, axis, keepdims)


def _pred_true(y_true, y_pred):
    y_pred = convert_to_tensor(y_pred)
    return math_ops.cast(y_true, y_pred.dtype), y_pred


def _logits_of(output, from_logits, op_type):
    """When ``output`` is a Softmax/Sigmoid op's result, use its input as logits, as tf-keras does."""
    if hasattr(output, "op") and output.op.type == op_type:
        return output.op.inputs[0], True
    return output, from_logits


def backend_categorical_crossentropy(target, output, from_logits=False, axis=-1):
    """``K.categorical_crossentropy``: softmax cross entropy of logits, or -sum(t * log(clipped p))."""
    target = convert_to_tensor(target)
    output = convert_to_tensor(output)
    target.shape.assert_is_compatible_with(output.shape)
    output, from_logits = _logits_of(output, from_logits, "Softmax")
    if from_logits:
        return nn_ops.softmax_cross_entropy_with_logits_v2(labels=target, logits=output, axis=axis)
    output = output / math_ops.reduce_sum(output, axis, True)
    eps = constant(EPSILON, dtype=output.dtype.base_dtype)
    output = array_ops.clip_by_value(output, eps, 1.0 - eps)
    return -math_ops.reduce_sum(target * math_ops.log(output), axis)


def backend_sparse_categorical_crossentropy(target, output, from_logits=False, axis=-1):
    """``K.sparse_categorical_crossentropy``: integer labels against the last axis of ``output``."""
    target = convert_to_tensor(target)
    output = convert_to_tensor(output)
    target = math_ops.cast(target, "int64")
    output, from_logits = _logits_of(output, from_logits, "Softmax")
    if not from_logits:
        eps = constant(EPSILON, dtype=output.dtype.base_dtype)
        output = math_ops.log(array_ops.clip_by_value(output, eps, 1 - eps))
    output_rank = output.shape.ndims
    if output_rank is not None:
        axis %= output_rank
        if axis != output_rank - 1:
            perm = list(range(axis)) + list(range(axis + 1, output_rank)) + [axis]
            output = array_ops.transpose(output, perm=perm)
    elif axis != -1:
        raise ValueError("Cannot compute sparse categorical crossentropy with `axis={}` on an output tensor "
                         "with unknown rank".format(axis))
    output_shape = array_ops.shape(output)
    target_rank = target.shape.ndims
    update_shape = target_rank is not None and output_rank is not None and target_rank != output_rank - 1
    if update_shape:
        target = array_ops.reshape(target, [-1])
        output = array_ops.reshape(output, [-1, output_shape[-1]])
    res = nn_ops.sparse_softmax_cross_entropy_with_logits(labels=target, logits=output)
    if update_shape and output_rank >= 3:
        res = array_ops.reshape(res, output_shape[:-1])
    return res


def backend_binary_crossentropy(target, output, from_logits=False):
    """``K.binary_crossentropy``: sigmoid cross entropy of logits, or the clipped log-likelihood."""
    target = convert_to_tensor(target)
    output = convert_to_tensor(output)
    output, from_logits = _logits_of(output, from_logits, "Sigmoid")
    if from_logits:
        return nn_ops.sigmoid_cross_entropy_with_logits(labels=target, logits=output)
    eps = constant(EPSILON, dtype=output.dtype.base_dtype)
    output = array_ops.clip_by_value(output, eps, 1.0 - eps)
    bce = target * math_ops.log(output + EPSILON)
    bce += (1 - target) * math_ops.log(1 - output + EPSILON)
    return -bce


# ---- loss functions ----

def mean_squared_error(y_true, y_pred):
    y_true, y_pred = _pred_true(y_true, y_pred)
    return _mean(math_ops.squared_difference(y_pred, y_true), axis=-1)


def mean_absolute_error(y_true, y_pred):
    y_true, y_pred = _pred_true(y_true, y_pred)
    return _mean(math_ops.abs(y_pred - y_true), axis=-1)


def mean_absolute_percentage_error(y_true, y_pred):
    y_true, y_pred = _pred_true(y_true, y_pred)
    diff = math_ops.abs((y_true - y_pred) / math_ops.maximum(math_ops.abs(y_true), EPSILON))
    return 100.0 * _mean(diff, axis=-1)


def mean_squared_logarithmic_error(y_true, y_pred):
    y_true, y_pred = _pred_true(y_true, y_pred)
    first_log = math_ops.log(math_ops.maximum(y_pred, EPSILON) + 1.0)
    second_log = math_ops.log(math_ops.maximum(y_true, EPSILON) + 1.0)
    return _mean(math_ops.squared_difference(first_log, second_log), axis=-1)


def _maybe_convert_labels(y_true):
    """0/1 labels become -1/1 (decided at run time unless the labels are constant)."""
    are_zeros = math_ops.equal(y_true, 0)
    are_ones = math_ops.equal(y_true, 1)
    is_binary = math_ops.reduce_all(math_ops.logical_or(are_zeros, are_ones))
    return smart_cond(is_binary, lambda: 2.0 * y_true - 1.0, lambda: y_true)


def squared_hinge(y_true, y_pred):
    y_true, y_pred = _pred_true(y_true, y_pred)
    y_true = _maybe_convert_labels(y_true)
    return _mean(math_ops.square(math_ops.maximum(1.0 - y_true * y_pred, 0.0)), axis=-1)


def hinge(y_true, y_pred):
    y_true, y_pred = _pred_true(y_true, y_pred)
    y_true = _maybe_convert_labels(y_true)
    return _mean(math_ops.maximum(1.0 - y_true * y_pred, 0.0), axis=-1)


def categorical_hinge(y_true, y_pred):
    y_true, y_pred = _pred_true(y_true, y_pred)
    pos = math_ops.reduce_sum(y_true * y_pred, axis=-1)
    neg = math_ops.reduce_max((1.0 - y_true) * y_pred, axis=-1)
    zero = math_ops.cast(0.0, y_pred.dtype)
    return math_ops.maximum(neg - pos + 1.0, zero)


def huber(y_true, y_pred, delta=1.0):
    y_pred = math_ops.cast(y_pred, dtype=FLOATX)
    y_true = math_ops.cast(y_true, dtype=FLOATX)
    delta = math_ops.cast(delta, dtype=FLOATX)
    error = math_ops.subtract(y_pred, y_true)
    abs_error = math_ops.abs(error)
    half = convert_to_tensor(0.5, dtype=abs_error.dtype)
    return _mean(array_ops.where_v2(abs_error <= delta, half * math_ops.square(error),
                                    delta * abs_error - half * math_ops.square(delta)), axis=-1)


def log_cosh(y_true, y_pred):
    y_true, y_pred = _pred_true(y_true, y_pred)
    x = y_pred - y_true
    return _mean(x + nn_ops.softplus(-2.0 * x) - math_ops.cast(math_ops.log(2.0), x.dtype), axis=-1)


def categorical_crossentropy(y_true, y_pred, from_logits=False, label_smoothing=0.0, axis=-1):
    if isinstance(axis, bool):
        raise ValueError(f"`axis` must be of type `int`. Received: axis={axis} of type {type(axis)}")
    y_true, y_pred = _pred_true(y_true, y_pred)
    smoothing = convert_to_tensor(label_smoothing, dtype=y_pred.dtype)

    def _smooth():
        num_classes = math_ops.cast(array_ops.shape(y_true)[axis], y_pred.dtype)
        return y_true * (1.0 - smoothing) + smoothing / num_classes
    y_true = smart_cond(smoothing, _smooth, lambda: y_true)
    return backend_categorical_crossentropy(y_true, y_pred, from_logits=from_logits, axis=axis)


def sparse_categorical_crossentropy(y_true, y_pred, from_logits=False, axis=-1):
    return backend_sparse_categorical_crossentropy(y_true, y_pred, from_logits=from_logits, axis=axis)


def binary_crossentropy(y_true, y_pred, from_logits=False, label_smoothing=0.0, axis=-1):
    y_true, y_pred = _pred_true(y_true, y_pred)
    smoothing = convert_to_tensor(label_smoothing, dtype=y_pred.dtype)
    y_true = smart_cond(smoothing, lambda: y_true * (1.0 - smoothing) + 0.5 * smoothing, lambda: y_true)
    return _mean(backend_binary_crossentropy(y_true, y_pred, from_logits=from_logits), axis=axis)


def kl_divergence(y_true, y_pred):
    y_true, y_pred = _pred_true(y_true, y_pred)
    y_true = array_ops.clip_by_value(y_true, EPSILON, 1)
    y_pred = array_ops.clip_by_value(y_pred, EPSILON, 1)
    return math_ops.reduce_sum(y_true * math_ops.log(y_true / y_pred), axis=-1)


def poisson(y_true, y_pred):
    y_true, y_pred = _pred_true(y_true, y_pred)
    return _mean(y_pred - y_true * math_ops.log(y_pred + EPSILON), axis=-1)


def cosine_similarity(y_true, y_pred, axis=-1):
    y_true = nn_impl.l2_normalize(y_true, axis=axis)
    y_pred = nn_impl.l2_normalize(y_pred, axis=axis)
    return -math_ops.reduce_sum(y_true * y_pred, axis=axis)


mse = MSE = mean_squared_error
mae = MAE = mean_absolute_error
mape = MAPE = mean_absolute_percentage_error
msle = MSLE = mean_squared_logarithmic_error
kld = KLD = kullback_leibler_divergence = kl_divergence
logcosh = log_cosh
cosine = cosine_proximity = cosine_similarity


# ---- Loss objects ----

class Loss:
    """A callable loss: per-sample values from ``call`` in the loss's name scope, then weighted and reduced."""

    def __init__(self, reduction=Reduction.AUTO, name=None):
        Reduction.validate(reduction)
        self.reduction = reduction
        self.name = name
        if name is None:
            self._name_scope = self.__class__.__name__.strip("_")
        elif name == "<lambda>":
            self._name_scope = "lambda"
        else:
            self._name_scope = name.strip("_")

    def __call__(self, y_true, y_pred, sample_weight=None):
        with name_scope(self._name_scope):
            losses = self.call(y_true, y_pred)
            reduction = Reduction.SUM_OVER_BATCH_SIZE if self.reduction == Reduction.AUTO else self.reduction
            return compute_weighted_loss(losses, sample_weight, reduction=reduction)

    def call(self, y_true, y_pred):
        raise NotImplementedError("Must be implemented in subclasses.")

    def get_config(self):
        return {"reduction": self.reduction, "name": self.name}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


class LossFunctionWrapper(Loss):
    """A Loss around a loss function and its keyword arguments."""

    def __init__(self, fn, reduction=Reduction.AUTO, name=None, **kwargs):
        super().__init__(reduction=reduction, name=name)
        self.fn = fn
        self._fn_kwargs = kwargs

    def call(self, y_true, y_pred):
        if hasattr(y_pred, "op") and hasattr(y_true, "op"):
            y_pred, y_true = squeeze_or_expand_dimensions(y_pred, y_true)
        return self.fn(y_true, y_pred, **self._fn_kwargs)

    def get_config(self):
        return dict(super().get_config(), **self._fn_kwargs)


def _wrapper_class(class_name, fn, default_name, **defaults):
    """A LossFunctionWrapper subclass whose keyword arguments (with defaults) go to ``fn``."""
    def __init__(self, *args, reduction=Reduction.AUTO, name=default_name, **kwargs):
        options = dict(defaults)
        for key, value in zip(defaults, args):
            options[key] = value
        for key, value in kwargs.items():
            if key not in defaults:
                raise TypeError(f"{class_name}() got an unexpected keyword argument '{key}'")
            options[key] = value
        LossFunctionWrapper.__init__(self, fn, reduction=reduction, name=name, **options)
        for key, value in options.items():
            setattr(self, key, value)
    return type(class_name, (LossFunctionWrapper,), {"__init__": __init__, "__doc__":
                "``tf.keras.losses.%s``: the Loss object of ``%s``." % (class_name, fn.__name__)})


MeanSquaredError = _wrapper_class("MeanSquaredError", mean_squared_error, "mean_squared_error")
MeanAbsoluteError = _wrapper_class("MeanAbsoluteError", mean_absolute_error, "mean_absolute_error")
MeanAbsolutePercentageError = _wrapper_class("MeanAbsolutePercentageError", mean_absolute_percentage_error,
                                             "mean_absolute_percentage_error")
MeanSquaredLogarithmicError = _wrapper_class("MeanSquaredLogarithmicError", mean_squared_logarithmic_error,
                                             "mean_squared_logarithmic_error")
BinaryCrossentropy = _wrapper_class("BinaryCrossentropy", binary_crossentropy, "binary_crossentropy",
                                    from_logits=False, label_smoothing=0.0, axis=-1)
CategoricalCrossentropy = _wrapper_class("CategoricalCrossentropy", categorical_crossentropy,
                                         "categorical_crossentropy", from_logits=False, label_smoothing=0.0,
                                         axis=-1)
SparseCategoricalCrossentropy = _wrapper_class("SparseCategoricalCrossentropy", sparse_categorical_crossentropy,
                                               "sparse_categorical_crossentropy", from_logits=False)
Hinge = _wrapper_class("Hinge", hinge, "hinge")
SquaredHinge = _wrapper_class("SquaredHinge", squared_hinge, "squared_hinge")
CategoricalHinge = _wrapper_class("CategoricalHinge", categorical_hinge, "categorical_hinge")
Poisson = _wrapper_class("Poisson", poisson, "poisson")
LogCosh = _wrapper_class("LogCosh", log_cosh, "log_cosh")
KLDivergence = _wrapper_class("KLDivergence", kl_divergence, "kl_divergence")
Huber = _wrapper_class("Huber", huber, "huber_loss", delta=1.0)
CosineSimilarity = _wrapper_class("CosineSimilarity", cosine_similarity, "cosine_similarity", axis=-1)


_BY_NAME = {name: obj for name, obj in dict(globals()).items()
            if callable(obj) and not name.startswith("_") and name[0].islower() and obj.__module__ == __name__
            and name not in ("remove_squeezable_dimensions", "squeeze_or_expand_dimensions",
                             "reduce_weighted_loss", "compute_weighted_loss", "get", "serialize", "deserialize")
            and not name.startswith("backend_")}
_BY_NAME.update({cls.__name__: cls for cls in (
    MeanSquaredError, MeanAbsoluteError, MeanAbsolutePercentageError, MeanSquaredLogarithmicError,
    BinaryCrossentropy, CategoricalCrossentropy, SparseCategoricalCrossentropy, Hinge, SquaredHinge,
    CategoricalHinge, Poisson, LogCosh, KLDivergence, Huber, CosineSimilarity)})


def serialize(loss):
    if hasattr(loss, "get_config") and isinstance(loss, Loss):
        return {"class_name": type(loss).__name__, "config": loss.get_config()}
    return loss.__name__


def deserialize(name, custom_objects=None):
    """A loss function or Loss object from its name (``'mse'``, ``'categorical_crossentropy'``) or config."""
    table = dict(_BY_NAME, **(custom_objects or {}))
    if isinstance(name, dict):
        cls = table.get(name["class_name"])
        if cls is None:
            raise ValueError(f"Unknown loss function: '{name['class_name']}'. Please ensure you are using a "
                             "`keras.utils.custom_object_scope` and that this object is included in the scope.")
        return cls.from_config(name["config"])
    if name not in table:
        raise ValueError(f"Unknown loss function: '{name}'. Please ensure you are using a "
                         "`keras.utils.custom_object_scope` and that this object is included in the scope. See "
                         "https://www.tensorflow.org/guide/keras/save_and_serialize#registering_the_custom_object "
                         "for details.")
    return table[name]


def get(identifier):
    """``tf.keras.losses.get``: None, a name, a config dict or a callable, as a loss."""
    return generic_utils.get_from_identifier(identifier, deserialize, "loss function")
