"""``tf.keras.utils.to_categorical`` and ``normalize``: numpy only, no graph."""
import numpy as np


def to_categorical(y, num_classes=None, dtype="float32"):
    """One-hot rows for integer class labels ``y`` (a trailing axis of size 1 is dropped first)."""
    y = np.array(y, dtype="int")
    input_shape = y.shape
    if input_shape and input_shape[-1] == 1 and len(input_shape) > 1:
        input_shape = tuple(input_shape[:-1])
    y = y.reshape(-1)
    if not num_classes:
        num_classes = np.max(y) + 1
    n = y.shape[0]
    categorical = np.zeros((n, num_classes), dtype=dtype)
    categorical[np.arange(n), y] = 1
    return np.reshape(categorical, input_shape + (num_classes,))


def normalize(x, axis=-1, order=2):
    """x divided by its ``order``-norm along ``axis`` (zero norms left as 1)."""
    norm = np.atleast_1d(np.linalg.norm(x, order, axis))
    norm[norm == 0] = 1
    return x / np.expand_dims(norm, axis)
