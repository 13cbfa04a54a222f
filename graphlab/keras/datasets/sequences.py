"""What imdb and reuters do to their word-index sequences: shuffle with a seeded RandomState, mark the
start, shift indices past the reserved ones, drop long sequences, and map rare or skipped words to the
out-of-vocabulary index. One place for both, in tf-keras's order of steps (the order fixes the numbers)."""
import json

import numpy as np

from graphlab.keras.datasets import cache


def check_kwargs(kwargs, sep=""):
    """tf-keras's handling of the old ``nb_words`` name; any other extra keyword is a TypeError."""
    num_words = None
    if "nb_words" in kwargs:
        import logging
        logging.getLogger("graphlab.keras").warning(
            "The `nb_words` argument in `load_data` has been renamed `num_words`.")
        num_words = kwargs.pop("nb_words")
    if kwargs:
        raise TypeError("Unrecognized keyword arguments: %s%s" % (str(kwargs), sep))
    return num_words


def shuffled(rng, xs, labels):
    indices = np.arange(len(xs))
    rng.shuffle(indices)
    return xs[indices], labels[indices]


def mark_and_shift(xs, start_char, index_from):
    if start_char is not None:
        return [[start_char] + [w + index_from for w in x] for x in xs]
    if index_from:
        return [[w + index_from for w in x] for x in xs]
    return list(xs)


def remove_long(maxlen, xs, labels):
    """Keep the sequences shorter than maxlen, and their labels."""
    kept_x, kept_y = [], []
    for x, y in zip(xs, labels):
        if len(x) < maxlen:
            kept_x.append(x)
            kept_y.append(y)
    return kept_x, np.array(kept_y)


def limit_vocabulary(xs, num_words, skip_top, oov_char):
    if not num_words:
        num_words = max(max(x) for x in xs)
    if oov_char is not None:
        return [[w if skip_top <= w < num_words else oov_char for w in x] for x in xs]
    return [[w for w in x if skip_top <= w < num_words] for x in xs]


def word_index(dataset, path, cache_dir=None):
    """The {word: index} JSON beside the data set."""
    fpath = cache.find_file(dataset, path, cache.ORIGIN + path, cache_dir)
    try:
        with open(fpath, encoding="utf-8") as f:
            index = json.load(f)
    except ValueError as e:
        raise ValueError("%s is not a JSON word index: %s" % (fpath, e)) from None
    if not isinstance(index, dict):
        raise ValueError("%s should map words to indices, it holds a %s" % (fpath, type(index).__name__))
    return index
