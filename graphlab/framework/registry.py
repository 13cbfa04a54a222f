"""The op registry: for each op type, one OpDef holding its input signature, output rule (dtypes and static
shapes), numpy kernel and gradient rule. ``build_op`` is the single path by which every op enters a graph.

An op family file registers each op in one block::

    register_op("Add", inputs=["x: T", "y: T"], outputs=broadcast_outputs,
                kernel=lambda ctx, x, y: np.add(x, y), grad=_add_grad)

Input specs read ``name: T`` (type shared through attr T), ``name: int32`` (fixed type), ``name: Tidx=int32``
(own type attr with a default for Python values), ``name: N*T`` (a list of N tensors of type T),
``name: list`` (a list of tensors of any types, attr Tlist) and ``name: Ref(T)`` (a variable's handle).
"""
import math
import numbers
import types

import numpy as np

from graphlab.framework import control_flow_util, dtypes, graph as graph_mod, tensor_shape
from graphlab.framework.operation import Operation
from graphlab.framework.tensor import Tensor

NOT_DIFFERENTIABLE = "not differentiable"

DEAD = type("Dead", (), {"__repr__": lambda self: "<dead>", "__slots__": ()})()
"""The value of a tensor on the side a Switch did not take (a cond's other branch, a loop's body after its
last iteration): ops that read it do not run, and their outputs are dead too (graphlab/runtime/frames.py)."""


class InputArg:
    """One input of an op signature, parsed from its spec string."""

    __slots__ = ("name", "type_attr", "fixed", "default", "list_attr", "is_ref", "any_list")

    def __init__(self, spec):
        name, _, kind = (part.strip() for part in spec.partition(":"))
        self.name = name
        self.type_attr = self.fixed = self.default = self.list_attr = None
        self.is_ref = self.any_list = False
        if kind.startswith("Ref(") and kind.endswith(")"):
            self.is_ref, kind = True, kind[4:-1]
        if kind == "list":
            self.any_list = True
            return
        if "*" in kind:
            self.list_attr, kind = kind.split("*")
        if "=" in kind:
            kind, default = kind.split("=")
            self.default = dtypes.as_dtype(default)
        try:
            self.fixed = dtypes.as_dtype(kind)
        except TypeError:
            self.type_attr = kind


class OpDef:
    """Everything graphlab knows about one op type."""

    __slots__ = ("type", "inputs", "outputs", "kernel", "grad", "stateful", "doc", "shared_type_attr")

    def __init__(self, op_type, inputs, outputs, kernel, grad, stateful, doc):
        self.type = op_type
        self.inputs = [InputArg(s) for s in inputs]
        # Most ops take plain inputs of one type attr ("x: T", "y: T"); build_op has a fast path for them.
        attrs = {a.type_attr for a in self.inputs}
        plain = all(a.type_attr and not (a.is_ref or a.list_attr or a.any_list or a.default)
                    for a in self.inputs)
        self.shared_type_attr = attrs.pop() if self.inputs and plain and len(attrs) == 1 else None
        self.outputs = outputs
        self.kernel = kernel
        self.grad = grad
        self.stateful = stateful
        self.doc = doc

    def ref_positions(self, op):
        """Indices of op's inputs that receive a variable handle rather than its value."""
        positions, i = [], 0
        for arg in self.inputs:
            n = (len(op._attrs[arg.list_attr]) if arg.list_attr == "Tlist" else op._attrs[arg.list_attr]) \
                if arg.list_attr else (len(op._attrs.get("Tlist", ())) if arg.any_list else 1)
            if arg.is_ref:
                positions.extend(range(i, i + n))
            i += n
        return positions


_REGISTRY = {}


def register_op(op_type, inputs=(), outputs=None, kernel=None, grad=None, stateful=False, doc=None):
    """Register an op type. ``outputs(op)`` returns a list of (dtype, TensorShape); ``kernel(ctx, *values)``
    returns one value, a tuple for several outputs, or None for none; ``grad(op, *grads)`` builds the
    gradient ops (``NOT_DIFFERENTIABLE`` for ops with no gradient, None when not written yet)."""
    if op_type in _REGISTRY:
        raise ValueError("Op type %r is registered twice" % op_type)
    opdef = OpDef(op_type, inputs, outputs, kernel, grad, stateful, doc)
    _REGISTRY[op_type] = opdef
    for hook in REGISTRATION_HOOKS:
        hook(opdef)
    return opdef


REGISTRATION_HOOKS = []     # hook(opdef) for every op type registered (state_ops: use_locking on ref updates)


def register_gradient(op_type):
    """Decorator form of a gradient rule, for rules written below their op's block."""
    def decorate(fn):
        _REGISTRY[op_type].grad = fn
        return fn
    return decorate


