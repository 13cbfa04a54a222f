"""Questions about control-flow structure, asked by contexts, gradients and the executor: is this op a
loop's Exit, which while loop holds it, is this Switch a cond's or a loop's.

Every op built inside a ``tf.cond`` branch or a ``tf.while_loop`` body remembers its context
(``op._control_flow_context``): a ``CondContext`` (graphlab/ops/cond.py) or a ``WhileContext``
(graphlab/ops/while_loop.py). Contexts nest through ``outer_context``.
"""

SWITCH_TYPES = frozenset(("Switch", "RefSwitch"))
MERGE_TYPES = frozenset(("Merge", "RefMerge"))
ENTER_TYPES = frozenset(("Enter", "RefEnter"))
EXIT_TYPES = frozenset(("Exit", "RefExit"))
NEXT_ITERATION_TYPES = frozenset(("NextIteration", "RefNextIteration"))


def is_switch(op):
    return op._type in SWITCH_TYPES


def is_merge(op):
    return op._type in MERGE_TYPES


def is_loop_enter(op):
    return op._type in ENTER_TYPES


def is_loop_exit(op):
    return op._type in EXIT_TYPES


def is_loop_constant_enter(op):
    return op._type in ENTER_TYPES and bool(op._attrs.get("is_constant"))


def get_loop_constant_enter(value):
    """The constant Enter ``value`` comes from through Switches and Identities, or None."""
    op = value._op
    while op._type in ("Switch", "RefSwitch", "Identity", "RefIdentity"):
        op = op._inputs[0]._op
    return op if is_loop_constant_enter(op) else None


def get_output_context(op):
    """The context an op's outputs live in: its own, except for a loop Exit (the loop's outer context)."""
    ctxt = op._control_flow_context
    if ctxt is not None and op._type in EXIT_TYPES:
        ctxt = ctxt.outer_context
    return ctxt


def get_containing_while_context(ctxt, stop_ctxt=None):
    while ctxt is not None:
        if ctxt.is_while_context or ctxt is stop_ctxt:
            return ctxt
        ctxt = ctxt.outer_context
    return None


def get_while_context(op):
    """The innermost while loop that holds ``op``, or None."""
    ctxt = op._control_flow_context
    return ctxt.get_while_context() if ctxt is not None else None


def is_containing_context(ctxt, maybe_containing):
    while ctxt is not maybe_containing:
        if ctxt is None:
            return False
        ctxt = ctxt.outer_context
    return True


def op_in_context(op, ctxt):
    return is_containing_context(op._control_flow_context, ctxt)


def is_cond_switch(op):
    """A Switch that routes a value into a cond branch (all its users are in cond contexts)."""
    if not is_switch(op) or not op._outputs:
        return False
    for out in op._outputs:
        for consumer in out._consumers:
            ctxt = consumer._control_flow_context
            if is_loop_enter(consumer):
                ctxt = ctxt.outer_context
            if ctxt is None or not ctxt.is_cond_context:
                return False
    return True


def is_cond_merge(op):
    if not is_merge(op) or not op._inputs:
        return False
    for t in op._inputs:
        ctxt = get_output_context(t._op)
        if ctxt is None or not ctxt.is_cond_context:
            return False
    return True


def is_loop_switch(op):
    """The Switch of a loop variable (its LoopCond decides between another iteration and the Exit)."""
    if not is_switch(op):
        return False
    ctxt = op._control_flow_context
    return ctxt is not None and ctxt.is_while_context and not is_cond_switch(op)


def is_loop_merge(op):
    if not is_merge(op):
        return False
    ctxt = op._control_flow_context
    return ctxt is not None and ctxt.is_while_context and not is_cond_merge(op)


def check_input_from_valid_context(op, input_op):
    """TF's build-time check that ``op`` may read ``input_op``: a value made inside a while loop can only be
    read inside that loop (or loops it contains, or its gradient loop); outside, use the loop's result.
    ValueError in TF's words otherwise."""
    input_ctxt = get_output_context(input_op)
    if input_ctxt is None:
        return
    op_ctxt = op._control_flow_context
    if op_ctxt is input_ctxt:
        return
    while_ctxt = get_containing_while_context(op_ctxt)
    input_while = get_containing_while_context(input_ctxt)
    if while_ctxt is None:
        # no loop around op: fine unless input_op is in one (an Enter or Switch is made outside its context)
        if input_while is None or op._type in ENTER_TYPES or op._type in SWITCH_TYPES:
            return
    elif is_containing_context(while_ctxt, input_while):
        return
    elif while_ctxt.grad_state is not None and (
            is_containing_context(while_ctxt.grad_state.forward_context, input_while)
            or while_ctxt.grad_state.forward_context is input_while.outer_context):
        return              # a gradient loop reads its forward loop (and conds in it)
    elif input_while.grad_state is not None and (
            input_while.grad_state.forward_context is while_ctxt
            or (input_while.grad_state.forward_context.grad_state is not None
                and input_while.grad_state.forward_context.grad_state.forward_context is while_ctxt)):
        return              # the gradient of a gradient loop (it fails later unless stopped)
    if while_ctxt is not None:
        message = "Cannot use '%s' as input to '%s' because they are in different while loops." % (
            input_op.name, op.name)
    else:
        message = "Cannot use '%s' as input to '%s' because '%s' is in a while loop." % (
            input_op.name, op.name, input_op.name)
    raise ValueError(message + " See info log for more details.")
