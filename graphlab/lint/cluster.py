"""The classic mistakes of TF1 between-graph replication, found in a graph or in a script's source.

* ``variables_off_ps(graph)``: in a graph placed on a cluster (some op names a job), a variable that does not
  live on a ps task. Without ``tf.device(tf.train.replica_device_setter(...))`` each worker keeps its own copy
  and the workers never share what they learn. Local variables (``tf.GraphKeys.LOCAL_VARIABLES``, such as
  SyncReplicasOptimizer's local step) belong on the worker and are left alone.
* ``session_mistakes(source, filename)``: ``MonitoredTrainingSession(master=...)`` without ``is_chief`` (every
  worker then believes it is the chief: all initialize the shared variables and write checkpoints), with
  ``is_chief=False`` written out (nobody initializes: every worker waits for ever), and a cluster script whose
  chief never runs an initializer. These are about the program, not the graph, so they read the source (ast);
  nothing is executed.
"""
import ast
import collections

from graphlab.framework.device_spec import DeviceSpec

Finding = collections.namedtuple("Finding", "where message")

_VARIABLE_TYPES = frozenset(["Variable", "VariableV2", "VarHandleOp", "AutoReloadVariable"])
_INITIALIZERS = ("global_variables_initializer", "initialize_all_variables", "variables_initializer",
                 "MonitoredTrainingSession", "Supervisor", "SessionManager", "Scaffold", "ChiefSessionCreator")


def _job(device):
    try:
        return DeviceSpec.from_string(device or "").job
    except ValueError:
        return None


def variables_off_ps(graph):
    """Findings for the variables of a cluster graph that are not on a ps task."""
    ops = graph.get_operations()
    jobs = {_job(op.device) for op in ops} - {None, "localhost"}
    if not jobs:
        return []
    local = set()
    get_collection = getattr(graph, "get_collection", None)
    if get_collection is not None:
        for v in get_collection("local_variables"):
            local.add(getattr(getattr(v, "op", None), "name", None))
    found = []
    for op in ops:
        if op.type in _VARIABLE_TYPES and op.name not in local and _job(op.device) != "ps":
            found.append(op)
    if not found:
        return []
    first = found[0]
    where = ("on %s" % first.device) if first.device else "on no device (the session's own task)"
    return [Finding(getattr(first, "source_line", None),
                    "%d variable%s of this cluster graph not on a ps task, e.g. %s %s: each worker would train "
                    "its own copy. Build them inside with tf.device(tf.train.replica_device_setter(cluster=...)) "
                    "so they live on the parameter servers" % (
                        len(found), "" if len(found) == 1 else "s", first.name, where))]


def _call_name(node):
    func = node.func
    if isinstance(func, ast.Attribute):
        return func.attr
    if isinstance(func, ast.Name):
        return func.id
    return None


def session_mistakes(source, filename="<script>"):
    """Findings about a script's MonitoredTrainingSession calls and its chief's initialization."""
    try:
        tree = ast.parse(source, filename)
    except SyntaxError:
        return []
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call)]
    names = {_call_name(n) for n in calls}
    found = []
    for call in calls:
        if _call_name(call) != "MonitoredTrainingSession":
            continue
        keywords = {k.arg: k.value for k in call.keywords if k.arg}
        where = "%s:%d" % (filename, call.lineno)
        if "master" in keywords and "is_chief" not in keywords:
            found.append(Finding(where, "MonitoredTrainingSession(master=...) without is_chief: it defaults to "
                                        "True, so every worker acts as the chief (initializes the shared variables, "
                                        "writes checkpoints). Pass is_chief=(task_index == 0)"))
        chief = keywords.get("is_chief")
        if isinstance(chief, ast.Constant) and chief.value is False:
            found.append(Finding(where, "MonitoredTrainingSession(is_chief=False) on every worker: no chief "
                                        "initializes the variables, so every worker waits for ever. Make one "
                                        "task the chief: is_chief=(task_index == 0)"))
    servers = "Server" in names
    remote = any(_call_name(c) == "Session" and (c.args or any(k.arg == "target" for k in c.keywords))
                 for c in calls)
    if servers and remote and not names.intersection(_INITIALIZERS):
        line = next(c.lineno for c in calls if _call_name(c) == "Session")
        found.append(Finding("%s:%d" % (filename, line),
                             "this cluster script opens tf.Session(server.target) but nothing initializes the "
                             "variables: the chief must run tf.global_variables_initializer() (or use "
                             "MonitoredTrainingSession(is_chief=...), which does it)"))
    return found
