"""Where Keras keeps downloaded data sets, and the error for a file that is not there.

tf-keras's ``get_file`` caches under ``~/.keras/datasets`` (``$KERAS_HOME`` where set, as Keras 3 and the
standalone Keras read it), falling back to ``/tmp/.keras`` when that directory is not writable. This
machine has no network, so where Keras would download, graphlab says what to place where.
"""
import os

ORIGIN = "https://storage.googleapis.com/tensorflow/tf-keras-datasets/"


def cache_root(cache_dir=None):
    """The directory above ``datasets/``: cache_dir, else $KERAS_HOME, else ~/.keras (/tmp/.keras when the
    chosen one exists but is not writable, as tf-keras's get_file does)."""
    if cache_dir:
        base = os.path.expanduser(cache_dir)
    else:
        base = os.environ.get("KERAS_HOME") or os.path.join(os.path.expanduser("~"), ".keras")
        base = os.path.expanduser(base)
    if os.path.exists(base) and not os.access(base, os.W_OK):
        base = os.path.join("/tmp", ".keras")
    return base


def datasets_dir(cache_dir=None, subdir="datasets"):
    return os.path.join(cache_root(cache_dir), subdir)


class MissingDatasetFile(FileNotFoundError):
    """A data set's file is not in Keras's cache (and graphlab never downloads)."""


def missing(dataset, wanted, origin, extra=""):
    """The error for a missing cache file: what to place where, and where Keras would fetch it from."""
    return MissingDatasetFile(
        "tf.keras.datasets.%s.load_data() needs %s, which is not there. This machine does not download: "
        "fetch %s on a machine with network access and place it at %s%s."
        % (dataset, wanted, origin, wanted, extra))


FALLBACK_ROOT = os.path.join("/tmp", ".keras")


def find_file(dataset, fname, origin, cache_dir=None, subdir="datasets"):
    """The path of a cached file, or MissingDatasetFile naming where to put it. tf-keras falls back to
    /tmp/.keras when the cache directory does not exist yet, so a file it fetched there is found too."""
    path = os.path.join(datasets_dir(cache_dir, subdir), fname)
    if os.path.isfile(path):
        return path
    fallback = os.path.join(FALLBACK_ROOT, subdir, fname)
    if not os.path.isdir(cache_root(cache_dir)) and os.path.isfile(fallback):
        return fallback
    raise missing(dataset, path, origin)
