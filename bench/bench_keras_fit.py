"""Keras's training loop on graphlab vs real TensorFlow (tf-keras 2.21, graph mode, run in its own Python):
``model.fit`` of an MLP (784-128-10, relu, softmax, Adam, sparse categorical cross-entropy with accuracy) on
1024 samples in batches of 32, one epoch per block, and ``model.predict`` of the same samples. Blocks
alternate between the two engines; prints the best seconds per block and graphlab's ratio to TF. Not a test.

    python bench/bench_keras_fit.py [--rounds N]
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _common  # noqa: E402

ROUNDS = int(sys.argv[sys.argv.index("--rounds") + 1]) if "--rounds" in sys.argv else 5


def workloads(tf):
    """fit one epoch / predict, each a function returning its seconds; the model is built and compiled once."""
    import time
    keras = tf.keras
    rng = np.random.RandomState(0)
    x = rng.rand(1024, 784).astype(np.float32)
    y = rng.randint(0, 10, 1024)
    model = keras.Sequential([keras.layers.Dense(128, activation="relu", input_shape=(784,)),
                              keras.layers.Dense(10, activation="softmax")])
    model.compile(optimizer="adam", loss="sparse_categorical_crossentropy", metrics=["accuracy"])
    model.fit(x[:64], y[:64], batch_size=32, epochs=1, verbose=0)     # builds the training function

    def fit():
        start = time.perf_counter()
        model.fit(x, y, batch_size=32, epochs=1, verbose=0)
        return time.perf_counter() - start

    def predict():
        start = time.perf_counter()
        model.predict(x, batch_size=32)
        return time.perf_counter() - start
    return {"fit": fit, "predict": predict}


def main():
    if "--tf-worker" in sys.argv:
        _common.serve_tf(workloads(_common.import_tf_v1()))
        return
    import graphlab as gl
    worker = _common.TFWorker(os.path.abspath(__file__), ["--rounds", str(ROUNDS)])
    ours, theirs = _common.alternate(workloads(gl), worker, ROUNDS)
    _common.table("Keras MLP 784-128-10, Adam, 1024 samples in batches of 32 (best of %d blocks)" % ROUNDS,
                  [("fit", "fit, one epoch (32 steps)"), ("predict", "predict, 1024 samples")], ours, theirs)


if __name__ == "__main__":
    main()
