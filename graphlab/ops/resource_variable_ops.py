"""Resource variables (``use_resource=True``, ``tf.enable_resource_variables()``): TF's second kind of variable.

A VarHandleOp outputs a *handle* (a ``resource`` tensor), not the value. The value lives in the session's
resource manager under (container, shared_name); in graphlab that is one ``ResourceVar`` object in the
session's state, which is the run-time value of every handle with the same container and shared name.

Unlike a reference variable, a resource variable is only ever read by a ``ReadVariableOp``, and every read
is a snapshot: an update later in the same run (AssignAddVariableOp, ResourceScatterAdd, ResourceApplyAdam)
never changes an array a read has already returned. graphlab does this by copy-on-write: a read hands out
the variable's array and marks it shared; an in-place update of a shared array first makes a private copy.
So reads cost nothing, and an update copies at most once per read. Every read op is created under the
control dependencies in force, which is how TF1 code orders a read after an update.

The ``ResourceVariable`` class builds TF's ops with TF's names: ``v/Initializer/initial_value``, ``v``
(VarHandleOp), ``v/IsInitialized/VarIsInitializedOp``, ``v/Assign`` (AssignVariableOp), ``v/Read/ReadVariableOp``,
and a new ``ReadVariableOp`` each time the variable is used as a tensor.
"""
import threading

import numpy as np

from graphlab.formats.errors import FailedPreconditionError, InvalidArgumentError, NotFoundError
from graphlab.framework import dtypes, graph as graph_mod, tensor_shape
from graphlab.framework.registry import NOT_DIFFERENTIABLE, build_op, convert_to_tensor, register_op
from graphlab.ops import array_ops, indexed_ops, scatter_ops, state_ops, variables

DEFAULT_CONTAINER = "localhost"
_CONTAINERS = "__resource_containers__"      # key in the session's state: containers that hold a resource


class ResourceVar:
    """One resource variable's value in one session. ``value`` is None until an AssignVariableOp creates it;
    ``shared`` says a read has handed ``value`` out, so an in-place update must copy it first."""

    __slots__ = ("name", "container", "value", "shared", "lock", "__weakref__")

    def __init__(self, container, name):
        self.container, self.name = container, name
        self.value = None
        self.shared = False
        self.lock = threading.Lock()

    # --- what the kernels use ------------------------------------------------------------------------
    def snapshot(self, ctx):
        """The value a ReadVariableOp returns (TF's FailedPreconditionError when there is none). Taken under
        the variable's lock, so an update running in another thread is seen whole or not at all."""
        with self.lock:
            value = self.value
            self.shared = True
        if value is None:
            raise FailedPreconditionError(None, ctx.op, (
                "Could not find variable %s. This could mean that the variable has been deleted. In TF1, it can "
                "also mean the variable is uninitialized. Debug info: container=%s, status error message=%s"
                % (self.name, self.container, self._missing(ctx))))
        return value

    def read(self, ctx):
        """For an update: the variable's own array, safe to change in place (NotFoundError if none)."""
        if self.value is None:
            raise NotFoundError(None, ctx.op, self._missing(ctx))
        if self.shared or not self.value.flags.writeable:
            self.value = self.value.copy()
            self.shared = False
        return self.value

    def write(self, new):
        """Store ``new`` (an update's result): into the private array when it is one, else as a new array."""
        value = self.value
        if new is value:
            return
        if value is not None and not self.shared and value.shape == np.shape(new) and value.flags.writeable:
            np.copyto(value, new, casting="unsafe")
        else:
            self.value = np.array(new, dtype=value.dtype if value is not None else None)
            self.shared = False

    def assign(self, ctx, new, dtype):
        """AssignVariableOp: ``new`` becomes the value without a copy (it may be another op's output, so it
        counts as shared); creates the variable, and its container, on first use."""
        if self.value is None:
            ctx.state.setdefault(_CONTAINERS, set()).add(self.container)
        self.value = np.asarray(new, dtype=dtype)
        self.shared = True

    def _missing(self, ctx):
        containers = ctx.state.get(_CONTAINERS) or ()
        if self.container not in containers:
            return "Container %s does not exist. (Could not find resource: %s/%s)" % (
                self.container, self.container, self.name)
        return "Resource %s/%s/N10tensorflow3VarE does not exist." % (self.container, self.name)

    @property
    def is_initialized(self):
        return self.value is not None

    def __repr__(self):
        return "<resource %s/%s>" % (self.container, self.name)


