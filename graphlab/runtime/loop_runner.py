"""The fast way to run a while loop's frame, for loops shaped as tf.while_loop builds them.

The general runner (frames.FrameProgram.run) checks every op of every iteration for dead inputs, because
any value may be dead. In a frame built by tf.while_loop that is mostly known in advance: each iteration
first runs the *head* (the Merges, the condition, the LoopCond), and then either

* the condition holds: every loop Switch sends its value to the body, the Exits stay dead, and the body
  runs; inside it only ops downstream of a cond's Switch can meet a dead value, so only they are checked;
* the condition is false: the loop Switches send their values to the Exits, the body is dead, and the
  frame ends (no NextIteration is live).

``FastLoop.build`` returns None for a frame that does not have that shape (no single LoopCond, body ops that
do not hang off the loop Switches, Exits fed by something else), and the general runner is used instead.
The head and the body are each run as one generated function (compiled_pass.py); ``_Plumbing`` says which
ops need no step at all, which run in the first iteration only, and which add to their loop variable in place.
"""
import functools
from operator import itemgetter

import numpy as np

from graphlab.formats import errors
from graphlab.framework.registry import DEAD
from graphlab.runtime.compiled_pass import CHECK, FAST, MERGE, TRIGGER, compile_pass, run_interpreted
from graphlab.runtime.frames import DISCARD, EXIT_TYPES, MERGE_TYPES
from graphlab.runtime.pruning import ALWAYS_RUN

SWITCH_TYPES = frozenset(("Switch", "RefSwitch"))


def args_getter(ins):
    """A C-level function from the slot list to the op's arguments (a list or tuple of values)."""
    if len(ins) == 1:
        return itemgetter(slice(ins[0], ins[0] + 1))
    if not ins:
        return itemgetter(slice(0, 0))
    return itemgetter(*ins)


