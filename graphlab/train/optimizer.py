"""``tf.train.Optimizer``: the TF1 base class. ``minimize`` = ``compute_gradients`` (gradient ops under
``gradients/``) + ``apply_gradients`` (slot variables such as ``w/Adam``, then one fused update op per
variable under ``<Name>/update_<var>/``, grouped into the returned train op).

Subclasses say which slots they need (``_create_slots``), which hyper-parameters become tensors
(``_prepare``) and which training op updates one variable (``_apply_dense``; ``_apply_sparse`` for the
IndexedSlices gradient of an embedding lookup, which updates only the rows looked up).
"""
from graphlab.framework import dtypes, graph as graph_mod
from graphlab.framework.graph import GraphKeys
from graphlab.framework.indexed_slices import IndexedSlices, convert_to_tensor_or_indexed_slices
from graphlab.framework.tensor import Tensor
from graphlab.gradients import gradients
from graphlab.ops import control_flow_ops, resource_variable_ops, state_ops
from graphlab.framework.registry import build_op, convert_to_tensor

_VALID_DTYPES = None


def _valid_dtypes():
    global _VALID_DTYPES
    if _VALID_DTYPES is None:
        _VALID_DTYPES = {dtypes.float16, dtypes.bfloat16, dtypes.float32, dtypes.float64, dtypes.complex64,
                         dtypes.complex128}
    return _VALID_DTYPES


def _var_key(var):
    return (var.op.graph, var.op.name)