def _dims(shape):
    return "[%s]" % ",".join(str(d) for d in shape)


def updating(kernel):
    """An update kernel run holding the locks of the variables it takes (one global order, by id, so two
    updates never wait on each other), as TF's resource kernels hold the variable's mutex: a read in another
    thread sees the update whole, and two updates of one variable do not interleave."""
    def locked(ctx, *args):
        return state_ops.run_holding_locks(ResourceVar, kernel, ctx, args)
    locked.__wrapped__ = kernel
    return locked


# ----------------------------------------------------------------------------------------- VarHandleOp
def _handle_kernel(ctx):
    container = ctx.attrs.get("container") or DEFAULT_CONTAINER
    name = ctx.attrs.get("shared_name") or ctx.op.name
    key = ("resource", container, name)
    var = ctx.state.get(key)
    if var is None:
        var = ctx.state.setdefault(key, ResourceVar(container, name))
    return var


register_op(
    "VarHandleOp",
    outputs=lambda op: [(dtypes.resource, tensor_shape.SCALAR)],
    kernel=_handle_kernel,
    grad=NOT_DIFFERENTIABLE,
    stateful=True,
    doc="The handle of the resource variable (container, shared_name) in the session.")


def var_handle_op(dtype, shape, container="", shared_name="", debug_name="", name=None):
    return build_op("VarHandleOp", (), attrs={
        "allowed_devices": [], "container": container, "debug_name": debug_name,
        "dtype": dtypes.as_dtype(dtype).base_dtype, "shape": tensor_shape.as_shape(shape),
        "shared_name": shared_name}, name=name).outputs[0]


def _declared(handle):
    """(dtype, shape) the handle's VarHandleOp declares (unknown when the handle comes from elsewhere)."""
    op = handle._op
    while op._type in ("Identity", "Enter", "Switch") and op._inputs:     # carried through control flow
        op = op._inputs[0]._op
    if op._type == "VarHandleOp":
        return op._attrs["dtype"], op._attrs["shape"]
    return None, tensor_shape.UNKNOWN


# -------------------------------------------------------------------------------------- ReadVariableOp
register_op(
    "ReadVariableOp",
    inputs=["resource: resource"],
    outputs=lambda op: [(op._attrs["dtype"], _declared(op._inputs[0])[1])],
    kernel=lambda ctx, var: var.snapshot(ctx),
    grad=lambda op, grad: [grad],
    stateful=True,
    doc="A snapshot of the variable's value (later updates in the run do not change it).")


def read_variable_op(resource, dtype, name=None):
    return build_op("ReadVariableOp", [resource], attrs={"dtype": dtypes.as_dtype(dtype).base_dtype},
                    name=name).outputs[0]


# ----------------------------------------------------------------------------------- VarIsInitializedOp
register_op(
    "VarIsInitializedOp",
    inputs=["resource: resource"],
    outputs=lambda op: [(dtypes.bool, tensor_shape.SCALAR)],
    kernel=lambda ctx, var: np.bool_(var.is_initialized),
    grad=NOT_DIFFERENTIABLE,
    stateful=True,
    doc="Whether the resource variable exists (has been assigned) in this session.")


def var_is_initialized_op(resource, name=None):
    return build_op("VarIsInitializedOp", [resource], name=name).outputs[0]


