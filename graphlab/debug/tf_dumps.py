"""Recording a TensorFlow session's run into the same RunRecord, through TF's own debugger dumps.

Only ``graphlab.debug.record`` calls this, and only when it is given a TensorFlow Session: the TensorFlow
modules used here are imported then, from the TensorFlow that made the session (graphlab itself never imports
TensorFlow). The run gets tfdbg's watches (``debug_utils.watch_graph`` with a ``file://`` dump root in a fresh
temporary directory), TF's ``DebugDumpDir`` reads the dumps back, and each dump becomes a TensorValue through
the same summaries and memory bound as graphlab's recorder; the directory is removed afterwards.

What TF's dumps say and what they do not: they are in timestamp order, one file per live output, so an op is
one group of consecutive dumps; TF writes nothing for a dead output or a dead op, so dead ops are absent from
a TF record, and a Merge's dead inputs are inferred from its ``value_index`` output. An op inside a while loop
is numbered by how many times it ran before (its iteration in a loop that is not nested in another).
"""
import importlib
import shutil
import tempfile

from graphlab.runtime.recording import OpRecord, RunRecord, summarize


class _Op:
    """The little of an op OpRecord reads, from TF's graph (or from the dump alone for TF's own nodes)."""

    def __init__(self, name, type_, inputs):
        self.name, self.type, self.inputs = name, type_, inputs


class _Name:
    def __init__(self, name):
        self.name = name


def _loops(op):
    """The names of the while loops' contexts around a TF op, outermost first."""
    names = []
    ctx = getattr(op, "_control_flow_context", None)
    while ctx is not None:
        if type(ctx).__name__ == "WhileContext":
            names.append(ctx.name)
        ctx = getattr(ctx, "outer_context", None)
    return names[::-1]


def record(sess, fetches, feed_dict, node_name_regex_allowlist, op_type_regex_allowlist, full_elements,
           max_bytes, max_ops):
    root = type(sess).__module__.split(".")[0]
    debug_utils = importlib.import_module(root + ".python.debug.lib.debug_utils")
    debug_data = importlib.import_module(root + ".python.debug.lib.debug_data")
    config_pb2 = importlib.import_module(root + ".core.protobuf.config_pb2")
    dump_root = tempfile.mkdtemp(prefix="graphlab_tfdbg_")
    try:
        options = config_pb2.RunOptions()
        debug_utils.watch_graph(options, sess.graph, debug_urls=["file://" + dump_root],
                                node_name_regex_allowlist=node_name_regex_allowlist,
                                op_type_regex_allowlist=op_type_regex_allowlist)
        error, results = None, None
        try:
            results = sess.run(fetches, feed_dict=feed_dict, options=options)
        except Exception as e:       # what TF dumped before the failure is still read
            error = e
        dump = debug_data.DebugDumpDir(dump_root)
        out = RunRecord(_names(fetches), _names(list(feed_dict or ())), "tensorflow", full_elements, max_bytes,
                        max_ops)
        out.results, out.error = results, error
        _fill(out, sess.graph, dump.dumped_tensor_data)
        return out
    finally:
        shutil.rmtree(dump_root, ignore_errors=True)


def _fill(out, graph, data):
    """Group the timestamp-ordered dumps into op executions and summarize each output."""
    runs = {}           # op name -> how many times it ran so far
    last_pass = {}      # loop context name -> the highest iteration an op of it ran in
    current, seen = None, set()
    for datum in data:
        name, slot = datum.node_name, datum.output_slot
        if name.startswith("_arg_"):         # TF's node for a feed: recorded as the feed's value
            fed = [f for f in out.feeds if name.startswith("_arg_" + f.split(":")[0].replace("/", "_"))]
            key = fed[0] if fed else name
            out.feed_values[key] = summarize(key, _tensor(datum), out)
            continue
        if name.startswith("_retval_"):
            continue
        if current is None or current.name != name or slot in seen:
            try:
                op = graph.get_operation_by_name(name)
                shown = _Op(name, op.type, [_Name(t.name) for t in op.inputs])
                loops = _loops(op)
            except (KeyError, ValueError):
                op, shown, loops = None, _Op(name, "?", []), []
            count = runs.get(name, 0)
            runs[name] = count + 1
            if loops:
                if shown.type in ("Exit", "RefExit"):    # runs once, in the pass that ends its loop
                    count = last_pass.get(loops[-1], 0)
                else:
                    last_pass[loops[-1]] = max(last_pass.get(loops[-1], 0), count)
            if len(out.ops) >= out.max_ops:
                out.dropped += 1
                current, seen = _Skip(name), set()
                continue
            current = OpRecord(len(out.ops) + out.dropped, shown, [(n, count) for n in loops[-1:]], False)
            if loops:
                current.frame = "/".join(loops)
            out.ops.append(current)
            seen = set()
        seen.add(slot)
        if isinstance(current, _Skip):
            continue
        value = summarize("%s:%d" % (name, slot), _tensor(datum), out)
        current.outputs.append(value)
        current.outputs.sort(key=lambda v: int(v.name.rpartition(":")[2]))
        if current.type in ("Merge", "RefMerge") and slot == 1 and value.value is not None:
            taken = int(value.value)
            current.dead_inputs = [i for i in range(len(current.inputs)) if i != taken]


def _names(elements):
    """Names of the tensors and ops in a (nested list, tuple or dict of) fetches or feed keys."""
    if isinstance(elements, dict):
        elements = list(elements.values())
    if isinstance(elements, (list, tuple)):
        return [n for e in elements for n in _names(e)]
    return [getattr(elements, "name", str(elements))]


class _Skip:
    def __init__(self, name):
        self.name = name


def _tensor(datum):
    """The dumped array, or None where TF could not convert it (an uninitialized variable)."""
    try:
        value = datum.get_tensor()
    except Exception:
        return None
    return value if hasattr(value, "dtype") else None
