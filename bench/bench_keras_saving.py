"""tf.keras saving speed, graphlab against real TensorFlow (this script's ``--tf`` half in TF's venv):
save_weights and load_weights of an MLP (BENCH_UNITS wide, 3 hidden Dense layers) in TF's checkpoint format
and in HDF5, and model.save/load_model of the HDF5 model. Figures are best-of-N seconds and the ratio
graphlab/TF measured in this run; no goals.
"""
import json
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _common  # noqa: E402


def workloads(tf, d):
    units = int(os.environ.get("BENCH_UNITS", "1024"))
    m = tf.keras.Sequential([tf.keras.layers.Dense(units, input_shape=(units,), activation="relu"),
                             tf.keras.layers.Dense(units, activation="relu"),
                             tf.keras.layers.Dense(units, activation="relu"), tf.keras.layers.Dense(10)])
    tf.keras.backend.get_session()
    ckpt, h5, model_h5 = os.path.join(d, "w"), os.path.join(d, "w.h5"), os.path.join(d, "m.h5")
    m.save_weights(ckpt)
    m.save_weights(h5)
    return {
        "save_weights (checkpoint)": lambda: m.save_weights(ckpt),
        "load_weights (checkpoint)": lambda: m.load_weights(ckpt),
        "save_weights (h5)": lambda: m.save_weights(h5),
        "load_weights (h5)": lambda: m.load_weights(h5),
        "model.save (h5)": lambda: m.save(model_h5),
    }, m.count_params()


def best(fn, repeat=5):
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def measure(tf):
    with tempfile.TemporaryDirectory() as d:
        work, params = workloads(tf, d)
        return {"params": params, "seconds": {name: best(fn) for name, fn in work.items()}}


def main():
    if "--tf" in sys.argv:
        print(json.dumps(measure(_common.import_tf_v1())))
        return
    import graphlab as tf
    ours = measure(tf)
    theirs = _common.run_tf_half(os.path.abspath(__file__))
    print("tf.keras saving, %d parameters (%.1f MiB float32)" % (ours["params"], ours["params"] * 4 / 2**20))
    print("%-28s %10s %10s %8s" % ("", "graphlab", "TF", "ratio"))
    for name, sec in ours["seconds"].items():
        tf_sec = theirs["seconds"][name] if theirs else None
        print("%-28s %9.1fms %9s %8s" % (name, sec * 1e3, "%.1fms" % (tf_sec * 1e3) if tf_sec else "-",
                                          "%.2fx" % (sec / tf_sec) if tf_sec else "-"))


if __name__ == "__main__":
    main()
