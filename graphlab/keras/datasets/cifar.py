"""CIFAR's pickled batches (``data_batch_1``..., ``test_batch``; ``train``/``test`` for CIFAR-100), read
from the extracted directory Keras caches or straight from the ``.tar.gz`` beside it, through the data-only
unpickler."""
import os
import tarfile

from graphlab.keras.datasets import cache, safe_pickle


def load_batch(fpath, label_key="labels"):
    """(data (N, 3, 32, 32) uint8, labels list) of one batch file."""
    with open(fpath, "rb") as f:
        return parse_batch(f.read(), fpath, label_key)


def parse_batch(raw, source, label_key="labels"):
    d = safe_pickle.loads(raw, source, encoding="bytes")
    if not isinstance(d, dict):
        raise ValueError("%s is not a CIFAR batch: it holds %s, not a dict" % (source, type(d).__name__))
    d = {k.decode("utf8") if isinstance(k, bytes) else k: v for k, v in d.items()}
    for key in ("data", label_key):
        if key not in d:
            raise ValueError("%s is not a CIFAR batch: it has no %r entry (it has %s)"
                             % (source, key, sorted(d)))
    data = d["data"]
    return data.reshape(data.shape[0], 3, 32, 32), d[label_key]


class BatchSource:
    """The batch files of one CIFAR directory: from datasets/<dirname>/, else from <dirname>.tar.gz."""

    def __init__(self, dataset, dirname, origin, cache_dir):
        base = cache.datasets_dir(cache_dir)
        self.directory = os.path.join(base, dirname)
        self.archive = self.directory + ".tar.gz"
        self.dirname = dirname
        if not os.path.isdir(self.directory) and not os.path.isfile(self.archive):
            raise cache.missing(dataset, self.directory, origin,
                                " (the extracted folder, or the .tar.gz itself at %s)" % self.archive)
        self._tar = None

    def read(self, name, label_key="labels"):
        path = os.path.join(self.directory, name)
        if os.path.isdir(self.directory):
            if not os.path.isfile(path):
                raise cache.missing(os.path.basename(self.directory), path, "the CIFAR archive")
            return load_batch(path, label_key)
        if self._tar is None:
            try:
                self._tar = tarfile.open(self.archive, "r:gz")
            except (tarfile.TarError, OSError) as e:
                raise ValueError("%s is not a .tar.gz archive: %s" % (self.archive, e)) from None
        member = "%s/%s" % (self.dirname, name)
        try:
            info = self._tar.getmember(member)
        except KeyError:
            raise ValueError("%s has no %s" % (self.archive, member)) from None
        if not info.isfile():
            raise ValueError("%s: %s is not a regular file" % (self.archive, member))
        return parse_batch(self._tar.extractfile(info).read(), "%s:%s" % (self.archive, member), label_key)

    def close(self):
        if self._tar is not None:
            self._tar.close()


def image_data_format():
    try:
        from graphlab.keras import backend
        return backend.image_data_format()
    except (ImportError, AttributeError):
        return "channels_last"
