"""`graphlab serve` under load: 16 concurrent clients (BENCH_CLIENTS, 16-32) on loopback, each POSTing :predict
requests with its own inputs and checking every answer against numpy, while new versions (other weights) and
corrupt versions are dropped into the model directory. Every answer must be 200 and equal one version's
prediction exactly; a 5xx or a wrong answer fails the run (exit 1). Bounded: BENCH_REQUESTS in all (default
3000) or BENCH_SECONDS (default 60), whichever comes first; loopback only. Prints requests/s and p50/p99
latency, beside the same predictions made in this process without HTTP (Version.predict)."""
import concurrent.futures
import os
import statistics
import sys
import tempfile
import threading
import time

import numpy as np

CLIENTS = int(os.environ.get("BENCH_CLIENTS", "16"))


def export(path, seed=0):
    import graphlab as tf
    rng = np.random.RandomState(seed)
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [None, 32], name="x")
        w1 = tf.Variable(rng.randn(32, 64).astype(np.float32) * 0.2, name="w1")
        w2 = tf.Variable(rng.randn(64, 10).astype(np.float32) * 0.2, name="w2")
        probs = tf.nn.softmax(tf.matmul(tf.nn.relu(tf.matmul(x, w1)), w2), name="probs")
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            weights = sess.run([w1, w2])
            tf.saved_model.simple_save(sess, path, {"x": x}, {"probs": probs})
    return weights


def reference(x, w1, w2):
    h = np.maximum(x @ w1, 0) @ w2
    e = np.exp(h - h.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def percentile(values, q):
    return float(np.percentile(np.array(values), q)) * 1000


def swap_versions(models, staging, stop, swaps, weights):
    """Drop versions 2, 3, ... into the model directory while the clients run; every third one is corrupt
    (a saved_model.pb of garbage) and must be refused while the previous version keeps serving."""
    import shutil
    version = 1
    while not stop.wait(0.6):
        version += 1
        path = os.path.join(staging, str(version))
        if version % 3 == 1:
            shutil.copytree(os.path.join(models, "1"), path)
            with open(os.path.join(path, "saved_model.pb"), "wb") as f:
                f.write(b"\x0a\xff\xff\xff not a SavedModel")
            swaps.append((version, "corrupt"))
        else:
            weights.append(export(path, seed=version))
            swaps.append((version, "new weights"))
        os.rename(path, os.path.join(models, str(version)))


def main():
    import requests
    from graphlab.serving.models import Version
    from graphlab.serving.process import Server
    total = int(os.environ.get("BENCH_REQUESTS", "3000"))
    limit = float(os.environ.get("BENCH_SECONDS", "60"))
    batch = 4
    with tempfile.TemporaryDirectory() as d:
        models, staging = os.path.join(d, "models"), os.path.join(d, "staging")
        os.makedirs(staging)
        weights = [export(os.path.join(models, "1"))]
        inputs = [np.random.RandomState(1000 + i).randn(batch, 32).astype(np.float32) for i in range(64)]
        bodies = [{"instances": x.tolist()} for x in inputs]

        # in-process baseline: the same predictions without HTTP or JSON over the wire
        version = Version(1, os.path.join(models, "1"))
        n_base = min(total, 400)
        t = time.perf_counter()
        for i in range(n_base):
            version.predict("", "row", bodies[i % len(bodies)]["instances"])
        base_rate = n_base / (time.perf_counter() - t)
        version.close()

        latencies, wrong, server_errors = [], [], []
        lock = threading.Lock()
        counter = iter(range(total))
        deadline = time.time() + limit

        def matches(preds, k):
            return any(np.allclose(preds, reference(inputs[k], w1, w2), atol=1e-6) for w1, w2 in list(weights))

        def client(server_url):
            session = requests.Session()
            while time.time() < deadline:
                with lock:
                    i = next(counter, None)
                if i is None:
                    return
                k = i % len(bodies)
                t0 = time.perf_counter()
                r = session.post(server_url + "/v1/models/bench:predict", json=bodies[k], timeout=30)
                dt = time.perf_counter() - t0
                ok = r.status_code == 200 and matches(r.json()["predictions"], k)
                with lock:
                    latencies.append(dt)
                    if r.status_code >= 500:
                        server_errors.append((i, r.status_code, r.text[:200]))
                    elif not ok:
                        wrong.append((i, r.status_code, r.text[:200]))

        swaps, stop = [], threading.Event()
        with Server("bench", models, poll_seconds=0.1) as server:
            requests.post(server.url + "/v1/models/bench:predict", json=bodies[0], timeout=30)  # warm up
            swapper = threading.Thread(target=swap_versions, args=(models, staging, stop, swaps, weights))
            t = time.perf_counter()
            swapper.start()
            try:
                with concurrent.futures.ThreadPoolExecutor(CLIENTS) as pool:
                    for f in [pool.submit(client, server.url) for _ in range(CLIENTS)]:
                        f.result()
            finally:
                stop.set()
                swapper.join()
            wall = time.perf_counter() - t
            status = requests.get(server.url + "/v1/models/bench", timeout=30).json()["model_version_status"]
            alive = server.alive()
    n = len(latencies)
    states = {int(s["version"]): s["state"] for s in status}
    corrupt = [v for v, kind in swaps if kind == "corrupt"]
    print("graphlab serve: %d clients on loopback, %d requests of %d rows (MLP 32-64-10), %.1f s" % (
        CLIENTS, n, batch, wall))
    print("  versions dropped in while running: %d with new weights, %d corrupt; served at the end: %s" % (
        len(swaps) - len(corrupt), len(corrupt), [v for v, st in states.items() if st == "AVAILABLE"]))
    print("  requests/s        %8.1f   (in-process Version.predict, no HTTP: %.1f/s, %.2fx)" % (
        n / wall, base_rate, (n / wall) / base_rate))
    print("  latency p50       %8.1f ms" % percentile(latencies, 50))
    print("  latency p99       %8.1f ms" % percentile(latencies, 99))
    print("  latency mean      %8.1f ms" % (statistics.mean(latencies) * 1000))
    print("  answers checked   %d, wrong %d, 5xx %d; server still running: %s" % (
        n, len(wrong), len(server_errors), alive))
    if wrong or server_errors or not alive:
        for e in (server_errors + wrong)[:5]:
            print("  failed request:", e)
        sys.exit(1)


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    main()