class FastLoop:
    """A frame's steps split into head, loop Switches, body and Exits (see the module docstring)."""

    __slots__ = ("program", "head", "pred_slot", "switches", "body", "later_body", "exits", "merges", "presets",
                 "passes", "interpreted")

    @classmethod
    def build(cls, program):
        frame = program.frame
        if frame.parent is None:
            return None
        conds = [op for op in frame.ops if op._type == "LoopCond"]
        if len(conds) != 1:
            return None
        pred = conds[0]._outputs[0]
        steps = [s for s in program.steps]
        if any(s[1] is None for s in steps):          # a nested loop: its step stays with the general runner
            return None
        by_op = {s[1].op: s for s in steps}
        loop_switches = [op for op in frame.ops if op._type in SWITCH_TYPES and op._inputs[1] is pred]
        # the head: what does not depend on any Switch of this frame
        downstream = _downstream(frame, [op for op in frame.ops if op._type in SWITCH_TYPES])
        for op in frame.exits:
            src = op._inputs[0]
            if src._op not in loop_switches or src._value_index != 0:
                return None
        head_ops = [s[1].op for s in steps if s[1].op not in downstream and s[1].op._type not in SWITCH_TYPES]
        if conds[0] not in head_ops:
            return None
        # every body op must hang off the loop Switches' true side
        from_true = _downstream(frame, loop_switches, index=1)
        body_ops = [s[1].op for s in steps if s[1].op in downstream and s[1].op not in loop_switches
                    and s[1].op._type not in EXIT_TYPES]
        if any(op not in from_true for op in body_ops):
            return None
        self = cls()
        self.program = program
        slots = program.slots
        self.pred_slot = slots[pred]
        self.switches = [(slots[op._inputs[0]], slots[op._outputs[0]], slots[op._outputs[1]])
                         for op in loop_switches]
        maybe_dead = _maybe_dead(frame, loop_switches, body_ops)
        plumbing = _Plumbing(frame, by_op, maybe_dead, slots)
        self.merges = plumbing.loop_merges(head_ops)
        self.head = plumbing.compile([op for op in head_ops if op not in plumbing.merged])
        plumbing.find_accumulators(body_ops, loop_switches)
        self.body = plumbing.compile(body_ops)
        program.num_slots = len(slots) + 1          # the accumulators' marker slots are new ones
        # iterations after the first leave out the loop-invariant steps: their results stay in their slots
        invariant = plumbing.invariant_slots
        self.later_body = [step for step in self.body if not (step[4] and step[4][0] in invariant)] \
            if invariant else self.body
        self.merges = plumbing.resolve(self.merges)
        self.presets = plumbing.presets
        self.passes, self.interpreted = None, 0
        self.switches = [tuple(plumbing.alias.get(s, s) for s in sw) for sw in self.switches]
        self.exits = [(plumbing.alias.get(slots[op._inputs[0]], slots[op._inputs[0]]), slots[op._outputs[0]])
                      for op in frame.exits]
        return self

    def run(self, values, iterations):
        """Run the whole loop: per iteration the head (Merges, condition), then the body or the Exits."""
        program = self.program
        for s in program.next_slots:
            values[s] = DEAD
        for slot, value in self.presets:          # the body's constants, the same in every iteration
            values[slot] = value
        dead_ops = set()
        iteration = 0
        head, body, later_body = self._passes()
        switches, pred_slot = self.switches, self.pred_slot
        while True:
            for out, first, later, index_slot in self.merges:   # a loop variable's Merge
                values[out] = values[first if iteration == 0 else later]
                values[index_slot] = _VALUE_INDEX[0 if iteration == 0 else 1]
            head(values, dead_ops)
            pred = values[pred_slot]
            if pred is DEAD:
                raise errors.InternalError(None, None, "graphlab: the condition of loop frame '%s' is dead in "
                                           "iteration %d although its loop variables are not." % (
                                               program.frame.name, iteration))
            if not pred:
                break
            for data, out_false, out_true in switches:
                values[out_true] = values[data]
                values[out_false] = DEAD
            body(values, dead_ops)
            if iteration == 0:
                for s in program.variant_enter_slots:    # a loop variable's Enter feeds iteration 0 only
                    values[s] = DEAD
                body = later_body
            if dead_ops:
                dead_ops = set()
            iteration += 1
        for data, out_false, out_true in switches:
            values[out_false] = values[data]
            values[out_true] = DEAD
        for s in program.next_slots:
            values[s] = DEAD
        for src, out in self.exits:
            values[out] = values[src]
        if iterations is not None:
            iterations.setdefault(program.frame.name, []).append(iteration)
        if self.passes is None:
            self.interpreted += iteration + 1
        return values

    def _passes(self):
        """The head, body and later-iterations body as functions of (values, dead_ops): step by step at first,
        compiled to straight-line code (compiled_pass.py) once the loop has made COMPILE_AFTER_PASSES passes,
        in one run or several. Compiling costs ~20 us per step, as much as ~60 passes' step-by-step overhead:
        a loop that runs a few times pays nothing for it, a training loop pays it once."""
        passes = self.passes
        if passes is not None:
            return passes
        if self.interpreted < COMPILE_AFTER_PASSES:
            return [functools.partial(run_interpreted, steps) for steps in (self.head, self.body, self.later_body)]
        body = compile_pass(self.body)
        later = compile_pass(self.later_body) if self.later_body is not self.body else body
        self.passes = passes = (compile_pass(self.head), body, later)
        return passes


COMPILE_AFTER_PASSES = 64
"""Head passes (iterations, plus the last check of the condition) a loop makes step by step before its passes
are compiled."""

_VALUE_INDEX = [np.int32(0), np.int32(1)]


