"""One training step of an MLP (784-256-10, batch 128, Adam, softmax cross-entropy): graphlab vs the same
math written by hand in numpy vs real TensorFlow (run in its own Python when available). Prints ms/step
and ratios; not a test.

    python bench/bench_training.py [--steps N]
"""
import json
import os
import subprocess
import sys
import time

import numpy as np

STEPS = int(sys.argv[sys.argv.index("--steps") + 1]) if "--steps" in sys.argv else 200
REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def data():
    rng = np.random.RandomState(0)
    X = rng.rand(128, 784).astype(np.float32)
    Y = np.eye(10, dtype=np.float32)[rng.randint(0, 10, 128)]
    W1 = (rng.randn(784, 256) * 0.05).astype(np.float32)
    W2 = (rng.randn(256, 10) * 0.05).astype(np.float32)
    return X, Y, W1, W2


def build(tf):
    X, Y, W1, W2 = data()
    x = tf.placeholder(tf.float32, [None, 784])
    y = tf.placeholder(tf.float32, [None, 10])
    w1, b1 = tf.Variable(W1), tf.Variable(tf.zeros([256]))
    w2, b2 = tf.Variable(W2), tf.Variable(tf.zeros([10]))
    h = tf.nn.relu(tf.matmul(x, w1) + b1)
    logits = tf.matmul(h, w2) + b2
    loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(labels=y, logits=logits))
    step = tf.train.AdamOptimizer(0.001).minimize(loss)
    sess = tf.Session()
    sess.run(tf.global_variables_initializer())
    return lambda: sess.run([step, loss], {x: X, y: Y})


def timed(fn, steps):
    for _ in range(5):
        fn()
    start = time.perf_counter()
    for _ in range(steps):
        fn()
    return (time.perf_counter() - start) / steps * 1e3


def numpy_step():
    X, Y, W1, W2 = data()
    p = {"w1": W1.copy(), "b1": np.zeros(256, np.float32), "w2": W2.copy(), "b2": np.zeros(10, np.float32)}
    m = {k: np.zeros_like(v) for k, v in p.items()}
    v = {k: np.zeros_like(v) for k, v in p.items()}
    t = [0]

    def step():
        h_pre = X @ p["w1"] + p["b1"]
        h = np.maximum(h_pre, 0)
        z = h @ p["w2"] + p["b2"]
        z = z - z.max(1, keepdims=True)
        e = np.exp(z)
        sm = e / e.sum(1, keepdims=True)
        loss = float(np.mean(-(Y * np.log(sm)).sum(1)))
        dz = (sm - Y) / len(X)
        g = {"w2": h.T @ dz, "b2": dz.sum(0)}
        dh = (dz @ p["w2"].T) * (h_pre > 0)
        g["w1"] = X.T @ dh
        g["b1"] = dh.sum(0)
        t[0] += 1
        alpha = 0.001 * np.sqrt(1 - 0.999 ** t[0]) / (1 - 0.9 ** t[0])
        for k in p:
            m[k] += (g[k] - m[k]) * 0.1
            v[k] += (g[k] * g[k] - v[k]) * 0.001
            p[k] = p[k] - alpha * m[k] / (np.sqrt(v[k]) + 1e-8)
        return loss
    return step


def tf_python():
    for exe in (os.environ.get("GRAPHLAB_TF_PYTHON"), os.path.join(REPO, ".tfvenv/bin/python"),
                "/work/main/.tfvenv/bin/python", "/work/tfvenv/bin/python"):
        if exe and os.path.exists(exe):
            return exe
    return None


def main():
    if "--tf" in sys.argv:
        import tensorflow.compat.v1 as tf
        tf.disable_v2_behavior()
        print(json.dumps({"tf_ms": timed(build(tf), STEPS)}))
        return
    sys.path.insert(0, REPO)
    import graphlab as gl
    gl_ms = timed(build(gl), STEPS)
    np_ms = timed(numpy_step(), STEPS)
    print("MLP 784-256-10, batch 128, Adam, softmax xent: %d steps" % STEPS)
    print("  numpy by hand : %7.3f ms/step" % np_ms)
    print("  graphlab      : %7.3f ms/step  (%.2fx numpy)" % (gl_ms, gl_ms / np_ms))
    exe = tf_python()
    if exe:
        env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3", CUDA_VISIBLE_DEVICES="")
        env.pop("PYTHONPATH", None)
        out = subprocess.run([exe, os.path.abspath(__file__), "--tf", "--steps", str(STEPS)], capture_output=True,
                             text=True, env=env)
        try:
            tf_ms = json.loads(out.stdout.strip().splitlines()[-1])["tf_ms"]
            print("  tensorflow    : %7.3f ms/step  (graphlab %.2fx TF)" % (tf_ms, gl_ms / tf_ms))
        except (ValueError, IndexError, KeyError):
            print("  tensorflow    : failed to run (%s)" % out.stderr.strip().splitlines()[-1:])
    else:
        print("  tensorflow    : not installed (set GRAPHLAB_TF_PYTHON)")


if __name__ == "__main__":
    main()
