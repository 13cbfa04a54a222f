"""``tf.while_loop`` as TF1 builds it: a frame of Enter, Merge, LoopCond, Switch, Identity, NextIteration
and Exit ops (control flow v1), and the ``WhileContext`` the condition and body are built in.

For each loop variable: ``Enter`` takes the initial value into the loop's frame, ``Merge`` picks it in the
first iteration and the ``NextIteration`` value afterwards, the condition's result becomes ``LoopCond``,
a ``Switch`` sends the value to the body (through an ``Identity``) while it holds and to the ``Exit``
once it does not. A tensor from outside the loop that the body reads enters once through a constant
``Enter`` (made right after the op that reads it, named ``<op>/Enter``). graphlab/runtime/frames.py runs
the frame; graphlab/ops/control_flow_state.py builds its gradient.
"""
from graphlab.framework import graph as graph_mod, nest, tensor_shape
from graphlab.framework.graph import GraphKeys
from graphlab.framework.tensor import Tensor
from graphlab.framework import control_flow_util as util
from graphlab.framework import registry
from graphlab.framework.control_flow_context import ControlFlowContext


class WhileContext(ControlFlowContext):
    """The body and condition of one while loop; also the gradient loop of a forward loop (``grad_state``
    set), which counts its iterations down and pops the values the forward loop pushed."""

    is_while_context = True

    def __init__(self, maximum_iterations=None, parallel_iterations=10, back_prop=True, swap_memory=False,
                 name="while_context", grad_state=None):
        graph = graph_mod.get_default_graph()
        if not isinstance(parallel_iterations, int) or parallel_iterations <= 0:
            raise ValueError("'parallel_iterations' must be a positive integer: %s" % parallel_iterations)
        self.name = graph.unique_name(name)
        super().__init__(graph)
        graph._has_while_loops = True
        self.maximum_iterations = maximum_iterations
        self.parallel_iterations = parallel_iterations
        self._back_prop = back_prop
        self.swap_memory = swap_memory
        self._grad_state = grad_state
        self._pivot_for_pred = None     # gates the constants the condition builds
        self._pivot_for_body = None     # gates the constants the body builds
        self.pivot = None               # the LoopCond
        self.loop_exits = []
        self.loop_enters = []

    @property
    def grad_state(self):
        return self._grad_state

    @property
    def back_prop(self):
        return self._back_prop

    def get_while_context(self):
        return self

    def get_control_pivot(self):
        return self._pivot_for_body if self._pivot_for_body is not None else self._pivot_for_pred

    # --- values from outside --------------------------------------------------------------------------
    def add_value(self, val):
        """``val`` as the loop body sees it: itself if made in the loop, else a constant Enter (made once).
        In a gradient loop, a value of the forward loop is that iteration's value, popped from a stack."""
        if val not in self._values and val._op._control_flow_context is not self:
            self._values.add(val)
            grad_ctxt = self._graph._control_flow_context
            if grad_ctxt is not None:
                grad_ctxt = grad_ctxt.get_while_context()
                if grad_ctxt is not None and grad_ctxt.grad_state is not None:
                    forward_ctxt = util.get_while_context(val._op)
                    if util.is_loop_exit(val._op):
                        forward_ctxt = forward_ctxt.outer_context
                        if forward_ctxt is not None:
                            forward_ctxt = forward_ctxt.get_while_context()
                    if forward_ctxt is grad_ctxt.grad_state.forward_context:
                        real_val = grad_ctxt.grad_state.get_real_value(val)
                        self._external_values[val] = real_val
                        return real_val
            result = val
            if self.outer_context is not None:
                result = self.outer_context.add_value(val)
            graph = self._graph
            with graph.control_dependencies(None):
                from graphlab.ops.control_flow_ops import enter
                entered = enter(result, self.name, is_constant=True,
                                parallel_iterations=self.parallel_iterations)
                graph.prevent_feeding(entered)
                if self.outer_context is not None:
                    self.outer_context.add_inner_op(entered.op)
            self._fix_control_inputs_and_context([entered])
            self._values.add(entered)
            self._external_values[val] = entered
            return entered
        actual = self._external_values.get(val)
        return val if actual is None else actual

    # --- ops built inside -----------------------------------------------------------------------------
    def add_op(self, op):
        # In a gradient loop, a Shape, Size or Rank of a forward value is computed in the forward loop (its
        # result is what gets stacked, not the whole tensor).
        if op._type in ("Shape", "Size", "Rank"):
            grad_ctxt = self._graph._control_flow_context
            if grad_ctxt is not None:
                grad_ctxt = grad_ctxt.get_while_context()
                if grad_ctxt is not None and grad_ctxt.grad_state is not None:
                    input_forward = util.get_while_context(op._inputs[0]._op)
                    if input_forward is grad_ctxt.grad_state.forward_context:
                        input_ctxt = op._inputs[0]._op._control_flow_context
                        op._control_flow_context = input_ctxt
                        input_ctxt._add_op_internal(op)
                        return
        self._add_op_internal(op)

    AddOp = add_op

    def _add_op_internal(self, op):
        if not op._inputs:
            control_inputs, external = self._remove_external_control_edges(op)
            if not control_inputs:        # runs once per iteration: wait for the pivot
                op._add_control_input(self.get_control_pivot().op)
            self._values.update(op._outputs)
        else:
            for index, x in enumerate(op._inputs):
                real_x = self.add_value(x)
                if real_x is not x:
                    op._update_input(index, real_x)
            _, external = self._remove_external_control_edges(op)
            self._maybe_add_control_dependency(op)
            self._values.update(op._outputs)
        if external:
            # a control input from outside the loop becomes data: an Identity of it inside the loop
            from graphlab.ops import array_ops
            graph = self._graph
            with graph.control_dependencies(None):
                self.enter()
                try:
                    pulled = [array_ops.identity(x._outputs[0]).op for x in external if x._outputs]
                finally:
                    self.exit()
            op._add_control_inputs(pulled)
        if self.outer_context is not None or not util.is_loop_exit(op):
            op._graph.prevent_fetching(op)
            for t in op._outputs:
                op._graph.prevent_feeding(t)
        if self.outer_context is not None:
            self.outer_context.add_inner_op(op)

    def _maybe_add_control_dependency(self, op):
        """An op whose inputs are all loop constants would run once, not per iteration: make it wait for the
        pivot."""
        if op._control_inputs:
            return
        if all(util.is_loop_constant_enter(x._op) for x in op._inputs):
            op._add_control_input(self.get_control_pivot().op)

    def _fix_control_inputs_and_context(self, enters):
        """Enters take the control dependencies in force outside the loop (from this loop's enclosing
        contexts only) and belong to this loop."""
        graph = self._graph
        for e in enters:
            inp_op = e._op._inputs[0]._op
            control_inputs = graph._control_dependencies_for_inputs([inp_op])
            keep = []
            for c in control_inputs:
                op_ctxt = util.get_output_context(c)
                outer = self.outer_context
                outer_while = outer.get_while_context() if outer is not None else None
                kept = True
                while outer is not op_ctxt:
                    if outer is None or outer is outer_while:
                        kept = False
                        break
                    outer = outer.outer_context
                if kept:
                    keep.append(c)
            e._op._control_flow_context = self
            e._op._add_control_inputs(keep)
            graph._record_op_seen_by_control_dependencies(e._op)

    # --- building the loop ----------------------------------------------------------------------------
    def _build_loop(self, pred, body, flat_orig_loop_vars, flat_loop_vars, structure, flat_invariants):
        from graphlab.ops import array_ops
        from graphlab.ops.control_flow_ops import enter, exit, loop_cond, merge, switch
        graph = self._graph
        self._values = set(flat_loop_vars)
        real_vars = flat_loop_vars
        if self.outer_context is not None:
            real_vars = [self.outer_context.add_value(x) for x in flat_loop_vars]
        enter_vars = []
        with graph.control_dependencies(None):
            for real_var, invariant in zip(real_vars, flat_invariants):
                enter_var = enter(real_var, self.name, is_constant=False,
                                  parallel_iterations=self.parallel_iterations, use_input_shape=False)
                if not _shape_less_than_or_equal(real_var.shape, invariant):
                    raise ValueError(
                        "The shape invariant specified for %s is not compatible with the initial shape of "
                        "the loop variable. It enters the loop with shape %s, but the specified shape "
                        "invariant is %s." % (real_var.name, real_var.shape, invariant))
                enter_var.set_shape(invariant)
                graph.prevent_feeding(enter_var)
                if self.outer_context is not None:
                    self.outer_context.add_inner_op(enter_var.op)
                enter_vars.append(enter_var)
        outer, control_pivot = self.outer_context, None
        while outer is not None and control_pivot is None:
            control_pivot = outer.get_control_pivot()
            outer = outer.outer_context
        if control_pivot is not None:
            for var in enter_vars:
                if util.is_loop_constant_enter(var.op._inputs[0]._op):
                    var.op._add_control_input(control_pivot.op)
        self._fix_control_inputs_and_context(enter_vars)
        self._values = set(enter_vars)
        self.loop_enters = enter_vars

        merge_vars = [merge([x, x])[0] for x in enter_vars]
        self._pivot_for_pred = merge_vars[0]
        packed = nest.pack_sequence_as(structure, _with_tensor_arrays(flat_orig_loop_vars, merge_vars))
        c = registry.convert_to_tensor(pred(*packed))
        self.pivot = loop_cond(c, name="LoopCond")
        switch_vars = []
        for x in merge_vars:     # TF's _SwitchRefOrTensor: each Switch goes with its Merge
            with x.graph.colocate_with(x, ignore_existing=True):
                switch_vars.append(switch(x, self.pivot))
        vars_for_body = [array_ops.identity(x[1]) for x in switch_vars]
        self._pivot_for_body = vars_for_body[0]
        packed = nest.pack_sequence_as(structure, _with_tensor_arrays(flat_orig_loop_vars, vars_for_body))
        body_result = body(*packed)
        if not nest.is_nested(body_result):
            body_result = [body_result]
        nest.assert_same_structure(list(packed), list(body_result))
        original_body_result = body_result
        result = [_as_flow(v) for v in nest.flatten(body_result)]
        if len(merge_vars) != len(result):
            raise ValueError("Number of inputs and outputs of 'body' must match 'loop_vars'. Got %d for the "
                             "number of inputs/outputs, and %d for 'loop_vars'." % (len(merge_vars), len(result)))
        for m, v in zip(merge_vars, result):
            add_next_and_back_edge(m, v)
        exit_vars = [exit(x[0]) for x in switch_vars]
        self.loop_exits = exit_vars
        self.exit_result(exit_vars)
        return original_body_result, exit_vars

    def build_loop(self, pred, body, loop_vars, shape_invariants, return_same_structure):
        flat_orig = nest.flatten(loop_vars)
        flat_vars = [_as_flow(v) for v in flat_orig]
        if shape_invariants is None:
            flat_invariants = [t.shape for t in flat_vars]
        else:
            nest.assert_same_structure(loop_vars, shape_invariants)
            flat_invariants = [_as_invariant(s, t) for s, t in zip(nest.flatten(shape_invariants), flat_vars)]
        self.enter()
        try:
            original_body_result, exit_vars = self._build_loop(pred, body, flat_orig, flat_vars, loop_vars,
                                                               flat_invariants)
        finally:
            self.exit()
        flat_result = nest.flatten(original_body_result)
        packed = nest.pack_sequence_as(original_body_result, _with_tensor_arrays(flat_result, exit_vars))
        if return_same_structure:
            return packed
        return packed[0] if len(exit_vars) == 1 else packed

    # --- the gradient loop's bookkeeping (see control_flow_state.py) -----------------------------------
    def add_forward_loop_counter(self, outer_grad_state):
        """Count this forward loop's iterations (``f_count``), so its gradient loop runs as many times.
        Returns (the count after the loop, the counter's NextIteration)."""
        from graphlab.ops import math_ops
        from graphlab.ops.control_flow_ops import enter, exit, merge, next_iteration, switch
        n = registry.constant(0, name="f_count")
        if outer_grad_state is not None:
            # the pushes of one run of an inner loop come before those of the next run
            n.op._add_control_input(outer_grad_state.forward_index.op._inputs[0]._op)
        self.enter()
        try:
            self.add_name(n)
            enter_n = enter(n, self.name, is_constant=False, parallel_iterations=self.parallel_iterations,
                            name="f_count")
            self.loop_enters.append(enter_n)
            merge_n = merge([enter_n, enter_n])[0]
            switch_n = switch(merge_n, self.pivot)
            index = math_ops.add(switch_n[1], 1)
            next_n = next_iteration(index)
            merge_n.op._update_input(1, next_n)
            total = exit(switch_n[0], name="f_count")
            self.loop_exits.append(total)
            self.exit_result([total])
        finally:
            self.exit()
        return total, next_n

    def add_backprop_loop_counter(self, count, outer_grad_state):
        """The gradient loop's own counter (``b_count``): from the forward count down to zero. Returns its
        NextIteration (the gradient loop's index)."""
        from graphlab.ops import math_ops
        from graphlab.ops.control_flow_ops import enter, exit, loop_cond, merge, next_iteration, switch
        one = registry.constant(1, name="b_count")
        self.enter()
        try:
            self.add_name(count)
            enter_count = enter(count, self.name, is_constant=False,
                                parallel_iterations=self.parallel_iterations, name="b_count")
            self.loop_enters.append(enter_count)
            merge_count = merge([enter_count, enter_count])[0]
            self._pivot_for_pred = merge_count
            pred = math_ops.greater_equal(merge_count, one)
            self.pivot = loop_cond(pred, name="b_count")
            switch_count = switch(merge_count, self.pivot)
            index = math_ops.subtract(switch_count[1], one)
            self._pivot_for_body = index
            next_count = next_iteration(index)
            merge_count.op._update_input(1, next_count)
            final_zero = exit(switch_count[0], name="b_count")
            self.loop_exits.append(final_zero)
            if outer_grad_state is not None:
                # the pops of one run of an inner loop come before those of the next run
                outer_grad_state.grad_sync._add_control_input(final_zero.op)
            self.exit_result([final_zero])
        finally:
            self.exit()
        return next_count

    def add_backprop_accumulator(self, op, grad):
        """Sum the gradient a value the body only reads (a constant Enter ``op``) gets in each iteration, in
        a loop of its own inside the gradient loop (``b_acc``); returns the sum."""
        from graphlab.ops import array_ops, math_ops
        from graphlab.ops.control_flow_ops import enter, exit, merge, next_iteration, switch
        if not isinstance(grad, Tensor):
            return self.add_backprop_indexed_slices_accumulator(op, grad)
        self.exit()
        try:
            shape = grad.shape
            outer = self.outer_context
            if shape.is_fully_defined():
                if outer is not None:
                    outer.enter()
                try:
                    acc = registry.constant(0, grad.dtype.base_dtype, shape=shape, name="b_acc")
                finally:
                    if outer is not None:
                        outer.exit()
            else:
                value = op._inputs[0]
                if isinstance(outer, WhileContext) and outer.grad_state is not None:
                    forward_ctxt = self.grad_state.forward_context
                    forward_ctxt.outer_context.enter()
                    try:
                        zeros_shape = array_ops.shape(value, optimize=False)
                    finally:
                        forward_ctxt.outer_context.exit()
                    outer_grad_state = self.grad_state.outer_grad_state
                    history = outer_grad_state.add_forward_accumulator(zeros_shape)
                    outer.enter()
                    try:
                        real_shape = outer_grad_state.add_backprop_accumulated_value(history, zeros_shape)
                        acc = array_ops.zeros(real_shape, grad.dtype.base_dtype)
                    finally:
                        outer.exit()
                else:
                    if outer is not None:
                        outer.enter()
                    try:
                        zeros_shape = array_ops.shape(value, optimize=False)
                        acc = array_ops.zeros(zeros_shape, grad.dtype.base_dtype)
                    finally:
                        if outer is not None:
                            outer.exit()
        finally:
            self.enter()
        self.add_name(acc)
        enter_acc = enter(acc, self.name, is_constant=False, parallel_iterations=self.parallel_iterations,
                          name="b_acc")
        self.loop_enters.append(enter_acc)
        merge_acc = merge([enter_acc, enter_acc], name="b_acc")[0]
        switch_false, switch_true = switch(merge_acc, self.pivot)
        add_acc = math_ops.add(switch_true, grad)
        next_acc = next_iteration(add_acc)
        merge_acc.op._update_input(1, next_acc)
        result = exit(switch_false, name="b_acc")
        self.loop_exits.append(result)
        self.exit_result([result])
        return result

    def add_backprop_indexed_slices_accumulator(self, op, grad):
        """TF's AddBackpropIndexedSlicesAccumulator: an IndexedSlices gradient of a value the body only reads
        (a gather of a loop invariant) is gathered over the iterations by concatenating indices and values
        (starting from one zero row at index 0), keeping the largest dense shape; returns IndexedSlices."""
        from graphlab.framework.indexed_slices import IndexedSlices
        from graphlab.ops import array_ops, math_ops
        from graphlab.ops.control_flow_ops import enter, exit, merge, next_iteration, switch
        values, indices, dense_shape = grad.values, grad.indices, grad.dense_shape
        outer = self.outer_context
        self.exit()
        if outer is not None:
            outer.enter()
        try:
            if values.shape.is_fully_defined():
                values_acc = registry.constant(0, values.dtype.base_dtype, shape=[1] + values.shape.as_list()[1:],
                                               name="b_acc")
            else:
                values_shape = array_ops.shape(op._inputs[0], optimize=False)[1:]
                values_acc = array_ops.zeros(array_ops.concat([[1], values_shape], 0), dtype=values.dtype)
            indices_acc = registry.constant([0], indices.dtype.base_dtype)
            shape_acc = None
            if dense_shape is not None:
                if dense_shape.shape.is_fully_defined():
                    shape_acc = registry.constant(0, dense_shape.dtype.base_dtype, shape=dense_shape.shape)
                else:
                    shape_acc = array_ops.zeros_like(array_ops.shape(op._inputs[0], optimize=False),
                                                     optimize=False, dtype=dense_shape.dtype)
        finally:
            if outer is not None:
                outer.exit()
            self.enter()
        init_acc = [indices_acc, values_acc] + ([shape_acc] if shape_acc is not None else [])
        for t in init_acc:
            self.add_name(t)
        # the accumulators grow: their Enters keep no static shape but the rows'
        enter_acc = [enter(x, self.name, is_constant=False, parallel_iterations=self.parallel_iterations,
                           use_input_shape=False, name="b_acc") for x in init_acc]
        enter_acc[0].set_shape([None])
        if values_acc.shape.ndims is not None:
            enter_acc[1].set_shape([None] + values_acc.shape.as_list()[1:])
        self.loop_enters.extend(enter_acc)
        merge_acc = [merge([x, x], name="b_acc")[0] for x in enter_acc]
        switch_acc = [switch(x, self.pivot) for x in merge_acc]
        acc = [array_ops.concat([xa[1], xv], 0) for xa, xv in zip(switch_acc[:2], [indices, values])]
        if shape_acc is not None:
            acc.append(math_ops.maximum(dense_shape, switch_acc[2][1]))
        for xm, xn in zip(merge_acc, [next_iteration(x) for x in acc]):
            xm.op._update_input(1, xn)
        exit_acc = [exit(x[0], name="b_acc") for x in switch_acc]
        self.loop_exits.extend(exit_acc)
        self.exit_result(exit_acc)
        return IndexedSlices(exit_acc[1], exit_acc[0], exit_acc[2] if shape_acc is not None else None)


