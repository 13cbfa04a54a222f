"""Session: where values live. ``run`` normalises fetches and feeds, finds (or builds and caches) the pruned
plan for this combination, executes it, and rebuilds the results in the caller's structure.

State (variables, queues, random generators) belongs to the session and is shared by all its plans, so an
initializer run through one pruned subgraph is seen by a training op run through another.
"""
import threading
import time

from graphlab.formats import errors
from graphlab.framework import default_stacks, graph as graph_mod, nest
from graphlab.framework.default_stacks import get_default_session
from graphlab.framework.indexed_slices import IndexedSlices
from graphlab.framework.operation import Operation
from graphlab.framework.tensor import Tensor
from graphlab.framework.error_format import as_run_error, run_error_message
from graphlab.runtime import (fetches as fetches_mod, functions, numpy_errors, partial_run, pruning, recording,
                              threads)
from graphlab.runtime.fetches import as_result as _as_result
from graphlab.runtime.executor import Plan, check_no_fed_reference_is_updated
from graphlab.runtime.run_metadata import RunMetadata, RunOptions, Trace, record_trace
from graphlab.runtime.waiting import RunDeadline

# Callables ``listener(session, executed_ops)`` told after each successful run (the IPython extension watches
# for an initializer run after a restore). The engine never interprets them; a failing listener is ignored.
run_listeners = []


class LastRun:
    """What the most recent ``run`` did, for teaching: the ops it executed and whether its plan was cached."""

    __slots__ = ("_plan", "cached", "_fetches", "_fed", "_targets", "_iterations", "_dead", "record")

    def __init__(self, plan, cached, fetch_tensors, fed, targets, iterations=None, dead=frozenset()):
        # names are made only when asked for: a training loop should not pay for them on every step
        self._plan, self.cached = plan, cached
        self._fetches, self._fed, self._targets = fetch_tensors, fed, targets
        self._iterations = iterations
        self._dead = dead
        self.record = None        # the RunRecord of a run with debug watches (graphlab.debug)

    @property
    def iterations(self):
        """For each while loop the run went through (by frame name, e.g. ``while/while_context``): how many
        iterations it made, one count per time the loop ran (a loop nested in another runs once per outer
        iteration). Empty for a run without loops."""
        return {name: list(counts) for name, counts in (self._iterations or {}).items()}

    @property
    def executed(self):
        """Names of the ops the run executed, in execution order (not those of an untaken cond branch)."""
        dead = self._dead
        return [op.name for op in self._plan.ops if op not in dead]

    @property
    def dead(self):
        """Names of the pruned ops that did not run because the run took the other side of a tf.cond: their
        input was the dead output of a Switch (TensorFlow propagates deadness the same way)."""
        dead = self._dead
        return [op.name for op in self._plan.ops if op in dead]

    @property
    def skipped(self):
        """Names of ops the pruned plan holds but the run skipped: stateless ops whose results nothing reads
        (only control edges lead to them), which TensorFlow's graph optimizer also turns into NoOps."""
        return [op.name for op in pruning.topological_order(self._plan.skipped)] if self._plan.skipped else []

    @property
    def fetches(self):
        return [t.name for t in self._fetches]

    @property
    def feeds(self):
        return [t.name for t in self._fed]

    @property
    def targets(self):
        return [op.name for op in self._targets]

    def __repr__(self):
        return "<LastRun executed=%d ops, plan %s>" % (len(self.executed), "cached" if self.cached else "new")