_GRADIENTS = []


def install_gradients(gradients):
    """Called once by graphlab/gradients.py with ``tf.gradients``: a gradient rule that differentiates a
    subgraph of its own (FusedBatchNorm's second derivative) calls ``symbolic_gradients``, which lives above
    the ops."""
    _GRADIENTS[:] = [gradients]


def symbolic_gradients(ys, xs, grad_ys=None, **kwargs):
    """``tf.gradients``, for gradient rules (see install_gradients)."""
    return _GRADIENTS[0](ys, xs, grad_ys=grad_ys, **kwargs)


def get_opdef(op_type):
    try:
        return _REGISTRY[op_type]
    except KeyError:
        raise KeyError("No op named %s is registered in graphlab. The graph was probably written by a "
                       "program that uses ops graphlab does not implement." % op_type) from None


def registered_types():
    return sorted(_REGISTRY)


# --- building ops -----------------------------------------------------------------------------------

CAPTURING = graph_mod.FUNCTION_DEPTH      # > 0 while a tf.data function is traced (graphlab/data/functions.py)


def build_op(op_type, inputs=(), attrs=None, name=None, default_name=None, control_inputs=()):
    """Add one op of ``op_type`` to the inputs' graph and return the Operation.

    Converts Python/numpy inputs to constants inside the op's own name scope (so ``tf.multiply(x, 2.0,
    name="y")`` makes ``y/y`` then ``y``), fills type attrs, infers outputs, and names it the TF1 way."""
    opdef = _REGISTRY.get(op_type) or get_opdef(op_type)
    capture = None
    all_tensors = False
    if CAPTURING[0] and inputs:        # tracing a tf.data function: outer tensors become its arguments
        graph = graph_mod.get_default_graph()
        capture = getattr(graph, "_capture", None)
        if capture is None:
            graph = _graph_for(inputs)
    else:
        graph = None
        all_tensors = True
        for x in inputs:               # the common case, all Tensors of one graph, without a call
            if type(x) is not Tensor or graph is not None and x._op._graph is not graph:
                graph = _graph_for(inputs)
                all_tensors = False
                break
            graph = x._op._graph
        if graph is None:
            graph = graph_mod.get_default_graph()
    saved_stack = graph._name_stack    # the op's own scope, entered as ``graph.name_scope`` would, minus its cost
    if name and name.endswith("/"):
        op_name = name[:-1]
    else:
        op_name = graph.unique_name(name or default_name or op_type)
    graph._name_stack = op_name
    try:
        if capture is not None:
            inputs = capture(inputs)
        if not attrs and all_tensors and opdef.shared_type_attr is not None and len(inputs) == len(opdef.inputs):
            flat, attrs = _plain_inputs(opdef, inputs)     # the commonest op: tensors of one type, attr T only
        else:
            flat = None
        if flat is None:
            if type(attrs) is not types.MappingProxyType or opdef.inputs:   # shared already: an input-less
                attrs = dict(attrs) if attrs else {}                         # op's attrs are final as given
            if not inputs and not opdef.inputs:
                flat = ()
            elif all_tensors or graph is graph_mod.get_default_graph():
                flat = _convert_inputs(opdef, inputs, attrs, graph)
            else:  # the tensors' graph is not the default one: their constants go where the op goes, as TF
                with graph.as_default():
                    flat = _convert_inputs(opdef, inputs, attrs, graph)
            attrs = shared_attrs(op_type, attrs)
        op = graph._add_op(op_type, op_name, flat, attrs, control_inputs)
    finally:
        graph._name_stack = saved_stack
    try:
        specs = opdef.outputs(op)
    except ValueError as e:
        from graphlab.framework.error_format import summarize_node
        raise ValueError("%s for '%s' with input shapes: %s%s." % (
            str(e) if isinstance(e, ShapeError) else str(e).rstrip("."), summarize_node(op),
            ", ".join(t._shape.bracket_str() for t in flat), _computed_inputs(e, flat))) from None
    if len(specs) == 1:                  # the common case, without a comprehension's extra objects
        dt, shape = specs[0]
        op._outputs = [Tensor(op, 0, dt, shape)]
    else:
        op._outputs = [Tensor(op, i, dt, shape) for i, (dt, shape) in enumerate(specs)]
    if graph._has_while_loops:         # TF's check: a value made inside a loop stays inside it
        op._control_flow_context = graph._control_flow_context
        for t in flat:
            control_flow_util.check_input_from_valid_context(op, t._op)
    graph._register_op(op)
    ctxt = graph._control_flow_context
    if ctxt is not None:    # built in a cond branch or loop body: the context routes outside inputs in
        op._control_flow_context = ctxt
        graph._name_stack = op_name      # what it adds for the op (Switch, Enter) is named under it
        try:
            ctxt.AddOp(op)
        finally:
            graph._name_stack = saved_stack
    return op


