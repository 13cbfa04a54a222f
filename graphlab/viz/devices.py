"""Colouring a drawing by device: ``render(..., color_by="device")``.

A cluster graph (``tf.device(tf.train.replica_device_setter(...))``) places each op on a task of a job:
variables on ``/job:ps/task:N``, the rest on ``/job:worker``. Here each box is filled with the colour of its
job and task (parameter servers in warm colours, workers in cool ones, ops without a device white), a variable
on a ps task says so under its name, and the summary gets a legend. The shapes stay those of the op's role
(a variable is still a cylinder): only the fill changes. Works on any view the renderer draws (graphlab
graphs, tf.Graph, GraphDef), since it reads only each op's device string.
"""
from graphlab.framework.device_spec import DeviceSpec

# Variables and other state that replica_device_setter sends to the ps tasks (its default ps_ops).
_STATE_TYPES = frozenset(["Variable", "VariableV2", "VarHandleOp", "AutoReloadVariable"])
# (name for the legend, fill colour)
_PS_COLOURS = [("orange", "#fdba74"), ("red", "#fca5a5"), ("yellow", "#fcd34d"), ("pink", "#f9a8d4")]
_OTHER_COLOURS = [("blue", "#93c5fd"), ("green", "#86efac"), ("violet", "#c4b5fd"), ("cyan", "#67e8f9"),
                  ("lime", "#bef264"), ("indigo", "#a5b4fc")]
NO_DEVICE = "#ffffff"


def device_of(node):
    """The device string of a drawn op (a view node from a graph or a GraphDef)."""
    return node.device or getattr(node.source, "device", "") or ""


def task_of(device):
    """``ps:0``, ``worker:1``, ``worker`` (job without task), ``CPU:0`` (a device without a job), or ""."""
    if not device:
        return ""
    try:
        spec = DeviceSpec.from_string(device)
    except ValueError:
        return device
    if spec.job:
        return spec.job if spec.task is None else "%s:%d" % (spec.job, spec.task)
    if spec.device_type:
        return spec.device_type if spec.device_index is None else "%s:%d" % (spec.device_type, spec.device_index)
    return ""


class DeviceColours:
    """The colour of each job/task met in a view, ps tasks first; a hook that fills the boxes."""

    def __init__(self, view):
        tasks = {task_of(device_of(n)) for n in view.nodes} - {""}

        def order(task):
            job, _, index = task.partition(":")
            return (job != "ps", job, int(index) if index.isdigit() else -1)

        self.colours = {}      # task -> fill colour
        self.names = {}        # task -> colour name (several tasks share one past the palette's end)
        ps = [t for t in sorted(tasks, key=order) if t.partition(":")[0] == "ps"]
        other = [t for t in sorted(tasks, key=order) if t.partition(":")[0] != "ps"]
        for palette, group in ((_PS_COLOURS, ps), (_OTHER_COLOURS, other)):
            for i, task in enumerate(group):
                self.names[task], self.colours[task] = palette[i % len(palette)]

    def legend(self):
        """One summary line: each task and its colour."""
        if not self.colours:
            return "devices: none set (every op runs wherever the session puts it)"
        return "devices: " + ", ".join("%s %s" % (task, name) for task, name in self.names.items()) + \
            " (no device: white)"

    def __call__(self, unit, attrs):
        """The node hook of dot.to_dot: fill the box with its task's colour (a faded box stays faded)."""
        if unit.kind == "external" or attrs.get("fillcolor") == "#f9fafb":
            return
        tasks = sorted({task_of(device_of(m)) for m in unit.members})
        if len(tasks) == 1:
            attrs["fillcolor"] = self.colours.get(tasks[0], NO_DEVICE)
            first = unit.members[0]
            if tasks[0] and unit.kind == "op" and first.type in _STATE_TYPES:
                where = "on " + tasks[0]
                attrs["label"] += "\n" + where
                attrs["tooltip"] += "; lives " + where
                if tasks[0].startswith("ps"):
                    attrs["penwidth"] = "2"
        else:
            attrs["fillcolor"] = NO_DEVICE
            attrs["label"] += "\n%d devices" % len(tasks)
            attrs["tooltip"] += "; ops on " + ", ".join(t or "no device" for t in tasks)
