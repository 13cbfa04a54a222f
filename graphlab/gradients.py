"""Symbolic differentiation: ``gradients(ys, xs)`` adds gradient ops to the graph, under a ``gradients/`` name
scope, by walking back from ``ys`` to ``xs`` and calling each op's gradient rule from the registry.

The walk follows TensorFlow's own order (a queue of ops whose consumers are all done), so the ops it adds get
the names TensorFlow gives them: ``gradients/grad_ys_0``, ``gradients/add_grad/Sum``, ``gradients/AddN``.

Gradient rules return gradients shaped like the op's output; for broadcasting binary ops this module undoes
the broadcasting in one place (``reduce_broadcast``) with Shape, BroadcastGradientArgs, Sum and Reshape.
"""
import collections
import sys

import numpy as np

from graphlab.framework import dtypes, graph as graph_mod, source_info, tensor_shape
from graphlab.framework.indexed_slices import IndexedSlices
from graphlab.framework.operation import Operation
from graphlab.framework.tensor import Tensor
from graphlab.framework import control_flow_util, registry
from graphlab.ops import array_ops, custom_gradient, math_ops
from graphlab.framework.registry import NOT_DIFFERENTIABLE, build_op, register_op

# -------------------------------------------------------------------------------- BroadcastGradientArgs


def _bga_outputs(op):
    return [(op._inputs[0]._dtype.base_dtype, tensor_shape.TensorShape([None]))] * 2


def _bga_kernel(ctx, s0, s1):
    """For shapes s0, s1 of a broadcasting op's inputs: the axes of the result each input was stretched
    along (those its gradient must be summed over)."""
    s0, s1 = [int(d) for d in s0], [int(d) for d in s1]
    n = max(len(s0), len(s1))
    p0, p1 = [1] * (n - len(s0)) + s0, [1] * (n - len(s1)) + s1
    r0, r1 = [], []
    for axis, (a, b) in enumerate(zip(p0, p1)):
        if a == b:
            if a == 1:   # TF reduces size-1 axes of both (harmless, keeps shapes consistent)
                r0.append(axis)
                r1.append(axis)
            continue
        if a == 1:
            r0.append(axis)
        elif b == 1:
            r1.append(axis)
        else:
            from graphlab.formats.errors import InvalidArgumentError
            raise InvalidArgumentError(None, ctx.op, "Incompatible shapes: %s vs. %s" % (s0, s1))
    dt = ctx.attrs["T"].as_numpy_dtype
    return np.array(r0, dtype=dt), np.array(r1, dtype=dt)


register_op(
    "BroadcastGradientArgs",
    inputs=["s0: T", "s1: T"],
    outputs=_bga_outputs,
    kernel=_bga_kernel,
    grad=NOT_DIFFERENTIABLE,
    doc="Reduction axes that undo numpy broadcasting of two shapes (used by gradients).")


def broadcast_gradient_args(s0, s1, name=None):
    op = build_op("BroadcastGradientArgs", [s0, s1], name=name)
    return op.outputs[0], op.outputs[1]


# ----------------------------------------------------------------------------- central un-broadcasting

BROADCASTING_OPS = {
    "Add", "AddV2", "Sub", "Mul", "RealDiv", "Div", "DivNoNan", "FloorDiv", "FloorMod", "TruncateDiv",
    "Maximum", "Minimum", "Pow", "SquaredDifference", "Atan2", "Xdivy", "Xlogy", "Xlog1py", "NextAfter", "MulNoNan", "Mod", "Complex",
    "Select", "SelectV2",
}
"""Op types whose inputs broadcast against each other: their rules return output-shaped gradients and
``reduce_broadcast`` sums each back to its input's shape. Add an op type here when registering one."""


def _fully_equal(x, y, grad):
    if not isinstance(grad, Tensor):     # IndexedSlices: TF's shortcut is for dense gradients only
        return False
    sx, sy, sg = x._shape, y._shape, grad._shape
    return (sx.is_fully_defined() and sy.is_fully_defined() and sg.is_fully_defined()
            and sx.as_list() == sy.as_list() == sg.as_list())


def _static_axes(x_shape, y_shape):
    """TF's ``_InferGradientReductionAxes``: reduction axes known at build time, or (None, None)."""
    if x_shape.ndims is None or y_shape.ndims is None:
        return None, None
    xs, ys = x_shape.as_list(), y_shape.as_list()
    rank = max(len(xs), len(ys))
    x_axes, y_axes = [], []
    for axis in range(rank):
        xd = 1 if axis < rank - len(xs) else xs[axis - (rank - len(xs))]
        yd = 1 if axis < rank - len(ys) else ys[axis - (rank - len(ys))]
        if xd == 1 and yd != 1:
            x_axes.append(axis)
        elif yd == 1 and xd != 1:
            y_axes.append(axis)
        elif xd is None or yd is None:
            return None, None
    return x_axes, y_axes


