"""``tf.train.SyncReplicasOptimizer``: synchronous data parallelism, built op for op and name for name as TF1
builds it, so a graph made here runs on a real TensorFlow cluster (the hand-off of lesson 11).

Every replica (worker) computes its gradients and puts them into one ConditionalAccumulator per variable,
which lives with the variable on its parameter server. The chief's queue runner waits until each accumulator
holds ``replicas_to_aggregate`` fresh gradients, applies their average with the wrapped optimizer, increments
the global step, and then puts one token per replica (the new global step) into the ``sync_token_q`` queue.
A replica's step ends by taking a token: it waits there until the update it contributed to is done, and the
token becomes its ``sync_rep_local_step``, the step its next gradients are computed at. Gradients computed at
an older step than the accumulator's are dropped as stale.

graphlab runs it in one process: with one replica under MonitoredTrainingSession and the hook, or with
several replica threads sharing a session (as TF allows), the numbers are TF's.
"""
from graphlab.formats import errors
from graphlab.framework import graph as graph_mod
from graphlab.framework.graph import GraphKeys
from graphlab.framework.indexed_slices import IndexedSlices
from graphlab.framework.tensor import Tensor
from graphlab.ops import accumulator_ops, array_ops, control_flow_ops, data_flow_ops, state_ops
from graphlab.ops import variables
from graphlab.train.optimizer import Optimizer
from graphlab.train.queue_runner import QueueRunner
from graphlab.train.session_run_hook import SessionRunHook


class SyncReplicasOptimizer(Optimizer):
    """``SyncReplicasOptimizer(opt, replicas_to_aggregate, total_num_replicas=None, variable_averages=None,
    variables_to_average=None, use_locking=False, name="sync_replicas")``."""

    def __init__(self, opt, replicas_to_aggregate, total_num_replicas=None, variable_averages=None,
                 variables_to_average=None, use_locking=False, name="sync_replicas"):
        if total_num_replicas is None:
            total_num_replicas = replicas_to_aggregate
        super().__init__(use_locking, name)
        self._opt = opt
        self._replicas_to_aggregate = replicas_to_aggregate
        self._gradients_applied = False
        self._variable_averages = variable_averages
        self._variables_to_average = variables_to_average
        self._total_num_replicas = total_num_replicas
        # each update releases a token for every replica, and for the extra gradients beyond them
        self._tokens_per_step = max(total_num_replicas, replicas_to_aggregate)
        self._global_step = None
        self._sync_token_queue = None
        self._chief_queue_runner = None
        self._accumulator_list = []

    def compute_gradients(self, *args, **kwargs):
        return self._opt.compute_gradients(*args, **kwargs)

    def apply_gradients(self, grads_and_vars, global_step=None, name=None):
        """Gradients into the accumulators, then wait for a token; returns the replica's train op (the
        assignment of the token to the local step). Also builds the chief's update and init ops."""
        grads_and_vars = list(grads_and_vars)
        if not grads_and_vars:
            raise ValueError("Must supply at least one variable")
        if global_step is None:
            raise ValueError("Global step is required to check staleness")
        self._global_step = global_step
        graph = global_step.graph
        train_ops, aggregated_grad, var_list = [], [], []
        with graph.as_default():
            local_anchor = control_flow_ops.no_op()
            with graph.colocate_with(local_anchor):
                self._local_step = variables.Variable(
                    initial_value=0, trainable=False, collections=[GraphKeys.LOCAL_VARIABLES],
                    dtype=global_step.dtype.base_dtype, name="sync_rep_local_step")
            self.local_step_init_op = state_ops.assign(self._local_step, global_step)
            chief_init_ops = [self.local_step_init_op]
            self.ready_for_local_init_op = variables.report_uninitialized_variables(variables.global_variables())

            with graph_mod.name_scope(None, self._name):
                for grad, var in grads_and_vars:
                    var_list.append(var)
                    with graph.device(var.device):
                        if grad is None:
                            aggregated_grad.append(None)      # passed through to the wrapped optimizer
                            continue
                        if isinstance(grad, Tensor):
                            accum = accumulator_ops.ConditionalAccumulator(
                                grad.dtype, shape=var.get_shape(), shared_name=var.name + "/grad_accum")
                            train_ops.append(accum.apply_grad(grad, local_step=self._local_step))
                            aggregated_grad.append(accum.take_grad(self._replicas_to_aggregate))
                        else:
                            if not isinstance(grad, IndexedSlices):
                                raise ValueError("Unknown grad type!")
                            accum = accumulator_ops.SparseConditionalAccumulator(
                                grad.dtype, shape=(), shared_name=var.name + "/grad_accum")
                            train_ops.append(accum.apply_indexed_slices_grad(grad, local_step=self._local_step))
                            aggregated_grad.append(accum.take_indexed_slices_grad(self._replicas_to_aggregate))
                        self._accumulator_list.append((accum, var.device))

                aggregated_grads_and_vars = zip(aggregated_grad, var_list)
                # the chief's update, on the global step's device, named as the wrapped optimizer names it
                with graph.device(global_step.device), graph.name_scope(""):
                    update_op = self._opt.apply_gradients(aggregated_grads_and_vars, global_step)
                with graph.device(global_step.device), graph.name_scope(""):
                    sync_token_queue = data_flow_ops.FIFOQueue(-1, global_step.dtype.base_dtype, shapes=(),
                                                               name="sync_token_q", shared_name="sync_token_q")
                    self._sync_token_queue = sync_token_queue
                with graph.device(global_step.device), graph.name_scope(""):
                    with graph.control_dependencies(train_ops):
                        token = sync_token_queue.dequeue()
                    train_op = state_ops.assign(self._local_step, token)
                    with graph.control_dependencies([update_op]):
                        tokens = array_ops.fill([self._tokens_per_step], global_step)
                        sync_op = sync_token_queue.enqueue_many((tokens,))
                    if self._variable_averages is not None:
                        with graph.control_dependencies([sync_op]), graph.name_scope(""):
                            sync_op = self._variable_averages.apply(self._variables_to_average)
                    self._chief_queue_runner = QueueRunner(sync_token_queue, [sync_op])
                for accum, device in self._accumulator_list:
                    with graph.device(device):
                        chief_init_ops.append(accum.set_global_step(global_step, name="SetGlobalStep"))
                self.chief_init_op = control_flow_ops.group(*chief_init_ops)
                self._gradients_applied = True
                return train_op

    def get_chief_queue_runner(self):
        """The queue runner the chief starts: it applies each averaged update and releases the tokens."""
        if self._gradients_applied is False:
            raise ValueError("Should be called after apply_gradients().")
        return self._chief_queue_runner

    def get_slot(self, *args, **kwargs):
        return self._opt.get_slot(*args, **kwargs)

    def variables(self):
        return self._opt.variables()

    def get_slot_names(self, *args, **kwargs):
        return self._opt.get_slot_names(*args, **kwargs)

    def get_init_tokens_op(self, num_tokens=-1):
        """The op that puts the first tokens into the queue (replicas_to_aggregate of them by default), so
        the first steps need not wait for an update that has not happened."""
        if self._gradients_applied is False:
            raise ValueError("get_init_tokens_op() should be called after apply_gradients().")
        tokens_needed = self._replicas_to_aggregate - self._total_num_replicas
        if num_tokens == -1:
            num_tokens = self._replicas_to_aggregate
        elif num_tokens < tokens_needed:
            raise ValueError("Too few tokens to finish the first step: %d (given) vs %d (needed)"
                             % (num_tokens, tokens_needed))
        graph = self._global_step.graph
        with graph.as_default():
            if num_tokens > 0:
                with graph.device(self._global_step.device), graph.name_scope(""):
                    tokens = array_ops.fill([num_tokens], self._global_step)
                    return self._sync_token_queue.enqueue_many((tokens,))
            return control_flow_ops.no_op(name="no_init_tokens")

    def make_session_run_hook(self, is_chief, num_tokens=-1):
        """A hook that runs the local init (the chief's, on the chief), the initial tokens and the chief's
        queue runner once the session exists."""
        return _SyncReplicasOptimizerHook(self, is_chief, num_tokens)


