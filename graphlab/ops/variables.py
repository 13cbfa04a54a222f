"""``tf.Variable`` (TF1's reference variable): a VariableV2 op, an Assign op that initialises it, and an
Identity ``read`` snapshot that other ops consume. The value itself lives in each Session."""
import os

import numpy as np

from graphlab.formats.protos import variable_pb2
from graphlab.framework import default_stacks, graph as graph_mod, graph_io, meta_graph, tensor_shape
from graphlab.framework.graph import GraphKeys
from graphlab.framework.tensor import Tensor
from graphlab.ops import array_ops, state_ops
from graphlab.framework.registry import build_op, convert_to_tensor, get_opdef


class Variable:
    """``<tf.Variable 'v:0' shape=() dtype=float32_ref>``. Creating one adds v/initial_value, v, v/Assign
    and v/read to the graph, and the variable to the global (and trainable) collections.

    ``Variable(..., use_resource=True)`` (or one made under ``variable_scope(..., use_resource=True)`` or after
    ``tf.enable_resource_variables()``) is a ResourceVariable instead (graphlab/ops/resource_variable_ops.py),
    as TF's variable creator decides."""

    _TF_CLASS = "tensorflow.python.ops.ref_variable.RefVariable"     # the class TF's messages name

    def __new__(cls, *args, **kwargs):
        if cls is Variable and _wants_resource(args, kwargs):
            from graphlab.ops import resource_variable_ops
            return object.__new__(resource_variable_ops.ResourceVariable)
        return object.__new__(cls)

    def __init__(self, initial_value=None, trainable=True, collections=None, validate_shape=True,
                 caching_device=None, name=None, variable_def=None, dtype=None, expected_shape=None,
                 import_scope=None, constraint=None, use_resource=None, synchronization=None,
                 aggregation=None, shape=None):
        if variable_def is not None:
            self._init_from_graph(variable_def, import_scope)
            return
        if initial_value is None:
            raise ValueError("initial_value must be specified.")
        graph = graph_mod.get_default_graph()
        init_from_fn = callable(initial_value)
        collections = self._set_arguments(collections, trainable, constraint)
        with graph.control_dependencies(None), graph.name_scope(name or "Variable") as scope, \
                graph._attr_scope_block({"_class": ["loc:@" + scope[:-1]]} if init_from_fn else {}):
            # as TF's RefVariable: every op made here is colocated with the variable when it comes from a callable
            initial_value = _initial_value_tensor(graph, initial_value, dtype, under_initializer=init_from_fn)
            if shape is not None:
                var_shape = tensor_shape.as_shape(shape)
            elif validate_shape:
                var_shape = initial_value.shape
                if not var_shape.is_fully_defined():
                    raise ValueError("initial_value must have a shape specified: %s" % initial_value)
            else:
                var_shape = tensor_shape.UNKNOWN
            self._variable = state_ops.variable_op_v2(var_shape, initial_value.dtype.base_dtype, name=scope)
            self._initial_value = initial_value
            self._initializer_op = state_ops.assign(self._variable, _guard_reads(scope, initial_value),
                                                    validate_shape=validate_shape).op
            with graph.colocate_with(self._variable.op):
                self._snapshot = array_ops.identity(self._variable, name="read")
        graph.add_to_collections(collections, self)
        self._save_slice_info = None

    def _set_arguments(self, collections, trainable, constraint):
        """Keep ``trainable`` and ``constraint``; the collections a new variable joins: GLOBAL_VARIABLES
        unless given, and TRAINABLE_VARIABLES too when trainable (both kinds of variable, as TF)."""
        self._trainable = trainable
        self._constraint = constraint
        collections = list([GraphKeys.GLOBAL_VARIABLES] if collections is None else collections)
        if trainable and GraphKeys.TRAINABLE_VARIABLES not in collections:
            collections.append(GraphKeys.TRAINABLE_VARIABLES)
        return collections

    def _restore_common(self, variable_def, import_scope):
        """What both kinds of variable take from a VariableDef over existing ops (initializer, initial value,
        trainable); returns the graph element a name of ``variable_def`` stands for under ``import_scope``."""
        graph = graph_mod.get_default_graph()

        def element(name):
            return graph.as_graph_element(graph_mod.prepend_name_scope(name, import_scope))
        self._initializer_op = element(variable_def.initializer_name)
        self._initial_value = element(variable_def.initial_value_name) if variable_def.initial_value_name else None
        self._trainable = variable_def.trainable if variable_def.HasField("trainable") else True
        self._constraint = None
        self._save_slice_info = None
        return element

    def _init_from_graph(self, variable_def, import_scope):
        """Rebuild a Variable object around ops that already exist (e.g. after import_meta_graph)."""
        element = self._restore_common(variable_def, import_scope)
        self._variable = element(variable_def.variable_name)
        self._snapshot = element(variable_def.snapshot_name)

    # --- identity -----------------------------------------------------------------------------------
    @property
    def name(self):
        return self._variable.name

    @property
    def op(self):
        return self._variable.op

    @property
    def graph(self):
        return self._variable.graph

    @property
    def dtype(self):
        return self._variable.dtype

    @property
    def shape(self):
        return self._variable.shape

    def get_shape(self):
        return self._variable.shape

    @property
    def device(self):
        return self._variable.op.device

    @property
    def trainable(self):
        return self._trainable

    @property
    def initializer(self):
        """The Assign op that gives the variable its initial value when run."""
        return self._initializer_op

    @property
    def initial_value(self):
        return self._initial_value

    @property
    def constraint(self):
        return self._constraint

    def value(self):
        """The ``read`` snapshot tensor (what ops use when given this variable)."""
        return self._snapshot

    def _ref(self):
        return self._variable

    def read_value(self):
        """A new Identity op reading the current value (named "read" in the current scope)."""
        return array_ops.identity(self._variable, name="read")

    def initialized_value(self):
        from graphlab.ops import control_flow_ops
        return control_flow_ops.cond(
            state_ops.is_variable_initialized(self._variable), self.read_value, lambda: self._initial_value)

    # --- changing the value ---------------------------------------------------------------------------
    def assign(self, value, use_locking=False, name=None, read_value=True):
        result = state_ops.assign(self._variable, value, use_locking=use_locking, name=name)
        return result if read_value else result.op

    def assign_add(self, delta, use_locking=False, name=None, read_value=True):
        result = state_ops.assign_add(self._variable, delta, use_locking=use_locking, name=name)
        return result if read_value else result.op

    def assign_sub(self, delta, use_locking=False, name=None, read_value=True):
        result = state_ops.assign_sub(self._variable, delta, use_locking=use_locking, name=name)
        return result if read_value else result.op

    def load(self, value, session=None):
        """Write ``value`` into the variable in ``session`` by running its initializer with a feed."""
        session = default_stacks.session_for_eval(session, self.graph, "eval()")
        session.run(self._initializer_op, {self._initializer_op.inputs[1]: value})

    def eval(self, session=None):
        return self._variable.eval(session=session)

    # --- graph integration ---------------------------------------------------------------------------
    def _as_graph_element(self):
        return self._variable

    def _to_tensor(self, dtype=None, name=None, as_ref=False):
        return self._variable if as_ref else self._snapshot

    def to_proto(self, export_scope=None):
        return graph_io.variable_to_proto(self, export_scope)

    @staticmethod
    def from_proto(variable_def, import_scope=None):
        return Variable(variable_def=variable_def, import_scope=import_scope)

    def __repr__(self):    # (a resource variable's too)
        return "<tf.Variable '%s' shape=%s dtype=%s>" % (self.name, self.shape, self.dtype.name)

    __hash__ = object.__hash__

    def __eq__(self, other):
        return self is other

    def __ne__(self, other):
        return self is not other

    def __bool__(self):
        return True

    def __iter__(self):
        raise TypeError("'Variable' object is not iterable.")


