"""Device placement as TF's DirectSession does it when a graph is first run (and again once it has grown):
every op is placed on this process's one device, ``/job:localhost/replica:0/task:0/device:CPU:0``.

An op asking for another device (``tf.device("/gpu:0")``) fails the run with TF's InvalidArgumentError,
unless ``ConfigProto(allow_soft_placement=True)``, which (as in TF) forgives a missing device type but never
another job or task: for a cluster device (``/job:ps/task:0``) TF's message gets a sentence saying how to run
the graph here or on a real TF cluster; ``log_device_placement=True`` prints each op's placement
in TF's words and order (ops with inputs or state first, then the generators: ops with no inputs and one
plain output, such as constants and placeholders)."""
from graphlab.framework.device_spec import DeviceSpec
from graphlab.formats.errors import InvalidArgumentError

CPU = "/job:localhost/replica:0/task:0/device:CPU:0"


def _fits_cpu(device, soft=False):
    """Whether this process's one CPU can take ``device``. Soft placement (as TF's) forgives only the device
    type and index: a job, replica or task this process is not stays an error."""
    spec = DeviceSpec.from_string(device)
    here = spec.job in (None, "localhost") and spec.replica in (None, 0) and spec.task in (None, 0)
    return here and (soft or (spec.device_type in (None, "CPU") and spec.device_index in (None, 0)))


def _is_generator(op):
    return not op._inputs and len(op._outputs) == 1 and not op._outputs[0].dtype.is_ref_dtype


def placer_order(ops):
    return [op for op in ops if not _is_generator(op)] + [op for op in ops if _is_generator(op)]


def check(ops, config):
    """TF's placer error for the first op (in placer order) of the graph that asks for a device this process
    lacks (TF places the whole graph, not just what a run needs). ``allow_soft_placement`` forgives a device
    this process lacks (a GPU) but not another task's (``/job:ps/task:0``), as in TF."""
    soft = getattr(config, "allow_soft_placement", False)
    for op in placer_order(ops):
        if op.device and not _fits_cpu(op.device, soft):
            raise InvalidArgumentError(
                None, op, "Cannot assign a device for operation %s: {{node %s}} was explicitly assigned to %s "
                "but available devices are [ %s ]. Make sure the device specification refers to a valid "
                "device.%s" % (op.name, op.name, op.device, CPU, _cluster_hint(op.device)))


def _cluster_hint(device):
    """TF's message ends where graphlab's lesson starts: for a device in a cluster job (ps, worker ...), say
    how to run the graph here anyway and how to run it where it belongs."""
    job = DeviceSpec.from_string(device).job
    if job in (None, "localhost"):
        return ""
    return (" (graphlab: %s is a task of a TensorFlow cluster, and a local session, TF's as graphlab's, has only "
            "this process's CPU even with allow_soft_placement. To run the graph here, build it without the "
            "device setter or import it with tf.train.import_meta_graph(..., clear_devices=True); to run it on "
            "its cluster, export it with its checkpoint and start a real TensorFlow cluster: `graphlab cluster "
            "--help`, lesson 11.)" % device)


def log(graph, config):
    """With ``log_device_placement``, print every op's placement as TF does when it places the graph."""
    if getattr(config, "log_device_placement", False):
        ops = placer_order(graph.get_operations())
        print("".join("%s: (%s): %s\n" % (op.name, op.type, CPU) for op in ops), end="", flush=True)