# --------------------------------------------------------------------------------------- VariableShape
def _variable_shape_kernel(ctx, var):
    return np.array(var.snapshot(ctx).shape, dtype=ctx.attrs["out_type"].as_numpy_dtype)


register_op(
    "VariableShape",
    inputs=["input: resource"],
    outputs=lambda op: [(op._attrs["out_type"], tensor_shape.TensorShape([_declared(op._inputs[0])[1].ndims]))],
    kernel=_variable_shape_kernel,
    grad=NOT_DIFFERENTIABLE,
    stateful=True,
    doc="The shape of the variable's current value.")


def variable_shape(handle, out_type=dtypes.int32):
    """TF's resource_variable_ops.variable_shape: a Const when the declared shape is known."""
    shape = _declared(handle)[1]
    if shape.is_fully_defined():
        return convert_to_tensor(shape.as_list(), dtype=out_type)
    return build_op("VariableShape", [handle], attrs={"out_type": dtypes.as_dtype(out_type)}).outputs[0]


# ------------------------------------------------------------------------------------- AssignVariableOp
def _update_shapes(op):
    """TF's shape rule of the *VariableOp updates: the value's shape merges with the declared one (for
    AssignVariableOp only with validate_shape)."""
    if op._type == "AssignVariableOp" and not op._attrs.get("validate_shape"):
        return []
    declared = _declared(op._inputs[0])[1]
    value = op._inputs[1]._shape
    indexed_ops.merge_shapes(declared, value)
    return []


def _assign_kernel(ctx, var, value):
    value = np.asarray(value)
    if ctx.attrs.get("validate_shape", False) or var.value is not None:
        if var.value is not None and var.value.shape != value.shape:
            raise InvalidArgumentError(None, ctx.op, "Trying to assign to variable with tensor with wrong shape. "
                                       "Expected %s got %s" % (_dims(var.value.shape), _dims(value.shape)))
    var.assign(ctx, value, ctx.attrs["dtype"].as_numpy_dtype)


register_op(
    "AssignVariableOp",
    inputs=["resource: resource", "value: dtype"],
    outputs=_update_shapes,
    kernel=updating(_assign_kernel),
    grad=NOT_DIFFERENTIABLE,
    stateful=True,
    doc="Gives the variable a new value (creating it in the session on first use).")


def assign_variable_op(resource, value, validate_shape=False, name=None):
    return build_op("AssignVariableOp", [resource, value], attrs={"validate_shape": bool(validate_shape)},
                    name=name)


def _add_kernel(fn):
    def kernel(ctx, var, delta):
        if var.value is None:
            raise NotFoundError(None, ctx.op, var._missing(ctx))
        if var.value.shape != np.shape(delta):
            raise InvalidArgumentError(None, ctx.op, "Cannot update variable with shape %s using a Tensor with "
                                       "shape %s, shapes must be equal." % (_dims(var.value.shape),
                                                                           _dims(np.shape(delta))))
        current = var.value
        if var.shared or not current.flags.writeable:
            var.value = fn(current, delta).astype(current.dtype, copy=False)    # the reads keep the old array
            var.shared = False
        else:
            fn(current, delta, out=current, casting="unsafe")
    return kernel


for _op, _fn in (("AssignAddVariableOp", np.add), ("AssignSubVariableOp", np.subtract)):
    register_op(_op, inputs=["resource: resource", "value: dtype"], outputs=_update_shapes, kernel=updating(_add_kernel(_fn)),
                grad=NOT_DIFFERENTIABLE, stateful=True,
                doc="Adds (subtracts) value to (from) the variable; earlier reads keep their values.")


# -------------------------------------------------------------------------------------- ResourceGather
def _gather_outputs(op):
    _, indices = op._inputs
    declared = _declared(op._inputs[0])[1]
    if declared.ndims is None or indices._shape.ndims is None:
        return [(op._attrs["dtype"], tensor_shape.UNKNOWN)]
    return [(op._attrs["dtype"], indices._shape.concatenate(declared.as_list()[1:]))]


