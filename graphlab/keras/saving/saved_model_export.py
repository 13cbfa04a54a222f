"""``model.save(dir, save_format='tf')``: a SavedModel that TF's loader and ``graphlab serve`` accept.

tf-keras 2.21 writes a TF2 SavedModel even under TF1 behaviour: a ``serve`` meta graph whose
``serving_default`` signature takes one input per model input, keyed by the input layer's name
(``dense_input``), and returns one output per model output, keyed by the output layer's name, method
``tensorflow/serving/predict``; its variables are stored under object-based keys
(``layer_with_weights-0/kernel/.ATTRIBUTES/VARIABLE_VALUE``) with the object graph beside them.

graphlab writes the same signature keys, dtypes and shapes and the same variable keys, over an inference
graph of its own: the model is rebuilt from its config in a fresh graph (so no training ops, with the
learning phase at its default, inference), given the current weights, and saved with a Saver whose
restore op TF1's ``tf.saved_model.loader.load`` runs, and ``keras_metadata.pb`` with the model's config, which
graphlab's ``load_model`` reads. What graphlab does not write: TF2's traced functions
(``StatefulPartitionedCall``) and object graph in the meta graph, so TF2's ``tf.saved_model.load`` and
tf-keras's ``load_model`` of the directory do not apply; ``load_weights(dir)`` does, in both.

The directory is built beside the target and renamed into place, so a failed save leaves an earlier
SavedModel there intact.
"""
import os
import shutil
import tempfile

from graphlab.framework import graph as graph_mod
from graphlab.keras.saving import model_config as config_mod
from graphlab.keras.saving import checkpoint_ops, keras_metadata, object_graph, tf_checkpoint
from graphlab.runtime.session import Session
from graphlab.saved_model import builder as builder_mod
from graphlab.saved_model import signature_constants, signature_def_utils, tag_constants


def _layer_names(tensors):
    from graphlab.keras.engine import node as node_mod
    names = []
    for t in tensors:
        history = node_mod.keras_history(t)
        names.append(history.layer.name if history is not None else t.op.name)
    return names


def _signature(model):
    inputs, outputs = list(model.inputs or []), list(model.outputs or [])
    if not inputs or not outputs:
        raise ValueError("Model %s cannot be saved as a SavedModel: it has no inputs and outputs yet. Call it on "
                         "data (or build it) first." % model.name)
    return signature_def_utils.predict_signature_def(
        dict(zip(_layer_names(inputs), inputs)), dict(zip(_layer_names(outputs), outputs)))


def _write(model, export_dir, session, metadata=None, write=None):
    """Save ``model`` (in ``session``'s graph) into the new, empty directory ``export_dir``."""
    builder = builder_mod.SavedModelBuilder(export_dir)
    proto, entries = object_graph.build(model)
    saver = checkpoint_ops.SavedModelSaver(session.graph, [(e.key, e.variable) for e in entries],
                                           proto.SerializeToString(), write=write)
    signature = _signature(model)
    builder.add_meta_graph_and_variables(
        session, [tag_constants.SERVING],
        signature_def_map={signature_constants.DEFAULT_SERVING_SIGNATURE_DEF_KEY: signature}, saver=saver)
    os.makedirs(os.path.join(export_dir, "assets"), exist_ok=True)
    if metadata is not None:
        keras_metadata.write(export_dir, *metadata)
    builder.save()


def _inference_copy(model, session):
    """(graph, session, model) rebuilt from the config with the current weights, or None when the model
    has no config (a subclassed model)."""
    try:
        config = config_mod.model_config(model)
    except NotImplementedError:
        return None
    values = session.run(list(model.weights)) if model.weights else []
    graph = graph_mod.Graph()
    with graph.as_default():
        clone = config_mod.model_from_config(config, source="model %s" % model.name)
        sess = Session(graph=graph)
        from graphlab.ops import variables as variables_mod
        sess.run(variables_mod.global_variables_initializer())
        clone_weights = list(clone.weights)
        if len(clone_weights) != len(values):
            raise ValueError("Model %s rebuilt from its config has %d weights, the model has %d: it cannot be "
                             "exported for serving." % (model.name, len(clone_weights), len(values)))
        for variable, value in zip(clone_weights, values):
            variable.load(value, sess)
        # The copy's meta graph holds no collections (tf-keras's SavedModel lists none but its main op): the
        # Saver restores the variables, and a server needs only the signature.
        for key in list(graph.get_all_collection_keys()):
            graph.clear_collection(key)
    return graph, sess, clone


def save(model, export_dir, session, training_config=None):
    export_dir = os.fspath(export_dir)
    parent = os.path.dirname(os.path.abspath(export_dir))
    os.makedirs(parent, exist_ok=True)
    staging = tempfile.mkdtemp(prefix="." + os.path.basename(export_dir) + ".", dir=parent)
    target = os.path.join(staging, "model")
    try:
        copy = _inference_copy(model, session)
        if copy is None:
            with session.graph.as_default():
                _write(model, target, session)
        else:
            graph, sess, clone = copy
            metadata = (model, config_mod.model_config(model), training_config)
            try:
                with graph.as_default():
                    # the variables are written from the model itself, through its save ops in its graph
                    # (the ops tf-keras adds there too), the optimizer's state included
                    _write(clone, target, sess, metadata,
                           write=lambda prefix: tf_checkpoint.write(model, prefix, session))
            finally:
                sess.close()
        old = None
        if os.path.exists(export_dir):
            if not os.path.isdir(export_dir):
                raise FileExistsError("Cannot save a SavedModel at %s: a file (not a directory) is there."
                                      % export_dir)
            old = os.path.join(staging, "previous")
            os.replace(export_dir, old)
        os.replace(target, export_dir)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
