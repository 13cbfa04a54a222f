"""The loops behind ``fit``, ``evaluate`` and ``predict`` (tf-keras's training_arrays_v1), and the checks
that turn user data into the lists of arrays the Keras functions feed.

Numpy data goes in batches of ``batch_size`` (32 by default), shuffled each epoch with numpy's global
generator as tf-keras does (so ``np.random.seed`` makes the order repeatable). A tf.data Dataset is read
through an initializable iterator in Keras's session, one element per step, and re-initialized each epoch;
its number of steps is counted once when ``steps_per_epoch`` is not given (TF asks the dataset's
cardinality instead). Each step's outputs are named by ``metrics_names``: the loss averages over the
epoch's samples, the metrics are the running values their variables hold.
"""
import logging

import numpy as np

from graphlab.formats.errors import OutOfRangeError
from graphlab.keras import backend as K
from graphlab.keras import callbacks as cbks
from graphlab.keras.callbacks import ModeKeys

_log = logging.getLogger("graphlab.keras")
_MAX_COUNTED_STEPS = 10 ** 7


# ------------------------------------------------------------------------------------ standardizing
def _is_dataset(x):
    return hasattr(x, "make_initializable_iterator") and hasattr(x, "output_types")


def _as_list(data, names):
    if data is None:
        return []
    if isinstance(data, dict):
        try:
            return [np.asarray(data[n]) for n in names]
        except KeyError as e:
            raise ValueError('No data provided for "' + e.args[0] + '". Need data for each key in: '
                             + str(names)) from None
    if isinstance(data, (list, tuple)):
        if data and isinstance(data[0], (list, tuple)):
            return [np.asarray(d) for d in data]
        if len(names) == 1 and data and isinstance(data[0], (float, int)):
            return [np.asarray(data)]
        return [np.asarray(d) for d in data]
    return [np.asarray(data)]


def _standardize_arrays(data, names, shapes, prefix):
    """tf-keras's standardize_input_data: one array per name, a 1-D array gets a trailing axis when the
    model expects more, and each array's shape is checked (batch axis excluded)."""
    if not names:
        if data is not None and not isinstance(data, dict) and len(data):
            raise ValueError("Error when checking model " + prefix + ": expected no data, but got:", data)
        return []
    arrays = _as_list(data, names)
    if len(arrays) != len(names):
        if arrays and hasattr(arrays[0], "shape"):
            raise ValueError("Error when checking model " + prefix + ": the list of Numpy arrays that you are "
                             "passing to your model is not the size the model expected. Expected to see "
                             + str(len(names)) + " array(s), for inputs " + str(names) + " but instead got the "
                             "following list of " + str(len(arrays)) + " arrays: " + str(arrays)[:200] + "...")
        raise ValueError("Error when checking model " + prefix + ": expected " + str(len(names))
                         + " arrays but got " + str(len(arrays)))
    out = []
    for i, x in enumerate(arrays):
        shape = shapes[i] if shapes is not None else None
        if x.ndim == 1 and (shape is None or len(shape) != 1):
            x = np.expand_dims(x, 1)
        if shape is not None:
            if len(x.shape) != len(shape):
                raise ValueError("Error when checking " + prefix + ": expected " + names[i] + " to have "
                                 + str(len(shape)) + " dimensions, but got array with shape " + str(x.shape))
            for dim, ref in zip(x.shape[1:], shape[1:]):
                if ref is not None and dim is not None and ref != dim:
                    raise ValueError("Error when checking " + prefix + ": expected " + names[i] + " to have shape "
                                     + str(tuple(shape[1:])) + " but got array with shape " + str(x.shape[1:]))
        out.append(x)
    return out


