"""Control-flow ops: NoOp, group, tuple, and the dataflow primitives tf.cond and tf.while_loop are built
from (Switch, Merge, Enter, Exit, NextIteration, LoopCond), each with its gradient rule.

``group`` returns a NoOp whose control inputs are the grouped ops: running it runs them all.
"""
import contextlib

import numpy as np

from graphlab.framework import control_flow_util as util, dtypes, graph as graph_mod, tensor_shape
from graphlab.framework.indexed_slices import IndexedSlices
from graphlab.framework.operation import Operation
from graphlab.framework.tensor import Tensor
from graphlab.framework import registry
from graphlab.framework.registry import DEAD, NOT_DIFFERENTIABLE, build_op, no_outputs, register_op

# ------------------------------------------------------------------------------------------------ NoOp
register_op(
    "NoOp",
    outputs=no_outputs,
    kernel=lambda ctx: None,
    grad=NOT_DIFFERENTIABLE,
    doc="Does nothing; its control inputs make it a handle for running several ops at once.")


def no_op(name=None):
    return build_op("NoOp", (), name=name)


def group(*inputs, **kwargs):
    """``tf.group``: one NoOp that depends on every input op (tensors count as their ops)."""
    name = kwargs.pop("name", None)
    if kwargs:
        raise TypeError("Unknown keyword arguments: %s" % ", ".join(kwargs))
    ops = []
    for x in _flatten(inputs):
        op = x if isinstance(x, Operation) else getattr(x, "op", None)
        if op is None:
            raise TypeError("Expected an op or tensor in tf.group, got %r" % (x,))
        if op not in ops:
            ops.append(op)
    graph = graph_mod.graph_of(ops)
    with graph.as_default(), graph.name_scope(name or "group_deps") as scope:
        on_device = {}          # as TF: one NoOp per device of the inputs, on that device
        for op in ops:
            on_device.setdefault(op.device, []).append(op)
        if len(on_device) <= 1:
            device, deps = next(iter(on_device.items()), ("", []))
            return _group_on(graph, device, deps, scope)
        deps = [_group_on(graph, device, on_device[device], None) for device in sorted(on_device)]
        with graph.control_dependencies(deps):
            return build_op("NoOp", (), name=scope)


def _group_on(graph, device, deps, name):
    with graph.control_dependencies(deps), graph.device(device):
        return build_op("NoOp", (), name=name)


def _flatten(items):
    for x in items:
        if isinstance(x, (list, type(()))):
            yield from _flatten(x)
        else:
            yield x


def control_dependencies(control_inputs):
    """``tf.control_dependencies``: ops built in the block run after ``control_inputs``."""
    graph = graph_mod.graph_of([c for c in control_inputs or []
                                if isinstance(c, Operation) or hasattr(c, "graph")])
    return graph.control_dependencies(control_inputs)


# ------------------------------------------------------------------------------------- tuple, identity
def with_dependencies(dependencies, output_tensor, name=None):
    """``output_tensor``'s value, available only after ``dependencies`` ran (an Identity named
    ``control_dependency``)."""
    from graphlab.ops import array_ops
    graph = graph_mod.get_default_graph()
    with graph.name_scope(name or "control_dependency") as scope, graph.colocate_with(
            output_tensor.values if isinstance(output_tensor, IndexedSlices) else output_tensor):
        with graph.control_dependencies(dependencies):
            if not isinstance(output_tensor, (Operation, IndexedSlices, Tensor)):
                # as TF: a variable is converted here, so a reference variable gives its value (v/read) and a
                # resource variable a read that waits for the dependencies
                output_tensor = registry.convert_to_tensor(output_tensor)
            if isinstance(output_tensor, Operation):
                with graph.control_dependencies([output_tensor]):
                    return no_op(name=scope)
            if isinstance(output_tensor, IndexedSlices):    # as TF: only the values wait
                return IndexedSlices(array_ops.identity(output_tensor.values, name=scope), output_tensor.indices,
                                     output_tensor.dense_shape)
            if output_tensor.dtype.is_ref_dtype:     # as TF's _Identity: a variable's handle stays a handle
                return array_ops.ref_identity(output_tensor, name=scope)
            return array_ops.identity(output_tensor, name=scope)


