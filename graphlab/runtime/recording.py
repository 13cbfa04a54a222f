"""Recording a run op by op (tfdbg's watches): what every executed op read and produced, in execution order.

A run whose RunOptions carry debug watches (graphlab.debug.watch_graph, or graphlab.debug.record) takes the
executor's careful path with a ``Recorder`` as its trace; the compiled passes and loops are left out for that
run, so the kernels called are the plain path's and the values the same. The recorder keeps, per op:
name, type, loop frame and iteration, which inputs were dead, and each watched output as a ``TensorValue``
taken at the moment the op ran (a copy, so later in-place updates such as ApplyGradientDescent do not
change what was recorded; random numbers, queue items and variable reads as they happened).

Memory bound: an output of at most ``full_elements`` elements (default 4096) is kept whole while the whole
values kept so far add up to at most ``max_bytes`` (default 64 MiB); every other output is kept as a
summary of fixed size (min, max, mean, NaN/Inf counts, its first ``FIRST_ELEMENTS`` elements and a
``HISTOGRAM_BINS``-bin histogram), and at most ``max_ops`` op records are kept (default 100000; later ones
are counted in ``RunRecord.dropped``). So a recording holds at most ``max_bytes`` of values plus about 2 KB per
op record, whatever the tensors' sizes.

A watch with a ``file://DIR`` debug URL also writes every watched value whole to tfdbg's dump directory DIR
as the run goes (tfdbg_dumps.py), which TensorFlow's DebugDumpDir reads; the bound is then the disk's.
"""
import numpy as np

from graphlab.framework.registry import DEAD
from graphlab.runtime.run_metadata import Trace
from graphlab.runtime.tfdbg_dumps import DumpWriter

FULL_ELEMENTS = 4096
MAX_BYTES = 64 << 20
MAX_OPS = 100000
FIRST_ELEMENTS = 8
HISTOGRAM_BINS = 20


class TensorValue:
    """One output as recorded: ``name`` (``op:slot``), ``dtype`` (as TF names it: float32, string ...),
    ``shape``, and either ``value`` (the whole array) or only a summary (``value`` None, ``summarized`` True).
    For numbers ``min``, ``max``, ``mean`` (over the finite elements), ``nan_count`` and ``inf_count`` (both
    signs) and ``first`` (the first elements, flattened) are always there; a summarized value also has a
    ``histogram`` ((counts, edges) of its finite elements). ``text`` describes what is not an array (a dead
    output, a queue handle, an uninitialized variable)."""

    __slots__ = ("name", "dtype", "shape", "value", "summarized", "_min", "_max", "_mean", "nan_count",
                 "inf_count", "_first", "histogram", "text", "_pending")

    def __init__(self, name):
        self.name = name
        self.dtype, self.shape, self.value, self.summarized, self.text = None, None, None, False, None
        self._min = self._max = self._mean = None
        self.nan_count = self.inf_count = 0
        self._first, self.histogram, self._pending = [], None, False

    def _stats(self):
        """A value kept whole gets its min/max/mean/first elements when first asked (recording stays cheap)."""
        if self._pending:
            self._pending = False
            _fill_stats(self, self.value, histogram=False)
        return self

    min = property(lambda self: self._stats()._min)
    max = property(lambda self: self._stats()._max)
    mean = property(lambda self: self._stats()._mean)
    first = property(lambda self: self._stats()._first)

    @property
    def size(self):
        return int(np.prod(self.shape)) if self.shape is not None else 0

    @property
    def has_inf_or_nan(self):
        """As tfdbg's has_inf_or_nan filter: a float value holding a NaN or an infinity."""
        return bool(self.nan_count or self.inf_count)

    def brief(self):
        """One line: dtype, shape and the numbers (the value itself when small, else the summary)."""
        if self.text is not None:
            return self.text
        head = "%s %s" % (self.dtype, list(self.shape))
        if self.value is not None and self.size <= 6:
            body = np.array2string(np.asarray(self.value), separator=", ", threshold=6, precision=4)
            body = " ".join(body.split())
        elif self.min is None:
            body = "[%s]" % ", ".join(repr(v) for v in self.first[:4])
        else:
            body = "min %.4g max %.4g mean %.4g" % (self.min, self.max, self.mean)
        flags = []
        if self.nan_count:
            flags.append("%d nan" % self.nan_count)
        if self.inf_count:
            flags.append("%d inf" % self.inf_count)
        return "%s %s%s" % (head, body, (" (" + ", ".join(flags) + ")") if flags else "")

    def __repr__(self):
        return "<TensorValue %s %s>" % (self.name, self.brief())


