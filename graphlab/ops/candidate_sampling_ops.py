"""Candidate samplers (``tf.nn.*_candidate_sampler``) and ``tf.nn.compute_accidental_hits``: the random
"negative" classes that nce_loss and sampled_softmax_loss score instead of all classes.

Each sampler op draws ``num_sampled`` class ids from [0, range_max) (without repeats when ``unique``, by
rejection) and gives the expected count of each true and each sampled class in such a draw, as TF's
range_sampler.cc computes it: ``p * num_sampled`` with replacement, ``1 - (1 - p)^tries`` after ``tries``
draws with rejection. The distributions are TF's: uniform; log-uniform (Zipf-like, P(k) = log((k+2)/(k+1)) /
log(range_max+1)); a learned unigram (every class starts at weight 1, each true class seen adds 1, after the
draw); a fixed unigram from counts or a vocabulary file, raised to ``distortion``. The uniform and
log-uniform samplers (the ones nce_loss and sampled_softmax_loss use by default) draw TF's own numbers: each
run reserves 2048 * num_sampled 32-bit words of the op's Philox stream, and each draw takes two of them
(SimplePhilox's Uniform64 and RandDouble), so a seeded word2vec prints TF's losses. The unigram samplers
draw from numpy's generator (seeded as graphlab's other random ops): their statistics agree with TF's, their
draws do not (TF picks through a weighted tree and an alias table).
"""
import collections
import os

import numpy as np

from graphlab.framework import dtypes, tensor_shape
from graphlab.formats.errors import InvalidArgumentError, NotFoundError
from graphlab.framework.random_seed import get_seed
from graphlab.ops import philox
from graphlab.ops.random_ops import _generator, _stream
from graphlab.framework.registry import NOT_DIFFERENTIABLE, build_op, register_op

_SAMPLER_INPUTS = ["true_classes: int64"]


def _sampler_outputs(op):
    true_classes = op._inputs[0]
    if true_classes._shape.ndims not in (None, 2):
        raise ValueError("Shape must be rank 2 but is rank %d" % true_classes._shape.ndims)
    batch = true_classes._shape.as_list()[0] if true_classes._shape.ndims == 2 else None
    sampled = tensor_shape.TensorShape([op._attrs["num_sampled"]])
    return [(dtypes.int64, sampled), (dtypes.float32, tensor_shape.TensorShape([batch, op._attrs["num_true"]])),
            (dtypes.float32, sampled)]


# ------------------------------------------------------------------------------- the distributions
class _Distribution:
    """What a sampler op knows about its classes: ``draw(gen, n)`` ids and ``probability(ids)`` (float32)."""

    def __init__(self, range_max):
        self.range = range_max

    def update(self, true_ids):
        """Learned samplers count the true classes they have seen; the others ignore them."""


class _Uniform(_Distribution):
    def draw(self, gen, n):
        return gen.integers(0, self.range, n)

    def draw_philox(self, reader, n):
        """Uniform64(range) n times: the low bits for a power of two, else bits % range after rejecting bits
        below 2^64 mod range (TF's ExactUniformInt; a rejection practically never happens)."""
        span = np.uint64(self.range)
        bits = reader.uint64s(n)
        if self.range & (self.range - 1) == 0:
            return (bits & (span - np.uint64(1))).astype(np.int64)
        reject_below = np.uint64(((1 << 64) - 1) % self.range + 1)
        accepted = bits[bits >= reject_below]
        while accepted.size < n:
            more = reader.uint64s(1)
            accepted = np.concatenate([accepted, more[more >= reject_below]])
        return (accepted % span).astype(np.int64)

    def probability(self, ids):
        return np.full(np.shape(ids), 1.0 / self.range, dtype=np.float32)


class _LogUniform(_Distribution):
    def __init__(self, range_max):
        super().__init__(range_max)
        self.log_range = np.log1p(float(range_max))

    def draw(self, gen, n):
        values = np.exp(gen.random(n) * self.log_range).astype(np.int64) - 1
        return values % self.range

    def draw_philox(self, reader, n):
        values = np.exp(reader.doubles(n) * self.log_range).astype(np.int64) - 1
        return values % self.range

    def probability(self, ids):
        ids = np.asarray(ids, dtype=np.float64)
        return (np.log((ids + 2.0) / (ids + 1.0)) / self.log_range).astype(np.float32)