_SHARED_ATTRS = {}          # op type -> [(types of the values, one read-only mapping of attrs)]
_ATOMIC_ATTR_TYPES = frozenset([dtypes.DType, bool, int, str, bytes, type(None)])
_MAX_SHARED_ATTRS = 16      # per op type (a loop's frame name, seeds, messages: kept few, as each is compared)


def shared_attrs(op_type, attrs):
    """``attrs`` as one read-only mapping shared by every op of ``op_type`` with exactly these attrs (a
    Shape's {T: float32, out_type: int32}, a Sum's {T, Tidx, keep_dims}), when all values are plain
    (dtypes, bools, ints, strings); else ``attrs`` itself.

    An attrs dict holding a dtype is one more object per op for Python's garbage collector to walk, over and
    over while a big graph is built; shared, it is none. The mapping is read-only so that no op changes
    another's attrs by accident: ``Operation._own_attrs`` gives an op its own copy to change. Equal attrs
    must also have values of the same types (True == 1, but a bool attr is not an int attr)."""
    if type(attrs) is types.MappingProxyType:     # shared already (a number's Const)
        return attrs
    kinds = tuple(map(type, attrs.values()))
    candidates = _SHARED_ATTRS.get(op_type)
    if candidates is not None:
        for shared_kinds, shared in candidates:
            if shared_kinds == kinds and shared == attrs:
                return shared
    if not _ATOMIC_ATTR_TYPES.issuperset(kinds):
        return attrs
    if candidates is None:
        candidates = _SHARED_ATTRS[op_type] = []
    elif len(candidates) >= _MAX_SHARED_ATTRS:
        return attrs
    shared = types.MappingProxyType(dict(attrs))
    candidates.append((kinds, shared))
    return shared


class ShapeError(ValueError):
    """A shape rule's error shown exactly as written (a final period kept, as in TF's "Shapes are [3,3] and
    [2,3]. for ..."), with the values of the inputs it read when given (block sizes, paddings ...):
    "... with input shapes: [2,5], [2] and with computed input tensors: input[1] = <2 2>.", or the shapes
    it read from shape-valued inputs ("and with input tensors computed as partial shapes: input[2] = [2,3]")."""

    def __init__(self, message, read_inputs=(), partial_inputs=()):
        super().__init__(message)
        self.read_inputs = tuple(read_inputs)
        self.partial_inputs = tuple(partial_inputs)


def dims_text(dims):
    """A static shape as TF's messages print it: [2,?,3]."""
    return "[%s]" % ",".join("?" if d is None else str(d) for d in dims)


def merge_error(a, b):
    """TF's message for merging two static shapes (lists, None for unknown dims), or None if they merge."""
    if a is None or b is None:
        return None
    if len(a) != len(b):
        return "Shapes must be equal rank, but are %d and %d" % (len(a), len(b))
    for i, (x, y) in enumerate(zip(a, b)):
        if x is not None and y is not None and x != y:
            return ("Dimension %d in both shapes must be equal, but are %d and %d. Shapes are %s and %s."
                    % (i, x, y, dims_text(a), dims_text(b)))
    return None


def _computed_inputs(error, flat):
    shown = []
    for i in getattr(error, "read_inputs", ()):
        value = const_value(flat[i])
        if value is not None:
            shown.append("input[%d] = <%s>" % (i, _summarize(np.asarray(value))))
    text = " and with computed input tensors: " + ", ".join(shown) if shown else ""
    partial = []
    for i in getattr(error, "partial_inputs", ()):
        dims = _ARRAY_HOOKS["partial_shape"](flat[i])
        if dims is not None:
            partial.append("input[%d] = %s" % (i, dims_text(dims)))
    return text + (" and with input tensors computed as partial shapes: " + ", ".join(partial) if partial else "")


def _summarize(value):
    """TF's SummarizeValue: elements separated by spaces, rows in brackets ("[0 0][0 0]")."""
    if value.ndim <= 1:
        return " ".join(str(v) for v in value.reshape(-1).tolist())
    return "".join("[%s]" % _summarize(row) for row in value)


def _graph_for(inputs):
    graph = None
    first = None
    for x in inputs:
        if type(x) is Tensor:          # the common case, without attribute lookups through properties
            g = x._op._graph
        elif isinstance(x, (list, tuple)):
            g = _graph_for(x) if any(isinstance(e, (Tensor, Operation)) or hasattr(e, "_as_graph_element")
                                     for e in x) else None
        else:
            g = getattr(x, "graph", None)
        if g is None:
            continue
        if graph is None:
            graph, first = g, x
        elif g is not graph:
            raise ValueError("%s must be from the same graph as %s." % (x, first))
    return graph if graph is not None else graph_mod.get_default_graph()


