"""Keras's HDF5 layout for weights, as tf-keras (2.21, legacy h5) writes and reads it through h5py.

A weights group holds the attributes ``layer_names`` (every layer of ``model.layers``), ``backend``
("tensorflow") and ``keras_version``; one subgroup per layer (written in name order) with the attribute
``weight_names`` (the variables' names, ``dense/kernel:0``) and one dataset per weight at that path, so
``dense/kernel:0`` lands in ``dense/dense/kernel:0``; and ``top_level_model_weights`` for a model's own
variables. Weights are listed trainable first, then non-trainable (Keras's legacy order). A whole-model
file puts this group under ``model_weights`` and the optimizer's variables under ``optimizer_weights``.

Loading is topological (the i-th layer with weights in the file goes to the i-th such layer of the model)
or, with ``by_name=True``, by layer name, where ``skip_mismatch`` skips a layer whose weights do not fit.
"""
import logging
import os

import numpy as np

from graphlab.formats import atomic

KERAS_VERSION = "2.21.0"
BACKEND = "tensorflow"
# An HDF5 object header holds at most 64 KiB: longer attribute lists are split into name0, name1, ...
HEADER_LIMIT = 64512

_log = logging.getLogger("graphlab.keras")


def h5py_module():
    try:
        import h5py
    except ImportError:  # pragma: no cover - h5py is a dependency of graphlab
        raise ImportError("HDF5 files need the h5py package: pip install h5py") from None
    return h5py


def is_hdf5_path(filepath):
    return str(filepath).endswith((".h5", ".keras", ".hdf5"))


# --- attributes ---------------------------------------------------------------------------------------

def save_attribute_list(group, name, items):
    """A list of names as an attribute (bytes, as tf-keras passes them), split into chunks if large."""
    data = [s.encode("utf8") if isinstance(s, str) else s for s in items]
    too_big = [x for x in data if len(x) > HEADER_LIMIT]
    if too_big:
        raise RuntimeError("The following attributes cannot be saved to HDF5 file because they are larger "
                           "than %d bytes: %s" % (HEADER_LIMIT, too_big))
    array = np.asarray(data)
    chunks = 1
    parts = np.array_split(array, chunks)
    while any(p.nbytes > HEADER_LIMIT for p in parts):
        chunks += 1
        parts = np.array_split(array, chunks)
    if chunks > 1:
        for i, part in enumerate(parts):
            group.attrs["%s%d" % (name, i)] = part
    else:
        group.attrs[name] = data


def load_attribute_list(group, name):
    """The list saved by save_attribute_list, as str (also from files written in chunks)."""
    def decode(items):
        return [n.decode("utf8") if hasattr(n, "decode") else str(n) for n in items]
    if name in group.attrs:
        return decode(group.attrs[name])
    out, i = [], 0
    while "%s%d" % (name, i) in group.attrs:
        out.extend(decode(group.attrs["%s%d" % (name, i)]))
        i += 1
    return out


def attr_text(group, name):
    value = group.attrs.get(name)
    if value is None:
        return None
    return value.decode("utf8") if hasattr(value, "decode") else str(value)


# --- which weights ------------------------------------------------------------------------------------

def legacy_weights(layer):
    """trainable weights then non-trainable ones: the order Keras's HDF5 files keep."""
    trainable = list(getattr(layer, "trainable_weights", []) or [])
    non_trainable = list(getattr(layer, "non_trainable_weights", []) or [])
    if not trainable and not non_trainable:
        return list(getattr(layer, "weights", []) or [])
    return trainable + non_trainable


def top_level_weights(model):
    """The model's own variables, those none of its layers holds."""
    own = getattr(model, "_trainable_weights", None)
    if own is not None:
        return list(own) + list(getattr(model, "_non_trainable_weights", []) or [])
    in_layers = {id(w) for layer in model.layers for w in legacy_weights(layer)}
    return [w for w in legacy_weights(model) if id(w) not in in_layers]


def _shape(variable):
    shape = variable.shape
    return tuple(shape.as_list()) if hasattr(shape, "as_list") else tuple(shape)


