"""``tf.train.ExponentialMovingAverage`` and ``assign_moving_average``: shadow copies of variables (or of
tensors such as a batch's mean) that trail them with exponential decay, as TF1 builds them.

The graph is TF's, op for op, because checkpoints and evaluation code address shadows by name
(``w/ExponentialMovingAverage``) and users read these graphs in TensorBoard-like views:

* a Variable's shadow starts from the variable's value. Its initial value is
  ``cond(IsVariableInitialized(w), read w, w's initial value)``, built at the top of the current name
  scope; the shadow's own initializer guards that again (``w/ExponentialMovingAverage/cond``, copies
  such as ``cond/Merge_w/ExponentialMovingAverage``; see ``graphlab.ops.variables._guard_reads``), so
  ``global_variables_initializer()`` works in any order.
* a tensor's shadow starts at zero (``<op name>/ExponentialMovingAverage/Initializer/zeros``); with
  ``zero_debias=True`` it keeps a ``biased`` sum and a ``local_step`` count and is set to
  ``biased / (1 - decay ** local_step)`` at every update.
* each update is ``shadow -= (shadow - value) * (1 - decay)`` (an AssignSub named
  ``<ema name>/AssignMovingAvg``, ``_1`` ...), and ``apply`` returns one NoOp named after the EMA.
"""
from graphlab.ops import variables
from graphlab.framework import dtypes
from graphlab.framework import graph as graph_mod
from graphlab.framework.graph import GraphKeys
from graphlab.ops import array_ops, control_flow_ops, init_ops, math_ops, state_ops
from graphlab.framework.registry import convert_to_tensor
from graphlab.ops.variable_scope import get_variable, get_variable_scope, variable_scope

_AVERAGEABLE = (dtypes.bfloat16, dtypes.float16, dtypes.float32, dtypes.float64)


def assign_moving_average(variable, value, decay, zero_debias=True, name=None):
    """An op moving ``variable`` toward ``value``: ``variable -= (variable - value) * (1 - decay)``.

    With ``zero_debias`` (the default here, unlike in ExponentialMovingAverage) the variable is taken to
    start at zero and two helpers are made in a variable scope named after it (``<var>/biased``,
    ``<var>/local_step``, ``_1`` ... when taken): the variable then holds the debiased average
    ``biased / (1 - decay ** steps)`` (Kingma and Ba, 2015, section 3). Returns the updated value."""
    with graph_mod.name_scope(name, "AssignMovingAvg", [variable, value, decay]) as scope:
        one_minus_decay = convert_to_tensor(1.0 - decay, name="decay")
        if one_minus_decay.dtype.base_dtype != variable.dtype.base_dtype:
            one_minus_decay = math_ops.cast(one_minus_decay, variable.dtype.base_dtype)
        if zero_debias:
            return _zero_debias(variable, value, one_minus_decay)
        return state_ops.assign_sub(_as_ref(variable), (variable - value) * one_minus_decay, name=scope)


def _zero_debias(unbiased_var, value, one_minus_decay):
    """Set ``unbiased_var`` to the debiased average of the ``value`` stream; make its helper variables.

    The helpers live in the variable scope named after the variable itself (its full name, even inside
    another variable scope, as TF does), are not trainable, and start at zero."""
    with variable_scope(unbiased_var.name[:-len(":0")], values=[unbiased_var, value, one_minus_decay]):
        dtype = unbiased_var.dtype.base_dtype
        biased = get_variable(_unused_name("biased"), initializer=init_ops.zeros_initializer(),
                              shape=unbiased_var.get_shape(), dtype=dtype, trainable=False)
        local_step = get_variable(_unused_name("local_step"), shape=[], dtype=dtype,
                                  initializer=init_ops.zeros_initializer(), trainable=False)
    update_biased = state_ops.assign_sub(_as_ref(biased), (biased - value) * one_minus_decay)
    steps = local_step.assign_add(1)
    bias_factor = 1 - math_ops.pow(1.0 - one_minus_decay, steps)
    graph = graph_mod.get_default_graph()
    return state_ops.assign(_as_ref(unbiased_var), update_biased / bias_factor,
                            name=graph.get_name_scope() + "/")


def _unused_name(name):
    """``name``, or ``name_1``, ``name_2`` ... when the current variable scope already has a global
    variable by that name (a second average of the same variable gets its own helpers)."""
    scope = get_variable_scope()
    if scope.reuse:
        return name
    taken = {v.op.name for v in scope.global_variables()}
    full = scope.name + "/" + name
    if full not in taken:
        return name
    i = 1
    while "%s_%d" % (full, i) in taken:
        i += 1
    return "%s_%d" % (name, i)


def _as_ref(variable):
    """What Assign* ops take: a Variable's reference tensor (a raw reference tensor is passed through); a
    resource variable itself (tf.assign_sub and friends call its own methods)."""
    if _is_resource(variable):
        return variable
    return variable._ref() if isinstance(variable, variables.Variable) else variable


def _is_resource(variable):
    return getattr(variable, "_is_resource_variable", False)


def _use_resource(primary):
    """TF's slot_creator: a resource shadow for a resource variable, a reference one for a reference
    variable, the default for a tensor."""
    if _is_resource(primary):
        return True
    return False if isinstance(primary, variables.Variable) else None


def _slot_from_value(primary, value, name):
    """The shadow variable ``<primary>/<name>`` initialised from the tensor ``value``: made by
    get_variable in a fresh variable scope (``<primary>/<name>_1`` if that scope was used before)."""
    with variable_scope(None, default_name=_slot_prefix(primary) + "/" + name), _colocated(primary):
        return get_variable("", initializer=value, trainable=False,
                            validate_shape=value.get_shape().is_fully_defined(), use_resource=_use_resource(primary))