def _check_array_lengths(inputs, targets, weights=()):
    set_x = {x.shape[0] for x in inputs}
    set_y = {y.shape[0] for y in targets}
    set_w = {w.shape[0] for w in weights if w is not None}
    if len(set_x) > 1:
        raise ValueError("All input arrays (x) should have the same number of samples. Got array shapes: "
                         + str([x.shape for x in inputs]))
    if len(set_y) > 1:
        raise ValueError("All target arrays (y) should have the same number of samples. Got array shapes: "
                         + str([y.shape for y in targets]))
    if set_x and set_y and list(set_x)[0] != list(set_y)[0]:
        raise ValueError("Input arrays should have the same number of samples as target arrays. Found "
                         + str(list(set_x)[0]) + " input samples and " + str(list(set_y)[0]) + " target samples.")
    if len(set_w) > 1:
        raise ValueError("All sample_weight arrays should have the same number of samples. Got array shapes: "
                         + str([w.shape for w in weights if w is not None]))
    if set_y and set_w and list(set_y)[0] != list(set_w)[0]:
        raise ValueError("Sample_weight arrays should have the same number of samples as target arrays. Got "
                         + str(list(set_y)[0]) + " input samples and " + str(list(set_w)[0]) + " target samples.")


def standardize(model, x, y=None, sample_weight=None, class_weight=None):
    """(inputs, targets, sample weights) as lists of numpy arrays (a weight may be None), checked against
    the model; ``class_weight`` becomes per-sample weights from each target's class."""
    input_shapes = [tuple(t.shape.as_list()) if t.shape.ndims is not None else None for t in model.inputs]
    inputs = _standardize_arrays(x, model.input_names, input_shapes, "input")
    targets = []
    if y is not None:
        endpoints = [e for e in model._training_endpoints if not e.should_skip_target()]
        targets = _standardize_arrays(y, [e.output_name for e in endpoints], None, "target")
        weights = _standardize_sample_weights(sample_weight, [e.output_name for e in endpoints])
        weights = [_weights_with_classes(t, w, class_weight.get(e.output_name, class_weight)
                                         if isinstance(class_weight, dict) and e.output_name in class_weight
                                         else class_weight)
                   for t, w, e in zip(targets, weights, endpoints)]
        _check_array_lengths(inputs, targets, weights)
        _check_loss_and_target(targets, endpoints)
        return inputs, targets, weights
    return inputs, targets, []


def _standardize_sample_weights(sample_weight, names):
    if sample_weight is None:
        return [None] * len(names)
    if isinstance(sample_weight, dict):
        unknown = [k for k in sample_weight if k not in names]
        if unknown:
            raise ValueError("Unknown entries in sample_weight dictionary: {}. Only expected following keys: "
                             "{}".format(unknown, names))
        return [None if sample_weight.get(n) is None else np.asarray(sample_weight[n]) for n in names]
    if isinstance(sample_weight, (list, tuple)) and len(names) > 1:
        if len(sample_weight) != len(names):
            raise ValueError("When passing a list as sample_weight, it should have one entry per model output. "
                             "The model has " + str(len(names)) + " outputs, but you passed sample_weight="
                             + str(sample_weight))
        return [None if w is None else np.asarray(w) for w in sample_weight]
    weights = np.asarray(sample_weight)
    if weights.ndim != 1:
        raise ValueError("Found a sample_weight array with shape " + str(weights.shape) + ". In order to use "
                         "timestep-wise sample weighting, you should pass a 2D sample_weight array and specify "
                         "`sample_weight_mode=\"temporal\"` in compile(). If you just mean to use sample-wise "
                         "weights, make sure your sample_weight array is 1D.")
    return [weights]