class _SyncReplicasOptimizerHook(SessionRunHook):
    """What each replica does when its session starts: wait until the model is initialized, set its local
    step (the chief also the accumulators' steps), and, on the chief, put in the first tokens and start the
    queue runner that applies the updates."""

    def __init__(self, sync_optimizer, is_chief, num_tokens):
        self._sync_optimizer = sync_optimizer
        self._is_chief = is_chief
        self._num_tokens = num_tokens

    def begin(self):
        opt = self._sync_optimizer
        if opt._gradients_applied is False:
            raise ValueError("SyncReplicasOptimizer.apply_gradient should be called before using the hook.")
        self._ready_for_local_init_op = opt.ready_for_local_init_op
        if self._is_chief:
            self._local_init_op = opt.chief_init_op
            self._q_runner = opt.get_chief_queue_runner()
            self._init_tokens_op = opt.get_init_tokens_op(self._num_tokens)
        else:
            self._local_init_op = opt.local_step_init_op
            self._q_runner = None
            self._init_tokens_op = None

    def after_create_session(self, session, coord):
        ready, msg = _ready(self._ready_for_local_init_op, session,
                            "Model is not ready for SyncReplicasOptimizer local init.")
        if not ready:
            raise RuntimeError("Init operations did not make model ready for SyncReplicasOptimizer local_init. "
                               "Init op: %s, error: %s" % (self._local_init_op.name, msg))
        session.run(self._local_init_op)
        if self._init_tokens_op is not None:
            session.run(self._init_tokens_op)
        if self._q_runner is not None:
            self._q_runner.create_threads(session, coord=coord, daemon=True, start=True)


def _ready(op, sess, msg):
    """TF's session_manager._ready: (True, None) when ``op`` names no uninitialized variable, else (False,
    the message and the names); a FailedPreconditionError counts as not ready."""
    import numpy as np
    if op is None:
        return True, None
    try:
        names = np.asarray(sess.run(op)).reshape(-1)
    except errors.FailedPreconditionError as e:
        if "uninitialized" not in str(e):
            raise
        return False, msg + " " + str(e)
    if names.size == 0:
        return True, None
    return False, "Variables not initialized: " + ", ".join(
        n.decode() if isinstance(n, bytes) else str(n) for n in names)


__all__ = ["SyncReplicasOptimizer"]