class BaseSession:
    """Shared by Session and InteractiveSession."""

    def __init__(self, target="", graph=None, config=None):
        self._graph = graph if graph is not None else graph_mod.get_default_graph()
        self._state = {}          # op name -> kernel state (VariableRef, queue, random generator ...)
        self._plans = {}          # (fetches, fed, targets) -> Plan
        self._closed = False
        self._closing = threading.Event()   # set by close(): blocked kernels (queues) stop waiting
        # ConfigProto(operation_timeout_in_ms=...): how long a blocked op may wait (0: for ever, as TF)
        self._timeout_ms = int(getattr(config, "operation_timeout_in_ms", 0) or 0)
        # ConfigProto(intra_op_parallelism_threads=N): BLAS threads while this session runs (0: as they are)
        self._intra_op_threads = int(getattr(config, "intra_op_parallelism_threads", 0) or 0)
        self._config = config
        self._placed = 0          # how many of the graph's ops were placed (runtime/placement.py)
        self._lock = threading.RLock()
        self.last_run = None
        self.plan_cache_hits = 0
        self.plan_cache_misses = 0
        self._default_contexts = []
        self._partial_runs = {}   # handle -> PartialRun (graphlab/runtime/partial_run.py)

    @property
    def graph(self):
        return self._graph

    @property
    def graph_def(self):
        return self._graph.as_graph_def()

    @property
    def sess_str(self):
        return ""

    # --- running ------------------------------------------------------------------------------------
    def run(self, fetches, feed_dict=None, options=None, run_metadata=None):
        """Compute ``fetches`` (a tensor, op, name, or nested list/tuple/dict/namedtuple of them)."""
        if self._closed:
            raise RuntimeError("Attempted to use a closed Session.")
        graph = self._graph
        if not graph._ops:       # TF checks this before it looks at the fetches
            raise RuntimeError("The Session graph is empty. Add operations to the graph before calling run().")
        # one Tensor, or one Operation (a queue runner's enqueue, a train op): nothing to flatten
        if (isinstance(fetches, Tensor) and fetches._op._graph is graph
                or type(fetches) is Operation and fetches._graph is graph):
            elements, rebuild = [fetches], _first
        else:
            elements, rebuild = fetches_mod.flatten_fetches(graph, fetches)
        fed, feed_values = self._normalise_feeds(feed_dict)
        if self._placed != len(graph._ops):     # TF places the whole graph when it first runs or has grown
            from graphlab.runtime import placement
            try:
                placement.check(graph.get_operations(), self._config)
            except errors.InvalidArgumentError as e:   # as TF's placer reports it: tagged [[add]], no op
                raise type(e)(None, None, run_error_message(e.message, e.op, "[[%s]]")) from None
            placement.log(graph, self._config)
            self._placed = len(graph._ops)
        fetch_tensors = []
        targets = []
        for e in elements:
            if isinstance(e, Tensor):
                fetch_tensors.append(e)
            else:
                targets.append(e)
        key = (tuple(fetch_tensors), tuple(targets), fed)
        plan = self._plans.get(key)
        cached = plan is not None
        if plan is None:
            _check_accessible(graph, fed, fetch_tensors, targets)
            plan = Plan(self, fetch_tensors, targets, fed)
            check_no_fed_reference_is_updated(plan.ops, fed)
            with self._lock:
                self._plans[key] = plan
            self.plan_cache_misses += 1
        else:
            self.plan_cache_hits += 1
        trace = None
        if options is not None:          # the one check a run pays for tracing and recording
            trace = recording.recorder_for(options, fetch_tensors, fed)
            if trace is None and getattr(options, "trace_level", 0) and run_metadata is not None:
                trace = Trace()
            elif trace is not None and fed:
                for t, v in zip(fed, feed_values):
                    trace.record.feed_values[t.name] = recording.summarize(t.name, v, trace.record)
        start = time.perf_counter()
        iterations = {} if plan._frames is not None else None
        quiet = numpy_errors.silence()      # TF's kernels never warn about nan or inf: nor do ours
        timeout_ms = getattr(options, "timeout_in_ms", 0) or self._timeout_ms
        blas = threads.limit(self._intra_op_threads) if self._intra_op_threads > 0 else None
        try:
            with RunDeadline(timeout_ms):   # how long a blocked op (a dequeue) may wait; 0: for ever
                values = plan.run(feed_values, trace, iterations)
        except Exception as e:
            error = as_run_error(e, graph) if isinstance(e, errors.OpError) else e   # TF 2.21's run errors
            if isinstance(trace, recording.Recorder):     # what ran before the failure stays readable
                trace.record.error = error
                error.debug_record = trace.record
            if error is e:
                raise
            raise error from None
        finally:
            if isinstance(trace, recording.Recorder):
                trace.finish(graph, fetch_tensors, fed, targets)
            numpy_errors.restore(quiet)
            if blas:
                threads.restore(blas)
        if trace is not None and run_metadata is not None:
            record_trace(run_metadata, trace, start)
        dead = plan.dead_ops(values) if plan.has_control_flow else frozenset()
        self.last_run = LastRun(plan, cached, fetch_tensors, fed, targets, iterations, dead)
        if isinstance(trace, recording.Recorder):
            self.last_run.record = trace.record
        for listener in run_listeners:
            try:
                listener(self, plan.ops)
            except Exception:
                pass
        results = []
        fetched = iter(plan.fetch_slots)
        fed_values = dict(zip(fed, feed_values)) if fed else {}
        for e in elements:
            if isinstance(e, Tensor):
                value = values[next(fetched)]
                # a fetched tensor that was fed gives the fed array itself, as TF (a 0-d one stays an array)
                if e in fed_values:
                    results.append(fed_values[e])
                else:
                    try:
                        results.append(_as_result(value))
                    except errors.FailedPreconditionError as err:  # a variable fetched as it is (its ref)
                        _raise_at_retval(err, e, fetch_tensors)
            else:
                results.append(None)
        return rebuild(results)

    def _normalise_feeds(self, feed_dict):
        if not feed_dict:
            return (), ()
        fed, values = [], []
        graph = self._graph
        for key, value in _split_indexed_slices(_flatten_nested_keys(feed_dict)):
            try:
                tensor = graph.as_graph_element(key, allow_operation=False)
            except (TypeError, ValueError, KeyError) as e:
                text = e.args[0] if e.args else str(e)
                raise TypeError("Cannot interpret feed_dict key as Tensor: %s" % text) from None
            fed.append(tensor)
            values.append(fetches_mod.convert_feed(tensor, value, key))
        order = sorted(range(len(fed)), key=lambda i: fetches_mod.feed_order(fed[i]))
        return tuple(fed[i] for i in order), [values[i] for i in order]

    def make_callable(self, fetches, feed_list=None, accept_options=False):
        """A function that runs ``fetches`` with positional feeds, as TF's ``Session.make_callable``."""
        feed_list = list(feed_list or [])

        def call(*args, **kwargs):
            return self.run(fetches, dict(zip(feed_list, args)), kwargs.get("options"),
                            kwargs.get("run_metadata"))
        return call

    def partial_run_setup(self, fetches, feeds=None):
        """Start a partial run of ``fetches`` fed ``feeds`` step by step (graphlab/runtime/partial_run.py);
        returns its handle for ``partial_run``."""
        return partial_run.setup(self, fetches, feeds)

    def partial_run(self, handle, fetches, feed_dict=None):
        """One step of the partial run ``handle``: feed some of its feeds, fetch some of its fetches."""
        return partial_run.step(self, handle, fetches, feed_dict)

    def list_devices(self):
        return [_Device()]

    def _run_function(self, function, values):
        """Run a graph function (a tf.data function's graph) on ``values``: the service the dataset kernels
        call for each element (graphlab/runtime/functions.py)."""
        return functions.run_function(self, function, values)

    # --- lifetime -----------------------------------------------------------------------------------
    def close(self):
        """Release the session's state; running afterwards raises RuntimeError, and runs blocked on a
        queue in other threads end with CancelledError."""
        self._closed = True
        self._closing.set()
        self._state.clear()
        self._plans.clear()
        self._partial_runs.clear()

    def as_default(self):
        """Make this session the one ``Tensor.eval()`` and ``Operation.run()`` use inside the block."""
        return default_stacks.default_session_controller(self)

    def __enter__(self):
        session_ctx = self.as_default()
        graph_ctx = self._graph.as_default()
        session_ctx.__enter__()
        graph_ctx.__enter__()
        self._default_contexts.append((session_ctx, graph_ctx))
        return self

    def __exit__(self, exc_type, exc_value, tb):
        session_ctx, graph_ctx = self._default_contexts.pop()
        graph_ctx.__exit__(exc_type, exc_value, tb)
        session_ctx.__exit__(exc_type, exc_value, tb)
        self.close()

    def __del__(self):
        pass

    # --- teaching helpers ---------------------------------------------------------------------------
    def plan_cache_info(self):
        """How many distinct pruned plans this session holds, and how often a run found one cached."""
        return {"plans": len(self._plans), "hits": self.plan_cache_hits, "misses": self.plan_cache_misses}