def tuple(tensors, name=None, control_inputs=None):  # noqa: A001  (TF's public name)
    """``tf.tuple``: the same tensors, each readable only after all of them (and ``control_inputs``) are
    computed: a ``tuple/group_deps`` NoOp and one ``tuple/control_dependency`` Identity per tensor."""
    graph = graph_mod.get_default_graph()
    with graph.name_scope(name or "tuple"):
        gating = [t if isinstance(t, Operation) else t.op for t in tensors if t is not None]
        for c in control_inputs or ():
            if not isinstance(c, (Operation, Tensor)):    # a variable too, as in TF
                tf_class = getattr(type(c), "_TF_CLASS", None)
                raise TypeError("'control_inputs' must only contain Operation or Tensor. Received: %s" % (
                    "<class '%s'>" % tf_class if tf_class else type(c)))
            gating.append(c if isinstance(c, Operation) else c.op)
        gating = list({id(op): op for op in gating}.values())
        if not gating:
            raise ValueError("Must have at least one Tensor: %s" % (tensors,))
        gate = group(*gating)
        out = []
        for t in tensors:
            if isinstance(t, Operation):      # as TF: an op comes back as a group of it, after the gate
                with graph.control_dependencies([gate]):
                    out.append(group(t))
            else:
                out.append(with_dependencies([gate], t) if t is not None else None)
        return out


# ---------------------------------------------------------------------------------- Switch and Merge
# The dataflow primitives of control flow (Yu et al., EuroSys 2018). A value is live or dead: a Switch
# sends its data to one output and a dead value to the other; an op with a dead input does not run and its
# outputs are dead; a Merge forwards whichever input is live. Loops add frames: Enter takes a value into a
# child frame (a loop body's, named by attr frame_name), NextIteration carries it into the next iteration,
# Exit returns it to the parent frame, and LoopCond is the loop's predicate. graphlab/runtime/frames.py
# runs them; the gradient rules below build what TF1 builds (contexts in cond.py, while_loop.py and
# control_flow_state.py).

def _switch_outputs(op):
    data, pred = op._inputs
    if pred._shape.ndims not in (None, 0):
        raise ValueError("Shape must be rank 0 but is rank %d" % pred._shape.ndims)
    return [(data._dtype, data._shape), (data._dtype, data._shape)]


def _switch_kernel(ctx, data, pred):
    return (DEAD, data) if pred else (data, DEAD)


def _switch_grad(op, grad_false, grad_true):
    """A loop variable's Switch is reached twice: first from the Exit (start the gradient loop's Merge,
    ``b_switch``), then from the body (its back edge). A cond's Switch joins the branch gradients in a
    Merge (``cond_grad``); a bare Switch routes each gradient by the same predicate."""
    from graphlab.ops import while_loop
    graph = op._graph
    op_ctxt = op._control_flow_context
    if op_ctxt is not None and op_ctxt.is_while_context:
        grad_state = graph._control_flow_context.grad_state
        merge_grad = grad_state.switch_map.get(op)
        if merge_grad is not None:
            if grad_true is not None:
                while_loop.add_next_and_back_edge(merge_grad, grad_true, enforce_shape_invariant=False)
            return None, None
        if grad_false is not None:
            merge_grad = merge([grad_false, grad_false], name="b_switch")[0]
            grad_state.switch_map[op] = merge_grad
            return merge_grad, None
        return None, None
    if op_ctxt is not None and op_ctxt.is_cond_context:
        grads = (grad_false, grad_true)
        if grads[1 - op_ctxt.branch] is None:
            if op._inputs[0].dtype.base_dtype == dtypes.resource and grads[op_ctxt.branch] is not None:
                # a variable's handle read in one branch only: its gradient still leaves the cond
                return merge([grads[op_ctxt.branch]] * 2, name="cond_resource_grad")[0], None
            return None, None
        return merge(list(grads), name="cond_grad")[0], None
    false_grad = switch(grad_false, op._inputs[1])[0]
    true_grad = switch(grad_true, op._inputs[1])[1]
    return merge([false_grad, true_grad])[0], None


