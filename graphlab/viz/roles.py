"""What each op is for, and how that looks: every node gets one role (feed, input, state, constant, compute,
gradient, optimizer, saver, control), and scopes that hold bookkeeping (gradients, savers, initializers,
optimizer slots) are recognised by name so they can start collapsed, as TensorBoard does."""
import re

FEED_TYPES = frozenset(["Placeholder", "PlaceholderV2", "PlaceholderWithDefault"])
STATE_TYPES = frozenset([
    "VariableV2", "Variable", "VarHandleOp", "TemporaryVariable", "Assign", "AssignAdd", "AssignSub",
    "IsVariableInitialized", "VarIsInitializedOp", "ReadVariableOp", "AssignVariableOp", "ScatterUpdate", "ScatterAdd", "ScatterSub",
    "ScatterMul", "ScatterDiv", "ScatterMin", "ScatterMax",
    "QueueCloseV2", "QueueSizeV2", "QueueIsClosedV2", "HashTableV2", "MutableHashTableV2", "CountUpTo"])
# the input pipeline: queues (drawn with the runners that fill them), readers, datasets and iterators
QUEUE_TYPES = frozenset(["FIFOQueueV2", "FIFOQueue", "RandomShuffleQueueV2", "PaddingFIFOQueueV2",
                         "PriorityQueueV2"])
INPUT_TYPES = QUEUE_TYPES | frozenset([
    "QueueEnqueueV2", "QueueEnqueueManyV2", "QueueDequeueV2", "QueueDequeueManyV2", "QueueDequeueUpToV2",
    "WholeFileReaderV2", "TextLineReaderV2", "FixedLengthRecordReaderV2", "TFRecordReaderV2", "ReaderReadV2",
    "ReaderReadUpToV2", "OneShotIterator", "IteratorV2", "MakeIterator", "IteratorGetNext"])
SAVER_TYPES = frozenset([
    "SaveV2", "RestoreV2", "Save", "Restore", "SaveSlices", "RestoreSlice", "ShardedFilename",
    "ShardedFilespec", "MergeV2Checkpoints", "ReadFile", "WriteFile", "MatchingFiles"])
CONTROL_TYPES = frozenset([
    "NoOp", "Assert", "ControlTrigger", "Switch", "Merge", "Enter", "Exit", "NextIteration", "LoopCond",
    "RefSwitch", "RefMerge", "RefEnter", "RefExit", "Print", "PrintV2"])

OPTIMIZER_NAMES = ("Adam", "Adagrad", "AdagradDA", "Adadelta", "Momentum", "RMSProp", "GradientDescent",
                   "Ftrl", "ProximalAdagrad", "ProximalGradientDescent")
_GRADIENT_SCOPE = re.compile(r"^gradients(_\d+)?$")
_SAVE_SCOPE = re.compile(r"^(save|Saver)(_\d+)?$")
_INIT_SCOPE = re.compile(r"^(Initializer|init|report_uninitialized_variables)(_\d+)?$")
_OPTIMIZER_SCOPE = re.compile(r"^(%s)(_\d+)?$" % "|".join(OPTIMIZER_NAMES))

ROLES = ("feed", "input", "state", "constant", "compute", "gradient", "optimizer", "saver", "control")

# role -> DOT node attributes (faded and highlighted variants are derived in dot.py)
STYLES = {
    "feed": {"shape": "ellipse", "style": "filled", "fillcolor": "#dbeafe", "color": "#1d4ed8"},
    "input": {"shape": "box3d", "style": "filled", "fillcolor": "#ccfbf1", "color": "#0f766e"},
    "state": {"shape": "cylinder", "style": "filled", "fillcolor": "#ffedd5", "color": "#c2410c"},
    "constant": {"shape": "box", "style": "filled,rounded", "fillcolor": "#f3f4f6", "color": "#6b7280",
                 "fontsize": "10"},
    "compute": {"shape": "box", "style": "filled,rounded", "fillcolor": "#ffffff", "color": "#374151"},
    "gradient": {"shape": "box", "style": "filled,rounded", "fillcolor": "#f3e8ff", "color": "#7e22ce"},
    "optimizer": {"shape": "box", "style": "filled,rounded", "fillcolor": "#dcfce7", "color": "#15803d"},
    "saver": {"shape": "note", "style": "filled", "fillcolor": "#fef9c3", "color": "#a16207"},
    "control": {"shape": "octagon", "style": "filled", "fillcolor": "#fafafa", "color": "#9ca3af",
                "fontsize": "10"},
}
BIG_CONSTANT = {"color": "#dc2626", "penwidth": "2.5", "fillcolor": "#fee2e2", "fontcolor": "#991b1b"}

_cache = {}


def bookkeeping_kind(component):
    """``'gradient'``, ``'saver'``, ``'init'`` or ``'optimizer'`` when a scope name component is one of the
    bookkeeping scopes that start collapsed; ``None`` otherwise."""
    kind = _cache.get(component, False)
    if kind is False:
        kind = None
        if _GRADIENT_SCOPE.match(component):
            kind = "gradient"
        elif _SAVE_SCOPE.match(component):
            kind = "saver"
        elif _INIT_SCOPE.match(component):
            kind = "init"
        elif _OPTIMIZER_SCOPE.match(component):
            kind = "optimizer"
        _cache[component] = kind
    return kind


def role_of(node):
    """The role a node is drawn with: by op type first, then by the bookkeeping scope it lives in."""
    t = node.type
    if t in FEED_TYPES:
        return "feed"
    if t == "Const":
        return "constant"
    if t in SAVER_TYPES:
        return "saver"
    if t.startswith(("Apply", "ResourceApply", "SparseApply", "ResourceSparseApply")):
        return "optimizer"
    if t in INPUT_TYPES or t.endswith("Dataset") or t.endswith("DatasetV2"):
        return "input"
    if t in STATE_TYPES:
        return "state"
    if t in CONTROL_TYPES:
        return "control"
    scope_role = None
    for component in node.name.split("/")[:-1]:
        kind = bookkeeping_kind(component)
        if kind == "gradient":
            return "gradient"
        if kind in ("saver", "optimizer") and scope_role is None:
            scope_role = kind
    return scope_role or "compute"


def scope_role(kind):
    """The drawing role of a collapsed bookkeeping scope."""
    return {"gradient": "gradient", "saver": "saver", "optimizer": "optimizer", "init": "state"}.get(kind, "compute")