def _gather_kernel(ctx, var, indices):
    params = var.snapshot(ctx)
    indices = np.asarray(indices)
    flat = indices.reshape(-1)
    bad = np.flatnonzero((flat < 0) | (flat >= params.shape[0]))
    if bad.size:
        where = np.unravel_index(bad[0], indices.shape) if indices.ndim else ()
        raise InvalidArgumentError(None, ctx.op, "indices%s = %d is not in [0, %d)" % (
            "[%s]" % ",".join(str(int(i)) for i in where) if indices.ndim else "", flat[bad[0]], params.shape[0]))
    return params[indices]         # fancy indexing copies: later updates do not reach the rows


def _gather_grad(op, grad):
    """TF's ResourceGather gradient: IndexedSlices(grad rows, indices, the variable's shape) for the handle."""
    from graphlab.framework.indexed_slices import IndexedSlices
    handle, indices = op._inputs
    params_shape = variable_shape(handle)
    size = array_ops.expand_dims(array_ops.size(indices), 0)
    values_shape = array_ops.concat([size, params_shape[1:]], 0)
    values = array_ops.reshape(grad, values_shape)
    indices = array_ops.reshape(indices, size)
    return [IndexedSlices(values, indices, params_shape), None]


register_op(
    "ResourceGather",
    inputs=["resource: resource", "indices: Tindices"],
    outputs=_gather_outputs,
    kernel=_gather_kernel,
    grad=_gather_grad,
    stateful=True,
    doc="Rows of the variable's value (a snapshot).")


def resource_gather(resource, indices, dtype, batch_dims=0, validate_indices=True, name=None):
    return build_op("ResourceGather", [resource, indices], attrs={
        "batch_dims": int(batch_dims), "dtype": dtypes.as_dtype(dtype), "validate_indices": bool(validate_indices)},
        name=name).outputs[0]


# ------------------------------------------------------------------------------------ ResourceGatherNd
def _gather_nd_outputs(op):
    class _Params:                  # the declared shape, as GatherNd's rule reads params
        _dtype = op._attrs["dtype"]
        _shape = _declared(op._inputs[0])[1]
    view = type("_Op", (), {"_inputs": [_Params, op._inputs[1]]})
    return scatter_ops._gather_nd_outputs(view)


def _gather_nd_grad(op, grad):
    """TF's ResourceGatherNd gradient: IndexedSlices for [N, 1] indices, else a ScatterNd, into the
    shape a VariableShape op reads."""
    from graphlab.framework.indexed_slices import IndexedSlices
    handle, indices = op._inputs
    ref_shape = build_op("VariableShape", [handle], attrs={"out_type": indices.dtype.base_dtype}).outputs[0]
    if indices.shape.ndims == 2 and indices.shape.as_list()[-1] == 1:
        return [IndexedSlices(grad, array_ops.squeeze(indices, axis=[-1]), ref_shape), None]
    return [scatter_ops.scatter_nd(indices, grad, ref_shape), None]


register_op(
    "ResourceGatherNd",
    inputs=["resource: resource", "indices: Tindices"],
    outputs=_gather_nd_outputs,
    kernel=lambda ctx, var, indices: scatter_ops._gather_nd_kernel(ctx, var.snapshot(ctx), indices),
    grad=_gather_nd_grad,
    stateful=True,
    doc="Slices of the variable's value at the index vectors (a snapshot).")


# ------------------------------------------------------------------------------------ ResourceScatter*
def _scatter_outputs(op):
    handle, indices, updates = op._inputs
    declared = _declared(handle)[1]
    if declared.ndims is not None and indices._shape.ndims is not None and updates._shape.ndims != 0:
        indexed_ops.merge_shapes(updates._shape, indices._shape.concatenate(declared.as_list()[1:]))
    return []


