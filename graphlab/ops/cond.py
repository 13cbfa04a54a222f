"""``tf.cond`` as TF1 builds it, and the ``CondContext`` each branch is built in.

The predicate goes through a Switch whose two outputs become the branches' pivots (``switch_t``,
``switch_f``). While a branch function runs, its CondContext is the graph's context: every op it builds is
handed to ``add_op``, which gives an input from outside the branch a Switch on the predicate (named in the
op's scope: ``cond/add/Switch``, made right after the op, as TF does) and makes an op without inputs wait
for the pivot. So only ops built *inside* the branch functions are conditional; a tensor made before the
cond is computed whichever branch is taken. A Merge per result joins the branches.
"""
from graphlab.framework import nest
from graphlab.framework.operation import Operation
from graphlab.framework.tensor import Tensor
from graphlab.framework import control_flow_util as util
from graphlab.framework import registry
from graphlab.framework.control_flow_context import ControlFlowContext


class CondContext(ControlFlowContext):
    """One branch of a cond: ``pred`` (the cond's ``pred_id``), ``pivot`` (``switch_t``/``switch_f``) and
    ``branch`` (1 for true_fn, 0 for false_fn)."""

    is_cond_context = True

    def __init__(self, pred, pivot, branch, name="cond_text"):
        graph = pred.graph
        self.name = graph.unique_name(name)
        super().__init__(graph)
        self.pred, self.pivot, self.branch = pred, pivot, branch
        self._values.add(pred)
        self._external_values[pred] = pred
        self._values.add(pivot)
        pivot.op._control_flow_context = self

    def get_control_pivot(self):
        return self.pivot

    def add_value(self, val):
        """``val`` as this branch sees it: itself if made inside, else (once) a Switch on the predicate that
        passes it on this branch's side, after the enclosing contexts routed it in."""
        if val in self._values:
            result = self._external_values.get(val)
            return val if result is None else result
        self._values.add(val)
        result = val
        if self.outer_context is not None:
            result = self.outer_context.add_value(val)
            self._values.add(result)
            self._external_values[result] = result
        graph = self._graph
        with graph.control_dependencies(None), graph.colocate_with(result, ignore_existing=True):
            result = switch(result, self.pred)[self.branch]     # TF's _SwitchRefOrTensor: with its data
            if self.outer_context is not None:
                self.outer_context.add_inner_op(result.op)
        graph.prevent_fetching(result.op)
        result.op._control_flow_context = self
        ctxt = self
        while ctxt is not None:
            ctxt._values.add(result)
            ctxt = ctxt.outer_context
        self._external_values[val] = result
        return result

    def add_op(self, op):
        if not op._inputs:
            self._remove_external_control_edges(op)
            # an op without inputs runs only on this branch if it waits for the pivot (or for something
            # else built in the branch)
            if not any(util.op_in_context(c, self) for c in op._control_inputs):
                op._add_control_input(self.pivot.op)
        else:
            for index, x in enumerate(op._inputs):
                if op._type in util.MERGE_TYPES and x._op._type in util.NEXT_ITERATION_TYPES:
                    continue          # a loop's back edge, not a value from outside
                real_x = self.add_value(x)
                if real_x is not x:
                    op._update_input(index, real_x)
            self._remove_external_control_edges(op)
        ctxt = self
        while ctxt is not None:
            ctxt._values.update(op._outputs)
            ctxt = ctxt.outer_context
        if self.outer_context is not None or not util.is_loop_exit(op):
            op._graph.prevent_fetching(op)
        if self.outer_context is not None:
            self.outer_context.add_inner_op(op)

    # add_op is what build_op calls (TF's AddOp); a gradient loop hands a Shape of a value made in this branch
    # back to the branch through _add_op_internal (TF's _AddOpInternal, the same thing for a cond)
    AddOp = _add_op_internal = add_op

    def _process_output_tensor(self, val):
        """A branch result: made outside the branch, it too gets this branch's Switch (in the cond's scope,
        e.g. ``cond/Switch_1``), so the Merge sees a value only on the taken side."""
        if val not in self._values:
            self._values.add(val)
            real_val = val
            if self.outer_context is not None:
                real_val = self.outer_context.add_value(val)
                self._values.add(real_val)
                self._external_values[real_val] = real_val
            with self._graph.colocate_with(real_val, ignore_existing=True):
                real_val = switch(real_val, self.pred)[self.branch]
            self._external_values[val] = real_val
            return real_val
        external = self._external_values.get(val)
        return val if external is None else external

    def build_branch(self, fn):
        """Run ``fn`` in this context; returns (its result as given, the flat list of tensors to merge)."""
        from graphlab.ops.control_flow_ops import with_dependencies
        original = fn()
        if original is None:
            return None, None
        flat = []
        for v in nest.flatten(original):
            if isinstance(v, Operation):       # an op stands in as the pivot, once it ran
                flat.append(with_dependencies([v], self.pivot))
            else:
                flat.append(self._process_output_tensor(_as_tensor_or_flow(v)))
        return original, flat


