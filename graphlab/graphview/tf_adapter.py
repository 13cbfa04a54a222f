"""The adapter for a real TensorFlow ``tf.Graph``: ``TFGraph`` (and its ``TFOp``/``TFTensor``) present TF's graph
through the protocol of graphlab.graphview, kept in step with it as ops are added (reading only the new ops);
``record_creation_lines`` makes TF record the user's line that created each op. Nothing here imports
TensorFlow at module level: a TF graph is only ever handed in by code that already imported it.
"""
import os
import sys

from graphlab.framework import source_info


def is_tf_graph(obj):
    """Whether ``obj`` is a real TensorFlow graph (checked by its class's module: no TF import)."""
    return any(c.__module__.startswith("tensorflow.") and c.__name__ == "Graph" for c in type(obj).__mro__)


_VIEW_ATTR = "_graphlab_view"


def adapt(graph):
    """The engine-neutral view of ``graph``: graphlab graphs and views as they are, a tf.Graph wrapped (one
    view per graph, kept on the graph itself so that it lives and dies with it)."""
    if isinstance(graph, TFGraph) or not is_tf_graph(graph):
        return graph
    view = getattr(graph, _VIEW_ATTR, None)
    if view is None:
        view = TFGraph(graph)
        setattr(graph, _VIEW_ATTR, view)
    return view


class TFTensor:
    """One output of a wrapped TF op."""

    __slots__ = ("_op", "_value_index", "_tf")

    def __init__(self, op, index, tf_tensor):
        self._op, self._value_index, self._tf = op, index, tf_tensor

    op = property(lambda self: self._op)
    value_index = property(lambda self: self._value_index)
    name = property(lambda self: "%s:%d" % (self._op._name, self._value_index))
    _shape = property(lambda self: self._tf.shape)
    _dtype = property(lambda self: self._tf.dtype)
    shape = _shape
    dtype = _dtype
    graph = property(lambda self: self._op.graph)

    def _as_graph_element(self):
        return self

    def __repr__(self):
        return "<TFTensor %s>" % self.name


class TFOp:
    """A tf.Operation seen through the tools' protocol; inputs, attrs and the creating line are read lazily."""

    __slots__ = ("_tf", "graph", "_name", "_type", "_id", "provenance", "_in", "_ctl", "_out", "_attr_cache",
                 "_line", "__weakref__")

    def __init__(self, graph, tf_op, index):
        self._tf, self.graph, self._id = tf_op, graph, index
        self._name, self._type = tf_op.name, tf_op.type
        self.provenance = None
        self._in = self._ctl = self._out = self._attr_cache = None
        self._line = False

    name = property(lambda self: self._name)
    type = property(lambda self: self._type)
    device = property(lambda self: self._tf.device)   # "/job:ps/task:0" ... (the lints, the device colours)
    # the while loop or cond the op runs in (its ``.name``, "while/while_context"): drawings place ops in frames
    _control_flow_context = property(lambda self: getattr(self._tf, "_control_flow_context", None))

    @property
    def _inputs(self):
        if self._in is None:
            wrap = self.graph._wrap
            self._in = [wrap(t.op)._outputs[t.value_index] for t in self._tf.inputs]
        return self._in

    inputs = _inputs

    @property
    def _control_inputs(self):
        if self._ctl is None:
            wrap = self.graph._wrap
            self._ctl = [wrap(c) for c in self._tf.control_inputs]
        return self._ctl

    control_inputs = _control_inputs

    @property
    def _outputs(self):
        if self._out is None:
            self._out = [TFTensor(self, i, t) for i, t in enumerate(self._tf.outputs)]
        return self._out

    outputs = _outputs

    @property
    def _attrs(self):
        """Attr name -> value: a Const's ``value`` as a numpy array, types as TF's DType, the rest as the
        AttrValue's deterministic bytes (enough for structural identity)."""
        if self._attr_cache is None:
            attrs = {}
            for key, value in self._tf.node_def.attr.items():
                kind = value.WhichOneof("value")
                if kind == "tensor" and self._type == "Const":
                    attrs[key] = _tensor_util().MakeNdarray(value.tensor)
                elif kind == "type":
                    attrs[key] = self._tf.get_attr(key)
                else:
                    attrs[key] = value.SerializeToString(deterministic=True)
            self._attr_cache = attrs
        return self._attr_cache

    @property
    def source_line(self):
        """The user's line that created the op: recorded as TF created it (``record_creation_lines``), else
        read from TF's own record of the creating stack (op.traceback), unless recording was on."""
        if self._line is False:
            recorded = getattr(self.graph.tf_graph, _LINES_ATTR, None)
            if recorded is not None and self._name in recorded:
                self._line = recorded[self._name]
            elif _recording is not None:
                self._line = None       # created before recording began: its traceback may be unsafe to read
            else:
                self._line = _user_frame(self._tf.traceback)
        return self._line

    @property
    def traceback(self):
        return [self.source_line] if self.source_line is not None else []

    def _as_graph_element(self):
        return self

    def __repr__(self):
        return "<TFOp %s %s>" % (self._name, self._type)