def _resource_kernel(ref_kernel):
    """A Scatter* kernel of reference variables run on a resource variable: it reads the variable's private
    array (``ResourceVar.read`` copies a shared one first) and writes it back."""
    kernel = getattr(ref_kernel, "__wrapped__", ref_kernel)

    def run(ctx, var, *args):
        kernel(ctx, var, *args)
    return updating(run)


for _kind in ("Update", "Add", "Sub", "Mul", "Div", "Min", "Max"):
    _combine = indexed_ops._SCATTER["Scatter" + _kind][0]
    register_op("ResourceScatter" + _kind, inputs=["resource: resource", "indices: Tindices", "updates: dtype"],
                outputs=_scatter_outputs, kernel=_resource_kernel(indexed_ops._scatter_kernel(_combine)),
                grad=NOT_DIFFERENTIABLE, stateful=True,
                doc="Scatter%s of rows into a resource variable; earlier reads keep their values." % _kind)


def _nd_outputs(op):
    handle, indices, updates = op._inputs
    declared = _declared(handle)[1]
    if declared.is_fully_defined():
        scatter_ops._check_updates_shape(indices, updates, declared.as_list())
    return []


_ND_COMBINES = dict(scatter_ops._ROW_COMBINES, Min=np.minimum.at, Max=np.maximum.at)
for _kind in ("Update", "Add", "Sub", "Min", "Max"):
    register_op("ResourceScatterNd" + _kind, inputs=["ref: resource", "indices: Tindices", "updates: T"],
                outputs=_nd_outputs, kernel=_resource_kernel(scatter_ops._state_nd_kernel(_ND_COMBINES[_kind])),
                grad=NOT_DIFFERENTIABLE, stateful=True,
                doc="ScatterNd%s into a resource variable; earlier reads keep their values." % _kind)


def resource_scatter(kind, resource, indices, updates, name=None):
    """``resource_scatter_add`` and friends on a handle (``kind``: "Add", "Sub", "Update" ...)."""
    return build_op("ResourceScatter" + kind, [resource, indices, updates], name=name)


# ---------------------------------------------------------------------------------- ResourceCountUpTo
register_op(
    "ResourceCountUpTo",
    inputs=["resource: resource"],
    outputs=lambda op: [(op._attrs["T"], tensor_shape.SCALAR)],
    kernel=updating(state_ops.count_up),
    grad=NOT_DIFFERENTIABLE,
    stateful=True,
    doc="Increments a scalar resource variable until it reaches `limit` (OutOfRangeError); outputs the value "
        "before the increment.")


# ----------------------------------------------------------------------------------- ResourceVariable
def _read(handle, dtype, name=None):
    return read_variable_op(handle, dtype, name=name)


