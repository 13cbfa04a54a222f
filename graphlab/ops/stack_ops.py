"""Stacks: how a while loop's gradient gets back the values its forward loop computed (TF's StackV2,
StackPushV2, StackPopV2, StackCloseV2). The forward loop pushes a value in every iteration; the gradient
loop, running the iterations backwards, pops them in reverse order.

A StackV2 op makes a new, empty stack each time it runs; its output is the stack itself (a resource
handle in TF), which Enter ops carry into the loops' frames.
"""
from graphlab.framework import dtypes, tensor_shape
from graphlab.formats.errors import InvalidArgumentError
from graphlab.framework.registry import NOT_DIFFERENTIABLE, build_op, no_outputs, register_op


class _Stack:
    """One run's stack; ``max_size`` < 0 means unbounded."""

    __slots__ = ("name", "items", "max_size", "closed")

    def __init__(self, name, max_size):
        self.name, self.items, self.max_size, self.closed = name, [], max_size, False

    def __repr__(self):
        return "<stack %s: %d items>" % (self.name, len(self.items))


def _handle(ctx, stack):
    if not isinstance(stack, _Stack):
        raise InvalidArgumentError(None, ctx.op, "Input 'handle' of %s is not a stack (got %s)." % (
            ctx.op.name, type(stack).__name__))
    if stack.closed:
        raise InvalidArgumentError(None, ctx.op, "Stack %s has already been closed." % stack.name)
    return stack


def _stack_kernel(ctx, max_size):
    return _Stack(ctx.attrs.get("stack_name") or ctx.op.name, int(max_size))


register_op(
    "StackV2",
    inputs=["max_size: int32"],
    outputs=lambda op: [(dtypes.resource, tensor_shape.SCALAR)],
    kernel=_stack_kernel,
    grad=NOT_DIFFERENTIABLE,
    stateful=True,
    doc="A new empty stack each run; outputs its handle.")


def stack_v2(max_size, elem_type, stack_name="", name=None):
    return build_op("StackV2", [max_size], attrs={"elem_type": dtypes.as_dtype(elem_type),
                                                  "stack_name": stack_name}, name=name).outputs[0]


def _push_kernel(ctx, handle, elem):
    stack = handle if type(handle) is _Stack and not handle.closed else _handle(ctx, handle)
    if 0 <= stack.max_size <= len(stack.items):
        raise InvalidArgumentError(None, ctx.op, "Stack[%s] overflowed its max_size (%d)" % (
            stack.name, stack.max_size))
    stack.items.append(elem)
    return elem


register_op(
    "StackPushV2",
    inputs=["handle: resource", "elem: T"],
    outputs=lambda op: [(op._inputs[1]._dtype.base_dtype, op._inputs[1]._shape)],
    kernel=_push_kernel,
    grad=NOT_DIFFERENTIABLE,
    stateful=True,
    doc="Pushes elem onto the stack and outputs it.")


def stack_push_v2(handle, elem, swap_memory=False, name=None):
    return build_op("StackPushV2", [handle, elem], attrs={"swap_memory": bool(swap_memory)}, name=name).outputs[0]


def _pop_kernel(ctx, handle):
    stack = handle if type(handle) is _Stack and not handle.closed else _handle(ctx, handle)
    if not stack.items:
        raise InvalidArgumentError(None, ctx.op, "Stack is empty.")
    return stack.items.pop()


register_op(
    "StackPopV2",
    inputs=["handle: resource"],
    outputs=lambda op: [(op._attrs["elem_type"], tensor_shape.UNKNOWN)],
    kernel=_pop_kernel,
    grad=NOT_DIFFERENTIABLE,
    stateful=True,
    doc="Pops the top element of the stack.")


def stack_pop_v2(handle, elem_type, name=None):
    return build_op("StackPopV2", [handle], attrs={"elem_type": dtypes.as_dtype(elem_type)}, name=name).outputs[0]


def _close_kernel(ctx, handle):
    if isinstance(handle, _Stack):
        handle.closed = True
        handle.items = []


register_op(
    "StackCloseV2",
    inputs=["handle: resource"],
    outputs=no_outputs,
    kernel=_close_kernel,
    grad=NOT_DIFFERENTIABLE,
    stateful=True,
    doc="Closes the stack and frees what it holds.")


def stack_close_v2(handle, name=None):
    return build_op("StackCloseV2", [handle], name=name)
