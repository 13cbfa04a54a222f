"""``tf.einsum``: the Einsum op (one or two operands, ``...`` broadcasting) with TF's gradient rule, and TF's
Python front end (spaces dropped, an implicit output of the labels seen once, sorted).

With more than two operands TF orders the contractions with opt_einsum; graphlab contracts left to right,
so such graphs have the same values but other intermediate Einsum ops.
"""
import collections
import re

import numpy as np

from graphlab.framework import dtypes, tensor_shape
from graphlab.framework import graph as graph_mod
from graphlab.ops import array_ops, math_ops
from graphlab.framework.registry import build_op, convert_to_tensor, register_op

_ELLIPSIS = "..."


def _parse(equation):
    inputs, _, output = equation.partition("->")
    return inputs.split(","), output


def _label_dims(subs, shape):
    """Label -> size for one operand, and the dims its ellipsis covers (None when the rank is unknown)."""
    if shape.ndims is None:
        return {}, None
    dims = shape.as_list()
    before, has_ellipsis, after = subs.partition(_ELLIPSIS)
    if not has_ellipsis:
        if len(subs) != len(dims):
            raise ValueError("Input has %d dimensions but equation term '%s' names %d" % (len(dims), subs, len(subs)))
        return dict(zip(subs, dims)), []
    n_named = len(before) + len(after)
    if len(dims) < n_named:
        raise ValueError("Input has %d dimensions, fewer than the %d labels of '%s'" % (len(dims), n_named, subs))
    labels = dict(zip(before, dims[:len(before)]))
    labels.update(zip(after, dims[len(dims) - len(after):]))
    return labels, dims[len(before):len(dims) - len(after)]


def _merge(a, b):
    if a is None:
        return b
    if b is None or a == b:
        return a
    if a == 1:
        return b
    if b == 1:
        return a
    raise ValueError("Dimensions must be equal, but are %d and %d" % (a, b))


def _einsum_outputs(op):
    ins, out = _parse(op._attrs["equation"])
    sizes, batch = {}, []
    known = True
    for subs, t in zip(ins, op._inputs):
        labels, ell = _label_dims(subs, t._shape)
        if ell is None:
            known = False
            continue
        for k, v in labels.items():
            sizes[k] = _merge(sizes.get(k), v) if k in sizes else v
        if len(ell) > len(batch):
            batch = [None] * (len(ell) - len(batch)) + batch
        pad = [1] * (len(batch) - len(ell)) + ell
        batch = [_merge(x, y) if not (x is None and y == 1) else x for x, y in zip(batch, pad)]
    dtype = op._inputs[0]._dtype.base_dtype
    if not known:
        return [(dtype, tensor_shape.UNKNOWN)]
    before, has_ellipsis, after = out.partition(_ELLIPSIS)
    dims = [sizes.get(c) for c in before] + (batch if has_ellipsis else []) + [sizes.get(c) for c in after]
    return [(dtype, tensor_shape.TensorShape(dims))]


def _einsum_kernel(ctx, *operands):
    equation = ctx.attrs["equation"]
    ins, out = _parse(equation)
    unique = "".join(dict.fromkeys(out))
    if len(unique) == len(out) or _ELLIPSIS in out:
        return np.einsum(equation, *operands).astype(operands[0].dtype, copy=False)
    # a label repeated in the output (TF's gradient of "bii->b" is "ib->bii"): numpy cannot write diagonals
    # directly, so compute with each label once and write into the diagonal view of a zero array
    values = np.einsum("%s->%s" % (",".join(ins), unique), *operands)
    sizes = dict(zip(unique, values.shape))
    result = np.zeros([sizes[c] for c in out], dtype=operands[0].dtype)
    np.einsum("%s->%s" % (out, unique), result)[...] = values
    return result


def _einsum_op(inputs, equation):
    return build_op("Einsum", [list(inputs)], attrs={"equation": equation}).outputs[0]


