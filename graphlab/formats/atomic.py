"""Writing a file so that readers (and a crash) never see half of it: a temporary file in the same directory,
then a rename over the target, which the OS performs all at once."""
import os
import tempfile


def write_atomic(path, data):
    """Write ``data`` (bytes) to ``path`` through a temporary file and a rename."""
    path = os.fspath(path)
    directory = os.path.dirname(path) or "."
    os.makedirs(directory, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=os.path.basename(path) + ".tmp", dir=directory)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.remove(tmp)
        except OSError:
            pass
        raise
