"""tfdbg's dump directory, written by a watched run whose debug URL is ``file://DIR``, so that TensorFlow's own
reader (``tensorflow.python.debug.lib.debug_data.DebugDumpDir``) and tfdbg's tools read graphlab's runs.

The layout is TF's (tensorflow/core/debug/debug_io_utils.cc): under DIR, one folder per device
(``_tfdbg_device_,job_localhost,replica_0,task_0,device_CPU_0``) holding, for each watched output each time
its op runs, a file ``<op name's folders>/<leaf>_<slot>_DebugIdentity_<microseconds>``: an Event whose one
summary value is named ``op:slot:DebugIdentity`` and holds the tensor, with the debugger plugin's metadata;
beside them the run's graph (``_tfdbg_graph_<hash>_<microseconds>``, an Event with the GraphDef), and in DIR
the run's core metadata (``_tfdbg_core_metadata_<microseconds>``, a JSON log message). Each value is written
when its op has run, so what the files hold is the value as it was then.
"""
import hashlib
import json
import os
import time

import numpy as np

from graphlab.formats import dtypes_map
from graphlab.formats.protos import event_pb2, tensor_pb2, types_pb2

DEVICE = "/job:localhost/replica:0/task:0/device:CPU:0"
DEVICE_FOLDER = "_tfdbg_device_,job_localhost,replica_0,task_0,device_CPU_0"
DEBUG_OP = "DebugIdentity"
_RUN_INDEX = [0]


def _tensor_proto(arr):
    """The TensorProto as tfdbg's DebugIdentity writes it: numbers always in tensor_content (TF's reader
    takes a proto without it for an uninitialized tensor), strings in string_val; None for other types."""
    enum = dtypes_map.numpy_to_enum(arr.dtype) if arr.dtype.kind not in "OSU" else types_pb2.DT_STRING
    if enum is None:
        return None
    proto = tensor_pb2.TensorProto(dtype=enum)
    proto.tensor_shape.SetInParent()
    for d in arr.shape:
        proto.tensor_shape.dim.add(size=int(d))
    if enum == types_pb2.DT_STRING:
        proto.string_val.extend(x.encode("utf-8") if isinstance(x, str) else bytes(x) for x in arr.reshape(-1))
    else:
        proto.tensor_content = np.ascontiguousarray(arr, dtype=arr.dtype.newbyteorder("<")).tobytes()
    return proto


class DumpWriter:
    """Writes one run's dumps under ``root`` (the path of a ``file://`` debug URL)."""

    def __init__(self, root, global_step=-1):
        self.root = root
        self.device_root = os.path.join(root, DEVICE_FOLDER)
        os.makedirs(self.device_root, exist_ok=True)
        self.global_step = global_step
        self._last = 0

    def _stamp(self):
        """Microseconds since the epoch, strictly increasing (DebugDumpDir orders the dumps by it)."""
        now = max(int(time.time() * 1e6), self._last + 1)
        self._last = now
        return now

    def tensor(self, op_name, slot, value):
        """Dump one output's value (an array; anything else is not dumped, as TF dumps no dead tensor)."""
        if not isinstance(value, (np.ndarray, np.generic)):
            return
        stamp = self._stamp()
        event = event_pb2.Event(wall_time=stamp / 1e6, step=0)
        summary_value = event.summary.value.add()
        summary_value.node_name = "%s:%d:%s" % (op_name, slot, DEBUG_OP)
        proto = _tensor_proto(np.asarray(value))
        if proto is None:
            return
        summary_value.tensor.CopyFrom(proto)
        summary_value.metadata.plugin_data.plugin_name = "debugger"
        summary_value.metadata.plugin_data.content = json.dumps({"device": DEVICE}).encode("utf-8")
        folder, _, leaf = op_name.rpartition("/")
        path = os.path.join(self.device_root, *folder.split("/")) if folder else self.device_root
        os.makedirs(path, exist_ok=True)
        with open(os.path.join(path, "%s_%d_%s_%d" % (leaf, slot, DEBUG_OP, stamp)), "wb") as f:
            f.write(event.SerializeToString())

    def finish(self, graph_def_bytes, fetches, feeds, targets):
        """The run's graph and core metadata, written once the run is over (or has failed)."""
        stamp = self._stamp()
        digest = int(hashlib.md5(graph_def_bytes).hexdigest()[:8], 16)
        with open(os.path.join(self.device_root, "_tfdbg_graph_%d_%d" % (digest, stamp)), "wb") as f:
            f.write(event_pb2.Event(wall_time=stamp / 1e6, graph_def=graph_def_bytes).SerializeToString())
        _RUN_INDEX[0] += 1
        meta = {"global_step": self.global_step, "session_run_index": _RUN_INDEX[0],
                "executor_step_index": 0, "input_names": list(feeds), "output_names": list(fetches),
                "target_nodes": list(targets)}
        event = event_pb2.Event(wall_time=stamp / 1e6)
        event.log_message.message = json.dumps(meta)
        with open(os.path.join(self.root, "_tfdbg_core_metadata_%d" % stamp), "wb") as f:
            f.write(event.SerializeToString())
