"""State ops: variables and the ops that change them. A VariableV2 op outputs a handle (a ``*_ref`` tensor)
to a buffer that lives in the Session, not in the graph; Assign and friends write through that handle.

Reads and writes follow TF's executor: an op that takes the variable's value (its ``read`` Identity, or any
op fed the ``*_ref`` tensor) gets the buffer itself, not a copy, and updates change that buffer in place
(``VariableRef.write``). So a value read earlier in a run shows an update made later in the same run, and a
control dependency on an update orders every read after it: ``with tf.control_dependencies([inc]):
y = tf.identity(x)`` gives the incremented value, as in TF. ``Session.run`` copies what it returns.
"""
import threading

import weakref

import numpy as np

from graphlab.framework import dtypes, tensor_shape
from graphlab.formats.errors import FailedPreconditionError, InvalidArgumentError, OutOfRangeError
from graphlab.framework.registry import (_REGISTRY, NOT_DIFFERENTIABLE, REGISTRATION_HOOKS, ShapeError, build_op,
                                         merge_error, register_op)


class VariableRef:
    """A variable's buffer inside one Session; ``value`` is None until something assigns it. ``lock`` is
    held by updates built with ``use_locking=True``, so their read-modify-write is not interleaved."""

    __slots__ = ("op", "value", "lock")

    def __init__(self, op):
        self.op = op
        self.value = None
        self.lock = threading.Lock()

    def read(self, ctx):
        """The current value, or TF's FailedPreconditionError naming the variable if never assigned (raised
        at the op that reads it, ``ctx.op``, as TF's executor reports it: ``v/read``, not ``v``)."""
        if self.value is None:
            op = ctx.op if ctx is not None else self.op
            raise FailedPreconditionError(None, op, "Attempting to use uninitialized value %s" % self.op.name)
        return self.value

    def read_value(self):
        return self.read(None)

    def write(self, new):
        """Store ``new`` as TF's kernels store an update: into the existing buffer when it has as many elements
        (TF's Assign copies into it; AssignAdd, Scatter* and the optimizers' Apply* update it in place), so every
        tensor that holds the buffer sees the change; a first value, or one of another size, gets a new buffer."""
        buffer = self.value
        if buffer is not None and buffer.size == np.size(new) and buffer.flags.writeable:
            if buffer.shape != np.shape(new):       # validate_shape=False: the same buffer, another shape
                buffer = self.value = buffer.reshape(np.shape(new))
            if new is not buffer:
                np.copyto(buffer, new, casting="unsafe")
        else:
            self.value = np.array(new, dtype=self.op._attrs["dtype"].as_numpy_dtype)   # our own copy

    @property
    def is_initialized(self):
        return self.value is not None


def variable_ref(ctx):
    """The session's buffer for the VariableV2 op of ``ctx`` (created empty on first use)."""
    key = ctx.attrs.get("shared_name") or ctx.op.name
    ref = ctx.state.get(key)
    if ref is None:   # setdefault: two threads' first runs end up with the same buffer
        ref = ctx.state.setdefault(key, VariableRef(ctx.op))
    return ref


# ----------------------------------------------------------------------------------------- VariableV2
register_op(
    "VariableV2",
    outputs=lambda op: [(op._attrs["dtype"]._as_ref, op._attrs["shape"])],
    kernel=variable_ref,
    grad=NOT_DIFFERENTIABLE,
    stateful=True,
    doc="A mutable buffer owned by the session; outputs a handle to it.")


def variable_op_v2(shape, dtype, name="Variable", container="", shared_name=""):
    return build_op("VariableV2", (), attrs={"shape": tensor_shape.as_shape(shape),
                                            "dtype": dtypes.as_dtype(dtype).base_dtype,
                                            "container": container, "shared_name": shared_name},
                    name=name).outputs[0]


def _dims(shape):
    """A shape as TF's run-time messages print it: [3,2]."""
    return "[%s]" % ",".join(str(d) for d in shape)


# --------------------------------------------------------------------------------------------- Assign
def _assign_outputs(op):
    ref, value = op._inputs
    shape = value._shape if not op._attrs.get("validate_shape", True) else ref._shape
    if op._attrs.get("validate_shape", True):
        if not ref._shape.is_compatible_with(value._shape):
            if ref._shape.ndims != value._shape.ndims:
                raise ValueError("Shapes must be equal rank, but are %s and %s" % (ref._shape.ndims,
                                                                                    value._shape.ndims))
            raise ShapeError(merge_error(ref._shape.as_list(), value._shape.as_list()))
        shape = ref._shape.merge_with(value._shape)
    return [(ref._dtype, shape)]


