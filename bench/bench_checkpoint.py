"""Checkpoint write/read speed for one large float32 tensor, as ratios to plain numpy file I/O.

Baseline: ndarray.tofile / np.fromfile of the same bytes in the same process (no checksums, no index).
Also prints the CRC32C backend in use and its throughput. Set BENCH_MIB to change the size (default 256).

Second part: tf.train.Saver save and restore of BENCH_MIB MiB of variables (8 float32 variables) through the
graph's save/ ops, graphlab vs real TensorFlow (run as this script's ``--tf`` half in TF's venv).
"""

import os
import sys
import tempfile
import time

import numpy as np



def timed(fn):
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


def main():
    from graphlab.formats import crc32c, tensor_bundle  # not at the top: the --tf half has no graphlab
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


N_VARS = 8


def saver_figures(tf, mib, repeat=3):
    """Best-of save and restore seconds for `mib` MiB of variables in N_VARS variables, with module `tf`."""
    per = mib * 2**20 // 4 // N_VARS
    rng = np.random.default_rng(0)
    g = tf.Graph()
    with g.as_default():
        vs = [tf.Variable(rng.standard_normal(per, dtype=np.float32), name="v%d" % i) for i in range(N_VARS)]
        saver = tf.train.Saver(max_to_keep=1)
        sess = tf.Session()
        sess.run(tf.global_variables_initializer())
        with tempfile.TemporaryDirectory() as d:
            prefix = os.path.join(d, "model.ckpt")
            save = best_of(lambda: saver.save(sess, prefix, write_meta_graph=False), repeat=repeat)
            restore = best_of(lambda: saver.restore(sess, prefix), repeat=repeat)
    del vs
    return {"save": save, "restore": restore}


def main_saver():
    from _common import run_tf_half, table
    mib = int(os.environ.get("BENCH_MIB", "256"))
    import graphlab
    ours = saver_figures(graphlab, mib)
    theirs = run_tf_half(os.path.abspath(__file__))
    table("tf.train.Saver, %d MiB in %d float32 variables (best of 3)" % (mib, N_VARS),
          [("save", "Saver.save (no .meta)"), ("restore", "Saver.restore")], ours, theirs)


def best_of(fn, repeat=3):
    best = float("inf")
    for _ in range(repeat):
        best = min(best, timed(fn))
    return best


if __name__ == "__main__":
    if "--tf" in sys.argv:
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        from _common import emit, import_tf_v1
        emit(saver_figures(import_tf_v1(), int(os.environ.get("BENCH_MIB", "256"))))
    else:
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        main()
        main_saver()