_TYPE_ATTRS = {}    # (op type, dtype number) -> the shared attrs {T: dtype} of a plain op


def _plain_inputs(opdef, inputs):
    """(inputs as a list, their shared {T: dtype} attrs) when ``inputs`` (all Tensors) have one base dtype, as
    a plain op (``opdef.shared_type_attr``) wants; (None, None) otherwise. The shared mapping is looked up
    by the dtype's number: a dict keyed by the dtype itself would call its Python ``__hash__``."""
    base = inputs[0]._dtype.base_dtype
    for t in inputs:
        if t._dtype.base_dtype is not base:
            return None, None
    key = (opdef.type, base._enum)
    attrs = _TYPE_ATTRS.get(key)
    if attrs is None:
        attrs = _TYPE_ATTRS[key] = types.MappingProxyType({opdef.shared_type_attr: base})
    return list(inputs), attrs


def _convert_inputs(opdef, inputs, attrs, graph):
    """The op's inputs as a flat list of tensors, with its type attrs filled (build_op passes an input-less
    op's shared empty tuple without calling this)."""
    type_attr = opdef.shared_type_attr
    if type_attr is not None and type_attr not in attrs and len(inputs) == len(opdef.inputs):
        first = inputs[0]
        if isinstance(first, Tensor):
            # a plain loop, not all(<generator>): a generator is one more object per op for the collector
            base = first._dtype.base_dtype
            for t in inputs:
                if not isinstance(t, Tensor) or t._dtype.base_dtype is not base:
                    break
            else:
                attrs[type_attr] = base
                return list(inputs)
    if len(inputs) != len(opdef.inputs):
        raise TypeError("%s takes %d inputs (%s), got %d" % (
            opdef.type, len(opdef.inputs), ", ".join(a.name for a in opdef.inputs), len(inputs)))
    flat = []
    for arg, value in zip(opdef.inputs, inputs):
        if arg.any_list:
            tensors = [convert_to_tensor(v, name="%s_%d" % (arg.name, i)) for i, v in enumerate(value)]
            attrs.setdefault("Tlist", [t._dtype.base_dtype for t in tensors])
            flat.extend(tensors)
            continue
        if arg.list_attr:
            values = list(value)
            attrs[arg.list_attr] = len(values)
            tensors = []
            for i, v in enumerate(values):   # TF names converted list entries values_0, values_1 ...
                t = _convert_one(opdef, arg, v, attrs, tensors[0] if tensors else None,
                                 "%s_%d" % (arg.name, i))
                tensors.append(t)
            if not values and arg.type_attr and arg.type_attr not in attrs:
                attrs[arg.type_attr] = arg.default or dtypes.float32
            flat.extend(tensors)
            continue
        flat.append(_convert_one(opdef, arg, value, attrs, None))
    return flat


def _convert_one(opdef, arg, value, attrs, first_of_list, const_name=None):
    want = arg.fixed if arg.fixed is not None else attrs.get(arg.type_attr)
    if want is not None and not isinstance(want, dtypes.DType):
        want = dtypes.as_dtype(want)
    if isinstance(value, Tensor):
        tensor = value
    else:
        if (want is None and arg.default is not None and arg.default != dtypes.float32
                and isinstance(value, (list, tuple)) and not value):
            # TF's quirk, kept so graphs match: an empty list is first made a float32 Const, which stays
            # in the graph unused, and the input gets a second Const ("Reshape/shape_1" for a reshape to [])
            constant(value, name=const_name or arg.name)
        try:
            tensor = convert_to_tensor(value, dtype=want, name=const_name or arg.name, as_ref=arg.is_ref,
                                       preferred_dtype=arg.default)
        except (TypeError, ValueError) as e:
            if want is None or isinstance(value, Tensor):
                raise
            got = getattr(value, "dtype", None)
            if isinstance(got, dtypes.DType):
                raise TypeError("Input '%s' of '%s' Op has type %s that does not match type %s of argument "
                                "'%s'." % (arg.name, opdef.type, got.base_dtype.name, want.name,
                                           _first_arg_of(opdef, arg))) from None
            raise
    if arg.is_ref and not tensor._dtype.is_ref_dtype:
        raise TypeError("'%s' Op requires that input '%s' be a mutable tensor (e.g.: a tf.Variable)" %
                        (opdef.type, arg.name))
    base = tensor._dtype.base_dtype
    if want is None:
        if arg.type_attr is not None:
            attrs[arg.type_attr] = base
    elif base is not want.base_dtype and base != want.base_dtype:   # the same dtype object: equal, at once
        if arg.fixed is not None:
            raise TypeError("Input '%s' of '%s' Op has type %s that does not match expected type of %s." %
                            (arg.name, opdef.type, base.name, want.name))
        raise TypeError("Input '%s' of '%s' Op has type %s that does not match type %s of argument '%s'." %
                        (arg.name, opdef.type, base.name, want.base_dtype.name, _first_arg_of(opdef, arg)))
    return tensor