def _colocated(primary):
    """TF's slot_creator colocates a slot with its primary when that is a variable."""
    import contextlib
    op = primary.op
    if op.type in ("Variable", "VariableV2", "VarHandleOp"):
        return op.graph.colocate_with(op)
    return contextlib.nullcontext()


def _zeros_slot(primary, name):
    """The shadow of a tensor: zeros of its shape and dtype (a Fill of its runtime shape when the static
    shape is not fully known)."""
    shape = primary.get_shape()
    dtype = primary.dtype.base_dtype
    if not shape.is_fully_defined():
        return _slot_from_value(primary, array_ops.zeros(array_ops.shape(primary), dtype=dtype), name)
    with variable_scope(None, default_name=_slot_prefix(primary) + "/" + name), _colocated(primary):
        return get_variable("", initializer=init_ops.zeros_initializer(), shape=shape, dtype=dtype,
                            trainable=False, use_resource=_use_resource(primary))


def _slot_prefix(primary):
    return primary.op.name


class ExponentialMovingAverage:
    """Maintains shadow variables holding exponentially decayed averages of variables or tensors.

    ``apply(var_list)`` makes the shadows and returns the op that updates them (run it after each
    training step, e.g. under ``tf.control_dependencies([train_op])``); ``average(var)`` is a shadow,
    ``average_name(var)`` its checkpoint name, and ``variables_to_restore()`` the Saver mapping that loads
    the averages into the model's own variables for evaluation."""

    def __init__(self, decay, num_updates=None, zero_debias=False, name="ExponentialMovingAverage"):
        """``num_updates`` (typically the global step) lowers the decay early in training to
        ``min(decay, (1 + num_updates) / (10 + num_updates))``; ``zero_debias`` debiases the averages of
        tensors (whose shadows start at zero); ``name`` prefixes the update ops and the shadows."""
        self._decay = decay
        self._num_updates = num_updates
        self._zero_debias = zero_debias
        self._name = name
        self._averages = {}       # Variable or Tensor (by identity) -> its shadow Variable

    @property
    def name(self):
        return self._name

    def apply(self, var_list=None):
        """Make shadows for the Variables and float Tensors in ``var_list`` (default: the trainable
        variables) that have none yet, and return one op updating the shadows of all of them.

        Raises TypeError for anything not half, float or double. Applying again to the same variable
        reuses its shadow and returns another update op (``ExponentialMovingAverage_1``)."""
        if var_list is None:
            var_list = variables.trainable_variables()
        graph = graph_mod.get_default_graph()
        debiased = set()
        for var in var_list:
            if var.dtype.base_dtype not in _AVERAGEABLE:
                raise TypeError("The variables must be half, float, or double: %s" % var.name)
            if var in self._averages:
                continue
            with control_flow_ops.init_scope(graph):
                if isinstance(var, variables.Variable):
                    start = control_flow_ops.cond(state_ops.is_variable_initialized(_as_ref(var)),
                                                  var.read_value, lambda v=var: v.initial_value)
                    avg = _slot_from_value(var, start, self._name)
                    graph.add_to_collection(GraphKeys.MOVING_AVERAGE_VARIABLES, var)
                else:
                    avg = _zeros_slot(var, self._name)
                    if self._zero_debias:
                        debiased.add(avg)
            self._averages[var] = avg

        with graph.name_scope(self._name) as scope:
            decay = convert_to_tensor(self._decay, dtype=dtypes.float32, name="decay")
            if self._num_updates is not None:
                num_updates = math_ops.cast(self._num_updates, dtypes.float32, name="num_updates")
                decay = math_ops.minimum(decay, (1.0 + num_updates) / (10.0 + num_updates))
            updates = []
            for var in var_list:
                avg = self._averages[var]
                updates.append(assign_moving_average(avg, var, decay, zero_debias=avg in debiased))
            return control_flow_ops.group(*updates, name=scope)

    def average(self, var):
        """The shadow Variable of ``var``, or None if ``apply`` never saw it."""
        return self._averages.get(var)

    def average_name(self, var):
        """The shadow's name (its checkpoint key): ``w/ExponentialMovingAverage``. For a variable not
        yet averaged, the name ``apply`` would give it now (nothing is reserved)."""
        if var in self._averages:
            return self._averages[var].op.name
        graph = graph_mod.get_default_graph()
        return graph.unique_name(var.name[:-len(":0")] + "/" + self._name, mark_as_used=False)

    def variables_to_restore(self, moving_avg_variables=None):
        """``{checkpoint name: variable}`` for a Saver that loads averaged values into the model.

        Each variable in ``moving_avg_variables`` (default: the trainable variables and those in
        MOVING_AVERAGE_VARIABLES) is read from its shadow's name; every other global variable (the
        global step, the shadows themselves, debias helpers) from its own name."""
        if moving_avg_variables is None:
            moving_avg_variables = (variables.trainable_variables()
                                    + variables.moving_average_variables())
        averaged = []
        for v in moving_avg_variables:
            if not any(v is seen for seen in averaged):
                averaged.append(v)
        name_map = {self.average_name(v): v for v in averaged}
        averaged_names = {v.name for v in averaged}
        for v in variables.global_variables():
            if v.name not in averaged_names and v.op.name not in name_map:
                name_map[v.op.name] = v
        return name_map
