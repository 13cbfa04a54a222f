"""``tf.print`` and ``tf.strings.format`` compared with TF 2.21 run live: the same program in both engines
builds the same PrintV2 and StringFormat ops (names, inputs, template, placeholder, summarize, stream, end)
and prints the same text; tf.print writes to stderr by default."""
import json
import sys

import pytest

import graphlab as tf
from tests.tfref import run_tf

CASES = [
    '"hello", tf.constant(5), [1, tf.constant([1, 2])], {"b": tf.constant(2.5), "a": "s"}',
    'tf.constant([[1.5, 2, 3, 4, 5, 6, 7], [1, 2, 3, 4, 5, 6, 7]] * 4), summarize=2, name="big"',
    'tf.constant("just a string")',
    'tf.constant(["a", "b"]), tf.constant(True), tf.constant([1e-7, 1e10]), sep="|", end="!\\n"',
    'tf.range(10), summarize=-1',
    'tf.zeros([2, 0]), tf.zeros([2, 0, 2])',
    'tf.constant(3.0, tf.float64) / 7, tf.constant(1 / 3.0), tf.constant([2 ** 40], tf.int64)',
    '"literal {}", tf.constant(1)',
    'collections.OrderedDict([("z", tf.constant(1)), ("a", 2)])',
    'tf.reshape(tf.range(16), [2, 2, 2, 2]), tf.ones([]), tf.constant(1.0, tf.float16)',
    'tf.reshape(tf.range(64), [4, 4, 4]), summarize=1',
    '"x", tf.constant("s"), tf.constant(["q\\"uote", "tab\\t"]), tf.constant(7, tf.uint8), '
    'tf.constant([1 + 2j], tf.complex64), tf.constant(1, tf.int8)',
]

PROGRAM = r'''
import collections, json, os, sys
cases, folder = json.loads(sys.argv[1]), sys.argv[2]
out = {"graphs": [], "printed": [], "errors": {}}
def attr(op, key):
    value = op.get_attr(key)
    return value.decode() if isinstance(value, bytes) else value
for i, case in enumerate(cases):
    tf.reset_default_graph()
    op = eval("tf.print(%s)" % case)
    ops = [op] + [t.op for t in op.inputs if t.op.type == "StringFormat"]
    out["graphs"].append([[o.name, o.type, [t.name for t in o.inputs]] +
                          [attr(o, k) for k in ("template", "placeholder", "summarize", "output_stream", "end")
                           if k in o.node_def.attr] for o in ops])
    path = os.path.join(folder, "%d.txt" % i)
    tf.Session().run(eval("tf.print(%s, output_stream='file://%s')" % (case, path)))
    out["printed"].append(open(path).read())
tf.reset_default_graph()
formatted = tf.strings.format("a {} b {}", [tf.constant(1), tf.constant([2.0, 3.0])], summarize=1)
out["format"] = [formatted.op.name, formatted.dtype.name, formatted.shape.as_list(),
                 tf.Session().run(formatted).decode()]
for key, src in {"stream": "tf.print(1, output_stream='nope')", "keyword": "tf.print(1, foo=2)",
                 "format_count": "tf.strings.format('a {} b', [tf.constant(1), tf.constant(2)])"}.items():
    try:
        eval(src)
    except Exception as e:
        out["errors"][key] = [type(e).__name__, str(e)]
print(json.dumps(out))
'''


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    folder = tmp_path_factory.mktemp("tf_print")
    return json.loads(run_tf(PROGRAM, json.dumps(CASES), folder).strip().splitlines()[-1])


@pytest.fixture(scope="module")
def ours(tmp_path_factory):
    folder = tmp_path_factory.mktemp("graphlab_print")
    printed = []
    scope = {"tf": tf, "print": printed.append, "__name__": "program"}
    saved = sys.argv
    sys.argv = ["program", json.dumps(CASES), str(folder)]
    try:
        exec(compile(PROGRAM, "<program>", "exec"), scope)
    finally:
        sys.argv = saved
    return json.loads(printed[-1])


def test_print_builds_the_ops_tf_builds(reference, ours):
    for case, mine, theirs in zip(CASES, ours["graphs"], reference["graphs"]):
        assert mine == theirs, case


def test_print_prints_what_tf_prints(reference, ours):
    for case, mine, theirs in zip(CASES, ours["printed"], reference["printed"]):
        assert mine == theirs, case


def test_strings_format_and_errors_as_tf(reference, ours):
    assert ours["format"] == reference["format"]
    assert ours["errors"] == reference["errors"]


def test_print_writes_to_stderr_by_default(capfd):
    with tf.Graph().as_default():
        op = tf.print("loss:", tf.constant([0.5, 0.25]))
        with tf.Session() as sess:
            assert sess.run(op) is None
    captured = capfd.readouterr()
    assert (captured.out, captured.err) == ("", "loss: [0.5 0.25]\n")
