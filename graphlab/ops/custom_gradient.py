"""Gradients the user defines: ``tf.RegisterGradient``, ``tf.NotDifferentiable`` / ``tf.no_gradient``,
``Graph.gradient_override_map`` (whose choice each op records as its ``_gradient_op_type`` attr) and
``tf.custom_gradient``, with TF1's graph-mode semantics.

A registered gradient lives under a name: an op type (for an op graphlab has no rule for), or any name an
override map or a custom gradient points ops to. Names are registered once, as in TF: a second
registration, or one for an op type that already has its rule, is TF's KeyError. ``gradient_function(op)``
is what ``tf.gradients`` asks: the op's recorded ``_gradient_op_type`` if it has one, else its type.

``tf.custom_gradient`` routes the function's results, arguments and the variables it reads through one
IdentityN op created under an override map, so that op's gradient is the user's ``grad_fn``.
"""
import inspect
import itertools
import traceback

from graphlab.framework import graph as graph_mod
from graphlab.framework import registry
from graphlab.framework.registry import NOT_DIFFERENTIABLE, build_op, register_op

_GRADIENTS = {}            # name -> (function or None for "not differentiable", where it was registered)
_uids = itertools.count(1)


def _registered_where(name):
    """(function name, file, line) of an existing registration of ``name``, or None."""
    if name in _GRADIENTS:
        return _GRADIENTS[name][1]
    try:
        opdef = registry.get_opdef(name)
    except KeyError:
        return None
    rule = opdef.grad
    if rule is None:
        return None        # an op graphlab has no rule for yet: the user may give it one
    code = getattr(rule, "__code__", None)
    if code is None:       # NOT_DIFFERENTIABLE
        return ("no_gradient", registry.__file__, 0)
    return (rule.__name__, code.co_filename, code.co_firstlineno)


def _register(name, fn):
    where = _registered_where(name)
    if where is not None:
        raise KeyError("Registering two gradient with name '%s'! (Previous registration was in %s %s:%d)" %
                       (name, where[0], where[1], where[2]))
    caller = traceback.extract_stack(limit=3)[0]
    _GRADIENTS[name] = (fn, (caller.name, caller.filename, caller.lineno))


class RegisterGradient:
    """``@tf.RegisterGradient("OpType")``: ``fn(op, *output_grads)`` returns one gradient per input."""

    __slots__ = ["_op_type"]

    def __init__(self, op_type):
        if not isinstance(op_type, str):
            raise TypeError("op_type must be a string")
        self._op_type = op_type

    def __call__(self, f):
        _register(self._op_type, f)
        return f


def no_gradient(op_type):
    """``tf.no_gradient`` (``tf.NotDifferentiable``): ops of this type pass no gradient to their inputs."""
    if not isinstance(op_type, str):
        raise TypeError("op_type must be a string")
    _register(op_type, None)


NotDifferentiable = NoGradient = no_gradient


def gradient_function(op):
    """The rule ``tf.gradients`` calls for ``op``: (found, rule). ``found`` is False when nothing is
    registered under the op's gradient name; ``rule`` None means no gradient flows through the op."""
    return gradient_rule(op)[:2]


def gradient_rule(op):
    """``gradient_function(op)`` and whether the rule came through ``tf.RegisterGradient`` (or
    ``tf.custom_gradient``), so may be user code, rather than from graphlab's own registry."""
    name = op._attrs.get("_gradient_op_type") or op._type
    if isinstance(name, bytes):
        name = name.decode("utf-8")
    if name in _GRADIENTS:
        return True, _GRADIENTS[name][0], True
    try:
        rule = registry.get_opdef(name).grad
    except KeyError:
        return False, None, False
    if rule is None:
        return False, None, False
    return True, (None if rule is NOT_DIFFERENTIABLE else rule), False


def is_differentiable(op):
    """TF's op_selector.is_differentiable: a gradient is registered for the op's type and is not None."""
    name = op._type
    if name in _GRADIENTS:
        return _GRADIENTS[name][0] is not None
    try:
        rule = registry.get_opdef(name).grad
    except KeyError:
        return False
    return callable(rule)


# -------------------------------------------------------------------------------------------- IdentityN
register_op(
    "IdentityN",
    inputs=["input: list"],
    outputs=lambda op: [(t._dtype.base_dtype, t._shape) for t in op._inputs],
    kernel=lambda ctx, *values: tuple(values),
    grad=lambda op, *grads: list(grads),
    doc="Each input passed through unchanged (how tf.custom_gradient attaches a gradient rule).")


def identity_n(tensors, name=None):
    """``tf.identity_n``: one IdentityN op passing every tensor through."""
    tensors = [registry.convert_to_tensor(t) for t in tensors]
    return list(build_op("IdentityN", [tensors], attrs={"T": [t.dtype.base_dtype for t in tensors]},
                         name=name).outputs)