class ResourceVariable(variables.Variable):
    """``<tf.Variable 'v:0' shape=(2,) dtype=float32>`` built on a handle: see the module docstring."""

    _is_resource_variable = True
    _TF_CLASS = "tensorflow.python.ops.resource_variable_ops.ResourceVariable"

    def __init__(self, initial_value=None, trainable=True, collections=None, validate_shape=True,
                 caching_device=None, name=None, variable_def=None, dtype=None, expected_shape=None,
                 import_scope=None, constraint=None, use_resource=None, synchronization=None,
                 aggregation=None, shape=None):
        self._parent_op = None
        if variable_def is not None:
            self._init_from_proto(variable_def, import_scope)
            return
        if initial_value is None:
            raise ValueError("The `initial_value` arg (%s) must be specified as a `Tensor` or be a callable."
                             % initial_value)
        graph = graph_mod.get_default_graph()
        collections = self._set_arguments(collections, trainable, constraint)
        self._validate_shape = validate_shape
        with graph.control_dependencies(None), graph.name_scope(name or "Variable") as scope:
            handle_name = scope[:-1]
            with graph._attr_scope_block({"_class": ["loc:@" + handle_name]}):
                initial_value = variables._initial_value_tensor(graph, initial_value, dtype, under_initializer=True)
                if shape is not None:
                    shape = tensor_shape.as_shape(shape)
                    if not initial_value.shape.is_compatible_with(shape):
                        raise ValueError(
                            "In this `tf.Variable` creation, the initial value's shape (%s) is not compatible "
                            "with the explicitly supplied `shape` argument (%s)." % (initial_value.shape, shape))
                elif validate_shape:
                    shape = initial_value.shape
                else:
                    shape = tensor_shape.UNKNOWN
                self._dtype = initial_value.dtype.base_dtype
                self._shape = shape
                self._handle = var_handle_op(self._dtype, shape, shared_name=handle_name, debug_name=scope,
                                             name=scope)
            with graph.name_scope("IsInitialized"):
                self._is_initialized_op = var_is_initialized_op(self._handle)
            with graph.name_scope("Assign") as n, graph.colocate_with(None, ignore_existing=True), \
                    graph.device(self._handle.op.device):
                value = variables._guard_reads(scope, initial_value)
                self._initializer_op = build_op("AssignVariableOp", [self._handle, value], attrs={
                    "validate_shape": bool(validate_shape and shape.is_fully_defined())}, name=n)
            with graph.name_scope("Read"), graph.device(self._handle.op.device):
                self._graph_element = _read(self._handle, self._dtype)
            self._initial_value = initial_value
        graph.add_to_collections(collections, self)
        self._save_slice_info = None

    def _init_from_proto(self, variable_def, import_scope):
        element = self._restore_common(variable_def, import_scope)
        self._handle = element(variable_def.variable_name)
        self._dtype = self._handle.op._attrs["dtype"]
        self._shape = self._handle.op._attrs["shape"]
        self._is_initialized_op = None
        self._graph_element = element(variable_def.snapshot_name) if variable_def.snapshot_name else None
        self._validate_shape = True

    # --- identity -----------------------------------------------------------------------------------
    @property
    def handle(self):
        return self._handle

    @property
    def name(self):
        return self._handle.name

    @property
    def op(self):
        return self._handle.op

    @property
    def graph(self):
        return self._handle.graph

    @property
    def dtype(self):
        return self._dtype

    @property
    def shape(self):
        return self._shape

    def get_shape(self):
        return self._shape

    @property
    def device(self):
        return self._handle.op.device

    @property
    def create(self):
        return self._initializer_op

    def is_initialized(self, name=None):
        return var_is_initialized_op(self._handle, name=name)

    # --- reading ------------------------------------------------------------------------------------
    def _read_variable_op(self):
        graph = self._handle.graph
        if self._parent_op is not None:
            with graph.control_dependencies([self._parent_op]):
                return _read(self._handle, self._dtype)
        return _read(self._handle, self._dtype)

    def value(self):
        """A new ReadVariableOp (in the current name scope, under the current control dependencies)."""
        with self._handle.graph.colocate_with(None, ignore_existing=True):
            return self._read_variable_op()

    def read_value(self):
        """``Read/ReadVariableOp`` and an Identity of it, as TF builds them."""
        with self._handle.graph.name_scope("Read"):
            value = self._read_variable_op()
        return array_ops.identity(value)

    def _ref(self):
        raise AttributeError("A resource variable has no reference (its handle is %s)." % self._handle.name)

    def initialized_value(self):
        raise NotImplementedError("")

    def eval(self, session=None):
        from graphlab.framework import default_stacks
        session = default_stacks.session_for_eval(session, self.graph, "eval()")
        return session.run(self._graph_element)

    def sparse_read(self, indices, name=None):
        # no control dependency on an update that returned this variable: TF's _UnreadVariable keeps none
        # here (a gather of ``v.assign(x)`` is not ordered after the assign)
        with self._handle.graph.name_scope("Gather" if name is None else name) as scope:
            return resource_gather(self._handle, indices, self._dtype, name=scope)

    def gather_nd(self, indices, name=None):
        with self._handle.graph.name_scope("GatherNd" if name is None else name) as scope:
            value = build_op("ResourceGatherNd", [self._handle, indices], attrs={"dtype": self._dtype},
                             name=scope).outputs[0]
        return array_ops.identity(value)          # as TF (its sparse_read has none)

    # --- changing the value ---------------------------------------------------------------------------
    def _lazy_read(self, op):
        return _UnreadVariable(self, op)

    def _convert(self, value):
        return convert_to_tensor(value, dtype=self._dtype)

    def assign(self, value, use_locking=None, name=None, read_value=True):
        value_tensor = self._convert(value)
        if not self._shape.is_compatible_with(value_tensor.shape):
            raise ValueError("Cannot assign value to variable ' %s': Shape mismatch.The variable shape %s, and the "
                             "assigned value shape %s are incompatible." % (self.name, self._shape,
                                                                             value_tensor.shape))
        op = build_op("AssignVariableOp", [self._handle, value_tensor], attrs={
            "validate_shape": bool(self._validate_shape and self._shape.is_fully_defined())}, name=name)
        return self._lazy_read(op) if read_value else op

    def _update(self, op_type, delta, name, read_value):
        op = build_op(op_type, [self._handle, self._convert(delta)], name=name)
        return self._lazy_read(op) if read_value else op

    def assign_add(self, delta, use_locking=None, name=None, read_value=True):
        return self._update("AssignAddVariableOp", delta, name, read_value)

    def assign_sub(self, delta, use_locking=None, name=None, read_value=True):
        return self._update("AssignSubVariableOp", delta, name, read_value)

    def _scatter(self, kind, indices, updates, name=None, use_locking=None):
        op = build_op("ResourceScatter" + kind, [self._handle, indices, self._convert(updates)], name=name)
        return self._lazy_read(op)

    def _scatter_nd(self, kind, indices, updates, name=None, use_locking=True):
        op = build_op("ResourceScatterNd" + kind, [self._handle, indices, self._convert(updates)],
                      attrs={"use_locking": bool(use_locking), "bad_indices_policy": ""}, name=name)
        return self._lazy_read(op)

    def scatter_nd_update(self, indices, updates, name=None):
        return self._scatter_nd("Update", indices, updates, name)

    def scatter_nd_add(self, indices, updates, name=None):
        return self._scatter_nd("Add", indices, updates, name)

    def scatter_nd_sub(self, indices, updates, name=None):
        return self._scatter_nd("Sub", indices, updates, name)

    def count_up_to(self, limit, name=None):
        """ResourceCountUpTo: the value before the increment; OutOfRangeError once it reaches ``limit``."""
        return build_op("ResourceCountUpTo", [self._handle], attrs={"limit": int(limit), "T": self._dtype},
                        name=name, default_name="ResourceCountUpTo").outputs[0]

    def load(self, value, session=None):
        from graphlab.framework import default_stacks
        session = default_stacks.session_for_eval(session, self.graph, "load()")
        session.run(self._initializer_op, {self._initializer_op.inputs[1]: value})

    # --- graph integration ---------------------------------------------------------------------------
    def _as_graph_element(self):
        return self._graph_element

    def _to_tensor(self, dtype=None, name=None, as_ref=False):
        if dtype is not None and not dtypes.as_dtype(dtype).is_compatible_with(self._dtype):
            raise ValueError("Incompatible type conversion requested to type '%s' for variable of type '%s' (%s)"
                             % (dtypes.as_dtype(dtype).name, self._dtype.name, self))
        if as_ref:
            return self._handle
        return self.value()

    def to_proto(self, export_scope=None):
        """TF's VariableDef of a resource variable: the handle, ``v/Assign``, ``v/Read/ReadVariableOp:0``,
        is_resource."""
        from graphlab.formats.protos import variable_pb2
        from graphlab.framework.graph import strip_name_scope as strip_scope
        vd = variable_pb2.VariableDef(variable_name=strip_scope(self._handle.name, export_scope),
                                      initializer_name=strip_scope(self._initializer_op.name, export_scope),
                                      is_resource=True)
        if self._graph_element is not None:
            vd.snapshot_name = strip_scope(self._graph_element.name, export_scope)
        if self._initial_value is not None:
            vd.initial_value_name = strip_scope(self._initial_value.name, export_scope)
        vd.trainable = bool(self._trainable)
        return vd

    @staticmethod
    def from_proto(variable_def, import_scope=None):
        return ResourceVariable(variable_def=variable_def, import_scope=import_scope)



