"""Graph: the append-only container of operations, with TF1's naming rules, name scopes, control
dependencies and collections, and the per-thread stack that decides which graph is the default."""
import contextlib
import re
import sys
import threading

from graphlab.framework import default_stacks, device_spec, provenance, source_info
from graphlab.framework.default_stacks import DefaultStack, _DefaultScope
from graphlab.framework.operation import Operation


_REF_ARG_OPS = frozenset(["Assign", "AssignAdd", "AssignSub", "CountUpTo", "IsVariableInitialized",
                          # the reference-form accumulators' ops (graphlab/ops/accumulator_ops.py)
                          "AccumulatorApplyGradient", "AccumulatorTakeGradient", "AccumulatorNumAccumulated",
                          "AccumulatorSetGlobalStep", "SparseAccumulatorApplyGradient",
                          "SparseAccumulatorTakeGradient"])


class _TakesRefs(dict):
    """op type -> whether its op def declares reference inputs (Assign, Scatter*, Apply*, Ref* ops), worked
    out on the first lookup of each type (``_TAKES_REFS[op_type]``: one dict lookup per op built)."""

    def __missing__(self, op_type):
        takes = self[op_type] = op_type in _REF_ARG_OPS or op_type.startswith(
            ("Apply", "SparseApply", "Scatter", "Ref"))
        return takes


_TAKES_REFS = _TakesRefs()


class GraphKeys:
    """Standard collection names, as TensorFlow spells them (they appear in saved meta graphs)."""
    GLOBAL_VARIABLES = "variables"
    VARIABLES = GLOBAL_VARIABLES
    LOCAL_VARIABLES = "local_variables"
    METRIC_VARIABLES = "metric_variables"
    MODEL_VARIABLES = "model_variables"
    TRAINABLE_VARIABLES = "trainable_variables"
    SUMMARIES = "summaries"
    QUEUE_RUNNERS = "queue_runners"
    TABLE_INITIALIZERS = "table_initializer"
    ASSET_FILEPATHS = "asset_filepaths"
    MOVING_AVERAGE_VARIABLES = "moving_average_variables"
    REGULARIZATION_LOSSES = "regularization_losses"
    CONCATENATED_VARIABLES = "concatenated_variables"
    SAVERS = "savers"
    WEIGHTS = "weights"
    BIASES = "biases"
    ACTIVATIONS = "activations"
    UPDATE_OPS = "update_ops"
    LOSSES = "losses"
    SAVEABLE_OBJECTS = "saveable_objects"
    RESOURCES = "resources"
    LOCAL_RESOURCES = "local_resources"
    TRAINABLE_RESOURCE_VARIABLES = "trainable_resource_variables"
    INIT_OP = "init_op"
    LOCAL_INIT_OP = "local_init_op"
    READY_OP = "ready_op"
    READY_FOR_LOCAL_INIT_OP = "ready_for_local_init_op"
    SUMMARY_OP = "summary_op"
    GLOBAL_STEP = "global_step"
    EVAL_STEP = "eval_step"
    TRAIN_OP = "train_op"
    COND_CONTEXT = "cond_context"
    WHILE_CONTEXT = "while_context"


_VALID_SCOPE = re.compile(r"^[A-Za-z0-9_.\\/>-]*$")
_VALID_FIRST = re.compile(r"^[A-Za-z0-9.]")


class _ControlDependencies:
    """One ``with g.control_dependencies(...)`` block: its control ops and the ops created inside it."""

    __slots__ = ("control_inputs", "seen")

    def __init__(self, control_inputs):
        self.control_inputs = control_inputs
        self.seen = set()


class _ControlDependenciesBlock:
    """``with graph.control_dependencies(control_inputs):`` (a small class rather than a generator: gradient
    rules and loops open one per op they build). Everything happens on entering, as in TF."""

    __slots__ = ("_graph", "_control_inputs", "_saved")

    def __init__(self, graph, control_inputs):
        self._graph = graph
        self._control_inputs = control_inputs

    def __enter__(self):
        graph = self._graph
        if self._control_inputs is None:   # clear outer blocks and the control-flow context
            self._saved = (graph._control_stack, graph._control_flow_context)
            graph._control_stack, graph._control_flow_context = [], None
        else:
            self._saved = graph._open_control_dependencies(self._control_inputs)

    def __exit__(self, exc_type, exc_value, tb):
        graph = self._graph
        if self._control_inputs is None:
            graph._control_stack, graph._control_flow_context = self._saved
        else:
            graph._control_stack.remove(self._saved)