class TFGraph:
    """A tf.Graph through the tools' protocol. ``_ops`` follows the graph as it grows: TF's op count
    (``num_operations()``) is read in O(1), and only the ops added since are fetched and wrapped."""

    def __init__(self, tf_graph):
        self.tf_graph = tf_graph
        self._list = []
        self._by_tf = {}
        self._pos = 0               # position for TF_GraphNextOperation, past the last op seen

    @property
    def _ops(self):
        self.sync()
        return self._list

    def get_operations(self):
        return list(self._ops)

    def sync(self):
        """Wrap the ops added to the TF graph since the last call (cost per new op)."""
        count = getattr(self.tf_graph, "num_operations", None)
        if (count() if count is not None else self.tf_graph.version) == len(self._list):
            return
        for tf_op in self._new_tf_ops():
            if tf_op not in self._by_tf:
                self._add(tf_op)

    def _new_tf_ops(self):
        try:
            from tensorflow.python.client import pywrap_tf_session as c_api
            graph = self.tf_graph
            out = []
            with graph._c_graph.get() as c_graph:
                while True:
                    try:
                        c_op, pos = c_api.TF_GraphNextOperation(c_graph, self._pos)
                    except (StopIteration, IndexError):
                        break
                    if c_op is None:
                        break
                    self._pos = pos
                    out.append(graph._get_operation_by_tf_operation(c_op))
            return out
        except (ImportError, AttributeError):    # another TF version: the public, O(graph) way
            return self.tf_graph.get_operations()[len(self._list):]

    def _add(self, tf_op):
        op = TFOp(self, tf_op, len(self._list))
        self._by_tf[tf_op] = op
        self._list.append(op)
        return op

    def _wrap(self, tf_op):
        op = self._by_tf.get(tf_op)
        if op is None:
            self.sync()
            op = self._by_tf.get(tf_op)
            if op is None:      # an op of another graph (a function body): wrap it on its own
                op = TFOp(adapt(tf_op.graph), tf_op, -1)
        return op

    def wrap(self, element):
        """The view of a TF op or tensor of this graph (anything else is returned as it is)."""
        if hasattr(element, "value_index") and hasattr(element, "op") and not isinstance(element, TFTensor):
            return self._wrap(element.op)._outputs[element.value_index]
        if hasattr(element, "node_def") and not isinstance(element, TFOp):
            return self._wrap(element)
        return element

    def _get_operation_or_none(self, name):
        try:
            tf_op = self.tf_graph.get_operation_by_name(name)
        except (KeyError, ValueError):
            return None
        return self._wrap(tf_op)

    def as_graph_element(self, obj, allow_tensor=True, allow_operation=True):
        return self.wrap(self.tf_graph.as_graph_element(getattr(obj, "name", obj), allow_tensor=allow_tensor,
                                                        allow_operation=allow_operation))

    def get_collection(self, key, scope=None):
        return self.tf_graph.get_collection(key, scope)

    def as_default(self):
        return self.tf_graph.as_default()

    def as_graph_def(self, **kwargs):
        return self.tf_graph.as_graph_def(**kwargs)

    def __repr__(self):
        return "<TFGraph of %r, %d ops>" % (self.tf_graph, len(self._list))


