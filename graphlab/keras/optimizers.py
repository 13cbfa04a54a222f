"""``tf.keras.optimizers``: the optimizers ``compile`` uses in graph mode, as tf-keras's legacy OptimizerV2 builds
them (``tf.compat.v1`` with v2 behaviour disabled gives those, not the new Keras 3 style ones).

What a learner sees in the graph:
* the optimizer's own variables, created on the first ``apply_gradients`` inside ``<name>/``: ``iter``
  (int64), then each hyper-parameter in alphabetical order (``beta_1``, ``beta_2``, ``decay``,
  ``learning_rate``...), then the slots, named after the variable (``Adam/dense/kernel/m``);
* gradients under ``<name>/gradients/gradients/`` (``get_gradients`` opens ``<name>/gradients``, then
  ``tf.gradients`` its own ``gradients``);
* per-step coefficients (``Identity`` of each hyper-parameter read, the bias corrections), the gradients
  passing through the default strategy's all-reduce (an ``Identity`` per gradient and one ``IdentityN``),
  and under ``<name>/<name>/update_<var>/`` one fused ``ResourceApply*`` per variable, then ``iter += 1``
  after all of them.
A ``tf.train`` optimizer given to ``compile`` is wrapped in ``TFOptimizer``, whose step counter is
``TFOptimizer/iterations``.
"""
import warnings

from graphlab.framework import dtypes
from graphlab.framework.graph import name_scope
from graphlab.framework.indexed_slices import IndexedSlices
from graphlab.framework.registry import build_op, convert_to_tensor
from graphlab.gradients import gradients as tf_gradients
from graphlab.keras.backend import session as ksession
from graphlab.keras.backend import variables as kvariables
from graphlab.ops import (array_ops, clip_ops, control_flow_ops, counting_ops, custom_gradient, init_ops, math_ops,
                          state_ops)
from graphlab.ops import variables as variables_mod
from graphlab.ops.resource_training_ops import resource_apply as _build_update
from graphlab.train.optimizer import Optimizer as TrainOptimizer

_ALLOWED_KWARGS = {"clipnorm", "clipvalue", "lr", "decay", "global_clipnorm"}


def _init_scope():
    """tf.init_scope in graph mode: the same graph and name scope, no control dependencies."""
    return control_flow_ops.control_dependencies(None)


def resource_apply(kind, inputs, **attrs):
    """The fused ``ResourceApply<kind>`` update on handles and tensors, in its inputs' order."""
    return _build_update("ResourceApply" + kind, inputs, **attrs)


def _var_name(var):
    return var.name.split(":")[0]