class _ColocationBlock:
    """``with graph.colocate_with(op, ignore_existing):`` (a small class rather than a generator: gradients
    and loops open one per op they colocate). Everything happens on entering, as in TF."""

    __slots__ = ("_graph", "_op", "_ignore_existing", "_saved")

    def __init__(self, graph, op, ignore_existing):
        self._graph = graph
        self._op = op
        self._ignore_existing = ignore_existing

    def __enter__(self):
        graph, op = self._graph, self._op
        if op is None and not self._ignore_existing:
            raise ValueError("Trying to reset colocation (op is None) but ignore_existing is not True")
        if op is not None:
            op = getattr(op, "_variable_op", None) or getattr(op, "op", op)
        self._saved = graph._device_stack, graph._colocation_stack
        graph._device_stack = []
        if self._ignore_existing:
            graph._colocation_stack = []
        if op is not None:
            graph._colocation_stack = graph._colocation_stack + [op]

    def __exit__(self, exc_type, exc_value, tb):
        self._graph._device_stack, self._graph._colocation_stack = self._saved


class _NameScope:
    """``with graph.name_scope(name) as scope``: the scope is chosen (made unique) on entering and the outer
    one restored on leaving. A small class rather than a generator: gradients and composite ops open one
    per op they build."""

    __slots__ = ("_graph", "_name", "_old")

    def __init__(self, graph, name):
        self._graph = graph
        self._name = name

    def __enter__(self):
        graph, name = self._graph, self._name
        old = self._old = graph._name_stack
        if not name:
            new = ""
        else:
            if not _VALID_FIRST.match(name) and old == "" or not _VALID_SCOPE.match(name):
                raise ValueError("'%s' is not a valid scope name" % name)
            new = name[:-1] if name.endswith("/") else graph.unique_name(name)
        graph._name_stack = new
        return new + "/" if new else ""

    def __exit__(self, exc_type, exc_value, tb):
        self._graph._name_stack = self._old


