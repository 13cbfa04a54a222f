"""``tf.keras.layers.serialize`` / ``deserialize``: a layer as {"class_name", "config"} and back, by class
name among Keras's layers and models (and ``custom_objects``). Nothing from a config is executed: a
Lambda's function cannot be restored from one."""
from graphlab.keras import layers as layers_mod


def _classes():
    from graphlab.keras.engine.functional import Model
    from graphlab.keras.engine.sequential import Sequential
    found = {name: obj for name, obj in vars(layers_mod).items() if isinstance(obj, type)}
    found.update({"Model": Model, "Functional": Model, "Sequential": Sequential})
    return found


def serialize(layer):
    return {"class_name": type(layer).__name__, "config": layer.get_config()}


def deserialize(config, custom_objects=None):
    """A new layer from {"class_name": ..., "config": ...}."""
    classes = _classes()
    classes.update(custom_objects or {})
    name = config["class_name"]
    if name not in classes:
        raise ValueError("Unknown layer: '%s'. Please ensure you are using a `keras.utils.custom_object_scope` "
                         "and that this object is included in the scope. See "
                         "https://www.tensorflow.org/guide/keras/save_and_serialize#registering_the_custom_object "
                         "for details." % name)
    cls = classes[name]
    if name == "Lambda":
        raise ValueError("graphlab does not restore a Lambda layer's function from a config (that would run "
                         "code stored in it): rebuild the Lambda layer in Python")
    if hasattr(cls, "from_config"):
        if name in ("Model", "Functional", "Sequential"):
            return cls.from_config(config["config"], custom_objects=custom_objects)
        return cls.from_config(config["config"])
    return cls(**config["config"])
