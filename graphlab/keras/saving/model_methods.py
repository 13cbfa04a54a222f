"""``save_weights``, ``load_weights`` and ``save`` of a Keras Model.

``SavingMixin`` gives a Model those methods; the file formats are in the modules beside this one. Which
format a path gets follows tf-keras under TF1 behaviour: ``save_weights`` writes HDF5 for ``.h5``/``.keras``/
``.hdf5`` and a TF checkpoint otherwise; ``save`` writes HDF5 unless ``save_format='tf'`` asks for a SavedModel
(TF 1.x's default is h5, also for a path without an extension).
"""
import os

from graphlab.keras.saving import hdf5_format, save as save_mod, session_access, tf_checkpoint


def weights_format(filepath, save_format):
    """'h5' or 'tf' for save_weights, with tf-keras's errors for an unknown or contradictory format."""
    is_h5 = hdf5_format.is_hdf5_path(filepath)
    if save_format is None:
        return "h5" if is_h5 else "tf"
    fmt = str(save_format).lower().strip()
    if fmt in ("tensorflow", "tf"):
        fmt = "tf"
    elif fmt in ("hdf5", "h5", "keras"):
        fmt = "h5"
    else:
        raise ValueError('Unknown format. Received: `save_format`=%s. Was expecting one of {"tf", "h5"}.'
                         % (save_format,))
    if fmt == "tf" and is_h5:
        raise ValueError('save_weights got save_format="tf"/"tensorflow", but the filepath (%s) looks like an '
                         'HDF5 file. Omit the ".h5"/".keras" when saving in TensorFlow format.' % filepath)
    return fmt


def detect_load_format(filepath):
    """(path, 'h5' | 'tf') for load_weights: a checkpoint prefix, a SavedModel's variables, else HDF5."""
    if hdf5_format.is_hdf5_path(filepath):
        return filepath, "h5"
    if tf_checkpoint.is_readable(filepath):
        return filepath, "tf"
    if os.path.isdir(filepath) and os.path.exists(os.path.join(filepath, "saved_model.pb")):
        inner = os.path.join(filepath, "variables", "variables")
        if tf_checkpoint.is_readable(inner):
            return inner, "tf"
        raise ValueError("Unable to load weights. filepath %s appears to be a SavedModel directory, but "
                         "checkpoint either doesn't exist, or is incorrectly formatted." % filepath)
    if os.path.isfile(filepath):
        return filepath, "h5"
    # Neither a checkpoint nor a file: TF's checkpoint reader's words.
    tf_checkpoint.open_reader(filepath)
    return filepath, "tf"


def assert_weights_created(model):
    """tf-keras's check before saving: a model whose class defines build() must have been built."""
    from graphlab.keras.engine.functional import Model
    cls = type(model)
    if "build" in cls.__dict__ and cls is not Model and not getattr(model, "built", False):
        raise ValueError("Weights for model '%s' have not yet been created. Weights are created when the model is "
                         "first called on inputs or `build()` is called with an `input_shape`." % model.name)


class SavingMixin:
    """save_weights/load_weights/save for a Keras Model in graph mode."""

    def save_weights(self, filepath, overwrite=True, save_format=None, options=None):
        """Write the weights as a TF checkpoint (prefix) or an HDF5 file (``.h5``), as tf-keras does."""
        assert_weights_created(self)
        filepath = os.fspath(filepath)
        fmt = weights_format(filepath, save_format)
        session = session_access.get_session()
        if fmt == "h5":
            hdf5_format.write_file_atomically(
                filepath, lambda f: hdf5_format.save_weights_to_group(f, self, session))
        else:
            tf_checkpoint.save(self, filepath, session)

    def load_weights(self, filepath, by_name=False, skip_mismatch=False, options=None):
        """Read weights written by save_weights (ours or tf-keras's) into this model's variables."""
        if skip_mismatch and not by_name:
            raise ValueError("When calling model.load_weights, skip_mismatch can only be set to True when "
                             "by_name is True.")
        filepath, fmt = detect_load_format(os.fspath(filepath))
        session = session_access.get_session()
        if fmt == "tf":
            if by_name:
                raise NotImplementedError("Weights may only be loaded based on topology into Models when "
                                          "loading TensorFlow-formatted weights (got by_name=True to "
                                          "load_weights).")
            tf_checkpoint.load(self, filepath, session)
            return None
        if not getattr(self, "_is_graph_network", False) and not getattr(self, "built", False):
            raise ValueError("Unable to load weights saved in HDF5 format into a subclassed Model which has not "
                             "created its variables yet. Call the Model first, then load the weights.")
        assert_weights_created(self)
        with hdf5_format.open_for_reading(filepath) as f:
            group = hdf5_format.weights_group(f)
            if by_name:
                pairs = hdf5_format.load_weights_from_group_by_name(group, self, filepath, skip_mismatch)
            else:
                pairs = hdf5_format.load_weights_from_group(group, self, filepath)
        tf_checkpoint.assign(pairs, session)
        return None

    def save(self, filepath, overwrite=True, include_optimizer=True, save_format=None, signatures=None,
             options=None, save_traces=True):
        """The whole model: HDF5 (config, training config, weights, optimizer state), or with
        ``save_format='tf'`` a SavedModel with a ``serving_default`` signature."""
        save_mod.save_model(self, filepath, overwrite=overwrite, include_optimizer=include_optimizer,
                            save_format=save_format, signatures=signatures, options=options)