class Graph:
    """A TensorFlow graph: operations plus names, scopes, collections. Ops are only ever added."""

    def __init__(self):
        self._ops = []
        self._by_name = {}
        self._names_in_use = {}
        self._name_stack = ""
        self._control_stack = []
        self._collections = {}
        self._finalized = False
        self._seed = None
        self._lock = threading.RLock()
        self._op_listeners = []   # callables(op) told about each new op (the extension's history)
        self._control_flow_context = None   # the tf.cond branch or loop body being built (ops/cond.py ...)
        self._has_while_loops = False        # set by the first tf.while_loop: ops' inputs get checked then
        self._unfetchable = set()    # ops inside loops and cond branches, as TF marks them
        self._unfeedable = set()
        self._gradient_override_map = {}   # op type -> gradient name, inside gradient_override_map blocks
        self._device_stack = []       # tf.device blocks (framework/device_spec.py)
        self._colocation_stack = []   # ops named by tf.colocate_with blocks
        self._attr_scope = {}         # attrs every new op gets (a variable's _class while it is made)

    # --- default graph ------------------------------------------------------------------------------
    def as_default(self):
        """Make this graph the default for the current thread inside the ``with`` block."""
        return _default_graph_stack.controller(self)

    # --- naming -------------------------------------------------------------------------------------
    def unique_name(self, name, mark_as_used=True):
        """TF1's rule: prefix the current scope; if taken (case-insensitively) append _1, _2, ... skipping
        any composed name that is itself taken, and mark the composed name as used too."""
        if self._name_stack:
            name = self._name_stack + "/" + name
        key = name.lower()
        in_use = self._names_in_use
        count = in_use.get(key, 0)
        if mark_as_used:
            in_use[key] = count + 1
        if count > 0:    # ``key`` itself is taken: the first free key_<count>, key_<count + 1> ...
            suffix = "_%d" % count
            while key + suffix in in_use:
                count += 1
                suffix = "_%d" % count
            if mark_as_used:
                in_use[key + suffix] = 1
            name += suffix
        return name

    def get_name_scope(self):
        return self._name_stack

    def name_scope(self, name):
        """Open a name scope. "a/" re-enters an existing scope exactly; "" or None returns to the top."""
        return _NameScope(self, name)

    # --- control dependencies -----------------------------------------------------------------------
    def control_dependencies(self, control_inputs):
        """Ops created inside the block also wait for ``control_inputs``; ``None`` clears outer blocks, and
        (as in TF) the control-flow context too: ops made there belong to no cond branch or loop body."""
        return _ControlDependenciesBlock(self, control_inputs)

    def _open_control_dependencies(self, control_inputs):
        """Entering a ``control_dependencies`` block with ``control_inputs`` (not None): its block record."""
        ops = []
        current = [c for outer in self._control_stack for c in outer.control_inputs]
        for c in control_inputs:
            element = self.as_graph_element(c.op if hasattr(c, "op") and not isinstance(c, Operation) else c)
            op = element if isinstance(element, Operation) else element.op
            if op not in ops:
                ops.append(op)
                if op not in current:   # TF marks each op a block newly waits for (its NodeDef shows it)
                    op._own_attrs()["_has_manual_control_dependencies"] = True
        block = _ControlDependencies(ops)
        self._control_stack.append(block)
        return block

    def _control_inputs_for(self, input_ops):
        result = []
        for block in self._control_stack:
            if any(op in block.seen for op in input_ops):
                continue  # already ordered after the block's controls through that input
            for c in block.control_inputs:
                if c not in input_ops and c not in result:
                    result.append(c)
        return result

    # --- adding ops ---------------------------------------------------------------------------------
    _control_dependencies_for_inputs = _control_inputs_for

    def _record_op_seen_by_control_dependencies(self, op):
        for block in self._control_stack:
            block.seen.add(op)

    # --- control-flow contexts (graphlab/ops/cond.py, while_loop.py) ---------------------------------
    def _get_control_flow_context(self):
        return self._control_flow_context

    def _set_control_flow_context(self, ctxt):
        self._control_flow_context = ctxt

    def prevent_fetching(self, op):
        self._unfetchable.add(op)

    def prevent_feeding(self, tensor):
        self._unfeedable.add(tensor)

    def _check_not_finalized(self):
        if self._finalized:
            raise RuntimeError("Graph is finalized and cannot be modified.")

    def _add_op(self, op_type, name, inputs, attrs, extra_control_inputs=()):
        """Create and register an Operation named exactly ``name`` (already made unique)."""
        if self._finalized:
            self._check_not_finalized()
        # the user's line: the one pinned by the operator call building the op, else the first frame up
        # the stack (from the code that called ``build_op``) that is not graphlab's own
        line = source_info._pinned.line
        if line is None:
            line = source_info.caller(sys._getframe(2))
        # TF's op_def_library: an op whose op def takes a variable by reference goes with that variable
        refs = [t._op for t in inputs if t._dtype.is_ref_dtype] if _TAKES_REFS[op_type] else ()
        if not (self._control_stack or self._gradient_override_map or extra_control_inputs or self._attr_scope
                or self._device_stack or self._colocation_stack or refs):
            return Operation(self, op_type, name, inputs, attrs, (), line, provenance.current)
        # an op without control inputs shares one empty tuple: one object less for the garbage collector
        # to track per op (``Operation._add_control_input`` makes a list when one arrives later)
        control = self._control_inputs_for([t._op for t in inputs]) if self._control_stack else ()
        if self._gradient_override_map and op_type in self._gradient_override_map:
            attrs = dict(attrs)      # it may be a mapping shared with other ops (registry.shared_attrs)
            attrs["_gradient_op_type"] = self._gradient_override_map[op_type]
        if extra_control_inputs:
            control = list(control)
            for c in extra_control_inputs:
                if c not in control:
                    control.append(c)
        if self._attr_scope:
            attrs = dict(attrs, **self._attr_scope)
        op = Operation(self, op_type, name, inputs, attrs, control, line, provenance.current)
        if self._device_stack or self._colocation_stack or refs:
            self._place(op, refs)
        return op

    def _place(self, op, refs=()):
        """Device and colocation of a new op, as TF's _create_op_helper sets them."""
        colocation = self._colocation_stack
        if refs:
            colocation = colocation + [r for r in refs if r not in colocation]
        if self._device_stack and not refs:
            device_spec.apply_device_functions(self._device_stack, op)
        if colocation:
            groups, device_set = [], False
            for target in reversed(colocation):
                groups.extend(target.colocation_groups())
                if target.device and not device_set:
                    op._device = target.device
                    device_set = True
            op._own_attrs()["_class"] = sorted(set(groups))

    def _register_op(self, op):
        """Second half of adding: after shapes are inferred, make the op visible in the graph."""
        op._id = len(self._ops) + 1
        self._ops.append(op)
        self._by_name[op._name] = op
        for t in op._inputs:
            if t._consumers:
                t._consumers.append(op)
            else:
                t._consumers = [op]
        for c in op._control_inputs:
            if c._control_outputs:
                c._control_outputs.append(op)
            else:
                c._control_outputs = [op]
        if self._control_stack:
            for block in self._control_stack:
                block.seen.add(op)
        if self._op_listeners:
            for listener in self._op_listeners:
                listener(op)

    def create_op(self, op_type, inputs, dtypes=None, input_types=None, name=None, attrs=None,
                  op_def=None, compute_shapes=True, compute_device=True):
        """TF's low-level entry point; prefer the public op functions (``tf.add`` ...)."""
        from graphlab.framework import registry
        with self.as_default():
            return registry.build_op(op_type, list(inputs), attrs=attrs, name=name)

    # --- lookup -------------------------------------------------------------------------------------
    def get_operations(self):
        return list(self._ops)

    def get_operation_by_name(self, name):
        if not isinstance(name, str):
            raise TypeError("Operation names are strings (or similar), not %s." % type(name).__name__)
        element = self.as_graph_element(name, allow_tensor=False)
        return element

    def get_tensor_by_name(self, name):
        if not isinstance(name, str):
            raise TypeError("Tensor names are strings (or similar), not %s." % type(name).__name__)
        return self.as_graph_element(name, allow_operation=False)

    def _get_operation_or_none(self, name):
        return self._by_name.get(name)

    def as_graph_element(self, obj, allow_tensor=True, allow_operation=True):
        """Resolve a name ("op", "op:0"), Tensor, Operation or Variable to this graph's element."""
        if hasattr(obj, "_as_graph_element") and not isinstance(obj, str):
            element = obj._as_graph_element()
            if element.graph is not self:
                raise ValueError("%s is not an element of this graph." % (obj,))
            if isinstance(element, Operation) and not allow_operation:
                raise TypeError("Can not convert a Operation into a Tensor.")
            if not isinstance(element, Operation) and not allow_tensor:
                raise TypeError("Can not convert a Tensor into a Operation.")
            return element
        if not isinstance(obj, str):
            raise TypeError("Can not convert a %s into a %s." % (
                type(obj).__name__, "Tensor or Operation" if allow_tensor and allow_operation
                else ("Tensor" if allow_tensor else "Operation")))
        if ":" in obj and allow_tensor:
            op_name, _, index = obj.partition(":")
            try:
                index = int(index)
            except ValueError:
                raise ValueError("The name %r looks a like a Tensor name, but is not a valid one. Tensor "
                                 "names must be of the form \"<op_name>:<output_index>\"." % obj) from None
            op = self._by_name.get(op_name)
            if op is None:
                raise KeyError("The name %r refers to a Tensor which does not exist. The operation, %r, "
                               "does not exist in the graph." % (obj, op_name))
            if index >= len(op._outputs):
                raise KeyError("The name %r refers to a Tensor which does not exist. The operation, %r, "
                               "exists but only has %d outputs." % (obj, op_name, len(op._outputs)))
            return op._outputs[index]
        if ":" in obj:
            raise ValueError("Name %r appears to refer to a Tensor, not a Operation." % obj)
        op = self._by_name.get(obj)
        if op is None:
            if allow_operation:
                raise KeyError("The name %r refers to an Operation not in the graph." % obj)
            raise ValueError("The name %r looks like an (invalid) Operation name, not a Tensor. Tensor "
                             "names must be of the form \"<op_name>:<output_index>\"." % obj)
        if not allow_operation:
            raise ValueError("The name %r refers to an Operation, not a Tensor. Tensor names must be of "
                             "the form \"<op_name>:<output_index>\"." % obj)
        return op

    # --- collections --------------------------------------------------------------------------------
    def add_to_collection(self, name, value):
        self._check_not_finalized()
        self._collections.setdefault(name, []).append(value)

    def add_to_collections(self, names, value):
        for name in ([names] if isinstance(names, str) else set(names)):
            self.add_to_collection(name, value)

    def get_collection_ref(self, name):
        return self._collections.setdefault(name, [])

    def get_collection(self, name, scope=None):
        items = self._collections.get(name, [])
        if scope is None:
            return list(items)
        pattern = re.compile(scope)
        return [item for item in items if getattr(item, "name", None) is not None and pattern.match(item.name)]

    def get_all_collection_keys(self):
        return [key for key, items in self._collections.items() if isinstance(key, str)]

    def clear_collection(self, name):
        self._collections.pop(name, None)

    # --- state --------------------------------------------------------------------------------------
    def finalize(self):
        """Make the graph read-only: adding an op afterwards raises RuntimeError (catches leaks in loops)."""
        self._finalized = True

    def _unsafe_unfinalize(self):
        self._finalized = False

    @property
    def finalized(self):
        return self._finalized

    @property
    def version(self):
        """Grows by one with every op added; a cheap way to tell that the graph changed."""
        return len(self._ops)

    @property
    def seed(self):
        return self._seed

    @seed.setter
    def seed(self, value):
        self._seed = value

    @property
    def building_function(self):
        return False

    def is_fetchable(self, tensor_or_op):
        """False for ops inside a while loop or cond branch (TF marks them: their value exists only per
        iteration or on one branch)."""
        op = getattr(tensor_or_op, "op", tensor_or_op)
        return op not in self._unfetchable

    def is_feedable(self, tensor):
        return tensor not in self._unfeedable

    @contextlib.contextmanager
    def device(self, device_name_or_function):
        """Ops built inside ask for this device ("/cpu:0", "/job:ps/task:1", a DeviceSpec, a function of
        the op, or None to forget outer blocks); an unknown attribute is TF's ValueError at once."""
        from graphlab.framework.device_spec import _DeviceEntry
        self._device_stack.append(_DeviceEntry(device_name_or_function))
        try:
            yield
        finally:
            self._device_stack.pop()

    @contextlib.contextmanager
    def _attr_scope_block(self, attrs):
        """TF's Graph._attr_scope: ops made inside get ``attrs``."""
        old = self._attr_scope
        self._attr_scope = dict(old, **attrs)
        try:
            yield
        finally:
            self._attr_scope = old

    def colocate_with(self, op, ignore_existing=False):
        """Ops built inside share ``op``'s device: their ``_class`` attr lists ``loc:@<op>``; outer
        ``tf.device`` blocks do not apply inside (as in TF)."""
        return _ColocationBlock(self, op, ignore_existing)

    @contextlib.contextmanager
    def gradient_override_map(self, op_type_map):
        """Inside the block, each new op of a type in ``op_type_map`` records the gradient to use instead of
        its own as its ``_gradient_op_type`` attr (a name given to ``tf.RegisterGradient``, or another op
        type). What counts is the map when the op is created, not when tf.gradients runs."""
        if not isinstance(op_type_map, dict) or not all(
                isinstance(k, str) and isinstance(v, str) for k, v in op_type_map.items()):
            raise TypeError("op_type_map must be a dictionary mapping strings to strings")
        old = self._gradient_override_map
        self._gradient_override_map = dict(old, **op_type_map)
        try:
            yield
        finally:
            self._gradient_override_map = old

    # --- serialisation and display (GraphDefs in graph_io; drawings by the hook graphlab.viz fills) ----
    def as_graph_def(self, from_version=None, add_shapes=False):
        from graphlab.framework import graph_io
        return graph_io.graph_to_graph_def(self, add_shapes=add_shapes)

    def _repr_mimebundle_(self, include=None, exclude=None):
        if _display_hook is None:      # graphlab.viz not loaded: IPython falls back to repr()
            return None
        return _display_hook(self)._repr_mimebundle_(include, exclude)

    def __repr__(self):
        return "<graphlab.Graph with %d ops at 0x%x>" % (len(self._ops), id(self))