register_op(
    "Switch",
    inputs=["data: T", "pred: bool"],
    outputs=_switch_outputs,
    kernel=_switch_kernel,
    grad=_switch_grad,
    doc="Forwards data to output 1 if pred else to output 0; the other output is dead (skips its users).")

register_op(
    "RefSwitch",
    inputs=["data: Ref(T)", "pred: bool"],
    outputs=_switch_outputs,
    kernel=_switch_kernel,
    grad=_switch_grad,
    doc="Switch for a variable's handle, so assignments inside a cond branch run only on that branch.")


def switch(data, pred, name=None):
    """(output_false, output_true): ``data`` on the side chosen by ``pred``, dead on the other (a RefSwitch
    for a variable's handle, as TF's _SwitchRefOrTensor)."""
    data = registry.convert_to_tensor(data)
    op_type = "RefSwitch" if data.dtype.is_ref_dtype else "Switch"
    op = build_op(op_type, [data, pred], name=name, default_name="Switch")
    return op.outputs[0], op.outputs[1]


def _merge_outputs(op):
    t = op._inputs[0]
    shape = t._shape
    for other in op._inputs[1:]:
        if shape.ndims is None or other._shape.ndims != shape.ndims:
            shape = tensor_shape.UNKNOWN
            break
        shape = tensor_shape.TensorShape([a if a == b else None for a, b in
                                          zip(shape.as_list(), other._shape.as_list())])
    dtype = t._dtype if op._type == "RefMerge" else t._dtype.base_dtype
    return [(dtype, shape), (dtypes.int32, tensor_shape.SCALAR)]


_VALUE_INDEX = [np.int32(i) for i in range(64)]   # a Merge's second output, made once


def _merge_kernel(ctx, *inputs):
    for i, v in enumerate(inputs):
        if v is not DEAD:
            return v, (_VALUE_INDEX[i] if i < 64 else np.int32(i))
    return DEAD, DEAD


def _merge_grad(op, grad, _):
    """In a loop: route the gradient by the gradient loop's predicate (its first input is the Enter, the
    second the back edge). In a cond: by the cond's predicate (inside a loop, that iteration's value, kept
    on a stack). A bare Merge: to whichever input it forwarded (value_index)."""
    from graphlab.ops import math_ops
    graph = op._graph
    op_ctxt = util.get_output_context(op._inputs[0]._op)
    grad_ctxt = graph._control_flow_context
    if op_ctxt is not None and op_ctxt.is_while_context:
        with graph.colocate_with(grad, ignore_existing=True):    # TF's _SwitchRefOrTensor
            return list(switch(grad, grad_ctxt.pivot))
    if op_ctxt is not None and op_ctxt.is_cond_context:
        pred = op_ctxt.pred
        if grad_ctxt is not None and grad_ctxt.grad_state is not None:
            pred = grad_ctxt.grad_state.real_value_of_pred(pred)
        with graph.colocate_with(grad, ignore_existing=True):
            return list(switch(grad, pred, name="cond_grad"))
    conds = [math_ops.equal(op.outputs[1], i) for i in range(len(op._inputs))]
    return [switch(grad, c)[1] for c in conds]


register_op(
    "Merge",
    inputs=["inputs: N*T"],
    outputs=_merge_outputs,
    kernel=_merge_kernel,
    grad=_merge_grad,
    doc="Forwards whichever input is alive (the output of the branch a Switch took) and its index.")

