"""How ``tf.gradients`` differentiates through ``tf.while_loop``, as TF1 builds it.

The gradient of a loop is another loop (the *gradient loop*, frame ``gradients/while/while_context``)
that runs as many iterations as the forward loop did, backwards. Two counters make that happen: the forward
loop gets an iteration counter (``f_count``) and the gradient loop counts down from it (``b_count``). A
forward value that a gradient rule needs inside the gradient loop (``x`` in the gradient of ``x * y``) is
different in every iteration, so the forward loop pushes it onto a stack each iteration (``StackV2`` named
``f_acc``, ``StackPushV2``) and the gradient loop pops it (``StackPopV2``) in reverse order. Constants are
copied instead, and values from outside the loop simply enter the gradient loop.

``ControlFlowState`` holds one ``GradLoopState`` per forward loop met by one ``tf.gradients`` call;
graphlab/gradients.py asks it which gradient loop an op's gradient is built in.
"""
from graphlab.framework import dtypes
from graphlab.framework import control_flow_util as util
from graphlab.framework import registry


class GradLoopState:
    """The gradient loop of one forward loop, and the stacks between them."""

    def __init__(self, forward_ctxt, outer_grad_state):
        from graphlab.ops.while_loop import WhileContext
        self.outer_grad_state = outer_grad_state
        self.forward_context = forward_ctxt
        self._forward_sync = None
        self._grad_sync = None
        self.history_map = {}           # forward tensor -> its value in the gradient loop (a pop, a copy)
        self.switch_map = {}            # a forward loop Switch -> the Merge its gradient starts (b_switch)
        self.unused_exits = []
        self.deferred_exits = []
        self.forward_loop_exits = list(forward_ctxt.loop_exits)
        self.pending_exits_count = len(forward_ctxt.loop_exits)
        graph = forward_ctxt._graph
        if outer_grad_state is not None:
            outer_forward_ctxt = outer_grad_state.forward_context
        else:
            outer_forward_ctxt = forward_ctxt.outer_context
        with graph.as_default():
            if outer_forward_ctxt is not None:
                outer_forward_ctxt.enter()
            try:
                count, self.forward_index = forward_ctxt.add_forward_loop_counter(outer_grad_state)
            finally:
                if outer_forward_ctxt is not None:
                    outer_forward_ctxt.exit()

        def new_grad_context():
            return WhileContext(maximum_iterations=forward_ctxt.maximum_iterations,
                                parallel_iterations=forward_ctxt.parallel_iterations,
                                back_prop=forward_ctxt.back_prop, swap_memory=forward_ctxt.swap_memory,
                                name=forward_ctxt.name, grad_state=self)
        if outer_grad_state is not None:
            # a loop nested in a loop: remember its iteration count for each run of it
            outer_forward_ctxt.add_name(count)
            history_count = outer_grad_state.add_forward_accumulator(count)
            outer_grad_ctxt = outer_grad_state.grad_context
            outer_grad_ctxt.enter()
            try:
                self.grad_context = new_grad_context()
                real_count = outer_grad_state.add_backprop_accumulated_value(history_count, count)
                self.grad_index = self.grad_context.add_backprop_loop_counter(real_count, outer_grad_state)
            finally:
                outer_grad_ctxt.exit()
        else:
            if outer_forward_ctxt is not None:
                outer_forward_ctxt.enter()
            try:
                self.grad_context = new_grad_context()
                self.grad_index = self.grad_context.add_backprop_loop_counter(count, outer_grad_state)
            finally:
                if outer_forward_ctxt is not None:
                    outer_forward_ctxt.exit()

    @property
    def forward_sync(self):
        """A ControlTrigger that orders the forward loop's pushes made in cond branches before the next
        iteration's counter."""
        if self._forward_sync is None:
            from graphlab.ops.control_flow_ops import control_trigger
            graph = self.forward_context._graph
            with graph.control_dependencies(None):
                self._forward_sync = control_trigger(name="f_sync")
            self._forward_sync._control_flow_context = self.forward_context
            self.forward_index.op._add_control_input(self._forward_sync)
        return self._forward_sync

    @property
    def grad_sync(self):
        """A ControlTrigger (``b_sync``) that orders every pop of an iteration before the next one."""
        if self._grad_sync is None:
            from graphlab.ops.control_flow_ops import control_trigger
            graph = self.grad_context._graph
            with graph.control_dependencies(None):
                self._grad_sync = control_trigger(name="b_sync")
            self._grad_sync._control_flow_context = self.grad_context
            self.grad_index.op._add_control_input(self._grad_sync)
            if self.grad_context.outer_context is not None:
                self.grad_context.outer_context.add_inner_op(self._grad_sync)
        return self._grad_sync

    def add_forward_accumulator(self, value, dead_branch=False):
        """A stack (``f_acc``, made outside the forward loop) and the push of ``value`` onto it in every
        forward iteration. Returns the stack."""
        from graphlab.ops import stack_ops
        graph = self.forward_index.graph
        with graph.as_default():
            curr_ctxt = graph._control_flow_context
            with graph.control_dependencies(None):
                if curr_ctxt is not None:
                    curr_ctxt.enter()
                try:
                    max_size = registry.constant(-1, dtypes.int32)
                    acc = stack_ops.stack_v2(max_size, value.dtype.base_dtype, name="f_acc")
                finally:
                    if curr_ctxt is not None:
                        curr_ctxt.exit()
                enter_acc = self.forward_context.add_value(acc)
                swap = self.forward_context.swap_memory
                value_ctxt = util.get_output_context(value._op)
                if value_ctxt is self.forward_context:
                    self.forward_context.enter()
                    try:
                        push = stack_ops.stack_push_v2(enter_acc, value, swap_memory=swap)
                    finally:
                        self.forward_context.exit()
                    # the push is done before the next iteration starts
                    self.forward_index.op._add_control_input(push.op)
                else:
                    if value_ctxt is None or not value_ctxt.is_cond_context:
                        raise TypeError("value_ctxt is not a CondContext: %s" % value_ctxt)
                    if dead_branch:
                        # zeros for the branch not taken: pushed outside the cond, filed under it
                        value_ctxt.outer_context.enter()
                        try:
                            push = stack_ops.stack_push_v2(enter_acc, value, swap_memory=swap)
                        finally:
                            value_ctxt.outer_context.exit()
                        push.op._control_flow_context = value_ctxt
                    else:
                        value_ctxt.enter()
                        try:
                            push = stack_ops.stack_push_v2(enter_acc, value, swap_memory=swap)
                        finally:
                            value_ctxt.exit()
                    self.forward_sync._add_control_input(push.op)
                # ... and after this iteration's counter step
                push.op._add_control_input(self.forward_index.op._inputs[0]._op)
                return acc

    def add_backprop_accumulated_value(self, history_value, value, dead_branch=False):
        """The pop, in the gradient loop, of the stack ``history_value`` that holds ``value``'s history (on
        the branch of the cond ``value`` was made in, if any)."""
        from graphlab.ops import stack_ops
        from graphlab.ops.control_flow_ops import switch
        history_ctxt = history_value.op._control_flow_context
        cond_ctxt = None
        value_ctxt = value._op._control_flow_context
        while value_ctxt is not None and value_ctxt is not history_ctxt:
            if value_ctxt.is_cond_context:
                cond_ctxt = value_ctxt
                break
            value_ctxt = value_ctxt.outer_context
        graph = self.grad_context._graph
        with graph.control_dependencies(None):
            self.grad_context.enter()
            try:
                if cond_ctxt is not None:
                    grad_state, pred = self, None
                    while pred is None and grad_state is not None:
                        pred = grad_state.history_map.get(cond_ctxt.pred)
                        grad_state = grad_state.outer_grad_state
                    if pred is None:
                        pred = cond_ctxt.pred
                    branch = (1 - cond_ctxt.branch) if dead_branch else cond_ctxt.branch
                    history_value = switch(history_value, pred)[branch]
                pop = stack_ops.stack_pop_v2(history_value, value.dtype.base_dtype)
                pop.set_shape(value.shape)
            finally:
                self.grad_context.exit()
        if self.grad_context.parallel_iterations > 1:
            self.grad_sync._add_control_input(pop.op)
        return pop

    def get_real_value(self, value):
        """``value`` (a tensor of the forward loop) as the gradient loop sees it in the matching
        iteration: a constant copied, a loop invariant entered, anything else pushed and popped."""
        real_value = self.history_map.get(value)
        if real_value is not None:
            return real_value
        cur_value, cur_grad_state, history_value = value, self, None
        while True:
            enter_op = util.get_loop_constant_enter(cur_value)
            if enter_op is not None:
                # a value the forward loop only read: look at what entered it, one loop further out
                cur_value = enter_op._inputs[0]
                cur_grad_state = cur_grad_state.outer_grad_state
                if cur_grad_state is None:
                    real_value = self.grad_context.add_value(cur_value)
                    break
            elif cur_value._op._type == "Const":
                real_value = registry.constant(cur_value._op._attrs["value"], dtype=cur_value.dtype.base_dtype)
                break
            else:
                self.grad_context.exit()
                try:
                    history_value = cur_grad_state.add_forward_accumulator(cur_value)
                finally:
                    self.grad_context.enter()
                break
        if real_value is None:
            real_value = cur_grad_state.add_backprop_accumulated_value(history_value, cur_value)
            if cur_grad_state is not self:
                real_value = self.grad_context.add_value(real_value)
        self.history_map[value] = real_value
        return real_value

    def real_value_of_pred(self, pred):
        """The predicate of a cond inside the forward loop, as the gradient loop sees it (stacked)."""
        real = self.history_map.get(pred)
        if real is None:
            grad_ctxt = self.grad_context
            grad_ctxt.exit()
            try:
                history = self.add_forward_accumulator(pred)
            finally:
                grad_ctxt.enter()
            real = self.add_backprop_accumulated_value(history, pred)
            self.history_map[pred] = real
        return real