# --- writing ------------------------------------------------------------------------------------------

def _write_subset(group, weights, values):
    names = [w.name for w in weights]
    save_attribute_list(group, "weight_names", names)
    for name, value in zip(names, values):
        value = np.asarray(value)
        dataset = group.create_dataset(name, value.shape, dtype=value.dtype)
        if value.shape:
            dataset[:] = value
        else:
            dataset[()] = value


def save_weights_to_group(group, model, session):
    """Write the model's weights into an open h5py group (a file, or a file's ``model_weights``)."""
    layers = list(model.layers)
    save_attribute_list(group, "layer_names", [layer.name for layer in layers])
    group.attrs["backend"] = BACKEND.encode("utf8")
    group.attrs["keras_version"] = KERAS_VERSION.encode("utf8")
    per_layer = [(layer, legacy_weights(layer)) for layer in sorted(layers, key=lambda l: l.name)]
    top = top_level_weights(model)
    flat = [w for _, ws in per_layer for w in ws] + top
    values = session.run(flat) if flat else []
    i = 0
    for layer, weights in per_layer:
        _write_subset(group.create_group(layer.name), weights, values[i:i + len(weights)])
        i += len(weights)
    _write_subset(group.create_group("top_level_model_weights"), top, values[i:])


def save_optimizer_weights(group, optimizer, session):
    weights = list(getattr(optimizer, "weights", []) or [])
    if not weights:
        return
    sub = group.create_group("optimizer_weights")
    _write_subset(sub, weights, session.run(weights))


def write_file_atomically(filepath, fill):
    """Build the HDF5 file under a temporary name beside ``filepath``, then rename it over the target, so
    a save that fails part-way leaves the previous file as it was."""
    h5py = h5py_module()

    def fill_file(tmp):
        with h5py.File(tmp, "w") as f:
            fill(f)
    atomic.write_through_temporary(filepath, fill_file)


def open_for_reading(filepath):
    """An open h5py File, or an error that names the file and says what is wrong with it."""
    h5py = h5py_module()
    filepath = os.fspath(filepath)
    if not os.path.exists(filepath):
        raise FileNotFoundError("No file or directory found at %s" % filepath)
    if os.path.isdir(filepath):
        raise IsADirectoryError("%s is a directory, not an HDF5 file" % filepath)
    try:
        return h5py.File(filepath, "r")
    except OSError as e:
        raise OSError("Unable to open %s as an HDF5 file (%s): it is not a Keras .h5 file, or it is damaged "
                      "or truncated." % (filepath, e)) from None


# --- reading ------------------------------------------------------------------------------------------

def _read_subset(group, filepath):
    values = []
    for name in load_attribute_list(group, "weight_names"):
        if name not in group:
            raise ValueError("The HDF5 file %s is damaged: group %r lists the weight %r, which it does not "
                             "hold." % (filepath, group.name, name))
        values.append(np.asarray(group[name]))
    return values


def _layer_group(f, name, filepath):
    if name not in f:
        raise ValueError("The HDF5 file %s is damaged: it lists the layer %r but has no group for it."
                         % (filepath, name))
    return f[name]


def weights_group(f):
    """A file's weights: the file itself (save_weights) or its ``model_weights`` (model.save)."""
    if "layer_names" not in f.attrs and "model_weights" in f:
        return f["model_weights"]
    return f


