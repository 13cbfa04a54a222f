"""RandomGamma's and RandomPoissonV2's samples as TensorFlow's CPU kernels draw them (random_op.cc,
random_poisson_op.cc), from their Philox streams.

Why a file of its own: both samplers loop until a draw is accepted, so each output uses a varying number of
Philox calls. TF keeps outputs independent of how its threads split the work by giving output ``i`` the
counter block that starts ``256 * i`` calls after the run's reserve; graphlab runs every output's loop at once
in numpy, one pass per attempt, until all have accepted.

Facts carried over from TF's kernels: all arithmetic is in float64 whatever the types; a normal draw is one
Philox call giving two doubles by Box-Muller and a uniform draw one call giving two doubles, each pair used
from its second element to its first and kept across attempts. Gamma: Marsaglia and Tsang's transformation
of a normal and a uniform; alpha == 1 takes -log(1 - u) from one uniform; alpha < 1 samples Gamma(alpha + 1)
and multiplies by u ** (1 / alpha) with one more uniform. Poisson: below rate 10, Knuth's product of uniforms
until it falls to exp(-rate) (a negative rate gives 0); from 10 on, Hormann's transformed rejection with
pairs of uniforms (lgamma is evaluated by Python's math.lgamma, which can differ from C's in the last place;
only a draw within that of the acceptance bound could come out differently).
"""
import math

import numpy as np

from graphlab.ops import philox

_CALLS_PER_OUTPUT = philox.RESERVED_PER_OUTPUT


class _PairSource:
    """Per-output buffers of two doubles drawn by ``make`` from each output's own Philox calls, handed out
    second element first, as TF's ``*_remaining--`` indexing does."""

    def __init__(self, count, make):
        self.make = make
        self.values = np.zeros((count, 2))
        self.left = np.zeros(count, np.int8)

    def take(self, rows, stream, start, next_call):
        empty = rows[self.left[rows] == 0]
        if empty.size:
            w = philox.philox_blocks(stream.key, philox._counters(start, next_call[empty]))
            next_call[empty] += np.uint64(1)
            self.values[empty] = np.stack(self.make(w[:, 0], w[:, 1], w[:, 2], w[:, 3]), axis=1)
            self.left[empty] = 2
        self.left[rows] -= 1
        return self.values[rows, self.left[rows]]


def _uniform_pair(x0, x1, x2, x3):
    return philox._unit_float64(x0, x1), philox._unit_float64(x2, x3)


class _Outputs:
    """Every output's own place in the stream: output i starts ``256 * i`` calls after the run's reserve."""

    def __init__(self, stream, count):
        self.stream = stream
        self.start = stream.reserve(count)
        self.next_call = np.arange(count, dtype=np.uint64) * np.uint64(_CALLS_PER_OUTPUT)
        self.normals = _PairSource(count, philox._box_muller64)
        self.uniforms = _PairSource(count, _uniform_pair)

    def uniform(self, rows):
        return self.uniforms.take(rows, self.stream, self.start, self.next_call)

    def normal(self, rows):
        return self.normals.take(rows, self.stream, self.start, self.next_call)


def gamma(stream, alphas, num_samples):
    """``num_samples`` Gamma(alpha, 1) samples for each of the flat float64 ``alphas``: [num_samples, alphas]."""
    num_alphas = alphas.size
    count = num_samples * num_alphas
    draws = _Outputs(stream, count)
    alpha = np.repeat(alphas, num_samples)             # output i = alpha_index * num_samples + sample_index
    result = np.empty(count)

    exponential = np.flatnonzero(alpha == 1.0)
    result[exponential] = -np.log(1.0 - draws.uniform(exponential))

    below_one = alpha < 1
    d = alpha + np.where(below_one, 2.0 / 3, -1.0 / 3)
    with np.errstate(invalid="ignore", divide="ignore"):
        c = 1.0 / 3 / np.sqrt(d)
    pending = np.flatnonzero(alpha != 1.0)
    while pending.size:
        x = draws.normal(pending)
        v = 1 + c[pending] * x
        positive = v > 0                                # otherwise TF draws the next normal at once
        rows, x, v = pending[positive], x[positive], v[positive]
        v = v * v * v
        u = draws.uniform(rows)
        with np.errstate(invalid="ignore", divide="ignore"):
            accept = (u < 1 - 0.0331 * (x * x) * (x * x)) | \
                (np.log(u) < 0.5 * x * x + d[rows] * (1 - v + np.log(v)))
        done, v = rows[accept], v[accept]
        result[done] = d[done] * v
        small = done[below_one[done]]
        if small.size:
            result[small] *= draws.uniform(small) ** (1 / alpha[small])
        pending = np.setdiff1d(pending, done, assume_unique=True)
    return result.reshape(num_alphas, num_samples).T


def poisson(stream, rates, num_samples, out_dtype):
    """``num_samples`` Poisson(rate) counts for each of the flat float64 ``rates``: [num_samples, rates]."""
    num_rates = rates.size
    count = num_samples * num_rates
    draws = _Outputs(stream, count)
    rate = np.repeat(rates, num_samples)
    highest = float(np.iinfo(out_dtype).max if np.issubdtype(out_dtype, np.integer) else np.finfo(out_dtype).max)
    result = np.empty(count)
    _knuth(draws, np.flatnonzero(rate < 10), rate, highest, result)
    _hormann(draws, np.flatnonzero(~(rate < 10)), rate, highest, result)
    return result.reshape(num_rates, num_samples).T


def _knuth(draws, pending, rate, highest, result):
    """Count uniforms until their running product falls to exp(-rate)."""
    limit = np.exp(-rate[pending])
    product = np.ones(pending.size)
    counted = np.zeros(pending.size)
    while pending.size:
        product *= draws.uniform(pending)
        done = (product <= limit) & (counted <= highest)
        result[pending[done]] = counted[done]
        keep = ~done
        pending, limit, product, counted = pending[keep], limit[keep], product[keep], counted[keep] + 1


def _hormann(draws, pending, rate, highest, result):
    """Transformed rejection with a pair of uniforms per attempt (rates of 10 and more)."""
    lam = rate[pending]
    b = 0.931 + 2.53 * np.sqrt(lam)
    a = -0.059 + 0.02483 * b
    inv_alpha = 1.1239 + 1.1328 / (b - 3.4)
    log_rate = np.log(lam)
    while pending.size:
        u = draws.uniform(pending) - 0.5
        v = draws.uniform(pending)
        u_shifted = 0.5 - np.abs(u)
        k = np.floor((2 * a / u_shifted + b) * u + lam + 0.43)
        fits = ~(k > highest)
        quick = fits & (u_shifted >= 0.07) & (v <= 0.9277 - 3.6224 / (b - 2))
        test = fits & ~quick & ~((k < 0) | ((u_shifted < 0.013) & (v > u_shifted)))
        accept = quick.copy()
        if test.any():
            i = np.flatnonzero(test)
            s = np.log(v[i] * inv_alpha[i] / (a[i] / (u_shifted[i] * u_shifted[i]) + b[i]))
            t = -lam[i] + k[i] * log_rate[i] - np.array([math.lgamma(x + 1) for x in k[i].tolist()])
            accept[i] = s <= t
        result[pending[accept]] = k[accept]
        keep = ~accept
        pending, lam, b, a, inv_alpha, log_rate = (x[keep] for x in (pending, lam, b, a, inv_alpha, log_rate))