class OpRecord:
    """One executed (or dead) op: ``index`` in the run, ``name``, ``type``, ``frame`` (the while loop's frame
    path, "" outside loops), ``iteration`` (of the innermost loop, None outside), ``iterations`` (one per
    enclosing loop, outermost first), ``inputs`` (tensor names), ``dead_inputs`` (indices of inputs that were
    dead: the untaken side of a cond), ``dead`` (the op did not run: an input was dead), ``outputs``
    (TensorValues of its watched outputs)."""

    __slots__ = ("index", "name", "type", "frame", "iteration", "iterations", "inputs", "dead_inputs", "dead",
                 "outputs")

    def __init__(self, index, op, loops, dead):
        self.index, self.name, self.type = index, op.name, op.type
        self.frame = "/".join(name for name, _ in loops)
        self.iterations = tuple(i for _, i in loops)
        self.iteration = self.iterations[-1] if loops else None
        self.inputs = [t.name for t in op.inputs]
        self.dead_inputs, self.dead, self.outputs = [], dead, []

    @property
    def has_inf_or_nan(self):
        return any(v.has_inf_or_nan for v in self.outputs)

    def __repr__(self):
        where = " [%s iter %s]" % (self.frame, self.iteration) if self.frame else ""
        return "<OpRecord %d %s (%s)%s%s>" % (self.index, self.name, self.type, where, " dead" if self.dead else "")


class RunRecord:
    """A recorded run: ``ops`` (OpRecords in execution order, dead ops where their deadness was found),
    ``fetches`` and ``feeds`` (names), ``feed_values`` (name -> TensorValue), ``results`` (what the run
    returned, None when it failed), ``error`` (the exception that ended it), ``dropped`` (op records past
    ``max_ops``), ``source`` ("graphlab" or "tensorflow") and the limits it was recorded with."""

    def __init__(self, fetches=(), feeds=(), source="graphlab", full_elements=FULL_ELEMENTS,
                 max_bytes=MAX_BYTES, max_ops=MAX_OPS):
        self.ops = []
        self.fetches, self.feeds = list(fetches), list(feeds)
        self.feed_values = {}
        self.results, self.error, self.dropped = None, None, 0
        self.source = source
        self.full_elements, self.max_bytes, self.max_ops = full_elements, max_bytes, max_ops
        self.kept_bytes = 0

    @property
    def executed(self):
        """The OpRecords of ops that ran (not the dead ones)."""
        return [r for r in self.ops if not r.dead]

    def first_inf_or_nan(self):
        """The first executed op whose output holds a NaN or an infinity (tfdbg's has_inf_or_nan), or None."""
        return next((r for r in self.ops if not r.dead and r.has_inf_or_nan), None)

    def find(self, name):
        """Every record of the op ``name`` (one per loop iteration)."""
        return [r for r in self.ops if r.name == name]

    def value(self, tensor_name, occurrence=0):
        """The TensorValue of ``tensor_name`` (``op:0``), its ``occurrence``-th in loops; KeyError if not kept."""
        name = tensor_name if ":" in tensor_name else tensor_name + ":0"
        found = [v for r in self.ops for v in r.outputs if v.name == name]
        if occurrence >= len(found):
            raise KeyError("%s was not recorded%s" % (name, "" if not found else
                                                        " %d times (it was %d times)" % (occurrence + 1, len(found))))
        return found[occurrence]

    def listing(self):
        """tfdbg's style of listing, one line an op: index, op, type, loop iteration, each output's summary."""
        lines = ["%d ops recorded%s (%s run of %s)" % (
            len(self.ops), " and %d dropped" % self.dropped if self.dropped else "", self.source,
            ", ".join(self.fetches))]
        for r in self.ops:
            where = "  [%s #%s]" % (r.frame, ":".join(str(i) for i in r.iterations)) if r.frame else ""
            if r.dead:
                lines.append("%4d  %-32s %-14s dead: input not taken%s" % (r.index, r.name, r.type, where))
                continue
            outs = "; ".join(v.brief() for v in r.outputs) or "-"
            lines.append("%4d  %-32s %-14s %s%s" % (r.index, r.name, r.type, outs, where))
        if self.error is not None:
            lines.append("run failed: %s: %s" % (type(self.error).__name__, getattr(self.error, "message",
                                                                                    self.error)))
        return "\n".join(lines)

    def __repr__(self):
        return "<RunRecord %d ops of a %s run%s>" % (len(self.ops), self.source,
                                                     ", failed" if self.error is not None else "")


