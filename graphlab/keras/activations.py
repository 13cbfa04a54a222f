"""``tf.keras.activations``: the functions a layer's ``activation=`` names, each the TF op Keras uses
(``relu`` is a Relu op named after its layer's scope: ``dense/Relu``)."""
from graphlab.keras import backend as K
from graphlab.ops import math_ops, nn_ops


def linear(x):
    return x


def relu(x, alpha=0.0, max_value=None, threshold=0.0):
    return K.relu(x, alpha=alpha, max_value=max_value, threshold=threshold)


def softmax(x, axis=-1):
    """nn.softmax along ``axis``; a 1-D tensor is refused, as Keras does."""
    if x.shape.ndims is not None and x.shape.ndims <= 1:
        raise ValueError("Cannot apply softmax to a tensor that is 1D. Received input: %s" % (x,))
    return nn_ops.softmax(x, axis=axis)


def sigmoid(x):
    return math_ops.sigmoid(x)


def tanh(x):
    return math_ops.tanh(x)


def elu(x, alpha=1.0):
    return K.elu(x, alpha)


def selu(x):
    return nn_ops.selu(x)


def softplus(x):
    return nn_ops.softplus(x)


def softsign(x):
    return nn_ops.softsign(x)


def exponential(x):
    return math_ops.exp(x)


def hard_sigmoid(x):
    return K.hard_sigmoid(x)


def swish(x):
    return x * math_ops.sigmoid(x)


_BY_NAME = {f.__name__: f for f in (linear, relu, softmax, sigmoid, tanh, elu, selu, softplus, softsign,
                                    exponential, hard_sigmoid, swish)}


def serialize(activation):
    name = getattr(activation, "__name__", None)
    if name in _BY_NAME and _BY_NAME[name] is activation:
        return name
    if hasattr(activation, "get_config"):
        return {"class_name": type(activation).__name__, "config": activation.get_config()}
    return name


def deserialize(name, custom_objects=None):
    if custom_objects and name in custom_objects:
        return custom_objects[name]
    if name not in _BY_NAME:
        raise ValueError("Unknown activation function: '%s'. Please ensure you are using a "
                         "`keras.utils.custom_object_scope` and that this object is included in the scope. See "
                         "https://www.tensorflow.org/guide/keras/save_and_serialize#registering_the_custom_object "
                         "for details." % name)
    return _BY_NAME[name]


def get(identifier):
    """None -> linear; a name -> its function; a callable as it is."""
    if identifier is None:
        return linear
    if isinstance(identifier, str):
        return deserialize(identifier)
    if isinstance(identifier, dict):
        return deserialize(identifier.get("class_name"))
    if callable(identifier):
        return identifier
    raise TypeError("Could not interpret activation function identifier: %s" % (identifier,))