def _as_tensor_or_flow(v):
    flow = getattr(v, "flow", None)       # a TensorArray travels as its flow tensor
    if flow is not None and not isinstance(v, Tensor):
        return flow
    return registry.convert_to_tensor(v)


def switch(data, pred, name=None):
    from graphlab.ops.control_flow_ops import switch as _switch
    return _switch(data, pred, name=name)


def cond(pred, true_fn=None, false_fn=None, strict=False, name=None, fn1=None, fn2=None):
    """``tf.cond`` with TF1's laziness: ops created *inside* ``true_fn``/``false_fn`` run only on their
    branch; tensors created before the call are computed whatever ``pred`` says."""
    from graphlab.framework import graph as graph_mod
    from graphlab.ops import array_ops
    from graphlab.ops.control_flow_ops import merge
    if fn1 is not None:
        if true_fn is not None:
            raise TypeError("cond(): 'true_fn' and 'fn1' may not be set simultaneously.")
        true_fn = fn1
    elif true_fn is None:
        raise TypeError("cond(): 'true_fn' argument required")
    if fn2 is not None:
        if false_fn is not None:
            raise TypeError("cond(): 'false_fn' and 'fn2' may not be set simultaneously.")
        false_fn = fn2
    elif false_fn is None:
        raise TypeError("cond(): 'false_fn' argument required")
    if not callable(true_fn):
        raise TypeError("'true_fn' must be callable.")
    if not callable(false_fn):
        raise TypeError("'false_fn' must be callable.")
    with graph_mod.name_scope(name, "cond", [pred]):
        if isinstance(pred, bool):
            raise TypeError("'pred' must not be a Python bool.")
        graph = graph_mod.get_default_graph()
        p_false, p_true = switch(pred, pred)
        pivot_t = array_ops.identity(p_true, name="switch_t")
        pivot_f = array_ops.identity(p_false, name="switch_f")
        pred = array_ops.identity(pred, name="pred_id")
        for t in (p_true, p_false, pivot_t, pivot_f, pred):
            graph.prevent_fetching(t.op)
        results, contexts = [], []
        for fn, pivot, branch, which in ((true_fn, pivot_t, 1, "true_fn"), (false_fn, pivot_f, 0, "false_fn")):
            context = CondContext(pred, pivot, branch)
            contexts.append(context)
            context.enter()
            try:
                original, flat = context.build_branch(fn)
                if original is None:
                    raise ValueError("'%s' must have a return value." % which)
                context.exit_result(flat)
            finally:
                context.exit()
            results.append((original, flat))
        (orig_t, res_t), (orig_f, res_f) = results
        if not strict:
            orig_t, orig_f = _unpack_if_singleton(orig_t), _unpack_if_singleton(orig_f)
        _assert_same_structure(orig_t, orig_f)
        if not res_t:
            raise ValueError("'true_fn' and 'false_fn' must return at least one result.")
        for x, y in zip(res_t, res_f):
            if x.dtype.base_dtype != y.dtype.base_dtype:
                raise ValueError("Outputs of 'true_fn' and 'false_fn' must have the same type(s). Received %s "
                                 "from 'true_fn' and %s from 'false_fn'." % (x.dtype.name, y.dtype.name))
        merges = [merge([f, t])[0] for f, t in zip(res_f, res_t)]
        if context.outer_context is None:
            from graphlab.framework.graph import GraphKeys
            for c in contexts:
                graph.add_to_collection(GraphKeys.COND_CONTEXT, c)
        merges = nest.pack_sequence_as(orig_t, [_as_flow_holder(o, m) for o, m in zip(nest.flatten(orig_t), merges)])
        if not strict:
            merges = _unpack_if_singleton(merges)
        return merges


def _as_flow_holder(original, merged):
    """A TensorArray result comes back as a TensorArray on the merged flow."""
    rebuild = getattr(original, "_with_flow", None)
    return rebuild(merged) if rebuild is not None and not isinstance(original, Tensor) else merged


def _unpack_if_singleton(res):
    if isinstance(res, (list, tuple)) and len(res) == 1:
        return res[0]
    return res


def _assert_same_structure(a, b):
    try:
        nest.assert_same_structure(a, b)
    except ValueError as e:
        raise ValueError("Incompatible return values of 'true_fn' and 'false_fn': %s" % e) from None


__all__ = ["cond", "CondContext"]