class Session(BaseSession):
    """``tf.Session``: use in a ``with`` block, or call ``close()`` when done."""


class InteractiveSession(BaseSession):
    """A session that makes itself (and its graph) the default as soon as it is created, for notebooks and
    shells where ``t.eval()`` should just work."""

    def __init__(self, target="", graph=None, config=None):
        super().__init__(target, graph, config)
        self._session_ctx = self.as_default()
        self._session_ctx.__enter__()
        self._graph_ctx = self._graph.as_default()
        self._graph_ctx.__enter__()

    def close(self):
        if not self._closed:
            self._graph_ctx.__exit__(None, None, None)
            self._session_ctx.__exit__(None, None, None)
        super().close()


def _check_accessible(graph, fed, fetch_tensors, targets):
    """TF's errors for feeding or fetching what a while loop or cond branch marked off limits."""
    for t in fed:
        if not graph.is_feedable(t):
            raise ValueError("Tensor %s may not be fed." % t.name)
    for element in list(fetch_tensors) + list(targets):
        op = getattr(element, "op", element)
        if not graph.is_fetchable(op):
            raise errors.InaccessibleTensorError(
                "Operation %s has been marked as not fetchable. Typically this happens when it is defined in "
                "another function or code block. Use return values, explicit Python locals or TensorFlow "
                "collections to access it." % op.name)


