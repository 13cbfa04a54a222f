"""``tf.keras.datasets.reuters``: newswires as word-index sequences in 46 topics."""
import numpy as np

from graphlab.keras.datasets import cache, safe_pickle, sequences

LABEL_NAMES = (
    "cocoa", "grain", "veg-oil", "earn", "acq", "wheat", "copper", "housing", "money-supply", "coffee", "sugar",
    "trade", "reserves", "ship", "cotton", "carcass", "crude", "nat-gas", "cpi", "money-fx", "interest", "gnp",
    "meal-feed", "alum", "oilseed", "gold", "tin", "strategic-metal", "livestock", "retail", "ipi",
    "iron-steel", "rubber", "heat", "jobs", "lei", "bop", "zinc", "orange", "pet-chem", "dlr", "gas", "silver",
    "wpi", "hog", "lead")


def load_data(path="reuters.npz", num_words=None, skip_top=0, maxlen=None, test_split=0.2, seed=113,
              start_char=1, oov_char=2, index_from=3, cache_dir=None, **kwargs):
    """((x_train, y_train), (x_test, y_test)), split after shuffling at int(len * (1 - test_split))."""
    num_words = sequences.check_kwargs(kwargs) or num_words
    fpath = cache.find_file("reuters", path, cache.ORIGIN + "reuters.npz", cache_dir)
    f = safe_pickle.load_npz(fpath)
    rng = np.random.RandomState(seed)
    xs, labels = sequences.shuffled(rng, f["x"], f["y"])
    xs = sequences.mark_and_shift(xs, start_char, index_from)
    if maxlen:
        xs, labels = sequences.remove_long(maxlen, xs, labels)
    xs = sequences.limit_vocabulary(xs, num_words, skip_top, oov_char)
    idx = int(len(xs) * (1 - test_split))
    return ((np.array(xs[:idx], dtype="object"), np.array(labels[:idx])),
            (np.array(xs[idx:], dtype="object"), np.array(labels[idx:])))


def get_word_index(path="reuters_word_index.json"):
    return sequences.word_index("reuters", path)


def get_label_names():
    """The 46 topic names, in label order."""
    return LABEL_NAMES