class Optimizer:
    """tf-keras's legacy OptimizerV2 in graph mode: hyper-parameters become variables on first use."""

    def __init__(self, name, gradient_aggregator=None, gradient_transformers=None, **kwargs):
        for k in kwargs:
            if k not in _ALLOWED_KWARGS:
                raise TypeError("Unexpected keyword argument passed to optimizer: " + str(k) +
                                ". Allowed kwargs are {}.".format(_ALLOWED_KWARGS))
            if kwargs[k] is not None and kwargs[k] < 0:
                raise ValueError("Expected {} >= 0, received: {}".format(k, kwargs[k]))
            if k == "lr":
                warnings.warn("The `lr` argument is deprecated, use `learning_rate` instead.", stacklevel=2)
        self._use_locking = True
        self._name = name
        self._hyper = {}
        self._slots = {}
        self._slot_names = []
        self._weights = []
        self._iterations = None
        self._hypers_created = False
        self._initial_decay = kwargs.pop("decay", 0.0)
        if self._initial_decay < 0.0:
            raise ValueError("decay cannot be less than 0. Received: decay={}.".format(self._initial_decay))
        self._clipnorm = kwargs.pop("clipnorm", None)
        self._clipvalue = kwargs.pop("clipvalue", None)
        self._global_clipnorm = kwargs.pop("global_clipnorm", None)
        if self._clipnorm is not None and self._global_clipnorm is not None:
            raise ValueError("Cannot accept both `clipnorm` and `global_clipnorm`. Received: `clipnorm`={}, "
                             "`global_clipnorm`={}.".format(self._clipnorm, self._global_clipnorm))
        self.gradient_transformers = list(gradient_transformers or [])

    # ---- hyper-parameters ----
    def _set_hyper(self, name, value):
        if name not in self._hyper:
            self._hyper[name] = value
            return
        prev = self._hyper[name]
        if callable(prev) or isinstance(prev, (int, float)) or hasattr(prev, "op") and not hasattr(prev, "assign"):
            self._hyper[name] = value
        else:
            kvariables.set_value(prev, value)

    def _get_hyper(self, name, dtype=None):
        if not self._hypers_created:
            self._create_hypers()
        value = self._hyper[name]
        if callable(value) and not hasattr(value, "op"):
            value = value()
        if dtype is not None:
            if hasattr(value, "dtype") and value.dtype.base_dtype == dtypes.as_dtype(dtype):
                return value
            return math_ops.cast(value, dtype)
        return value

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        key = "learning_rate" if name == "lr" else name
        hyper = self.__dict__.get("_hyper", {})
        if key in hyper:
            return self._get_hyper(key)
        raise AttributeError("'%s' object has no attribute '%s'" % (type(self).__name__, name))

    def __setattr__(self, name, value):
        if name == "lr":
            name = "learning_rate"
        if "_hyper" in self.__dict__ and name in self._hyper:
            self._set_hyper(name, value)
        else:
            super().__setattr__(name, value)

    def _create_hypers(self):
        if self._hypers_created:
            return
        for name, value in sorted(self._hyper.items()):
            if hasattr(value, "op") or callable(value):
                continue
            self._hyper[name] = self.add_weight(name, shape=[], trainable=False, initializer=value)
        self._hypers_created = True

    # ---- variables ----
    def add_weight(self, name, shape, dtype=None, initializer="zeros", trainable=None):
        """An optimizer variable in the current name scope (``iter``, a hyper-parameter, a cache)."""
        dtype = dtypes.float32 if dtype is None else dtypes.as_dtype(dtype)
        if initializer == "zeros":
            initializer = init_ops.zeros_initializer()
        elif initializer == "ones":
            initializer = init_ops.ones_initializer()
        variable = kvariables.make_variable(name, shape=shape, dtype=dtype, initializer=initializer,
                                            trainable=bool(trainable))
        return variable

    @property
    def iterations(self):
        """The step counter ``iter`` (int64), created on first use."""
        if self._iterations is None:
            with _init_scope():
                self._iterations = self.add_weight("iter", shape=[], dtype=dtypes.int64, trainable=False)
            self._weights.append(self._iterations)
        return self._iterations

    @iterations.setter
    def iterations(self, variable):
        if self._iterations is not None:
            raise RuntimeError("Cannot set `iterations` to a new Variable after the Optimizer weights have been "
                               "created. Here it is attempting to set `iterations` to {}.".format(variable))
        self._iterations = variable

    def add_slot(self, var, slot_name, initializer="zeros"):
        """The slot ``slot_name`` of ``var``: a variable shaped like it, ``<scope>/<var name>/<slot>``."""
        if slot_name not in self._slot_names:
            self._slot_names.append(slot_name)
        slots = self._slots.setdefault(_var_name(var), {})
        weight = slots.get(slot_name)
        if weight is None:
            if initializer == "zeros":
                initializer = init_ops.zeros_initializer()
            shape = var.shape
            dtype = var.dtype.base_dtype
            init = initializer
            weight = variables_mod.Variable(initial_value=lambda: init(shape, dtype=dtype),
                                            name="%s/%s" % (_var_name(var), slot_name), dtype=dtype,
                                            trainable=False, use_resource=True)
            ksession.track_variable(weight)
            slots[slot_name] = weight
            self._weights.append(weight)
        return weight

    def get_slot(self, var, slot_name):
        slots = self._slots.get(_var_name(var), {})
        if slot_name not in slots:
            raise KeyError("Could not find {} slot for var {}".format(slot_name, var.name))
        return slots[slot_name]

    def get_slot_names(self):
        return list(self._slot_names)

    @property
    def weights(self):
        return list(self._weights)

    def variables(self):
        return list(self._weights)

    def get_weights(self):
        return kvariables.batch_get_value(self._weights)

    def set_weights(self, weights):
        if len(weights) != len(self._weights):
            raise ValueError("You called `set_weights(weights)` on optimizer {} with a weight list of length {}, "
                             "but the optimizer was expecting {} weights.".format(self._name, len(weights),
                                                                                 len(self._weights)))
        kvariables.batch_set_value(list(zip(self._weights, weights)))

    def _create_slots(self, var_list):
        pass

    def _create_all_weights(self, var_list):
        _ = self.iterations
        self._create_hypers()
        self._create_slots(var_list)

    # ---- building the step ----
    def get_gradients(self, loss, params):
        """``tf.gradients`` of ``loss`` under ``<name>/gradients``; a variable without one is an error."""
        with name_scope(self._name + "/gradients"):
            grads = tf_gradients(loss, params)
            for grad, param in zip(grads, params):
                if grad is None:
                    raise ValueError("Variable {} has `None` for gradient. Please make sure that all of your ops "
                                     "have a gradient defined (i.e. are differentiable). Common ops without "
                                     "gradient: K.argmax, K.round, K.eval.".format(param))
        return grads

    def get_updates(self, loss, params):
        grads = self.get_gradients(loss, params)
        return [self.apply_gradients(list(zip(grads, params)))]

    def minimize(self, loss, var_list, grad_loss=None, name=None, tape=None):
        if callable(var_list):
            var_list = var_list()
        with name_scope(self._name + "/gradients"):
            grads = tf_gradients(loss, var_list, grad_ys=grad_loss)
        return self.apply_gradients(list(zip(grads, var_list)), name=name)

    def _prepare_local(self, var_dtype, apply_state):
        if "learning_rate" in self._hyper:
            apply_state["lr_t"] = array_ops.identity(self._decayed_lr(var_dtype))

    def _decayed_lr(self, var_dtype):
        lr_t = self._get_hyper("learning_rate", var_dtype)
        if self._initial_decay > 0.0:
            local_step = math_ops.cast(self.iterations, var_dtype)
            decay_t = math_ops.cast(self._initial_decay, var_dtype)
            lr_t = lr_t / (1.0 + decay_t * local_step)
        return lr_t

    def _all_reduce(self, grads):
        """The default strategy's all-reduce of the gradients, as it shows in the graph: an Identity of each,
        and one IdentityN whose outputs carry them on."""
        dense = [g for g in grads if not isinstance(g, IndexedSlices)]
        if len(dense) != len(grads) or not grads:
            return grads
        for g in grads:
            array_ops.identity(g)
        return custom_gradient.identity_n(list(grads) + list(grads))[:len(grads)]

    def _transform_gradients(self, grads_and_vars):
        if self._clipvalue is not None:
            grads_and_vars = [(array_ops.clip_by_value(g, -self._clipvalue, self._clipvalue), v)
                              for g, v in grads_and_vars]
        if self._clipnorm is not None:
            grads_and_vars = [(clip_ops.clip_by_norm(g, self._clipnorm), v) for g, v in grads_and_vars]
        if self._global_clipnorm is not None:
            clipped, _ = clip_ops.clip_by_global_norm([g for g, _ in grads_and_vars], self._global_clipnorm)
            grads_and_vars = list(zip(clipped, [v for _, v in grads_and_vars]))
        for fn in self.gradient_transformers:
            grads_and_vars = fn(grads_and_vars)
        return grads_and_vars

    def apply_gradients(self, grads_and_vars, name=None, experimental_aggregate_gradients=True):
        """Create the optimizer's variables, the step's coefficients, one update per variable, iter += 1."""
        grads_and_vars = [(g, v) for g, v in grads_and_vars if g is not None]
        if not grads_and_vars:
            raise ValueError("No gradients provided for any variable.")
        var_list = [v for _, v in grads_and_vars]
        with name_scope(self._name):
            with _init_scope():
                self._create_all_weights(var_list)
            apply_state = {}
            for dtype in sorted({v.dtype.base_dtype for v in var_list}, key=lambda d: d.name):
                apply_state[dtype] = {}
                self._prepare_local(dtype, apply_state[dtype])
            if experimental_aggregate_gradients:
                reduced = self._all_reduce([g for g, _ in grads_and_vars])
                grads_and_vars = list(zip(reduced, var_list))
            grads_and_vars = self._transform_gradients(grads_and_vars)
            update_ops = []
            with name_scope(name or self._name):
                for grad, var in grads_and_vars:
                    with name_scope("update_" + _var_name(var)):
                        update_ops.append(self._apply_one(grad, var, apply_state[var.dtype.base_dtype]))
                with control_flow_ops.control_dependencies([control_flow_ops.group(*update_ops)]):
                    return self.iterations.assign_add(1, read_value=False)

    def _apply_one(self, grad, var, coefficients):
        if isinstance(grad, IndexedSlices):
            if hasattr(self, "_resource_apply_sparse"):
                return self._resource_apply_sparse_duplicate_indices(grad.values, var, grad.indices, coefficients)
            # the optimizers without tf-keras's sparse form here update every row (the same numbers)
            grad = convert_to_tensor(grad)
        update = self._resource_apply_dense(grad, var, coefficients)
        if getattr(var, "constraint", None) is not None:
            with control_flow_ops.control_dependencies([update]):
                return var.assign(var.constraint(var))
        return update

    def _resource_apply_dense(self, grad, var, coefficients):
        raise NotImplementedError("Must be implemented in subclasses.")

    def _resource_apply_sparse_duplicate_indices(self, grad, var, indices, coefficients):
        values, unique_indices = _deduplicate(grad, indices)
        return self._resource_apply_sparse(values, var, unique_indices, coefficients)

    # ---- configuration ----
    def _serialize_hyperparameter(self, name):
        value = self._hyper[name]
        if callable(value) and not hasattr(value, "op"):
            return value()
        if hasattr(value, "op"):
            return kvariables.get_value(value) if hasattr(value, "assign") else value
        return value

    def get_config(self):
        config = {"name": self._name}
        if self._initial_decay:
            config["decay"] = self._initial_decay
        if self._clipnorm is not None:
            config["clipnorm"] = self._clipnorm
        if self._clipvalue is not None:
            config["clipvalue"] = self._clipvalue
        if self._global_clipnorm is not None:
            config["global_clipnorm"] = self._global_clipnorm
        return config

    @classmethod
    def from_config(cls, config, custom_objects=None):
        config = dict(config)
        if "lr" in config:
            config["learning_rate"] = config.pop("lr")
        return cls(**config)