# ------------------------------------------------------------------------------------ gradient (TF's)
def _axis_of(subscripts, label):
    parts = subscripts.split(_ELLIPSIS)
    index = parts[0].find(label)
    if index != -1:
        return index
    if len(parts) < 2:
        return None
    index = parts[1].find(label)
    return index - len(parts[1]) if index != -1 else None


def _bcast_subshape(subscripts):
    start = subscripts.find(_ELLIPSIS)
    if start == -1:
        return 0, 0
    remaining = len(subscripts) - (start + len(_ELLIPSIS))
    return start, (-remaining if remaining > 0 else None)


def _grad_reduced(output_grad, output_subs, input_subs, input_shape, reduced_labels):
    """Broadcast a gradient back over the labels the forward einsum summed away."""
    from graphlab.ops.broadcast_ops import broadcast_to
    from graphlab.ops.math_ops import reduced_shape
    reduced_subs = "".join(list(reduced_labels))
    reduced_axes = [_axis_of(input_subs, s) for s in reduced_subs]
    reduced_dims = array_ops.stack([input_shape[ax] for ax in reduced_axes])
    repeated = len(set(input_subs)) + len(set(output_subs)) < len(input_subs) + len(output_subs)
    kept = "".join(s for s in input_subs if s not in reduced_labels)
    if not repeated and kept == output_subs:
        shape = reduced_shape(input_shape, convert_to_tensor(reduced_axes))
        return broadcast_to(array_ops.reshape(output_grad, shape), input_shape)
    full_shape = array_ops.concat([reduced_dims, array_ops.shape(output_grad)], axis=0)
    shape = array_ops.concat([array_ops.ones(len(reduced_labels), dtype=dtypes.int32),
                              array_ops.shape(output_grad)], axis=0)
    widened = broadcast_to(array_ops.reshape(output_grad, shape), full_shape)
    return _einsum_op([widened], "%s->%s" % (reduced_subs + output_subs, input_subs))


def _grad_wrt(output_grad, other, input_shape, input_subs, other_subs, output_subs):
    reduced = set(input_subs).difference(set(output_subs + other_subs + "."))
    left_subs = "".join(s for s in input_subs if s not in reduced)
    grad = _einsum_op([output_grad, other], "%s,%s->%s" % (output_subs, other_subs, left_subs))
    if not reduced:
        return grad
    return _grad_reduced(grad, left_subs, input_subs, input_shape, reduced)


def _einsum_grad(op, grad):
    """TF's _EinsumGrad: each operand's gradient is an einsum of the output gradient with the other operand,
    broadcast over summed labels and reduced over broadcast batch dims."""
    equation = op._attrs["equation"]
    input_subs, output_subs = equation.split("->")
    if len(op.inputs) == 1:
        input_shape = array_ops.shape(op.inputs[0])
        reduced = set(input_subs).difference(set(output_subs + _ELLIPSIS))
        if not reduced:
            return [_einsum_op([grad], "%s->%s" % (output_subs, input_subs))]
        return [_grad_reduced(grad, output_subs, input_subs, input_shape, reduced)]
    x_subs, y_subs = input_subs.split(",")
    if _ELLIPSIS in output_subs:
        if _ELLIPSIS not in x_subs:
            x_subs += _ELLIPSIS
        if _ELLIPSIS not in y_subs:
            y_subs += _ELLIPSIS
    x, y = op.inputs[0], op.inputs[1]
    x_shape, y_shape = array_ops.shape(x), array_ops.shape(y)
    grad_x = _grad_wrt(grad, y, x_shape, x_subs, y_subs, output_subs)
    grad_y = _grad_wrt(grad, x, y_shape, y_subs, x_subs, output_subs)
    if _ELLIPSIS not in output_subs:
        return [grad_x, grad_y]
    bx_start, bx_end = _bcast_subshape(x_subs)
    by_start, by_end = _bcast_subshape(y_subs)
    xs, ys = x.shape, y.shape
    if xs.is_fully_defined() and ys.is_fully_defined() and \
            xs.as_list()[bx_start:bx_end] == ys.as_list()[by_start:by_end]:
        return [grad_x, grad_y]
    from graphlab.ops.broadcast_ops import broadcast_gradient_args
    rx, ry = broadcast_gradient_args(x_shape[bx_start:bx_end], y_shape[by_start:by_end])
    grad_x = array_ops.reshape(math_ops.reduce_sum(grad_x, bx_start + rx), x_shape)
    grad_y = array_ops.reshape(math_ops.reduce_sum(grad_y, by_start + ry), y_shape)
    return [grad_x, grad_y]


