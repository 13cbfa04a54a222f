"""``tf.train.replica_device_setter``: the device function of between-graph replication.

Inside ``with tf.device(replica_device_setter(cluster=...))`` each variable (an op whose type is a "ps op") goes
to a parameter-server task, chosen by a strategy (round-robin by default; ``GreedyLoadBalancingStrategy`` puts
it on the least loaded task), and every other op to the worker device. Devices an inner block already set win
field by field (``merge_devices``). graphlab records these device strings in the graph, GraphDefs and meta
graphs as TF does, so the same graph can be handed to a real TensorFlow cluster (``graphlab cluster``).

The greedy strategy and ``byte_size_load_fn`` were ``tf.contrib.training``'s in TF 1.x (TF 2 dropped them);
graphlab offers them there and in ``tf.train``.
"""
import logging

from graphlab.framework.device_spec import DeviceSpec
from graphlab.framework.tensor_shape import TensorShape
from graphlab.train.cluster_spec import ClusterSpec

# Op types that hold state and therefore live on a parameter server (TF's STANDARD_PS_OPS).
STANDARD_PS_OPS = ("Variable", "VariableV2", "AutoReloadVariable", "MutableHashTable", "MutableHashTableV2",
                   "MutableHashTableOfTensors", "MutableHashTableOfTensorsV2", "MutableDenseHashTable",
                   "MutableDenseHashTableV2", "VarHandleOp", "BoostedTreesEnsembleResourceHandleOp",
                   "BoostedTreesQuantileStreamResourceHandleOp", "ResourceConditionalAccumulator",
                   "DecisionTreeResource")


def _op_type(op):
    """The op type of an Operation or a NodeDef (TF's device functions accept both)."""
    return op.type if hasattr(op, "type") else op.op


class _RoundRobin:
    """ps task 0, 1, ..., n-1, 0, ... in the order the variables are created."""

    def __init__(self, num_tasks):
        self._num_tasks = num_tasks
        self._next = 0

    def __call__(self, unused_op):
        task = self._next
        self._next = (self._next + 1) % self._num_tasks
        return task


class GreedyLoadBalancingStrategy:
    """Place each ps op on the task with the smallest load so far (ties: the lowest task), then add
    ``load_fn(op)`` to that task's load; with ``byte_size_load_fn`` the load is the variables' bytes."""

    def __init__(self, num_tasks, load_fn):
        self._num_tasks = num_tasks
        self._load_fn = load_fn
        self._loads = [0] * num_tasks

    def __call__(self, op):
        task = min(range(self._num_tasks), key=lambda i: self._loads[i])
        self._loads[task] += self._load_fn(op)
        return task


def byte_size_load_fn(op):
    """The bytes of ``op``'s one output (a variable's value), for GreedyLoadBalancingStrategy. A variable whose
    output shape is not yet known is weighed by its ``shape`` attr; a shape still unknown is a ValueError,
    because the size must be known when the graph is built."""
    if not op.outputs and "shape" in op._attrs:
        # graphlab calls device functions before the op's outputs exist: weigh the variable by its attrs
        shape, dtype = TensorShape(op.get_attr("shape")), op.get_attr("dtype")
    else:
        if len(op.outputs) != 1:
            raise ValueError("Op %s must have a single output" % op)
        shape, dtype = op.outputs[0].get_shape(), op.outputs[0].dtype
        if not shape.is_fully_defined() and "shape" in op.node_def.attr:
            shape = TensorShape(op.get_attr("shape"))
    if not shape.is_fully_defined():
        raise ValueError("Shape %s is not fully defined" % shape)
    return shape.num_elements() * dtype.base_dtype.size


class _ReplicaDeviceChooser:
    """The device function returned by replica_device_setter."""

    def __init__(self, ps_tasks, ps_device, worker_device, merge_devices, ps_ops, ps_strategy):
        self._ps_tasks = ps_tasks
        self._ps_device = ps_device
        self._worker_device = worker_device
        self._merge_devices = merge_devices
        self._ps_ops = ps_ops
        self._ps_strategy = ps_strategy

    def device_function(self, op):
        if not self._merge_devices and op.device:
            return op.device
        current = DeviceSpec.from_string(op.device or "")
        if self._ps_tasks and self._ps_device and _op_type(op) in self._ps_ops:
            ps = DeviceSpec.from_string(self._ps_device)
            # The strategy only picks a task when the op is not already pinned to another job.
            if ps.job and (not current.job or current.job == ps.job):
                ps = ps.replace(task=self._ps_strategy(op))
            return ps.make_merged_spec(current).to_string()
        worker = DeviceSpec.from_string(self._worker_device or "")
        return worker.make_merged_spec(current).to_string()


def replica_device_setter(ps_tasks=0, ps_device="/job:ps", worker_device="/job:worker", merge_devices=True,
                          cluster=None, ps_ops=None, ps_strategy=None):
    """A device function for ``tf.device``: variables on the ps tasks, everything else on ``worker_device``.

    With ``cluster`` (a ClusterSpec, its dict or a ClusterDef) the number of ps tasks is that of the ps job, and
    the result is None (no placement) when the cluster has no such job; with ``ps_tasks=0`` it is None too.
    """
    if cluster is not None:
        spec = cluster.as_dict() if isinstance(cluster, ClusterSpec) else ClusterSpec(cluster).as_dict()
        ps_job = DeviceSpec.from_string(ps_device).job
        if ps_job not in spec or spec[ps_job] is None:
            return None
        ps_tasks = len(spec[ps_job])
    if ps_tasks == 0:
        return None
    if ps_ops is None:
        ps_ops = list(STANDARD_PS_OPS)
    if not merge_devices:
        logging.getLogger("tensorflow").warning(
            "DEPRECATION: It is recommended to set merge_devices=true in replica_device_setter")
    if ps_strategy is None:
        ps_strategy = _RoundRobin(ps_tasks)
    if not callable(ps_strategy):
        raise TypeError("ps_strategy must be callable")
    return _ReplicaDeviceChooser(ps_tasks, ps_device, worker_device, merge_devices, ps_ops,
                                 ps_strategy).device_function