def _shape(x, out_type=dtypes.int32):
    """``tf.shape`` (a Const named Shape when the static shape is fully known, as TF builds it)."""
    return array_ops.shape(x, out_type=out_type)


# TF's rules for these ops return the gradient untouched when x, y and grad have one fully known shape;
# the others always go through SmartBroadcastGradientArgs (and so build the two Shape constants).
SAME_SHAPE_SHORTCUT = frozenset(["Add", "AddV2", "Sub", "Mul", "MulNoNan", "SquaredDifference"])


def reduce_broadcast(x, y, gx, gy, op_type="AddV2", incoming=None):
    """Sum the output-shaped gradients ``gx``, ``gy`` of a broadcasting op back to the shapes of ``x`` and
    ``y`` (TF's SmartBroadcastGradientArgs: static axes when shapes allow, BroadcastGradientArgs if not).
    ``incoming`` is the gradient the op's rule was given: when it was an IndexedSlices, TF's same-shape
    shortcut does not apply (and an Add/Sub hands the slices on unless they must be summed)."""
    grad = gx if gx is not None else gy
    if grad is None or op_type in SAME_SHAPE_SHORTCUT and not isinstance(incoming, IndexedSlices) and \
            _fully_equal(x, y, grad) and (op_type != "Mul" or grad.dtype.base_dtype in (dtypes.int32, dtypes.float32)):
        return gx, gy
    sx = _shape(x)
    sy = _shape(y)
    x_axes, y_axes = _static_axes(x._shape, y._shape)
    if x_axes is None or y_axes is None:
        x_axes, y_axes = broadcast_gradient_args(sx, sy)
        x_must = y_must = True
    else:
        x_must = bool(x_axes) or x._shape.ndims < y._shape.ndims
        y_must = bool(y_axes) or y._shape.ndims < x._shape.ndims
    if gx is not None and x_must:
        gx = array_ops.reshape(math_ops.reduce_sum(gx, x_axes, keepdims=True), sx)
    if gy is not None and y_must:
        gy = array_ops.reshape(math_ops.reduce_sum(gy, y_axes, keepdims=True), sy)
    return gx, gy


def _reduce_batch_dims(grad, x):
    """BatchMatMulV2 broadcasts batch dimensions: sum its output-shaped input gradient back to ``x``."""
    if grad is None or grad._shape.is_compatible_with(x._shape) and grad._shape.ndims == x._shape.ndims:
        return grad
    sx, sg = _shape(x), _shape(grad)
    axes, _ = broadcast_gradient_args(sx, sg)
    return array_ops.reshape(math_ops.reduce_sum(grad, axes, keepdims=True), sx)


# ------------------------------------------------------------------ DynamicStitch, BroadcastTo (shape helpers)


def _stitch_outputs(op):
    n = len(op._inputs) // 2
    indices, data = op._inputs[:n], op._inputs[n:]
    values = [registry.const_value(t) for t in indices]
    first, d0 = indices[0]._shape, data[0]._shape
    rest = None
    if first.ndims is not None and d0.ndims is not None:
        rest = d0.as_list()[first.ndims:]
    size = None if any(v is None for v in values) else \
        max([int(np.max(v)) + 1 for v in values if np.size(v)] or [0])
    dims = tensor_shape.TensorShape([size]).concatenate(
        tensor_shape.UNKNOWN if rest is None else tensor_shape.TensorShape(rest))
    return [(data[0]._dtype.base_dtype, dims)]


def _stitch_kernel(ctx, *args):
    n = len(args) // 2
    indices, data = [np.asarray(i) for i in args[:n]], [np.asarray(d) for d in args[n:]]
    size = max([int(i.max()) + 1 for i in indices if i.size] or [0])
    rest = data[0].shape[indices[0].ndim:]
    out = np.zeros((size,) + rest, dtype=data[0].dtype)
    for idx, d in zip(indices, data):
        out[idx.reshape(-1)] = d.reshape((-1,) + rest)
    return out


def _stitch_grad(op, grad):
    n = len(op._inputs) // 2
    return [None] * n + [array_ops.gather(grad, i) for i in op.inputs[:n]]


def _broadcast_to_outputs(op):
    value = registry.const_value(op._inputs[1])
    if value is None:
        n = op._inputs[1]._shape.num_elements() if op._inputs[1]._shape.is_fully_defined() else None
        return [(op._inputs[0]._dtype.base_dtype, tensor_shape.unknown_shape(n) if n is not None
                 else tensor_shape.UNKNOWN)]
    return [(op._inputs[0]._dtype.base_dtype, tensor_shape.TensorShape([int(d) for d in value]))]