OptimizerV2 = Optimizer


def _deduplicate(values, indices):
    """Sum the rows of an IndexedSlices gradient that share an index (Unique, UnsortedSegmentSum)."""
    unique_indices, positions = counting_ops.unique(indices)
    summed = array_ops.unsorted_segment_sum(values, positions, array_ops.shape(unique_indices)[0])
    return summed, unique_indices


def _scatter_add(var, indices, updates):
    """ResourceScatterAdd, then the variable read after it (tf-keras's _resource_scatter_add)."""
    op = build_op("ResourceScatterAdd", [var.handle, indices, updates])
    with control_flow_ops.control_dependencies([op]):
        return var.value()


def _identity_hyper(opt, name, dtype):
    return array_ops.identity(opt._get_hyper(name, dtype))


class SGD(Optimizer):
    """Gradient descent, with (Nesterov) momentum when ``momentum`` > 0 (ResourceApplyKerasMomentum)."""

    def __init__(self, learning_rate=0.01, momentum=0.0, nesterov=False, name="SGD", **kwargs):
        super().__init__(name, **kwargs)
        self._set_hyper("learning_rate", kwargs.get("lr", learning_rate))
        self._set_hyper("decay", self._initial_decay)
        self._momentum = hasattr(momentum, "op") or callable(momentum) or momentum > 0
        if isinstance(momentum, (int, float)) and (momentum < 0 or momentum > 1):
            raise ValueError(f"`momentum` must be between [0, 1]. Received: momentum={momentum} "
                             f"(of type {type(momentum)}).")
        self._set_hyper("momentum", momentum)
        self.nesterov = nesterov

    def _create_slots(self, var_list):
        if self._momentum:
            for var in var_list:
                self.add_slot(var, "momentum")

    def _prepare_local(self, var_dtype, apply_state):
        super()._prepare_local(var_dtype, apply_state)
        apply_state["momentum"] = _identity_hyper(self, "momentum", var_dtype)

    def _resource_apply_dense(self, grad, var, c):
        if self._momentum:
            return resource_apply("KerasMomentum", [var.handle, self.get_slot(var, "momentum").handle, c["lr_t"],
                                                    grad, c["momentum"]],
                                  use_locking=self._use_locking, use_nesterov=self.nesterov)
        return resource_apply("GradientDescent", [var.handle, c["lr_t"], grad], use_locking=self._use_locking)

    def _resource_apply_sparse_duplicate_indices(self, grad, var, indices, c):
        if self._momentum:
            return super()._resource_apply_sparse_duplicate_indices(grad, var, indices, c)
        return build_op("ResourceScatterAdd", [var.handle, indices, -grad * c["lr_t"]])

    def _resource_apply_sparse(self, grad, var, indices, c):
        return build_op("ResourceSparseApplyKerasMomentum", [
            var.handle, self.get_slot(var, "momentum").handle, c["lr_t"], grad, indices, c["momentum"]],
            attrs={"use_locking": self._use_locking, "use_nesterov": self.nesterov})

    def get_config(self):
        return dict(super().get_config(), learning_rate=self._serialize_hyperparameter("learning_rate"),
                    decay=self._initial_decay, momentum=self._serialize_hyperparameter("momentum"),
                    nesterov=self.nesterov)