class Optimizer:
    """Base class: do not instantiate; use GradientDescentOptimizer, AdamOptimizer, ..."""

    GATE_NONE = 0
    GATE_OP = 1
    GATE_GRAPH = 2

    def __init__(self, use_locking, name):
        if not name:
            raise ValueError("Must specify the optimizer name")
        self._use_locking = use_locking
        self._name = name
        self._slots = {}            # slot name -> {var key: slot Variable}
        self._non_slot_dict = {}    # (name, graph) -> Variable (Adam's beta1_power, ...)

    def get_name(self):
        return self._name

    # --- the three public steps ----------------------------------------------------------------------
    def minimize(self, loss, global_step=None, var_list=None, gate_gradients=GATE_OP, aggregation_method=None,
                 colocate_gradients_with_ops=False, name=None, grad_loss=None):
        """Add gradient and update ops for ``loss``; returns the op that performs one training step."""
        grads_and_vars = self.compute_gradients(loss, var_list=var_list, gate_gradients=gate_gradients,
                                                aggregation_method=aggregation_method,
                                                colocate_gradients_with_ops=colocate_gradients_with_ops,
                                                grad_loss=grad_loss)
        vars_with_grad = [v for g, v in grads_and_vars if g is not None]
        if not vars_with_grad:
            raise ValueError(
                "No gradients provided for any variable, check your graph for ops that do not support "
                "gradients, between variables %s and loss %s." % ([str(v) for _, v in grads_and_vars], loss))
        return self.apply_gradients(grads_and_vars, global_step=global_step, name=name)

    def compute_gradients(self, loss, var_list=None, gate_gradients=GATE_OP, aggregation_method=None,
                          colocate_gradients_with_ops=False, grad_loss=None):
        """A list of (gradient or None, variable) pairs for the trainable variables (or ``var_list``)."""
        if callable(loss):
            loss = loss()
        if gate_gradients not in (Optimizer.GATE_NONE, Optimizer.GATE_OP, Optimizer.GATE_GRAPH):
            raise ValueError("gate_gradients must be one of: Optimizer.GATE_NONE, Optimizer.GATE_OP, "
                             "Optimizer.GATE_GRAPH.  Not %s" % gate_gradients)
        loss = convert_to_tensor(loss)
        self._assert_valid_dtypes([loss])
        if grad_loss is not None:
            self._assert_valid_dtypes([convert_to_tensor(grad_loss)])
        graph = loss.graph
        if var_list is None:
            var_list = graph.get_collection(GraphKeys.TRAINABLE_VARIABLES)
        else:
            var_list = list(_flatten(var_list))
        if not var_list:
            raise ValueError("No variables to optimize.")
        var_refs = [_target(v) for v in var_list]
        grads = gradients(loss, var_refs, grad_ys=grad_loss, gate_gradients=gate_gradients == Optimizer.GATE_OP,
                          aggregation_method=aggregation_method)
        if gate_gradients == Optimizer.GATE_GRAPH:
            grads = control_flow_ops.tuple(grads)
        grads_and_vars = list(zip(grads, var_list))
        self._assert_valid_dtypes([v for g, v in grads_and_vars if g is not None])
        return grads_and_vars

    def apply_gradients(self, grads_and_vars, global_step=None, name=None):
        """Add the update ops; with ``global_step`` the returned op also increments it (and is an AssignAdd
        named after the optimizer, as in TF)."""
        grads_and_vars = tuple(grads_and_vars)
        if not grads_and_vars:
            raise ValueError("No variables provided.")
        converted = []
        for g, v in grads_and_vars:
            if g is not None:
                try:
                    g = convert_to_tensor_or_indexed_slices(g)
                except TypeError:
                    raise TypeError("Gradient must be convertible to a Tensor or IndexedSlices, or None: %s"
                                    % (g,)) from None
            if not (_is_resource(v) or hasattr(v, "_ref")):
                raise NotImplementedError("Trying to update a Tensor %s" % (v,))
            converted.append((g, v))
        var_list = [v for g, v in converted if g is not None]
        if not var_list:
            raise ValueError("No gradients provided for any variable: %s." % ([str(v) for _, v in converted],))
        graph = var_list[0].graph
        with graph.as_default():
            with graph.control_dependencies(None):   # TF's init_scope: out of control flow, same name scope
                self._create_slots(var_list)
            update_ops = []
            with graph.name_scope(name or self._name) as scope:
                self._prepare()
                for grad, var in converted:
                    if grad is None:
                        continue
                    with graph.name_scope("update_" + var.op.name), graph.colocate_with(var):
                        if _is_resource(var):        # TF's _DenseResourceVariableProcessor
                            if isinstance(grad, IndexedSlices):
                                update_ops.append(self._resource_apply_sparse_duplicate_indices(
                                    grad.values, var, grad.indices))
                            else:
                                update_ops.append(self._resource_apply_dense(grad, var))
                        elif isinstance(grad, IndexedSlices):
                            update_ops.append(self._apply_sparse_duplicate_indices(grad, var))
                        else:
                            update_ops.append(self._apply_dense(grad, var))
                if global_step is None:
                    apply_updates = self._finish(update_ops, scope)
                else:
                    with graph.control_dependencies([self._finish(update_ops, "update")]), \
                            graph.colocate_with(global_step):
                        if resource_variable_ops.is_resource_variable(global_step):
                            # TF's AssignAddVariableOp named as the step itself, with no read after it
                            apply_updates = build_op("AssignAddVariableOp", [global_step.handle, convert_to_tensor(
                                1, dtype=global_step.dtype.base_dtype)], name=scope)
                        else:
                            apply_updates = state_ops.assign_add(global_step, 1, name=scope)
            if isinstance(apply_updates, Tensor):
                apply_updates = apply_updates.op
            train_ops = graph.get_collection_ref(GraphKeys.TRAIN_OP)
            if apply_updates not in train_ops:
                train_ops.append(apply_updates)
            return apply_updates

    # --- slots ---------------------------------------------------------------------------------------
    def get_slot_names(self):
        """The slot names this optimizer created, sorted (``['m', 'v']`` for Adam)."""
        return sorted(self._slots)

    def get_slot(self, var, name):
        """The slot variable ``name`` kept for ``var`` (e.g. Adam's ``m``), or None."""
        named = self._slots.get(name)
        if not named:
            return None
        return named.get(_var_key(var))

    def variables(self):
        """Every variable this optimizer created (slots and accumulators such as beta1_power)."""
        graph = graph_mod.get_default_graph()
        found = [v for (n, g), v in sorted(self._non_slot_dict.items(), key=lambda kv: kv[0][0]) if g is graph]
        for named in self._slots.values():
            found.extend(v for key, v in named.items() if key[0] is graph)
        return sorted(found, key=lambda v: v.name)

    def _slot_dict(self, slot_name):
        return self._slots.setdefault(slot_name, {})

    def _get_or_make_slot_with_initializer(self, var, initializer, shape, dtype, slot_name, op_name):
        named = self._slot_dict(slot_name)
        key = _var_key(var)
        if key not in named:
            named[key] = _create_slot(var, initializer, shape, dtype, op_name)
        return named[key]

    def _get_or_make_slot(self, var, val, slot_name, op_name):
        """A slot initialised from the tensor ``val`` (TF's slot_creator.create_slot)."""
        named = self._slot_dict(slot_name)
        key = _var_key(var)
        if key not in named:
            named[key] = _create_slot(var, val, None, None, op_name)
        return named[key]

    def _zeros_slot(self, var, slot_name, op_name):
        from graphlab.ops import init_ops
        return self._get_or_make_slot_with_initializer(var, init_ops.zeros_initializer(), var.get_shape(),
                                                       var.dtype.base_dtype, slot_name, op_name)

    def _create_non_slot_variable(self, initial_value, name, colocate_with):
        """beta1_power ...: a resource variable when the variable it goes with is one, as in TF."""
        from graphlab.ops.variables import Variable
        graph = colocate_with.graph
        key = (name, graph)
        v = self._non_slot_dict.get(key)
        if v is None:
            with graph.as_default(), graph.colocate_with(colocate_with):
                v = Variable(initial_value, name=name, trainable=False, use_resource=_is_resource(colocate_with))
            self._non_slot_dict[key] = v
        return v

    def _get_non_slot_variable(self, name, graph=None):
        return self._non_slot_dict.get((name, graph or graph_mod.get_default_graph()))

    # --- hooks for subclasses --------------------------------------------------------------------------
    def _create_slots(self, var_list):
        pass

    def _prepare(self):
        pass

    def _apply_dense(self, grad, var):
        raise NotImplementedError()

    def _apply_sparse_duplicate_indices(self, grad, var):
        """An IndexedSlices gradient: rows that repeat are summed first (Unique, UnsortedSegmentSum), then
        ``_apply_sparse`` updates each named row once. GradientDescent skips the summing (ScatterSub adds
        repeats up itself)."""
        values, indices = _deduplicate_indexed_slices(grad.values, grad.indices)
        return self._apply_sparse(IndexedSlices(values, indices, grad.dense_shape), var)

    def _apply_sparse(self, grad, var):
        raise NotImplementedError()

    # resource variables: the same steps with handles (ResourceApply*, ResourceSparseApply*), as TF's
    # _resource_apply_dense / _resource_apply_sparse(grad values, variable, indices)
    def _resource_apply_dense(self, grad, handle):
        raise NotImplementedError()

    def _resource_apply_sparse_duplicate_indices(self, grad, handle, indices):
        summed, unique_indices = _deduplicate_indexed_slices(grad, indices)
        return self._resource_apply_sparse(summed, handle, unique_indices)

    def _resource_apply_sparse(self, grad, handle, indices):
        raise NotImplementedError()

    def _resource_apply(self, op_type, var, slots, *inputs, **attrs):
        """``op_type`` (ResourceApplyAdam ...) on the variable's and slots' handles, then ``inputs``."""
        from graphlab.ops import resource_training_ops
        attrs.setdefault("use_locking", bool(self._use_locking))
        handles = [var.handle] + [self.get_slot(var, name).handle for name in slots]
        return resource_training_ops.resource_apply(op_type, handles + list(inputs), **attrs)

    def _finish(self, update_ops, name_scope):
        return control_flow_ops.group(*update_ops, name=name_scope)

    def _call_if_callable(self, param):
        return param() if callable(param) else param

    def _cast_to(self, t, grad):
        """TF's math_ops.cast(t, grad.dtype.base_dtype) of the resource steps."""
        from graphlab.ops import math_ops
        return math_ops.cast(t, grad.dtype.base_dtype)

    def _cast(self, t, var):
        """Hyper-parameter tensor ``t`` in the variable's dtype (no op when it already matches)."""
        if t.dtype.base_dtype == var.dtype.base_dtype:
            return t
        from graphlab.ops import math_ops
        return math_ops.cast(t, var.dtype.base_dtype)

    def _assert_valid_dtypes(self, tensors):
        valid = _valid_dtypes()
        for t in tensors:
            dtype = t.dtype.base_dtype
            if dtype not in valid:
                raise ValueError("Invalid type %r for %s, expected: %s." % (
                    dtype, t.name, [v for v in sorted(valid, key=lambda d: d.name)]))


