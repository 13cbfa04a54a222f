"""``tf.variable_scope`` and ``tf.get_variable``: TF1's way of sharing variables by name.

Each graph keeps two stores in collections (as TF does, so they live and die with the graph):
``("__variable_store",)`` maps full variable names to the Variables ``get_variable`` made, and
``("__varscope",)`` holds the current VariableScope and how often each scope name was opened (for the
unique ``default_name`` scopes ``d``, ``d_1``...). Variable names come from the variable scope only; op names
come from the name scope that ``variable_scope`` opens alongside it. That split is what learners trip over:
re-entering a captured scope gives the same variable names but a fresh op scope (``s_1/``).
"""
import contextlib
import enum
import traceback

from graphlab.framework import dtypes, graph as graph_mod, tensor_shape
from graphlab.framework.graph import GraphKeys
from graphlab.framework.tensor import Tensor


class _ReuseMode(enum.Enum):
    """``tf.AUTO_REUSE``: create the variable if it is missing, return it if it exists."""
    AUTO_REUSE = 1


AUTO_REUSE = _ReuseMode.AUTO_REUSE


class VariableScope:
    """What a ``variable_scope`` block sets for ``get_variable``: the name prefix, whether to reuse, and
    defaults (initializer, regularizer, dtype) for variables created inside."""

    def __init__(self, reuse, name="", initializer=None, regularizer=None, caching_device=None,
                 partitioner=None, custom_getter=None, name_scope="", dtype=dtypes.float32,
                 use_resource=None, constraint=None):
        self._name = name
        self._name_scope = name_scope
        self._reuse = reuse
        self._initializer = initializer
        self._regularizer = regularizer
        self._caching_device = caching_device
        self._partitioner = partitioner
        self._custom_getter = custom_getter
        self._dtype = dtypes.as_dtype(dtype)
        self._use_resource = use_resource
        self._constraint = constraint

    @property
    def name(self):
        return self._name

    @property
    def original_name_scope(self):
        """The op name scope (with trailing "/") opened when this scope was first entered."""
        return self._name_scope

    @property
    def reuse(self):
        return self._reuse

    @property
    def initializer(self):
        return self._initializer

    @property
    def regularizer(self):
        return self._regularizer

    @property
    def dtype(self):
        return self._dtype

    @property
    def caching_device(self):
        return self._caching_device

    @property
    def partitioner(self):
        return self._partitioner

    @property
    def custom_getter(self):
        return self._custom_getter

    @property
    def use_resource(self):
        return self._use_resource

    @property
    def constraint(self):
        return self._constraint

    def reuse_variables(self):
        """From now on, ``get_variable`` in this scope returns existing variables instead of creating."""
        self._reuse = True

    def set_initializer(self, initializer):
        self._initializer = initializer

    def set_regularizer(self, regularizer):
        self._regularizer = regularizer

    def set_dtype(self, dtype):
        self._dtype = dtypes.as_dtype(dtype)

    def set_caching_device(self, caching_device):
        self._caching_device = caching_device

    def set_partitioner(self, partitioner):
        self._partitioner = partitioner

    def set_custom_getter(self, custom_getter):
        self._custom_getter = custom_getter

    def set_use_resource(self, use_resource):
        self._use_resource = use_resource

    def get_collection(self, name):
        scope = self._name + "/" if self._name else ""
        return graph_mod.get_default_graph().get_collection(name, scope)

    def trainable_variables(self):
        return self.get_collection(GraphKeys.TRAINABLE_VARIABLES)

    def global_variables(self):
        return self.get_collection(GraphKeys.GLOBAL_VARIABLES)

    def local_variables(self):
        return self.get_collection(GraphKeys.LOCAL_VARIABLES)

    def get_variable(self, var_store, name, shape=None, dtype=None, initializer=None, regularizer=None,
                     reuse=None, trainable=None, collections=None, caching_device=None, partitioner=None,
                     validate_shape=True, use_resource=None, custom_getter=None, constraint=None,
                     synchronization=None, aggregation=None):
        """Fill unset arguments from this scope, then ask the store (variables ignore name scopes)."""
        if regularizer is None:
            regularizer = self._regularizer
        if initializer is None:
            initializer = self._initializer
        if custom_getter is None:
            custom_getter = self._custom_getter
        if reuse is None or reuse is False:
            reuse = self._reuse
        if dtype is None:
            dtype = self._dtype
        full_name = self._name + "/" + name if self._name else name
        graph = graph_mod.get_default_graph()
        if use_resource is None:
            use_resource = self._use_resource
        with graph.name_scope(None):
            return var_store.get_variable(
                full_name, shape=shape, dtype=dtype, initializer=initializer, regularizer=regularizer,
                reuse=reuse, trainable=trainable, collections=collections, validate_shape=validate_shape,
                custom_getter=custom_getter, constraint=constraint, use_resource=use_resource)


