"""``tf.make_template``: wrap a function that creates variables with ``tf.get_variable`` so that every call
shares them. The first call creates them in a variable scope of its own (``name_``, made unique); later
calls re-enter that scope with ``reuse=True``, so their ops get fresh name scopes (``name__1/``) while
``get_variable`` returns the first call's variables. A later call that makes a new trainable variable (the
classic mistake: ``tf.Variable`` instead of ``tf.get_variable``) is TF's ValueError.
"""
import functools
import traceback

from graphlab.framework import graph as graph_mod
from graphlab.framework.graph import GraphKeys
from graphlab.ops.variable_scope import _pure_variable_scope, _unique_default_scope, variable_scope


def make_template(name_, func_, create_scope_now_=False, unique_name_=None, custom_getter_=None, **kwargs):
    """``tf.make_template``: a Template; ``kwargs`` are bound to ``func_`` (functools.partial)."""
    if kwargs:
        func_ = functools.partial(func_, **kwargs)
    return Template(name_, func_, create_scope_now=create_scope_now_, unique_name=unique_name_,
                    custom_getter=custom_getter_)


def _skip_common_stack_elements(stacktrace, base_case):
    """The part of ``stacktrace`` after the frames it shares with ``base_case`` (at least its last frame)."""
    for i, (trace, base) in enumerate(zip(stacktrace, base_case)):
        if trace != base:
            return stacktrace[i:]
    return stacktrace[-1:]


class Template:
    """A function whose variables are created on its first call and reused on every later call."""

    def __init__(self, name, func, create_scope_now=False, unique_name=None, custom_getter=None):
        self._func = func
        self._stacktrace = traceback.format_stack()[:-2]
        self._name = name
        self._unique_name = unique_name
        self._custom_getter = custom_getter
        if name is None:
            raise ValueError("name cannot be None.")
        if create_scope_now:
            scope_name = self._unique_name or _unique_default_scope(self._name)
            with _pure_variable_scope(scope_name, None, None, None, None, self._custom_getter, None,
                                             None) as vs:
                self._variable_scope = vs
        else:
            self._variable_scope = None
        self._variables_created = False
        self._first_call = True

    def _call_func(self, args, kwargs):
        try:
            if self._variables_created:
                trainable = graph_mod.get_default_graph().get_collection_ref(GraphKeys.TRAINABLE_VARIABLES)
                trainable_at_start = len(trainable)
                result = self._func(*args, **kwargs)
                if trainable_at_start != len(trainable):
                    raise ValueError("Trainable variable created when calling a template after the first time, "
                                     "perhaps you used tf.Variable when you meant tf.get_variable: %s" %
                                     (trainable[trainable_at_start:],))
            elif self._first_call:
                self._first_call = False
                try:
                    result = self._func(*args, **kwargs)
                except Exception:
                    self._first_call = True
                    raise
                self._variables_created = True
            else:
                result = self._func(*args, **kwargs)
            return result
        except Exception as exc:
            # as TF: say where the template was made (the frames of its creation not shared with this call)
            args = exc.args
            arg0 = args[0] if args else ""
            trace = "".join(_skip_common_stack_elements(self._stacktrace, traceback.format_stack()))
            exc.args = ("%s\n\noriginally defined at:\n%s" % (arg0, trace),) + tuple(args[1:])
            raise

    def __call__(self, *args, **kwargs):
        if self._variable_scope:
            with variable_scope(self._variable_scope, reuse=not self._first_call):
                return self._call_func(args, kwargs)
        with variable_scope(self._unique_name, self._name, custom_getter=self._custom_getter) as vs:
            self._variable_scope = vs
            return self._call_func(args, kwargs)

    @property
    def name(self):
        return self._name

    @property
    def func(self):
        return self._func

    @property
    def variable_scope(self):
        return self._variable_scope

    @property
    def variable_scope_name(self):
        """The scope's name with a trailing "/" (the prefix of this template's variables), or None."""
        if self._variable_scope:
            name = self._variable_scope.name
            return name if not name or name[-1] == "/" else name + "/"
        return None

    def _collection(self, key):
        if not self._variables_created:
            return []
        return graph_mod.get_default_graph().get_collection(key, self.variable_scope_name)

    @property
    def trainable_variables(self):
        return self._collection(GraphKeys.TRAINABLE_VARIABLES)

    @property
    def global_variables(self):
        return self._collection(GraphKeys.GLOBAL_VARIABLES)

    @property
    def local_variables(self):
        return self._collection(GraphKeys.LOCAL_VARIABLES)

    @property
    def non_trainable_variables(self):
        trainable = {id(v) for v in self.trainable_variables}
        return [v for v in self.global_variables if id(v) not in trainable]

    @property
    def variables(self):
        return self.global_variables + self.local_variables

    weights = variables
    trainable_weights = trainable_variables
    non_trainable_weights = non_trainable_variables


__all__ = ["make_template", "Template"]