class _MomentsMixin:
    """Shared by Adam and Adamax: ``local_step``, the betas read once, ``beta_1 ** step``."""

    def _moments(self, var_dtype):
        local_step = math_ops.cast(self.iterations + 1, var_dtype)
        beta_1_t = _identity_hyper(self, "beta_1", var_dtype)
        beta_2_t = _identity_hyper(self, "beta_2", var_dtype)
        return local_step, beta_1_t, beta_2_t, math_ops.pow(beta_1_t, local_step)


class Adam(_MomentsMixin, Optimizer):
    """Adam (ResourceApplyAdam; with ``amsgrad``, ResourceApplyAdamWithAmsgrad and a ``vhat`` slot)."""

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7, amsgrad=False, name="Adam",
                 **kwargs):
        super().__init__(name, **kwargs)
        self._set_hyper("learning_rate", kwargs.get("lr", learning_rate))
        self._set_hyper("decay", self._initial_decay)
        self._set_hyper("beta_1", beta_1)
        self._set_hyper("beta_2", beta_2)
        self.epsilon = epsilon or 1e-7
        self.amsgrad = amsgrad

    def _create_slots(self, var_list):
        for var in var_list:
            self.add_slot(var, "m")
        for var in var_list:
            self.add_slot(var, "v")
        if getattr(self, "amsgrad", False):
            for var in var_list:
                self.add_slot(var, "vhat")

    def _prepare_local(self, var_dtype, apply_state):
        super()._prepare_local(var_dtype, apply_state)
        local_step, beta_1_t, beta_2_t, beta_1_power = self._moments(var_dtype)
        beta_2_power = math_ops.pow(beta_2_t, local_step)
        lr = apply_state["lr_t"] * (math_ops.sqrt(1 - beta_2_power) / (1 - beta_1_power))
        apply_state.update(lr=lr, epsilon=convert_to_tensor(self.epsilon, var_dtype), beta_1_t=beta_1_t,
                           beta_1_power=beta_1_power, one_minus_beta_1_t=1 - beta_1_t, beta_2_t=beta_2_t,
                           beta_2_power=beta_2_power, one_minus_beta_2_t=1 - beta_2_t)

    def _resource_apply_dense(self, grad, var, c):
        m, v = self.get_slot(var, "m").handle, self.get_slot(var, "v").handle
        tail = [c["beta_1_power"], c["beta_2_power"], c["lr_t"], c["beta_1_t"], c["beta_2_t"], c["epsilon"], grad]
        if self.amsgrad:
            return resource_apply("AdamWithAmsgrad", [var.handle, m, v, self.get_slot(var, "vhat").handle] + tail,
                                  use_locking=self._use_locking)
        return resource_apply("Adam", [var.handle, m, v] + tail, use_locking=self._use_locking, use_nesterov=False)

    def _resource_apply_sparse(self, grad, var, indices, c):
        """Rows of an embedding: m and v decay whole, the looked-up rows' share is scattered in, and every
        row moves by lr * m / (sqrt(v) + epsilon), with tf-keras's ops."""
        m = self.get_slot(var, "m")
        m_scaled = grad * c["one_minus_beta_1_t"]
        m_t = state_ops.assign(m, m * c["beta_1_t"], use_locking=self._use_locking)
        with control_flow_ops.control_dependencies([m_t]):
            m_t = _scatter_add(m, indices, m_scaled)
        v = self.get_slot(var, "v")
        v_scaled = (grad * grad) * c["one_minus_beta_2_t"]
        v_t = state_ops.assign(v, v * c["beta_2_t"], use_locking=self._use_locking)
        with control_flow_ops.control_dependencies([v_t]):
            v_t = _scatter_add(v, indices, v_scaled)
        v_sqrt = math_ops.sqrt(v_t)
        var_update = state_ops.assign_sub(var, c["lr"] * m_t / (v_sqrt + c["epsilon"]),
                                          use_locking=self._use_locking)
        return control_flow_ops.group(*[var_update, m_t, v_t])

    def get_config(self):
        return dict(super().get_config(), learning_rate=self._serialize_hyperparameter("learning_rate"),
                    decay=self._initial_decay, beta_1=self._serialize_hyperparameter("beta_1"),
                    beta_2=self._serialize_hyperparameter("beta_2"), epsilon=self.epsilon, amsgrad=self.amsgrad)