def _tensor_util():
    from tensorflow.python.framework import tensor_util
    return tensor_util


_library_dirs = None


def _libraries():
    """Directories whose frames are not the user's: graphlab's and those of TF and the packages it calls
    into (found without importing them: tf_keras, for one, is only imported when tf.layers is first used)."""
    global _library_dirs
    if _library_dirs is None:
        import importlib.util
        dirs = [source_info._PACKAGE_DIR]
        for name in ("tensorflow", "tf_keras", "keras", "absl"):
            try:
                spec = importlib.util.find_spec(name)
            except (ImportError, ValueError):
                spec = None
            for path in (getattr(spec, "submodule_search_locations", None) or []):
                dirs.append(os.path.abspath(path) + os.sep)
        _library_dirs = tuple(dirs)
    return _library_dirs


_LINES_ATTR = "_graphlab_lines"
_recording = None       # TF's original Graph._create_op_helper while creation lines are recorded


def record_creation_lines():
    """Record each new TF op's user line as TF creates it (the extension turns this on once the user's code
    imported TensorFlow). TF's op.traceback keeps pointers to the creating code objects without owning them,
    so reading it after a notebook cell's code is gone can crash the process; a script's code stays alive
    while ``python -m graphlab.lint`` lints it, so the CLI reads tracebacks instead. Returns whether on."""
    global _recording
    if _recording is not None:
        return True
    if "tensorflow" not in sys.modules:
        return False
    from tensorflow.python.framework import ops
    original = ops.Graph._create_op_helper

    def _create_op_helper(graph, op, *args, **kwargs):
        try:
            lines = getattr(graph, _LINES_ATTR, None)
            if lines is None:
                lines = {}
                setattr(graph, _LINES_ATTR, lines)
            lines[op.name] = _caller_line(sys._getframe(1))
        except Exception:   # never fail the user's op
            pass
        return original(graph, op, *args, **kwargs)

    _create_op_helper.__wrapped__ = original
    ops.Graph._create_op_helper = _create_op_helper
    _recording = original
    return True


def stop_recording():
    """Undo ``record_creation_lines``."""
    global _recording
    if _recording is None:
        return
    from tensorflow.python.framework import ops
    ops.Graph._create_op_helper = _recording
    _recording = None


_inside = {}


def _caller_line(frame):
    """The innermost frame at or above ``frame`` that is the user's code, as a shared SourceLine."""
    libraries = _libraries()
    while frame is not None:
        code = frame.f_code
        filename = code.co_filename
        inside = _inside.get(filename)
        if inside is None:
            inside = _inside[filename] = filename.startswith(libraries)
        if not inside:
            return _line(filename, frame.f_lineno, code.co_name)
        frame = frame.f_back
    return None


def _line(filename, lineno, function):
    key = (filename, lineno, function)
    line = source_info._lines.get(key)
    if line is None:
        line = source_info._lines[key] = source_info.SourceLine(*key)
    return line


def _user_frame(traceback):
    """The innermost frame of TF's creating stack that is the user's code, as graphlab's SourceLine (one
    object per line, shared with graphlab's own ops)."""
    libraries = _libraries()
    for frame in reversed(list(traceback)):
        filename = frame.filename
        if not filename.startswith(libraries):
            return _line(filename, frame.lineno, frame.name)
    return None