# --------------------------------------------------------------------------------------------- helpers
def _as_flow(v):
    """A loop variable as a tensor: a TensorArray travels through the loop as its flow."""
    if isinstance(v, Tensor):
        return v
    flow = getattr(v, "flow", None)
    if flow is not None and hasattr(v, "_with_flow"):
        return flow
    return registry.convert_to_tensor(v)


def _with_tensor_arrays(originals, tensors):
    """``tensors`` with each one that stands for a TensorArray among ``originals`` rebuilt as one."""
    out = []
    for orig, t in zip(originals, tensors):
        rebuild = getattr(orig, "_with_flow", None)
        out.append(rebuild(t) if rebuild is not None and not isinstance(orig, Tensor) else t)
    return out


def _as_invariant(shape, var):
    if hasattr(shape, "_with_flow") or (hasattr(var, "flow") and not isinstance(var, Tensor)):
        return var.shape
    if not isinstance(shape, tensor_shape.TensorShape):
        raise TypeError("'shape' must be one of TypeSpec, TensorShape or None. Received: %s" % type(shape))
    return shape


def _shape_less_than_or_equal(shape1, shape2):
    """Whether ``shape1`` is at least as specific as ``shape2`` (every known dim of shape2 is shape1's)."""
    if shape2.ndims is None:
        return True
    if shape1.ndims != shape2.ndims:
        return False
    return all(d2 is None or d1 == d2 for d1, d2 in zip(shape1.as_list(), shape2.as_list()))