def _first_arg_of(opdef, arg):
    for other in opdef.inputs:
        if other.type_attr == arg.type_attr:
            return other.name
    return arg.name


# --- conversion of Python values --------------------------------------------------------------------

_ARRAY_HOOKS = {}


def register_array_hooks(autopack, partial_shape):
    """Called once by graphlab/ops/array_ops.py, which sits above this module (as TF's array_ops registers
    its autopacking conversion): ``autopack(values, dtype, name)`` packs a list holding tensors into one
    (``tf.constant``-like lists of tensors become a Pack), and ``partial_shape(tensor)`` says what is known
    of a shape tensor at build time (for shape errors' "computed as partial shapes")."""
    _ARRAY_HOOKS.update(autopack=autopack, partial_shape=partial_shape)


def convert_to_tensor(value, dtype=None, name=None, preferred_dtype=None, as_ref=False, dtype_hint=None):
    """``tf.convert_to_tensor``: Tensors pass through, Variables give their value (or handle with
    ``as_ref``), lists holding tensors are stacked, anything else becomes a Const op."""
    if dtype is not None:
        dtype = dtypes.as_dtype(dtype)
    preferred_dtype = preferred_dtype or dtype_hint
    if isinstance(value, Tensor):
        if dtype is not None and not dtype.is_compatible_with(value._dtype):
            raise ValueError("Tensor conversion requested dtype %s for Tensor with dtype %s: %r" %
                             (dtype.name, value._dtype.name, value))
        return value
    kind = type(value)
    to_tensor = getattr(value, "_to_tensor", None) if kind is not float and kind is not int else None
    if to_tensor is not None:
        tensor = to_tensor(dtype=dtype, name=name, as_ref=as_ref)
        if dtype is not None and not dtype.is_compatible_with(tensor._dtype):
            raise ValueError("Tensor conversion requested dtype %s for Tensor with dtype %s: %r" %
                             (dtype.name, tensor._dtype.name, tensor))
        return tensor
    if isinstance(value, Operation):
        raise TypeError("Can't convert Operation '%s' to Tensor (target dtype=%s, name=%r, as_ref=%s)" %
                        (value.name, dtype.name if dtype else None, name, as_ref))
    if isinstance(value, (tensor_shape.TensorShape, tensor_shape.Dimension)):
        return _shape_as_tensor(value, dtype, name)
    if isinstance(value, (list, tuple)) and _holds_tensors(value):
        return _ARRAY_HOOKS["autopack"](value, dtype, name or "packed")
    if dtype is None and preferred_dtype is not None:
        try:
            return constant(value, dtype=preferred_dtype, name=name or "Const")
        except (TypeError, ValueError):
            pass
    return constant(value, dtype=dtype, name=name or "Const")


def _shape_as_tensor(shape, dtype, name):
    """A fully known TensorShape (or one Dimension) as the int32 (or int64) Const TF's registered
    conversions make, named ``shape_as_tensor``; TF's errors for unknown sizes and other dtypes."""
    whole = isinstance(shape, tensor_shape.TensorShape)
    if whole and not shape.is_fully_defined():
        raise ValueError("Cannot convert a partially known TensorShape %s to a Tensor." % shape)
    if not whole and shape.value is None:
        raise ValueError("Cannot convert unknown Dimension %s to a Tensor." % shape)
    sizes = shape.as_list() if whole else shape.value
    if dtype is None:
        dtype = dtypes.int64 if whole and any(s > 2 ** 31 - 1 for s in sizes) else dtypes.int32
    elif dtype not in (dtypes.int32, dtypes.int64):
        raise TypeError("Cannot convert %s %s to dtype %s. Allowed dtypes are tf.int32 and tf.int64."
                        % ("TensorShape" if whole else "Dimension", shape, dtype))
    return constant(sizes, dtype=dtype, name=name or "shape_as_tensor")


def _holds_tensors(value):
    for v in value:
        if isinstance(v, Tensor) or hasattr(v, "_to_tensor"):
            return True
        if isinstance(v, (list, tuple)) and _holds_tensors(v):
            return True
    return False


