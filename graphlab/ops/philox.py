"""TensorFlow's random numbers: the Philox4x32-10 counter-based generator and the conversions TF's CPU kernels
apply to its output, so a seeded graph draws the same numbers in graphlab as in TensorFlow.

Why: learners compare their runs with a tutorial's printed losses, and a checkpoint of freshly initialised
weights should hold TF's values. Facts from TF's kernels (random_op.cc, philox_random.h,
random_distributions.h):

* a random op with attributes ``seed``/``seed2`` owns a generator whose key is ``seed`` (low and high 32
  bits) and whose 128-bit counter starts at ``seed2 << 64``; both zero means fresh randomness;
* each run reserves ``256 * number of outputs`` counter values and starts where the previous run's reserve
  began plus that amount (so the second run of ``tf.random_uniform([6])`` starts at counter 1536);
* one Philox call gives four 32-bit words: four float32 or int32 samples, two float64 or int64 samples;
* normals come from Box-Muller on pairs of uniforms; a truncated normal keeps the values within two standard
  deviations, each group of outputs drawing from its own counter block (256 apart for float32, 128 for
  float64).

Everything is vectorised with numpy's uint64 arithmetic (wrapping is intended). Box-Muller's log, sin and cos
are evaluated in float64 and rounded, which matches TF's float32 library calls to within a few units in the
last place (sums and products are bit-exact; uniform and integer samples are identical).
"""
import os

import numpy as np

_M0, _M1 = np.uint64(0xD2511F53), np.uint64(0xCD9E8D57)
_W0, _W1 = 0x9E3779B9, 0xBB67AE85
_LOW32 = np.uint64(0xFFFFFFFF)
_SHIFT32 = np.uint64(32)
_MOD64 = 1 << 64
RESERVED_PER_OUTPUT = 256       # TF's ReserveRandomOutputs(size, 256) and kReservedSamplesPerOutput


def philox_blocks(key, counters):
    """Philox4x32-10 of each 128-bit counter under the 64-bit ``key``: an array of shape [n, 4] of uint32.

    ``counters`` is a pair (low 64 bits, high 64 bits) of uint64 arrays."""
    low, high = counters
    c0, c1 = low & _LOW32, low >> _SHIFT32
    c2, c3 = high & _LOW32, high >> _SHIFT32
    k0, k1 = key & 0xFFFFFFFF, (key >> 32) & 0xFFFFFFFF
    for _ in range(10):
        p0, p1 = c0 * _M0, c2 * _M1                     # 32 x 32 -> 64-bit products
        c0, c1, c2, c3 = ((p1 >> _SHIFT32) ^ c1 ^ np.uint64(k0), p1 & _LOW32,
                          (p0 >> _SHIFT32) ^ c3 ^ np.uint64(k1), p0 & _LOW32)
        k0, k1 = (k0 + _W0) & 0xFFFFFFFF, (k1 + _W1) & 0xFFFFFFFF
    return np.stack([c0, c1, c2, c3], axis=1).astype(np.uint32)


def _counters(start, offsets):
    """128-bit ``start + offsets`` as (low, high) uint64 arrays (offsets: uint64 array)."""
    start_low, start_high = np.uint64(start % _MOD64), np.uint64((start >> 64) % _MOD64)
    low = start_low + offsets
    high = start_high + (low < start_low).astype(np.uint64)
    return low, high


def words(key, start, count):
    """``count`` consecutive Philox calls from counter ``start``: [count, 4] uint32."""
    return philox_blocks(key, _counters(start, np.arange(count, dtype=np.uint64)))


class Stream:
    """One random op's generator in one session: its key and where the next run's counter starts."""

    def __init__(self, seed, seed2):
        if not seed and not seed2:            # unseeded: fresh randomness, as TF's New64()
            seed, seed2 = (int.from_bytes(os.urandom(8), "little") for _ in range(2))
        self.key = seed % _MOD64
        self.next_counter = (seed2 % _MOD64) << 64

    def reserve(self, outputs):
        """The counter this run starts from; later runs start ``256 * outputs`` further on."""
        return self.reserve_calls(RESERVED_PER_OUTPUT * outputs)

    def reserve_calls(self, calls):
        """The counter this run starts from; later runs start ``calls`` Philox calls further on (TF's
        ReserveSamples128; ReserveSamples32(n) reserves ceil(n / 4) calls)."""
        start = self.next_counter
        self.next_counter = (start + calls) % (1 << 128)
        return start


# --- conversions of 32-bit words, as TF's random_distributions.h --------------------------------------------

def _unit_float32(x):
    """[0, 1) from the low 23 bits: 1.mantissa as a float32, minus 1."""
    return ((x & np.uint32(0x7FFFFF)) | np.uint32(127 << 23)).view(np.float32) - np.float32(1.0)


