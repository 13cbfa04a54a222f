"""Math ops: elementwise arithmetic, comparisons, matmul, reductions, casts.

Also wires Tensor's Python operators (``a + b`` builds an ``AddV2`` op named ``add``), with the lowercase
op names TF gives overloaded operators.
"""
import numpy as np

from graphlab.framework import dtypes, tensor as tensor_mod
from graphlab.ops.registry import (build_op, broadcast_outputs, convert_to_tensor, register_op)

# --------------------------------------------------------------------------------------------- AddV2


def _add_grad(op, grad):
    return [grad, grad]   # broadcasting is undone centrally by graphlab.gradients


register_op(
    "AddV2",
    inputs=["x: T", "y: T"],
    outputs=broadcast_outputs(),
    kernel=lambda ctx, x, y: np.add(x, y),
    grad=_add_grad,
    doc="x + y, elementwise with broadcasting.")


def add(x, y, name=None):
    """``tf.add``: an AddV2 op (named "Add" unless given a name)."""
    return build_op("AddV2", [x, y], name=name, default_name="Add").outputs[0]


# ------------------------------------------------------------------------------------------------ Mul
register_op(
    "Mul",
    inputs=["x: T", "y: T"],
    outputs=broadcast_outputs(),
    kernel=lambda ctx, x, y: np.multiply(x, y),
    grad=lambda op, grad: [multiply(grad, op.inputs[1]), multiply(op.inputs[0], grad)],
    doc="x * y, elementwise with broadcasting.")


def multiply(x, y, name=None):
    """``tf.multiply``."""
    return build_op("Mul", [x, y], name=name).outputs[0]


# ------------------------------------------------------------------------- Python operator overloading

def binary_overload(op_fn, op_name, reverse=False):
    """``x <op> y`` on a Tensor: open scope ``op_name`` (e.g. "add"), convert the other operand to x's
    dtype inside it under the name "y" (or "x" when reversed), and build the op named by that scope."""
    def method(x, y):
        graph = x.graph
        with graph.name_scope(op_name) as scope:
            other = convert_to_tensor(y, dtype=x.dtype.base_dtype, name="x" if reverse else "y")
            if reverse:
                return op_fn(other, x, name=scope)
            return op_fn(x, other, name=scope)
    return method


def _install_overloads():
    table = {
        "__add__": binary_overload(add, "add"),
        "__radd__": binary_overload(add, "add", reverse=True),
        "__mul__": binary_overload(multiply, "mul"),
        "__rmul__": binary_overload(multiply, "mul", reverse=True),
    }
    tensor_mod._OVERLOADS = _OverloadTable(table)


class _OverloadTable(dict):
    """Operators not implemented yet raise a clear error instead of a KeyError."""

    def __missing__(self, key):
        def unsupported(x, *args):
            raise TypeError("graphlab does not support the operator %s on Tensor %s yet." % (key, x.name))
        return unsupported


_install_overloads()