def to_numpy(value, dtype=None):
    """A Python/numpy value as the numpy array a Const holds, with TF's defaults: Python floats become
    float32 and ints int32 (int64 if too large), numpy arrays keep their dtype, text becomes bytes."""
    kind = type(value)
    if kind is float or kind is int:
        fast = _python_number(value, kind, dtype)
        if fast is not None:
            return fast
    if value is None:
        raise ValueError("None values not supported.")
    if dtype is not None:
        dtype = dtypes.as_dtype(dtype).base_dtype
        if dtype == dtypes.string:
            return _strings(value)
        if not isinstance(value, (np.ndarray, np.generic)):     # numpy values are cast, as in TF
            _check_compatible(value, dtype)
            if dtype.is_integer:
                value = _dimension_sizes(value)
        arr = np.asarray(value)
        if arr.dtype.kind in "SUO" and arr.size:
            raise TypeError("Expected %s, but got %r of type '%s'." % (
                dtype.name, _first(value), type(_first(value)).__name__))
        target = np.dtype(dtype.as_numpy_dtype)
        if target.kind in "iu" and arr.size and arr.dtype.kind in "iuf":
            info = np.iinfo(target)
            if arr.min() < info.min or arr.max() > info.max:
                raise ValueError("Can't convert Python int to %s: value out of range" % dtype.name)
        return arr.astype(target, copy=False)
    if isinstance(value, np.ndarray):
        if value.dtype.kind in "SUO":
            return _strings(value)
        return value
    if isinstance(value, np.generic):
        return np.asarray(value)
    arr = np.asarray(value)
    kind = arr.dtype.kind
    if kind == "f":
        return arr.astype(np.float32)
    if kind in "iu":
        if arr.size and (arr.min() < -2 ** 31 or arr.max() >= 2 ** 31):
            return arr.astype(np.int64)
        return arr.astype(np.int32)
    if kind == "c":
        return arr.astype(np.complex128)
    if kind in "SU":
        return _strings(value)
    if kind == "O":
        raise TypeError("Failed to convert elements of %s to Tensor. Consider casting elements to a supported "
                        "type. See https://www.tensorflow.org/api_docs/python/tf/dtypes for supported TF dtypes."
                        % _short(value))
    return arr


def _accepted_types(dtype):
    """The Python/numpy element types TF's ``_AssertCompatible`` lets into a constant of ``dtype`` (bools are
    integers, integers are reals; a shape's ``Dimension`` counts as an integer), or None: not checked."""
    if dtype == dtypes.bool:
        return (bool, np.bool_)
    if dtype.is_integer:
        return (numbers.Integral, np.integer, tensor_shape.Dimension)
    if dtype.is_floating:
        return (numbers.Real, np.integer, np.floating)
    if dtype.is_complex:
        return (numbers.Complex, np.number)
    return None


def _check_compatible(value, dtype):
    """TypeError naming the first element (in nest.flatten order) ``dtype`` does not accept, as TF words it."""
    accepted = _accepted_types(dtype)
    if accepted is None:
        return
    pending = [value]
    while pending:
        v = pending.pop()
        if isinstance(v, (list, tuple)):
            pending.extend(reversed(v))
        elif isinstance(v, dict):
            pending.extend(v[k] for k in sorted(v, reverse=True))
        elif not (isinstance(v, accepted) or isinstance(v, np.ndarray) and issubclass(v.dtype.type, accepted)):
            raise TypeError("Expected %s, but got %s of type '%s'." % (dtype.name, v, type(v).__name__))


def _dimension_sizes(value):
    """``value`` with each ``Dimension`` replaced by its size: TF accepts Dimensions where an integer tensor
    is made (``tf.reshape(x, [-1, pool.shape[1] * pool.shape[2]])`` in many tutorials), and only there; an
    unknown one fails as Python's ``int(Dimension(None))`` does in TF."""
    if isinstance(value, tensor_shape.Dimension):
        if value.value is None:
            raise TypeError("__int__ returned non-int (type NoneType)")
        return value.value
    if isinstance(value, (list, tuple)) and any(isinstance(v, (tensor_shape.Dimension, list, tuple)) for v in value):
        return [_dimension_sizes(v) for v in value]
    return value


_NUMBER_CONSTS = {}    # (Python type, number, dtype) -> a Const's attrs, shared by every Const of it


def _number_const_attrs(value, kind, dtype):
    """The attrs of a Const holding the Python number ``value`` (as ``dtype``, or TF's default for it), one
    read-only mapping and one read-only array for every Const of that number: ``x = x + 1`` in a loop makes
    thousands of Consts of 1.0, each otherwise an array and an attrs dict of its own (the dict one more
    object for the garbage collector to walk). None when the general path must decide."""
    key = (kind, value, dtype, math.copysign(1.0, value) if kind is float else 0)   # 0.0 and -0.0 apart
    attrs = _NUMBER_CONSTS.get(key)
    if attrs is None:
        arr = _python_number(value, kind, dtype)
        if arr is None:
            return None
        arr.setflags(write=False)
        arr = arr.view()    # a view of a read-only array cannot be made writable again: no one can change it
        attrs = types.MappingProxyType({"value": arr, "dtype": dtypes._BY_NUMPY[arr.dtype] if dtype is None
                                        else dtype})
        if value == value and len(_NUMBER_CONSTS) < _MAX_NUMBER_CONSTS:   # NaN is never found again
            _NUMBER_CONSTS[key] = attrs
    return attrs


