"""``Session.partial_run_setup`` and ``Session.partial_run``: one run of a graph, fed and fetched in steps.

TF's executor runs the setup's whole subgraph as a dataflow: every op whose inputs are ready runs at once.
So at setup the ops that need no feed run (a variable update among them), and each step's feeds let every
op they unblock run (a train op too, fetched or not); each op runs once per partial run, and a later step
reads what an earlier one computed (one random draw shared by all steps). graphlab does the same, step by
step: each stage runs a plan of the ops now unblocked, fed with every value known so far.
Errors are TF's: feeds and fetches must be named at setup, fed or fetched once, and computable from the
feeds given so far; a kernel's error ends the partial run, as does the last fetch once all feeds are in.
"""
import itertools

from graphlab.formats import errors
from graphlab.framework.error_format import as_run_error
from graphlab.framework.operation import Operation
from graphlab.framework.tensor import Tensor
from graphlab.runtime import fetches as fetches_mod, numpy_errors, pruning
from graphlab.runtime.executor import Plan

_step_ids = itertools.count(1)
_SWITCH_TYPES = frozenset(("Switch", "RefSwitch"))


def _error(cls, message):
    return cls(None, None, "Graph execution error:\n\n" + message)


class PartialRun:
    """The state of one partial run: which feeds and fetches are still pending, and every value known."""

    def __init__(self, session, fetch_tensors, targets, feeds):
        self.session = session
        self.pending_feeds = dict.fromkeys(feeds, False)        # tensor -> fed yet
        self.pending_fetches = dict.fromkeys(fetch_tensors, False)
        self.ops = pruning.prune(fetch_tensors, targets, set(feeds))
        self.done = set()              # ops that ran
        self.known = {}                # tensor -> value: the feeds and what the ops computed
        self.failure = None            # the error of an op that ran at setup, raised by the next step

    def finished(self):
        return all(self.pending_feeds.values()) and all(self.pending_fetches.values())

    def check_fetch(self, fetch_tensors, fed_now):
        """TF's CheckFetch: walking up from each fetch, no input may be a feed still to come."""
        waiting = {t for t, fed in self.pending_feeds.items() if not fed and t not in fed_now}
        stack = [t._op for t in fetch_tensors]
        seen = set(stack)
        while stack:
            op = stack.pop()
            for t in op._inputs:
                if t in waiting:
                    raise _error(errors.InvalidArgumentError, "Fetch %s can't be computed from the feeds that "
                                 "have been fed so far." % t.name)
                if t._op not in seen:
                    seen.add(t._op)
                    stack.append(t._op)
            for c in op._control_inputs:
                if c not in seen:
                    seen.add(c)
                    stack.append(c)

    def advance(self):
        """Run every op of the setup's subgraph that no missing feed blocks and that has not run yet."""
        waiting = {t for t, fed in self.pending_feeds.items() if not fed}
        blocked = set()
        ready = []
        for op in self.ops:           # in topological order: an op's inputs are decided before it
            if (any(t in waiting or t._op in blocked for t in op._inputs)
                    or any(c in blocked for c in op._control_inputs)):
                blocked.add(op)
            elif op not in self.done:
                ready.append(op)
        if not ready:
            return
        # what the stage keeps: the outputs of its ops outside loops and conds (values later stages read);
        # an op inside one runs as part of computing the loop's or cond's results
        harvest, targets = [], []
        for op in ready:
            if op._control_flow_context is not None or op._type in _SWITCH_TYPES:
                continue
            if op._outputs:
                harvest.extend(t for t in op._outputs if t not in self.known)
            else:
                targets.append(op)
        fed = tuple(sorted(self.known, key=fetches_mod.feed_order))
        plan = Plan(self.session, harvest, targets, fed)
        self._leave_out_done_ops(plan)
        quiet = numpy_errors.silence()
        try:
            values = plan.run([self.known[t] for t in fed])
        finally:
            numpy_errors.restore(quiet)
        for t, slot in zip(harvest, plan.fetch_slots):
            self.known[t] = values[slot]
        self.done.update(ready)

    def _leave_out_done_ops(self, plan):
        """An op that ran in an earlier stage runs once only, also when a control edge leads to it again
        (``with tf.control_dependencies([update])`` on a later fetch): its step is left out of the plan.
        Its outputs are fed from the values kept (the plan reads them from their feed slots)."""
        if plan._frames is not None:
            return

        def again(step):
            op = step[1].op
            return op in self.done and all(t in self.known for t in op._outputs)
        if any(again(s) for s in plan.careful_steps):
            plan.careful_steps = [s for s in plan.careful_steps if not again(s)]
            plan._fast = (None, [s for s in plan._fast[1] if not again(s)])
            plan._constant = ()      # its indexes were into the steps as they were


