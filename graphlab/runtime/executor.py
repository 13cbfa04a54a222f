"""The executor: a pruned plan turned into a flat list of kernel calls over numbered value slots.

A plan is built once per (fetches, feeds, targets) and cached by the Session; running it is a loop over
prepared steps, so a cached run costs only the ops it executes, whatever the size of the graph.
"""
import threading
import time

import numpy as np

from graphlab.formats import errors
from graphlab.framework import dtypes, registry
from graphlab.runtime import frames, memory, pruning

DEAD = registry.DEAD    # a value on the side a Switch did not take


CONTROL_FLOW_TYPES = frozenset(("Switch", "RefSwitch", "Merge", "RefMerge"))
"""Ops that make a plan take the careful path (dead-value propagation); other plans run the fast loop."""


class KernelContext:
    """What a kernel may see besides its inputs: its op, the op's attrs, and the session's state."""

    __slots__ = ("op", "attrs", "session", "state")

    def __init__(self, op, session):
        self.op = op
        attrs = op._attrs   # a plain dict for kernels, also where ops share a read-only mapping
        self.attrs = attrs if type(attrs) is dict else dict(attrs)
        self.session = session
        self.state = session._state

    def error(self, cls, message):
        """An OpError of class ``cls`` carrying this op (and so the user's line that created it)."""
        return cls(None, self.op, message)


def _with_deref(kernel, positions):
    """Wrap a kernel so variable handles at ``positions`` are read (and checked initialised) first.
    A fed variable (a plain array) and a dead value from an untaken cond branch pass through as they are."""
    def run(ctx, *args):
        args = list(args)
        for p in positions:
            read = getattr(args[p], "read", None)
            if read is not None:
                args[p] = read(ctx)
        return kernel(ctx, *args)
    return run


def check_no_fed_reference_is_updated(ops, fed_tensors):
    """TF replaces a fed tensor by a plain value (its function argument ``_arg_<node>_<output>_<i>``, ``i``
    counting the feeds in name order), so an op that takes a reference there (Assign*, RefIdentity of
    ``tf.tuple``, Scatter*) cannot run: InvalidArgumentError, in TF's words, before anything runs. (For a
    user's feeds only: a partial run's stages pass earlier values, references included, as feeds.)"""
    refs = [t for t in fed_tensors if t._dtype.is_ref_dtype]
    if not refs:
        return
    refs = set(refs)
    for op in ops:
        args = registry.get_opdef(op._type).inputs if op._type in registry._REGISTRY else ()
        if len(args) != len(op._inputs):
            continue
        for i, (t, arg) in enumerate(zip(op._inputs, args)):
            if t in refs and arg.is_ref:
                names = sorted(x.name for x in fed_tensors)
                base = t._dtype.base_dtype.name
                raise errors.InvalidArgumentError(None, None, (
                    "Graph execution error:\n\nInput %d of node %s was passed %s from _arg_%s_%d_%d:0 "
                    "incompatible with expected %s_ref." % (
                        i, op.name, _tf_type_word(base), t._op.name, t._value_index, names.index(t.name),
                        _tf_type_word(base))))


def _tf_type_word(dtype_name):
    """The type as TF's executor names it in this message (float, double, int32, ...)."""
    return {"float32": "float", "float64": "double", "float16": "half"}.get(dtype_name, dtype_name)