def _wants_resource(args, kwargs):
    """TF's default_variable_creator: use_resource if given, else the variable scope's, else the global
    default (enable_resource_variables); a VariableDef says itself whether it is a resource variable."""
    variable_def = kwargs.get("variable_def", args[6] if len(args) > 6 else None)
    if variable_def is not None:
        return bool(getattr(variable_def, "is_resource", False))
    use_resource = kwargs.get("use_resource", args[11] if len(args) > 11 else None)
    if use_resource is None:
        from graphlab.ops import variable_scope
        use_resource = variable_scope.get_variable_scope().use_resource
        if use_resource is None:
            use_resource = variable_scope.resource_variables_enabled()
    return bool(use_resource)


def _initial_value_tensor(graph, initial_value, dtype, under_initializer):
    """The initial value as a tensor named ``initial_value``. A callable's value is always built under
    ``Initializer`` with no device; a given value too when ``under_initializer`` (a resource variable)."""
    if not (under_initializer or callable(initial_value)):
        return convert_to_tensor(initial_value, name="initial_value", dtype=dtype)
    with graph.name_scope("Initializer"), graph.device(None):
        if callable(initial_value):
            initial_value = initial_value()
        return convert_to_tensor(initial_value, name="initial_value", dtype=dtype)


def _delegate(name):
    def method(self, *args):       # value(): the ``read`` snapshot, or a new read of a resource variable
        return getattr(self.value(), name)(*args)
    method.__name__ = name
    return method