def setup(session, fetches, feeds=None):
    """``Session.partial_run_setup``: the handle of a new partial run (its ops needing no feed run now)."""
    if session._closed:
        raise RuntimeError("Attempted to use a closed Session.")
    graph = session.graph
    if not graph._ops:
        raise RuntimeError("The Session graph is empty. Add operations to the graph before calling run().")
    elements, _ = fetches_mod.flatten_fetches(graph, fetches)
    fetch_tensors = [e for e in elements if isinstance(e, Tensor)]
    targets = [e for e in elements if isinstance(e, Operation)]
    if feeds is None:
        feeds = []
    if not isinstance(feeds, (list, tuple)):
        feeds = [feeds]
    feed_tensors = []
    for feed in feeds:
        try:
            feed_tensors.append(graph.as_graph_element(feed, allow_tensor=True, allow_operation=False))
        except (TypeError, ValueError, KeyError) as e:
            text = e.args[0] if e.args else str(e)
            raise type(e)("Cannot interpret feed_list key as Tensor: %s" % text) from None
    for t in fetch_tensors:
        if t in feed_tensors:
            raise _error(errors.InvalidArgumentError, "%s is both fed and fetched." % t.name)
    handle = "%s->%s/%s/1/;%d" % (",".join(t.name for t in feed_tensors), ",".join(t.name for t in fetch_tensors),
                                  ",".join(op.name for op in targets), next(_step_ids))
    state = PartialRun(session, fetch_tensors, targets, feed_tensors)
    session._partial_runs[handle] = state
    try:
        state.advance()
    except errors.OpError as e:    # TF's executor fails in the background: the next step reports it
        state.failure = as_run_error(e, graph)
    return handle


def step(session, handle, fetches, feed_dict=None):
    """``Session.partial_run``: feed more of the setup's feeds and fetch some of its fetches."""
    if session._closed:
        raise RuntimeError("Attempted to use a closed Session.")
    graph = session.graph
    elements, rebuild = fetches_mod.flatten_fetches(graph, fetches)
    fed, feed_values = session._normalise_feeds(feed_dict)
    state = session._partial_runs.get(handle)
    if state is None:
        raise _error(errors.InvalidArgumentError, "Must run 'setup' before performing partial runs!")
    for t in fed:
        if t not in state.pending_feeds:
            raise _error(errors.InvalidArgumentError, "The feed %s was not specified in partial_run_setup." % t.name)
        if state.pending_feeds[t]:
            raise _error(errors.InvalidArgumentError, "The feed %s has already been fed." % t.name)
    fetch_tensors = [e for e in elements if isinstance(e, Tensor)]   # ops as fetches: TF runs nothing for them
    for t in fetch_tensors:
        if t not in state.pending_fetches:
            raise _error(errors.InvalidArgumentError, "The fetch %s was not specified in partial_run_setup." % t.name)
        if state.pending_fetches[t]:
            raise _error(errors.InvalidArgumentError, "The fetch %s has already been fetched." % t.name)
    state.check_fetch(fetch_tensors, set(fed))
    if state.failure is not None:
        del session._partial_runs[handle]
        raise state.failure
    for t, value in zip(fed, feed_values):
        state.known[t] = value
        state.pending_feeds[t] = True
    _advance(session, handle, state)
    results = [fetches_mod.as_result(state.known[e]) if isinstance(e, Tensor) else None for e in elements]
    for t in fetch_tensors:
        state.pending_fetches[t] = True
    if state.finished():
        del session._partial_runs[handle]
    return rebuild(results)


def _advance(session, handle, state):
    try:
        state.advance()
    except errors.OpError as e:    # a kernel's error ends the partial run, as TF's
        session._partial_runs.pop(handle, None)
        raise as_run_error(e, session.graph) from None