class Plan:
    """Ops to run, in order, with the slots they read and write."""

    def __init__(self, session, fetch_tensors, target_ops, fed_tensors):
        memory.keep_freed_memory()      # once per process: freed step memory is reused, not re-faulted
        pruned = pruning.prune(fetch_tensors, target_ops, fed_tensors)
        self.skipped = pruning.unread_ops(pruned, fetch_tensors, target_ops, fed_tensors)
        # the ops a run executes, in order: the pruned ops minus those nothing reads (``skipped``)
        self.ops = [op for op in pruned if op not in self.skipped] if self.skipped else pruned
        self.fetch_tensors = list(fetch_tensors)
        fed = set(fed_tensors)
        self._frames = None
        if frames.has_frames(pruned):    # while loops: frames run by graphlab/runtime/frames.py
            self._build_frames(session, pruned, fed_tensors, fed)
            return
        slots = {}
        for i, t in enumerate(fed_tensors):
            slots[t] = i
        self.feed_slots = [slots[t] for t in fed_tensors]
        self.has_control_flow = False
        steps = []
        for op in pruned:
            kernel, ctx, fed_placeholder = _step_parts(op, session, fed)
            ins = []
            for t in op._inputs:
                if t not in slots:
                    slots[t] = len(slots)
                ins.append(slots[t])
            outs = []
            if not fed_placeholder:
                for t in op._outputs:
                    if t in fed:         # the fed value wins: readers of t see the feed, not this op's result
                        outs.append(DISCARD)
                        continue
                    if t not in slots:
                        slots[t] = len(slots)
                    outs.append(slots[t])
            if op._type in CONTROL_FLOW_TYPES:
                self.has_control_flow = True
            ctrl = [c for c in op._control_inputs]
            if op in self.skipped:
                # no kernel: the careful loop still passes a skipped op's deadness (an untaken cond
                # branch) on to the ops after it; the fast loop leaves it out
                kernel = None
            steps.append((kernel, ctx, ins, len(outs), outs, ctrl))
        self.careful_steps = steps
        # (template, steps) of the fast loop, replaced as one object so that a thread never pairs the
        # steps left after folding with a missing template: the template holds the slot values that
        # never change between runs, once a first run has computed them (None before)
        self._fast = (None, [s for s in steps if s[0] is not None] if self.skipped else steps)
        self.fetch_slots = []
        for t in fetch_tensors:
            if t not in slots:  # a fetch of a tensor nothing else in the plan touches: its op ran anyway
                slots[t] = len(slots)
            self.fetch_slots.append(slots[t])
        self.num_slots = len(slots) + 1   # the last slot is DISCARD
        self._constant = _constant_steps(steps, fed)

    def _build_frames(self, session, pruned, fed_tensors, fed):
        root, frame_of = frames.analyze(pruned)
        for t in self.fetch_tensors:
            frame = frame_of.get(t._op)
            if frame is not None and frame is not root and t._op._type not in frames.EXIT_TYPES:
                raise errors.InvalidArgumentError(
                    None, t._op, "Cannot fetch %s: it is computed inside the while loop frame '%s', once per "
                    "iteration. Fetch the loop's results (its Exit tensors) instead." % (t.name, frame.path))

        def make_step(op):
            kernel, ctx, _ = _step_parts(op, session, fed)
            return kernel, ctx
        program = frames.FrameProgram(root, make_step, fed_tensors, self.skipped)
        self._frames = program
        self.has_control_flow = True
        self.feed_slots = [program.slots[t] for t in fed_tensors]
        self.fetch_slots = [program._slot(t) for t in self.fetch_tensors]
        self.num_slots = len(program.slots) + 1
        self.careful_steps = program.steps
        self._fast = (None, program.steps)
        self._constant = ()

    @property
    def steps(self):
        """The fast loop's steps (constant ops left out once folded)."""
        return self._fast[1]

    def run(self, feed_values, trace=None, iterations=None):
        """Execute the steps; returns the list of slot values. ``trace`` (a run_metadata.Trace: timings, or a
        recording's values) is told of each op and sends the run down the careful path, plain kernels only;
        ``iterations`` (for plans with while loops) collects each loop frame's iteration counts."""
        careful = self.has_control_flow or trace is not None
        template, steps = self._fast                         # one read: see __init__
        if careful:
            template = None                                  # the careful loop computes every step
        values = template.copy() if template is not None else [None] * self.num_slots
        for slot, value in zip(self.feed_slots, feed_values):
            values[slot] = value
        if careful:
            return self._run_careful(values, trace, iterations)
        # the hot loop: kept apart from _run_steps_careful (cond's dead values, tracing) so it stays lean
        for kernel, ctx, ins, n_out, outs, _ in steps:
            try:
                result = kernel(ctx, *[values[i] for i in ins])
            except errors.OpError:
                raise
            except Exception as e:  # a numpy error inside a kernel: report it against the op
                raise _kernel_failure(ctx.op, e) from e
            if n_out == 1:
                values[outs[0]] = result
            elif n_out:
                for slot, v in zip(outs, result):
                    values[slot] = v
        if template is None and self._constant:
            self._keep_constants(values)
        return values

    def _keep_constants(self, values):
        """After the first complete run: remember what the constant steps computed and leave them out of
        later runs (TensorFlow's graph optimizer folds such ops into constants too). What a run reports
        as executed does not change; the values are the same every time, only cheaper. Large results
        (over FOLD_LIMIT_BYTES) are recomputed instead of being held by the plan."""
        with _KEEP_LOCK:       # two threads finishing a first run together: only one filters the steps
            if self._fast[0] is not None or not self._constant:
                return
            steps = self._fast[1]
            template = [None] * self.num_slots
            kept = set()
            for index in self._constant:
                outs = steps[index][4]
                results = [values[slot] for slot in outs]
                if all(getattr(v, "nbytes", 0) <= FOLD_LIMIT_BYTES for v in results):
                    for slot, v in zip(outs, results):
                        if isinstance(v, np.ndarray) and v.flags.writeable:
                            v.setflags(write=False)   # shared by every later run; a fetch gets a copy
                        template[slot] = v
                    kept.add(index)
            self._fast = (template, [step for i, step in enumerate(steps) if i not in kept])
            self._constant = ()

    def dead_ops(self, values):
        """The ops of a finished run that did not run because a value they read was dead (the untaken side
        of a tf.cond): those whose every output holds DEAD. Empty for plans without a cond (in a while
        loop's frames a value is per iteration, so deadness is not kept after the run)."""
        if not self.has_control_flow or self._frames is not None:
            return frozenset()
        dead = set()
        for _, ctx, ins, n_out, outs, ctrl in self.careful_steps:     # in execution order
            if n_out:
                if all(values[s] is DEAD for s in outs):
                    dead.add(ctx.op)
            elif any(values[i] is DEAD for i in ins) or any(c in dead for c in ctrl):
                dead.add(ctx.op)      # an op without outputs (Assert, NoOp) on the untaken side
        return frozenset(dead)

    def _run_careful(self, values, trace, iterations=None):
        if self._frames is not None:
            values = self._frames.run(values, trace, iterations=iterations)
        else:
            values = self._run_steps_careful(values, trace)
        if self.has_control_flow:
            for i, (tensor, slot) in enumerate(zip(self.fetch_tensors, self.fetch_slots)):
                if values[slot] is DEAD:
                    raise errors.InvalidArgumentError(
                        None, tensor.op, "Retval[%d] does not have value: %s is computed only on the branch "
                        "of a tf.cond that this run did not take. Fetch the cond's result (its Merge output) "
                        "instead." % (i, tensor.name))
        return values

    def _run_steps_careful(self, values, trace):
        dead_ops = set()
        clock = time.perf_counter
        for kernel, ctx, ins, n_out, outs, ctrl in self.careful_steps:
            op = ctx.op
            args = [values[i] for i in ins]
            if op._type not in ("Merge", "RefMerge") and (
                    any(a is DEAD for a in args) or any(c in dead_ops for c in ctrl)):
                dead_ops.add(op)
                for slot in outs:
                    values[slot] = DEAD
                if trace is not None:
                    trace.dead(op, args)
                continue
            if kernel is None:      # skipped: nothing reads its result
                continue
            start = clock()
            try:
                result = kernel(ctx, *args)
            except errors.OpError:
                raise
            except Exception as e:
                raise _kernel_failure(op, e) from e
            if trace is not None:
                trace.ran(op, start, clock(), args, result)
            if n_out == 1:
                values[outs[0]] = result
            elif n_out:
                for slot, v in zip(outs, result):
                    values[slot] = v
        return values


