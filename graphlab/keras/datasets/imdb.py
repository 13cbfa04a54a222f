"""``tf.keras.datasets.imdb``: movie reviews as word-index sequences, labelled positive or negative."""
import numpy as np

from graphlab.keras.datasets import cache, safe_pickle, sequences


def load_data(path="imdb.npz", num_words=None, skip_top=0, maxlen=None, seed=113, start_char=1, oov_char=2,
              index_from=3, cache_dir=None, **kwargs):
    """((x_train, y_train), (x_test, y_test)): object arrays of lists of word indices and int labels.

    Indices are shifted by ``index_from``, each review starts with ``start_char``, words outside
    [skip_top, num_words) become ``oov_char`` (or are dropped when it is None), reviews of ``maxlen`` words
    or more are dropped; both halves are shuffled with ``seed``."""
    num_words = sequences.check_kwargs(kwargs, ".") or num_words
    fpath = cache.find_file("imdb", path, cache.ORIGIN + "imdb.npz", cache_dir)
    f = safe_pickle.load_npz(fpath)
    rng = np.random.RandomState(seed)
    x_train, labels_train = sequences.shuffled(rng, f["x_train"], f["y_train"])
    x_test, labels_test = sequences.shuffled(rng, f["x_test"], f["y_test"])
    x_train = sequences.mark_and_shift(x_train, start_char, index_from)
    x_test = sequences.mark_and_shift(x_test, start_char, index_from)
    if maxlen:
        x_train, labels_train = sequences.remove_long(maxlen, x_train, labels_train)
        x_test, labels_test = sequences.remove_long(maxlen, x_test, labels_test)
        if not x_train or not x_test:
            raise ValueError("After filtering for sequences shorter than maxlen=%s, no sequence was kept. "
                             "Increase maxlen." % str(maxlen))
    xs = sequences.limit_vocabulary(list(x_train) + list(x_test), num_words, skip_top, oov_char)
    labels = np.concatenate([labels_train, labels_test])
    idx = len(x_train)
    return ((np.array(xs[:idx], dtype="object"), labels[:idx]),
            (np.array(xs[idx:], dtype="object"), labels[idx:]))


def get_word_index(path="imdb_word_index.json"):
    """{word: index} (the data's indices before ``index_from`` is added)."""
    return sequences.word_index("imdb", path)