class ControlFlowState:
    """The gradient loops of one ``tf.gradients`` call, one per forward loop it goes through."""

    def __init__(self):
        self._map = {}     # forward WhileContext -> GradLoopState

    def get_grad_state(self, op, before):
        """The gradient loop ``op``'s gradient is built in (for a loop Exit, before its gradient: the one
        of the loop around the Exit's loop)."""
        if before and util.is_loop_exit(op):
            forward_ctxt = op._control_flow_context.outer_context
            if forward_ctxt is not None:
                forward_ctxt = forward_ctxt.get_while_context()
        else:
            forward_ctxt = util.get_while_context(op)
        return self._map.get(forward_ctxt) if forward_ctxt is not None else None

    def process_unused_loop_exits(self, pending_count, to_ops_set):
        """Exits no gradient will reach (the loop variables ys do not depend on): they need zeros once the
        other exits of their loop have gradients. Returns those ready now."""
        loop_exits = []
        for grad_state in self._map.values():
            for y in grad_state.forward_loop_exits:
                if pending_count[y.op] == 0:
                    grad_state.pending_exits_count -= 1
                    if y.op not in to_ops_set:
                        grad_state.unused_exits.append(y)
                    if grad_state.pending_exits_count == 0:
                        loop_exits.extend(grad_state.unused_exits)
            # an Enter's gradient is built once the gradient loop is done with it
            for y in grad_state.forward_context.loop_enters:
                if pending_count[y.op] == 0:
                    pending_count[y.op] = 1
        return loop_exits

    def enter_grad_while_context(self, op, before):
        grad_state = self.get_grad_state(op, before)
        if grad_state is not None:
            grad_state.grad_context.enter()

    def exit_grad_while_context(self, op, before):
        grad_state = self.get_grad_state(op, before)
        if grad_state is not None:
            grad_state.grad_context.exit()

    def add_while_context(self, op, between_op_list, between_ops):
        """Make the gradient loop for the loop whose Exit ``op`` is (once per loop)."""
        forward_ctxt = util.get_while_context(op)
        if forward_ctxt in self._map:
            return
        outer_forward_ctxt = forward_ctxt.outer_context
        if outer_forward_ctxt is not None:
            outer_forward_ctxt = outer_forward_ctxt.get_while_context()
        outer_grad_state = self._map.get(outer_forward_ctxt) if outer_forward_ctxt is not None else None
        grad_state = GradLoopState(forward_ctxt, outer_grad_state)
        self._map[forward_ctxt] = grad_state
        # every exit of the loop takes part, even one ys does not depend on
        for loop_exit in grad_state.forward_loop_exits:
            if loop_exit.op not in between_ops:
                between_ops.add(loop_exit.op)
                between_op_list.append(loop_exit.op)

    def zeros_like_for_exit(self, val):
        """Zeros for an Exit no gradient reached (built where that gradient loop's result is needed)."""
        from graphlab.ops import array_ops
        val_shape = val.shape
        forward_ctxt = val.op._control_flow_context
        outer_forward_ctxt = forward_ctxt.outer_context
        if outer_forward_ctxt is not None:
            outer_forward_ctxt = outer_forward_ctxt.get_while_context()
        outer_grad_state = self._map.get(outer_forward_ctxt) if outer_forward_ctxt is not None else None
        if outer_grad_state is None:
            if val_shape.is_fully_defined():
                return array_ops.zeros(val_shape.as_list(), val.dtype.base_dtype)
            return array_ops.zeros_like(val, optimize=False)
        if val_shape.is_fully_defined():
            outer_grad_state.grad_context.enter()
            try:
                return array_ops.zeros(val_shape.as_list(), val.dtype.base_dtype)
            finally:
                outer_grad_state.grad_context.exit()
        forward_ctxt.outer_context.enter()
        try:
            shape = array_ops.shape(val, optimize=False)
        finally:
            forward_ctxt.outer_context.exit()
        history_shape = outer_grad_state.add_forward_accumulator(shape)
        outer_grad_state.grad_context.enter()
        try:
            real_shape = outer_grad_state.add_backprop_accumulated_value(history_shape, shape)
            return array_ops.zeros(real_shape, val.dtype.base_dtype)
        finally:
            outer_grad_state.grad_context.exit()

    def zeros_like_in_loop(self, op, index):
        """Zeros for output ``index`` of ``op`` (inside a forward loop) that got no gradient. Its shape may
        change from iteration to iteration, so unless it is fully known it is stacked like any value; for a
        cond's Switch the zeros stand on the branch not taken."""
        from graphlab.ops import array_ops
        from graphlab.ops.control_flow_ops import switch
        if util.is_loop_switch(op):
            return None
        dead_branch = util.is_switch(op)
        forward_ctxt = util.get_while_context(op)
        grad_state = self._map.get(forward_ctxt)
        if grad_state is None:
            return zeros_like_outside_loops(op, index)
        op_ctxt = op._control_flow_context
        val = op._outputs[index]
        shape = val.shape
        if shape.is_fully_defined():
            result = registry.constant(0, shape=shape.as_list(), dtype=val.dtype.base_dtype)
            if dead_branch:
                pred = grad_state.history_map.get(op_ctxt.pred)
                result = switch(result, pred)[1 - op_ctxt.branch]
            return result
        if dead_branch:
            op_ctxt.outer_context.enter()
            try:
                val = switch(op._inputs[0], op_ctxt.pred)[1 - op_ctxt.branch]
                zeros_shape = array_ops.shape(val, optimize=False)
            finally:
                op_ctxt.outer_context.exit()
            val.op._control_flow_context = op_ctxt
            zeros_shape.op._control_flow_context = op_ctxt
        else:
            op_ctxt.enter()
            try:
                zeros_shape = array_ops.shape(val, optimize=False)
            finally:
                op_ctxt.exit()
        grad_state.grad_context.exit()
        try:
            history_shape = grad_state.add_forward_accumulator(zeros_shape, dead_branch=dead_branch)
        finally:
            grad_state.grad_context.enter()
        real_shape = grad_state.add_backprop_accumulated_value(history_shape, zeros_shape, dead_branch)
        return array_ops.zeros(real_shape, val.dtype.base_dtype)

    def post_processing(self):
        """A gradient loop Merge whose back edge no gradient reached gets zeros as its next value."""
        from graphlab.ops import array_ops
        from graphlab.ops.control_flow_ops import next_iteration
        for grad_state in self._map.values():
            for b_merge in grad_state.switch_map.values():
                first, second = b_merge.op._inputs
                if first is not second:
                    continue
                dtype, shape = first.dtype.base_dtype, first.shape
                if shape.is_fully_defined():
                    grad_state.grad_context.enter()
                    try:
                        grad_val = registry.constant(0, dtype=dtype, shape=shape.as_list())
                        next_grad_val = next_iteration(grad_val)
                    finally:
                        grad_state.grad_context.exit()
                else:
                    outer_grad_ctxt = grad_state.grad_context.outer_context
                    if outer_grad_ctxt is not None:
                        outer_grad_ctxt.enter()
                    try:
                        enter_grad = first.op._inputs[0]
                        grad_shape = array_ops.shape(enter_grad, optimize=False)
                        grad_val = array_ops.zeros(grad_shape)
                    finally:
                        if outer_grad_ctxt is not None:
                            outer_grad_ctxt.exit()
                    grad_state.grad_context.enter()
                    try:
                        next_grad_val = next_iteration(grad_val)
                    finally:
                        grad_state.grad_context.exit()
                b_merge.op._update_input(1, next_grad_val)