def _broadcast_to_kernel(ctx, x, shape):
    try:
        return np.array(np.broadcast_to(x, [int(d) for d in shape]))
    except ValueError:
        from graphlab.formats.errors import InvalidArgumentError
        raise InvalidArgumentError(None, ctx.op, "Unable to broadcast tensor of shape %s to tensor of shape %s"
                                   % (list(np.shape(x)), [int(d) for d in shape])) from None


def _broadcast_to_grad(op, grad):
    """TF's rule: sum over the axes BroadcastGradientArgs finds, reshape back to the input's shape."""
    x, target = op.inputs
    sx = _shape(x, target.dtype)
    value = registry.const_value(target)
    if value is not None and target._op._type != "Const":
        target = registry.constant(np.asarray(value, target.dtype.as_numpy_dtype), name="Const")
    _, axes = broadcast_gradient_args(target, sx)
    return [array_ops.reshape(math_ops.reduce_sum(grad, axes, keepdims=True), sx), None]


register_op(
    "DynamicStitch",
    inputs=["indices: N*int32", "data: N*T"],
    outputs=_stitch_outputs,
    kernel=_stitch_kernel,
    grad=_stitch_grad,
    doc="Interleaves data[i] into one tensor at rows indices[i] (later inputs win on repeats).")
register_op(
    "BroadcastTo",
    inputs=["input: T", "shape: Tidx=int32"],
    outputs=_broadcast_to_outputs,
    kernel=_broadcast_to_kernel,
    grad=_broadcast_to_grad,
    doc="Broadcasts input to the given shape, numpy style.")


def dynamic_stitch(indices, data, name=None):
    """``tf.dynamic_stitch``."""
    return build_op("DynamicStitch", [list(indices), list(data)], name=name).outputs[0]


def broadcast_to(input, shape, name=None):  # noqa: A002
    """``tf.broadcast_to``."""
    return build_op("BroadcastTo", [input, shape], name=name).outputs[0]


# ---------------------------------------------------------- reduction gradients, built as TF builds them
# TF's _SumGrad/_MeanGrad/_MinOrMaxGrad/_ProdGrad: a Reshape + Tile fast path when shapes are static, and
# reduced_shape (Size, add, mod, range, ones, DynamicStitch) + BroadcastTo when the rank or axes are only
# known at run time. The op names match TF's, including the constant-folded helpers TF leaves behind.


def _size(t):
    """``tf.size`` (a Const named Size when the element count is known statically, as TF builds it)."""
    return array_ops.size(t)


def reduced_shape(input_shape, axes):
    """TF's ``math_ops.reduced_shape``: the reduction's output shape with reduced axes kept as 1 (numpy
    when both are known at build time, else a DynamicStitch of the input's shape and ones)."""
    known_shape, known_axes = registry.const_value(input_shape), registry.const_value(axes)
    if known_shape is not None and known_axes is not None:
        out = np.array(known_shape, dtype=np.int32)
        out[np.asarray(known_axes, dtype=np.int32)] = 1
        return out
    axes = registry.convert_to_tensor(axes)
    rank = _size(input_shape)
    axes = (axes + rank) % rank
    axes_shape = _shape(axes)
    return dynamic_stitch([array_ops.range(rank), axes],
                          [input_shape, array_ops.ones(axes_shape, dtype=dtypes.int32)])


def _static_reduced(graph, in_shape, axes):
    """TF's fully-static branch of _SumGrad: kept-dims shape and tile multiples, cached per graph. On a
    cache miss TF builds (and constant-folds) Maximum and floordiv ops that stay in the graph unused; the
    same ops are built here so the names that follow agree."""
    cache = getattr(graph, "_reduced_shape_cache", None)
    if cache is None:
        cache = {}
        graph._reduced_shape_cache = cache
    key = (tuple(in_shape), tuple(int(a) for a in np.asarray(axes).reshape(-1)))
    if key not in cache:
        kept = np.array(in_shape, dtype=np.int32)
        kept[np.asarray(key[1], dtype=np.int64)] = 1
        m = math_ops.maximum(kept, np.int32(1))
        math_ops.floordiv(np.array(in_shape, dtype=np.int32), m)
        scaling = np.array(in_shape, dtype=np.int64) // np.maximum(kept, 1)
        cache[key] = (tuple(int(d) for d in kept), tuple(int(d) for d in scaling))
    return cache[key]


