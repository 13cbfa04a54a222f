"""The graph state Keras keeps per graph, and the session behind ``K.get_session()``.

Keras in graph mode owns one session for the default graph (made on first use, replaced when the default
graph changes) unless a default session is active; every ``get_session()`` first initializes the variables
Keras made (layers' weights, ``K.variable``) that are not initialized yet, checking each once: that is why a
Keras model runs without ``global_variables_initializer``. ``clear_session()`` starts a new default graph
with fresh layer-name counters and a fresh learning-phase placeholder.
"""
import threading
import weakref

from graphlab.framework import default_stacks
from graphlab.framework import graph as graph_mod
from graphlab.framework import object_names
from graphlab.ops import array_ops, state_ops
from graphlab.ops import variables as variables_mod
from graphlab.runtime.session import Session


class _SessionHolder(threading.local):
    session = None


_SESSION = _SessionHolder()
_MANUAL_VAR_INIT = [False]
# Per graph (weakly, so a dropped graph takes its state along): the learning phase, the variables Keras made
# and the TF optimizers Keras runs. Layer names are counted in graphlab.framework.object_names.
_LEARNING_PHASES = weakref.WeakKeyDictionary()
_VARIABLES = weakref.WeakKeyDictionary()
_TF_OPTIMIZERS = weakref.WeakKeyDictionary()


def get_graph():
    """The graph Keras builds in: the default graph."""
    return graph_mod.get_default_graph()


# ----------------------------------------------------------------------------------------- names
def get_uid(prefix=""):
    """1, 2, 3, ... per prefix in the default graph: the counter Keras layers, tf.layers and RNN cells share."""
    return object_names.get_uid(prefix)


def reset_uids():
    object_names.reset()


def unique_object_name(name, zero_based=True):
    """``dense``, ``dense_1``, ... (zero_based) or ``input_1``, ``input_2``, ... per graph."""
    return object_names.unique_object_name(name, zero_based=zero_based)


# ------------------------------------------------------------------------------------- learning phase
def _default_learning_phase():
    with graph_mod.name_scope(""):
        return array_ops.placeholder_with_default(False, shape=(), name="keras_learning_phase")


def learning_phase():
    """The learning phase of the default graph: the bool placeholder-with-default ``keras_learning_phase``
    (False unless fed: inference), made on first use, or the 0/1 given to ``set_learning_phase``."""
    graph = get_graph()
    if graph not in _LEARNING_PHASES:
        _LEARNING_PHASES[graph] = _default_learning_phase()
    return _LEARNING_PHASES[graph]


def set_learning_phase(value):
    """Fix the learning phase of the default graph to 0 (test) or 1 (train): layers built afterwards take
    one branch instead of a cond on the placeholder."""
    if value not in (0, 1):
        raise ValueError("Expected learning phase to be 0 or 1.")
    _LEARNING_PHASES[get_graph()] = value


def symbolic_learning_phase():
    graph = get_graph()
    phase = _LEARNING_PHASES.get(graph)
    if phase is None or isinstance(phase, int):
        phase = _default_learning_phase()
        _LEARNING_PHASES[graph] = phase
    return phase


# ------------------------------------------------------------------------------------------ session
def _graph_of(op_input_list):
    for value in op_input_list:
        graph = getattr(value, "graph", None)
        if graph is not None:
            return graph
    return get_graph()


def _get_session(op_input_list=()):
    default = default_stacks.get_default_session()
    if default is not None:
        return default
    graph = _graph_of(op_input_list) if op_input_list else get_graph()
    if _SESSION.session is None or _SESSION.session.graph is not graph:
        _SESSION.session = Session(graph=graph)
    return _SESSION.session


def track_variable(variable):
    """Remember a variable Keras made, so ``get_session()`` initializes it."""
    if variable is None:
        return
    _VARIABLES.setdefault(variable.graph, []).append(variable)


def track_tf_optimizer(optimizer):
    """Remember a TF optimizer wrapped by Keras, so its slot variables are initialized too."""
    _TF_OPTIMIZERS.setdefault(get_graph(), []).append(optimizer)


def _keras_variables(graph):
    seen, result = set(), []
    candidates = list(_VARIABLES.get(graph, []))
    for optimizer in _TF_OPTIMIZERS.get(graph, []):
        wrapped = getattr(optimizer, "optimizer", optimizer)
        candidates.extend(wrapped.variables() if hasattr(wrapped, "variables") else [])
    for variable in candidates:
        if id(variable) not in seen:
            seen.add(id(variable))
            result.append(variable)
    return result


def _is_initialized_op(variable):
    if hasattr(variable, "is_initialized"):
        return variable.is_initialized()
    return state_ops.is_variable_initialized(variable._ref() if hasattr(variable, "_ref") else variable)


def _initialize_variables(session):
    """Run the initializers of Keras's variables that this session has not initialized, asking once per
    variable (as Keras: a variable checked once is not checked again)."""
    candidates = [v for v in _keras_variables(get_graph()) if not getattr(v, "_keras_initialized", False)]
    if not candidates:
        return
    flags = session.run([_is_initialized_op(v) for v in candidates])
    uninitialized = []
    for flag, variable in zip(flags, candidates):
        if not flag:
            uninitialized.append(variable)
        variable._keras_initialized = True
    if uninitialized:
        session.run(variables_mod.variables_initializer(uninitialized))


def get_session(op_input_list=()):
    """The session Keras runs in: the default session if one is active, else Keras's own session for the
    default graph; the variables Keras made and nobody initialized are initialized first."""
    session = _get_session(op_input_list)
    if not _MANUAL_VAR_INIT[0]:
        with session.graph.as_default():
            _initialize_variables(session)
    return session


def set_session(session):
    """Make ``session`` the one Keras uses (until the default graph changes)."""
    _SESSION.session = session


def manual_variable_initialization(value):
    """True: ``get_session()`` leaves variable initialization to the user."""
    _MANUAL_VAR_INIT[0] = bool(value)


def clear_session():
    """Forget everything Keras built: a new default graph, layer names counted from the start again, a new
    learning-phase placeholder, and Keras's session closed."""
    graph_mod.reset_default_graph()
    reset_uids()
    if _SESSION.session is not None:
        _SESSION.session.close()
        _SESSION.session = None
    graph = get_graph()
    _LEARNING_PHASES.pop(graph, None)
    _LEARNING_PHASES[graph] = _default_learning_phase()
    _VARIABLES.pop(graph, None)
    _TF_OPTIMIZERS.pop(graph, None)