_display_hook = None


def set_display_hook(draw):
    """Install ``draw(graph) -> object with _repr_mimebundle_``, which notebooks use to show a Graph.

    The drawing code sits above the engine (graphlab.viz), so it registers itself here rather than the
    Graph importing it."""
    global _display_hook
    _display_hook = draw


_default_graph_stack = DefaultStack()   # per thread: graphs entered with ``with g.as_default():``


class _ThreadGraph(threading.local):
    """Below each thread's stack, that thread's own global default graph, as in TF (whose default-graph stack
    is thread-local): a new thread starts with an empty graph of its own, and ops built there never land in
    another thread's graph. A server thread that runs a model built elsewhere enters its graph with
    ``with graph.as_default():``."""

    def __init__(self):
        self.graph = None


_thread_graph = _ThreadGraph()


def get_default_graph():
    """``tf.get_default_graph()``: the innermost graph entered with ``as_default()`` in this thread, else this
    thread's global default graph (created empty on first use)."""
    stack = _default_graph_stack.stack
    if stack:
        return stack[-1]
    graph = _thread_graph.graph
    if graph is None:
        graph = _thread_graph.graph = Graph()
    return graph


def reset_default_graph():
    """Replace this thread's global default graph with an empty one (not allowed inside ``as_default``
    blocks); this thread's default sessions are forgotten too, as in TF."""
    if _default_graph_stack.stack:
        raise AssertionError("Do not use tf.reset_default_graph() to clear nested graphs. If you need a "
                             "cleared graph, exit the nesting and create a new graph.")
    _thread_graph.graph = Graph()
    default_stacks.clear_default_session_stack()


