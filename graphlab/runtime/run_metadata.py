"""RunOptions and RunMetadata: ask ``Session.run`` for a trace and get, per executed op, when it started and
how long it took (the structure mirrors TF's StepStats so code reading ``step_stats`` keeps working); or ask,
with ``debug_options`` watches as tfdbg sets them, for every watched value (graphlab/runtime/recording.py).

``Trace`` is what the executor's careful loops report to, one call per executed op; it exists only while a
traced or watched run is going, so an ordinary run pays nothing for it (the session decides once per run)."""


class DebugTensorWatch:
    """One watched output, with the fields of TF's DebugTensorWatch proto."""

    def __init__(self, node_name="", output_slot=0, debug_ops=(), debug_urls=(),
                 tolerate_debug_op_creation_failures=False):
        self.node_name = node_name
        self.output_slot = output_slot
        self.debug_ops = list(debug_ops)
        self.debug_urls = list(debug_urls)
        self.tolerate_debug_op_creation_failures = tolerate_debug_op_creation_failures


class _Watches(list):
    """A repeated DebugTensorWatch field: ``add(**fields)`` appends one and returns it, as protobuf's."""

    def add(self, **fields):
        watch = DebugTensorWatch(**fields)
        self.append(watch)
        return watch


class DebugOptions:
    """TF's DebugOptions: the watches tfdbg's ``watch_graph`` adds (graphlab.debug.watch_graph)."""

    def __init__(self, debug_tensor_watch_opts=(), global_step=-1, reset_disk_byte_usage=False):
        self.debug_tensor_watch_opts = _Watches(debug_tensor_watch_opts)
        self.watch_all = False      # graphlab's own: every output of every op, without one watch each
        self.global_step = global_step
        self.reset_disk_byte_usage = reset_disk_byte_usage


class RunOptions:
    NO_TRACE, SOFTWARE_TRACE, HARDWARE_TRACE, FULL_TRACE = 0, 1, 2, 3

    def __init__(self, trace_level=0, timeout_in_ms=0, output_partition_graphs=False, debug_options=None):
        self.trace_level = trace_level
        self.timeout_in_ms = timeout_in_ms
        self.output_partition_graphs = output_partition_graphs
        self.debug_options = debug_options if debug_options is not None else DebugOptions()


class Trace(list):
    """(op, start, end) per executed op, in execution order; subclasses (the recorder) also see the values.
    The careful loops call ``ran`` after an op's kernel, ``dead`` for an op a dead input kept from running,
    and ``enter_frame``/``iteration``/``leave_frame`` around a while loop's passes."""

    def ran(self, op, start, end, args, result):
        self.append((op, start, end))

    def dead(self, op, args):
        pass

    def enter_frame(self, frame, enter_values):
        """A loop's frame opens; ``enter_values`` are its Enter ops' values (None: entered dead)."""

    def iteration(self, number):
        pass

    def leave_frame(self):
        pass


class NodeExecStats:
    """One executed op: name, type, start (µs since the run began) and duration (µs)."""

    __slots__ = ("node_name", "op_type", "all_start_micros", "op_start_rel_micros", "op_end_rel_micros",
                 "all_end_rel_micros", "timeline_label")

    def __init__(self, node_name, op_type, start_us, duration_us):
        self.node_name = node_name
        self.op_type = op_type
        self.all_start_micros = start_us
        self.op_start_rel_micros = 0
        self.op_end_rel_micros = duration_us
        self.all_end_rel_micros = duration_us
        self.timeline_label = "%s = %s()" % (node_name, op_type)

    def __repr__(self):
        return "<NodeExecStats %s %s %dus>" % (self.node_name, self.op_type, self.all_end_rel_micros)


class DeviceStepStats:
    def __init__(self):
        self.device = "/job:localhost/replica:0/task:0/device:CPU:0"
        self.node_stats = []


class StepStats:
    def __init__(self):
        self.dev_stats = []


class RunMetadata:
    """Filled by ``Session.run(..., options=RunOptions(trace_level=FULL_TRACE), run_metadata=md)``."""

    def __init__(self):
        self.step_stats = StepStats()
        self.partition_graphs = []

    def executed_ops(self):
        """Names of the ops the traced run executed, in execution order."""
        return [n.node_name for d in self.step_stats.dev_stats for n in d.node_stats]

    def op_times(self):
        """op name -> microseconds the op's kernel took."""
        return {n.node_name: n.all_end_rel_micros for d in self.step_stats.dev_stats for n in d.node_stats}

    def SerializeToString(self):  # noqa: N802  (protobuf's name: FileWriter.add_run_metadata calls it)
        """TF's RunMetadata proto bytes (step_stats = 1 > dev_stats = 1 > device = 1, node_stats = 2 >
        node_name = 1, all_start_micros = 2, op_start_rel_micros = 3, op_end_rel_micros = 4,
        all_end_rel_micros = 5, timeline_label = 8), which TensorBoard reads from an events file."""
        devices = b""
        for d in self.step_stats.dev_stats:
            nodes = b"".join(_field(2, _field(1, n.node_name) + _varint_field(2, n.all_start_micros) +
                                        _varint_field(3, n.op_start_rel_micros) + _varint_field(4, n.op_end_rel_micros) +
                                        _varint_field(5, n.all_end_rel_micros) + _field(8, n.timeline_label))
                             for n in d.node_stats)
            devices += _field(1, _field(1, d.device) + nodes)
        return _field(1, devices) if devices else b""


def _varint(n):
    out = bytearray()
    n &= (1 << 64) - 1          # protobuf's int64: negatives as their two's complement
    while True:
        byte, n = n & 0x7F, n >> 7
        out.append(byte | (0x80 if n else 0))
        if not n:
            return bytes(out)


def _varint_field(number, value):
    return _varint(number << 3) + _varint(value) if value else b""


def _field(number, payload):
    """A length-delimited field (a string or an embedded message)."""
    if isinstance(payload, str):
        payload = payload.encode("utf-8")
    return _varint(number << 3 | 2) + _varint(len(payload)) + payload if payload else b""


def record_trace(run_metadata, trace, run_start):
    device = DeviceStepStats()
    for op, start, end in trace:
        device.node_stats.append(NodeExecStats(op.name, op.type, int((start - run_start) * 1e6),
                                               max(0, int(round((end - start) * 1e6)))))
    run_metadata.step_stats.dev_stats = [device]
