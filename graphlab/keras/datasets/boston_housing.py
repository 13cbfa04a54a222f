"""``tf.keras.datasets.boston_housing``: 13 features of Boston suburbs and their median house prices."""
import numpy as np

from graphlab.keras.datasets import cache, safe_pickle


def load_data(path="boston_housing.npz", test_split=0.2, seed=113, cache_dir=None):
    """((x_train, y_train), (x_test, y_test)), shuffled with ``seed`` and split at int(len * (1 - test_split))."""
    if not 0 <= test_split < 1:
        raise AssertionError("test_split must be in [0, 1): got %r" % (test_split,))
    fpath = cache.find_file("boston_housing", path, cache.ORIGIN + "boston_housing.npz", cache_dir)
    f = safe_pickle.load_npz(fpath)
    x, y = f["x"], f["y"]
    rng = np.random.RandomState(seed)
    indices = np.arange(len(x))
    rng.shuffle(indices)
    x, y = x[indices], y[indices]
    cut = int(len(x) * (1 - test_split))
    return (np.array(x[:cut]), np.array(y[:cut])), (np.array(x[cut:]), np.array(y[cut:]))
