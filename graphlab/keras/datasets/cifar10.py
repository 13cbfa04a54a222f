"""``tf.keras.datasets.cifar10``: 32x32 colour images in 10 classes."""
import numpy as np

from graphlab.keras.datasets import cifar

ORIGIN = "https://www.cs.toronto.edu/~kriz/cifar-10-python.tar.gz"


def load_data(cache_dir=None):
    """((x_train, y_train), (x_test, y_test)): uint8 images (N, 32, 32, 3) channels-last, uint8 labels (N, 1).

    The five training batches are joined in order (50000 images for the real files)."""
    source = cifar.BatchSource("cifar10", "cifar-10-batches-py", ORIGIN, cache_dir)
    try:
        parts = [source.read("data_batch_%d" % i) for i in range(1, 6)]
        x_test, y_test = source.read("test_batch")
    finally:
        source.close()
    x_train = np.concatenate([np.asarray(x, dtype="uint8") for x, _ in parts])
    y_train = np.concatenate([np.asarray(y).astype("uint8") for _, y in parts])
    y_train = np.reshape(y_train, (len(y_train), 1))
    y_test = np.reshape(y_test, (len(y_test), 1))
    if cifar.image_data_format() == "channels_last":
        x_train = x_train.transpose(0, 2, 3, 1)
        x_test = x_test.transpose(0, 2, 3, 1)
    return (x_train, y_train), (x_test.astype(x_train.dtype), y_test.astype(y_train.dtype))