register_op("Einsum", inputs=["inputs: N*T"], outputs=_einsum_outputs, kernel=_einsum_kernel, grad=_einsum_grad,
            doc="Einstein summation over one or two operands (resolved equation, explicit '->').")


# ----------------------------------------------------------------------------------------- public API
def _resolve(equation, n_inputs):
    """TF's _einsum_v2_parse_and_resolve_equation for the checks and the implicit output."""
    resolved = equation.replace(" ", "")
    marker = None
    if _ELLIPSIS in equation:
        marker = "0"
        if marker in resolved:
            raise ValueError('Invalid character "%s" in equation: %s.' % (marker, equation))
        resolved = resolved.replace(_ELLIPSIS, marker)
    allowed = "a-zA-Z" + (marker or "")
    match = re.match("^([{0},]*)(->[{0}]*)?$".format(allowed), resolved)
    if not match:
        raise ValueError("Subscripts have incorrect format: {}".format(resolved))
    input_labels = match.group(1).split(",")
    output_labels = match.group(2)[2:] if match.group(2) else None
    if n_inputs != len(input_labels):
        raise ValueError('Got {} inputs for equation "{}", expecting {}'.format(n_inputs, equation,
                                                                              len(input_labels)))
    if "->" not in resolved:
        counts = collections.Counter(match.group(1))
        output_labels = "".join(x for x in sorted(counts) if x != "," and counts[x] == 1)
        resolved += "->" + output_labels
    if output_labels and len(set(output_labels)) != len(output_labels):
        raise ValueError("Output subscripts contain a label appearing more than once: {}".format(equation))
    seen = set(match.group(1))
    for label in output_labels:
        if label != marker and label not in seen:
            raise ValueError("Output subscripts contain the label {} not present in the input subscripts."
                             .format(label))
    if marker and output_labels and output_labels.count(marker) > 1:
        raise ValueError("Output subscripts contain multiple ellipsis: {}".format(equation))
    return resolved.replace(marker, _ELLIPSIS) if marker else resolved


def einsum(equation, *inputs, **kwargs):
    """``tf.einsum`` / ``tf.linalg.einsum`` (scope "einsum")."""
    name = kwargs.pop("name", None)
    kwargs.pop("optimize", None)
    if kwargs:
        raise TypeError("Invalid keyword arguments for einsum: %s. Valid arguments: name, optimize, greedy."
                        % ", ".join(kwargs))
    with graph_mod.name_scope(name, "einsum", [equation, inputs]):
        inputs = [convert_to_tensor(t) for t in inputs]
        resolved = _resolve(equation, len(inputs))
        if len(inputs) <= 2:
            return _einsum_op(inputs, resolved)
        # more operands: contract left to right, keeping every label still needed later or in the output
        ins, out = _parse(resolved)
        acc, acc_subs = inputs[0], ins[0]
        for k in range(1, len(inputs)):
            later = "".join(ins[k + 1:]) + out
            both = (acc_subs + ins[k]).replace(_ELLIPSIS, "")
            keep = "".join(dict.fromkeys(c for c in both if c in later))
            if _ELLIPSIS in acc_subs + ins[k]:
                keep = _ELLIPSIS + keep
            step_out = out if k == len(inputs) - 1 else keep
            acc = _einsum_op([acc, inputs[k]], "%s,%s->%s" % (acc_subs, ins[k], step_out))
            acc_subs = step_out
        return acc


__all__ = ["einsum"]