# ------------------------------------------------------------------------------------------ custom_gradient
def custom_gradient(f=None):
    """``@tf.custom_gradient``: ``f(*args)`` returns ``(result, grad_fn)``; gradients through the result are
    ``grad_fn(*result_grads)`` (plus ``variables=`` when f reads variables: then it returns
    ``(input_grads, variable_grads)``). Graph mode, as TF1: positional tensor arguments only."""
    if f is None:
        return custom_gradient

    def decorated(*args, **kwargs):
        if kwargs:
            raise ValueError("The custom_gradient decorator currently supports keywords arguments only when "
                             "eager execution is enabled.")
        return _graph_mode_call(f, args)
    decorated.__name__ = getattr(f, "__name__", "custom_gradient")
    decorated.__doc__ = f.__doc__
    decorated.__wrapped__ = f
    return decorated


def _graph_mode_call(f, args):
    from graphlab.ops.variable_scope import get_variable_scope
    name = "CustomGradient-%d" % next(_uids)
    args = _map(lambda a: registry.convert_to_tensor(a), args)
    scope = get_variable_scope()
    before = {id(v) for v in scope.global_variables() + scope.local_variables()}
    result, grad_fn = f(*args)
    flat_args = _flatten(args)
    flat_result = _flatten(result)
    if any(id(v) not in before for v in scope.global_variables() + scope.local_variables()):
        raise TypeError("All variables used by a function wrapped with @custom_gradient must be "
                        "`ResourceVariable`s. Ensure that no `variable_scope` is created with "
                        "`use_resource=False`.")
    graphs = {t.graph for t in flat_result if hasattr(t, "graph")}
    if len(graphs) > 1:
        raise ValueError("All custom_gradient outputs should be from the same graph")
    inputs = [t for t in flat_args if not graphs or t.graph in graphs]
    variables = sorted(_variables_read(inputs, flat_result), key=lambda v: v.name)
    spec = inspect.getfullargspec(grad_fn)
    takes_variables = "variables" in spec.args or "variables" in spec.kwonlyargs or spec.varkw
    if variables and not takes_variables:
        raise TypeError("@tf.custom_gradient grad_fn must accept keyword argument 'variables', since function "
                        "uses variables: %s" % (variables,))
    n_results = len(flat_result)

    def rule(op, *result_grads):
        grads = list(result_grads[:n_results])
        if variables:
            input_grads, variable_grads = grad_fn(*grads, variables=variables)
            if len(variable_grads) != len(variables):
                raise ValueError("Must return gradient for each variable from @custom_gradient grad_fn.")
        else:
            input_grads, variable_grads = grad_fn(*grads), []
        return [None] * n_results + _flatten(input_grads) + list(variable_grads)

    RegisterGradient(name)(rule)
    graph = graph_mod.get_default_graph()
    with graph.gradient_override_map({"IdentityN": name}):
        passed = identity_n(flat_result + flat_args + variables)
    return _pack(result, passed[:n_results])


def _variables_read(inputs, outputs):
    """TF's _get_dependent_variables: the global variables (trainable ones when names repeat) whose
    VariableV2 op lies between ``inputs`` and ``outputs`` on a differentiable path. Like TF, it first gives
    each output an Identity (left in the graph)."""
    from graphlab.framework.graph import GraphKeys
    from graphlab.ops import array_ops
    seeds = [array_ops.identity(t)._op for t in outputs]
    stop = set(inputs)
    seen, wave, found = set(seeds), list(seeds), []
    while wave:
        following = []
        for op in wave:
            if not is_differentiable(op):
                continue
            for t in op._inputs:
                if t in stop or t._op in seen:
                    continue
                seen.add(t._op)
                following.append(t._op)
                if t._op._type in ("VariableV2", "VarHandleOp"):
                    found.append(t._op)
        wave = following
    graph = graph_mod.get_default_graph()
    variables = []
    for var_op in found:    # TF's get_variable_by_name, with its errors
        named = [v for v in graph.get_collection(GraphKeys.GLOBAL_VARIABLES) if v.op.name == var_op.name]
        if not named:
            raise ValueError("Unsuccessful at finding variable %s." % var_op.name)
        named = [v for v in named if v.trainable]
        if len(named) > 1:
            raise ValueError("Unsuccessful at finding trainable variable %s. Number of candidates: %d. "
                             "Candidates: %s" % (var_op.name, len(named), named))
        variables.extend(named)
    return variables


def _flatten(structure):
    if isinstance(structure, (list, tuple)):
        return [x for item in structure for x in _flatten(item)]
    return [structure]


def _map(fn, structure):
    if isinstance(structure, (list, tuple)):
        return type(structure)(_map(fn, item) for item in structure)
    return fn(structure)


def _pack(structure, flat):
    """``flat`` tensors in the nesting of ``structure`` (TF's nest.pack_sequence_as)."""
    it = iter(flat)

    def build(s):
        if isinstance(s, (list, tuple)):
            items = [build(x) for x in s]
            return type(s)(*items) if hasattr(s, "_fields") else type(s)(items)
        return next(it)
    return build(structure)


__all__ = ["RegisterGradient", "no_gradient", "NotDifferentiable", "NoGradient", "custom_gradient", "identity_n",
           "gradient_function"]
