"""``tf.keras.datasets.mnist``: 28x28 digits from ``mnist.npz`` in Keras's cache."""
from graphlab.keras.datasets import cache, safe_pickle


def load_data(path="mnist.npz", cache_dir=None):
    """((x_train, y_train), (x_test, y_test)) as uint8 arrays: (60000, 28, 28) and (60000,) for the real file."""
    fpath = cache.find_file("mnist", path, cache.ORIGIN + "mnist.npz", cache_dir)
    f = safe_pickle.load_npz(fpath)
    return (f["x_train"], f["y_train"]), (f["x_test"], f["y_test"])