def sum_grad(op, grad):
    """Gradient of Sum (and the first step of Mean's)."""
    x = op.inputs[0]
    dims = x._shape.as_list() if x._shape.ndims is not None else None
    axes = registry.const_value(op.inputs[1])
    if dims is not None and axes is not None:
        rank = len(dims)
        if np.array_equal(axes, np.arange(rank)):   # all axes
            g = array_ops.reshape(grad, [1] * rank)   # a list, as TF passes it (see registry._convert_one)
            if None not in dims:
                multiples = registry.constant(np.array(dims, np.int32), name="Const")
            else:
                multiples = array_ops.shape(x)
            return [array_ops.tile(g, multiples), None]
        if None not in dims:
            kept, scaling = _static_reduced(op.graph, dims, axes)
            g = array_ops.reshape(grad, np.array(kept, np.int32))
            return [array_ops.tile(g, np.array(scaling, np.int32)), None]
    input_shape = _shape(x)
    if not op._attrs["keep_dims"]:
        with op.graph.colocate_with(input_shape):     # as TF's _SumGrad
            kept = reduced_shape(input_shape, op.inputs[1])
        grad = array_ops.reshape(grad, kept)
    return [broadcast_to(grad, input_shape), None]


def mean_grad(op, grad):
    """Gradient of Mean: Sum's gradient divided by the number of elements averaged."""
    g = sum_grad(op, grad)[0]
    xs, ys = op.inputs[0]._shape, op.outputs[0]._shape
    if xs.is_fully_defined() and ys.is_fully_defined():
        factor = int(np.prod(xs.as_list())) // max(int(np.prod(ys.as_list())), 1)
        factor = registry.constant(np.asarray(factor, g.dtype.base_dtype.as_numpy_dtype), name="Const")
    else:
        input_shape = array_ops.shape(op.inputs[0])
        rank = _size(input_shape)
        axes = math_ops.cast(op.inputs[1], rank.dtype)
        axes = (axes + rank) % rank
        factor = math_ops.reduce_prod(array_ops.gather(input_shape, axes))
    return [math_ops.truediv(g, math_ops.cast(factor, g.dtype)), None]


def min_or_max_grad(op, grad):
    """Gradient of Max/Min: split evenly between the elements equal to the extremum."""
    input_shape = _shape(op.inputs[0])
    y = op.outputs[0]
    if not op._attrs["keep_dims"]:
        kept = reduced_shape(input_shape, op.inputs[1])
        y = array_ops.reshape(y, kept)
        grad = array_ops.reshape(grad, kept)
    else:
        kept = _shape(y)
    indicators = math_ops.cast(math_ops.equal(y, op.inputs[0]), grad.dtype)
    num_selected = array_ops.reshape(math_ops.reduce_sum(indicators, op.inputs[1]), kept)
    return [math_ops.truediv(indicators, num_selected) * grad, None]


def prod_grad(op, grad):
    """Gradient of Prod, built as TF's _ProdGrad: d prod / d x_i is the product of all the other elements,
    computed as an exclusive cumprod from the left times one from the right over the reduced axes (moved
    to the front and flattened by a Transpose and Reshape), so it is exact where x holds zeros (grad *
    prod / x would give NaN there)."""
    from graphlab.ops import scan_ops
    x = op.inputs[0]
    input_shape = _shape(x)
    reduction_indices = array_ops.reshape(op.inputs[1], [-1])
    if not op._attrs["keep_dims"]:
        grad = array_ops.reshape(grad, reduced_shape(input_shape, op.inputs[1]))
    grad = broadcast_to(grad, input_shape)
    rank = array_ops.rank(x)
    reduction_indices = math_ops.cast(reduction_indices, rank.dtype)
    reduced = (reduction_indices + rank) % rank
    idx = array_ops.range(0, rank)
    other, _ = array_ops.setdiff1d(idx, reduced, reduced.dtype)
    perm = array_ops.concat([reduced, other], 0)
    reduced_num = math_ops.reduce_prod(array_ops.gather(input_shape, reduced))
    other_num = math_ops.reduce_prod(array_ops.gather(input_shape, other))
    permuted = array_ops.transpose(x, perm)
    _set_permuted_shape(permuted, x, op.inputs[1])
    permuted_shape = _shape(permuted)
    reshaped = array_ops.reshape(permuted, (reduced_num, other_num))
    left = scan_ops.cumprod(reshaped, axis=0, exclusive=True)
    right = scan_ops.cumprod(reshaped, axis=0, exclusive=True, reverse=True)
    y = array_ops.reshape(math_ops.conj(left) * math_ops.conj(right), permuted_shape)
    out = grad * array_ops.transpose(y, array_ops.invert_permutation(perm))
    return [array_ops.reshape(out, input_shape), None]


def _set_permuted_shape(permuted, x, axes):
    """The static shape of Prod's gradient Transpose when the rank and axes are known at build time. TF's
    shape inference evaluates the small perm subgraph (range, ListDiff, concat) to get it, which makes the
    next tf.shape a Const there; graphlab computes the same permutation here."""
    value = registry.const_value(axes)
    rank = x._shape.ndims
    if value is None or not rank:
        return
    reduced = [int(a) % rank for a in np.asarray(value).reshape(-1)]
    perm = reduced + [i for i in range(rank) if i not in reduced]
    if sorted(perm) == list(range(rank)):
        dims = x._shape.as_list()
        permuted.set_shape([dims[i] for i in perm])