for _name in ("__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__", "__truediv__",
              "__rtruediv__", "__floordiv__", "__rfloordiv__", "__mod__", "__rmod__", "__pow__", "__rpow__",
              "__matmul__", "__rmatmul__", "__neg__", "__abs__", "__invert__", "__and__", "__rand__", "__or__",
              "__ror__", "__xor__", "__rxor__", "__lt__", "__le__", "__gt__", "__ge__", "__getitem__"):
    setattr(Variable, _name, _delegate(_name))


def _scatter_method(kind):
    """``Variable.scatter_<kind>(sparse_delta)``: one Scatter op applying an IndexedSlices to its rows (what
    GradientDescent's sparse step calls)."""
    def method(self, sparse_delta, use_locking=False, name=None):
        from graphlab.framework.indexed_slices import IndexedSlices
        from graphlab.ops import indexed_ops
        if not isinstance(sparse_delta, IndexedSlices):
            raise TypeError("sparse_delta is not IndexedSlices: %s" % (sparse_delta,))
        return getattr(indexed_ops, "scatter_" + kind)(self._variable, sparse_delta.indices, sparse_delta.values,
                                                       use_locking=use_locking, name=name)
    method.__name__ = "scatter_" + kind
    return method


for _kind in ("sub", "add", "update", "mul", "div", "max", "min"):
    setattr(Variable, "scatter_" + _kind, _scatter_method(_kind))


# --- initial values that read other variables -------------------------------------------------------

_KEEP_AS_IS = ("IsVariableInitialized", "VarIsInitializedOp", "ReadVariableOp", "If")
_VARIABLE_OPS = ("Variable", "VariableV2", "VarHandleOp")


def _guard_reads(scope, initial_value):
    """The tensor the initializer assigns: ``initial_value`` with every read of another variable replaced
    by that variable's ``initialized_value()``, as TF1 does, so that running all initializers at once
    (``global_variables_initializer``) cannot fail on an order in which a dependency is still empty.

    Like TF, ops on the way from such a read to the value are copied (``w/read_v``, ``mul_v``: the
    original name + ``_`` + this variable's scope, taken as is) and the originals stay untouched; a
    RefSwitch copy becomes a Switch since its input is no longer a reference. Variables found in neither
    GLOBAL_VARIABLES nor LOCAL_VARIABLES are left as they are. Graphs only grow by appending, so the
    value's inputs cannot form a cycle (TF checks for one) and one walk in creation order suffices."""
    if not isinstance(initial_value, Tensor):
        return initial_value
    graph = initial_value.graph
    done = {}            # op -> the op to use in its place (itself when nothing upstream changed)
    stack = [initial_value._op]
    while stack:
        op = stack[-1]
        if op in done:
            stack.pop()
            continue
        if op._type in _KEEP_AS_IS:
            done[op] = op
            stack.pop()
            continue
        if op._type in _VARIABLE_OPS:
            stack.pop()
            guarded = _initialized_value_of(graph, op)
            done[op] = op if guarded is None else guarded._op
            continue
        pending = [t._op for t in op._inputs if t._op not in done]
        if pending:           # first inputs first, as TF's depth-first recursion creates its copies
            stack.extend(reversed(pending))
            continue
        stack.pop()
        new_inputs = [done[t._op].outputs[t._value_index] for t in op._inputs]
        if all(n is t for n, t in zip(new_inputs, op._inputs)):
            done[op] = op
            continue
        op_type = "Switch" if op._type == "RefSwitch" else op._type
        name = (op._name + "_" + scope).replace(":", "_")
        with graph.as_default():
            done[op] = build_op(op_type, _grouped(op_type, op._attrs, new_inputs), attrs=dict(op._attrs),
                                name=name)
    return done[initial_value._op].outputs[initial_value._value_index]


def _grouped(op_type, attrs, flat):
    """``flat`` inputs regrouped as build_op takes them: one list per list-valued argument (Merge's
    ``inputs``, Pack's ``values``)."""
    grouped, i = [], 0
    for arg in get_opdef(op_type).inputs:
        if arg.any_list:
            n = len(attrs.get("Tlist", ()))
        elif arg.list_attr:
            n = attrs[arg.list_attr]
            n = len(n) if isinstance(n, (list, tuple)) else n
        else:
            grouped.append(flat[i])
            i += 1
            continue
        grouped.append(list(flat[i:i + n]))
        i += n
    return grouped


def _initialized_value_of(graph, variable_op):
    names = (variable_op._name, variable_op._name + ":0")
    for key in (GraphKeys.GLOBAL_VARIABLES, GraphKeys.LOCAL_VARIABLES):
        for var in graph.get_collection(key):
            if getattr(var, "name", None) in names and hasattr(var, "initialized_value"):
                return var.initialized_value()
    return None


