"""Reading pickled data sets without running what a file contains.

A pickle is a program: ``pickle.load`` calls whatever global a file names. The files Keras's data sets
use (CIFAR's batches, the object arrays of imdb/reuters ``.npz``) only need containers, numbers, bytes and
numpy arrays, so this unpickler resolves only the handful of globals that rebuild an array or a dtype,
and refuses any other with an error naming the file and the global. ``.npz`` members of plain dtypes are
read from their ``.npy`` header and bytes directly; only object arrays go through the unpickler.
"""
import io
import pickle
import zipfile

import numpy as np
from numpy.lib import format as npy_format


def _numpy_global(module, name):
    import importlib
    for candidate in (module, module.replace("numpy.core", "numpy._core"), module.replace("numpy._core",
                                                                                         "numpy.core")):
        try:
            return getattr(importlib.import_module(candidate), name)
        except (ImportError, AttributeError):
            continue
    return None


# (module, name) a data pickle may name: numpy's array and dtype reconstruction, and bytes from Python 3
# pickles of protocol 2 (written as _codecs.encode(text, 'latin1')).
_ALLOWED = {
    ("numpy.core.multiarray", "_reconstruct"), ("numpy._core.multiarray", "_reconstruct"),
    ("numpy.core.multiarray", "scalar"), ("numpy._core.multiarray", "scalar"),
    ("numpy.core.numeric", "_frombuffer"), ("numpy._core.numeric", "_frombuffer"),
    ("numpy", "ndarray"), ("numpy", "dtype"),
}


class UnsafePickleError(pickle.UnpicklingError):
    """The pickle names a global that plain data does not need."""


class DataUnpickler(pickle.Unpickler):
    def __init__(self, file, source, **kwargs):
        super().__init__(file, **kwargs)
        self._source = source

    def find_class(self, module, name):
        if (module, name) in _ALLOWED:
            found = _numpy_global(module, name)
            if found is not None:
                return found
        if (module, name) == ("_codecs", "encode"):
            import codecs
            return codecs.encode
        raise UnsafePickleError(
            "%s is not plain data: its pickle asks for %s.%s, which graphlab does not load (a data set file "
            "holds only arrays, lists, numbers and strings; loading anything else would run code from the "
            "file)." % (self._source, module, name))


def loads(data, source, encoding="ASCII"):
    """Unpickle bytes that must be plain data; ``source`` names the file in errors."""
    try:
        return DataUnpickler(io.BytesIO(data), source, encoding=encoding).load()
    except UnsafePickleError:
        raise
    except Exception as e:  # truncated or damaged pickles raise many kinds of errors
        raise ValueError("%s is damaged or not a pickle: %s: %s" % (source, type(e).__name__, e)) from None


def load_file(path, encoding="ASCII"):
    with open(path, "rb") as f:
        return loads(f.read(), path, encoding=encoding)


def _read_npy(raw, source):
    stream = io.BytesIO(raw)
    try:
        version = npy_format.read_magic(stream)
        if version == (1, 0):
            shape, fortran, dtype = npy_format.read_array_header_1_0(stream)
        else:
            shape, fortran, dtype = npy_format.read_array_header_2_0(stream)
    except ValueError as e:
        raise ValueError("%s is not a .npy array: %s" % (source, e)) from None
    if dtype.hasobject:
        value = loads(stream.read(), source, encoding="latin1")
        if not isinstance(value, np.ndarray):
            raise ValueError("%s should hold an array, it holds %s" % (source, type(value).__name__))
        return value
    count = 1
    for d in shape:
        count *= d
    data = stream.read()
    if len(data) < count * dtype.itemsize:
        raise ValueError("%s is truncated: shape %s of %s needs %d bytes, it has %d"
                         % (source, shape, dtype, count * dtype.itemsize, len(data)))
    array = np.frombuffer(data, dtype=dtype, count=count)
    return array.reshape(shape, order="F" if fortran else "C").copy()


def load_npz(path):
    """{name: array} of an .npz file, object arrays read through the data-only unpickler."""
    try:
        archive = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, OSError) as e:
        raise ValueError("%s is not an .npz file (a zip of .npy arrays): %s" % (path, e)) from None
    out = {}
    with archive:
        for name in archive.namelist():
            key = name[:-4] if name.endswith(".npy") else name
            out[key] = _read_npy(archive.read(name), "%s (array %r)" % (path, key))
    return out
