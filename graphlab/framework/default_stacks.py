"""The defaults chosen by ``with x.as_default():``: a per-thread stack of graphs and one of sessions.

They live here, below both the Graph and the Session, so that ``Tensor.eval()``, ``Operation.run()`` and
``Graph`` can find the default session without importing the runtime (TF keeps them in framework/ops.py).
"""
import threading


class DefaultStack(threading.local):
    """A per-thread stack of defaults entered with ``with x.as_default():`` (graphs, sessions); the innermost
    entry is the current default."""

    def __init__(self):
        self.stack = []

    def get(self):
        return self.stack[-1] if self.stack else None

    def controller(self, item):
        return _DefaultScope(self, item)


class _DefaultScope:
    """``with x.as_default():`` on a DefaultStack (a small class rather than a generator: cheap enough to
    open around each op built into a graph other than the default one)."""

    __slots__ = ("_defaults", "_item")

    def __init__(self, defaults, item):
        self._defaults = defaults
        self._item = item

    def __enter__(self):
        self._defaults.stack.append(self._item)
        return self._item

    def __exit__(self, exc_type, exc_value, tb):
        # remove this entry even if inner blocks were exited out of order
        stack, item = self._defaults.stack, self._item
        for i in range(len(stack) - 1, -1, -1):
            if stack[i] is item:
                del stack[i]
                break


# --- the default session ----------------------------------------------------------------------------

_default_session_stack = DefaultStack()


def get_default_session():
    """``tf.get_default_session()``: the innermost session entered with ``as_default()`` in this thread."""
    return _default_session_stack.get()


def default_session_controller(session):
    """The context manager behind ``Session.as_default()``."""
    return _default_session_stack.controller(session)


def clear_default_session_stack():
    """Forget this thread's default sessions (``tf.reset_default_graph`` does, as TF)."""
    _default_session_stack.stack[:] = []


def session_for_eval(session, graph, what):
    """The session that ``Tensor.eval()`` / ``Operation.run()`` (``what``) runs in: the one given, else the
    default one; TF's errors when there is none or it runs another graph."""
    if session is None:
        session = get_default_session()
        if session is None:
            if what == "eval()":
                raise ValueError("Cannot evaluate tensor using `eval()`: No default session is registered. "
                                 "Use `with sess.as_default()` or pass an explicit session to "
                                 "`eval(session=sess)`")
            raise ValueError("Cannot execute operation using `run()`: No default session is registered. "
                             "Use `with sess.as_default():` or pass an explicit session to "
                             "`run(session=sess)`")
    if session.graph is not graph:
        if what == "eval()":
            raise ValueError("Cannot use the given session to evaluate tensor: the tensor's graph is "
                             "different from the session's graph.")
        raise ValueError("Cannot use the given session to execute operation: the operation's graph is "
                         "different from the session's graph.")
    return session