class Adamax(_MomentsMixin, Optimizer):
    """Adamax, Adam with the infinity norm (ResourceApplyAdaMax)."""

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7, name="Adamax", **kwargs):
        super().__init__(name, **kwargs)
        self._set_hyper("learning_rate", kwargs.get("lr", learning_rate))
        self._set_hyper("decay", self._initial_decay)
        self._set_hyper("beta_1", beta_1)
        self._set_hyper("beta_2", beta_2)
        self.epsilon = epsilon or 1e-7

    _create_slots = Adam._create_slots

    def _prepare_local(self, var_dtype, apply_state):
        super()._prepare_local(var_dtype, apply_state)
        _, beta_1_t, beta_2_t, beta_1_power = self._moments(var_dtype)
        lr_t = apply_state["lr_t"]
        apply_state.update(neg_scaled_lr=-lr_t / (1 - beta_1_power), epsilon=convert_to_tensor(self.epsilon, var_dtype),
                           beta_1_t=beta_1_t, beta_1_power=beta_1_power, one_minus_beta_1_t=1 - beta_1_t,
                           beta_2_t=beta_2_t, zero=array_ops.zeros((), dtype=dtypes.int64))

    def _resource_apply_dense(self, grad, var, c):
        return resource_apply("AdaMax", [var.handle, self.get_slot(var, "m").handle, self.get_slot(var, "v").handle,
                                         c["beta_1_power"], c["lr_t"], c["beta_1_t"], c["beta_2_t"], c["epsilon"],
                                         grad], use_locking=self._use_locking)

    def get_config(self):
        return dict(super().get_config(), learning_rate=self._serialize_hyperparameter("learning_rate"),
                    decay=self._initial_decay, beta_1=self._serialize_hyperparameter("beta_1"),
                    beta_2=self._serialize_hyperparameter("beta_2"), epsilon=self.epsilon)


