"""Checkpoint write/read speed for one large float32 tensor, as ratios to plain numpy file I/O.

Baseline: ndarray.tofile / np.fromfile of the same bytes in the same process (no checksums, no index).
Also prints the CRC32C backend in use and its throughput. Set BENCH_MIB to change the size (default 256).
"""

import os
import tempfile
import time

import numpy as np

from graphlab.formats import crc32c, tensor_bundle


def timed(fn):
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


def main():
    mib = int(os.environ.get("BENCH_MIB", "256"))
    arr = np.random.default_rng(0).standard_normal(mib * 2**20 // 4, dtype=np.float32)
    backend = "numpy fallback" if crc32c._backend is crc32c._crc32c_numpy else "C extension"
    with tempfile.TemporaryDirectory() as d:
        raw = os.path.join(d, "raw.bin")
        prefix = os.path.join(d, "model.ckpt")
        base_w = timed(lambda: arr.tofile(raw))
        base_r = timed(lambda: np.fromfile(raw, dtype=np.float32))
        ours_w = timed(lambda: tensor_bundle.write_bundle(prefix, {"big": arr}))
        ours_r = timed(lambda: tensor_bundle.BundleReader(prefix).read("big"))
        crc_t = timed(lambda: crc32c.crc32c(arr))
    print("tensor: %d MiB float32; crc32c backend: %s (%.0f MiB/s)" % (mib, backend, mib / crc_t))
    print("write_bundle   %.2f s   %.1fx numpy tofile (%.2f s)" % (ours_w, ours_w / base_w, base_w))
    print("BundleReader   %.2f s   %.1fx numpy fromfile (%.2f s)" % (ours_r, ours_r / base_r, base_r))


if __name__ == "__main__":
    main()