def _weights_with_classes(y, sample_weight, class_weight):
    """tf-keras's standardize_weights for sample-wise weights: the class weights of each sample's class."""
    if sample_weight is not None and sample_weight.ndim == 1 and len(sample_weight) != len(y):
        raise ValueError("Found a sample_weight array with shape {} for an input with shape {}. sample_weight "
                         "cannot be broadcast.".format(sample_weight.shape, y.shape))
    if not isinstance(class_weight, dict) or not class_weight:
        return sample_weight
    if y.ndim > 2:
        raise ValueError("`class_weight` not supported for 3+ dimensional targets.")
    classes = np.argmax(y, axis=1) if y.shape[1] > 1 else np.reshape(y, y.shape[0])
    weights = np.asarray([class_weight[c] for c in classes if c in class_weight])
    if len(weights) != len(classes):
        missing = set(classes) - set(class_weight)
        raise ValueError("`class_weight` must contain all classes in the data. The classes %s exist in the data "
                         "but not in `class_weight`." % missing)
    return weights if sample_weight is None else sample_weight * weights


def fed_weights(model, sample_weights):
    """The values fed to the model's sample-weight placeholders (None keeps the placeholder's default)."""
    by_name = dict(zip([e.output_name for e in model._training_endpoints if not e.should_skip_target()],
                       sample_weights or []))
    return [by_name.get(e.output_name) for e in model._training_endpoints if e.sample_weight is not None]


def _check_loss_and_target(targets, endpoints):
    """tf-keras's check of targets against the losses that need their output's shape."""
    from graphlab.keras import losses
    key_fns = (losses.mean_squared_error, losses.binary_crossentropy, losses.categorical_crossentropy)
    key_classes = (losses.MeanSquaredError, losses.BinaryCrossentropy, losses.CategoricalCrossentropy)
    for y, e in zip(targets, endpoints):
        loss = e.loss_fn
        wrapper = isinstance(loss, losses.LossFunctionWrapper)
        if isinstance(loss, losses.CategoricalCrossentropy) or (wrapper and loss.fn is losses.categorical_crossentropy):
            if y.shape[-1] == 1:
                raise ValueError("You are passing a target array of shape " + str(y.shape) + " while using as loss "
                                 "`categorical_crossentropy`. `categorical_crossentropy` expects targets to be binary "
                                 "matrices (1s and 0s) of shape (samples, classes). If your targets are integer "
                                 "classes, you can convert them to the expected format via:\n```\nfrom "
                                 "tf_keras.src.utils import to_categorical\ny_binary = to_categorical(y_int)\n```\n\n"
                                 "Alternatively, you can use the loss function `sparse_categorical_crossentropy` "
                                 "instead, which does expect integer targets.")
        if isinstance(loss, key_classes) or (wrapper and loss.fn in key_fns):
            shape = tuple(e.output.shape.as_list())
            for target_dim, out_dim in zip(y.shape[1:], shape[1:]):
                if out_dim is not None and target_dim != out_dim:
                    name = loss.name if loss.name is not None else (loss.fn if wrapper else type(loss)).__name__
                    raise ValueError("A target array with shape " + str(y.shape) + " was passed for an output of "
                                     "shape " + str(shape) + " while using as loss `" + name + "`. This loss "
                                     "expects targets to have the same shape as the output.")


def _make_batches(size, batch_size):
    num_batches = int(np.ceil(size / float(batch_size)))
    return [(i * batch_size, min(size, (i + 1) * batch_size)) for i in range(num_batches)]


def _slice(arrays, ids):  # None: a sample-weight placeholder left at its default
    return [None if a is None else a[ids] for a in arrays]


# ---------------------------------------------------------------------------------------- datasets
class _DatasetFeed:
    """A Dataset read step by step: its next element's (inputs, targets) as numpy lists."""

    def __init__(self, model, dataset, with_targets=True):
        graph = K.get_graph()
        with graph.as_default():
            self.iterator = dataset.make_initializable_iterator()
            self.next_element = self.iterator.get_next()
        self.model = model
        self.with_targets = with_targets
        self.initialize()

    def initialize(self):
        K.get_session().run(self.iterator.initializer)

    def count_steps(self):
        steps = 0
        sess = K.get_session()
        try:
            while steps < _MAX_COUNTED_STEPS:
                sess.run(self.next_element)
                steps += 1
        except OutOfRangeError:
            pass
        else:
            raise ValueError("When passing an infinitely repeating dataset, you must specify the "
                             "`steps_per_epoch` argument.")
        self.initialize()
        return steps

    def next(self):
        value = K.get_session().run(self.next_element)
        if isinstance(value, tuple) and len(value) in (2, 3):
            x, y = value[0], value[1]
        else:
            x, y = value, None
        if not self.with_targets:
            y = None
        return standardize(self.model, x, y)[:2]


