"""Running while loops: frames and iterations, as TensorFlow's executor runs control flow v1.

A loop's ops live in a *frame*, opened by its Enter ops (attr ``frame_name``) and left through its Exit
ops; loops nest, so frames nest. This module finds each op's frame (``analyze``, TF's ControlFlowInfo),
checks that no op mixes values from two frames, and compiles each frame into a ``FrameProgram``: its ops in
dependency order, where a nested loop is one step (a ``_ChildFrame``). Running a frame repeats its program,
one pass per iteration:

* an Enter's value is there from the start: in every iteration for a constant Enter (a value the body only
  reads), in the first one only for a loop variable's Enter;
* a Merge forwards its live input: the Enter's value in the first iteration, the NextIteration value of
  the previous pass afterwards (back edges are left out of the dependency order);
* a dead value (the side a Switch did not take) makes every op that reads it dead, so when the LoopCond
  turns false the body goes dead, no NextIteration is live, and the frame ends; each Exit then holds its
  last live value, which the parent frame reads.

The root frame is the plan itself: one pass, no iterations. Values are numbered slots per frame; a nested
loop's step reads its Enters' inputs from the parent's slots and writes its Exits' values back.
"""
import heapq
import time

from graphlab.formats import errors
from graphlab.framework.registry import DEAD
from graphlab.runtime import pruning

ENTER_TYPES = frozenset(("Enter", "RefEnter"))
EXIT_TYPES = frozenset(("Exit", "RefExit"))
NEXT_ITERATION_TYPES = frozenset(("NextIteration", "RefNextIteration"))
MERGE_TYPES = frozenset(("Merge", "RefMerge"))


class Frame:
    """A loop frame (or the root): its name, parent, and the ops whose outputs live in it."""

    __slots__ = ("name", "parent", "enters", "ops", "exits", "children")

    def __init__(self, name, parent):
        self.name, self.parent = name, parent
        self.enters, self.ops, self.exits, self.children = [], [], [], []

    @property
    def path(self):
        return self.name if self.parent is None or self.parent.parent is None else \
            self.parent.path + "/" + self.name

    def __repr__(self):
        return "<Frame %r>" % (self.name,)


def has_frames(ops):
    return any(op._type in ENTER_TYPES for op in ops)


def analyze(ordered_ops):
    """The root Frame of ``ordered_ops`` (in dependency order, back edges aside), every op placed in the
    frame its outputs live in (an Enter in the child frame it opens, an Exit in its loop's parent frame).
    InvalidArgumentError, in TF's words, for an op whose inputs come from different frames."""
    root = Frame("", None)
    frame_of = {}
    children = {}

    def output_frame(op):
        return frame_of.get(op, root)   # a producer outside the pruned set (fed) counts as root's

    for op in ordered_ops:
        t = op._type
        if t in ENTER_TYPES:
            parent = output_frame(op._inputs[0]._op) if op._inputs else root
            name = op._attrs.get("frame_name")
            name = name.decode() if isinstance(name, bytes) else name
            key = (id(parent), name)
            frame = children.get(key)
            if frame is None:
                frame = children[key] = Frame(name, parent)
                parent.children.append(frame)
            frame.enters.append(op)
            _check_same_frame(op, [op._inputs[0]._op] if op._inputs else [], parent, output_frame)
            _check_same_frame(op, op._control_inputs, parent, output_frame)
        elif t in EXIT_TYPES:
            inner = output_frame(op._inputs[0]._op)
            if inner.parent is None:
                raise errors.InvalidArgumentError(None, op, "Exit op '%s' is not inside a while loop's frame: "
                                                  "its input '%s' is in the root frame." % (
                                                      op.name, op._inputs[0].name))
            _check_same_frame(op, op._control_inputs, inner, output_frame)
            inner.exits.append(op)
            frame = inner.parent
        else:
            sources = [x._op for x in op._inputs if not pruning.is_back_edge(op, x)] + list(op._control_inputs)
            frame = output_frame(sources[0]) if sources else root
            _check_same_frame(op, sources, frame, output_frame)
            frame.ops.append(op)
        frame_of[op] = frame
    # a back edge must stay in its frame too
    for op in ordered_ops:
        if op._type in MERGE_TYPES:
            _check_same_frame(op, [x._op for x in op._inputs], frame_of[op], output_frame)
    return root, frame_of


def _check_same_frame(op, sources, frame, output_frame):
    for src in sources:
        other = output_frame(src)
        if other is not frame:
            first = next((s for s in sources if output_frame(s) is frame), None)
            here = ("The input {{node %s}} is in frame '%s'. " % (first.name, frame.path)) if first else \
                "It is in frame '%s'. " % frame.path
            raise errors.InvalidArgumentError(
                None, op, "{{node %s}} has inputs from different frames. %sThe input {{node %s}} is in frame "
                "'%s'. A value made inside a tf.while_loop can only leave it through the loop's result (an "
                "Exit), and a value from outside enters through an Enter." % (
                    op.name, here, src.name, other.path))