def _unit_float16(x):
    return ((x & np.uint32(0x3FF)).astype(np.uint16) | np.uint16(15 << 10)).view(np.float16) - np.float16(1.0)


def _unit_float64(high, low):
    """[0, 1) from 20 bits of one word and all 32 of the next."""
    mantissa = ((high & np.uint32(0xFFFFF)).astype(np.uint64) << _SHIFT32) | low.astype(np.uint64)
    return (mantissa | np.uint64(1023 << 52)).view(np.float64) - 1.0


def _box_muller32(x0, x1):
    u1 = np.maximum(_unit_float32(x0), np.float32(1e-7))
    v1 = (2 * np.pi * _unit_float32(x1).astype(np.float64)).astype(np.float32)   # 2.0f * M_PI: a double
    radius = np.sqrt(np.float32(-2.0) * np.log(u1.astype(np.float64)).astype(np.float32))
    v1 = v1.astype(np.float64)
    return np.sin(v1).astype(np.float32) * radius, np.cos(v1).astype(np.float32) * radius


def _box_muller64(x0, x1, x2, x3):
    u1 = np.maximum(_unit_float64(x0, x1), 1e-7)
    v1 = 2 * np.pi * _unit_float64(x2, x3)
    radius = np.sqrt(-2.0 * np.log(u1))
    return np.sin(v1) * radius, np.cos(v1) * radius


def _interleave(a, b):
    return np.stack([a, b], axis=1).reshape(-1)


# --- the distributions of TF's random ops --------------------------------------------------------------------

