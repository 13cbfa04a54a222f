"""``tf.keras.initializers`` in graph mode: TF1's initializer classes (the same ops under
``<variable>/Initializer/``, e.g. ``random_uniform/{shape,min,max,RandomUniform,sub,mul}`` for
glorot_uniform) and the names Keras accepts for them."""
from graphlab.keras.utils import generic_utils
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
    return generic_utils.deserialize_from_table(
        config, _BY_NAME, custom_objects,
        "Unknown initializer: '%s'. Please ensure you are using a `keras.utils.custom_object_scope` and that this "
        "object is included in the scope. See "
        "https://www.tensorflow.org/guide/keras/save_and_serialize#registering_the_custom_object for details.")


def get(identifier):
    """None stays None; a name or config makes the initializer; an instance or function is used as it is."""
    if isinstance(identifier, type) and issubclass(identifier, init_ops.Initializer):
        return identifier()
    return generic_utils.get_from_identifier(identifier, deserialize, "initializer")
