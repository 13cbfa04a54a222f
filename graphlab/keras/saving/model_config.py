"""A model's architecture as JSON (``model_config`` in an HDF5 file) and the model rebuilt from it.

Writing takes the Model's ``get_config()`` and names the class as tf-keras does (``Sequential``,
``Functional`` for a network built from inputs and outputs) and lists a Sequential model's input layer
first, so tf-keras reads graphlab's files. Reading rebuilds a Sequential by adding each layer, and a
functional network by calling each layer on its inbound tensors, as Keras's deserialization does.

Classes are looked up by name among graphlab's Keras layers and the caller's ``custom_objects`` only:
nothing a file names is imported, and code a file carries (a Lambda layer's marshalled Python bytecode)
is refused, as tf-keras's safe mode refuses it.
"""
import json

import numpy as np


class UnsafeConfigError(ValueError):
    """The configuration carries code to run."""


def _json_default(obj):
    """What json cannot write by itself: numpy values, shapes, dtypes, objects with get_config."""
    if hasattr(obj, "get_config"):
        return {"class_name": type(obj).__name__, "config": obj.get_config()}
    if isinstance(obj, np.ndarray):
        return obj.tolist()
    if isinstance(obj, np.generic):
        return obj.item()
    if hasattr(obj, "as_list"):                       # TensorShape
        try:
            return obj.as_list()
        except ValueError:
            return None
    if hasattr(obj, "as_numpy_dtype"):               # DType
        return obj.name
    if isinstance(obj, (set, frozenset)):
        return list(obj)
    if isinstance(obj, bytes):
        return obj.decode("utf-8")
    raise TypeError("Not JSON Serializable: %r" % (obj,))


def dumps(value):
    return json.dumps(value, default=_json_default)


def class_name(model):
    from graphlab.keras.engine.sequential import Sequential
    if isinstance(model, Sequential):
        return "Sequential"
    if getattr(model, "_is_graph_network", False) and type(model).__name__ == "Model":
        return "Functional"
    return type(model).__name__


def model_config(model):
    """{"class_name": ..., "config": model.get_config()} as tf-keras writes it."""
    config = model.get_config()
    name = class_name(model)
    if name == "Functional" and "trainable" not in config:
        config = dict([("name", config.get("name")), ("trainable", model.trainable)]
                      + [(k, v) for k, v in config.items() if k != "name"])
    for layer in config.get("layers", []):
        if layer.get("class_name") == "InputLayer":
            layer["config"] = _input_layer_config(layer["config"])
    if name == "Sequential":
        config = dict(config)
        layers = list(config.get("layers", []))
        stack = list(getattr(model, "_stack", []))
        if stack and type(stack[0]).__name__ == "InputLayer" and \
                (not layers or layers[0].get("class_name") != "InputLayer"):
            first = _input_layer_config(stack[0].get_config())
            layers.insert(0, {"class_name": "InputLayer", "config": first})
        config["layers"] = layers
    return {"class_name": name, "config": config}


def _input_layer_config(config):
    """An InputLayer's config with every key tf-keras 2.21 writes (sparse, ragged, optional)."""
    config = dict(config)
    for key in ("sparse", "ragged", "optional"):
        config.setdefault(key, False)
    return config


# --- reading ------------------------------------------------------------------------------------------

def check_safe(config, source):
    """Refuse a configuration that carries Python bytecode to run (a Lambda's ``function_type: lambda``)."""
    stack = [config]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            if item.get("class_name") == "Lambda" and isinstance(item.get("config"), dict):
                inner = item["config"]
                for key in ("function", "output_shape", "mask"):
                    if inner.get(key + "_type") == "lambda" or (key == "function" and
                                                                isinstance(inner.get(key), (list, tuple))):
                        raise UnsafeConfigError(
                            "Requested the deserialization of a Lambda layer with a Python `lambda` inside it "
                            "(layer %r in %s). Its bytecode would run with your rights, so graphlab never loads "
                            "it. Rebuild the model in code and load only its weights (model.load_weights)."
                            % (inner.get("name"), source))
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)


def _layer_class(name, custom_objects, source):
    if custom_objects and name in custom_objects:
        return custom_objects[name]
    from graphlab.keras import layers as layers_mod
    from graphlab.keras.engine import input_layer
    if name == "InputLayer":
        return input_layer.InputLayer
    cls = getattr(layers_mod, name, None)
    if isinstance(cls, type):
        return cls
    if name in ("Sequential", "Functional", "Model"):
        return name
    raise ValueError("Unknown layer: '%s' in %s. Please ensure you are using a `keras.utils.custom_object_scope` "
                     "and that this object is included in the scope, or pass it in custom_objects."
                     % (name, source))