class _Weighted(_Distribution):
    """Sampling proportional to ``weights`` (the unigram samplers)."""

    def __init__(self, weights):
        super().__init__(len(weights))
        self.weights = weights

    def draw(self, gen, n):
        cumulative = np.cumsum(self.weights, dtype=np.float64)
        picks = np.searchsorted(cumulative, gen.random(n) * cumulative[-1], side="right")
        return np.minimum(picks, self.range - 1)

    def probability(self, ids):
        # TF keeps the total as a float summed weight by weight (an exact integer for learned counts)
        total = np.cumsum(self.weights, dtype=np.float32)[-1]
        return self.weights[np.asarray(ids)].astype(np.float32) / total


class _Learned(_Weighted):
    def __init__(self, range_max):
        super().__init__(np.ones(range_max, dtype=np.int64))

    def update(self, true_ids):
        np.add.at(self.weights, np.asarray(true_ids).reshape(-1), 1)


def _fixed_weights(ctx):
    """FixedUnigramCandidateSampler's weights: reserved ids weigh 0, then the counts (from ``unigrams`` or
    the last column of each line of ``vocab_file``) raised to ``distortion``; only this shard's ids kept."""
    attrs = ctx.attrs
    vocab_file, unigrams = attrs.get("vocab_file", ""), list(attrs.get("unigrams", ()))
    if not vocab_file and not unigrams:
        raise InvalidArgumentError(None, ctx.op, "Must provide either vocab_file or unigrams.")
    if vocab_file and unigrams:
        raise InvalidArgumentError(None, ctx.op, "Must only provide one of vocab_file and unigrams.")
    shards, shard = int(attrs.get("num_shards", 1)), int(attrs.get("shard", 0))
    distortion = np.float32(attrs.get("distortion", 1.0))
    reserved = int(attrs.get("num_reserved_ids", 0))
    weights = [np.float32(0.0) for word in range(reserved) if word % shards == shard]
    counts = unigrams if not vocab_file else _vocab_counts(ctx, vocab_file)
    for word, count in enumerate(counts, start=reserved):
        if word % shards == shard:
            weights.append(np.power(np.float32(count), distortion))
    if len(weights) != attrs["range_max"]:
        raise InvalidArgumentError(None, ctx.op, "range is %d must be equal to weights size  %d" % (
            attrs["range_max"], len(weights)))
    return np.array(weights, dtype=np.float32)


def _vocab_counts(ctx, path):
    """The last comma-separated field of each line of a vocabulary file, as a count (data only)."""
    if not os.path.exists(path):
        raise NotFoundError(None, ctx.op, "%s; No such file or directory" % path)
    counts = []
    with open(path, encoding="utf-8") as f:
        for line in f.read().splitlines():
            field = line.split(",")[-1]
            try:
                counts.append(float(field))
            except ValueError:
                raise InvalidArgumentError(None, ctx.op, "Wrong vocabulary format at line: %s" % line) from None
    return counts


def _distribution(ctx, op_type):
    """This op's distribution in this session (a learned unigram keeps its counts between runs)."""
    key = ("candidate-sampler", ctx.op.name)
    dist = ctx.state.get(key)
    if dist is None:
        range_max = ctx.attrs.get("range_max")
        if op_type == "UniformCandidateSampler":
            dist = _Uniform(range_max)
        elif op_type == "LogUniformCandidateSampler":
            dist = _LogUniform(range_max)
        elif op_type == "LearnedUnigramCandidateSampler":
            dist = _Learned(range_max)
        else:
            dist = _Weighted(_fixed_weights(ctx))
        ctx.state[key] = dist
    return dist


# -------------------------------------------------------------------------------------- the kernels
def _expected_count(p, num_sampled, tries):
    """TF's ExpectedCountHelper, in float32 as TF computes it."""
    p = np.asarray(p, dtype=np.float32)
    if tries == num_sampled:
        return p * np.float32(num_sampled)
    return -np.expm1(np.float32(tries) * np.log1p(-p))