# --- collections and initializers --------------------------------------------------------------------

def global_variables(scope=None):
    return graph_mod.get_default_graph().get_collection(GraphKeys.GLOBAL_VARIABLES, scope)


all_variables = global_variables


def trainable_variables(scope=None):
    return graph_mod.get_default_graph().get_collection(GraphKeys.TRAINABLE_VARIABLES, scope)


def local_variables(scope=None):
    return graph_mod.get_default_graph().get_collection(GraphKeys.LOCAL_VARIABLES, scope)


def model_variables(scope=None):
    return graph_mod.get_default_graph().get_collection(GraphKeys.MODEL_VARIABLES, scope)


def moving_average_variables(scope=None):
    return graph_mod.get_default_graph().get_collection(GraphKeys.MOVING_AVERAGE_VARIABLES, scope)


def variables_initializer(var_list, name="init"):
    """One op that runs every variable's initializer: a NoOp with control inputs on all the Assigns."""
    from graphlab.ops import control_flow_ops
    if var_list:
        return control_flow_ops.group(*[v.initializer for v in var_list], name=name)
    return control_flow_ops.no_op(name=name)


def global_variables_initializer():
    """A new ``init`` op (``init_1``, ... on later calls) initialising every global variable."""
    return variables_initializer(global_variables())


initialize_all_variables = global_variables_initializer


def local_variables_initializer():
    return variables_initializer(local_variables(), name="init")


def is_variable_initialized(variable):
    return state_ops.is_variable_initialized(variable)


def assert_variables_initialized(var_list=None):
    raise NotImplementedError("assert_variables_initialized is not supported; use "
                              "report_uninitialized_variables().")


def _is_tensor(x):
    return isinstance(x, Tensor)


def report_uninitialized_variables(var_list=None, name="report_uninitialized_variables"):
    """A 1-D string tensor with the names of the variables not yet initialized in the running session.

    Built as TF builds it: IsVariableInitialized per variable, stacked, negated, then a boolean mask over
    a Const of the names, so the graph (and its picture) matches TensorFlow's."""
    from graphlab.ops import array_ops as arr, math_ops
    graph = graph_mod.get_default_graph()
    if var_list is None:
        var_list = global_variables() + local_variables()
        if not var_list:
            var_list = [op.outputs[0] for op in graph.get_operations() if op.type == "VariableV2"]
    with graph.name_scope(name):
        init_vars = [state_ops.is_variable_initialized(v) for v in var_list]
        # TF builds the report on the CPU (or the device its environment variable names)
        with graph.device(os.environ.get("TF_DEVICE_FOR_UNINITIALIZED_VARIABLE_REPORTING", "/cpu:0")):
            if not var_list:
                from graphlab.framework.registry import constant
                return constant(np.array([], dtype=object), dtype="string")
            mask = math_ops.logical_not(array_ops.stack(init_vars))
            names = convert_to_tensor([v.op.name for v in var_list])
            return arr.boolean_mask(names, mask)


# --- in meta graphs -----------------------------------------------------------------------------------
# Collections whose Variables are stored as VariableDef protos (TF registers a proto function for exactly
# these keys; a Variable in any other collection is stored by name and imported as the variable's tensor).
VARIABLE_COLLECTIONS = ("variables", "trainable_variables", "local_variables", "model_variables",
                        "moving_average_variables", "global_step", "metric_variables")


class _VariableDefView:
    """A VariableDef as Variable(variable_def=...) reads it (proto3 `trainable` has no presence bit)."""

    def __init__(self, vd):
        self._vd = vd

    def __getattr__(self, name):
        return getattr(self._vd, name)

    def HasField(self, name):  # noqa: N802  (protobuf's spelling)
        return True if name == "trainable" else self._vd.HasField(name)


def _variable_from_proto(variable_def, graph, import_scope, rebuilt):
    """One Variable object per variable, whichever collections list it (and the graph's own, if it has it)."""
    if not rebuilt:
        rebuilt.update((v.name, v) for key in VARIABLE_COLLECTIONS for v in graph.get_collection(key))
    name = graph_mod.prepend_name_scope(variable_def.variable_name, import_scope)
    variable = rebuilt.get(name)
    if variable is None:
        variable = rebuilt[name] = Variable(variable_def=_VariableDefView(variable_def), import_scope=import_scope)
    return variable


for _key in VARIABLE_COLLECTIONS:
    meta_graph.register_proto_function(_key, variable_pb2.VariableDef, graph_io.variable_to_proto,
                                       _variable_from_proto, Variable, by_name_elsewhere=True)
