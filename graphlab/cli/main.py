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


def _write_path_bytes(error):
    """Encoding error handler for the command's output: a character the stream's encoding cannot hold is
    written as the bytes the file system gave for it (a path's undecodable bytes come back as they were), so
    printing a valid non-UTF-8 path never fails after the work is done, whatever the locale."""
    import os
    if not isinstance(error, UnicodeEncodeError):
        raise error
    chunk = error.object[error.start:error.end]
    return b"".join(os.fsencode(c) if not 0xD800 <= ord(c) < 0xDC80 and not 0xDD00 <= ord(c) < 0xE000
                    else c.encode("utf-8", "backslashreplace") for c in chunk), error.end


def _bytes_safe_output():
    import codecs
    codecs.register_error("graphlab-path-bytes", _write_path_bytes)
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.reconfigure(errors="graphlab-path-bytes")
        except (AttributeError, ValueError):  # not a TextIOWrapper (captured by a test, a notebook)
            pass


# A bad file, path or argument ends in one line naming it and exit status 2: these are the errors loaders
# raise for that (graphlab's own OpErrors such as DataLossError carry a .message naming the file).
_FILE_ERRORS = (OSError, ValueError, KeyError, RuntimeError, TypeError, EOFError, LookupError, OverflowError,
                MemoryError, RecursionError, UnicodeError, SyntaxError)


def main(argv=None):
    from graphlab.formats.errors import OpError
    _bytes_safe_output()
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
    except (OpError,) + _FILE_ERRORS as e:
        text = getattr(e, "message", None) or str(e) or type(e).__name__
        if isinstance(e, (MemoryError, RecursionError)):
            text = "%s while reading the input (is it a hostile or corrupt file?)" % type(e).__name__
        print("graphlab %s: error: %s" % (args._name, text.split("\n\t [[")[0].replace("\n", " ")), file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