def _drawer(ctx, dist, num_sampled):
    """``draw(k)``: the next k ids of this run, from TF's Philox words where graphlab follows TF's sampler."""
    if hasattr(dist, "draw_philox"):
        stream = _stream(ctx)
        reader = philox.WordReader(stream.key, stream.reserve_calls(2048 * num_sampled // 4))
        return lambda k: dist.draw_philox(reader, k)
    gen = _generator(ctx)
    return lambda k: dist.draw(gen, k)


def _draw_unique(draw, n):
    """Draw until ``n`` distinct ids have come up; returns them (in order of appearance) and the number of
    draws it took (TF's rejection sampling, done here a batch of draws at a time: ``draw(k)`` continues one
    sequence, so batching changes nothing)."""
    seen = np.empty(0, dtype=np.int64)
    while True:
        seen = np.concatenate([seen, draw(max(2 * n, 16))])
        _, first = np.unique(seen, return_index=True)
        if first.size >= n:
            first = np.sort(first)[:n]
            return seen[first], int(first[-1]) + 1


def _sampler_kernel(op_type):
    def kernel(ctx, true_classes):
        attrs = ctx.attrs
        num_true, num_sampled, unique = attrs["num_true"], attrs["num_sampled"], attrs["unique"]
        if np.ndim(true_classes) != 2:
            raise InvalidArgumentError(None, ctx.op, "true_classes must be a matrix")
        if true_classes.shape[1] != num_true:      # TF's words, with the two numbers as TF orders them
            raise InvalidArgumentError(None, ctx.op, "true_classes must have num_true columns, expected: %d was: %d"
                                       % (true_classes.shape[1], num_true))
        dist = _distribution(ctx, op_type) if op_type != "AllCandidateSampler" else None
        limit = dist.range if dist is not None else num_sampled
        if unique and num_sampled > limit:
            raise InvalidArgumentError(None, ctx.op, "Sampler's range is too small.")
        bad = true_classes[(true_classes < 0) | (true_classes >= limit)]
        if bad.size:
            raise InvalidArgumentError(None, ctx.op, "`true_candidate` out of range [0, %d), received %d" % (
                limit, bad[0]))
        if dist is None:      # every class, each expected once
            ones = np.ones(true_classes.shape, np.float32)
            return np.arange(num_sampled, dtype=np.int64), ones, np.ones(num_sampled, np.float32)
        draw = _drawer(ctx, dist, num_sampled)
        if unique:
            sampled, tries = _draw_unique(draw, num_sampled)
        else:
            sampled, tries = draw(num_sampled), num_sampled
        true_count = _expected_count(dist.probability(true_classes), num_sampled, tries)
        sampled_count = _expected_count(dist.probability(sampled), num_sampled, tries)
        dist.update(true_classes)
        return sampled.astype(np.int64), true_count.astype(np.float32), sampled_count.astype(np.float32)
    return kernel


_SAMPLERS = {
    "UniformCandidateSampler": "uniformly",
    "LogUniformCandidateSampler": "from the log-uniform (Zipfian) distribution",
    "LearnedUnigramCandidateSampler": "from the unigram distribution of the true classes seen so far",
    "FixedUnigramCandidateSampler": "from given unigram counts (or a vocabulary file), raised to distortion",
    "AllCandidateSampler": "every class (0 .. num_sampled-1), for testing",
}

for _type, _how in _SAMPLERS.items():
    register_op(
        _type,
        inputs=_SAMPLER_INPUTS,
        outputs=_sampler_outputs,
        kernel=_sampler_kernel(_type),
        grad=NOT_DIFFERENTIABLE,
        stateful=True,
        doc="Samples num_sampled candidate classes %s, with their expected counts." % _how)


def _check_attrs(op_type, **minimum_one):
    for attr, value in minimum_one.items():
        if value < 1:
            raise ValueError("Attr '%s' of '%s' Op passed %d less than minimum 1." % (attr, op_type, value))


# TF returns (and Session.run gives back) a namedtuple named after the op, so results print as in TF
_RESULTS = {op_type: collections.namedtuple(op_type, ["sampled_candidates", "true_expected_count",
                                                      "sampled_expected_count"]) for op_type in _SAMPLERS}


def _sample(op_type, true_classes, num_true, num_sampled, unique, range_max, seed, name, **extra):
    seed1, seed2 = get_seed(seed)
    attrs = {"num_true": int(num_true), "num_sampled": int(num_sampled), "unique": bool(unique),
             "seed": seed1 or 0, "seed2": seed2 or 0}
    limits = {"num_true": attrs["num_true"], "num_sampled": attrs["num_sampled"]}
    if range_max is not None:
        attrs["range_max"] = limits["range_max"] = int(range_max)
    _check_attrs(op_type, **limits)
    attrs.update(extra)
    return _RESULTS[op_type](*build_op(op_type, [true_classes], attrs=attrs, name=name).outputs)


def uniform_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max, seed=None, name=None):
    """``tf.nn.uniform_candidate_sampler``: (sampled_candidates, true_expected_count,
    sampled_expected_count), every class in [0, range_max) equally likely."""
    return _sample("UniformCandidateSampler", true_classes, num_true, num_sampled, unique, range_max, seed, name)


def log_uniform_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max, seed=None, name=None):
    """``tf.nn.log_uniform_candidate_sampler``: small class ids (frequent words) more likely, as nce_loss
    samples by default."""
    return _sample("LogUniformCandidateSampler", true_classes, num_true, num_sampled, unique, range_max, seed,
                   name)