def _layer_from_config(layer_config, custom_objects, source):
    name = layer_config.get("class_name")
    config = dict(layer_config.get("config") or {})
    cls = _layer_class(name, custom_objects, source)
    if isinstance(cls, str):
        return model_from_config(layer_config, custom_objects, source)
    if name == "Lambda":
        config = _lambda_config(config, custom_objects, source)
    config.pop("optional", None) if name == "InputLayer" else None
    try:
        return cls.from_config(config)
    except TypeError as e:
        raise ValueError("Cannot rebuild layer %r (%s) from %s: %s" % (config.get("name"), name, source, e)) \
            from None


def _lambda_config(config, custom_objects, source):
    """A Lambda whose function is given by name: only a function the caller passes in custom_objects."""
    fn = config.get("function")
    if isinstance(fn, str):
        if not custom_objects or fn not in custom_objects:
            raise ValueError("The Lambda layer %r in %s calls the function %r: pass it as "
                             "custom_objects={%r: fn} to rebuild the layer." % (config.get("name"), source, fn, fn))
        config = dict(config)
        config["function"] = custom_objects[fn]
    for key in list(config):
        if key.endswith("_type") or key in ("module", "output_shape_module"):
            config.pop(key)
    return config


def model_from_config(config, custom_objects=None, source="the configuration"):
    """A new Model built from {"class_name", "config"} in the current default graph."""
    check_safe(config, source)
    if not isinstance(config, dict) or "class_name" not in config:
        raise ValueError("%s is not a Keras model configuration (no class_name)" % source)
    name = config["class_name"]
    body = config.get("config") or {}
    if custom_objects and name in custom_objects and hasattr(custom_objects[name], "from_config"):
        return custom_objects[name].from_config(body)
    if name == "Sequential":
        return _sequential(body, custom_objects, source)
    if name in ("Functional", "Model"):
        return _functional(body, custom_objects, source)
    raise ValueError("Unknown model class %r in %s: graphlab rebuilds Sequential and functional models; pass "
                     "a subclassed model's class in custom_objects." % (name, source))


def _sequential(body, custom_objects, source):
    from graphlab.keras.engine.input_layer import Input
    from graphlab.keras.engine.sequential import Sequential
    layer_configs = body.get("layers", body if isinstance(body, list) else [])
    model = Sequential(name=body.get("name") if isinstance(body, dict) else None)
    for layer_config in layer_configs:
        if layer_config.get("class_name") == "InputLayer":
            c = layer_config.get("config", {})
            x = Input(batch_shape=tuple(c.get("batch_input_shape") or (None,)), dtype=c.get("dtype"),
                      name=c.get("name"))
            from graphlab.keras.engine import node as node_mod
            model.add(node_mod.keras_history(x).layer)
            continue
        model.add(_layer_from_config(layer_config, custom_objects, source))
    return model


def _functional(body, custom_objects, source):
    from graphlab.keras.engine.functional import Model
    from graphlab.keras.engine.input_layer import Input
    created = {}
    outputs_of = {}                      # layer name -> [node outputs (list of tensors)]
    pending = []
    for layer_config in body.get("layers", []):
        lname = layer_config.get("name") or layer_config.get("config", {}).get("name")
        if layer_config.get("class_name") == "InputLayer":
            c = layer_config.get("config", {})
            x = Input(batch_shape=tuple(c.get("batch_input_shape") or (None,)), dtype=c.get("dtype"),
                      name=c.get("name"))
            outputs_of[lname] = [[x]]
            continue
        created[lname] = _layer_from_config(layer_config, custom_objects, source)
        for node in layer_config.get("inbound_nodes", []):
            pending.append((lname, node))
    progress = True
    while pending and progress:
        progress = False
        waiting = []
        for lname, node in pending:
            try:
                inputs = [outputs_of[src][node_index][tensor_index] for src, node_index, tensor_index, *_ in node]
            except (KeyError, IndexError):
                waiting.append((lname, node))
                continue
            kwargs = node[0][3] if node and len(node[0]) > 3 and isinstance(node[0][3], dict) else {}
            out = created[lname](inputs[0] if len(inputs) == 1 else inputs, **kwargs)
            outputs_of.setdefault(lname, []).append(out if isinstance(out, (list, tuple)) else [out])
            progress = True
        pending = waiting
    if pending:
        raise ValueError("%s: the layers %s take inputs no other layer produces; the model configuration is "
                         "damaged." % (source, sorted({p[0] for p in pending})))

    def pick(refs):
        return [outputs_of[name][node_index][tensor_index] for name, node_index, tensor_index in refs]
    inputs, outputs = pick(body.get("input_layers", [])), pick(body.get("output_layers", []))
    return Model(inputs=inputs if len(inputs) > 1 else inputs[0],
                 outputs=outputs if len(outputs) > 1 else outputs[0], name=body.get("name"))
