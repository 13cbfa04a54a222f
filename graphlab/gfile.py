"""``tf.gfile``: TF1's file API, for local paths (the names tutorials call: Exists, MakeDirs, GFile ...).

TF routes these through its own file systems (local, GCS, HDFS); graphlab only has the local one, so each
function is a thin, documented wrapper over ``os``/``shutil``/``open``. Missing files raise TF's NotFoundError.
"""
import glob as _glob
import os
import shutil

from graphlab.formats.errors import NotFoundError


def _not_found(path, what):
    return NotFoundError(None, None, "%s: %s; No such file or directory" % (path, what))


def Exists(filename):  # noqa: N802  (TF's names)
    return os.path.exists(filename)


def IsDirectory(dirname):  # noqa: N802
    return os.path.isdir(dirname)


def MakeDirs(dirname):  # noqa: N802
    os.makedirs(dirname, exist_ok=True)


def MkDir(dirname):  # noqa: N802
    os.mkdir(dirname)


def ListDirectory(dirname):  # noqa: N802
    if not os.path.isdir(dirname):
        raise _not_found(dirname, "could not list the directory")
    return sorted(os.listdir(dirname))


def Glob(filename):  # noqa: N802
    return sorted(_glob.glob(filename))


def Remove(filename):  # noqa: N802
    if not os.path.exists(filename):
        raise _not_found(filename, "could not remove the file")
    os.remove(filename)


def DeleteRecursively(dirname):  # noqa: N802
    if not os.path.exists(dirname):
        raise _not_found(dirname, "could not delete the directory")
    shutil.rmtree(dirname) if os.path.isdir(dirname) else os.remove(dirname)


def Rename(oldname, newname, overwrite=False):  # noqa: N802
    if os.path.exists(newname) and not overwrite:
        from graphlab.formats.errors import AlreadyExistsError
        raise AlreadyExistsError(None, None, "%s: file already exists" % newname)
    os.replace(oldname, newname)


def Copy(oldpath, newpath, overwrite=False):  # noqa: N802
    if os.path.exists(newpath) and not overwrite:
        from graphlab.formats.errors import AlreadyExistsError
        raise AlreadyExistsError(None, None, "%s: file already exists" % newpath)
    shutil.copyfile(oldpath, newpath)


def Walk(top, in_order=True):  # noqa: N802
    for root, dirs, files in os.walk(top, topdown=in_order):
        yield root, sorted(dirs), sorted(files)


class GFile:
    """``tf.gfile.GFile(name, mode)``: a file object; "r" gives str, "rb" bytes, as Python's open."""

    def __init__(self, name, mode="r"):
        if "r" in mode and not os.path.exists(name):
            raise _not_found(name, "could not open the file for reading")
        self._file = open(name, mode)
        self.name = name

    def __getattr__(self, attr):
        return getattr(self._file, attr)

    def __iter__(self):
        return iter(self._file)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self._file.close()


Open = GFile
FastGFile = GFile