def learned_unigram_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max, seed=None,
                                      name=None):
    """``tf.nn.learned_unigram_candidate_sampler``: classes drawn as often as they were seen as true classes
    so far in this session (plus one)."""
    if range_max > 2147483647:
        raise ValueError("Value of range_max:%s is too large to handle" % range_max)
    return _sample("LearnedUnigramCandidateSampler", true_classes, num_true, num_sampled, unique, range_max, seed,
                   name)


def fixed_unigram_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max, vocab_file="",
                                    distortion=1.0, num_reserved_ids=0, num_shards=1, shard=0, unigrams=(),
                                    seed=None, name=None):
    """``tf.nn.fixed_unigram_candidate_sampler``: classes drawn in proportion to ``unigrams`` (or the counts
    in ``vocab_file``) to the power ``distortion``."""
    return _sample("FixedUnigramCandidateSampler", true_classes, num_true, num_sampled, unique, range_max, seed,
                   name, vocab_file=vocab_file, distortion=float(distortion), num_reserved_ids=int(num_reserved_ids),
                   num_shards=int(num_shards), shard=int(shard), unigrams=[float(u) for u in unigrams])


def all_candidate_sampler(true_classes, num_true, num_sampled, unique, seed=None, name=None):
    """``tf.nn.all_candidate_sampler``: every class 0 .. num_sampled-1, each expected once (for tests)."""
    return _sample("AllCandidateSampler", true_classes, num_true, num_sampled, unique, None, seed, name)


# -------------------------------------------------------------------------------- ComputeAccidentalHits
def _hits_outputs(op):
    true_classes, sampled = op._inputs
    shape = true_classes._shape
    if shape.ndims not in (None, 2):
        raise ValueError("Shape must be rank 2 but is rank %d" % shape.ndims)
    columns = shape.as_list()[1] if shape.ndims == 2 else None
    if columns is not None and columns != op._attrs["num_true"]:
        raise ValueError("Dimension must be %d but is %d" % (op._attrs["num_true"], columns))
    if sampled._shape.ndims not in (None, 1):
        raise ValueError("Shape must be rank 1 but is rank %d" % sampled._shape.ndims)
    vector = tensor_shape.TensorShape([None])
    return [(dtypes.int32, vector), (dtypes.int64, vector), (dtypes.float32, vector)]


def _hits_kernel(ctx, true_classes, sampled):
    if np.ndim(true_classes) != 2 or true_classes.shape[1] != ctx.attrs["num_true"]:
        raise InvalidArgumentError(None, ctx.op, "true_candidates must be a batch_size * num_true matrix")
    if np.ndim(sampled) != 1:
        raise InvalidArgumentError(None, ctx.op, "sampled_candidates must be a vector, which is typically an "
                                   "output from CandidateSampler")
    position = {int(c): i for i, c in enumerate(sampled)}      # a repeated candidate: its last position
    rows, ids = [], []
    for row, classes in enumerate(true_classes):
        for c in classes:
            if int(c) in position:
                rows.append(row)
                ids.append(position[int(c)])
    lowest = -np.finfo(np.float32).max
    return (np.array(rows, dtype=np.int32), np.array(ids, dtype=np.int64),
            np.full(len(rows), lowest, dtype=np.float32))


register_op(
    "ComputeAccidentalHits",
    inputs=["true_classes: int64", "sampled_candidates: int64"],
    outputs=_hits_outputs,
    kernel=_hits_kernel,
    grad=NOT_DIFFERENTIABLE,
    doc="Where a sampled candidate equals a true class of an example: (row, position in sampled, -FLT_MAX).")


def compute_accidental_hits(true_classes, sampled_candidates, num_true, seed=None, name=None):
    """``tf.nn.compute_accidental_hits``: (indices, ids, weights) of the sampled classes that are also true
    classes, for masking them out of sampled logits."""
    seed1, seed2 = get_seed(seed)
    return tuple(build_op("ComputeAccidentalHits", [true_classes, sampled_candidates],
                          attrs={"num_true": int(num_true), "seed": seed1 or 0, "seed2": seed2 or 0},
                          name=name).outputs)


__all__ = ["uniform_candidate_sampler", "log_uniform_candidate_sampler", "learned_unigram_candidate_sampler",
           "fixed_unigram_candidate_sampler", "all_candidate_sampler", "compute_accidental_hits"]