def uniform(stream, count, dtype):
    """RandomUniform: ``count`` samples in [0, 1) of ``dtype`` (a numpy float dtype)."""
    dtype = np.dtype(dtype)
    start = stream.reserve(count)
    if dtype == np.float64:
        w = words(stream.key, start, -(-count // 2))
        return _interleave(_unit_float64(w[:, 0], w[:, 1]), _unit_float64(w[:, 2], w[:, 3]))[:count]
    flat = words(stream.key, start, -(-count // 4)).reshape(-1)[:count]
    if dtype == np.float16:
        return _unit_float16(flat)
    return _unit_float32(flat).astype(dtype, copy=False)


def normal(stream, count, dtype):
    """RandomStandardNormal: ``count`` samples of the standard normal distribution."""
    dtype = np.dtype(dtype)
    start = stream.reserve(count)
    if dtype == np.float64:
        w = words(stream.key, start, -(-count // 2))
        return _interleave(*_box_muller64(w[:, 0], w[:, 1], w[:, 2], w[:, 3]))[:count]
    w = words(stream.key, start, -(-count // 4))
    first, second = _box_muller32(w[:, 0], w[:, 1]), _box_muller32(w[:, 2], w[:, 3])
    out = np.stack([first[0], first[1], second[0], second[1]], axis=1).reshape(-1)[:count]
    return out.astype(dtype, copy=False)


def truncated_normal(stream, count, dtype):
    """TruncatedNormal: normal samples with |x| < 2, each output group drawing from its own counter block."""
    dtype = np.dtype(dtype)
    start = stream.reserve(count)
    wide = dtype == np.float64
    group = 2 if wide else 4                    # outputs per group
    spacing = RESERVED_PER_OUTPUT * group // 4  # counter distance between groups
    groups = -(-count // group)
    base = np.arange(groups, dtype=np.uint64) * np.uint64(spacing)
    out = np.empty((groups, group), np.float64 if wide else np.float32)
    pending, calls = np.arange(groups), 3        # three calls give a group its outputs but once in ~10^6
    while pending.size:
        candidates = np.concatenate([_candidates(stream.key, _counters(start, base[pending] + np.uint64(c)), wide)
                                     for c in range(calls)], axis=1)
        inside = np.abs(candidates) < 2.0
        rank = np.cumsum(inside, axis=1)
        done = rank[:, -1] >= group
        take = inside & (rank <= group) & done[:, None]
        out[pending[done]] = candidates[take].reshape(-1, group)
        pending, calls = pending[~done], calls * 2
    return out.reshape(-1)[:count].astype(dtype, copy=False)


def _candidates(key, counters, wide):
    """The normal samples one Philox call per group offers a truncated normal, in TF's order."""
    w = philox_blocks(key, counters)
    if wide:
        return np.stack(_box_muller64(w[:, 0], w[:, 1], w[:, 2], w[:, 3]), axis=1)
    a, b = _box_muller32(w[:, 0], w[:, 1]), _box_muller32(w[:, 2], w[:, 3])
    return np.stack([a[0], a[1], b[0], b[1]], axis=1)


def uniform_int(stream, count, low, high, dtype):
    """RandomUniformInt: integers in [low, high) as TF computes them (low + bits % range)."""
    dtype = np.dtype(dtype)
    start = stream.reserve(count)
    if dtype == np.int64:
        w = words(stream.key, start, -(-count // 2)).astype(np.uint64)
        bits = _interleave(w[:, 0] | (w[:, 1] << _SHIFT32), w[:, 2] | (w[:, 3] << _SHIFT32))[:count]
        span = np.uint64((int(high) - int(low)) % _MOD64)
        return (np.uint64(int(low) % _MOD64) + bits % span).view(np.int64)
    flat = words(stream.key, start, -(-count // 4)).reshape(-1)[:count]
    span = np.uint32((int(high) - int(low)) % (1 << 32))
    return (np.uint32(int(low) % (1 << 32)) + flat % span).view(np.int32).astype(dtype, copy=False)


class WordReader:
    """Consecutive 32-bit words from one counter on, as TF's SingleSampleAdapter hands them out (each Philox
    call's four words in order); ``take(n)`` continues where the last take stopped. Words are computed
    ``AHEAD_CALLS`` Philox calls at a time: a counter's words never change, and one vectorised call for 256
    words costs about what a call for 4 does."""

    AHEAD_CALLS = 64

    def __init__(self, key, start):
        self.key, self.next_call = key, start
        self.buffer = np.empty(0, np.uint32)
        self._singles = []          # words word() hands out, last first

    def take(self, n):
        if self._singles:           # what word() had not handed out comes first
            self.buffer = np.concatenate([np.array(self._singles[::-1], np.uint32), self.buffer])
            self._singles = []
        if n > self.buffer.size:
            calls = max(-(-(n - self.buffer.size) // 4), self.AHEAD_CALLS)
            fresh = words(self.key, self.next_call, calls).reshape(-1)
            self.next_call += calls
            self.buffer = np.concatenate([self.buffer, fresh])
        out, self.buffer = self.buffer[:n], self.buffer[n:]
        return out

    def word(self):
        """The next word as a Python int: ``int(take(1)[0])`` without numpy's per-call cost."""
        if not self._singles:
            self._singles = self.take(max(self.buffer.size, 4 * self.AHEAD_CALLS)).tolist()[::-1]
        return self._singles.pop()

    def doubles(self, n):
        """SimplePhilox's RandDouble, ``n`` times: two words each, the first giving the high mantissa bits."""
        pairs = self.take(2 * n).reshape(n, 2)
        return _unit_float64(pairs[:, 0], pairs[:, 1])

    def uint64s(self, n):
        """SimplePhilox's Rand64, ``n`` times: the first word low, the second high."""
        pairs = self.take(2 * n).reshape(n, 2).astype(np.uint64)
        return pairs[:, 0] | (pairs[:, 1] << _SHIFT32)


def shuffle_order(stream, size):
    """RandomShuffle's order of ``size`` rows: a Fisher-Yates pass from the front, row i swapping with row
    ``i + word % (size - i)``, one 32-bit word per swap (size - 1 of them, reserved as ReserveSamples32)."""
    swaps = size - 1
    calls = -(-swaps // 4)
    flat = words(stream.key, stream.reserve_calls(calls), calls).reshape(-1)[:swaps]
    remaining = np.arange(size, 1, -1, dtype=np.uint64)            # size - i for i = 0 .. size - 2
    partners = (flat.astype(np.uint64) % remaining + np.arange(swaps, dtype=np.uint64)).tolist()
    order = list(range(size))
    for i, j in enumerate(partners):
        order[i], order[j] = order[j], order[i]
    return np.array(order, dtype=np.int64)


def categorical_uniforms(stream, rows, samples):
    """The [rows, samples] doubles in [0, 1) Multinomial draws, in TF's order: each run reserves
    ``256 * rows * 2 * ceil4(samples)`` calls; two consecutive words make one double (SimplePhilox's
    RandDouble), row after row from one stream. TF draws this way whenever it runs the op as one block of
    work, i.e. when rows x its cost estimate 50 * (samples * log2(classes) + classes) is under ~110,000
    cycles or it has one intra-op thread; larger draws split across TF's threads, each block skipping ahead
    by ``first_row * (samples + 3) / 4`` calls, so there only the distribution agrees."""
    ceil4 = -(-samples // 4) * 4
    start = stream.reserve(rows * ceil4 * 2)
    count = 2 * rows * samples
    pairs = words(stream.key, start, -(-count // 4)).reshape(-1)[:count].reshape(rows, samples, 2)
    return _unit_float64(pairs[..., 0], pairs[..., 1])