# --------------------------------------------------------------------------------------- aggregation
class _MetricsAggregator:
    """Sums the loss weighted by batch size (or per step), keeps the metrics' last values."""

    def __init__(self, use_steps, num_samples=None, steps=None):
        self.use_steps, self.num_samples, self.steps = use_steps, num_samples, steps
        self.results = []

    def create(self, batch_outs):
        self.results = [0.0] * len(batch_outs)

    def aggregate(self, batch_outs, batch_start=None, batch_end=None):
        if self.use_steps:
            self.results[0] += batch_outs[0]
        else:
            self.results[0] += batch_outs[0] * (batch_end - batch_start)
        self.results[1:] = batch_outs[1:]

    def finalize(self):
        if not self.results:
            raise ValueError("Empty training data.")
        self.results[0] /= self.num_samples or self.steps


class _OutputsAggregator:
    """Concatenates each output's batches."""

    def __init__(self, *args, **kwargs):
        self.results = []

    def create(self, batch_outs):
        self.results = [[] for _ in batch_outs]

    def aggregate(self, batch_outs, batch_start=None, batch_end=None):
        for parts, value in zip(self.results, batch_outs):
            parts.append(value)

    def finalize(self):
        self.results = [parts[0] if len(parts) == 1 else np.concatenate(parts, axis=0) for parts in self.results]


# ---------------------------------------------------------------------------------------------- loop
def _print_train_info(num, val_num, is_dataset):
    unit = "steps" if is_dataset else "samples"
    message = f"Train on {num} {unit}"
    if val_num:
        message += f", validate on {val_num} {unit}"
    print(message)


def _function_for(model, mode):
    if mode == ModeKeys.TRAIN:
        model._make_train_function()
        return model.train_function
    if mode == ModeKeys.TEST:
        model._make_test_function()
        return model.test_function
    model._make_predict_function()
    return model.predict_function