# ---------------------------------------------------------------------------------------- gradients()

_TRAINABLE = None


def _is_trainable(t):
    global _TRAINABLE
    if _TRAINABLE is None:
        _TRAINABLE = {dtypes.float16, dtypes.float32, dtypes.float64, dtypes.complex64, dtypes.complex128,
                      dtypes.bfloat16, dtypes.resource, dtypes.variant}
    return t._dtype.base_dtype in _TRAINABLE


def _as_list(x):
    if x is None:
        return []
    return list(x) if isinstance(x, (list, tuple)) else [x]


def _as_tensor(x, as_ref=False):
    if isinstance(x, Tensor):
        return x
    return registry.convert_to_tensor(x, as_ref=as_ref)


def gradients(ys, xs, grad_ys=None, name="gradients", colocate_gradients_with_ops=False,
              gate_gradients=False, aggregation_method=None, stop_gradients=None,
              unconnected_gradients="none"):
    """``tf.gradients``: symbolic d(sum of ys)/d(x) for each x in ``xs``, as new ops in the graph.

    Returns one tensor per x (``None`` where x does not influence ys, or zeros with
    ``unconnected_gradients="zero"``). ``stop_gradients`` are treated as constants."""
    ys = _as_list(ys)
    xs = _as_list(xs)
    stop_gradients = _as_list(stop_gradients)
    grad_ys = [None] * len(ys) if grad_ys is None else _as_list(grad_ys)
    unconnected = getattr(unconnected_gradients, "value", unconnected_gradients)
    if unconnected not in ("none", "zero"):
        raise ValueError("Unknown value for unconnected_gradients: '%s'" % unconnected)
    if len(grad_ys) != len(ys):
        raise ValueError("Length mismatch. Passed %d grad_ys for %d ys" % (len(grad_ys), len(ys)))
    values = [v for v in ys + xs + stop_gradients + grad_ys if v is not None]
    graph = graph_mod.graph_of([v for v in values if isinstance(v, (Tensor, Operation))
                                or hasattr(v, "_as_graph_element")]) if values else \
        graph_mod.get_default_graph()
    # every gradient op belongs to the line that called tf.gradients (or minimize): found once, not per op
    with graph.as_default(), graph.name_scope(name or "gradients"), source_info.pinned_from(sys._getframe(1)):
        ys = [_as_tensor(y) for y in ys]
        xs = [_as_tensor(x, as_ref=True) for x in xs]
        stop_ops = {_as_tensor(t).op for t in stop_gradients}
        grad_ys = _default_grad_ys(grad_ys, ys)
        return _gradients_helper(ys, xs, grad_ys, stop_ops, gate_gradients, unconnected)


def _default_grad_ys(grad_ys, ys):
    out = []
    for i, (y, g) in enumerate(zip(ys, grad_ys)):
        if g is None:
            if y._dtype.is_complex:
                raise TypeError("Gradients of complex tensors (%s) must set grad_ys (y.dtype = %s)" %
                                (y, y._dtype.base_dtype.name))
            if not (y._dtype.is_floating or y._dtype.is_integer):
                raise TypeError("Tensor %s with type %s must be numeric to obtain a default gradient" %
                                (y, y._dtype.base_dtype.name))
            shape = _shape(y)
            graph = y.graph
            with graph.name_scope("grad_ys_%d" % i) as scope:
                one = registry.constant(np.ones((), y._dtype.base_dtype.as_numpy_dtype), name="Const")
                out.append(array_ops.fill(shape, one, name=scope))
            continue
        g = registry.convert_to_tensor(g, dtype=y._dtype.base_dtype, name="grad_y")
        out.append(g)
    return out


def _reached_from(from_ops):
    """Ops reachable forward from ``from_ops`` through trainable tensors."""
    reached = set()
    queue = collections.deque(from_ops)
    while queue:
        op = queue.popleft()
        if op in reached:
            continue
        reached.add(op)
        for out in op._outputs:
            if _is_trainable(out):
                queue.extend(out._consumers)
    return reached


def _pending_counts(to_ops, from_ops):
    """The ops between ``from_ops`` and ``to_ops`` and, for each, how many of them read its outputs (the
    gradient walk handles an op once all its readers are done). Also the loops' gradient state, when the
    walk goes through a while loop (graphlab/ops/control_flow_state.py)."""
    from graphlab.ops import control_flow_state
    reached = _reached_from(from_ops)
    reachable_to = {op for op in to_ops if op in reached}
    between, between_list = set(), []
    queue = collections.deque(to_ops)
    while queue:
        op = queue.popleft()
        if op in reached:
            between.add(op)
            between_list.append(op)
            reached.discard(op)
            queue.extend(t._op for t in op._inputs)
    loop_state = control_flow_state.maybe_create_control_flow_state(between_list, between)
    pending = collections.defaultdict(int)
    for op in between_list:
        for t in op._inputs:
            if t._op in between:
                pending[t._op] += 1
    return reachable_to, pending, loop_state