def _enforce_shape_invariant(merge_var, next_var):
    if not _shape_less_than_or_equal(next_var.shape, merge_var.shape):
        enter = merge_var.op._inputs[0]._op
        input_t = enter._inputs[0]
        raise ValueError(
            "Input tensor '%s' enters the loop with shape %s, but has shape %s after one iteration. To allow "
            "the shape to vary across iterations, use the `shape_invariants` argument of tf.while_loop to "
            "specify a less-specific shape." % (input_t.name, input_t.shape, next_var.shape))


def add_next_and_back_edge(m, v, enforce_shape_invariant=True):
    """Close the loop: ``v`` through a NextIteration into the Merge ``m``'s second input."""
    from graphlab.ops.control_flow_ops import next_iteration
    v = next_iteration(registry.convert_to_tensor(v))
    if enforce_shape_invariant:
        _enforce_shape_invariant(m, v)
    m.op._update_input(1, v)
    return v


def while_loop(cond, body, loop_vars, shape_invariants=None, parallel_iterations=10, back_prop=True,
               swap_memory=False, name=None, maximum_iterations=None, return_same_structure=False):
    """``tf.while_loop``: repeat ``body`` while ``cond`` holds, on ``loop_vars`` (a (nested) list/tuple of
    tensors and TensorArrays); at most ``maximum_iterations`` times when given. Builds TF1's frame ops."""
    if not callable(cond):
        raise TypeError("'cond' must be callable.")
    if not callable(body):
        raise TypeError("'body' must be callable.")
    if parallel_iterations < 1:
        raise TypeError("'parallel_iterations' must be a positive integer.")
    if isinstance(loop_vars, Tensor):
        bool(loop_vars)     # TF's TypeError for a bare tensor, raised before the name scope opens
    with graph_mod.name_scope(name, "while", nest.flatten(loop_vars)):
        if not loop_vars:
            raise ValueError("'loop_vars' must be provided.")
        try_to_pack = len(loop_vars) == 1 and not return_same_structure
        if maximum_iterations is not None:
            maximum_iterations = registry.convert_to_tensor(maximum_iterations, name="maximum_iterations")
            if maximum_iterations.shape.ndims != 0:
                raise ValueError("'maximum_iterations' must be a scalar. Received shape: %s"
                                 % maximum_iterations.shape)
            counter = registry.constant(0, dtype=maximum_iterations.dtype, name="iteration_counter")
            orig_cond, orig_body = cond, body
            from graphlab.ops import math_ops
            if try_to_pack:
                loop_vars = (counter, loop_vars[0])
                cond = lambda i, lv: math_ops.logical_and(i < maximum_iterations, orig_cond(lv))  # noqa: E731
                body = lambda i, lv: (i + 1, orig_body(lv))  # noqa: E731
            else:
                loop_vars = (counter, loop_vars)
                cond = lambda i, lv: math_ops.logical_and(i < maximum_iterations, orig_cond(*lv))  # noqa: E731
                body = lambda i, lv: (i + 1, orig_body(*lv))  # noqa: E731
            try_to_pack = False
            if shape_invariants is not None:
                shape_invariants = (tensor_shape.TensorShape([]), shape_invariants)
        context = WhileContext(maximum_iterations=maximum_iterations, parallel_iterations=parallel_iterations,
                               back_prop=back_prop, swap_memory=swap_memory)
        if context.outer_context is None:
            graph_mod.get_default_graph().add_to_collection(GraphKeys.WHILE_CONTEXT, context)
        result = context.build_loop(cond, body, loop_vars, shape_invariants, return_same_structure)
        if maximum_iterations is not None:
            return result[1]
        return result


__all__ = ["while_loop", "WhileContext"]