def model_iteration(model, inputs, targets=None, sample_weights=None, batch_size=None, epochs=1, verbose=1,
                    callbacks=None, val_inputs=None, val_targets=None, val_sample_weights=None, shuffle=True, initial_epoch=0, steps_per_epoch=None,
                    validation_steps=None, validation_freq=1, mode=ModeKeys.TRAIN, steps_name="steps"):
    """One loop for the three modes, as tf-keras's model_iteration: epochs of batches (or steps), callbacks
    around each, validation after each training epoch."""
    feed = None
    if isinstance(inputs, _DatasetFeed):
        feed = inputs
        if steps_per_epoch is None:
            steps_per_epoch = feed.count_steps()
    use_steps = feed is not None or steps_per_epoch is not None
    learning_phase = [True] * len(model._learning_phase_feed()) if mode == ModeKeys.TRAIN else []
    if mode != ModeKeys.PREDICT:
        model._update_sample_weight_modes(sample_weights)
    ins = None if feed is not None else inputs + (targets or []) + (
        fed_weights(model, sample_weights) if mode != ModeKeys.PREDICT else [])
    if feed is not None:
        num_samples_or_steps = steps_per_epoch
    elif steps_per_epoch:
        num_samples_or_steps = steps_per_epoch
    else:
        num_samples_or_steps = int(ins[0].shape[0])
    f = _function_for(model, mode)
    if feed is None and mode != ModeKeys.PREDICT:   # the weights fed are those the (re)built function takes
        ins = inputs + (targets or []) + fed_weights(model, sample_weights)
    do_validation = val_inputs is not None
    if isinstance(val_inputs, _DatasetFeed):
        val_samples_or_steps = validation_steps or val_inputs.count_steps()
        validation_steps = val_samples_or_steps
    else:
        val_samples_or_steps = val_inputs[0].shape[0] if val_inputs else None
    if mode == ModeKeys.TRAIN and verbose:
        _print_train_info(num_samples_or_steps, val_samples_or_steps, feed is not None)
    count_mode = "steps" if use_steps else "samples"
    callbacks = cbks.configure_callbacks(callbacks, model, do_validation=do_validation, batch_size=batch_size,
                                         epochs=epochs, steps_per_epoch=steps_per_epoch,
                                         samples=num_samples_or_steps, count_mode=count_mode, verbose=verbose,
                                         mode=mode)
    aggregator_cls = _OutputsAggregator if mode == ModeKeys.PREDICT else _MetricsAggregator
    aggregator = aggregator_cls(use_steps, num_samples=None if steps_per_epoch else num_samples_or_steps,
                                steps=steps_per_epoch)
    model.stop_training = False
    callbacks._call_begin_hook(mode)
    results = []
    for epoch in range(initial_epoch, epochs):
        if model.stop_training:
            break
        epoch_logs = {}
        if mode != ModeKeys.PREDICT:
            model.reset_metrics()
        if mode == ModeKeys.TRAIN:
            callbacks.on_epoch_begin(epoch, epoch_logs)
        if use_steps:
            for step in range(steps_per_epoch):
                batch_logs = {"batch": step, "size": 1}
                callbacks._call_batch_hook(mode, "begin", step, batch_logs)
                try:
                    if feed is not None:
                        x, y = feed.next()
                        batch_ins = x + (y + fed_weights(model, []) if mode != ModeKeys.PREDICT else [])
                    else:
                        batch_ins = ins
                except OutOfRangeError:
                    model.stop_training = True
                    _log.warning("Your dataset ran out of data; interrupting training. Make sure that your "
                                 "dataset can generate at least `%s * epochs` batches (in this case, %d batches). "
                                 "You may need to use the repeat() function when building your dataset.",
                                 steps_name, steps_per_epoch * epochs)
                    break
                batch_outs = f(batch_ins + learning_phase)
                if step == 0:
                    aggregator.create(batch_outs)
                aggregator.aggregate(batch_outs)
                batch_logs = cbks.make_logs(model, batch_logs, batch_outs, mode)
                callbacks._call_batch_hook(mode, "end", step, batch_logs)
                if model.stop_training:
                    break
        else:
            index_array = np.arange(num_samples_or_steps)
            if shuffle == "batch":
                index_array = _batch_shuffle(index_array, batch_size)
            elif shuffle:
                np.random.shuffle(index_array)
            batches = _make_batches(num_samples_or_steps, batch_size)
            for batch_index, (start, end) in enumerate(batches):
                batch_ids = index_array[start:end]
                batch_ins = ins if len(batches) == 1 else _slice(ins, batch_ids)
                batch_logs = {"batch": batch_index, "size": len(batch_ids)}
                callbacks._call_batch_hook(mode, "begin", batch_index, batch_logs)
                batch_outs = f(batch_ins + learning_phase)
                if batch_index == 0:
                    aggregator.create(batch_outs)
                aggregator.aggregate(batch_outs, start, end)
                batch_logs = cbks.make_logs(model, batch_logs, batch_outs, mode)
                callbacks._call_batch_hook(mode, "end", batch_index, batch_logs)
                if model.stop_training:
                    break
        aggregator.finalize()
        results = aggregator.results
        epoch_logs = cbks.make_logs(model, epoch_logs, results, mode)
        if len(results) == 1:
            results = results[0]
        if do_validation and _should_validate(validation_freq, epoch) and not model.stop_training:
            # validation batches are shuffled too (tf-keras calls its loop with the default shuffle=True), which
            # draws from numpy's generator between training epochs
            val_results = model_iteration(model, val_inputs, targets=val_targets,
                                          sample_weights=val_sample_weights, batch_size=batch_size,
                                          steps_per_epoch=validation_steps, callbacks=callbacks, verbose=0,
                                          mode=ModeKeys.TEST, steps_name="validation_steps")
            if not isinstance(val_results, list):
                val_results = [val_results]
            epoch_logs = cbks.make_logs(model, epoch_logs, val_results, mode, prefix="val_")
            if isinstance(val_inputs, _DatasetFeed):
                val_inputs.initialize()
        if mode == ModeKeys.TRAIN:
            callbacks.on_epoch_end(epoch, epoch_logs)
        if feed is not None and epoch < epochs - 1:
            feed.initialize()
    callbacks._call_end_hook(mode)
    if mode == ModeKeys.TRAIN:
        return model.history
    return results


