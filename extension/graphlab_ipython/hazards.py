"""Three graph-building mistakes that run without an error, found for the after-cell report:

* an op built inside ``sess.run(...)``'s own arguments (``sess.run(tf.global_variables_initializer())`` in a
  loop): every call builds one more op;
* a stateful op created *before* a ``tf.cond`` and read only inside one branch: cond is lazy only for ops
  built inside its branch functions, so this one runs on every run, whichever branch is taken;
* a ``py_func`` in a graph written to a file: the file holds a token, never the Python function.
"""
import collections
import os
import sys

from graphlab.framework import registry

_GRAPHLAB_DIR = os.path.dirname(os.path.dirname(os.path.abspath(registry.__file__))) + os.sep
_EXTENSION_DIR = os.path.dirname(os.path.abspath(__file__)) + os.sep
PYFUNC_TYPES = frozenset(("PyFunc", "PyFuncStateless", "EagerPyFunc"))
_SWITCH_TYPES = frozenset(("Switch", "RefSwitch"))

# One op built inside a run call: where (file, line), what (op name, type), in which run of the cell.
RunBuilt = collections.namedtuple("RunBuilt", "filename lineno op")


_RUNTIME_DIR = os.path.join(_GRAPHLAB_DIR, "runtime") + os.sep


def user_frame():
    """The frame of the user's line that called ``sess.run`` itself; None when the run came from another
    graphlab API (``simple_save`` or ``Saver.save`` build their ops and run them: not the user's doing)."""
    frame = sys._getframe(1)
    while frame is not None:
        filename = frame.f_code.co_filename
        if not filename.startswith((_GRAPHLAB_DIR, _EXTENSION_DIR)):
            return frame
        if filename.startswith(_GRAPHLAB_DIR) and not filename.startswith(_RUNTIME_DIR):
            return None
        frame = frame.f_back
    return None


def built_by_run_call(session, tag):
    """The fetched ops and targets of ``session``'s last run that the current cell execution (``tag``) created
    on the very line that called ``sess.run``: built inside the call's arguments. [] when there are none
    (the common case costs one provenance comparison per fetch)."""
    last = getattr(session, "last_run", None)
    if last is None or tag is None:
        return []
    ops = [t.op for t in getattr(last, "_fetches", ())] + list(getattr(last, "_targets", ()))
    fresh = [op for op in ops if getattr(op, "provenance", None) is tag]
    if not fresh:
        return []
    frame = user_frame()
    if frame is None:
        return []
    found = []
    for op in fresh:
        line = getattr(op, "source_line", None)
        if line is not None and line.filename == frame.f_code.co_filename and line.lineno == frame.f_lineno:
            found.append(RunBuilt(line.filename, line.lineno, op))
    return found


def _in_cond(op):
    context = getattr(op, "_control_flow_context", None)
    return context is not None and type(context).__name__ == "CondContext"


def cond_leaks(new_ops):
    """[(stateful op, [cond Switch ops reading it])] for the ops of ``new_ops`` that change state, are built
    outside any tf.cond, and are read only through a cond's Switch (so only a branch uses their value)."""
    found = []
    for op in new_ops:
        if _in_cond(op) or not op.outputs:
            continue
        try:
            stateful = registry.get_opdef(op.type).stateful
        except Exception:
            continue
        if not stateful or op.type in ("VariableV2", "Variable", "VarHandleOp", "Placeholder"):
            continue
        consumers = [c for t in op.outputs for c in t.consumers()]
        if consumers and all(c.type in _SWITCH_TYPES and _in_cond(c) and c.inputs[0].op is op
                             for c in consumers):
            found.append((op, consumers))
    return found


def pyfunc_nodes(graph_def):
    """The nodes of a GraphDef (and of its functions) that call back into Python."""
    nodes = [n for n in graph_def.node if n.op in PYFUNC_TYPES]
    for function in graph_def.library.function:
        nodes.extend(n for n in function.node_def if n.op in PYFUNC_TYPES)
    return nodes
