"""``python -m graphlab.lint script.py [args]``: run a script that builds a graph, then lint the default graph.

Exit status 1 when there are findings, so it can guard a lesson's code in CI."""
import argparse
import runpy
import sys

from graphlab.lint import checks
from graphlab.lint.report import lint_graph


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m graphlab.lint", description=__doc__.splitlines()[0])
    parser.add_argument("script")
    parser.add_argument("args", nargs=argparse.REMAINDER)
    parser.add_argument("--op-growth", type=int, default=checks.DEFAULT_OP_GROWTH)
    parser.add_argument("--large-const", type=int, default=checks.DEFAULT_LARGE_CONST)
    ns = parser.parse_args(argv)
    import graphlab
    sys.argv = [ns.script] + ns.args
    runpy.run_path(ns.script, run_name="__main__")
    findings = lint_graph(graphlab.get_default_graph(), ns.op_growth, ns.large_const)
    for line in findings:
        print(line)
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