class FrameProgram:
    """One frame compiled to steps over numbered value slots. ``run`` executes it to the end (all its
    iterations) and leaves the Exits' last live values in their slots.

    ``make_step(op)`` gives (kernel, KernelContext) for an op (the executor's, with variable reads and fed
    placeholders handled); ``fed`` tensors (root only) are read from their slots, never written."""

    def __init__(self, frame, make_step, fed=(), skipped=frozenset()):
        self.frame = frame
        self.slots = {}
        for t in fed:
            self._slot(t)
        self.enter_slots = [self._slot(op._outputs[0]) for op in frame.enters]
        self.variant_enters = [op for op in frame.enters if not op._attrs.get("is_constant")]
        self.variant_enter_slots = [self.slots[op._outputs[0]] for op in self.variant_enters]
        self.enter_ctrl = [list(op._control_inputs) for op in frame.enters]
        steps = []
        self.next_slots = []
        for unit in _order_units(frame):
            if isinstance(unit, Frame):
                child = FrameProgram(unit, make_step, (), skipped)
                ins = [self._slot(op._inputs[0]) for op in unit.enters]
                outs = [self._slot(op._outputs[0]) for op in unit.exits]
                steps.append((_ChildFrame(child, unit), None, ins, len(outs), outs, ()))
                continue
            op = unit
            ins = [self._slot(t) for t in op._inputs]
            outs = [DISCARD if t in fed else self._slot(t) for t in op._outputs]
            kernel, ctx = make_step(op)
            if op in skipped:
                kernel = None
            steps.append((kernel, ctx, ins, len(outs), outs, tuple(op._control_inputs)))
            if op._type in NEXT_ITERATION_TYPES:
                self.next_slots.append(outs[0])
        self.steps = steps
        self.exit_slots = [self.slots[op._outputs[0]] for op in frame.exits]
        self.num_slots = len(self.slots) + 1       # the last one is DISCARD
        from graphlab.runtime.loop_runner import FastLoop
        self.fast = FastLoop.build(self)           # None: this frame runs with the general rules

    def _slot(self, tensor):
        slot = self.slots.get(tensor)
        if slot is None:
            slot = self.slots[tensor] = len(self.slots)
        return slot

    def run(self, values, trace=None, dead_enters=frozenset(), iterations=None):
        """Run every iteration. ``values`` holds the Enters' values in their slots (the feeds, for the
        root); ``dead_enters`` are Enters whose value is dead. Returns ``values`` after the last pass.
        ``iterations`` (a dict) collects, per loop frame, how many iterations each run of it made."""
        if self.fast is not None and trace is None and not dead_enters:
            return self.fast.run(values, iterations)
        next_slots, exit_slots = self.next_slots, self.exit_slots
        for s in next_slots:
            values[s] = DEAD
        last_exit = [DEAD] * len(exit_slots)
        always_dead = set(dead_enters)      # ops dead in every iteration (for their control edges)
        iteration = 0
        in_loop = trace is not None and self.frame.parent is not None
        if in_loop:
            trace.enter_frame(self.frame, [None if op in dead_enters else values[s]
                                           for op, s in zip(self.frame.enters, self.enter_slots)])
        while True:
            if in_loop:
                trace.iteration(iteration)
            run_steps(self.steps, values, set(always_dead), trace, iterations)
            for k, s in enumerate(exit_slots):
                if values[s] is not DEAD:
                    last_exit[k] = values[s]
            if not next_slots or all(values[s] is DEAD for s in next_slots):
                break
            if iteration == 0:
                # a loop variable's Enter gives its value to the first iteration only
                for s in self.variant_enter_slots:
                    values[s] = DEAD
                always_dead.update(self.variant_enters)
            iteration += 1
        if in_loop:
            trace.leave_frame()
        for k, s in enumerate(exit_slots):
            values[s] = last_exit[k]
        if iterations is not None and self.frame.parent is not None:
            # the last pass only found the loop condition false: it is not an iteration of the body
            iterations.setdefault(self.frame.name, []).append(iteration)
        return values


