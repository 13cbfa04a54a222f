"""Whole notebooks in the style of the classic TF1 courses (Géron's chapters 9, 11 and 14, Stanford's cs20si),
written for this test in Jupytext's percent format (tests/extension/corpus/*.py, one ``# %% name`` per cell),
run cell by cell in a real InteractiveShell with the extension loaded, as JupyterLab runs them (each cell
with its own cell id; ``# %% rerun: NAME`` runs cell NAME again, ``# %% copy: NAME`` is a pasted copy of it).

Every report must be expected and every expected report must come: no false alarm (one minimize() or
tf.gradients call, layers built by a loop, one op per weight), no missed duplicate (a re-run, a copy), and
advice that fits (an unrolled computation: tf.while_loop; copies: build once; get_next() in the loop).
"""
import os
import re

import pytest

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus")
_HEADER = re.compile(r"^# %% (.+?)\s*$")

# cell -> [(report title, a phrase of its text)]; a cell not listed must publish no report.
EXPECTED = {
    "geron_ch9_style.py": {
        "a function and its gradients": [
            ("one line keeps adding ops", "z = a * tf.cos(z + i) + z * tf.sin(b - i) ran about 100 times and "
                                          "created 900 ops"),
            ("one line keeps adding ops", "each run used the previous run's result"),
            ("one line keeps adding ops", "Fix: to compute in a loop, put the loop in the graph: tf.while_loop"),
        ],
    },
    "geron_ch11_style.py": {
        "rerun: the same cell run again by mistake": [
            ("re-run duplicated ops (first run In [8])", "This cell ran before (In [8]); this run (In [9]) created "
                                                         "2 ops"),
            ("why: variable hidden1_again/kernel already exists", "created by this same cell"),
        ],
        "a step-by-step unrolled RNN": [
            ("one line keeps adding ops", "ran about 50 times and created 400 ops"),
            ("one line keeps adding ops", "tf.while_loop(cond, body, [start])"),
        ],
    },
    "geron_ch14_style.py": {},        # static_rnn over 28 steps, dynamic_rnn, 12 stacked cells: no finding
    "cs20si_style.py": {
        "assign_add in a loop (the cs20si lecture's trap)": [
            ("op built inside sess.run(...)", "sess.run(my_var.assign_add(2)) built a new AssignAdd op inside "
                                              "sess.run(...) in each of its 150 runs"),
        ],
        "tf.data, get_next inside the loop": [
            ("one line keeps adding ops", "batch = iterator.get_next() ran about 180 times and created 180 ops "
                                          "in this run (180 IteratorGetNext"),
            ("one line keeps adding ops", "Fix: call iterator.get_next() once, before the loop"),
        ],
        "initializer built inside the training loop": [
            ("op built inside sess.run(...)", "in each of its 120 runs (init, init_1, init_2, init_3, ...)"),
        ],
        "lazy loading, the cs20si way": [
            ("op built inside sess.run(...)", "sess.run(tf.add(x, y)) built a new AddV2 op"),
        ],
        "copy: build a model in a cell": [
            ("copied cell duplicated ops (first run In [13])", "This cell is a copy of one that ran before (same "
                                                               "code as In [13]); this run (In [14]) created 6 ops"),
        ],
        "rerun: build a model in a cell": [
            ("re-run duplicated ops (first run In [13])", "This cell ran before (In [13], In [14]); this run "
                                                          "(In [15])"),
        ],
    },
}


def cells(path):
    """[(name, cell id, source)] of a percent-format notebook, reruns and copies resolved."""
    found, sources = [], {}
    with open(path) as f:
        for line in f:
            match = _HEADER.match(line)
            if match:
                found.append([match.group(1), []])
            elif found:
                found[-1][1].append(line)
    out = []
    for name, lines in found:
        source, cell_id = "".join(lines), name
        if name.startswith("rerun: "):
            cell_id = name[len("rerun: "):]
            source = sources[cell_id]
        elif name.startswith("copy: "):
            source = sources[name[len("copy: "):]]
        sources[name] = source
        out.append((name, cell_id, source))
    return out


def _titles(text):
    return [line[len("graphlab: "):] for line in text.splitlines() if line.startswith("graphlab: ")]


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_reports_on_a_course_style_notebook(shell, name):
    shell.run("%load_ext graphlab")
    problems = []
    for cell, cell_id, source in cells(os.path.join(HERE, name)):
        got = "\n".join(shell.run(source, cell_id=cell_id).reports)
        expected = EXPECTED[name].get(cell, [])
        titles = _titles(got)
        wanted = sorted({title for title, _ in expected})
        if sorted(set(titles)) != wanted or len(titles) != len(set(titles)):
            problems.append("%s: reports %s, expected %s\n%s" % (cell, titles, wanted, got))
            continue
        for title, phrase in expected:
            section = got[got.index("graphlab: " + title):]
            section = section.split("\ngraphlab: ")[0]
            if phrase not in section:
                problems.append("%s: the report %r does not say %r:\n%s" % (cell, title, phrase, section))
    assert not problems, "\n\n".join(problems)


def test_every_corpus_notebook_is_checked():
    assert sorted(f for f in os.listdir(HERE) if f.endswith(".py")) == sorted(EXPECTED)