class RMSprop(Optimizer):
    """RMSprop: a fused update with momentum (ResourceApplyRMSProp / CenteredRMSProp), plain ops without."""

    def __init__(self, learning_rate=0.001, rho=0.9, momentum=0.0, epsilon=1e-7, centered=False, name="RMSprop",
                 **kwargs):
        super().__init__(name, **kwargs)
        self._set_hyper("learning_rate", kwargs.get("lr", learning_rate))
        self._set_hyper("decay", self._initial_decay)
        self._set_hyper("rho", rho)
        self._momentum = hasattr(momentum, "op") or callable(momentum) or momentum > 0
        if isinstance(momentum, (int, float)) and (momentum < 0 or momentum > 1):
            raise ValueError(f"`momentum` must be between [0, 1]. Received: momentum={momentum} "
                             f"(of type {type(momentum)}).")
        self._set_hyper("momentum", momentum)
        self.epsilon = epsilon or 1e-7
        self.centered = centered

    def _create_slots(self, var_list):
        for var in var_list:
            self.add_slot(var, "rms")
        if self._momentum:
            for var in var_list:
                self.add_slot(var, "momentum")
        if self.centered:
            for var in var_list:
                self.add_slot(var, "mg")

    def _prepare_local(self, var_dtype, apply_state):
        super()._prepare_local(var_dtype, apply_state)
        rho = _identity_hyper(self, "rho", var_dtype)
        apply_state.update(neg_lr_t=-apply_state["lr_t"], epsilon=convert_to_tensor(self.epsilon, var_dtype), rho=rho,
                           momentum=_identity_hyper(self, "momentum", var_dtype), one_minus_rho=1.0 - rho)

    def _resource_apply_dense(self, grad, var, c):
        rms = self.get_slot(var, "rms")
        if self._momentum:
            mom = self.get_slot(var, "momentum")
            if self.centered:
                return resource_apply("CenteredRMSProp", [var.handle, self.get_slot(var, "mg").handle, rms.handle,
                                                          mom.handle, c["lr_t"], c["rho"], c["momentum"],
                                                          c["epsilon"], grad], use_locking=self._use_locking)
            return resource_apply("RMSProp", [var.handle, rms.handle, mom.handle, c["lr_t"], c["rho"],
                                              c["momentum"], c["epsilon"], grad], use_locking=self._use_locking)
        rms_t = c["rho"] * rms + c["one_minus_rho"] * math_ops.square(grad)
        rms_t = state_ops.assign(rms, rms_t, use_locking=self._use_locking)
        denom_t = rms_t
        if self.centered:
            mg = self.get_slot(var, "mg")
            mg_t = c["rho"] * mg + c["one_minus_rho"] * grad
            mg_t = state_ops.assign(mg, mg_t, use_locking=self._use_locking)
            denom_t = rms_t - math_ops.square(mg_t)
        var_t = var - c["lr_t"] * grad / (math_ops.sqrt(denom_t) + c["epsilon"])
        return _op_of(state_ops.assign(var, var_t, use_locking=self._use_locking))

    def get_config(self):
        return dict(super().get_config(), learning_rate=self._serialize_hyperparameter("learning_rate"),
                    decay=self._initial_decay, rho=self._serialize_hyperparameter("rho"),
                    momentum=self._serialize_hyperparameter("momentum"), epsilon=self.epsilon,
                    centered=self.centered)


def _op_of(value):
    return value if not hasattr(value, "op") else value.op


class Adagrad(Optimizer):
    """Adagrad with epsilon outside the root (ResourceApplyAdagradV2); accumulators start at 0.1."""

    def __init__(self, learning_rate=0.001, initial_accumulator_value=0.1, epsilon=1e-7, name="Adagrad", **kwargs):
        if initial_accumulator_value < 0.0:
            raise ValueError("initial_accumulator_value must be non-negative: %s" % initial_accumulator_value)
        super().__init__(name, **kwargs)
        self._set_hyper("learning_rate", kwargs.get("lr", learning_rate))
        self._set_hyper("decay", self._initial_decay)
        self._initial_accumulator_value = initial_accumulator_value
        self.epsilon = epsilon or 1e-7

    def _create_slots(self, var_list):
        for var in var_list:
            init = init_ops.constant_initializer(self._initial_accumulator_value, dtype=var.dtype.base_dtype)
            self.add_slot(var, "accumulator", init)

    def _prepare_local(self, var_dtype, apply_state):
        super()._prepare_local(var_dtype, apply_state)
        apply_state.update(epsilon=convert_to_tensor(self.epsilon, var_dtype), neg_lr_t=-apply_state["lr_t"],
                           zero=array_ops.zeros((), dtype=dtypes.int64))

    def _resource_apply_dense(self, grad, var, c):
        return resource_apply("AdagradV2", [var.handle, self.get_slot(var, "accumulator").handle, c["lr_t"],
                                            c["epsilon"], grad], use_locking=self._use_locking)

    def _resource_apply_sparse(self, grad, var, indices, c):
        return build_op("ResourceSparseApplyAdagradV2", [
            var.handle, self.get_slot(var, "accumulator").handle, c["lr_t"], c["epsilon"], grad, indices],
            attrs={"use_locking": self._use_locking})

    def get_config(self):
        return dict(super().get_config(), learning_rate=self._serialize_hyperparameter("learning_rate"),
                    decay=self._initial_decay, initial_accumulator_value=self._initial_accumulator_value,
                    epsilon=self.epsilon)


