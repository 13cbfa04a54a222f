"""`graphlab serve` as a busy server and a hostile client see it: versions swapped (and a corrupt one dropped in)
while 16 clients predict get no 500 and no answer from a half-closed version; a version stays open while a
request holds it; JSON nested past the depth limit, a 50 MB body of "[", a number beyond double range (1e400)
are 400s with TF Serving's {"error": ...} body; a body that stalls is answered and its connection closed."""
import json
import os
import shutil
import socket
import threading
import time

import numpy as np
import pytest

requests = pytest.importorskip("requests")
pytest.importorskip("aiohttp")

from graphlab.serving.process import Server  # noqa: E402
from test_serve import W, export  # noqa: E402

ONLY_X = "only_x"


@pytest.fixture(scope="module")
def hostile(tmp_path_factory):
    base = tmp_path_factory.mktemp("hostile") / "models"
    base.mkdir()
    export(base / "1", 1.0)
    with Server("m", base, "--rest_api_timeout_in_ms", "700") as server:
        yield server


def _error_of(r):
    assert set(r.json()) == {"error"}, r.text
    return r.json()["error"]


@pytest.mark.parametrize("body, message", [
    (b'{"signature_name": "only_x", "instances": [[1e400, 0, 0]]}',
     "JSON Parse error: Number too big to be stored in double. at offset: 44"),
    (b'{"signature_name": "only_x", "instances": [[-1' + b"0" * 400 + b', 0, 0]]}',
     "JSON Parse error: Number too big to be stored in double. at offset: 44"),
    (b"[" * 1000, "JSON Parse error: The document nests arrays and objects more than 260 levels deep at offset: 260"),
    (b'{"instances": ' + b"[" * 5000 + b"1" + b"]" * 5000 + b"}",
     "JSON Parse error: The document nests arrays and objects more than 260 levels deep at offset: 273"),
    (b"[" * (50 << 20), "JSON Parse error: The document nests arrays and objects more than 260 levels deep"),
    (b'{"signature_name": "only_x", "inputs": ' + b"[" * 200 + b"1" + b"]" * 200 + b"}",
     "JSON Value nests lists 200 levels deep: a tensor this server feeds has at most 64 dimensions"),
    (b'{"signature_name": "only_x", "instances": [[1, 2, 3]], "x": "\xff\xfe"}', "JSON Parse error: "),
])
def test_hostile_bodies_are_400s_in_tf_servings_form(hostile, body, message):
    r = requests.post(hostile.url + "/v1/models/m:predict", data=body, timeout=120)
    assert r.status_code == 400, r.text[:300]
    assert message in _error_of(r)
    assert "Traceback" not in hostile.log()
    ok = requests.post(hostile.url + "/v1/models/m:predict",
                       json={"signature_name": ONLY_X, "instances": [[1, 0, 0]]}, timeout=60)
    assert ok.json() == {"predictions": [[1.0, 2.0]]}


def test_numbers_within_double_range_are_taken(hostile):
    r = requests.post(hostile.url + "/v1/models/m:predict", timeout=60,
                      data=b'{"signature_name": "only_x", "instances": [[1e-400, 1e2, 0]]}')
    assert r.status_code == 200 and r.json() == {"predictions": [[300.0, 400.0]]}


def _raw_request(url, head_and_partial_body, wait):
    host, port = url.split("//")[1].split(":")
    with socket.create_connection((host, int(port)), timeout=wait) as s:
        s.sendall(head_and_partial_body)
        received = b""
        while True:
            try:
                chunk = s.recv(65536)
            except socket.timeout:
                return received, False
            if not chunk:
                return received, True  # the server closed the connection
            received += chunk


def test_a_stalled_body_is_answered_and_its_connection_closed(hostile):
    head = (b"POST /v1/models/m:predict HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: 1000\r\n\r\n{\"instances\": [")
    received, closed = _raw_request(hostile.url, head, wait=30)
    assert closed, received
    status_line, _, rest = received.partition(b"\r\n")
    assert status_line.split()[1] == b"400", received
    body = json.loads(rest.split(b"\r\n\r\n", 1)[1])
    assert body == {"error": "Request body not received within 0.7 s (the server's --rest_api_timeout_in_ms)"}
    assert requests.get(hostile.url + "/v1/models/m", timeout=10).status_code == 200


def test_versions_swapped_under_load_lose_no_request(tmp_path):
    """16 clients predict while versions 2..5 appear (4 corrupt); every answer is 200 and matches one
    version's weights exactly (a request never runs on a version closed under it)."""
    base = tmp_path / "models"
    base.mkdir()
    scales = {1: 1.0, 2: 2.0, 3: 3.0, 5: 5.0}
    for v in scales:
        export(tmp_path / ("staging%d" % v), scales[v])
    os.rename(tmp_path / "staging1", base / "1")
    x = [[1.0, 0.5, 0.25]]
    answers = {s: (np.array(x, np.float32) @ (W * s)).tolist() for s in scales.values()}
    results, stop = [], threading.Event()

    def client():
        session = requests.Session()
        while not stop.is_set():
            r = session.post(server.url + "/v1/models/m:predict", json={"signature_name": ONLY_X, "instances": x},
                             timeout=60)
            results.append((r.status_code, r.text))

    with Server("m", base, poll_seconds=0.02) as server:
        threads = [threading.Thread(target=client) for _ in range(16)]
        for t in threads:
            t.start()
        try:
            for v in (2, 3, 4, 5):
                time.sleep(0.7)
                if v == 4:
                    shutil.copytree(base / "3", tmp_path / "staging4")
                    with open(tmp_path / "staging4" / "saved_model.pb", "wb") as f:
                        f.write(b"\x0a\xff\xff\xff garbage")
                os.rename(tmp_path / ("staging%d" % v), base / str(v))
                deadline = time.time() + 60
                while time.time() < deadline:
                    states = {s["version"]: s["state"] for s in requests.get(
                        server.url + "/v1/models/m", timeout=10).json()["model_version_status"]}
                    if states.get(str(v)) in ("AVAILABLE", "END"):
                        break
                    time.sleep(0.05)
            time.sleep(0.7)
        finally:
            stop.set()
            for t in threads:
                t.join()
        log = server.log()
    statuses = [c for c, _ in results]
    assert len(results) > 100 and statuses.count(200) == len(results), (
        [r for r in results if r[0] != 200][:3], log[-2000:])
    seen = {json.dumps(json.loads(text)["predictions"]) for _, text in results}
    assert seen <= {json.dumps(a) for a in answers.values()}, seen
    assert json.dumps(answers[5.0]) in seen and states["5"] == "AVAILABLE" and states["4"] == "END"
    assert "closed Session" not in log


def test_a_held_version_closes_only_when_released(tmp_path):
    from graphlab.serving.models import ServedModel
    base = tmp_path / "models"
    base.mkdir()
    export(base / "1", 1.0)
    model = ServedModel("m", str(base), log=lambda text: None)
    model.poll()
    held = model.version_for("m", None)
    export(base / "2", 2.0)
    model.poll()
    assert model.states[1][0] == "UNLOADING" and not held.closed
    assert held.predict(ONLY_X, "row", [[1, 0, 0]]) == '{"predictions": [[1.0, 2.0]]}'
    held.release()
    assert held.closed and model.states[1] == ("END", "OK", "") and model.states[2][0] == "AVAILABLE"
    model.close()
