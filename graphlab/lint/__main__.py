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
    with open(ns.script, "rb") as f:
        code = compile(f.read(), ns.script, "exec")
    namespace = {"__name__": "__main__", "__file__": ns.script, "__builtins__": __builtins__}
    sys.path.insert(0, os.path.dirname(os.path.abspath(ns.script)))
    exec(code, namespace)
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