def load_weights_from_group(f, model, filepath):
    """Topological loading: [(variable, value)] to assign; raises tf-keras's mismatch errors."""
    if "layer_names" not in f.attrs and not any(k.startswith("layer_names") for k in f.attrs):
        raise ValueError("%s holds no Keras weights: it has no 'layer_names' attribute (was it written by "
                         "save_weights or model.save?)" % filepath)
    layers = [layer for layer in model.layers if legacy_weights(layer)]
    names = [n for n in load_attribute_list(f, "layer_names")
             if load_attribute_list(_layer_group(f, n, filepath), "weight_names")]
    if len(names) != len(layers):
        raise ValueError("Layer count mismatch when loading weights from file. Model expected %d layers, "
                         "found %d saved layers." % (len(layers), len(names)))
    pairs = []
    for k, (name, layer) in enumerate(zip(names, layers)):
        symbolic = legacy_weights(layer)
        values = _read_subset(f[name], filepath)
        if len(values) != len(symbolic):
            raise ValueError("Weight count mismatch for layer #%d (named %s in the current model, %s in the "
                             "save file). Layer expects %d weight(s). Received %d saved weight(s)"
                             % (k, layer.name, name, len(symbolic), len(values)))
        for w, v in zip(symbolic, values):
            _check_shape(w, v, "layer #%d (named %s)" % (k, layer.name), filepath)
        pairs.extend(zip(symbolic, values))
    if "top_level_model_weights" in f:
        symbolic = top_level_weights(model)
        values = _read_subset(f["top_level_model_weights"], filepath)
        if len(values) != len(symbolic):
            raise ValueError("Weight count mismatch for top-level weights when loading weights from file. "
                             "Model expects %d top-level weight(s). Received %d saved top-level weight(s)"
                             % (len(symbolic), len(values)))
        pairs.extend(zip(symbolic, values))
    return pairs


def _check_shape(variable, value, where, filepath):
    expected = _shape(variable)
    if None not in expected and expected != tuple(value.shape):
        raise ValueError("Shape mismatch in %s for weight %s. Weight expects shape %s. Received saved weight "
                         "with shape %s (from %s)" % (where, variable.name, expected, tuple(value.shape),
                                                      filepath))


def load_weights_from_group_by_name(f, model, filepath, skip_mismatch=False):
    """Name-based loading: layers of the model whose name is in the file get its weights."""
    index = {}
    for layer in model.layers:
        index.setdefault(layer.name, []).append(layer)
    pairs = []
    for k, name in enumerate(load_attribute_list(f, "layer_names")):
        values = _read_subset(_layer_group(f, name, filepath), filepath)
        for layer in index.get(name, []):
            symbolic = legacy_weights(layer)
            if len(values) != len(symbolic):
                message = ("Weight count mismatch for layer #%d (named %s). Layer expects %d weight(s). "
                           "Received %d saved weight(s)" % (k, layer.name, len(symbolic), len(values)))
                if skip_mismatch:
                    _log.warning("Skipping loading of weights for layer #%d (named %s) due to mismatch in "
                                 "number of weights. Layer expects %d weight(s). Received %d saved "
                                 "weight(s)", k, layer.name, len(symbolic), len(values))
                    continue
                raise ValueError(message)
            for w, v in zip(symbolic, values):
                expected = _shape(w)
                if None not in expected and expected != tuple(v.shape):
                    if skip_mismatch:
                        _log.warning("Skipping loading weights for layer #%d (named %s) due to mismatch in "
                                     "shape for weight %s. Weight expects shape %s. Received saved weight "
                                     "with shape %s", k, layer.name, w.name, expected, tuple(v.shape))
                        continue
                    raise ValueError("Shape mismatch in layer #%d (named %s) for weight %s. Weight expects "
                                     "shape %s. Received saved weight with shape %s"
                                     % (k, layer.name, w.name, expected, tuple(v.shape)))
                pairs.append((w, v))
    if "top_level_model_weights" in f:
        symbolic = top_level_weights(model)
        values = _read_subset(f["top_level_model_weights"], filepath)
        if len(values) != len(symbolic):
            if not skip_mismatch:
                raise ValueError("Weight count mismatch for top-level weights of model. Model expects %d "
                                 "top-level weight(s). Received %d saved top-level weight(s)"
                                 % (len(symbolic), len(values)))
            _log.warning("Skipping loading top-level weights for model due to mismatch in number of weights.")
        else:
            for w, v in zip(symbolic, values):
                expected = _shape(w)
                if None not in expected and expected != tuple(v.shape):
                    if skip_mismatch:
                        continue
                    raise ValueError("Shape mismatch in model for top-level weight %s. Weight expects shape "
                                     "%s. Received saved weight with shape %s" % (w.name, expected,
                                                                                  tuple(v.shape)))
                pairs.append((w, v))
    return pairs