_HANDED_OVER = {}


def hand_over(array):
    """Mark a freshly made array (a restored checkpoint tensor) that nothing else holds, so the Assign it
    feeds keeps it as the variable's value instead of copying it (as TF forwards a buffer with one user)."""
    _HANDED_OVER[id(array)] = weakref.ref(array, lambda _, key=id(array): _HANDED_OVER.pop(key, None))
    return array


def _taken_over(value, dtype):
    ref = _HANDED_OVER.pop(id(value), None)
    return ref is not None and ref() is value and value.dtype == dtype and value.flags.writeable


def _assign_kernel(ctx, ref, value):
    if ctx.attrs.get("validate_shape", True) and ref.value is not None and ref.value.shape != np.shape(value):
        raise InvalidArgumentError(None, ctx.op, "Assign requires shapes of both tensors to match. lhs shape= %s "
                                   "rhs shape= %s" % (_dims(ref.value.shape), _dims(np.shape(value))))
    declared = ref.op._attrs["shape"]
    if ctx.attrs.get("validate_shape", True) and not declared.is_compatible_with(np.shape(value)):
        raise InvalidArgumentError(None, ctx.op, "Assign requires shapes of both tensors to match. lhs shape= %s "
                                   "rhs shape= %s" % (declared.bracket_str(), _dims(np.shape(value))))
    dtype = ref.op._attrs["dtype"].as_numpy_dtype
    if ref.value is None and isinstance(value, np.ndarray) and _taken_over(value, dtype):
        ref.value = value           # a restored tensor nothing else holds becomes the buffer
    else:
        ref.write(value)            # with use_locking, under the variable's lock (_locking below)
    return ref


register_op(
    "Assign",
    inputs=["ref: Ref(T)", "value: T"],
    outputs=_assign_outputs,
    kernel=_assign_kernel,
    grad=NOT_DIFFERENTIABLE,
    stateful=True,
    doc="ref = value; outputs the handle so the new value can be read.")


def assign(ref, value, validate_shape=None, use_locking=None, name=None):
    """``tf.assign``: an op that, when run, stores ``value`` into the variable ``ref`` (a resource variable's
    own ``assign``, as TF dispatches it)."""
    if getattr(ref, "_is_resource_variable", False):
        return ref.assign(value, name=name)
    attrs = {"validate_shape": True if validate_shape is None else validate_shape,
             "use_locking": True if use_locking is None else use_locking}
    return build_op("Assign", [ref, value], attrs=attrs, name=name).outputs[0]


def _update_kernel(fn, what):
    def update(ctx, ref, value):
        current = ref.read(ctx)
        if np.shape(value) != current.shape and np.size(value) != 1 or np.ndim(value) > current.ndim:
            raise InvalidArgumentError(None, ctx.op, "%s requires shapes of both tensors to match. lhs shape= %s "
                                       "rhs shape= %s" % (what, _dims(current.shape), _dims(np.shape(value))))
        fn(current, value, out=current, casting="unsafe")     # in place, as TF's DenseUpdate
        return ref

    return update               # with use_locking, the whole update holds the variable's lock (below)


register_op(
    "AssignAdd",
    inputs=["ref: Ref(T)", "value: T"],
    outputs=lambda op: [(op._inputs[0]._dtype, op._inputs[0]._shape)],
    kernel=_update_kernel(np.add, "AssignAdd"),
    grad=NOT_DIFFERENTIABLE,
    stateful=True,
    doc="ref += value.")


def assign_add(ref, value, use_locking=None, name=None):
    if getattr(ref, "_is_resource_variable", False):
        return ref.assign_add(value)          # TF passes neither name nor use_locking on
    return build_op("AssignAdd", [ref, value], attrs={"use_locking": bool(use_locking)}, name=name).outputs[0]


register_op(
    "AssignSub",
    inputs=["ref: Ref(T)", "value: T"],
    outputs=lambda op: [(op._inputs[0]._dtype, op._inputs[0]._shape)],
    kernel=_update_kernel(np.subtract, "AssignSub"),
    grad=NOT_DIFFERENTIABLE,
    stateful=True,
    doc="ref -= value.")


