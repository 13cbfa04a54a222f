"""tf.keras.datasets on small files in Keras's cache formats, compared with tf-keras's own loaders on the
same files (its download step replaced by the path, since there is no network), and the errors for missing,
damaged or unsafe files."""
import gzip
import json
import os
import pickle
import struct

import numpy as np
import pytest

import graphlab as tf
from graphlab.keras import datasets
from graphlab.keras.datasets import cache, safe_pickle
from tests.tfref import run_tf

RNG = np.random.RandomState(0)


def _seqs(n, vocab=40):
    return np.array([list(RNG.randint(1, vocab, size=RNG.randint(2, 12))) for _ in range(n)] + [None],
                    dtype=object)[:-1]


@pytest.fixture(scope="module")
def keras_home(tmp_path_factory):
    """A Keras cache with every data set, small."""
    home = tmp_path_factory.mktemp("keras_home")
    d = home / "datasets"
    d.mkdir()
    np.savez(d / "mnist.npz", x_train=RNG.randint(0, 256, (5, 28, 28)).astype("uint8"),
             y_train=RNG.randint(0, 10, 5).astype("uint8"),
             x_test=RNG.randint(0, 256, (3, 28, 28)).astype("uint8"), y_test=RNG.randint(0, 10, 3).astype("uint8"))
    fm = d / "fashion-mnist"
    fm.mkdir()
    for prefix, n in (("train", 4), ("t10k", 2)):
        labels = RNG.randint(0, 10, n).astype("uint8")
        images = RNG.randint(0, 256, (n, 28, 28)).astype("uint8")
        with gzip.open(fm / ("%s-labels-idx1-ubyte.gz" % prefix), "wb") as f:
            f.write(struct.pack(">II", 2049, n) + labels.tobytes())
        with gzip.open(fm / ("%s-images-idx3-ubyte.gz" % prefix), "wb") as f:
            f.write(struct.pack(">IIII", 2051, n, 28, 28) + images.tobytes())
    c10 = d / "cifar-10-batches-py"
    c10.mkdir()
    for name in ["data_batch_%d" % i for i in range(1, 6)] + ["test_batch"]:
        n = 3
        batch = {b"batch_label": name.encode(), b"labels": [int(v) for v in RNG.randint(0, 10, n)],
                 b"data": RNG.randint(0, 256, (n, 3072)).astype("uint8"),
                 b"filenames": [b"img_%d.png" % i for i in range(n)]}
        (c10 / name).write_bytes(pickle.dumps(batch, protocol=2))
    c100 = d / "cifar-100-python"
    c100.mkdir()
    for name, n in (("train", 4), ("test", 2)):
        batch = {b"fine_labels": [int(v) for v in RNG.randint(0, 100, n)],
                 b"coarse_labels": [int(v) for v in RNG.randint(0, 20, n)],
                 b"data": RNG.randint(0, 256, (n, 3072)).astype("uint8")}
        (c100 / name).write_bytes(pickle.dumps(batch, protocol=4))
    np.savez(d / "imdb.npz", x_train=_seqs(9), y_train=RNG.randint(0, 2, 9), x_test=_seqs(7),
             y_test=RNG.randint(0, 2, 7))
    (d / "imdb_word_index.json").write_text(json.dumps({"the": 1, "film": 2, "good": 3}))
    np.savez(d / "reuters.npz", x=_seqs(11, vocab=60), y=RNG.randint(0, 46, 11))
    (d / "reuters_word_index.json").write_text(json.dumps({"said": 1, "mln": 2}))
    np.savez(d / "boston_housing.npz", x=RNG.rand(12, 13), y=RNG.rand(12) * 50)
    return home


TF_SCRIPT = """
import importlib
from tf_keras.src.datasets import cifar
base = sys.argv[1]
calls = json.loads(sys.argv[2])

def plain(v):
    if isinstance(v, np.ndarray):
        if v.dtype == object:
            return {"dtype": "object", "shape": list(v.shape), "value": [list(map(int, x)) for x in v]}
        return {"dtype": str(v.dtype), "shape": list(v.shape), "value": v.tolist()}
    if isinstance(v, (tuple, list)):
        return [plain(x) for x in v]
    return v

out = []
for name, kwargs in calls:
    mod = importlib.import_module("tf_keras.src.datasets." + name)
    def fake_get_file(fname, origin=None, untar=False, cache_subdir="datasets", **kw):
        return os.path.join(base, cache_subdir, fname)
    mod.get_file = fake_get_file
    try:
        out.append(plain(mod.load_data(**kwargs)))
    except Exception as e:
        out.append({"error": type(e).__name__, "message": str(e)})
print(json.dumps(out))
"""


