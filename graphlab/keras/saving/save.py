"""``tf.keras.models.save_model`` / ``load_model``: a whole model in one HDF5 file, or a SavedModel.

An HDF5 model file holds, as tf-keras writes it: the attributes ``backend``, ``keras_version``,
``model_config`` (the architecture as JSON) and, for a compiled model, ``training_config`` (loss, metrics,
the optimizer's class and config); the weights under ``model_weights`` (hdf5_format.py's layout); and the
optimizer's variables under ``optimizer_weights``. Under TF1 behaviour ``model.save(path)`` writes HDF5
whatever the path's extension; ``save_format='tf'`` writes a SavedModel (saved_model_export.py).

``load_model`` rebuilds the model from ``model_config`` (model_config.py, which refuses code in a file),
sets its weights, and compiles it from ``training_config`` when asked.
"""
import json
import logging
import os

from graphlab.keras.saving import (hdf5_format, keras_metadata, model_config, saved_model_export,
                                   session_access, tf_checkpoint)

_log = logging.getLogger("graphlab.keras")


def save_format_of(filepath, save_format):
    """'h5' or 'tf' as tf-keras picks it with TF2 behaviour disabled (HDF5 unless asked otherwise)."""
    if save_format:
        fmt = str(save_format)
        if fmt in ("h5", "hdf5", "keras", "keras_v3"):
            return "h5"
        if fmt in ("tf", "tensorflow"):
            return "tf"
        raise ValueError("Unknown `save_format` argument. Expected one of 'keras', 'tf', or 'h5'. Received: "
                         "save_format=%s" % save_format)
    return "h5"


# --- training config ----------------------------------------------------------------------------------

