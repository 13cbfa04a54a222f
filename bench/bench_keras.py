"""tf.keras in graph mode (issue 27): building a small CNN (Conv2D, MaxPooling2D, BatchNormalization, Dense)
and a 2-layer LSTM model with tf.keras, and one inference run of the CNN on a batch of 64 28x28 images in
Keras's session, for graphlab and real TensorFlow 1 graph mode with tf-keras taking turns. Prints figures;
not a test.

    python bench/bench_keras.py
"""
import gc
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _common  # noqa: E402


def cnn(tf):
    L = tf.keras.layers
    return tf.keras.Sequential([
        L.Conv2D(16, 3, activation="relu", padding="same", input_shape=(28, 28, 1)), L.MaxPooling2D(),
        L.BatchNormalization(), L.Conv2D(32, 3, activation="relu"), L.MaxPooling2D(), L.Flatten(),
        L.Dropout(0.25), L.Dense(64, activation="relu"), L.Dense(10, activation="softmax")])


def lstm(tf):
    L = tf.keras.layers
    i = tf.keras.Input((20, 8))
    h = L.LSTM(32, return_sequences=True)(i)
    return tf.keras.Model(i, L.Dense(1)(L.LSTM(16)(h)))


def build(tf, make):
    """Seconds to build the model in a fresh graph (tf.keras.backend.clear_session first)."""
    tf.keras.backend.clear_session()
    gc.collect()
    start = time.perf_counter()
    make(tf)
    return time.perf_counter() - start


class Predict:
    """One inference run of the CNN on 64 images (the session and weights made once)."""

    def __init__(self, tf):
        self.graph = tf.Graph()     # a graph and session of its own: the builds' clear_session leaves them
        with self.graph.as_default():
            self.model = cnn(tf)
            self.sess = tf.Session()
            self.sess.run(tf.global_variables_initializer())
        self.feed = {self.model.input: np.random.RandomState(0).rand(64, 28, 28, 1).astype(np.float32)}
        self.sess.run(self.model.output, self.feed)

    def __call__(self):
        return _common.best_of(lambda: self.sess.run(self.model.output, self.feed), repeat=2, number=5)


def workloads(tf):
    return {"cnn_build": lambda: build(tf, cnn), "lstm_build": lambda: build(tf, lstm), "predict": Predict(tf)}


ROUNDS = 3
ROWS = [("cnn_build", "build Sequential CNN (9 layers)"), ("lstm_build", "build 2 x LSTM functional model"),
        ("predict", "CNN inference, batch 64 x 28 x 28")]


def main():
    if "--tf-worker" in sys.argv:
        _common.serve_tf(workloads(_common.import_tf_v1()))
        return
    import graphlab as tf
    worker = _common.TFWorker(os.path.abspath(__file__))
    ours, theirs = _common.alternate(workloads(tf), worker, ROUNDS)
    _common.table("tf.keras: graphlab vs TensorFlow 1 graph mode with tf-keras (best of %d blocks each, taking "
                  "turns; ratio < 1: graphlab faster)" % ROUNDS, ROWS, ours, theirs)


if __name__ == "__main__":
    main()