def _gradients_helper(ys, xs, grad_ys, stop_gradient_ops, gate_gradients, unconnected):
    from graphlab.ops import control_flow_state
    to_ops = [t._op for t in ys]
    from_ops = [t._op for t in xs]
    reachable_to, pending, loop_state = _pending_counts(to_ops, from_ops)
    grads = {}
    for y, g in zip(ys, grad_ys):
        _set_grad(grads, y, g)
    queue = collections.deque()
    to_ops_set = set()
    for op in to_ops:
        if pending[op] == 0 and op not in to_ops_set and op in reachable_to:
            to_ops_set.add(op)
            queue.append(op)
    if loop_state is not None:
        for y in loop_state.process_unused_loop_exits(pending, to_ops_set):
            if _is_trainable(y):
                _set_grad(grads, y, loop_state.zeros_like_for_exit(y))
                queue.append(y._op)
    stop_ops = set(stop_gradient_ops)
    for op in from_ops:
        if all(pending[t._op] == 0 for t in op._inputs):
            stop_ops.add(op)
    graph = ys[0].graph if ys else graph_mod.get_default_graph()
    while queue:
        op = queue.popleft()
        if loop_state is not None:
            loop_state.enter_grad_while_context(op, before=True)
        out_grads = _aggregated_grads(grads, op, loop_state)
        if loop_state is not None:
            loop_state.exit_grad_while_context(op, before=True)
        has_grads = False
        for g in out_grads:      # a loop, not any(<generator>): one object less per op
            if g is not None:
                has_grads = True
                break
        rule, user_rule = _rule_for(op) if has_grads and op not in stop_ops else (None, False)
        if loop_state is not None:
            loop_state.enter_grad_while_context(op, before=False)
        if (control_flow_util.is_switch(op) and op._control_flow_context is not None
                and op._control_flow_context.is_while_context
                and op._control_flow_context is graph._control_flow_context):
            _raise_no_grad_wrt_initial_loop_value(op, from_ops)
        in_grads = None
        if rule is not None:
            for i, g in enumerate(out_grads):
                if g is None and _is_trainable(op._outputs[i]):
                    if loop_state is not None:
                        out_grads[i] = loop_state.zeros_like_in_loop(op, i)
                    else:
                        out_grads[i] = control_flow_state.zeros_like_outside_loops(op, i)
            with graph.name_scope(op.name + "_grad"):
                if user_rule:       # the ops a user's rule builds belong to the user's lines
                    with source_info.unpinned():
                        in_grads = _as_list(rule(op, *out_grads))
                else:
                    in_grads = _as_list(rule(op, *out_grads))
                if op._type in BROADCASTING_OPS and len(op._inputs) == 2 and len(in_grads) == 2:
                    in_grads = list(reduce_broadcast(op._inputs[0], op._inputs[1], *in_grads, op_type=op._type,
                                                     incoming=out_grads[0]))
                elif op._type == "BatchMatMulV2":
                    in_grads = [_reduce_batch_dims(g, x) for g, x in zip(in_grads, op._inputs)]
                elif op._type == "SelectV2" and len(in_grads) == 3:   # each branch against the output
                    z = op._outputs[0]
                    in_grads[1] = reduce_broadcast(op._inputs[1], z, in_grads[1], None, op._type)[0]
                    in_grads[2] = reduce_broadcast(op._inputs[2], z, in_grads[2], None, op._type)[0]
                if len(in_grads) != len(op._inputs):
                    raise ValueError("Num gradients %d generated for op %s do not match num inputs %d" %
                                     (len(in_grads), op.name, len(op._inputs)))
                if gate_gradients and len([g for g in in_grads if g is not None]) > 1:
                    from graphlab.ops import control_flow_ops
                    in_grads = control_flow_ops.tuple(in_grads)
        if in_grads is None:
            in_grads = [None] * len(op._inputs)
        for i, (t_in, g) in enumerate(zip(op._inputs, in_grads)):
            if g is None:
                continue
            if isinstance(g, IndexedSlices):     # handed on as is (TF checks only dense gradients' shapes)
                _set_grad(grads, t_in, g)
                continue
            g = _as_tensor(g)
            # shapes are shared (tensor_shape.TensorShape): the same object is the same shape, nothing to check
            if g._shape is not t_in._shape and t_in._dtype.base_dtype is not dtypes.resource:
                if not g._shape.is_compatible_with(t_in._shape):
                    raise ValueError("Incompatible shapes between op input and calculated input gradient. "
                                     "Forward operation: %s. Input index: %d. Original input shape: %s. "
                                     "Calculated input gradient shape: %s" % (op.name, i, t_in._shape, g._shape))
                g._shape = g._shape.merge_with(t_in._shape)
            _set_grad(grads, t_in, g)
        if loop_state is not None:
            loop_state.exit_grad_while_context(op, before=False)
        _update_pending_and_enqueue_ready(grads, op, queue, pending, loop_state)
    if loop_state is not None:
        loop_state.post_processing()
    result = []
    for x in xs:
        g = grads.get(x._op)
        g = g[x._value_index] if g else None
        if isinstance(g, list):
            g = g[0] if len(g) == 1 else None
        if g is None and unconnected == "zero":
            g = array_ops.zeros_like(x)
        result.append(g)
    return result