def run_steps(steps, values, dead_ops, trace, iterations):
    """One pass over ``steps`` with TF's rules for dead values: an op with a dead input or a dead control
    input does not run and its outputs are dead, except a Merge (it forwards a live input, or is dead when
    all are) and a ControlTrigger (never dead). ``dead_ops`` collects the ops that did not run."""
    clock = time.perf_counter
    for kernel, ctx, ins, n_out, outs, ctrl in steps:
        args = [values[i] for i in ins]
        if ctx is None:                      # a nested loop: runs all its iterations now
            for slot, v in zip(outs, kernel.run(args, dead_ops, trace, iterations)):
                values[slot] = v
            continue
        op = ctx.op
        op_type = op._type
        dead = ctrl and not dead_ops.isdisjoint(ctrl)
        if not dead:
            for a in args:          # (not `DEAD in args`: that would compare numpy arrays)
                if a is DEAD:
                    dead = True
                    break
        if dead and op_type not in MERGE_TYPES and op_type != "ControlTrigger":
            dead_ops.add(op)
            for slot in outs:
                values[slot] = DEAD
            if trace is not None:
                trace.dead(op, args)
            continue
        if kernel is None:      # skipped: nothing reads its result
            continue
        start = clock() if trace is not None else 0.0
        try:
            result = kernel(ctx, *args)
        except errors.OpError:
            raise
        except Exception as e:
            raise kernel_failure(op, e) from e
        if trace is not None:
            trace.ran(op, start, clock(), args, result)
        if n_out == 1:
            values[outs[0]] = result
        elif n_out:
            for slot, v in zip(outs, result):
                values[slot] = v
            if op_type in MERGE_TYPES and result[0] is DEAD:
                dead_ops.add(op)


DISCARD = -1
"""The slot an op that still runs writes a fed output to (nobody reads it): the last one."""


class _ChildFrame:
    """A nested loop as one step of its parent frame's program: a fresh frame each time the step runs."""

    __slots__ = ("program", "frame")

    def __init__(self, program, frame):
        self.program, self.frame = program, frame

    def run(self, enter_inputs, parent_dead_ops, trace, iterations):
        program = self.program
        dead = set()
        for op, value, ctrl in zip(self.frame.enters, enter_inputs, program.enter_ctrl):
            if value is DEAD or (ctrl and any(c in parent_dead_ops for c in ctrl)):
                dead.add(op)
        if program.variant_enters and all(op in dead for op in program.variant_enters):
            # every loop variable enters dead (a loop on a branch not taken, or inside a loop's last pass,
            # where only the condition runs): nothing in it can come alive, so it does not run at all
            return [DEAD] * len(program.exit_slots)
        values = [None] * program.num_slots
        for op, slot, value in zip(self.frame.enters, program.enter_slots, enter_inputs):
            values[slot] = DEAD if op in dead else value
        values = program.run(values, trace, frozenset(dead), iterations)
        return [values[s] for s in program.exit_slots]


def _order_units(frame):
    """The frame's ops and nested frames in an order where every unit comes after what it reads (back edges
    aside): a nested frame after its Enters' inputs, the readers of its Exits after it."""
    units = list(frame.ops) + list(frame.exits) + list(frame.children)
    unit_of = {}
    for op in frame.ops:
        unit_of[op] = op
    for op in frame.exits:
        unit_of[op] = op
    for child in frame.children:
        for op in _all_ops(child):
            unit_of[op] = child       # an inner op reached from here can only be an Exit of the child
    order_key = {}
    for unit in units:
        first = unit if not isinstance(unit, Frame) else min(unit.enters, key=lambda o: o._id)
        order_key[id(unit)] = first._id
    deps = {}
    for unit in units:
        if isinstance(unit, Frame):
            sources = [t._op for op in unit.enters for t in op._inputs] + \
                [c for op in unit.enters for c in op._control_inputs]
        else:
            sources = [t._op for t in unit._inputs if not pruning.is_back_edge(unit, t)] + \
                list(unit._control_inputs)
        found = set()
        for src in sources:
            u = unit_of.get(src)
            if u is not None and u is not unit:
                found.add(id(u))
        deps[id(unit)] = found
    by_id = {id(u): u for u in units}
    users = {id(u): [] for u in units}
    pending = {}
    for uid, ds in deps.items():
        pending[uid] = len(ds)
        for d in ds:
            users[d].append(uid)
    ready = [(order_key[uid], uid) for uid in pending if pending[uid] == 0]
    heapq.heapify(ready)
    out = []
    while ready:
        _, uid = heapq.heappop(ready)
        out.append(by_id[uid])
        for u in users[uid]:
            pending[u] -= 1
            if pending[u] == 0:
                heapq.heappush(ready, (order_key[u], u))
    if len(out) != len(units):
        stuck = [getattr(by_id[u], "name", "?") for u in pending if pending[u] > 0][:5]
        raise ValueError("The graph has a cycle through a while loop's frame; involved ops include %s" % stuck)
    return out


def _all_ops(frame):
    yield from frame.enters
    yield from frame.ops
    yield from frame.exits
    for child in frame.children:
        yield from _all_ops(child)


def kernel_failure(op, exc):
    """A numpy error inside a kernel, reported against the op (and so the user's line that made it)."""
    return errors.InvalidArgumentError(
        None, op, "%s (op '%s' of type %s) failed: %s: %s" % (op.name, op.name, op._type, type(exc).__name__, exc))