class _VariableStore:
    """All variables made by ``get_variable`` in one graph, by full name."""

    def __init__(self):
        self._vars = {}

    def get_variable(self, name, shape=None, dtype=dtypes.float32, initializer=None, regularizer=None,
                     reuse=None, trainable=None, collections=None, validate_shape=True, custom_getter=None,
                     constraint=None, use_resource=None):
        if custom_getter is not None:
            def true_getter(name, shape=None, dtype=dtypes.float32, initializer=None, regularizer=None,
                            reuse=None, trainable=None, collections=None, validate_shape=True,
                            constraint=None, use_resource=use_resource, **kwargs):
                return self._get_single_variable(name, shape, dtype, initializer, regularizer, reuse,
                                                 trainable, collections, validate_shape, constraint,
                                                 use_resource)
            return custom_getter(true_getter, name, shape=shape, dtype=dtype, initializer=initializer,
                                 regularizer=regularizer, reuse=reuse, trainable=trainable,
                                 collections=collections, validate_shape=validate_shape,
                                 constraint=constraint, use_resource=use_resource)
        return self._get_single_variable(name, shape, dtype, initializer, regularizer, reuse, trainable,
                                         collections, validate_shape, constraint, use_resource)

    def _get_single_variable(self, name, shape, dtype, initializer, regularizer, reuse, trainable,
                             collections, validate_shape, constraint, use_resource=None):
        from graphlab.ops import variables
        from graphlab.ops import init_ops
        initializing_from_value = initializer is not None and not callable(initializer)
        if shape is not None and initializing_from_value:
            raise ValueError("If initializer is a constant, do not specify shape.")
        dtype = dtypes.as_dtype(dtype)
        shape = tensor_shape.as_shape(shape)
        if trainable is None:
            trainable = True

        if name in self._vars:
            found = self._vars[name]
            if reuse is False or reuse is None:
                message = ("Variable %s already exists, disallowed. Did you mean to set reuse=True or "
                           "reuse=tf.AUTO_REUSE in VarScope?" % name)
                line = found.op.source_line
                where = ""
                if line is not None:
                    where = "".join(traceback.format_list([(line.filename, line.lineno, line.function,
                                                            line.text)]))
                raise ValueError("%s Originally defined at:\n\n%s" % (message, where))
            if not shape.is_compatible_with(found.get_shape()):
                raise ValueError("Trying to share variable %s, but specified shape %s and found shape %s." %
                                 (name, shape, found.get_shape()))
            if not dtype.is_compatible_with(found.dtype):
                raise ValueError("Trying to share variable %s, but specified dtype %s and found dtype %s." %
                                 (name, dtype.name, found.dtype.name))
            return found

        if reuse is True:
            raise ValueError("Variable %s does not exist, or was not created with tf.get_variable(). Did "
                             "you mean to set reuse=tf.AUTO_REUSE in VarScope?" % name)

        if initializer is None:
            initializer, initializing_from_value = _default_initializer(name, dtype), False
        if initializing_from_value:
            init_val, variable_dtype = initializer, None
        else:
            if isinstance(initializer, type):
                initializer = initializer()
            if shape.is_fully_defined():
                dims = shape.as_list()
                init_val = _bind(initializer, dims, dtype)
                variable_dtype = dtype.base_dtype
            elif _takes_no_arguments(initializer):
                init_val, variable_dtype = initializer, None
            elif shape.ndims is None and not isinstance(initializer, init_ops.Initializer):
                init_val, variable_dtype = initializer, None
            elif shape.ndims is None:
                raise ValueError("Variable %s did not get an initializer, so its `shape` argument must be "
                                 "specified." % name)
            else:
                raise ValueError("The initializer passed is not valid. It should be a callable with no "
                                 "arguments and the shape should not be provided or an instance of "
                                 "`tf.keras.initializers.*' and `shape` should be fully defined.")
        graph = graph_mod.get_default_graph()
        with graph.control_dependencies(None):
            v = variables.Variable(initial_value=init_val, name=name, trainable=trainable,
                                   collections=collections, dtype=variable_dtype,
                                   validate_shape=validate_shape, constraint=constraint,
                                   use_resource=use_resource)
        self._vars[name] = v
        if regularizer:
            with graph.name_scope(name + "/Regularizer/"):
                loss = regularizer(v)
            if loss is not None:
                graph.add_to_collection(GraphKeys.REGULARIZATION_LOSSES, loss)
        return v