def _scatter_method(kind):
    """``v.scatter_<kind>(sparse_delta)``: one ResourceScatter op applying an IndexedSlices."""
    def method(self, sparse_delta, use_locking=False, name=None):
        from graphlab.framework.indexed_slices import IndexedSlices
        if not isinstance(sparse_delta, IndexedSlices):
            raise TypeError("sparse_delta is not IndexedSlices: %s" % (sparse_delta,))
        return self._scatter(kind.capitalize(), sparse_delta.indices, sparse_delta.values, name=name)
    method.__name__ = "scatter_" + kind
    return method


for _kind in ("sub", "add", "update", "mul", "div", "max", "min"):
    setattr(ResourceVariable, "scatter_" + _kind, _scatter_method(_kind))


class _UnreadVariable(ResourceVariable):
    """What an update with ``read_value=True`` returns: the same variable, whose every read is made under a
    control dependency on the update (TF's _UnreadVariable). Fetching it fetches a read made at once."""

    _TF_CLASS = "tensorflow.python.ops.resource_variable_ops._UnreadVariable"

    def __init__(self, variable, parent_op):     # noqa: super().__init__ deliberately not called
        self.__dict__.update({k: v for k, v in variable.__dict__.items()})
        self._parent_op = parent_op
        with parent_op.graph.control_dependencies([parent_op]):
            self._graph_element = _read(self._handle, self._dtype)

    @property
    def name(self):
        return self._parent_op.name

    def read_value(self):
        """A ReadVariableOp after the update (TF adds no Read scope nor Identity here)."""
        return self._read_variable_op()

    def assign(self, value, use_locking=None, name=None, read_value=True):
        with self._parent_op.graph.control_dependencies([self._parent_op]):
            return ResourceVariable.assign(self, value, use_locking, name, read_value)

    def _update(self, op_type, delta, name, read_value):
        with self._parent_op.graph.control_dependencies([self._parent_op]):
            return ResourceVariable._update(self, op_type, delta, name, read_value)

    def _scatter(self, kind, indices, updates, name=None, use_locking=None):
        with self._parent_op.graph.control_dependencies([self._parent_op]):
            return ResourceVariable._scatter(self, kind, indices, updates, name, use_locking)

    def _scatter_nd(self, kind, indices, updates, name=None, use_locking=True):
        with self._parent_op.graph.control_dependencies([self._parent_op]):
            return ResourceVariable._scatter_nd(self, kind, indices, updates, name, use_locking)

    @property
    def op(self):
        return self._parent_op


def state_scatter(var, kind, indices, updates, name=None, use_locking=True):
    """``tf.scatter_add(v, ...)`` / ``tf.scatter_nd_update(v, ...)`` of a resource variable (``kind``: "Add",
    "NdUpdate" ...): TF's state_ops functions build the op on the handle without the control dependency a
    method of the result of an update adds, and return a read of the variable after the op."""
    if kind.startswith("Nd"):
        return ResourceVariable._scatter_nd(var, kind[2:], indices, updates, name=name, use_locking=use_locking)
    return ResourceVariable._scatter(var, kind, indices, updates, name=name)


def is_resource_variable(var):
    return getattr(var, "_is_resource_variable", False)