register_op(
    "RefMerge",
    inputs=["inputs: N*Ref(T)"],
    outputs=_merge_outputs,
    kernel=_merge_kernel,
    grad=_merge_grad,
    doc="Merge of variable handles.")


def merge(inputs, name=None):
    """(output, value_index): the live one of ``inputs`` (a RefMerge when all are variable handles)."""
    inputs = [registry.convert_to_tensor(x) for x in inputs]
    op_type = "RefMerge" if all(t.dtype.is_ref_dtype for t in inputs) else "Merge"
    op = build_op(op_type, [list(inputs)], name=name, default_name="Merge")
    return op.outputs[0], op.outputs[1]


# ------------------------------------------------------------------------------------ Enter and Exit
def _enter_outputs(op):
    """TF's rule: a constant Enter has its input's shape, a loop variable's Enter an unknown one (the loop
    sets its shape invariant)."""
    t = op._inputs[0]
    dtype = t._dtype if op._type == "RefEnter" else t._dtype.base_dtype
    return [(dtype, t._shape if op._attrs["is_constant"] else tensor_shape.UNKNOWN)]


def _enter_grad(op, grad):
    """A loop variable's gradient leaves the gradient loop through an Exit; a value the body only reads
    (a constant Enter) sums its per-iteration gradients in an accumulator loop (``b_acc``)."""
    grad_ctxt = op._graph._control_flow_context
    if grad_ctxt is None or not grad_ctxt.back_prop or grad_ctxt.grad_state is None:
        return grad
    if op._attrs["is_constant"]:
        return grad_ctxt.add_backprop_accumulator(op, grad)
    result = exit(grad)
    grad_ctxt.loop_exits.append(result)
    grad_ctxt.exit_result([result])
    return result


register_op(
    "Enter",
    inputs=["data: T"],
    outputs=_enter_outputs,
    kernel=lambda ctx, x: x,
    grad=_enter_grad,
    doc="Makes its input available in the child frame named by attr frame_name: once (a loop variable's "
        "first value) or in every iteration (is_constant, a value the loop body only reads).")

register_op(
    "RefEnter",
    inputs=["data: Ref(T)"],
    outputs=_enter_outputs,
    kernel=lambda ctx, x: x,
    grad=_enter_grad,
    doc="Enter for a variable's handle.")


def enter(data, frame_name, is_constant=False, parallel_iterations=10, use_ref=True, use_input_shape=True,
          name=None):
    """TF's ``_Enter``: ``data`` made available to the child frame ``frame_name``."""
    data = registry.convert_to_tensor(data, as_ref=True)
    op_type = "RefEnter" if data.dtype.is_ref_dtype and use_ref else "Enter"
    t = build_op(op_type, [data], attrs={"frame_name": frame_name, "is_constant": bool(is_constant),
                                         "parallel_iterations": int(parallel_iterations)},
                 name=name, default_name=op_type).outputs[0]
    if use_input_shape:
        t.set_shape(data.shape)
    return t


def _exit_grad(op, grad):
    """A loop's result's gradient enters the gradient loop (``b_exit``)."""
    graph = op._graph
    op_ctxt = op._control_flow_context
    grad_ctxt = graph._control_flow_context
    if not grad_ctxt.back_prop:
        return None
    if op_ctxt.grad_state is not None:
        raise TypeError("Second-order gradient for while loops not supported.")
    grad_ctxt.add_name(grad)
    grad_ctxt.enter()
    try:
        result = enter(grad, grad_ctxt.name, is_constant=False,
                       parallel_iterations=grad_ctxt.parallel_iterations, name="b_exit")
    finally:
        grad_ctxt.exit()
    grad_ctxt.loop_enters.append(result)
    return result


register_op(
    "Exit",
    inputs=["data: T"],
    outputs=lambda op: [(op._inputs[0]._dtype.base_dtype, op._inputs[0]._shape)],
    kernel=lambda ctx, x: x,
    grad=_exit_grad,
    doc="Returns a value from a loop's frame to the parent frame (live once, when the loop ends).")