class Adadelta(Optimizer):
    """Adadelta (ResourceApplyAdadelta), slots ``accum_grad`` and ``accum_var``."""

    def __init__(self, learning_rate=0.001, rho=0.95, epsilon=1e-7, name="Adadelta", **kwargs):
        super().__init__(name, **kwargs)
        self._set_hyper("learning_rate", kwargs.get("lr", learning_rate))
        self._set_hyper("decay", self._initial_decay)
        self._set_hyper("rho", rho)
        self.epsilon = epsilon or 1e-7

    def _create_slots(self, var_list):
        for var in var_list:
            self.add_slot(var, "accum_grad")
        for var in var_list:
            self.add_slot(var, "accum_var")

    def _prepare_local(self, var_dtype, apply_state):
        super()._prepare_local(var_dtype, apply_state)
        apply_state.update(epsilon=convert_to_tensor(self.epsilon, var_dtype),
                           rho=_identity_hyper(self, "rho", var_dtype))

    def _resource_apply_dense(self, grad, var, c):
        return resource_apply("Adadelta", [var.handle, self.get_slot(var, "accum_grad").handle,
                                           self.get_slot(var, "accum_var").handle, c["lr_t"], c["rho"],
                                           c["epsilon"], grad], use_locking=self._use_locking)

    def get_config(self):
        return dict(super().get_config(), learning_rate=self._serialize_hyperparameter("learning_rate"),
                    decay=self._initial_decay, rho=self._serialize_hyperparameter("rho"), epsilon=self.epsilon)


class Nadam(Optimizer):
    """Nadam (Adam with Nesterov momentum), built from plain ops as tf-keras does, with ``momentum_cache``."""

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7, name="Nadam", **kwargs):
        kwargs["decay"] = kwargs.pop("schedule_decay", 0.004)
        learning_rate = kwargs.get("lr", learning_rate)
        super().__init__(name, **kwargs)
        self._set_hyper("learning_rate", learning_rate)
        self._set_hyper("decay", self._initial_decay)
        self._set_hyper("beta_1", beta_1)
        self._set_hyper("beta_2", beta_2)
        self.epsilon = epsilon or 1e-7
        self._m_cache = None

    def _create_slots(self, var_list):
        var_dtype = var_list[0].dtype.base_dtype
        if self._m_cache is None:
            self._m_cache = self.add_weight("momentum_cache", shape=[], dtype=var_dtype, initializer="ones",
                                            trainable=False)
            self._weights.append(self._m_cache)
        for var in var_list:
            self.add_slot(var, "m")
        for var in var_list:
            self.add_slot(var, "v")

    def _prepare_local(self, var_dtype, apply_state):
        if not hasattr(self, "_m_cache_read_t"):
            self._m_cache_read_t = array_ops.identity(self._m_cache)
        lr_t = _identity_hyper(self, "learning_rate", var_dtype)
        beta_1_t = _identity_hyper(self, "beta_1", var_dtype)
        beta_2_t = _identity_hyper(self, "beta_2", var_dtype)
        local_step = math_ops.cast(self.iterations + 1, var_dtype)
        next_step = math_ops.cast(self.iterations + 2, var_dtype)
        decay_base = math_ops.cast(0.96, var_dtype)
        m_t = beta_1_t * (1.0 - 0.5 * math_ops.pow(decay_base, self._initial_decay * local_step))
        m_t_1 = beta_1_t * (1.0 - 0.5 * math_ops.pow(decay_base, self._initial_decay * next_step))
        m_schedule_new = math_ops.cast(self._m_cache_read_t, var_dtype) * m_t
        if var_dtype == self._m_cache.dtype.base_dtype:
            m_schedule_new = array_ops.identity(state_ops.assign(self._m_cache, m_schedule_new,
                                                                 use_locking=self._use_locking))
        m_schedule_next = m_schedule_new * m_t_1
        apply_state.update(lr_t=lr_t, neg_lr_t=-lr_t, epsilon=convert_to_tensor(self.epsilon, var_dtype),
                           beta_1_t=beta_1_t, beta_2_t=beta_2_t, m_t=m_t, m_t_1=m_t_1,
                           one_minus_beta_1_t=1 - beta_1_t, one_minus_beta_2_t=1 - beta_2_t, one_minus_m_t=1.0 - m_t,
                           one_minus_m_schedule_new=1.0 - m_schedule_new,
                           one_minus_m_schedule_next=1.0 - m_schedule_next,
                           v_t_prime_denominator=1.0 - math_ops.pow(beta_2_t, local_step))

    def apply_gradients(self, grads_and_vars, name=None, experimental_aggregate_gradients=True):
        self.__dict__.pop("_m_cache_read_t", None)
        return super().apply_gradients(grads_and_vars, name, experimental_aggregate_gradients)

    def _resource_apply_dense(self, grad, var, c):
        m = self.get_slot(var, "m")
        v = self.get_slot(var, "v")
        g_prime = grad / c["one_minus_m_schedule_new"]
        m_t = c["beta_1_t"] * m + c["one_minus_beta_1_t"] * grad
        m_t = state_ops.assign(m, m_t, use_locking=self._use_locking)
        m_t_prime = m_t / c["one_minus_m_schedule_next"]
        v_t = c["beta_2_t"] * v + c["one_minus_beta_2_t"] * math_ops.square(grad)
        v_t = state_ops.assign(v, v_t, use_locking=self._use_locking)
        v_t_prime = v_t / c["v_t_prime_denominator"]
        m_t_bar = c["one_minus_m_t"] * g_prime + c["m_t_1"] * m_t_prime
        var_t = var - c["lr_t"] * m_t_bar / (math_ops.sqrt(v_t_prime) + c["epsilon"])
        return _op_of(state_ops.assign(var, var_t, use_locking=self._use_locking))