def assign_sub(ref, value, use_locking=None, name=None):
    if getattr(ref, "_is_resource_variable", False):
        return ref.assign_sub(value)
    return build_op("AssignSub", [ref, value], attrs={"use_locking": bool(use_locking)}, name=name).outputs[0]


# ------------------------------------------------------------------------------ IsVariableInitialized
register_op(
    "IsVariableInitialized",
    inputs=["ref: Ref(dtype)"],
    outputs=lambda op: [(dtypes.bool, tensor_shape.SCALAR)],
    kernel=lambda ctx, ref: np.bool_(ref.is_initialized),
    grad=NOT_DIFFERENTIABLE,
    doc="Whether the variable has a value in this session.")


def is_variable_initialized(variable, name=None):
    if getattr(variable, "_is_resource_variable", False):
        return variable.is_initialized(name=name)
    return build_op("IsVariableInitialized", [variable], name=name).outputs[0]


# ------------------------------------------------------------------------------------------ CountUpTo
def count_up(ctx, var):
    """CountUpTo's step on a variable (reference or resource, the caller holds what makes it atomic): the
    value before adding one; OutOfRangeError once it has reached the op's ``limit``."""
    value = var.read(ctx)
    limit = ctx.attrs["limit"]
    if value >= limit:
        raise OutOfRangeError(None, ctx.op, "Reached limit of %d" % limit)
    before = np.array(value)
    var.write(np.asarray(value + 1, dtype=value.dtype))
    return before


def _count_up_to_kernel(ctx, ref):
    with ctx.session._lock:          # runner threads count the same epochs variable
        return count_up(ctx, ref)


register_op(
    "CountUpTo", inputs=["ref: Ref(T)"],
    outputs=lambda op: [(op._inputs[0]._dtype.base_dtype, op._inputs[0]._shape)],
    kernel=_count_up_to_kernel, grad=NOT_DIFFERENTIABLE, stateful=True,
    doc="Increments a scalar variable until it reaches `limit`, then raises OutOfRangeError (num_epochs).")


def count_up_to(ref, limit, name=None):
    """``tf.count_up_to``: the variable's value before the increment."""
    if getattr(ref, "_is_resource_variable", False):
        return ref.count_up_to(limit, name=name)
    ref = getattr(ref, "_variable", ref)
    return build_op("CountUpTo", [ref], attrs={"limit": int(limit)}, name=name, default_name="CountUpTo").outputs[0]


# ------------------------------------------------------------------------------------ use_locking
def run_holding_locks(kind, kernel, ctx, args):
    """``kernel(ctx, *args)`` holding the locks of its variable arguments of type ``kind`` (var and slots)
    for the whole update, taken in one global order (by id) so two updates never wait on each other: TF's
    MaybeLockVariableInputMutexesInOrder. Any interleaving of runs then sees each update whole."""
    refs = sorted({id(a): a for a in args if type(a) is kind}.values(), key=id)
    for ref in refs:
        ref.lock.acquire()
    try:
        return kernel(ctx, *args)
    finally:
        for ref in reversed(refs):
            ref.lock.release()


def _locking(kernel):
    """The kernel, holding its variables' locks (run_holding_locks) when the op's use_locking is true."""
    def locked(ctx, *args):
        if not ctx.attrs.get("use_locking"):
            return kernel(ctx, *args)
        return run_holding_locks(VariableRef, kernel, ctx, args)
    locked.__wrapped__ = kernel
    return locked


def _lock_ref_inputs(opdef):
    """Give an op type that updates variables by reference (Assign*, Scatter*, Apply*, SparseApply*) the
    use_locking behaviour; control-flow plumbing of references (Ref*) and IsVariableInitialized take none."""
    if (opdef.kernel is not None and any(a.is_ref for a in opdef.inputs) and not opdef.type.startswith("Ref")
            and opdef.type != "IsVariableInitialized" and not hasattr(opdef.kernel, "__wrapped__")):
        opdef.kernel = _locking(opdef.kernel)


for _opdef in list(_REGISTRY.values()):
    _lock_ref_inputs(_opdef)
REGISTRATION_HOOKS.append(_lock_ref_inputs)