def maybe_create_control_flow_state(between_op_list, between_ops):
    """A ControlFlowState when the ops between ys and xs include a loop Exit, else None."""
    loop_state = None
    for op in list(between_op_list):
        if util.is_loop_exit(op):
            if loop_state is None:
                loop_state = ControlFlowState()
            loop_state.add_while_context(op, between_op_list, between_ops)
    return loop_state


def zeros_like_outside_loops(op, index):
    """Zeros for an output that got no gradient: for a cond's Switch, on the branch not taken (shaped by
    that branch's value), else zeros_like."""
    from graphlab.ops import array_ops
    from graphlab.ops.control_flow_ops import switch
    val = op._outputs[index]
    is_handle = val.dtype.base_dtype == dtypes.resource
    if not util.is_switch(op):
        if is_handle:
            return _zeros_for_variable(val)
        return array_ops.zeros_like(val, optimize=False)
    op_ctxt = op._control_flow_context
    if op_ctxt is not None and op_ctxt.is_cond_context:
        switch_val = switch(op._inputs[0], op_ctxt.pred)[1 - op_ctxt.branch]
        pivot = array_ops.identity(switch_val)
        if is_handle:
            with op._graph.control_dependencies([pivot]):
                return _zeros_for_variable(switch_val)
        zeros_shape = array_ops.shape(switch_val, optimize=False)
        with op._graph.control_dependencies([pivot]):
            return array_ops.zeros(zeros_shape, dtype=val.dtype.base_dtype)
    return array_ops.zeros_like(val, optimize=False)


def _zeros_for_variable(handle):
    """Zeros standing for a resource variable's missing gradient: the variable's own dtype and shape (read from
    the handle by VariableShape), since a handle has no values of its own to be zero. TF does the same when the
    other branch of a cond reads the variable (Keras's BatchNormalization reads gamma in both branches)."""
    from graphlab.ops import array_ops, resource_variable_ops
    dtype = resource_variable_ops._declared(handle)[0] or dtypes.float32
    shape = registry.build_op("VariableShape", [handle], attrs={"out_type": dtypes.int32}).outputs[0]   # never folded
    return array_ops.zeros(shape, dtype=dtype)