def _accumulating(add):
    """The kernel of an accumulating AddV2 (see ``_Plumbing.find_accumulators``): ``acc + value`` with its own
    kernel ``add``, except that an ``acc`` this step made itself in an earlier iteration of this run of the
    loop (``own``, its marker slot) is added to in place, as TF's AddV2 reuses an input buffer no one else
    holds. Nothing else can hold it: the sum went only to the NextIteration, the loop Merge and Switch, all
    read by this step alone. Same values, bit for bit (the same ufunc, writing where it reads); only when
    the shapes and dtypes agree, so that the result is what ``add`` would have made."""
    def accumulate(ctx, acc, value, own):
        if acc is own and type(acc) is np.ndarray and type(value) is np.ndarray and value.shape == acc.shape \
                and value.dtype == acc.dtype:
            np.add(acc, value, out=acc)
            return acc, acc
        total = add(ctx, acc, value)
        return total, total
    return accumulate


_PASS_THROUGH = frozenset(("Identity", "NextIteration"))


class _Plumbing:
    """Compiles a loop's ops into steps, leaving out what needs no kernel call once the loop is known to be
    running: an Identity or NextIteration only renames a value (its readers read its input's slot), a NoOp
    does nothing, a constant is the same in every iteration (its slot is filled once), and a loop
    variable's Merge takes the Enter's value in the first iteration and the NextIteration's afterwards.
    A loop-invariant op (stateless, every input a constant or another loop-invariant result: e.g. the
    FloorMod and ConcatOffset of a concat's gradient) runs in the first iteration only and its result is
    kept for the others, as TensorFlow's constant folding turns such ops into constants; it still runs at
    its place in the first iteration, so an error it raises comes where it always did.
    A loop variable that only accumulates (``acc = acc + x``, as a gradient loop sums a weight's gradient over
    the iterations) is added to in place from the second iteration on (see ``_accumulating``).
    Ops that may meet a dead value (``maybe_dead``) keep their steps and the general rules."""

    def __init__(self, frame, by_op, maybe_dead, slots):
        from graphlab.framework import registry
        self.by_op, self.maybe_dead, self.slots = by_op, maybe_dead, slots
        self.alias = {}          # slot of a renamed value -> slot of the value it renames
        self.presets = []        # (slot, value) of the constants
        self.constant_slots = set()     # slots of the constants and of the loop-invariant results
        self.invariant_slots = set()    # first output slot of each loop-invariant step
        self._stateful = lambda op_type: registry.get_opdef(op_type).stateful
        self.merged = set()
        self.accumulators = {}   # AddV2 op -> the slot marking the array it made in this run of the loop
        self.variant_enters = {op._outputs[0] for op in frame.enters if not op._attrs.get("is_constant")}
        self._identity = {t: registry.get_opdef(t).kernel for t in _PASS_THROUGH}

    def _slot(self, tensor):
        slot = self.slots[tensor]
        return self.alias.get(slot, slot)

    def loop_merges(self, head_ops):
        """(Merge output slot, Enter slot, NextIteration input slot, value_index slot) per loop variable."""
        found = []
        for op in head_ops:
            if op._type != "Merge" or op in self.maybe_dead or len(op._inputs) != 2:
                continue
            first, later = op._inputs
            if first not in self.variant_enters or later._op._type != "NextIteration":
                continue
            self.merged.add(op)
            found.append((self.slots[op._outputs[0]], self.slots[first], later._op, self.slots[op._outputs[1]]))
        return found

    def find_accumulators(self, body_ops, loop_switches):
        """The AddV2 ops of loop variables that only accumulate: ``acc`` comes from the loop Switch of a loop
        Merge (directly or through one Identity) and is read by nothing else, and the sum goes only to that
        Merge's NextIteration, which goes only to the Merge. Each gets a new slot of its own, the marker
        ``_accumulating`` reads."""
        for op in body_ops:
            if op._type != "AddV2" or op in self.maybe_dead or len(op._outputs[0]._consumers) != 1:
                continue
            acc, value = op._inputs
            if acc is value or len(acc._consumers) != 1:
                continue
            if acc._op._type == "Identity" and acc._op not in self.maybe_dead:
                acc = acc._op._inputs[0]
                if len(acc._consumers) != 1:
                    continue
            switch = acc._op
            if switch not in loop_switches or acc._value_index != 1:
                continue
            merge = switch._inputs[0]._op
            if merge not in self.merged or len(merge._outputs[0]._consumers) != 1:
                continue
            next_iteration = merge._inputs[1]._op
            if next_iteration._inputs[0] is not op._outputs[0] or \
                    list(next_iteration._outputs[0]._consumers) != [merge]:
                continue
            marker = self.slots[("accumulator", op)] = len(self.slots)
            self.accumulators[op] = marker
            self.presets.append((marker, None))      # no array of this run's yet

    def compile(self, ops):
        steps = []
        for op in ops:
            kernel, ctx, ins, n_out, outs, ctrl = self.by_op[op]
            marker = self.accumulators.get(op)
            if marker is not None and kernel is not None:
                ins = [self._slot(t) for t in op._inputs] + [marker]
                steps.append((_accumulating(kernel), ctx, args_getter(ins), 2, [outs[0], marker], ctrl, FAST,
                              ins))
                continue
            fast = op not in self.maybe_dead
            if fast and op._type in _PASS_THROUGH and kernel is self._identity[op._type]:
                self.alias[outs[0]] = self._slot(op._inputs[0])
                continue
            if fast and op._type == "NoOp":
                continue
            if fast and op._type == "Const" and kernel is not None:
                self.presets.append((outs[0], kernel(ctx)))
                self.constant_slots.add(outs[0])
                continue
            if op._type in MERGE_TYPES:
                mode = MERGE
            elif op._type == "ControlTrigger":
                mode = TRIGGER
            else:
                mode = FAST if fast else CHECK
            if kernel is None and mode == FAST:
                continue           # skipped (nothing reads it) and never dead: nothing to do
            ins = [self._slot(t) for t in op._inputs]
            if mode == FAST and kernel is not None and self._invariant(op, ins, outs):
                self.constant_slots.update(outs)
                self.invariant_slots.add(outs[0])
            steps.append((kernel, ctx, args_getter(ins), n_out, outs, ctrl, mode, ins))
        return steps

    def _invariant(self, op, ins, outs):
        """Whether ``op`` computes the same values in every iteration: it reads only constants (or other
        such results), keeps no state, and has an output slot of its own to leave its result in."""
        return bool(ins) and bool(outs) and DISCARD not in outs and op._type not in ALWAYS_RUN and \
            all(i in self.constant_slots for i in ins) and not self._stateful(op._type)

    def resolve(self, merges):
        """A loop Merge's NextIteration input, now that the body is compiled: the slot it renames."""
        return [(out, first, self._slot(later._inputs[0]), index) for out, first, later, index in merges]