def summarize(name, value, record):
    """A TensorValue for ``value``, kept whole when it is small and the record's budget allows."""
    tv = TensorValue(name)
    if value is DEAD:
        tv.text = "dead"
        return tv
    if value is None:
        tv.text = "(no value)"
        return tv
    read_value = getattr(value, "read", None)
    if read_value is not None and hasattr(value, "is_initialized"):    # a variable's buffer
        if not value.is_initialized:
            tv.text = "uninitialized variable"
            return tv
        value = value.value
    if not isinstance(value, (np.ndarray, np.generic)):
        tv.text = "%s" % type(value).__name__
        return tv
    arr = np.asarray(value)
    tv.dtype, tv.shape = "string" if arr.dtype.kind in "OSU" else arr.dtype.name, tuple(arr.shape)
    if arr.size <= record.full_elements and record.kept_bytes + arr.nbytes <= record.max_bytes:
        tv.value = np.array(arr, copy=True)
        record.kept_bytes += arr.nbytes
        if arr.dtype.kind in "fc" and arr.size and not np.isfinite(tv.value).all():
            _fill_stats(tv, tv.value, histogram=False)
        else:
            tv._pending = True          # the rest of the summary is computed from the value when asked
    else:
        tv.summarized = True
        _fill_stats(tv, arr, histogram=True)
    return tv


def _fill_stats(tv, arr, histogram):
    """min, max and mean of the finite elements, NaN and Inf counts, the first elements, a histogram."""
    if arr.dtype.kind in "biuf" and arr.size:
        finite = arr
        if arr.dtype.kind == "f":
            nan = np.isnan(arr)
            inf = np.isinf(arr)
            tv.nan_count, tv.inf_count = int(nan.sum()), int(inf.sum())
            if tv.nan_count or tv.inf_count:
                finite = arr[~(nan | inf)]
        if finite.size:
            tv._min, tv._max = float(finite.min()), float(finite.max())
            tv._mean = float(finite.mean(dtype=np.float64))
            if histogram:
                counts, edges = np.histogram(finite.astype(np.float64), bins=HISTOGRAM_BINS)
                tv.histogram = (counts.tolist(), edges.tolist())
    tv._first = arr.reshape(-1)[:FIRST_ELEMENTS].tolist()