register_op(
    "RefExit",
    inputs=["data: Ref(T)"],
    outputs=lambda op: [(op._inputs[0]._dtype, op._inputs[0]._shape)],
    kernel=lambda ctx, x: x,
    grad=_exit_grad,
    doc="Exit for a variable's handle.")


def exit(data, name=None):  # noqa: A001  (TF's name)
    data = registry.convert_to_tensor(data, as_ref=True)
    return build_op("RefExit" if data.dtype.is_ref_dtype else "Exit", [data], name=name,
                    default_name="Exit").outputs[0]


# ------------------------------------------------------------------------- NextIteration and LoopCond
def _next_iteration_grad(op, grad):
    """The gradient of the next iteration's value is the gradient of this one's (the gradient loop walks
    the iterations backwards)."""
    return [grad]


register_op(
    "NextIteration",
    inputs=["data: T"],
    outputs=lambda op: [(op._inputs[0]._dtype.base_dtype, op._inputs[0]._shape)],
    kernel=lambda ctx, x: x,
    grad=_next_iteration_grad,
    doc="Carries a value into the next iteration of its frame (the input of the loop's Merge).")

register_op(
    "RefNextIteration",
    inputs=["data: Ref(T)"],
    outputs=lambda op: [(op._inputs[0]._dtype, op._inputs[0]._shape)],
    kernel=lambda ctx, x: x,
    grad=_next_iteration_grad,
    doc="NextIteration for a variable's handle.")


def next_iteration(data, name=None):
    data = registry.convert_to_tensor(data, as_ref=True)
    op_type = "RefNextIteration" if data.dtype.is_ref_dtype else "NextIteration"
    return build_op(op_type, [data], name=name, default_name="NextIteration").outputs[0]


def _loop_cond_outputs(op):
    shape = op._inputs[0]._shape
    if shape.ndims not in (None, 0):
        raise ValueError("Shape must be rank 0 but is rank %d" % shape.ndims)
    return [(dtypes.bool, tensor_shape.SCALAR)]


register_op(
    "LoopCond",
    inputs=["input: bool"],
    outputs=_loop_cond_outputs,
    kernel=lambda ctx, x: x,
    grad=lambda op, grad: [None],
    doc="A loop's predicate: its Switches send the loop values to the next iteration or to the Exits.")


def loop_cond(pred, name=None):
    return build_op("LoopCond", [pred], name=name).outputs[0]


register_op(
    "ControlTrigger",
    outputs=no_outputs,
    kernel=lambda ctx: None,
    grad=NOT_DIFFERENTIABLE,
    doc="Does nothing and is never dead: orders ops through control edges even when they did not run.")


def control_trigger(name=None):
    return build_op("ControlTrigger", (), name=name)


# ------------------------------------------------------------------------------------------ init_scope
@contextlib.contextmanager
def init_scope(graph):
    """TF1's ``init_scope`` in a graph: ops built in the block (a shadow or slot variable made while a
    ``tf.cond`` branch, a loop body or a control-dependency block is being built) belong to no branch or
    loop and wait for nothing, so their initializers run whatever the branch; branch ops that use them get
    Switches (loop ops Enters), as for any tensor from outside. The name scope stays."""
    with graph.control_dependencies(None):
        yield


from graphlab.ops import stack_ops  # noqa: E402,F401  (registers the stacks loop gradients use)
from graphlab.ops.cond import cond  # noqa: E402  (cond and while_loop build on the ops above)
from graphlab.ops.control_flow_case import case  # noqa: E402
from graphlab.ops.while_loop import while_loop  # noqa: E402

__all__ = ["no_op", "group", "control_dependencies", "tuple", "with_dependencies", "switch", "merge", "cond",
           "case", "while_loop"]