def _deduplicate_indexed_slices(values, indices):
    """TF's helper: the distinct indices and, for each, the sum of the rows given for it."""
    from graphlab.ops import array_ops, counting_ops
    unique_indices, positions = counting_ops.unique(indices)
    summed = array_ops.unsorted_segment_sum(values, positions, array_ops.shape(unique_indices)[0])
    return summed, unique_indices


def _create_slot(primary, initializer, shape, dtype, op_name):
    """Slot variable for ``primary``, as TF's slot_creator makes it: ``get_variable`` in a fresh variable scope
    ``<primary>/<op_name>`` (``_1``, ... when taken), so its name follows the enclosing *variable* scope
    (``w/Adam``, or ``outer/w/Adam`` when minimize() runs inside ``variable_scope("outer")``), and a reusing
    scope reuses the slots it made before. Initialised by ``initializer``, not trainable."""
    from graphlab.ops.variable_scope import get_variable, variable_scope
    graph = primary.graph
    with graph.as_default(), graph.colocate_with(primary):    # and, as there, goes with its variable
        with variable_scope(None, default_name=primary.op.name + "/" + op_name):
            validate_shape = (shape if shape is not None else initializer.get_shape()).is_fully_defined()
            return get_variable("", shape=shape, dtype=dtype, initializer=initializer, trainable=False,
                                validate_shape=validate_shape, use_resource=_is_resource(primary))


def _is_resource(var):
    return getattr(var, "_is_resource_variable", False)


def _target(var):
    """What tf.gradients differentiates with respect to: a resource variable's handle, a reference
    variable's reference."""
    if _is_resource(var):
        return var.handle
    return var._ref() if hasattr(var, "_ref") else var


def _flatten(items):
    if isinstance(items, dict):
        items = list(items.values())
    for x in items:
        if isinstance(x, (list, tuple)):
            yield from _flatten(x)
        else:
            yield x
