"""GraphWatcher: the extension's logic, with no IPython registration code.

``pre_run_cell`` tags new ops with the cell's provenance and remembers where the default graph ended;
``post_run_cell`` slices the ops the cell added (graphs are append-only, so this costs per new op, not per
graph size), runs the enabled rules and publishes one report when there is something to say.

Two engines are watched alike: graphlab's default graph, and, once the user's code has imported TensorFlow,
TF's default graph through its engine-neutral view (graphlab.graphview; the cell's tag is set on TF's new ops
when the cell ends, since TF records no provenance of ours).
"""
import collections
import hashlib
import sys
import weakref

from graphlab import graphview
from graphlab.framework import graph as graph_mod, provenance
from graphlab.lint import checks
from graphlab.lint.structural import StructuralHasher
from graphlab_ipython import explain, hazards, report

try:
    import IPython
    _COUNTS_BEFORE_HOOK = IPython.version_info >= (9,)
except Exception:   # pragma: no cover
    _COUNTS_BEFORE_HOOK = False

_STATE_ATTR = "_graphlab_ipython_state"
RULES = ("duplicates", "op_growth", "large_constants", "errors", "restore_init", "run_builds", "cond_leaks",
         "exports", "tracebacks")
_RESTORE_TYPES = frozenset(("RestoreV2", "Restore", "RestoreSlice"))
_ASSIGN_TYPES = frozenset(("Assign", "AssignVariableOp"))


def _initializer_ops(executed_ops):
    """The executed ops that are some variable's ``initializer``: those of the graph's variables, and the
    Assigns an executed init NoOp (tf.global_variables_initializer()) groups through its control inputs."""
    graph = executed_ops[0].graph
    found = set()
    for key in ("variables", "local_variables"):
        for var in graph.get_collection(key):
            init = getattr(var, "initializer", None)
            if init is not None:
                found.add(init)
    for op in executed_ops:
        if op._type == "NoOp":
            found.update(c for c in op._control_inputs if c._type in _ASSIGN_TYPES)
    return found


def _default_graphs():
    """(engine, default graph view) of each engine in use: graphlab's, and TF's once imported."""
    graphs = [("graphlab", graph_mod.get_default_graph())]
    tf_graph = graphview.tf_default_graph()
    if tf_graph is not None:
        graphs.append(("tensorflow", tf_graph))
    return graphs


class CellTag:
    """The provenance recorded on each op: which execution (``In [n]``) of which cell created it. Mutable so
    ``post_run_cell`` can settle the execution number (IPython versions differ on when they increment it).
    ``run`` counts every cell execution the watcher saw, including those a front end runs without history
    (nbval: ``store_history=False`` leaves In [n] where it was, so only ``run`` tells two executions apart).
    ``inside`` is set for an execution started by another cell's code (``get_ipython().run_cell``): the
    notebook shows only the outer cell's prompt, so reports name that one, "In [7] (inner run 2)";
    ``started`` counts the executions this one started."""

    __slots__ = ("execution_count", "cell_id", "run", "numbered", "inside", "started")

    def __init__(self, execution_count, cell_id, run=0, numbered=True, inside=None):
        self.execution_count, self.cell_id = execution_count, cell_id
        self.run, self.numbered = run, numbered
        self.inside = inside
        self.started = 0

    def __repr__(self):
        return "CellTag(%s, %s)" % (self, self.cell_id)

    def __str__(self):
        return self.inside or run_label(self.execution_count, self.run, self.numbered)


def run_label(execution_count, run, numbered):
    """How a report names an execution: its In [n], or for one run without history (which has no number
    of its own) the watcher's count of executions."""
    return "In [%s]" % execution_count if numbered else "unnumbered run %d" % run


class RunRecord:
    """What one cell execution added to one graph: ``graph.get_operations()[start:end]``."""

    __slots__ = ("execution_count", "cell_id", "graph_ref", "start", "end", "source", "run", "numbered", "inside")

    def __init__(self, execution_count, cell_id, graph, start, end, source, run=0, numbered=True, inside=None):
        self.execution_count, self.cell_id = execution_count, cell_id
        self.graph_ref = weakref.ref(graph)
        self.start, self.end, self.source = start, end, source
        self.run, self.numbered = run, numbered
        self.inside = inside

    @property
    def label(self):
        return self.inside or run_label(self.execution_count, self.run, self.numbered)

    @property
    def source_key(self):
        return source_key(self.source)

    @property
    def graph(self):
        return self.graph_ref()

    def ops(self):
        graph = self.graph_ref()
        return [] if graph is None else graph._ops[self.start:self.end]