def _bind(initializer, dims, dtype):
    def init_val():
        try:
            return initializer(dims, dtype=dtype, partition_info=None)
        except TypeError as e:
            if "partition_info" not in str(e):
                raise
            return initializer(dims, dtype=dtype)
    return init_val


def _takes_no_arguments(fn):
    import inspect
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return False
    return all(p.default is not p.empty or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
               for p in sig.parameters.values())


def _default_initializer(name, dtype):
    """TF's defaults: glorot_uniform for floats, zeros for ints, bools and strings."""
    from graphlab.ops import init_ops
    if dtype.is_floating:
        return init_ops.glorot_uniform_initializer()
    if dtype.is_integer or dtype.is_unsigned or dtype.is_bool or dtype.base_dtype == dtypes.string:
        return init_ops.zeros_initializer()
    raise ValueError("An initializer for variable %s of %s is required" % (name, dtype.base_dtype))


class _VariableScopeStore:
    """The current VariableScope of a graph and how many times each scope name has been opened."""

    def __init__(self):
        self.current_scope = VariableScope(False)
        self.variable_scopes_count = {}

    def open_variable_scope(self, name):
        self.variable_scopes_count[name] = self.variable_scopes_count.get(name, 0) + 1

    def close_variable_subscopes(self, name):
        prefix = name + "/" if name else ""
        for k in list(self.variable_scopes_count):
            if not name or k.startswith(prefix):
                self.variable_scopes_count[k] = 0

    def variable_scope_count(self, name):
        return self.variable_scopes_count.get(name, 0)


_VARSTORE_KEY = ("__variable_store",)
_VARSCOPESTORE_KEY = ("__varscope",)


def _get_default_variable_store():
    store = graph_mod.get_default_graph().get_collection_ref(_VARSTORE_KEY)
    if not store:
        store.append(_VariableStore())
    return store[0]


def get_variable_scope_store():
    store = graph_mod.get_default_graph().get_collection_ref(_VARSCOPESTORE_KEY)
    if not store:
        store.append(_VariableScopeStore())
    return store[0]


def get_variable_scope():
    """The VariableScope in force (the root one has name "")."""
    return get_variable_scope_store().current_scope


def get_variable(name, shape=None, dtype=None, initializer=None, regularizer=None, trainable=None,
                 collections=None, caching_device=None, partitioner=None, validate_shape=True,
                 use_resource=None, custom_getter=None, constraint=None, synchronization=None,
                 aggregation=None):
    """``tf.get_variable``: the variable ``<scope>/name``, created unless the scope reuses."""
    return get_variable_scope().get_variable(
        _get_default_variable_store(), name, shape=shape, dtype=dtype, initializer=initializer,
        regularizer=regularizer, trainable=trainable, collections=collections, validate_shape=validate_shape,
        custom_getter=custom_getter, constraint=constraint, use_resource=use_resource)


# TF's _DEFAULT_USE_RESOURCE: what a variable made with use_resource=None, outside a resource scope, is
_DEFAULT_USE_RESOURCE = [False]


def enable_resource_variables():
    """``tf.enable_resource_variables()``: from now on, variables are ResourceVariables unless a scope or
    ``use_resource=False`` says otherwise."""
    _DEFAULT_USE_RESOURCE[0] = True


def disable_resource_variables():
    """``tf.disable_resource_variables()`` (TF1's default): variables are reference variables."""
    _DEFAULT_USE_RESOURCE[0] = False


def resource_variables_enabled():
    return _DEFAULT_USE_RESOURCE[0]


def get_local_variable(name, shape=None, dtype=None, initializer=None, regularizer=None, trainable=False,
                       collections=None, **kwargs):
    """Like get_variable, but the variable goes to LOCAL_VARIABLES and is not trainable."""
    collections = list(collections or []) + [GraphKeys.LOCAL_VARIABLES]
    return get_variable(name, shape, dtype, initializer, regularizer, False, collections, **kwargs)


