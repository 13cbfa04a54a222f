"""``graphlab SUBCOMMAND ...``: parse, dispatch, and turn known errors into one line naming the file.

Exit status: 0 done, 1 the subcommand found something (lint findings), 2 a usage or file error."""
import argparse
import importlib
import sys

from graphlab.cli.common import CLIError

# subcommand -> module under graphlab.cli (imported only when used, so `graphlab --help` stays quick)
SUBCOMMANDS = [
    ("inspect", "inspect_checkpoint", "list or print the tensors of a checkpoint (as TF's inspect_checkpoint)"),
    ("show", "show", "draw a GraphDef, meta graph or SavedModel signature as SVG, PNG or DOT"),
    ("lint", "lint", "run a script that builds a graph, then report duplicate ops, op growth, big constants"),
    ("freeze", "freeze", "turn variables into constants: one self-contained GraphDef (as TF's freeze_graph)"),
    ("saved-model", "saved_model_cli", "show or run a SavedModel's signatures (as TF's saved_model_cli)"),
    ("transform", "transform", "rewrite a GraphDef with TF's graph transforms (strip_unused_nodes, ...)"),
    ("serve", "serve", "serve a SavedModel over TF Serving's REST API"),
    ("cluster", "cluster", "run a TF1 worker script on a real TensorFlow cluster (ps + workers) on this machine"),
]


def build_parser():
    parser = argparse.ArgumentParser(
        prog="graphlab", description="Inspect, draw, freeze, transform and serve TensorFlow-1 graphs and "
        "checkpoints (written by graphlab or by TensorFlow).")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name, module, help_text in SUBCOMMANDS:
        mod = importlib.import_module("graphlab.cli." + module)
        p = sub.add_parser(name, help=help_text, description=(mod.__doc__ or help_text).strip(),
                           formatter_class=argparse.RawDescriptionHelpFormatter)
        mod.add_arguments(p)
        p.set_defaults(_run=mod.run, _name=name)
    return parser


def main(argv=None):
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args._run(args) or 0
    except CLIError as e:
        print("graphlab %s: error: %s" % (args._name, e), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("graphlab %s: interrupted" % args._name, file=sys.stderr)
        return 130
    except (OSError, ValueError, KeyError, RuntimeError, TypeError) as e:
        # graphlab's own errors (NotFoundError, DataLossError, ...) carry a .message naming the file
        text = getattr(e, "message", None) or str(e)
        print("graphlab %s: error: %s" % (args._name, text), file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