class Recorder(Trace):
    """The trace a watched run reports to (see run_metadata.Trace): builds a RunRecord as the run goes."""

    def __init__(self, watched, record, dumps=()):
        super().__init__()
        self.watched = watched        # op name -> set of output slots to keep (None: every output)
        self.record = record
        self.loops = []               # [(frame name, iteration)] of the while loops the run is inside
        self.dumps = list(dumps)      # tfdbg_dumps.DumpWriter per file:// debug URL

    def finish(self, graph, fetches, feeds, targets):
        """After the run (or its failure): the dump directories get the graph and the run's metadata."""
        if self.dumps:
            graph_def = graph.as_graph_def().SerializeToString()
            for writer in self.dumps:
                writer.finish(graph_def, [t.name for t in fetches], [t.name for t in feeds],
                              [op.name for op in targets])

    def _new(self, op, dead):
        record = self.record
        if len(record.ops) >= record.max_ops:
            record.dropped += 1
            return None
        r = OpRecord(len(record.ops) + record.dropped, op, self.loops, dead)
        record.ops.append(r)
        return r

    def ran(self, op, start, end, args, result):
        self.append((op, start, end))
        self._keep(op, args, result)

    def _keep(self, op, args, result):
        if op._type in ("Merge", "RefMerge") and result[0] is DEAD:    # every input dead: the Merge is too
            self.dead(op, args)
            return
        if self.dumps:
            self._dump(op, result)
        r = self._new(op, False)
        if r is None:
            return
        r.dead_inputs = [i for i, a in enumerate(args) if a is DEAD]
        slots = self.watched.get(op.name) if self.watched is not None else None
        if self.watched is not None and not slots:
            return
        n = len(op._outputs)
        if n == 0:
            return
        values = (result,) if n == 1 else result
        for k, v in enumerate(values):
            if slots is None or k in slots:
                r.outputs.append(summarize("%s:%d" % (op.name, k), v, self.record))

    def _dump(self, op, result):
        slots = self.watched.get(op.name) if self.watched is not None else None
        n = len(op._outputs)
        if not n or self.watched is not None and not slots:
            return
        for k, v in enumerate((result,) if n == 1 else result):
            if slots is None or k in slots:
                if hasattr(v, "is_initialized") and hasattr(v, "read"):    # a variable's buffer
                    v = v.value
                for writer in self.dumps:
                    writer.tensor(op.name, k, v)

    def dead(self, op, args):
        r = self._new(op, True)
        if r is not None:
            r.dead_inputs = [i for i, a in enumerate(args) if a is DEAD]

    def enter_frame(self, frame, enter_values):
        """The Enter ops run as the frame opens (iteration 0), as TF's executor runs them."""
        self.loops.append((frame.name, 0))
        for op, value in zip(frame.enters, enter_values):
            if value is None:
                self.dead(op, [DEAD])
            else:
                self._keep(op, [value], value)

    def iteration(self, number):
        self.loops[-1] = (self.loops[-1][0], number)

    def leave_frame(self):
        self.loops.pop()


def watched_outputs(options):
    """{op name: set of slots} from RunOptions' debug watches (tfdbg's DebugTensorWatch list), or None when
    the options ask for no recording. Checked once per run."""
    debug = getattr(options, "debug_options", None)
    if debug is None:
        return None
    if getattr(debug, "watch_all", False):     # graphlab.debug.record without allowlists: every output
        return ALL
    watches = debug.debug_tensor_watch_opts
    if not watches:
        return None
    found = {}
    for w in watches:
        found.setdefault(w.node_name, set()).add(int(w.output_slot))
    return found


ALL = {}
"""watched_outputs' answer for a run that watches every output of every op."""


def recorder_for(options, fetches, feeds):
    """A Recorder for a run with these RunOptions, or None when they watch nothing."""
    watched = watched_outputs(options)
    if watched is None:
        return None
    debug = options.debug_options
    record = RunRecord([t.name for t in fetches], [t.name for t in feeds], "graphlab",
                       getattr(debug, "full_elements", FULL_ELEMENTS), getattr(debug, "max_bytes", MAX_BYTES),
                       getattr(debug, "max_ops", MAX_OPS))
    roots = []
    for w in debug.debug_tensor_watch_opts:
        for url in w.debug_urls:
            if url.startswith("file://") and url[len("file://"):] not in roots:
                roots.append(url[len("file://"):])
    dumps = [DumpWriter(root, getattr(debug, "global_step", -1)) for root in roots]
    return Recorder(None if watched is ALL else watched, record, dumps)
