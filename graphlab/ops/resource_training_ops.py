"""The optimizers' update ops on resource variables: ResourceApplyAdam, ResourceSparseApplyMomentum, ... one for
each Apply* / SparseApply* op of training_ops.py, sparse_training_ops.py and proximal_training_ops.py.

TF defines each pair separately, but they differ only in how the variable and its slots arrive: a handle
(``resource``) instead of a reference, and no output. So each resource op here takes the reference op's
signature with every ``Ref(T)`` input made a ``resource`` input, and runs the same kernel: a ResourceVar
answers ``read`` (its own array, copied first if a ReadVariableOp has handed it out) and ``write`` as a
VariableRef does, so earlier reads keep their values while the update still runs in place. The shape rule is
the reference op's, checked against the shapes the handles' VarHandleOps declare.
"""
from graphlab.framework import tensor_shape
from graphlab.framework.registry import _REGISTRY, NOT_DIFFERENTIABLE, build_op, register_op
from graphlab.ops import proximal_training_ops, sparse_training_ops, training_ops  # noqa: F401  (registration)
from graphlab.ops.resource_variable_ops import _declared, updating


def _spec(arg):
    if arg.is_ref:
        return "%s: resource" % arg.name
    kind = arg.type_attr if arg.type_attr else arg.fixed.name
    if arg.default is not None:
        kind += "=" + arg.default.name
    return "%s: %s" % (arg.name, kind)


class _Declared:
    """A handle input seen as the variable it names (its declared dtype and shape), for a reference shape rule."""

    def __init__(self, handle, dtype):
        declared_dtype, shape = _declared(handle)
        self._dtype = (declared_dtype or dtype)._as_ref
        self._shape = shape
        self._op = handle._op
        self.dtype, self.shape = self._dtype, shape


class _OpView:
    def __init__(self, op, ref_positions):
        dtype = op._attrs.get("T")
        self._inputs = [(_Declared(t, dtype) if i in ref_positions else t) for i, t in enumerate(op._inputs)]
        self.inputs = self._inputs
        self._attrs, self._type, self.name = op._attrs, op._type, op.name
        self.type = op._type


def _shape_rule(reference):
    positions = {i for i, arg in enumerate(reference.inputs) if arg.is_ref}

    def outputs(op):
        if reference.outputs is not None:
            reference.outputs(_OpView(op, positions))
        return []
    return outputs


def _register(op_type):
    reference = _REGISTRY[op_type]
    kernel = getattr(reference.kernel, "__wrapped__", reference.kernel)
    register_op("Resource" + op_type, inputs=[_spec(a) for a in reference.inputs], outputs=_shape_rule(reference),
                kernel=updating(kernel), grad=NOT_DIFFERENTIABLE, stateful=True,
                doc="%s on resource variables (handles in, no output)." % op_type)


RESOURCE_OPS = sorted("Resource" + t for t in list(_REGISTRY)
                      if (t.startswith("Apply") or t.startswith("SparseApply"))
                      and any(a.is_ref for a in _REGISTRY[t].inputs))
for _type in RESOURCE_OPS:
    _register(_type[len("Resource"):])


def resource_apply(op_type, handles_and_inputs, name=None, **attrs):
    """Build ``op_type`` (e.g. "ResourceApplyAdam") from its inputs in order, handles first as TF's op
    signatures have them; ``attrs`` such as use_locking, use_nesterov."""
    return build_op(op_type, list(handles_and_inputs), attrs=attrs, name=name)


def declared_shape(handle):
    return _declared(handle)[1] if handle is not None else tensor_shape.UNKNOWN