def _should_validate(validation_freq, epoch):
    if isinstance(validation_freq, int):
        if validation_freq < 1:
            raise ValueError("`validation_freq` can not be less than 1.")
        return (epoch + 1) % validation_freq == 0
    return epoch + 1 in validation_freq


def _batch_shuffle(index_array, batch_size):
    batch_count = int(len(index_array) / batch_size)
    last_batch = index_array[batch_count * batch_size:]
    index_array = index_array[:batch_count * batch_size].reshape((batch_count, batch_size))
    np.random.shuffle(index_array)
    return np.append(index_array.flatten(), last_batch)


def _batch_size(model, batch_size, steps, x):
    if batch_size is not None and _is_dataset(x):
        raise ValueError("The `batch_size` argument must not be specified for the given input type. Received "
                         "input: {}, batch_size: {}".format(x, batch_size))
    if steps is not None and batch_size is not None and not _is_dataset(x):
        raise ValueError("If steps is set, the `batch_size` must be None.")
    if batch_size is None and steps is None and not _is_dataset(x):
        return 32
    return batch_size


def fit(model, x, y, batch_size=None, epochs=1, verbose=1, callbacks=None, validation_split=0.0,
        validation_data=None, shuffle=True, class_weight=None, sample_weight=None, initial_epoch=0,
        steps_per_epoch=None, validation_steps=None, validation_freq=1):
    batch_size = _batch_size(model, batch_size, steps_per_epoch, x)
    _ensure_compiled(model, x)
    if _is_dataset(x):
        if y is not None:
            raise ValueError("`y` argument is not supported when using dataset as input.")
        inputs, targets = _DatasetFeed(model, x), None
    else:
        inputs, targets, weights = standardize(model, x, y, sample_weight, class_weight)
    val_inputs = val_targets = val_weights = None
    if validation_data:
        if _is_dataset(validation_data):
            val_inputs = _DatasetFeed(model, validation_data)
        else:
            if not isinstance(validation_data, (list, tuple)) or len(validation_data) not in (2, 3):
                raise ValueError("When passing a `validation_data` argument, it must contain either 2 items "
                                 "(x_val, y_val), or 3 items (x_val, y_val, val_sample_weights), or "
                                 "alternatively it could be a dataset or a dataset or a dataset iterator. "
                                 "However we received `validation_data=%s`" % (validation_data,))
            val_inputs, val_targets, val_weights = standardize(
                model, validation_data[0], validation_data[1], validation_data[2] if len(validation_data) == 3 else None)
    elif validation_split and 0.0 < validation_split < 1.0:
        if _is_dataset(x):
            raise ValueError("`validation_split` argument is not supported when input `x` is a dataset or a "
                             "dataset iterator. Received: x=%s, validation_split=%f" % (x, validation_split))
        split_at = int(inputs[0].shape[0] * (1.0 - validation_split))
        if split_at == 0 or split_at == inputs[0].shape[0]:
            raise ValueError("Training data contains {batch_size} samples, which is not sufficient to split it "
                             "into a validation and training set as specified by `validation_split={split}`. "
                             "Either provide more data, or a different value for the `validation_split` "
                             "argument.".format(batch_size=inputs[0].shape[0], split=validation_split))
        inputs, val_inputs = [a[:split_at] for a in inputs], [a[split_at:] for a in inputs]
        targets, val_targets = [a[:split_at] for a in targets], [a[split_at:] for a in targets]
        weights, val_weights = ([None if w is None else w[:split_at] for w in weights],
                                [None if w is None else w[split_at:] for w in weights])
    elif validation_steps:
        raise ValueError("`validation_steps` should not be specified if `validation_data` is None.")
    if _is_dataset(x):
        weights = None
    return model_iteration(model, inputs, targets, sample_weights=weights, batch_size=batch_size, epochs=epochs,
                           verbose=verbose, callbacks=callbacks, val_inputs=val_inputs, val_targets=val_targets,
                           val_sample_weights=val_weights, shuffle=shuffle,
                           initial_epoch=initial_epoch, steps_per_epoch=steps_per_epoch,
                           validation_steps=validation_steps, validation_freq=validation_freq,
                           mode=ModeKeys.TRAIN, steps_name="steps_per_epoch")


