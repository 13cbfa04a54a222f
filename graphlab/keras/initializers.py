"""``tf.keras.initializers`` in graph mode: TF1's initializer classes (the same ops under
``<variable>/Initializer/``, e.g. ``random_uniform/{shape,min,max,RandomUniform,sub,mul}`` for
glorot_uniform) and the names Keras accepts for them."""
from graphlab.ops import init_ops
from graphlab.ops.init_ops import (Constant, GlorotNormal, GlorotUniform, Initializer, Ones, Orthogonal,
                                   VarianceScaling, Zeros, he_normal, he_uniform, lecun_normal, lecun_uniform)

class RandomUniform(init_ops.RandomUniform):
    """Keras's defaults: uniform in [-0.05, 0.05)."""

    def __init__(self, minval=-0.05, maxval=0.05, seed=None, dtype=None):
        super().__init__(minval=minval, maxval=maxval, seed=seed, **({"dtype": dtype} if dtype else {}))


class RandomNormal(init_ops.RandomNormal):
    """Keras's defaults: normal with stddev 0.05."""

    def __init__(self, mean=0.0, stddev=0.05, seed=None, dtype=None):
        super().__init__(mean=mean, stddev=stddev, seed=seed, **({"dtype": dtype} if dtype else {}))


class TruncatedNormal(init_ops.TruncatedNormal):
    """Keras's defaults: truncated normal with stddev 0.05."""

    def __init__(self, mean=0.0, stddev=0.05, seed=None, dtype=None):
        super().__init__(mean=mean, stddev=stddev, seed=seed, **({"dtype": dtype} if dtype else {}))


zeros = Zeros
ones = Ones
constant = Constant
uniform = random_uniform = RandomUniform
normal = random_normal = RandomNormal
truncated_normal = TruncatedNormal
orthogonal = Orthogonal
glorot_uniform = GlorotUniform
glorot_normal = GlorotNormal
variance_scaling = VarianceScaling

_BY_NAME = {
    "zeros": Zeros, "Zeros": Zeros, "ones": Ones, "Ones": Ones, "constant": Constant, "Constant": Constant,
    "uniform": RandomUniform, "random_uniform": RandomUniform, "RandomUniform": RandomUniform,
    "normal": RandomNormal, "random_normal": RandomNormal, "RandomNormal": RandomNormal,
    "truncated_normal": TruncatedNormal, "TruncatedNormal": TruncatedNormal,
    "orthogonal": Orthogonal, "Orthogonal": Orthogonal,
    "glorot_uniform": GlorotUniform, "GlorotUniform": GlorotUniform,
    "glorot_normal": GlorotNormal, "GlorotNormal": GlorotNormal,
    "VarianceScaling": VarianceScaling, "variance_scaling": VarianceScaling,
    "he_normal": he_normal, "he_uniform": he_uniform, "lecun_normal": lecun_normal,
    "lecun_uniform": lecun_uniform,
}


def serialize(initializer):
    return {"class_name": type(initializer).__name__, "config": initializer.get_config()}


def deserialize(config, custom_objects=None):
    name, kwargs = (config, {}) if isinstance(config, str) else (config["class_name"], config.get("config", {}))
    if custom_objects and name in custom_objects:
        return custom_objects[name](**kwargs)
    if name not in _BY_NAME:
        raise ValueError("Unknown initializer: '%s'. Please ensure you are using a "
                         "`keras.utils.custom_object_scope` and that this object is included in the scope. See "
                         "https://www.tensorflow.org/guide/keras/save_and_serialize#registering_the_custom_object "
                         "for details." % name)
    return _BY_NAME[name](**kwargs)


def get(identifier):
    """None stays None; a name or config makes the initializer; an instance or function is used as it is."""
    if identifier is None:
        return None
    if isinstance(identifier, (str, dict)):
        return deserialize(identifier)
    if isinstance(identifier, type) and issubclass(identifier, init_ops.Initializer):
        return identifier()
    if callable(identifier):
        return identifier
    raise ValueError("Could not interpret initializer identifier: %s" % (identifier,))
