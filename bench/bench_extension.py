"""Per-cell overhead of the IPython extension (graphlab_ipython) on a large graph.

A real InteractiveShell runs cells that each add 10 ops to a default graph of ~100k ops, first without the
extension (the baseline, same process), then with it. The extension slices only the ops a cell added (graphs
are append-only) and hashes only those, so its overhead should be a few milliseconds whatever the graph size.
Figures: ms per cell, extension overhead in ms, and the ratio with/without, for a 1k and a 100k-op graph.
"""
import statistics
import sys
import time

from IPython.core.interactiveshell import InteractiveShell
from IPython.utils.capture import capture_output

import graphlab as tf

CELLS = 120
BLOCKS = 6
TEN_OPS = "a{i} = tf.constant({i}.0)\nb{i} = a{i} + 1.0\nc{i} = b{i} * 2.0\nd{i} = c{i} - 3.0\ne{i} = d{i} / 4.0\n"
RERUN = "a = tf.constant(1.0)\nb = a + 1.0\nc = b * 2.0\nd = c - 3.0\ne = d / 4.0\n"
HAS_OPS = all(hasattr(tf, name) for name in ("subtract", "divide"))
if not HAS_OPS:   # the engine has grown only add/multiply so far: ten ops from those
    TEN_OPS = "a{i} = tf.constant({i}.0)\nb{i} = a{i} + 1.0\nc{i} = b{i} * 2.0\nd{i} = c{i} + 3.0\n" \
              "e{i} = d{i} * 4.0\n"
    RERUN = "a = tf.constant(1.0)\nb = a + 1.0\nc = b * 2.0\nd = c + 3.0\ne = d * 4.0\n"


def build_graph(n_ops):
    tf.reset_default_graph()
    x = tf.constant(0.0)
    for _ in range((n_ops - 1) // 2):
        x = x + 1.0
    return len(tf.get_default_graph().get_operations())


def time_cells(ip, sources):
    times = []
    for source in sources:
        with capture_output():
            start = time.perf_counter()
            ip.run_cell(source, store_history=True)
            times.append(time.perf_counter() - start)
    return times


def _set_loaded(ip, loaded):
    with capture_output():
        ip.run_cell("%load_ext graphlab" if loaded else "%unload_ext graphlab", store_history=True)


def measure(ip, n_ops, offset):
    """Blocks of cells alternate without/with the extension (so machine noise hits both alike); medians."""
    size = build_graph(n_ops)
    times = {(kind, loaded): [] for kind in ("fresh", "rerun") for loaded in (False, True)}
    counter = offset
    for block in range(2 * BLOCKS):
        loaded = bool(block % 2)
        _set_loaded(ip, loaded)
        fresh = [TEN_OPS.format(i=counter + i) for i in range(CELLS // BLOCKS)]
        counter += CELLS // BLOCKS
        times[("fresh", loaded)].extend(time_cells(ip, fresh))
        # every run of RERUN repeats a cell: with the extension, duplicates are found and reported
        times[("rerun", loaded)].extend(time_cells(ip, [RERUN] * (CELLS // BLOCKS)))
    _set_loaded(ip, False)
    med = {k: statistics.median(v) * 1e3 for k, v in times.items()}
    return size, (med[("fresh", False)], med[("fresh", True)]), (med[("rerun", False)], med[("rerun", True)])


def main():
    ip = InteractiveShell.instance()
    ip.run_cell("import graphlab as tf", store_history=False)
    time_cells(ip, [TEN_OPS.format(i=900000 + i) for i in range(10)])   # warm-up
    print("extension overhead per cell that adds 10 ops (median of %d cells; baseline = same cells, extension "
          "not loaded, same process)" % CELLS)
    print("%-10s %-34s %10s %10s %10s %7s" % ("graph ops", "cell", "base ms", "ext ms", "overhead", "ratio"))
    for n_ops, offset in ((1000, 0), (100000, 10000)):
        size, fresh, rerun = measure(ip, n_ops, offset)
        for label, (base, ext) in (("new cell (no report)", fresh), ("re-run (duplicates reported)", rerun)):
            print("%-10d %-34s %10.2f %10.2f %9.2fms %6.2fx" % (size, label, base, ext, ext - base, ext / base))
    # one-off: the first re-run whose ops hang off the 100k-op chain hashes that chain once (memoized after)
    build_graph(100000)
    with capture_output():
        ip.run_cell("%load_ext graphlab", store_history=True)
        ip.run_cell("x = tf.get_default_graph().get_operations()[-1].outputs[0]", store_history=True)
        ip.run_cell("y = x + 1.0", store_history=True)
        start = time.perf_counter()
        ip.run_cell("y = x + 1.0", store_history=True)
        first = (time.perf_counter() - start) * 1e3
        start = time.perf_counter()
        ip.run_cell("y = x + 1.0", store_history=True)
        again = (time.perf_counter() - start) * 1e3
    print("re-run of a cell whose op consumes the end of a 100k-op chain: first %.1f ms (hashes the chain "
          "once), next %.2f ms" % (first, again))
    return 0


if __name__ == "__main__":
    sys.exit(main())
