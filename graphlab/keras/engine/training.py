"""What ``compile``, ``fit``, ``evaluate``, ``predict`` and the ``*_on_batch`` methods build and run.

``TrainingMixin`` gives a Model those methods; the Model class itself (layers, inputs, outputs, weights) is
in the engine's functional module, so building a model and training it can be read apart.

As tf-keras's graph-mode (v1) training does it:
* ``compile`` adds, for each output, a target placeholder ``<output>_target``; the metric variables
  (``total``, ``count``) and their update ops under ``metrics/<name>/``; the loss under
  ``loss/<output>_loss/`` (per-sample values, ``weighted_loss/`` by 1.0, the mean as ``value``) times its
  weight (``loss/mul``). No training op yet.
* the first ``fit`` (or ``train_on_batch``) builds the training ops lazily under ``training/``: the
  optimizer's gradients, variables and updates, then a ``K.function`` that feeds inputs, targets and the
  learning phase (True) and fetches the loss and metric results; ``evaluate`` builds one under
  ``evaluation/`` and ``predict`` one under ``predict/``.
Every run happens in Keras's session (``K.get_session()``), which initializes the variables it knows.
"""
from graphlab.framework.graph import name_scope
from graphlab.keras import backend as K
from graphlab.keras import losses as losses_mod
from graphlab.keras import metrics as metrics_mod
from graphlab.keras import optimizers as optimizers_mod
from graphlab.keras.engine import training_arrays
from graphlab.keras.losses import LossFunctionWrapper, Reduction
from graphlab.ops import array_ops, math_ops


class _Endpoint:
    """One model output in training: its loss function, weight, target placeholder, sample weights."""

    def __init__(self, output, output_name, loss_fn):
        self.output = output
        self.output_name = output_name
        self.loss_fn = loss_fn
        self.loss_weight = 1.0
        self.target = None
        self.sample_weight = None
        self.sample_weight_mode = None
        self.output_loss_metric = None

    def loss_name(self):
        return self.output_name + "_loss" if self.loss_fn is not None else None

    def should_skip_target(self):
        return self.loss_fn is None

    def feed_output_shape(self):
        """The target shape ``fit`` checks arrays against (None: not checked, as for custom losses)."""
        shape = tuple(self.output.shape.as_list())
        fn = self.loss_fn
        if isinstance(fn, losses_mod.SparseCategoricalCrossentropy) or (
                isinstance(fn, LossFunctionWrapper) and fn.fn is losses_mod.sparse_categorical_crossentropy):
            return shape[:-1] + (1,)
        if not isinstance(fn, losses_mod.Loss) or (isinstance(fn, LossFunctionWrapper)
                                                   and getattr(losses_mod, fn.fn.__name__, None) is None):
            return None
        return shape


def _loss_function(loss):
    """A compile loss as a Loss object: names and functions are wrapped with SUM_OVER_BATCH_SIZE."""
    if loss is None or isinstance(loss, losses_mod.Loss):
        return loss
    if isinstance(loss, type) and issubclass(loss, losses_mod.Loss):
        raise ValueError("Received uninstantiated Loss class: {}\nPlease call loss classes before passing them "
                         "to Model.compile.".format(loss))
    if callable(loss) and not hasattr(loss, "__name__"):
        return loss
    fn = losses_mod.get(loss)
    return LossFunctionWrapper(fn, name=fn.__name__, reduction=Reduction.SUM_OVER_BATCH_SIZE)


def _loss_functions(loss, output_names):
    if isinstance(loss, dict):
        unknown = [k for k in loss if k not in output_names]
        if unknown:
            raise ValueError("Unknown entries in loss dictionary: {}. Only expected following keys: {}"
                             .format(unknown, output_names))
        return [_loss_function(loss.get(name)) for name in output_names]
    if isinstance(loss, str):
        return [_loss_function(loss) for _ in output_names]
    if isinstance(loss, (list, tuple)):
        if len(loss) != len(output_names):
            raise ValueError("When passing a list as loss, it should have one entry per model outputs. The model "
                             "has {} outputs, but you passed loss={}".format(len(output_names), loss))
        return [_loss_function(item) for item in loss]
    return [_loss_function(loss) for _ in output_names]


def _metric_name(metric, weighted=False):
    prefix = "weighted_" if weighted else ""
    if metric in ("accuracy", "acc"):
        return prefix + "acc"
    if metric in ("crossentropy", "ce"):
        return prefix + "ce"
    fn = metrics_mod.get(metric)
    return prefix + (fn.name if hasattr(fn, "name") else fn.__name__)


