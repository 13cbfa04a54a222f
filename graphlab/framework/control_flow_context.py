"""What every control-flow context shares: the cond branch (graphlab/ops/cond.py) and the while-loop body
(graphlab/ops/while_loop.py) being built.

While a branch or body is built, the graph's ``_control_flow_context`` is that context, and ``build_op``
hands it each new op (``add_op``), which rewires the op's inputs that come from outside through the
context's gate: a Switch for a cond branch, an Enter for a loop. Each op keeps the context it was built in
(``op._control_flow_context``), so gradients and the executor can find the cond or loop an op belongs to.
``graph.control_dependencies(None)`` leaves every context, as in TF: ops built there belong to none.
"""
from graphlab.framework import control_flow_util as util


class ControlFlowContext:
    """A cond branch or loop body: the tensors known inside it, and how outside tensors enter it."""

    is_while_context = False
    is_cond_context = False

    def __init__(self, graph):
        self._graph = graph
        self.outer_context = graph._control_flow_context
        self._values = set()            # tensors that are valid inside this context as they are
        self._external_values = {}      # an outside tensor -> what stands for it in here
        self._context_stack = []
        self._nested_contexts = []      # contexts built inside this one (written into meta graphs, as TF)
        if self.outer_context is not None:
            self.outer_context._nested_contexts.append(self)

    # --- entering and leaving ------------------------------------------------------------------------
    def enter(self):
        """Make this the context new ops are built in (until ``exit``)."""
        self._context_stack.append(self._graph._control_flow_context)
        self._graph._control_flow_context = self

    def exit(self):
        self._graph._control_flow_context = self._context_stack.pop()

    def exit_result(self, tensors):
        """Make ``tensors`` (results leaving this context) known to the outer context."""
        if self.outer_context is not None:
            for t in tensors:
                self.outer_context.add_name(t)

    def add_name(self, tensor):
        self._values.add(tensor)

    # --- structure -----------------------------------------------------------------------------------
    def get_while_context(self):
        """The innermost while loop around this context (itself for a loop), or None."""
        return self.outer_context.get_while_context() if self.outer_context is not None else None

    def get_control_pivot(self):
        return None

    @property
    def grad_state(self):
        while_ctxt = self.get_while_context()
        return while_ctxt.grad_state if while_ctxt is not None else None

    @property
    def back_prop(self):
        while_ctxt = self.get_while_context()
        return while_ctxt.back_prop if while_ctxt is not None else False

    def add_inner_op(self, op):
        """Told about an op added to a context nested in this one."""
        if self.outer_context is not None:
            self.outer_context.add_inner_op(op)

    def _remove_external_control_edges(self, op):
        """Drop ``op``'s control inputs from outside the enclosing loop (they could not reach an op that runs
        once per iteration); return (kept, removed)."""
        while_ctxt = self.get_while_context()
        if while_ctxt is None:
            return list(op._control_inputs), []
        internal, external = [], []
        for c in op._control_inputs:
            ctxt = util.get_output_context(c)
            if ctxt is not None and ctxt.get_while_context() is while_ctxt:
                internal.append(c)
            else:
                external.append(c)
        if len(internal) != len(op._control_inputs):
            op._remove_all_control_inputs()
            op._add_control_inputs(internal)
        return internal, external

    def __repr__(self):
        return "<%s %s>" % (type(self).__name__, self.name)