class Config:
    """Which rules run and their thresholds; changed with ``%graph_lint``."""

    def __init__(self):
        self.enabled = True
        self.rules = dict.fromkeys(RULES, True)
        self.op_growth = checks.DEFAULT_OP_GROWTH
        self.large_const = checks.DEFAULT_LARGE_CONST

    def status(self):
        return "graph_lint %s; rules: %s; op growth >= %d ops per line; large constants >= %s" % (
            "on" if self.enabled else "off",
            ", ".join("%s %s" % (r, "on" if v else "off") for r, v in self.rules.items()),
            self.op_growth, checks.human_bytes(self.large_const))


def source_key(source):
    """A short hash of a cell's source (surrounding blank space ignored)."""
    return hashlib.sha1((source or "").strip().encode("utf-8", "replace")).hexdigest()[:12]


def cell_identity(info):
    """The front end's cell id (JupyterLab sends one), else a hash of the cell's source."""
    cell_id = getattr(info, "cell_id", None)
    if cell_id:
        return str(cell_id)
    return "src:" + source_key(getattr(info, "raw_cell", "") or "")


class GraphWatcher:
    """Per-shell history of cell runs and the rules evaluated after each one."""

    def __init__(self, shell):
        self.shell = shell
        self.config = Config()
        self.records = []                        # RunRecord, in execution order (only runs that added ops)
        self.by_cell = collections.defaultdict(list)
        self.by_source = collections.defaultdict(list)   # source_key -> RunRecords (copies of a cell)
        self.runs = 0                            # cell executions seen (with or without history)
        self.graphs = {}                         # name -> Graph kept by %%graph_cell
        self.listeners = []                      # callables() told after each cell (live widgets)
        self._generation = 0                     # bumped by forget(): per-graph state from before is stale
        self._pending = None
        self._previous_tag = None
        self._session_events = []
        self._run_built = []                     # [hazards.RunBuilt] per run call of this execution
        self._outer = []                         # pending state of the cells whose code started a run
        self._exports = []                       # (kind, path, [PyFunc nodes]) since the last report
        self._restored = weakref.WeakKeyDictionary()   # session -> (execution count, {variable names})
        self._failed = set()
        self.current_count = None
        self.current_tag = None
        self.engine = None                       # "graphlab" or "tensorflow": whose graph grew last

    # --- hooks ----------------------------------------------------------------------------------------
    def pre_run_cell(self, info=None):
        try:
            count = self.shell.execution_count
            if _COUNTS_BEFORE_HOOK and getattr(info, "store_history", False):
                count -= 1          # IPython 9 increments before pre_run_cell; post_run_cell settles it anyway
            cell_id = cell_identity(info)
            self.current_count = count
            graphview.record_creation_lines()    # TF ops' lines, from the first cell after TF is imported
            self._session_events = []
            self._run_built = []
            self.runs += 1
            inside = None
            self._outer.append(self._pending)
            if self._pending is not None:      # started by the code of a running cell (run_cell from a cell)
                outer = self._pending[0]
                outer.started += 1
                inside = "%s (inner run %d)" % (outer, outer.started)
            tag = CellTag(count, cell_id, self.runs, getattr(info, "store_history", True) is not False, inside)
            self.current_tag = tag
            self._pending = (tag, [(engine, graph, len(graph._ops)) for engine, graph in _default_graphs()],
                             getattr(info, "raw_cell", ""))
            self._previous_tag = provenance.set_tag(tag)
        except Exception as e:  # a hook must never fail the user's cell
            self._report_failure("pre_run_cell", e)

    def post_run_cell(self, result=None):
        try:
            self._post_run_cell(result)
        except Exception as e:
            self._report_failure("post_run_cell", e)
        finally:
            try:    # guarded too: an exception escaping a hook shows the user "Error in callback"
                provenance.set_tag(self._previous_tag)
            except Exception as e:
                self._report_failure("post_run_cell", e)
            self._previous_tag = None
        for listener in list(self.listeners):
            try:
                listener()
            except Exception as e:
                self._report_failure("live view", e)

    def on_export(self, kind, path, graph_def):
        """Export listener: remember a graph written to a file with py_func ops in it."""
        if self.config.enabled and self.config.rules["exports"]:
            nodes = hazards.pyfunc_nodes(graph_def)
            if nodes:
                self._exports.append((kind, path, nodes))

    def on_session_run(self, session, executed_ops):
        """Session run listener: ops built inside the run call; restores, and an initializer run after one."""
        if not self.config.enabled:
            return
        if self.config.rules["run_builds"]:
            hits = hazards.built_by_run_call(session, self.current_tag)
            if hits:
                self._run_built.append(hits)        # one list per run call
        if not self.config.rules["restore_init"]:
            return
        restoring = any(op._type in _RESTORE_TYPES for op in executed_ops)
        if restoring:
            assigned = {op._inputs[0]._op._name for op in executed_ops
                        if op._type in _ASSIGN_TYPES and op._inputs}
            self._restored[session] = (self.current_tag, assigned)
            return
        earlier = self._restored.get(session)
        if earlier is None or not executed_ops:
            return
        # only a variable's own initializer overwrites a restore by accident; tf.assign is deliberate
        initializers = _initializer_ops(executed_ops)
        initialized = {op._inputs[0]._op._name for op in executed_ops if op in initializers and op._inputs}
        if initialized & earlier[1]:
            self._session_events.append((earlier[0], sorted(initialized & earlier[1])))

    # --- the work -------------------------------------------------------------------------------------
    def _post_run_cell(self, result):
        pending, self._pending = self._pending, None
        outer = self._outer.pop() if self._outer else None
        if outer is not None:   # back in the cell that started this run: it goes on from the graphs as they are now
            self._pending = (outer[0], [(engine, g, len(g._ops)) for engine, g in _default_graphs()], outer[2])
            self.current_tag = outer[0]
        if pending is None:
            return
        tag, before, source = pending
        if result is not None and getattr(result, "execution_count", None) is not None:
            tag.execution_count = result.execution_count
        count, cell_id = tag.execution_count, tag.cell_id
        self.current_count = count
        error = getattr(result, "error_in_exec", None) if result is not None else None
        started = {engine: (graph, start) for engine, graph, start in before}
        rules = self.config.rules
        sections, records = [], []
        for engine, now in _default_graphs():
            graph, start = started.get(engine, (now, 0))
            if now is not graph:      # the cell reset the default graph: everything in it is new
                graph, start = now, 0
            end = len(graph._ops)
            new_ops = graph._ops[start:end]
            if not new_ops:
                continue
            if engine == "tensorflow":
                for op in new_ops:
                    op.provenance = tag
            self.engine = engine
            record = RunRecord(count, cell_id, graph, start, end, source, tag.run, tag.numbered, tag.inside)
            records.append(record)
            if self.config.enabled:
                sections.extend(self._sections(record, new_ops))
                if engine == "graphlab" and rules["cond_leaks"]:
                    leaks = hazards.cond_leaks(new_ops)
                    if leaks:
                        sections.append(report.cond_leaks_section(leaks, self.shell))
        if self.config.enabled and error is not None and rules["errors"]:
            section = explain.explain(error, self, cell_id)
            if section is not None:
                sections.append(section)
        if self.config.enabled and self._session_events and rules["restore_init"]:
            sections.append(report.restore_init_section(self._session_events, count))
        self._session_events = []
        if self.config.enabled and self._run_built and rules["run_builds"]:
            by_line = collections.OrderedDict()     # line -> [ops built inside each run call it made]
            for hits in self._run_built:
                per_run = collections.OrderedDict()
                for hit in hits:     # per graph too: a new graph per call (a helper that builds and runs) grows none
                    per_run.setdefault((hit.filename, hit.lineno, id(hit.op.graph)), []).append(hit.op)
                for key, ops in per_run.items():
                    by_line.setdefault(key, []).append(ops)
            # a line that built ops inside sess.run(...) in several run calls on one graph: one call is no loop
            repeated = [(runs[0][0].source_line, runs) for runs in by_line.values() if len(runs) > 1]
            if repeated:
                sections.append(report.run_builds_section(repeated, self.shell))
        self._run_built = []
        if self.config.enabled and self._exports and rules["exports"]:
            sections.append(report.exports_section(self._exports))
        self._exports = []
        for record in records:
            self._remember(record)
        if sections:
            report.publish(sections)

    def _sections(self, record, new_ops):
        """The reports on the ops one cell execution added to one graph."""
        sections = []
        rules = self.config.rules
        if rules["duplicates"]:
            sections.extend(self._duplicates_section(record, new_ops))
        if rules["op_growth"]:
            growth = checks.op_growth(new_ops, self.config.op_growth)
            if rules["run_builds"]:       # a line building inside sess.run(...) has its own, sharper report
                inside_run = {(hit.filename, hit.lineno) for hits in self._run_built for hit in hits}
                growth = [g for g in growth if checks.line_key(g.source_line) not in inside_run]
            if growth:
                sections.append(report.op_growth_section(growth, self.shell))
        if rules["large_constants"]:
            large = checks.large_constants(new_ops, self.config.large_const)
            if large:
                sections.append(report.large_constants_section(large, self.shell))
        return sections

    # --- which graph "the default graph" is ---------------------------------------------------------
    def default_graph(self):
        """The default graph of the engine the notebook uses: TensorFlow's once the user's code imported it
        and built ops there last (or built nothing with graphlab yet), else graphlab's."""
        tf_graph = graphview.tf_default_graph()
        if tf_graph is None:
            return graph_mod.get_default_graph()
        if self.engine == "tensorflow":
            return tf_graph
        graph = graph_mod.get_default_graph()
        return graph if self.engine == "graphlab" or graph._ops else tf_graph

    def new_graph(self):
        """A fresh graph of that engine: (the graph to enter with ``as_default()``, its view)."""
        if isinstance(self.default_graph(), graphview.TFGraph):
            tf_graph = graphview.tf_module().Graph()
            return tf_graph, graphview.adapt(tf_graph)
        graph = graph_mod.Graph()
        return graph, graph

    def reset_default_graphs(self):
        """tf.reset_default_graph() for graphlab, and for TensorFlow when the user's code imported it."""
        graph_mod.reset_default_graph()
        tf = graphview.tf_module()
        if tf is not None:
            tf.reset_default_graph()

    def _remember(self, record):
        if record is not None:
            self.records.append(record)
            self.by_cell[record.cell_id].append(record)
            self.by_source[record.source_key].append(record)

    def _graph_state(self, graph):
        """Per-graph analysis state, stored on the graph itself: it references the graph's ops, so keeping it
        anywhere else would keep a graph alive after ``reset_default_graph``; on the graph it dies with it."""
        state = graph.__dict__.get(_STATE_ATTR)
        if state is None or state[0] != id(self) or state[1] != self._generation:
            state = (id(self), self._generation, StructuralHasher(), {})
            graph.__dict__[_STATE_ATTR] = state
        return state

    def hasher(self, graph):
        return self._graph_state(graph)[2]

    def _duplicates_section(self, record, new_ops):
        """Ops this run duplicates from earlier runs of the same cell, or of other cells with the same source
        (a copied cell: JupyterLab gives it an id of its own, but its ops duplicate the original's all the
        same). Records only ever append with growing run numbers, so the merged list grows at its end."""
        graph = record.graph
        key = (record.cell_id, record.source_key)
        runs = {id(r): r for r in self.by_cell.get(record.cell_id, []) + self.by_source.get(key[1], [])}
        earlier = sorted((r for r in runs.values() if r.graph_ref() is graph), key=lambda r: r.run)
        if not earlier:
            return []
        per_graph = self._graph_state(graph)[3]     # (cell id, source) -> (DuplicateIndex, runs indexed)
        index, done = per_graph.get(key, (None, 0))
        if index is None or done > len(earlier):
            index, done = checks.DuplicateIndex(self.hasher(graph)), 0
        for r in earlier[done:]:      # index each earlier run once, lazily, at the first re-run
            index.add(r.ops())
        per_graph[key] = (index, len(earlier))
        dups = index.find(new_ops)
        if not dups:
            return []
        return [report.duplicates_section(dups, new_ops, earlier, record, graph)]

    # --- history for magics ---------------------------------------------------------------------------
    def record_for(self, execution_count):
        for r in reversed(self.records):
            if r.execution_count == execution_count:
                return r
        return None

    def runs_of(self, graph):
        return [r for r in self.records if r.graph_ref() is graph]

    def forget(self):
        """Drop the history (``%graph_reset``)."""
        self.records.clear()
        self.by_cell.clear()
        self.by_source.clear()
        self._generation += 1

    def close(self):
        self.listeners.clear()
        self.forget()

    def _report_failure(self, where, error):
        """Tell the user once per kind that a hook failed; never raise (not even if printing fails)."""
        try:
            key = (where, type(error).__name__)
            if key in self._failed:
                return
            self._failed.add(key)
            try:
                detail = str(error)
            except Exception:
                detail = "(its message could not be shown)"
            print("graphlab_ipython: %s failed (%s: %s); the cell itself is unaffected, further failures of "
                  "this kind are not shown." % (where, type(error).__name__, detail), file=sys.stderr)
        except Exception:
            pass
