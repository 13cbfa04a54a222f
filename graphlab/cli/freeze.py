"""graphlab freeze --output_node_names A,B --output_graph frozen.pb (--input_meta_graph M.meta |
--input_graph G.pb | --input_saved_model_dir DIR) [--input_checkpoint CKPT]

Freeze a graph as TF's freeze_graph does: keep what the output nodes need, and replace every variable in it
by a Const holding the checkpoint's value, so the result runs with no checkpoint. From a meta graph or a
GraphDef plus a checkpoint, or from a SavedModel directory (its variables/). The flag names are TF's."""
import os

from graphlab.cli.common import (CLIError, checkpoint_prefix, need_file, progress, read_graph_def,
                                 read_saved_model_meta_graph, write_graph_def)


def add_arguments(p):
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--input_meta_graph", help="a .meta file (with --input_checkpoint)")
    src.add_argument("--input_graph", help="a GraphDef .pb/.pbtxt (with --input_checkpoint)")
    src.add_argument("--input_saved_model_dir", help="a SavedModel directory (variables from its variables/)")
    p.add_argument("--input_checkpoint", help="checkpoint prefix or directory")
    p.add_argument("--saved_model_tags", default="serve", help="tag set of the SavedModel's meta graph")
    p.add_argument("--output_node_names", required=True, help="comma-separated names of the nodes to keep")
    p.add_argument("--output_graph", required=True, help="where to write the frozen GraphDef (.pb or .pbtxt)")
    p.add_argument("--variable_names_whitelist", default="", help="only freeze these variables (comma-separated)")
    p.add_argument("--variable_names_blacklist", default="", help="never freeze these variables")
    p.add_argument("--input_binary", help="accepted for TF's command lines; the format follows the extension")


def run(args):
    if args.input_saved_model_dir:
        mgd = read_saved_model_meta_graph(args.input_saved_model_dir, args.saved_model_tags)
        graph_def = mgd.graph_def
        prefix = os.path.join(args.input_saved_model_dir, "variables", "variables")
        source = args.input_saved_model_dir
    else:
        source = args.input_meta_graph or args.input_graph
        if not args.input_checkpoint:
            raise CLIError("%s: --input_checkpoint is needed to freeze a %s (the variables' values live in "
                           "the checkpoint)." % (source, "meta graph" if args.input_meta_graph else "GraphDef"))
        graph_def = read_graph_def(source)
        prefix = None
    if prefix is None:
        prefix = checkpoint_prefix(args.input_checkpoint)
    else:
        need_file(prefix + ".index", "the SavedModel's variables", "Was the model saved with variables?")
    outputs = [n.strip() for n in args.output_node_names.split(",") if n.strip()]
    names = set(nd.name for nd in graph_def.node)
    missing = [o for o in outputs if o not in names]
    if missing:
        raise CLIError("%s: no node named %s. Pass node names (no ':0'); `graphlab show` or "
                       "`graphlab saved-model show` lists them." % (source, ", ".join(missing)))
    keep = set(filter(None, args.variable_names_whitelist.split(","))) or None
    drop = set(filter(None, args.variable_names_blacklist.split(",")))
    progress("freezing %s with %s" % (source, prefix))
    frozen, count = freeze_graph_def(graph_def, prefix, outputs, keep, drop)
    write_graph_def(frozen, args.output_graph)
    print("Converted %d variables to const ops." % count)
    print("%d ops in the final graph; wrote %s" % (len(frozen.node), args.output_graph))
    return 0


_VARIABLE_OPS = ("Variable", "VariableV2", "VarHandleOp")


def freeze_graph_def(graph_def, prefix, outputs, keep=None, drop=()):
    """(frozen GraphDef, number of variables converted): the subgraph for `outputs` with each variable read
    from the checkpoint at `prefix` (keyed by the variable's node name, or its shared_name)."""
    from graphlab.framework import graph_io
    from graphlab.formats.protos import attr_value_pb2, graph_def_pb2
    from graphlab.graph_util import extract_sub_graph, freeze_resource_reads
    from graphlab.train.checkpoint_utils import CheckpointReader
    reader = CheckpointReader(prefix)
    sub = extract_sub_graph(graph_def, outputs)
    out = graph_def_pb2.GraphDef()
    resources = {}
    count = 0
    for nd in sub.node:
        new = out.node.add()
        frozen = nd.op in _VARIABLE_OPS and (keep is None or nd.name in keep) and nd.name not in drop
        if not frozen:
            new.CopyFrom(nd)
            continue
        key = nd.name
        shared = nd.attr["shared_name"].s.decode() if "shared_name" in nd.attr else ""
        if not reader.has_tensor(key) and shared and reader.has_tensor(shared):
            key = shared
        if not reader.has_tensor(key):
            raise CLIError("%s: the checkpoint has no value for variable %r. Is it the checkpoint of this "
                           "graph? `graphlab inspect %s` lists what it holds." % (prefix, nd.name, prefix))
        value = reader.get_tensor(key)
        new.name, new.op = nd.name, "Const"
        new.device = nd.device
        new.attr["dtype"].CopyFrom(nd.attr["dtype"])
        new.attr["value"].CopyFrom(attr_value_pb2.AttrValue(
            tensor=graph_io.make_tensor_proto(value, nd.attr["dtype"].type)))
        if nd.op == "VarHandleOp":
            resources[nd.name] = nd.attr["dtype"]
        count += 1
    freeze_resource_reads(out, resources)     # ReadVariableOp -> Identity, ResourceGather -> GatherV2 ...
    out.library.CopyFrom(sub.library)
    out.versions.CopyFrom(sub.versions)
    return out, count