def name_scope(name, default_name=None, values=None):
    """``tf.name_scope``: open ``name`` (or ``default_name`` if name is None) in the graph of ``values``."""
    graph = graph_of(values) if values else get_default_graph()
    scope = name if name is not None else default_name   # both None: back to the top level, as TF
    return _ScopeInGraph(graph, scope)


def strip_name_scope(name, scope):
    """TF's ``ops.strip_name_scope``: ``name`` without a leading ``scope/`` (kept after a control input's
    "^"), as exported meta graphs, GraphDefs and their protos store names relative to ``export_scope``."""
    if scope:
        caret = "^" if name.startswith("^") else ""
        if name.startswith(scope + "/", len(caret)):
            return caret + name[len(caret) + len(scope) + 1:]
    return name


def prepend_name_scope(name, scope):
    """TF's ``ops.prepend_name_scope`` for plain names: ``scope/name`` (``name`` when there is no scope), where
    an imported meta graph's names land below ``import_scope``."""
    return "%s/%s" % (scope, name) if scope else name


class _ScopeInGraph(_NameScope):
    """``with tf.name_scope(...)``: the values' graph made the default, then the name scope opened in it."""

    __slots__ = ()

    def __enter__(self):
        _default_graph_stack.stack.append(self._graph)
        try:
            return _NameScope.__enter__(self)
        except BaseException:
            _DefaultScope(_default_graph_stack, self._graph).__exit__(None, None, None)
            raise

    def __exit__(self, exc_type, exc_value, tb):
        _NameScope.__exit__(self, exc_type, exc_value, tb)
        _DefaultScope(_default_graph_stack, self._graph).__exit__(exc_type, exc_value, tb)


FUNCTION_DEPTH = [0]      # > 0 while a tf.data function is traced (graphlab/data/functions.py)


def graph_of(values):
    """The one graph all tensors/ops among ``values`` belong to; the default graph if there are none.

    Mixing graphs is TF's classic error: ValueError naming both tensors. While a tf.data function is traced,
    its graph (which captures outer tensors), as TF's ``building_function`` graphs."""
    if FUNCTION_DEPTH[0]:
        default = get_default_graph()
        if getattr(default, "_capture", None) is not None:
            return default
    found = None
    first = None
    for v in values:
        g = getattr(v, "graph", None)
        if g is None or not isinstance(g, Graph):
            continue
        if found is None:
            found, first = g, v
        elif g is not found:
            raise ValueError("%s must be from the same graph as %s." % (v, first))
    if found is None:
        return get_default_graph()
    return found