_INT_LIST_CONSTS = {}   # (tuple of ints, dtype) -> a Const's attrs, shared by every Const of it


def _int_list_const_attrs(value, dtype):
    """The attrs of a Const holding a short list of Python ints (a reduction's axes, a reshape's target
    shape: a gradient builds one per op it differentiates), shared as ``_number_const_attrs`` shares a
    number's; int32 unless a value needs int64, as ``to_numpy``. None when the general path must decide
    (other element or requested types, values out of range)."""
    for v in value:
        if type(v) is not int:
            return None
    if dtype is not None:
        dtype = dtypes.as_dtype(dtype).base_dtype
        if dtype is not dtypes.int32 and dtype is not dtypes.int64:
            return None
    key = (tuple(value), dtype)
    attrs = _INT_LIST_CONSTS.get(key)
    if attrs is None:
        low, high = min(value), max(value)
        fits32 = _INT32_RANGE[0] <= low and high <= _INT32_RANGE[1]
        if dtype is None:
            dtype = dtypes.int32 if fits32 else dtypes.int64
        if not (fits32 or dtype is dtypes.int64 and -2 ** 63 <= low and high < 2 ** 63):
            return None
        arr = np.array(value, dtype=dtype.as_numpy_dtype)
        arr.setflags(write=False)
        attrs = types.MappingProxyType({"value": arr.view(), "dtype": dtype})
        if len(_INT_LIST_CONSTS) < _MAX_NUMBER_CONSTS:
            _INT_LIST_CONSTS[key] = attrs
    return attrs


_MAX_NUMBER_CONSTS = 4096
_INT32_RANGE = (-2 ** 31, 2 ** 31 - 1)


def _python_number(value, kind, dtype):
    """Fast path for the commonest constant, a bare Python int or float (as in ``x + 1``); None when the
    general path must decide (e.g. to raise its error for 2.5 as int32)."""
    if dtype is None:
        if kind is float:
            return np.array(value, dtype=np.float32)
        if _INT32_RANGE[0] <= value <= _INT32_RANGE[1]:
            return np.array(value, dtype=np.int32)
        return None
    dtype = dtypes.as_dtype(dtype).base_dtype
    if dtype in dtypes._FLOATING and dtype._np is not None:
        return np.array(value, dtype=dtype._np)
    if kind is int and dtype in (dtypes.int32, dtypes.int64):
        info = np.iinfo(dtype.as_numpy_dtype)
        if info.min <= value <= info.max:
            return np.array(value, dtype=dtype.as_numpy_dtype)
    return None


def _strings(value):
    arr = np.asarray(value, dtype=object)
    flat = [v.encode("utf-8", "surrogateescape") if isinstance(v, str) else bytes(v) if not isinstance(v, bytes) else v
            for v in arr.reshape(-1)]
    out = np.empty(len(flat), dtype=object)
    out[:] = flat
    return out.reshape(arr.shape)


def _first(value):
    while isinstance(value, (list, tuple, np.ndarray)) and len(value):
        value = value[0]
    return value.item() if isinstance(value, np.generic) else value


def _short(value):
    text = str(value)
    return text if len(text) < 80 else text[:77] + "..."


