"""``tf.keras.datasets.fashion_mnist``: 28x28 clothing images from the four gzipped IDX files Keras caches
in ``datasets/fashion-mnist``."""
import gzip
import os

import numpy as np

from graphlab.keras.datasets import cache

FILES = ["train-labels-idx1-ubyte.gz", "train-images-idx3-ubyte.gz", "t10k-labels-idx1-ubyte.gz",
         "t10k-images-idx3-ubyte.gz"]


def _read(path, offset):
    try:
        with gzip.open(path, "rb") as f:
            data = f.read()
    except (OSError, EOFError) as e:
        raise ValueError("%s is not a gzipped IDX file: %s" % (path, e)) from None
    if len(data) < offset:
        raise ValueError("%s is truncated: shorter than its %d-byte IDX header" % (path, offset))
    return np.frombuffer(data, np.uint8, offset=offset)


def load_data(cache_dir=None):
    """((x_train, y_train), (x_test, y_test)): uint8 images (N, 28, 28) and labels (N,)."""
    paths = [cache.find_file("fashion_mnist", name, cache.ORIGIN + name, cache_dir,
                             subdir=os.path.join("datasets", "fashion-mnist")) for name in FILES]
    out = []
    for labels_path, images_path in ((paths[0], paths[1]), (paths[2], paths[3])):
        labels = _read(labels_path, 8)
        images = _read(images_path, 16)
        if images.size != labels.size * 28 * 28:
            raise ValueError("%s holds %d bytes of pixels, but %s has %d labels (28x28 each)"
                             % (images_path, images.size, labels_path, labels.size))
        out.append((images.reshape(len(labels), 28, 28), labels))
    return tuple(out)