def evaluate(model, x, y, batch_size=None, verbose=1, sample_weight=None, steps=None, callbacks=None):
    batch_size = _batch_size(model, batch_size, steps, x)
    if _is_dataset(x):
        inputs, targets = _DatasetFeed(model, x), None
    else:
        inputs, targets, weights = standardize(model, x, y, sample_weight)
    if _is_dataset(x):
        weights = None
    return model_iteration(model, inputs, targets, sample_weights=weights, batch_size=batch_size, verbose=verbose, steps_per_epoch=steps,
                           callbacks=callbacks, mode=ModeKeys.TEST, shuffle=False)


def predict(model, x, batch_size=None, verbose=0, steps=None, callbacks=None):
    batch_size = _batch_size(model, batch_size, steps, x)
    if _is_dataset(x):
        inputs = _DatasetFeed(model, x, with_targets=False)
    else:
        inputs, _, _ = standardize(model, x)
    return model_iteration(model, inputs, batch_size=batch_size, verbose=verbose, steps_per_epoch=steps,
                           callbacks=callbacks, mode=ModeKeys.PREDICT, shuffle=False)


def _ensure_compiled(model, x):
    """A Sequential compiled before it knew its input: build it from the data, then compile for real."""
    if getattr(model, "_is_compiled", False):
        return
    if _is_dataset(x) or not hasattr(model, "_build_for_input"):
        raise RuntimeError("graphlab's Keras needs the model's input shape before training: give the first "
                           "layer input_shape=... (or call the model on an Input) before compile")
    first = _as_list(x, ["input"])[0]
    dtype = "float32" if first.dtype.kind == "f" else first.dtype.name
    # as tf-keras's _set_inputs: a placeholder named input_<n>, the model called on it (its layers' ops and
    # variables under the model's name scope), outputs named output_<n>
    name = K.unique_object_name("input", zero_based=False)
    inputs = K.placeholder(shape=(None,) + first.shape[1:], dtype=dtype, name=name)
    K.learning_phase()  # the model's call asks for it (its layers may take `training`)
    outputs = model(inputs)
    model.inputs, model.outputs = [inputs], outputs if isinstance(outputs, list) else [outputs]
    model.input_names = [name]
    model.output_names = ["output_%d" % (i + 1) for i in range(len(model.outputs))]
    model.built = True
    model.compile(optimizer=model.optimizer, loss=model.loss, metrics=model._compile_metrics,
                  loss_weights=model.loss_weights, sample_weight_mode=model.sample_weight_mode,
                  weighted_metrics=model._compile_weighted_metrics, **model._function_kwargs)