def constant(value, dtype=None, shape=None, name="Const", verify_shape=False):
    """``tf.constant``: a Const op holding ``value`` (reshaped or filled to ``shape`` when given)."""
    kind = type(value)
    if (kind is float or kind is int) and shape is None:   # ``x + 1``'s constant, without the general path
        if dtype is not None:
            dtype = dtypes.as_dtype(dtype).base_dtype
        attrs = _number_const_attrs(value, kind, dtype)
        if attrs is not None:
            return build_op("Const", (), attrs=attrs, name=name)._outputs[0]
    elif (kind is list or kind is tuple) and shape is None and 0 < len(value) <= 16:   # axes, shapes
        attrs = _int_list_const_attrs(value, dtype)
        if attrs is not None:
            return build_op("Const", (), attrs=attrs, name=name)._outputs[0]
    arr = to_numpy(value, dtype)
    if shape is not None:
        shape = [int(d) for d in tensor_shape.as_shape(shape).as_list()]
        count = int(np.prod(shape)) if shape else 1
        if verify_shape and list(arr.shape) != shape:
            raise TypeError("Expected Tensor's shape: %s, got %s." % (tuple(shape), arr.shape))
        if arr.size == 1:     # one value broadcast (read-only, stored as TF stores it: the value and a shape)
            arr = np.broadcast_to(arr.reshape(()).copy(), shape)
        elif arr.size == count:
            arr = arr.reshape(shape)
        elif arr.size > count:
            raise ValueError("Too many elements provided. Takes at most %d, but got %d." % (count, arr.size))
        elif arr.size == 0:   # TF fills with zeros (empty strings)
            arr = np.zeros(shape, dtype=arr.dtype) if arr.dtype.kind != "O" else np.full(shape, b"", object)
        else:                 # TF repeats the last element to fill the shape: [1, 2, 3] as [2, 2] -> [[1, 2], [3, 3]]
            flat = arr.reshape(-1)
            arr = np.concatenate([flat, np.repeat(flat[-1:], count - flat.size)]).reshape(shape)
    if dtype is not None and not isinstance(value, np.ndarray):
        dt = dtypes.as_dtype(dtype).base_dtype          # to_numpy made arr of exactly this type
    else:
        dt = dtypes.as_dtype(arr.dtype) if arr.dtype.kind != "O" else dtypes.string
    if isinstance(value, np.ndarray) and np.may_share_memory(arr, value):
        arr = arr.copy()        # the graph keeps its own value: changing the user's array later changes nothing
    arr.setflags(write=False)   # a Const's value is shared by every run; a fetch gets a copy (Session)
    return build_op("Const", (), attrs={"value": arr, "dtype": dt}, name=name)._outputs[0]


# --- output rules shared by many ops ----------------------------------------------------------------

def same_as_input(index=0):
    """One output with the dtype and shape of input ``index`` (identity-like and elementwise unary ops)."""
    def outputs(op):
        t = op._inputs[index]
        return [(t._dtype.base_dtype, t._shape)]
    return outputs


def broadcast_shape(a, b):
    """Static numpy-style broadcasting of two TensorShapes; ValueError when sizes clash."""
    if b._dims == () or a is b:   # tensor op scalar, the commonest case
        return a
    if a._dims == ():
        return b
    if a.ndims is None or b.ndims is None:
        return tensor_shape.UNKNOWN
    da, db = a.as_list(), b.as_list()
    n = max(len(da), len(db))
    da, db = [1] * (n - len(da)) + da, [1] * (n - len(db)) + db
    out = []
    for x, y in zip(da, db):
        if x == 1:
            out.append(y)
        elif y == 1:
            out.append(x)
        elif x is None or y is None:
            out.append(x if y is None else y)
        elif x == y:
            out.append(x)
        else:
            raise ValueError("Dimensions must be equal, but are %d and %d" % (x, y))
    return tensor_shape.TensorShape(out)


def broadcast_outputs(dtype=None):
    """One output whose shape broadcasts all inputs; dtype of input 0 unless ``dtype`` is given."""
    def outputs(op):
        shape = op._inputs[0]._shape
        for t in op._inputs[1:]:
            shape = broadcast_shape(shape, t._shape)
        return [(dtype or op._inputs[0]._dtype.base_dtype, shape)]
    return outputs


def no_outputs(op):
    return []


def const_value(tensor):
    """The value of ``tensor`` when it is known at build time (a Const, or Shape of a known shape), else
    None. Shape rules use it, e.g. to know the target of a Reshape."""
    op = tensor._op
    if op._type == "Const":
        return op._attrs["value"]
    if op._type == "Shape" and op._inputs[0]._shape.is_fully_defined():
        return np.array(op._inputs[0]._shape.as_list(), dtype=tensor._dtype.as_numpy_dtype)
    if op._type in ("Identity", "Cast") and op._inputs:
        value = const_value(op._inputs[0])
        return None if value is None else value.astype(tensor._dtype.as_numpy_dtype)
    if op._type == "Pack" and all(const_value(t) is not None for t in op._inputs):
        return np.stack([const_value(t) for t in op._inputs], axis=op._attrs.get("axis", 0))
    if op._type == "BroadcastArgs":   # e.g. tf.linspace's and tf.random.gamma's broadcast of known shapes
        shapes = [const_value(t) for t in op._inputs]
        if all(v is not None for v in shapes):
            try:
                out = np.broadcast_shapes(*[tuple(int(d) for d in v) for v in shapes])
            except ValueError:
                return None
            return np.array(out, dtype=tensor._dtype.as_numpy_dtype)
    if op._type == "Range":      # e.g. the axes of a reduction over every axis of a known rank
        bounds = [const_value(t) for t in op._inputs]
        if all(b is not None for b in bounds):
            return np.arange(*[b.item() for b in bounds]).astype(tensor._dtype.as_numpy_dtype)
    return None