def _serialize(value):
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    if isinstance(value, dict):
        return {k: _serialize(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_serialize(v) for v in value]
    if hasattr(value, "get_config"):
        return {"class_name": type(value).__name__, "config": value.get_config()}
    name = getattr(value, "__name__", None)
    if name:
        return name
    raise TypeError("Cannot save %r in the training configuration" % (value,))


def _compile_args(model):
    """The arguments ``compile`` was given: Model._get_compile_args where the engine offers it, else the
    attributes compile stores (loss, _compile_metrics, loss_weights, sample_weight_mode,
    _compile_weighted_metrics)."""
    getter = getattr(model, "_get_compile_args", None)
    if getter is not None:
        return dict(getter(user_metrics=False))
    return {"loss": getattr(model, "loss", None), "metrics": getattr(model, "_compile_metrics", None),
            "loss_weights": getattr(model, "loss_weights", None),
            "sample_weight_mode": getattr(model, "sample_weight_mode", None),
            "weighted_metrics": getattr(model, "_compile_weighted_metrics", None)}


def training_config(model):
    """The compile arguments tf-keras stores, or None for a model that was not compiled (or was compiled
    with a ``tf.train`` optimizer, whose state tf-keras does not save either)."""
    optimizer = getattr(model, "optimizer", None)
    compiled = getattr(model, "_v1_compile_was_called", None)
    if compiled is None:
        compiled = getattr(model, "_compile_was_called", False)
    if optimizer is None or not compiled:
        return None
    if type(optimizer).__name__ == "TFOptimizer":
        _log.warning("TensorFlow optimizers do not make it possible to access optimizer attributes or optimizer "
                     "state after instantiation. As a result, we cannot save the optimizer as part of the model "
                     "save file. You will have to compile your model again after loading it. Prefer using a "
                     "TF-Keras optimizer instead (see keras.io/optimizers).")
        return None
    args = _compile_args(model)
    args.pop("optimizer", None)
    config = {key: _serialize(args.get(key) if args.get(key) != {} else None) for key in
              ("loss", "metrics", "loss_weights", "sample_weight_mode", "weighted_metrics")}
    config["optimizer_config"] = {"class_name": type(optimizer).__name__, "config": optimizer.get_config()}
    return config


def _compile_from(model, config, source):
    try:
        from graphlab.keras import optimizers
    except ImportError:
        _log.warning("%s holds a training configuration, but tf.keras.optimizers is not available: the model "
                     "was not compiled. Compile it manually.", source)
        return False
    optimizer = optimizers.deserialize(config["optimizer_config"])
    kwargs = {k: config.get(k) for k in ("loss", "metrics", "loss_weights", "sample_weight_mode",
                                         "weighted_metrics") if config.get(k) is not None}
    model.compile(optimizer=optimizer, **kwargs)
    return True


# --- HDF5 -------------------------------------------------------------------------------------------

def save_model_to_hdf5(model, filepath, include_optimizer, session):
    if not getattr(model, "_is_graph_network", False) and type(model).__name__ not in ("Sequential",):
        raise NotImplementedError(
            "Saving the model to HDF5 format requires the model to be a Functional model or a Sequential model. "
            "It does not work for subclassed models, because such models are defined via the body of a Python "
            "method, which isn't safely serializable. Consider saving to the Tensorflow SavedModel format (by "
            'setting save_format="tf") or using `save_weights`.')
    config_json = model_config.dumps(model_config.model_config(model)).encode("utf8")
    train_config = training_config(model) if include_optimizer else None

    def fill(f):
        f.attrs["keras_version"] = hdf5_format.KERAS_VERSION
        f.attrs["backend"] = hdf5_format.BACKEND
        f.attrs["model_config"] = config_json
        if train_config is not None:
            f.attrs["training_config"] = model_config.dumps(train_config).encode("utf8")
        hdf5_format.save_weights_to_group(f.create_group("model_weights"), model, session)
        if train_config is not None:
            hdf5_format.save_optimizer_weights(f, model.optimizer, session)

    hdf5_format.write_file_atomically(filepath, fill)


def load_model_from_hdf5(filepath, custom_objects=None, compile=True):
    with hdf5_format.open_for_reading(filepath) as f:
        text = hdf5_format.attr_text(f, "model_config")
        if text is None:
            raise ValueError("No model config found in the file at %s. (A file written by save_weights holds "
                             "only weights: build the model in code and call model.load_weights.)" % filepath)
        try:
            config = json.loads(text)
        except ValueError as e:
            raise ValueError("The model config in %s is not valid JSON: %s" % (filepath, e)) from None
        model = model_config.model_from_config(config, custom_objects, source=filepath)
        session = session_access.get_session()
        if "model_weights" not in f:
            raise ValueError("%s has a model config but no model_weights group: it is damaged." % filepath)
        pairs = hdf5_format.load_weights_from_group(f["model_weights"], model, filepath)
        tf_checkpoint.assign(pairs, session)
        text = hdf5_format.attr_text(f, "training_config")
        if not compile:
            return model
        if text is None:
            _log.warning("No training configuration found in the save file, so the model was *not* compiled. "
                         "Compile it manually.")
            return model
        try:
            train_config = json.loads(text)
        except ValueError as e:
            raise ValueError("The training config in %s is not valid JSON: %s" % (filepath, e)) from None
        if not _compile_from(model, train_config, filepath):
            return model
        if "optimizer_weights" in f:
            _restore_optimizer(model, f["optimizer_weights"], filepath, session)
    return model


def _restore_optimizer(model, group, filepath, session):
    names = hdf5_format.load_attribute_list(group, "weight_names")
    import numpy as np
    values = [np.asarray(group[n]) for n in names if n in group]
    optimizer = model.optimizer
    create = getattr(optimizer, "_create_all_weights", None)
    try:
        if create is not None:
            create(model.trainable_weights)
        weights = list(getattr(optimizer, "weights", []) or [])
        if len(weights) != len(values):
            raise ValueError("%d optimizer weights, %d saved" % (len(weights), len(values)))
        tf_checkpoint.assign(list(zip(weights, values)), session)
    except (ValueError, AttributeError, NotImplementedError) as e:
        _log.warning("Error in loading the saved optimizer state from %s (%s). As a result, your model is "
                     "starting with a freshly initialized optimizer.", filepath, e)


# --- public -----------------------------------------------------------------------------------------

def save_model(model, filepath, overwrite=True, include_optimizer=True, save_format=None, signatures=None,
               options=None, save_traces=True):
    filepath = os.fspath(filepath)
    fmt = save_format_of(filepath, save_format)
    session = session_access.get_session()
    if fmt == "tf":
        saved_model_export.save(model, filepath, session,
                                training_config(model) if include_optimizer else None)
    else:
        save_model_to_hdf5(model, filepath, include_optimizer, session)


def load_model(filepath, custom_objects=None, compile=True, options=None, safe_mode=True):
    """A model saved by model.save (graphlab's or tf-keras's HDF5), rebuilt in the default graph."""
    filepath = os.fspath(filepath)
    if not os.path.exists(filepath):
        raise OSError("No file or directory found at %s" % filepath)
    if os.path.isdir(filepath):
        return load_model_from_saved_model(filepath, custom_objects=custom_objects, compile=compile)
    return load_model_from_hdf5(filepath, custom_objects=custom_objects, compile=compile)


def load_model_from_saved_model(export_dir, custom_objects=None, compile=True):
    """A Keras SavedModel (graphlab's or tf-keras's): the model rebuilt from keras_metadata.pb's config,
    its weights from variables/variables by the object graph, compiled from its training config."""
    if not os.path.isfile(os.path.join(export_dir, "saved_model.pb")):
        raise OSError("%s is a directory without saved_model.pb: not a SavedModel" % export_dir)
    meta = keras_metadata.read_root(export_dir)
    config = {"class_name": meta.get("class_name"), "config": meta.get("config")}
    model = model_config.model_from_config(config, custom_objects,
                                           source=os.path.join(export_dir, keras_metadata.FILENAME))
    session = session_access.get_session()
    tf_checkpoint.load(model, os.path.join(export_dir, "variables", "variables"), session)
    if compile and meta.get("training_config"):
        _compile_from(model, meta["training_config"], export_dir)
    elif compile:
        _log.warning("No training configuration found in save file, so the model was *not* compiled. "
                     "Compile it manually.")
    return model