def _step_parts(op, session, fed):
    """(kernel, KernelContext, whether it is a fed placeholder) for one op of a plan: the registry's kernel,
    wrapped to read variable handles it takes as values."""
    opdef = registry.get_opdef(op._type)
    if opdef.kernel is None:
        raise errors.UnimplementedError(
            None, op, "graphlab has no kernel for op type %s (op '%s')." % (op._type, op.name))
    kernel = opdef.kernel
    ref_pos = set(opdef.ref_positions(op)) if any(a.is_ref for a in opdef.inputs) else set()
    deref = [i for i, t in enumerate(op._inputs) if t._dtype.is_ref_dtype and i not in ref_pos]
    if deref:
        kernel = _with_deref(kernel, deref)
    if op._type in _FEEDABLE_INPUTS and op._outputs and all(t in fed for t in op._outputs):
        return _fed_placeholder, KernelContext(op, session), True   # in the plan only for a control edge
    return kernel, KernelContext(op, session), False


DISCARD = -1
"""The plan's last slot: where an op that still runs writes an output that was fed (nobody reads it)."""
_KEEP_LOCK = threading.Lock()
_FEEDABLE_INPUTS = frozenset(["Placeholder", "PlaceholderV2", "PlaceholderWithDefault"])


def _fed_placeholder(ctx):
    """A fed placeholder's step: the feed already holds its value."""
    return None


FOLD_LIMIT_BYTES = 1 << 20


def _constant_steps(steps, fed):
    """Indices (into the fast loop's steps) of ops whose results are the same in every run: stateless
    ops without control inputs whose inputs all come from such ops (Consts to begin with), none fed. A
    dataset (a variant) is made anew by every run, as in TF: each initializer run of an iterator starts a
    fresh dataset, whose shuffle then draws its first order again."""
    constant_ops = set()
    indices = []
    position = 0
    for kernel, ctx, ins, n_out, outs, ctrl in steps:
        op = ctx.op
        if kernel is None:              # skipped: not in the fast loop
            continue
        if (not ctrl and op._type not in pruning.ALWAYS_RUN and not registry.get_opdef(op._type).stateful
                and all(t not in fed and t._op in constant_ops for t in op._inputs)
                and not any(t._dtype == dtypes.variant for t in op._outputs)):
            constant_ops.add(op)
            indices.append(position)
        position += 1
    return indices


_kernel_failure = frames.kernel_failure