def _metric_function(metric, output_shape, loss_fn):
    """'accuracy' and 'crossentropy' resolve by the loss and the output's last dimension, as in tf-keras."""
    if metric not in ("accuracy", "acc", "crossentropy", "ce"):
        return metrics_mod.get(metric)
    sparse = isinstance(loss_fn, losses_mod.SparseCategoricalCrossentropy) or (
        isinstance(loss_fn, LossFunctionWrapper) and loss_fn.fn is losses_mod.sparse_categorical_crossentropy)
    binary = isinstance(loss_fn, losses_mod.BinaryCrossentropy) or (
        isinstance(loss_fn, LossFunctionWrapper) and loss_fn.fn is losses_mod.binary_crossentropy)
    if metric in ("accuracy", "acc"):
        if output_shape[-1] == 1 or binary:
            return metrics_mod.binary_accuracy
        return metrics_mod.sparse_categorical_accuracy if sparse else metrics_mod.categorical_accuracy
    if output_shape[-1] == 1 or binary:
        return metrics_mod.binary_crossentropy
    return metrics_mod.sparse_categorical_crossentropy if sparse else metrics_mod.categorical_crossentropy


class TrainingMixin:
    """compile/fit/evaluate/predict for a Keras Model in graph mode."""

    # ------------------------------------------------------------------------------------------ compile
    def compile(self, optimizer="rmsprop", loss=None, metrics=None, loss_weights=None, sample_weight_mode=None,
                weighted_metrics=None, target_tensors=None, distribute=None, **kwargs):
        """Choose the optimizer, losses and metrics, and build the loss and metric ops (not the training
        ops: those come with the first fit)."""
        kwargs.pop("run_eagerly", None)
        kwargs.pop("experimental_run_tf_function", None)
        unknown = set(kwargs) - {"feed_dict", "fetches", "options", "run_metadata"}
        if unknown:
            raise TypeError(f"Invalid keyword argument(s) in `compile`: {unknown}")
        if distribute is not None:
            raise NotImplementedError("graphlab's Keras does not distribute training (distribute=...)")
        if target_tensors is not None:
            raise NotImplementedError("graphlab's Keras compile does not take target_tensors")
        self._function_kwargs = kwargs
        self.optimizer = optimizers_mod.get(optimizer)
        self.loss = loss or {}
        self.loss_weights = loss_weights
        self.sample_weight_mode = sample_weight_mode
        self._compile_metrics = metrics or []
        self._compile_weighted_metrics = weighted_metrics
        self._compile_metric_functions = []
        self._training_endpoints = []
        self.train_function = self.test_function = self.predict_function = None
        self._v1_compile_was_called = True
        if not getattr(self, "built", False) or not self.inputs or not self.outputs:
            self._is_compiled = False   # compiled again when fit sees the data and builds the model
            return
        self._is_compiled = True
        self.loss_functions = _loss_functions(self.loss, self.output_names)
        for output, name, fn in zip(self.outputs, self.output_names, self.loss_functions):
            endpoint = _Endpoint(output, name, fn)
            if fn is not None:
                endpoint.target = K.placeholder(ndim=output.shape.ndims, name=name + "_target",
                                                dtype=output.dtype.base_dtype.name)
            self._training_endpoints.append(endpoint)
        self._set_loss_weights(loss_weights)
        graph = K.get_graph()
        with graph.as_default():
            self._per_output_metrics = self._collect_metrics(metrics)
            self._per_output_weighted_metrics = self._collect_metrics(weighted_metrics, weighted=True)
            self._set_metric_attributes()
            self._handle_metrics(self._per_output_metrics)
            for e in self._training_endpoints:
                e.sample_weight_mode = sample_weight_mode if not isinstance(sample_weight_mode, dict) else \
                    sample_weight_mode.get(e.output_name)
            self._compile_weights_loss_and_weighted_metrics()
        self._collected_trainable_weights = self.trainable_weights

    def _compile_weights_loss_and_weighted_metrics(self):
        """Sample-weight placeholders (when a mode asks for them), the weighted metrics and the loss: built
        by compile, and again (``metrics_<n>/``, ``loss_<n>/``) when fit first brings sample weights."""
        with K.get_graph().as_default():
            for e in self._training_endpoints:
                self._populate_sample_weight(e)
            self._handle_metrics(self._per_output_weighted_metrics, weighted=True)
            self.total_loss = self._prepare_total_loss()

    @staticmethod
    def _populate_sample_weight(e):
        if e.should_skip_target() or e.sample_weight_mode is None:
            e.sample_weight = None
            return
        if e.sample_weight is not None:
            return
        if e.sample_weight_mode not in ("samplewise", "temporal"):
            raise ValueError('"sample_weight_mode should be None or "temporal". Found: ' + str(e.sample_weight_mode))
        temporal = e.sample_weight_mode == "temporal"
        default = K.constant([[1.0]] if temporal else [1.0])
        e.sample_weight = array_ops.placeholder_with_default(default, shape=[None, None] if temporal else [None],
                                                             name=e.output_name + "_sample_weights")

    def _update_sample_weight_modes(self, sample_weights=None):
        """Sample weights given: each output's mode becomes 'samplewise' (unless set); none: back to None."""
        if not getattr(self, "_is_compiled", False):
            return
        if sample_weights and any(w is not None for w in sample_weights):
            for e in self._training_endpoints:
                e.sample_weight_mode = e.sample_weight_mode or "samplewise"
        else:
            for e in self._training_endpoints:
                e.sample_weight_mode = None

    def _recompile_weights_loss_and_weighted_metrics(self):
        mismatch = any((e.sample_weight_mode is not None and e.sample_weight is None)
                       or (e.sample_weight_mode is None and e.sample_weight is not None)
                       for e in self._training_endpoints if not e.should_skip_target())
        if mismatch:
            self._compile_weights_loss_and_weighted_metrics()
        return mismatch

    def _set_loss_weights(self, loss_weights):
        endpoints = self._training_endpoints
        if loss_weights is None:
            return
        if isinstance(loss_weights, dict):
            for e in endpoints:
                e.loss_weight = loss_weights.get(e.output_name, 1.0)
        elif isinstance(loss_weights, list):
            if len(loss_weights) != len(endpoints):
                raise ValueError("When passing a list as loss_weights, it should have one entry per model output. "
                                 "The model has " + str(len(endpoints)) + " outputs, but you passed loss_weights="
                                 + str(loss_weights))
            for w, e in zip(loss_weights, endpoints):
                e.loss_weight = w
        else:
            raise TypeError("Could not interpret loss_weights argument: " + str(loss_weights)
                            + " - expected a list of dicts.")

    def _collect_metrics(self, metrics, weighted=False):
        """Per output, an ordered {name: metric object}; functions become MeanMetricWrappers."""
        names = self.output_names
        if not metrics:
            return [{} for _ in names]
        if isinstance(metrics, dict):
            nested = [list(metrics.get(n, [])) if isinstance(metrics.get(n, []), (list, tuple))
                      else [metrics[n]] for n in names]
        elif any(isinstance(m, (list, tuple)) for m in metrics):
            nested = [list(m) if isinstance(m, (list, tuple)) else [m] for m in metrics]
        elif len(names) > 1:
            nested = [[m if isinstance(m, str) or not isinstance(m, metrics_mod.Metric) else
                       type(m).from_config(m.get_config()) for m in metrics] for _ in names]
        else:
            nested = [list(metrics)]
        result = []
        for i, output_metrics in enumerate(nested):
            shape = self.outputs[i].shape.as_list()
            table = {}
            for metric in output_metrics:
                name = _metric_name(metric, weighted)
                fn = _metric_function(metric, shape, self.loss_functions[i])
                if not isinstance(fn, metrics_mod.Metric):
                    fn = metrics_mod.MeanMetricWrapper(fn, name=name)
                table[name] = fn
            result.append(table)
        return result

    def _set_metric_attributes(self):
        for tables in (self._per_output_metrics, self._per_output_weighted_metrics):
            for i, table in enumerate(tables):
                if self._training_endpoints[i].should_skip_target():
                    continue
                renamed = {}
                for name, fn in table.items():
                    name = self._unique_metric_name(name, i)
                    fn.name = name
                    renamed[name] = fn
                    self._compile_metric_functions.append(fn)
                tables[i] = renamed
        if len(self._training_endpoints) > 1:
            for e in self._training_endpoints:
                if not e.should_skip_target():
                    e.output_loss_metric = metrics_mod.Mean(name=e.loss_name())

    def _unique_metric_name(self, name, output_index):
        if len(self.output_names) > 1:
            name = "%s_%s" % (self.output_names[output_index], name)
        base, j = name, 1
        while name in self.metrics_names:
            name = "%s_%d" % (base, j)
            j += 1
        return name

    def _handle_metrics(self, per_output, weighted=False):
        with name_scope("metrics"):
            for i, e in enumerate(self._training_endpoints):
                if e.should_skip_target():
                    continue
                for name, fn in per_output[i].items():
                    with name_scope(name):
                        fn._call_result = fn(e.target, e.output, sample_weight=e.sample_weight if weighted else None)

    def _prepare_total_loss(self):
        loss_list = []
        with name_scope("loss"):
            for e in self._training_endpoints:
                if e.should_skip_target():
                    continue
                with name_scope(e.loss_name()):
                    fn = e.loss_fn
                    if hasattr(fn, "reduction"):
                        per_sample = fn.call(e.target, e.output)
                        weighted = losses_mod.compute_weighted_loss(per_sample, sample_weight=e.sample_weight,
                                                                    reduction=Reduction.NONE)
                        reduction = fn.reduction
                        if reduction == Reduction.AUTO:
                            reduction = Reduction.SUM_OVER_BATCH_SIZE
                        output_loss = losses_mod.reduce_weighted_loss(weighted, reduction=reduction)
                    else:
                        output_loss = fn(e.target, e.output, sample_weight=e.sample_weight)
                if len(self.outputs) > 1:
                    e._loss_metric_result = e.output_loss_metric(output_loss)
                loss_list.append(e.loss_weight * output_loss)
            custom = list(self.losses)
            if not loss_list and not custom:
                raise ValueError("The model cannot be compiled because it has no loss to optimize.")
            if custom:
                loss_list.append(custom[0] if len(custom) == 1 else math_ops.add_n(custom))
            if not loss_list:
                return 0.0
            return loss_list[0] if len(loss_list) == 1 else math_ops.add_n(loss_list)

    # ---------------------------------------------------------------------------------------- metrics
    @property
    def metrics(self):
        """The metric objects compile made (per-output loss means first when there are several outputs)."""
        if not getattr(self, "_is_compiled", False):
            return []
        return list(self._compile_metric_functions)

    @property
    def metrics_names(self):
        names = ["loss"]
        if getattr(self, "_is_compiled", False):
            if len(self._training_endpoints) > 1:
                names += [e.loss_name() for e in self._training_endpoints if not e.should_skip_target()]
            names += [m.name for m in self.metrics]
        return names

    def _training_eval_metrics(self):
        output_loss = [e.output_loss_metric for e in getattr(self, "_training_endpoints", [])
                       if e.output_loss_metric is not None]
        return output_loss + self.metrics

    def _metric_results(self):
        results = [e._loss_metric_result for e in self._training_endpoints if e.output_loss_metric is not None]
        return results + [m._call_result for m in self.metrics if hasattr(m, "_call_result")]

    def reset_metrics(self):
        """Set the compiled metrics' totals back to 0 (fit does so at each epoch's start)."""
        for m in self._training_eval_metrics():
            m.reset_state()

    # ------------------------------------------------------------------------------- the functions
    @property
    def _feed_inputs(self):
        return list(self.inputs)

    @property
    def _feed_targets(self):
        return [e.target for e in self._training_endpoints if not e.should_skip_target()]

    @property
    def _feed_sample_weights(self):
        return [e.sample_weight for e in self._training_endpoints if e.sample_weight is not None]

    def _assert_compile_was_called(self):
        if not getattr(self, "_v1_compile_was_called", False):
            raise RuntimeError("You must compile your model before training/testing. Use "
                               "`model.compile(optimizer, loss)`.")

    def _learning_phase_feed(self):
        phase = K.learning_phase()
        return [] if isinstance(phase, int) else [phase]

    def _make_train_function(self):
        recompiled = self._recompile_weights_loss_and_weighted_metrics()
        if self.train_function is not None and not recompiled:
            return
        inputs = self._feed_inputs + self._feed_targets + self._feed_sample_weights + self._learning_phase_feed()
        with K.get_graph().as_default():
            with name_scope("training"):
                updates = self.optimizer.get_updates(params=self._collected_trainable_weights,
                                                     loss=self.total_loss)
                updates += list(self.updates)
        with name_scope("training"):
            self.train_function = K.function(inputs, [self.total_loss] + self._metric_results(), updates=updates,
                                             name="train_function", **self._function_kwargs)

    def _make_test_function(self):
        recompiled = self._recompile_weights_loss_and_weighted_metrics()
        if self.test_function is not None and not recompiled:
            return
        inputs = self._feed_inputs + self._feed_targets + self._feed_sample_weights
        with name_scope("evaluation"):
            self.test_function = K.function(inputs, [self.total_loss] + self._metric_results(),
                                            updates=self.state_updates, name="test_function",
                                            **self._function_kwargs)

    def _make_predict_function(self):
        if getattr(self, "predict_function", None) is not None:
            return
        with name_scope("predict"):
            self.predict_function = K.function(self._feed_inputs, list(self.outputs), updates=self.state_updates,
                                               name="predict_function",
                                               **getattr(self, "_function_kwargs", {}))

    # ------------------------------------------------------------------------------- running
    def fit(self, x=None, y=None, batch_size=None, epochs=1, verbose=1, callbacks=None, validation_split=0.0,
            validation_data=None, shuffle=True, class_weight=None, sample_weight=None, initial_epoch=0,
            steps_per_epoch=None, validation_steps=None, validation_freq=1, max_queue_size=10, workers=1,
            use_multiprocessing=False, **kwargs):
        """Train for ``epochs`` on numpy arrays (in batches) or a tf.data Dataset; returns the History."""
        if "nb_epoch" in kwargs:
            epochs = kwargs.pop("nb_epoch")
        if kwargs:
            raise TypeError("Unrecognized keyword arguments: " + str(kwargs))
        self._assert_compile_was_called()
        return training_arrays.fit(self, x, y, batch_size=batch_size, epochs=epochs, verbose=verbose,
                                   callbacks=callbacks, validation_split=validation_split,
                                   validation_data=validation_data, shuffle=shuffle, class_weight=class_weight,
                                   sample_weight=sample_weight, initial_epoch=initial_epoch,
                                   steps_per_epoch=steps_per_epoch, validation_steps=validation_steps,
                                   validation_freq=validation_freq)

    def evaluate(self, x=None, y=None, batch_size=None, verbose=1, sample_weight=None, steps=None, callbacks=None,
                 max_queue_size=10, workers=1, use_multiprocessing=False):
        """The loss (and metrics) over the data: a scalar, or a list in ``metrics_names`` order."""
        self._assert_compile_was_called()
        return training_arrays.evaluate(self, x, y, batch_size=batch_size, verbose=verbose,
                                        sample_weight=sample_weight, steps=steps, callbacks=callbacks)

    def predict(self, x, batch_size=None, verbose=0, steps=None, callbacks=None, max_queue_size=10, workers=1,
                use_multiprocessing=False):
        """The outputs for ``x``, computed in batches (32 by default) and concatenated."""
        return training_arrays.predict(self, x, batch_size=batch_size, verbose=verbose, steps=steps,
                                       callbacks=callbacks)

    def train_on_batch(self, x, y=None, sample_weight=None, class_weight=None, reset_metrics=True):
        """One training step on one batch; returns the loss (and metrics)."""
        self._assert_compile_was_called()
        x, y, sample_weights = training_arrays.standardize(self, x, y, sample_weight, class_weight)
        self._update_sample_weight_modes(sample_weights)
        self._make_train_function()
        ins = x + y + training_arrays.fed_weights(self, sample_weights) + [True] * len(self._learning_phase_feed())
        outputs = self.train_function(ins)
        if reset_metrics:
            self.reset_metrics()
        return outputs[0] if len(outputs) == 1 else outputs

    def test_on_batch(self, x, y=None, sample_weight=None, reset_metrics=True):
        """The loss (and metrics) of one batch, without training."""
        self._assert_compile_was_called()
        x, y, sample_weights = training_arrays.standardize(self, x, y, sample_weight)
        self._update_sample_weight_modes(sample_weights)
        self._make_test_function()
        outputs = self.test_function(x + y + training_arrays.fed_weights(self, sample_weights))
        if reset_metrics:
            self.reset_metrics()
        return outputs[0] if len(outputs) == 1 else outputs

    def predict_on_batch(self, x):
        """The outputs for one batch."""
        inputs, _, _ = training_arrays.standardize(self, x)
        self._make_predict_function()
        outputs = self.predict_function(inputs)
        return outputs[0] if len(outputs) == 1 else outputs

    def _get_callback_model(self):
        return self

