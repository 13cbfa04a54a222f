"""``python -m graphlab.lint script.py [args]``: run a script that builds a graph, then lint the default graph.

The script may use graphlab or real TensorFlow (run it with the Python that has TF): each engine's default
graph that holds ops is linted, TF's through graphlab.graphview. Exit status 1 when there are findings, so it
can guard a lesson's code in CI."""
import argparse
import os
import sys

from graphlab.lint import checks, cluster
from graphlab.lint.report import lint_graph


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m graphlab.lint", description=__doc__.splitlines()[0])
    parser.add_argument("script")
    parser.add_argument("args", nargs=argparse.REMAINDER)
    parser.add_argument("--op-growth", type=int, default=checks.DEFAULT_OP_GROWTH)
    parser.add_argument("--large-const", type=int, default=checks.DEFAULT_LARGE_CONST)
    ns = parser.parse_args(argv)
    import graphlab
    from graphlab import graphview
    sys.argv = [ns.script] + ns.args
    # run as runpy does, but keep the script's code object (and so every function's code) alive while linting:
    # TF's op tracebacks, where a TF op's creating line comes from, point into it without owning it
    try:
        with open(ns.script, "rb") as f:
            code = compile(f.read(), ns.script, "exec")
    except (SyntaxError, ValueError) as e:  # a binary or broken file: one line naming it, not a traceback
        where = " (line %d)" % e.lineno if getattr(e, "lineno", None) else ""
        print("%s: not a Python script%s: %s" % (ns.script, where, getattr(e, "msg", None) or e), file=sys.stderr)
        return 2
    except OSError as e:
        print("%s: cannot read the script: %s" % (ns.script, e.strerror or e), file=sys.stderr)
        return 2
    namespace = {"__name__": "__main__", "__file__": ns.script, "__builtins__": __builtins__}
    sys.path.insert(0, os.path.dirname(os.path.abspath(ns.script)))
    try:
        exec(code, namespace)
    except Exception as e:  # the script's own error: one line naming its file and line, as the command does
        import traceback
        frames = [f for f in traceback.extract_tb(e.__traceback__) if f.filename == ns.script]
        where = "%s:%d" % (ns.script, frames[-1].lineno) if frames else ns.script
        print("%s: the script raised %s: %s" % (where, type(e).__name__, str(e).split("\n")[0]), file=sys.stderr)
        return 2
    findings = lint_graph(graphlab.get_default_graph(), ns.op_growth, ns.large_const)
    tf_graph = graphview.tf_default_graph()      # only when the script imported TensorFlow
    if tf_graph is not None:
        findings += lint_graph(tf_graph, ns.op_growth, ns.large_const)
    with open(ns.script, encoding="utf-8", errors="replace") as f:     # a cluster program's session mistakes
        findings += ["%s: %s" % (m.where, m.message) for m in cluster.session_mistakes(f.read(), ns.script)]
    for line in findings:
        print(line)
    del code, namespace
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
