"""``tf.keras.datasets``: the classic data sets, read from Keras's cache directory (``~/.keras/datasets``,
or ``$KERAS_HOME/datasets``). Nothing is downloaded: a missing file is an error that says which file to put
where. Pickled CIFAR batches and the object arrays in imdb/reuters ``.npz`` files are read by an unpickler
that builds only plain data (safe_pickle.py), never by ``pickle.load``."""
from graphlab.keras.datasets import (boston_housing, cifar10, cifar100, fashion_mnist, imdb, mnist,  # noqa: F401
                                     reuters)
