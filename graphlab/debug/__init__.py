"""Watching a run op by op, as tfdbg (``tensorflow.python.debug``) watches one, with the values kept in memory.

``record(sess, fetches, feed_dict)`` runs ``fetches`` once and returns a RunRecord: every executed op in
execution order with its type, loop frame and iteration, dead inputs, and its outputs' values (whole when
small, summarized above a bound: see graphlab/runtime/recording.py for the memory bound). The same call on a
TensorFlow session records TF's run through TF's own debug dumps (graphlab/debug/tf_dumps.py).

The tfdbg form works too: ``watch_graph(run_options, sess.graph, debug_urls=...)`` adds TF's DebugTensorWatch
entries to a ``tf.RunOptions``, and ``sess.run(..., options=run_options)`` then leaves its RunRecord in
``sess.last_run.record`` and, for a ``file://DIR`` debug URL, writes tfdbg's dump directory there, which
TensorFlow's DebugDumpDir reads (graphlab/runtime/tfdbg_dumps.py).
"""
import re

from graphlab.formats import errors
from graphlab.runtime.recording import (FULL_ELEMENTS, MAX_BYTES, MAX_OPS, OpRecord, RunRecord,  # noqa: F401
                                        TensorValue)
from graphlab.runtime.run_metadata import DebugOptions, DebugTensorWatch, RunOptions  # noqa: F401


def _regex(pattern):
    return re.compile(pattern) if pattern else None


def watch_graph(run_options, graph, debug_ops="DebugIdentity", debug_urls=None, node_name_regex_allowlist=None,
                op_type_regex_allowlist=None, tensor_dtype_regex_allowlist=None,
                tolerate_debug_op_creation_failures=False, global_step=-1, reset_disk_byte_usage=False):
    """Watch every output of every op of ``graph`` (or those the allowlists match), as tfdbg's watch_graph:
    one DebugTensorWatch per op output added to ``run_options.debug_options``."""
    if isinstance(debug_urls, str):
        debug_urls = [debug_urls]
    for url in debug_urls or ():
        if not url.startswith(("file://", "memory://")):
            raise errors.UnimplementedError(
                None, None, "graphlab writes tfdbg dumps to file:// directories (and keeps every watched run's "
                "values in sess.last_run.record); it has no debugger server for the debug URL %r." % url)
    if isinstance(debug_ops, str):
        debug_ops = [debug_ops]
    for debug_op in debug_ops:
        if debug_op.split("(")[0] != "DebugIdentity":
            raise errors.UnimplementedError(
                None, None, "graphlab's watches dump the tensors themselves (DebugIdentity); the debug op %r is "
                "not supported: read the summaries in sess.last_run.record instead." % debug_op)
    names, types, dtypes = (_regex(node_name_regex_allowlist), _regex(op_type_regex_allowlist),
                            _regex(tensor_dtype_regex_allowlist))
    options = run_options.debug_options
    options.global_step = global_step
    options.reset_disk_byte_usage = reset_disk_byte_usage
    for op in graph.get_operations():
        if names is not None and not names.match(op.name):
            continue
        if types is not None and not types.match(op.type):
            continue
        for slot, t in enumerate(op.outputs):
            if dtypes is not None and not dtypes.match(t.dtype.name):
                continue
            options.debug_tensor_watch_opts.add(node_name=op.name, output_slot=slot, debug_ops=list(debug_ops),
                                                debug_urls=list(debug_urls or ()),
                                                tolerate_debug_op_creation_failures=tolerate_debug_op_creation_failures)
    return run_options


def record(sess, fetches, feed_dict=None, node_name_regex_allowlist=None, op_type_regex_allowlist=None,
           full_elements=FULL_ELEMENTS, max_bytes=MAX_BYTES, max_ops=MAX_OPS):
    """Run ``fetches`` once in ``sess`` (graphlab's or TensorFlow's) and return its RunRecord.

    A run that fails is not raised: the record holds what ran up to the failure and ``record.error`` the
    exception (``results`` is then None). Outputs of more than ``full_elements`` elements, or past
    ``max_bytes`` of kept values, are summarized; past ``max_ops`` op records, ops are only counted."""
    if not _is_graphlab_session(sess):
        if type(sess).__module__.split(".")[0] == "tensorflow":
            from graphlab.debug import tf_dumps
            return tf_dumps.record(sess, fetches, feed_dict, node_name_regex_allowlist, op_type_regex_allowlist,
                                   full_elements, max_bytes, max_ops)
        raise TypeError("graphlab.debug.record needs a Session (graphlab's or TensorFlow's), got %s."
                        % type(sess).__name__)
    options = RunOptions()
    debug = options.debug_options
    if node_name_regex_allowlist is None and op_type_regex_allowlist is None:
        debug.watch_all = True          # every output: no need for one watch per output of the graph
    else:
        watch_graph(options, sess.graph, node_name_regex_allowlist=node_name_regex_allowlist,
                    op_type_regex_allowlist=op_type_regex_allowlist)
    debug.full_elements, debug.max_bytes, debug.max_ops = full_elements, max_bytes, max_ops
    if not debug.watch_all and not debug.debug_tensor_watch_opts:
        raise ValueError("graphlab.debug.record: the allowlists match no op output of the session's graph.")
    try:
        results = sess.run(fetches, feed_dict=feed_dict, options=options)
    except Exception as e:
        found = getattr(e, "debug_record", None)
        if found is None:
            raise
        return found
    found = sess.last_run.record
    found.results = results
    return found


def has_inf_or_nan(datum, tensor):
    """tfdbg's filter: whether ``tensor`` (an array, or a TensorValue) holds a NaN or an infinity."""
    if isinstance(tensor, TensorValue):
        return tensor.has_inf_or_nan
    import numpy as np
    arr = np.asarray(tensor) if tensor is not None else None
    if arr is None or arr.dtype.kind not in "fc":
        return False
    return bool(np.any(np.isnan(arr)) or np.any(np.isinf(arr)))


def _is_graphlab_session(sess):
    from graphlab.runtime.session import BaseSession
    return isinstance(sess, BaseSession)