@contextlib.contextmanager
def _pure_variable_scope(name_or_scope, reuse, initializer, regularizer, dtype, custom_getter,
                         old_name_scope, constraint, use_resource=None):
    """Switch the current VariableScope only (no op name scope): the part variable names depend on."""
    store = get_variable_scope_store()
    old = store.current_scope
    if isinstance(name_or_scope, VariableScope):
        new_name = name_or_scope.name
        scope = VariableScope(name_or_scope.reuse if not reuse else reuse, name=new_name,
                              initializer=name_or_scope.initializer, regularizer=name_or_scope.regularizer,
                              custom_getter=name_or_scope.custom_getter,
                              name_scope=name_or_scope.original_name_scope, dtype=name_or_scope.dtype,
                              constraint=name_or_scope.constraint, use_resource=name_or_scope.use_resource)
    else:
        new_name = old.name + "/" + name_or_scope if old.name else name_or_scope
        scope = VariableScope(reuse or old.reuse, name=new_name, initializer=old.initializer,
                              regularizer=old.regularizer, custom_getter=old.custom_getter,
                              name_scope=old_name_scope or name_or_scope, dtype=old.dtype,
                              constraint=old.constraint, use_resource=old.use_resource)
    if initializer is not None:
        scope.set_initializer(initializer)
    if regularizer is not None:
        scope.set_regularizer(regularizer)
    if dtype is not None:
        scope.set_dtype(dtype)
    if custom_getter is not None:
        scope.set_custom_getter(_chain_getters(custom_getter, old.custom_getter)
                                if not isinstance(name_or_scope, VariableScope) else custom_getter)
    if constraint is not None:
        scope._constraint = constraint
    if use_resource is not None:
        scope.set_use_resource(use_resource)
    store.open_variable_scope(new_name)
    store.current_scope = scope
    try:
        yield scope
    finally:
        store.close_variable_subscopes(new_name)
        store.current_scope = old


def _chain_getters(getter, outer):
    if outer is None:
        return getter

    def chained(true_getter, *args, **kwargs):
        return getter(lambda *a, **k: outer(true_getter, *a, **k), *args, **kwargs)
    return chained


def _unique_default_scope(prefix):
    store = get_variable_scope_store()
    current = store.current_scope
    name = current.name + "/" + prefix if current.name else prefix
    if store.variable_scope_count(name) == 0:
        return prefix
    idx = 1
    while store.variable_scope_count(name + "_%d" % idx) > 0:
        idx += 1
    return prefix + "_%d" % idx


@contextlib.contextmanager
def variable_scope(name_or_scope, default_name=None, values=None, initializer=None, regularizer=None,
                   caching_device=None, partitioner=None, custom_getter=None, reuse=None, dtype=None,
                   use_resource=None, constraint=None, auxiliary_name_scope=True):
    """``tf.variable_scope``: prefix variable names with the scope and open a matching op name scope.

    A string opens ``<current>/<name>`` for variables and a new unique name scope for ops; a captured
    VariableScope object restores its exact variable prefix while ops get a fresh scope (``s_1``);
    ``name_or_scope=None`` uses ``default_name`` made unique (``d``, ``d_1``)."""
    if default_name is None and name_or_scope is None:
        raise TypeError("If default_name is None then name_or_scope is required")
    if reuse is False:
        reuse = None
    if name_or_scope is not None and not isinstance(name_or_scope, (VariableScope, str)):
        raise TypeError("VariableScope: name_or_scope must be a string or VariableScope.")
    graph = graph_mod.graph_of(values) if values else graph_mod.get_default_graph()
    with graph.as_default():
        if name_or_scope is not None:
            if isinstance(name_or_scope, str):
                scope_name = name_or_scope
            else:
                scope_name = name_or_scope.name.split("/")[-1]
            if auxiliary_name_scope and scope_name:
                with graph.name_scope(scope_name) as ns:
                    old_name_scope = ns if isinstance(name_or_scope, str) else \
                        name_or_scope.original_name_scope
                    with _pure_variable_scope(name_or_scope, reuse, initializer, regularizer, dtype,
                                              custom_getter, old_name_scope, constraint, use_resource) as vs:
                        yield vs
            else:
                old_name_scope = graph.get_name_scope()
                old_name_scope = old_name_scope + "/" if old_name_scope else ""
                if isinstance(name_or_scope, VariableScope):
                    old_name_scope = name_or_scope.original_name_scope
                with _pure_variable_scope(name_or_scope, reuse, initializer, regularizer, dtype,
                                          custom_getter, old_name_scope, constraint, use_resource) as vs:
                    yield vs
        else:
            if reuse:
                raise ValueError("reuse=True cannot be used without a name_or_scope")
            with graph.name_scope(default_name) as ns:
                unique = _unique_default_scope(default_name)
                with _pure_variable_scope(unique, None, initializer, regularizer, dtype, custom_getter,
                                          ns, constraint, use_resource) as vs:
                    yield vs


def variable_op_scope(values, name_or_scope, default_name=None, **kwargs):
    """Old spelling of ``variable_scope(name_or_scope, default_name, values)``."""
    return variable_scope(name_or_scope, default_name=default_name, values=values, **kwargs)


def _is_tensor(x):
    return isinstance(x, Tensor)
