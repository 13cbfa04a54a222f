"""tf.keras.utils.Progbar prints what tf-keras's prints (verbose=1 bar redraws, verbose=2 epoch line, unknown
targets, stateful values, tiny averages in e-notation), compared byte for byte with live tf-keras once the
timings are masked; in a notebook kernel the bar redraws with a carriage return only, which Jupyter shows as
one live line."""
import io
import re
import sys
from contextlib import redirect_stdout

import pytest

from tests.keras import kerasref

SNIPPETS = {
    "verbose=1": """
bar = keras.utils.Progbar(10, interval=0)
for i in range(1, 11):
    bar.update(i, [('loss', 1.0 / i), ('acc', 0.1 * i)])
""",
    "verbose=1 stateful, width, finalize early": """
bar = keras.utils.Progbar(7, width=10, interval=0, stateful_metrics=['acc'])
bar.update(2, [('loss', 0.5), ('acc', 0.25)])
bar.add(3, [('loss', 0.00001), ('acc', 0.5)])
bar.update(6, [('loss', 0.2)], finalize=True)
""",
    "verbose=2": """
bar = keras.utils.Progbar(100, verbose=2, unit_name='sample')
for i in range(10, 101, 10):
    bar.update(i, [('loss', 0.5 / i), ('tiny', 1e-5)])
""",
    "unknown target": """
bar = keras.utils.Progbar(None, interval=0)
for i in range(1, 4):
    bar.update(i, [('loss', float(i))])
bar.update(3, finalize=True)
""",
}
for key in list(SNIPPETS):
    SNIPPETS[key] += "\nresult = None\n"


def mask(text):
    """Timings masked; backspaces and the padding after a redraw depend on the previous line's width, which
    depends on its timings: each redraw is compared without them."""
    text = "\r".join(part.replace("\b", "").rstrip(" ") for part in text.split("\r"))
    text = re.sub(r"\b\d+(\.\d+)?(s|ms|us)(/(epoch|sample|step))?\b", "<t>", text)
    return re.sub(r"ETA: [\d:]+s?", "ETA: <t>", text)


@pytest.fixture(scope="module")
def theirs():
    return kerasref.reference(SNIPPETS)


@pytest.mark.parametrize("key", sorted(SNIPPETS))
def test_progbar_prints_as_tf(key, theirs):
    ours = kerasref.run_ours(SNIPPETS[key])
    assert mask(ours["stdout"]) == mask(theirs[key]["stdout"])


def test_notebook_bar_redraws_with_carriage_returns_only(monkeypatch):
    """In a Jupyter kernel no backspaces: each redraw starts with \\r, the last line ends with \\n."""
    import graphlab.keras as keras
    monkeypatch.setitem(sys.modules, "ipykernel", sys.modules.get("ipykernel") or type(sys)("ipykernel"))
    buf = io.StringIO()
    with redirect_stdout(buf):
        bar = keras.utils.Progbar(4, interval=0)
        for i in range(1, 5):
            bar.update(i, [("loss", 1.0)])
    text = buf.getvalue()
    assert "\b" not in text
    assert text.count("\r") == 4 and text.endswith("\n")
    assert text.split("\r")[-1].startswith("4/4 [==============================] - ")
