"""Writing a file so that readers (and a crash) never see half of it: a temporary file in the same directory,
then a rename over the target, which the OS performs all at once."""
import os
import tempfile


def write_through_temporary(path, fill):
    """Have ``fill(temporary_path)`` write the file under a temporary name beside ``path``, then rename it
    over ``path``; if ``fill`` fails the temporary file goes and a previous ``path`` stays as it was. For
    writers that want a file name rather than bytes (h5py)."""
    path = os.fspath(path)
    directory = os.path.dirname(path) or "."
    os.makedirs(directory, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=os.path.basename(path) + ".tmp", dir=directory)
    os.close(fd)
    try:
        fill(tmp)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.remove(tmp)
        except OSError:
            pass
        raise


def write_atomic(path, data):
    """Write ``data`` (bytes) to ``path`` through a temporary file and a rename."""
    def fill(tmp):
        with open(tmp, "wb") as f:
            f.write(data)
    write_through_temporary(path, fill)
