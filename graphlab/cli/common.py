"""What several subcommands share: loading a graph from any of the files TF writes, finding a checkpoint,
reporting progress on stderr, and CLIError (a message for a person: the file, what is wrong, what to do)."""
import os
import sys
import time


class CLIError(Exception):
    """A usage or file problem; main() prints it as one line and exits with status 2."""


def progress(text):
    """One line of progress on stderr (stdout stays clean for the result)."""
    print("[%s] %s" % (time.strftime("%H:%M:%S"), text), file=sys.stderr, flush=True)


def need_file(path, what, hint):
    if not os.path.exists(path):
        raise CLIError("%s: no such file or directory (expected %s). %s" % (path, what, hint))


def checkpoint_prefix(path):
    """A checkpoint prefix from a prefix, a directory (its `checkpoint` file's latest) or a file of the
    checkpoint (prefix.index / prefix.data-00000-of-00001 / prefix.meta)."""
    from graphlab.train import checkpoint_utils
    path = os.fspath(path)
    if os.path.isdir(path):
        latest = checkpoint_utils.latest_checkpoint(path)
        if latest is None:
            raise CLIError("%s: this directory has no `checkpoint` file naming an existing checkpoint. Pass a "
                           "checkpoint prefix such as %s" % (path, os.path.join(path, "model.ckpt-1000")))
        return latest
    for suffix in (".index", ".meta"):
        if path.endswith(suffix):
            return path[:-len(suffix)]
    if ".data-" in os.path.basename(path):
        return path[:path.rindex(".data-")]
    if not checkpoint_utils.checkpoint_exists(path):
        raise CLIError("%s: no checkpoint with this prefix (%s.index does not exist). Pass the prefix of a V2 "
                       "checkpoint (the file name without .index/.data-*), or its directory." % (path, path))
    return path


def read_graph_def(path):
    """A GraphDef from a .pb/.pbtxt GraphDef, a .meta MetaGraphDef, or a SavedModel directory (its first
    meta graph); CLIError naming the file when it is none of these."""
    from graphlab.framework import graph_io
    from graphlab.formats.errors import DataLossError
    path = os.fspath(path)
    if os.path.isdir(path):
        mgd = read_saved_model_meta_graph(path, None)
        return mgd.graph_def
    need_file(path, "a GraphDef (.pb, .pbtxt), a meta graph (.meta) or a SavedModel directory",
              "Check the path.")
    try:
        if path.endswith(".meta"):
            from graphlab.framework import meta_graph
            return meta_graph.read_meta_graph_file(path).graph_def
        return graph_io.load_graph_def(path)
    except DataLossError as e:
        raise CLIError("%s: %s. Text GraphDefs need the .pbtxt extension, meta graphs .meta." % (
            path, e.message)) from None


def read_saved_model_meta_graph(export_dir, tag_set):
    """The MetaGraphDef of a SavedModel directory with the given comma-separated tag set (None: the only
    one, or the one tagged 'serve')."""
    from graphlab.saved_model import loader
    if not loader.maybe_saved_model_directory(export_dir):
        raise CLIError("%s: not a SavedModel directory (no saved_model.pb or saved_model.pbtxt in it). Pass "
                       "the export directory, e.g. the numbered version directory." % export_dir)
    sm = loader.read_saved_model(export_dir)
    if tag_set is None:
        if len(sm.meta_graphs) == 1:
            return sm.meta_graphs[0]
        tag_set = "serve"
    wanted = set(t for t in tag_set.split(",") if t)
    for mgd in sm.meta_graphs:
        if set(mgd.meta_info_def.tags) == wanted:
            return mgd
    have = ["'%s'" % ", ".join(sorted(m.meta_info_def.tags)) for m in sm.meta_graphs]
    raise CLIError("%s: no MetaGraphDef with tag-set '%s'; it has %s. Pass one of them with --tag_set." % (
        export_dir, ",".join(sorted(wanted)), " and ".join(have)))


def write_graph_def(graph_def, path):
    """Write a GraphDef as text when the name ends in .pbtxt/.txt, else binary (atomically)."""
    from google.protobuf import text_format
    from graphlab.formats.atomic import write_atomic
    path = os.fspath(path)
    parent = os.path.dirname(path)
    if parent and not os.path.isdir(parent):
        raise CLIError("%s: the directory %s does not exist; create it first." % (path, parent))
    if path.endswith((".pbtxt", ".txt")):
        data = text_format.MessageToString(graph_def).encode("utf-8")
    else:
        data = graph_def.SerializeToString()
    write_atomic(path, data)
