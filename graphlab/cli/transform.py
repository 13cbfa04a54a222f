"""graphlab transform --in_graph G.pb --out_graph OUT.pb --inputs x --outputs y --transforms '...'

Rewrite a GraphDef with TF's graph transforms, by TF's names and syntax (as TF's transform_graph tool):
  strip_unused_nodes(type=float, shape="1,28,28,1")   keep what the outputs need; inputs become Placeholders
  remove_nodes(op=Identity, op=CheckNumerics)          drop pass-through nodes
  fold_constants(ignore_errors=true)                   evaluate constant subgraphs into Consts
  fold_batch_norms                                     fold batch norms into conv/matmul weights
  quantize_weights(minimum_size=1024)                  store big float weights as 8 bits + Dequantize
  sort_by_execution_order                              order nodes so inputs come first
The result runs in TensorFlow and in graphlab with the same outputs (quantize_weights within its 8-bit error). Freeze the
graph first (`graphlab freeze`): variables are not constants."""
from graphlab.cli.common import CLIError, progress, read_graph_def, write_graph_def


def add_arguments(p):
    p.add_argument("--in_graph", required=True, help="a GraphDef .pb/.pbtxt (a frozen graph)")
    p.add_argument("--out_graph", required=True, help="where to write the result (.pb or .pbtxt)")
    p.add_argument("--inputs", default="", help="comma-separated input node names")
    p.add_argument("--outputs", required=True, help="comma-separated output node names")
    p.add_argument("--transforms", required=True, help="transforms in TF's syntax, applied in order")


def run(args):
    from graphlab.tools import graph_transforms as gt
    graph_def = read_graph_def(args.in_graph)
    inputs = [n.strip() for n in args.inputs.split(",") if n.strip()]
    outputs = [n.strip() for n in args.outputs.split(",") if n.strip()]
    before = graph_def.ByteSize()
    n_before = len(graph_def.node)
    try:
        result = gt.transform_graph(graph_def, inputs, outputs, args.transforms, progress=progress)
    except gt.TransformError as e:
        raise CLIError("%s: %s" % (args.in_graph, e)) from None
    write_graph_def(result, args.out_graph)
    print("%s: %d nodes, %d bytes -> %s: %d nodes, %d bytes" % (
        args.in_graph, n_before, before, args.out_graph, len(result.node), result.ByteSize()))
    return 0