class _Device:
    name = "/job:localhost/replica:0/task:0/device:CPU:0"
    device_type = "CPU"
    memory_limit_bytes = 0


def _flatten_nested_keys(feed_dict):
    """TF's nest.flatten_dict_items: a key that is a structure (an RNN's LSTMStateTuple state, a tuple of
    them, a SparseTensor) feeds each of its tensors the matching part of its value, so a program can feed
    back the state a previous run returned."""
    flat = {}
    for key, value in feed_dict.items():
        keys, values = [key], [value]
        if nest.is_nested(key):
            keys, values = nest.flatten(key), nest.flatten(value)
            if len(keys) != len(values):
                raise ValueError("Could not flatten dictionary. Key had %d elements, but value had %d elements. "
                                 "Key: %s, value: %s." % (len(keys), len(values), keys, values))
        for k, v in zip(keys, values):
            if k in flat:
                raise ValueError("Cannot flatten dict because this key is not unique: %s" % (k,))
            flat[k] = v
    return flat


def _split_indexed_slices(feed_dict):
    """The feed_dict's (key, value) pairs, an IndexedSlices key fed as its parts (TF accepts an
    IndexedSlicesValue or a (values, indices[, dense_shape]) tuple for it)."""
    for key, value in feed_dict.items():
        if not isinstance(key, IndexedSlices):
            yield key, value
            continue
        parts = [key.values, key.indices, key.dense_shape]
        if not isinstance(value, (tuple, list)) or len(value) not in (2, 3):
            raise TypeError("The value fed for IndexedSlices %s must be an IndexedSlicesValue or a "
                            "(values, indices, dense_shape) tuple, got %r" % (key.name, type(value).__name__))
        for tensor, part in zip(parts, value):
            if tensor is not None and part is not None:
                yield tensor, part


def _raise_at_retval(error, tensor, fetch_tensors):
    """An uninitialized variable fetched by its ref: TF finds it when it hands the fetch back, in the
    ``_retval_<tensor>_<index>`` node it adds for each fetch (no op of the graph, so no definition)."""
    node = "_retval_%s_%d" % (tensor.name.replace(":", "_"), fetch_tensors.index(tensor))
    raise type(error)(None, None, "Graph execution error:\n\n%s\n\t [[{{node %s}}]]" % (error.message, node)) \
        from None


def _first(values):
    return values[0]


__all__ = ["Session", "InteractiveSession", "get_default_session", "RunOptions", "RunMetadata"]