def _downstream(frame, sources, index=None):
    """Ops of ``frame`` that read (through data or control edges, within the frame, back edges aside) an
    output of ``sources`` (only output ``index`` when given)."""
    from graphlab.runtime.pruning import is_back_edge
    members = set(frame.ops) | set(frame.exits)
    found = set()
    stack = []
    for op in sources:
        outs = op._outputs if index is None else [op._outputs[index]]
        for t in outs:
            stack.extend(c for c in t._consumers if c in members and not is_back_edge(c, t))
        stack.extend(c for c in op._control_outputs if c in members)
    while stack:
        op = stack.pop()
        if op in found:
            continue
        found.add(op)
        for t in op._outputs:
            stack.extend(c for c in t._consumers if c in members and not is_back_edge(c, t))
        stack.extend(c for c in op._control_outputs if c in members)
    return found


def _maybe_dead(frame, loop_switches, body_ops):
    """Body ops that may meet a dead value while the loop runs: those downstream of a cond's Switch (up to
    and including the Merges that join the branches, conservatively beyond them), and readers of a loop
    variable's Enter other than its Merge (that value exists in the first iteration only)."""
    cond_switches = [op for op in body_ops if op._type in SWITCH_TYPES]
    variant = [op for op in frame.enters if not op._attrs.get("is_constant")]
    readers = [c for op in variant for c in op._outputs[0]._consumers if c._type not in MERGE_TYPES]
    return _downstream(frame, cond_switches) | set(cond_switches) | _downstream(frame, readers) | set(readers)
