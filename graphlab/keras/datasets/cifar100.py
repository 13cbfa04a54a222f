"""``tf.keras.datasets.cifar100``: 32x32 colour images in 100 fine or 20 coarse classes."""
import numpy as np

from graphlab.keras.datasets import cifar

ORIGIN = "https://www.cs.toronto.edu/~kriz/cifar-100-python.tar.gz"


def load_data(label_mode="fine", cache_dir=None):
    """((x_train, y_train), (x_test, y_test)): uint8 images channels-last, int64 labels (N, 1) (the
    labels stay as the pickle's integers, as tf-keras leaves them)."""
    if label_mode not in ["fine", "coarse"]:
        raise ValueError('`label_mode` must be one of `"fine"`, `"coarse"`. Received: label_mode=%s.'
                         % (label_mode,))
    source = cifar.BatchSource("cifar100", "cifar-100-python", ORIGIN, cache_dir)
    try:
        x_train, y_train = source.read("train", label_key=label_mode + "_labels")
        x_test, y_test = source.read("test", label_key=label_mode + "_labels")
    finally:
        source.close()
    y_train = np.reshape(y_train, (len(y_train), 1))
    y_test = np.reshape(y_test, (len(y_test), 1))
    if cifar.image_data_format() == "channels_last":
        x_train = x_train.transpose(0, 2, 3, 1)
        x_test = x_test.transpose(0, 2, 3, 1)
    return (x_train, y_train), (x_test, y_test)