class TFOptimizer:
    """A ``tf.train`` optimizer given to ``compile``: its own step ops, and ``TFOptimizer/iterations`` as the
    global step it increments."""

    def __init__(self, optimizer, iterations=None):
        self.optimizer = optimizer
        self._name = "TFOptimizer"
        if iterations is None:
            with name_scope("TFOptimizer"):
                self.iterations = kvariables.variable(0, dtype="int64", name="iterations")
        else:
            self.iterations = iterations

    def get_updates(self, loss, params):
        if not params:
            return [state_ops.assign_add(self.iterations, 1)]
        grads = self.optimizer.compute_gradients(loss, params)
        return [self.optimizer.apply_gradients(grads, global_step=self.iterations)]

    def apply_gradients(self, grads_and_vars):
        return self.optimizer.apply_gradients(grads_and_vars, global_step=self.iterations)

    def get_grads(self, loss, params):
        return self.optimizer.compute_gradients(loss, params)

    @property
    def weights(self):
        raise NotImplementedError

    def get_config(self):
        raise NotImplementedError

    def from_config(self, config):
        raise NotImplementedError


_BY_NAME = {"sgd": SGD, "adam": Adam, "adamax": Adamax, "rmsprop": RMSprop, "adagrad": Adagrad,
            "adadelta": Adadelta, "nadam": Nadam}


def serialize(optimizer):
    return {"class_name": type(optimizer).__name__, "config": optimizer.get_config()}


def deserialize(config, custom_objects=None):
    table = {name.lower(): cls for name, cls in _BY_NAME.items()}
    table.update({cls.__name__.lower(): cls for cls in _BY_NAME.values()})
    for name, obj in (custom_objects or {}).items():
        table[name.lower()] = obj
    cls = table.get(config["class_name"].lower())
    if cls is None:
        raise ValueError(f"Unknown optimizer: '{config['class_name']}'. Please ensure you are using a "
                         "`keras.utils.custom_object_scope` and that this object is included in the scope. See "
                         "https://www.tensorflow.org/guide/keras/save_and_serialize#registering_the_custom_object "
                         "for details.")
    return cls.from_config(config.get("config", {}))


def get(identifier):
    """An optimizer from a name ('adam'), a config dict, a Keras optimizer, or a ``tf.train`` optimizer
    (wrapped in TFOptimizer)."""
    if isinstance(identifier, (Optimizer, TFOptimizer)):
        return identifier
    if isinstance(identifier, TrainOptimizer):
        opt = TFOptimizer(identifier)
        ksession.track_tf_optimizer(opt)
        return opt
    if isinstance(identifier, dict):
        return deserialize(identifier)
    if isinstance(identifier, str):
        return deserialize({"class_name": str(identifier), "config": {}})
    raise ValueError(f"Could not interpret optimizer identifier: {identifier}")