def _update_pending_and_enqueue_ready(grads, op, queue, pending, loop_state):
    """One reader of each of ``op``'s inputs is done; queue those inputs whose readers are all done. A loop
    Switch is queued each time (its gradient is built in two visits); a loop's Exits wait for each other,
    and those no gradient reached get zeros once one did."""
    for t in op._inputs:
        x_op = t._op
        pending[x_op] -= 1
        ready = pending[x_op] == 0
        if loop_state is not None and not ready:
            ready = pending[x_op] > 0 and control_flow_util.is_loop_switch(x_op)
        if not ready:
            continue
        if control_flow_util.is_loop_exit(x_op):
            grad_state = loop_state.get_grad_state(x_op, before=False)
            grad_state.deferred_exits.append(t)
            grad_state.pending_exits_count -= 1
            if grad_state.pending_exits_count == 0:
                has_real_grad = False
                for y in grad_state.deferred_exits:
                    if _has_any_grad(grads, y._op):
                        has_real_grad = True
                        queue.append(y._op)
                    else:
                        grad_state.unused_exits.append(y)
                for y in grad_state.unused_exits:
                    if has_real_grad and _is_trainable(y):
                        _set_grad(grads, y, loop_state.zeros_like_for_exit(y))
                    queue.append(y._op)
        else:
            queue.append(x_op)


def _has_any_grad(grads, op):
    for g in grads.get(op, ()):
        if isinstance(g, list):
            if any(x is not None for x in g):
                return True
        elif g is not None:
            return True
    return False


def _raise_no_grad_wrt_initial_loop_value(op, from_ops):
    """TF's error for a gradient with respect to the value a loop variable started from, asked through
    the loop: names the nearest of the xs behind the loop's Switch."""
    target, queue, visited = None, collections.deque([op]), set()
    while queue:
        current = queue.popleft()
        if current in visited:
            continue
        visited.add(current)
        if current in from_ops:
            target = current
            break
        queue.extend(t._op for t in current._inputs)
    raise ValueError(
        "Cannot compute gradient inside while loop with respect to op '%s'. We do not support taking the "
        "gradient wrt or through the initial value of a loop variable. Gradients can be computed through "
        "loop invariants or wrt the input parameters to the loop body." % (target or op).name)


def _rule_for(op):
    """The op's gradient rule and whether the user registered it: the one registered under its
    ``_gradient_op_type`` (set by ``gradient_override_map``) or its type; TF's LookupError when there is none."""
    found, rule, user = custom_gradient.gradient_rule(op)
    if not found:
        raise LookupError(
            "No gradient defined for operation'%s' (op type: %s). In general every operation must have an "
            "associated `@tf.RegisterGradient` for correct autodiff, which this op is lacking. If you want to "
            "pretend this operation is a constant in your program, you may insert `tf.stop_gradient`. This can "
            "be useful to silence the error in cases where you know gradients are not needed, e.g. the forward "
            "pass of tf.custom_gradient. Please see more details in "
            "https://www.tensorflow.org/api_docs/python/tf/custom_gradient." % (op.name, op._type))
    return (rule, user) if rule is not None else (_no_grads, False)


def _no_grads(op, *grads):
    return [None] * len(op._inputs)


def _set_grad(grads, t, g):
    op_grads = grads.get(t._op)
    if op_grads is None:
        op_grads = grads[t._op] = [[] for _ in t._op._outputs]
    slot = op_grads[t._value_index]
    if isinstance(slot, list):
        slot.append(g)
    else:   # a loop Switch visited once already: its aggregated gradients stand in the slots
        op_grads[t._value_index] = g


