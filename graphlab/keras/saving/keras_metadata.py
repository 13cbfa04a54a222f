"""``keras_metadata.pb``: what tf-keras stores beside a SavedModel so ``load_model`` can rebuild the Keras
model (SavedMetadata: one SavedObject per Keras object, its path from the root and its JSON metadata).

graphlab writes the root's entry (class name, config, model_config, training_config, versions), which is
all its own ``load_model`` needs, and reads the root's entry of tf-keras's files. The JSON uses tf-keras's
encodings for tuples and shapes ({"class_name": "__tuple__", "items": [...]}), undone on reading; objects
are still looked up by class name among graphlab's layers only (model_config.py), nothing is imported.
"""
import json
import os

from graphlab.formats.protos import keras_saved_metadata_pb2
from graphlab.keras.saving import hdf5_format

FILENAME = "keras_metadata.pb"


def identifier(class_name):
    return {"Sequential": "_tf_keras_sequential", "Functional": "_tf_keras_network"}.get(class_name,
                                                                                       "_tf_keras_model")


def write(export_dir, model, config, training_config):
    """The root node's metadata for ``model`` (its config already computed as model_config.py does)."""
    from graphlab.keras.saving import model_config as config_mod
    meta = {"name": model.name, "trainable": bool(getattr(model, "trainable", True)),
            "expects_training_arg": True, "dtype": None, "batch_input_shape": None,
            "must_restore_from_config": False, "preserve_input_structure_in_config": False, "autocast": False,
            "class_name": config["class_name"], "config": config["config"],
            "is_graph_network": bool(getattr(model, "_is_graph_network", False)),
            "keras_version": hdf5_format.KERAS_VERSION, "backend": hdf5_format.BACKEND, "model_config": config}
    if training_config is not None:
        meta["training_config"] = training_config
    saved = keras_saved_metadata_pb2.SavedMetadata()
    node = saved.nodes.add()
    node.node_id = 0
    node.node_path = "root"
    node.identifier = identifier(config["class_name"])
    node.metadata = config_mod.dumps(meta)
    node.version.producer = 2
    node.version.min_consumer = 1
    with open(os.path.join(export_dir, FILENAME), "wb") as f:
        f.write(saved.SerializeToString())


def _plain(value):
    """tf-keras's JSON encodings back to plain values: tuples and shapes to lists, shared ids dropped."""
    if isinstance(value, dict):
        if value.get("class_name") in ("__tuple__", "TensorShape") and "items" in value:
            return [_plain(v) for v in value["items"]]
        return {k: _plain(v) for k, v in value.items() if k != "shared_object_id"}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def read_root(export_dir):
    """The root object's metadata dict, or a clear error naming the file."""
    from google.protobuf.message import DecodeError
    path = os.path.join(export_dir, FILENAME)
    if not os.path.isfile(path):
        raise ValueError("%s is a SavedModel without %s: it was not written by Keras's model.save, so there "
                         "is no model to rebuild. Load it with tf.saved_model.loader.load(sess, ['serve'], path) "
                         "or serve it with `graphlab serve`." % (export_dir, FILENAME))
    saved = keras_saved_metadata_pb2.SavedMetadata()
    try:
        with open(path, "rb") as f:
            saved.ParseFromString(f.read())
    except DecodeError as e:
        raise ValueError("%s is damaged: %s" % (path, e)) from None
    roots = [n for n in saved.nodes if n.node_path == "root"]
    if not roots:
        raise ValueError("%s has no entry for the model itself (node_path 'root')" % path)
    try:
        return _plain(json.loads(roots[0].metadata))
    except ValueError as e:
        raise ValueError("%s: the model's metadata is not valid JSON: %s" % (path, e)) from None