def _plain(v):
    if isinstance(v, np.ndarray):
        if v.dtype == object:
            return {"dtype": "object", "shape": list(v.shape), "value": [list(map(int, x)) for x in v]}
        return {"dtype": str(v.dtype), "shape": list(v.shape), "value": v.tolist()}
    if isinstance(v, (tuple, list)):
        return [_plain(x) for x in v]
    return v


CALLS = [
    ("mnist", {}),
    ("fashion_mnist", {}),
    ("cifar100", {}),
    ("cifar100", {"label_mode": "coarse"}),
    ("imdb", {}),
    ("imdb", {"num_words": 20, "skip_top": 3, "seed": 7}),
    ("imdb", {"maxlen": 9, "start_char": None, "oov_char": None, "index_from": 2}),
    ("imdb", {"maxlen": 1}),
    ("reuters", {}),
    ("reuters", {"num_words": 30, "test_split": 0.5, "maxlen": 11}),
    ("boston_housing", {}),
    ("boston_housing", {"test_split": 0.25, "seed": 1}),
]


def test_load_data_as_tf_keras(keras_home, monkeypatch):
    monkeypatch.setenv("KERAS_HOME", str(keras_home))
    expected = json.loads(run_tf(TF_SCRIPT, keras_home, json.dumps(CALLS)).strip().splitlines()[-1])
    for (name, kwargs), want in zip(CALLS, expected):
        module = getattr(tf.keras.datasets, name) if hasattr(tf, "keras") and hasattr(tf.keras, "datasets") \
            else getattr(datasets, name)
        try:
            got = _plain(module.load_data(**kwargs))
        except Exception as e:
            got = {"error": type(e).__name__, "message": str(e)}
        assert got == want, (name, kwargs)
    errors = [(c, w) for c, w in zip(CALLS, expected) if isinstance(w, dict)]
    assert [c for c, _ in errors] == [("imdb", {"maxlen": 1})], errors   # the one call that must fail


def test_cifar10_batches_as_tf_keras(keras_home, monkeypatch):
    """tf-keras's cifar10 fills 50000 rows (five full batches); on these small batches its per-file reader
    is the reference, and the assembly is Keras's: batches in order, channels last, uint8 (N, 1) labels."""
    monkeypatch.setenv("KERAS_HOME", str(keras_home))
    files = ["data_batch_%d" % i for i in range(1, 6)] + ["test_batch"]
    want = json.loads(run_tf("""
from tf_keras.src.datasets.cifar import load_batch
out = []
for name in sys.argv[2:]:
    x, y = load_batch(os.path.join(sys.argv[1], name))
    out.append([x.tolist(), str(x.dtype), list(map(int, y))])
print(json.dumps(out))
""", keras_home / "datasets" / "cifar-10-batches-py", *files).strip().splitlines()[-1])
    (x_train, y_train), (x_test, y_test) = datasets.cifar10.load_data()
    assert x_train.shape == (15, 32, 32, 3) and x_train.dtype == np.uint8
    assert y_train.shape == (15, 1) and y_train.dtype == np.uint8
    assert x_test.shape == (3, 32, 32, 3) and y_test.shape == (3, 1) and y_test.dtype == np.uint8
    train_x = np.concatenate([np.array(w[0], dtype="uint8") for w in want[:5]]).transpose(0, 2, 3, 1)
    np.testing.assert_array_equal(x_train, train_x)
    np.testing.assert_array_equal(y_train[:, 0], sum((w[2] for w in want[:5]), []))
    np.testing.assert_array_equal(x_test, np.array(want[5][0], dtype="uint8").transpose(0, 2, 3, 1))
    np.testing.assert_array_equal(y_test[:, 0], want[5][2])


def test_cifar10_reads_the_archive_when_not_extracted(keras_home, tmp_path, monkeypatch):
    import tarfile
    home = tmp_path / "k"
    (home / "datasets").mkdir(parents=True)
    with tarfile.open(home / "datasets" / "cifar-10-batches-py.tar.gz", "w:gz") as tar:
        tar.add(keras_home / "datasets" / "cifar-10-batches-py", arcname="cifar-10-batches-py")
    monkeypatch.setenv("KERAS_HOME", str(home))
    from_tar = datasets.cifar10.load_data()
    monkeypatch.setenv("KERAS_HOME", str(keras_home))
    from_dir = datasets.cifar10.load_data()
    for a, b in zip(from_tar, from_dir):
        np.testing.assert_array_equal(a[0], b[0])
        np.testing.assert_array_equal(a[1], b[1])
    assert not (home / "datasets" / "cifar-10-batches-py").exists()   # nothing extracted