def _aggregated_grads(grads, op, loop_state=None):
    """One gradient per output of ``op``: the sum (one AddN, named in the ``gradients/`` scope) of all
    the gradients that reached that output along different paths. The sums replace the lists in ``grads``
    (a loop Switch's second visit finds its first visit's gradients there). IndexedSlices are summed as TF
    does: with any dense gradient among them, AddN densifies each (``AddN/inputs_0`` ...); among themselves
    they are concatenated (values and indices), staying sparse."""
    op_grads = grads.get(op)
    if op_grads is None:
        return [None] * len(op._outputs)
    for i, gs in enumerate(op_grads):
        if not isinstance(gs, list):          # already aggregated (a loop Switch)
            continue
        if len(gs) == 1 and gs[0] is not None:   # the commonest case: one gradient reached the output
            op_grads[i] = gs[0]
            continue
        gs = [g for g in gs if g is not None]
        if not gs:
            op_grads[i] = None
        elif len(gs) == 1:
            op_grads[i] = gs[0]
        elif all(isinstance(g, Tensor) for g in gs):
            op_grads[i] = _multi_device_add_n(gs)
        elif any(isinstance(g, Tensor) for g in gs):
            op_grads[i] = math_ops.add_n(gs)
        else:
            op_grads[i] = _concat_indexed_slices(gs)
    return op_grads


def _multi_device_add_n(tensors):
    """TF's _MultiDeviceAddN: one AddN per device of the gradients, colocated with the first of them."""
    on_device = {}
    for t in tensors:
        on_device.setdefault(t.device, []).append(t)
    summands = []
    for device in sorted(on_device):
        group = on_device[device]
        with group[0].graph.colocate_with(group[0].op, ignore_existing=True):
            summands.append(math_ops.add_n(group))
    return summands[0] if len(summands) == 1 else math_ops.add_n(summands)


def _concat_indexed_slices(slices):
    """TF's AggregateIndexedSlicesGradients for slices only: indices made one type (int64 if they mix
    int32 and int64), then values and indices concatenated along axis 0."""
    int32 = [s for s in slices if s.indices.dtype.base_dtype == dtypes.int32]
    if int32 and len(int32) != len(slices):
        slices = [IndexedSlices(s.values, math_ops.cast(s.indices, dtypes.int64), s.dense_shape)
                  if s.indices.dtype.base_dtype == dtypes.int32 else s for s in slices]
    return IndexedSlices(array_ops.concat([s.values for s in slices], axis=0),
                         array_ops.concat([s.indices for s in slices], axis=0), slices[0].dense_shape)


# ------------------------------------------------------------------------------------- numeric checks

def numeric_jacobian_check(build, inputs, feed=None, delta=1e-6):
    """Compare ``gradients`` with central differences in float64 (used by the registry-wide test).

    ``build(*placeholders)`` builds a float64 graph from placeholders shaped like ``inputs``; returns
    (max abs error, analytic grads, numeric grads) for d(sum(output * weights))/d(input_i)."""
    from graphlab.runtime.session import Session
    g = graph_mod.Graph()
    with g.as_default():
        phs = [array_ops.placeholder(_dtype_of(v), np.shape(v)) for v in inputs]
        out = build(*phs)
        rng = np.random.RandomState(0)
        if not out._shape.is_fully_defined():
            raise ValueError("numeric check needs a statically shaped output, got %s" % out)
        w = registry.constant(rng.uniform(0.5, 1.5, size=out._shape.as_list()).astype(
            out.dtype.base_dtype.as_numpy_dtype))
        loss = math_ops.reduce_sum(math_ops.multiply(out, w))
        grads = [registry.convert_to_tensor(gg) if isinstance(gg, IndexedSlices) else gg
                 for gg in gradients(loss, phs)]
        with Session(graph=g) as sess:
            def f(vals):
                return float(sess.run(loss, dict(zip(phs, vals))))
            base = [np.array(v, dtype=np.float64) if np.asarray(v).dtype.kind == "f" else np.asarray(v)
                    for v in inputs]
            d = dict(zip(phs, base))
            analytic = sess.run([gg for gg in grads if gg is not None], d)
            it = iter(analytic)
            analytic = [next(it) if gg is not None else None for gg in grads]
            numeric = []
            for i, v in enumerate(base):
                if v.dtype.kind != "f":
                    numeric.append(None)
                    continue
                num = np.zeros_like(v)
                for idx in np.ndindex(v.shape):
                    plus = [b.copy() for b in base]
                    minus = [b.copy() for b in base]
                    plus[i][idx] += delta
                    minus[i][idx] -= delta
                    num[idx] = (f(plus) - f(minus)) / (2 * delta)
                numeric.append(num)
    return analytic, numeric


def _dtype_of(v):
    arr = np.asarray(v)
    return dtypes.float64 if arr.dtype.kind == "f" else dtypes.as_dtype(arr.dtype)


__all__ = ["gradients", "reduce_broadcast", "broadcast_gradient_args", "BROADCASTING_OPS"]