def test_word_index_and_label_names(keras_home, monkeypatch):
    monkeypatch.setenv("KERAS_HOME", str(keras_home))
    assert datasets.imdb.get_word_index() == {"the": 1, "film": 2, "good": 3}
    assert datasets.reuters.get_word_index() == {"said": 1, "mln": 2}
    want = json.loads(run_tf("""
from tf_keras.src.datasets import reuters
print(json.dumps(list(reuters.get_label_names())))
""").strip().splitlines()[-1])
    assert list(datasets.reuters.get_label_names()) == want


@pytest.mark.parametrize("name, wanted", [
    ("mnist", "datasets/mnist.npz"), ("fashion_mnist", "datasets/fashion-mnist/train-labels-idx1-ubyte.gz"),
    ("cifar10", "datasets/cifar-10-batches-py"), ("cifar100", "datasets/cifar-100-python"),
    ("imdb", "datasets/imdb.npz"), ("reuters", "datasets/reuters.npz"),
    ("boston_housing", "datasets/boston_housing.npz")])
def test_missing_file_says_what_to_place_where(tmp_path, monkeypatch, name, wanted):
    monkeypatch.setenv("KERAS_HOME", str(tmp_path))
    with pytest.raises(FileNotFoundError) as e:
        getattr(datasets, name).load_data()
    message = str(e.value)
    assert os.path.join(str(tmp_path), wanted) in message
    assert "does not download" in message and "place it at" in message


def test_home_directory_is_the_default(tmp_path, monkeypatch):
    monkeypatch.delenv("KERAS_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    with pytest.raises(FileNotFoundError, match=str(tmp_path / ".keras" / "datasets" / "mnist.npz")):
        datasets.mnist.load_data()


class _Boom:
    def __init__(self, marker):
        self.marker = marker

    def __reduce__(self):
        return (os.mkdir, (self.marker,))


def test_pickled_code_is_refused_not_run(tmp_path, monkeypatch):
    marker = str(tmp_path / "ran")
    home = tmp_path / "home"
    c100 = home / "datasets" / "cifar-100-python"
    c100.mkdir(parents=True)
    for name in ("train", "test"):
        (c100 / name).write_bytes(pickle.dumps({b"data": _Boom(marker), b"fine_labels": [1]}, protocol=2))
    monkeypatch.setenv("KERAS_HOME", str(home))
    with pytest.raises(pickle.UnpicklingError) as e:
        datasets.cifar100.load_data()
    assert str(c100 / "train") in str(e.value)
    assert "mkdir" in str(e.value) and "not plain data" in str(e.value)
    assert not os.path.exists(marker)


def test_object_npz_with_code_is_refused(tmp_path, monkeypatch):
    marker = str(tmp_path / "ran")
    (tmp_path / "datasets").mkdir()
    x = np.empty(1, dtype=object)
    x[0] = _Boom(marker)
    np.savez(tmp_path / "datasets" / "imdb.npz", x_train=x, y_train=np.zeros(1), x_test=x, y_test=np.zeros(1))
    monkeypatch.setenv("KERAS_HOME", str(tmp_path))
    with pytest.raises(pickle.UnpicklingError, match="imdb.npz.*x_test|imdb.npz.*x_train"):
        datasets.imdb.load_data()
    assert not os.path.exists(marker)


def test_damaged_files_name_the_file(tmp_path, monkeypatch):
    d = tmp_path / "datasets"
    d.mkdir()
    (d / "mnist.npz").write_bytes(b"not a zip")
    (d / "boston_housing.npz").write_bytes(open(_npz_bytes(tmp_path), "rb").read()[:200])
    monkeypatch.setenv("KERAS_HOME", str(tmp_path))
    with pytest.raises(ValueError, match="mnist.npz is not an .npz file"):
        datasets.mnist.load_data()
    with pytest.raises(ValueError, match="boston_housing.npz"):
        datasets.boston_housing.load_data()


def _npz_bytes(tmp_path):
    path = tmp_path / "whole.npz"
    np.savez(path, x=np.zeros((50, 13)), y=np.zeros(50))
    return path


def test_bad_arguments_as_tf_keras(keras_home, monkeypatch):
    monkeypatch.setenv("KERAS_HOME", str(keras_home))
    with pytest.raises(ValueError, match='`label_mode` must be one of `"fine"`, `"coarse"`. Received: '
                                         'label_mode=medium.'):
        datasets.cifar100.load_data(label_mode="medium")
    with pytest.raises(TypeError, match=r"Unrecognized keyword arguments: \{'colour': 1\}\."):
        datasets.imdb.load_data(colour=1)
    assert safe_pickle.loads(pickle.dumps([1, b"x", 2.5], protocol=2), "x") == [1, b"x", 2.5]
    assert cache.cache_root("~/somewhere") == os.path.expanduser("~/somewhere")
