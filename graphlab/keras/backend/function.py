"""``K.function``: a callable that feeds numpy values to input placeholders and fetches outputs in Keras's
session, running the given updates after the first output (Keras's GraphExecutionFunction)."""
import numpy as np

from graphlab.framework import nest
from graphlab.framework import dtypes
from graphlab.keras.backend import session
from graphlab.ops import array_ops, control_flow_ops, state_ops


class GraphExecutionFunction:
    """Feeds ``inputs``, fetches ``outputs``, runs ``updates`` (ops, or (variable, new value) pairs made
    into assigns) grouped after the first output."""

    def __init__(self, inputs, outputs, updates=None, name=None, **session_kwargs):
        updates = updates or []
        if not isinstance(updates, (list, tuple)):
            raise TypeError("`updates` in a TF-Keras backend function should be a list or tuple.")
        self.inputs = [_as_tensor(x) for x in nest.flatten(inputs)]
        self._outputs_structure = nest.map_structure(_as_tensor, outputs)
        self.outputs = nest.flatten(self._outputs_structure)
        graph = self.outputs[0].graph if self.outputs else None
        with (graph.as_default() if graph is not None else _nothing()):
            with control_flow_ops.control_dependencies([self.outputs[0]] if self.outputs else []):
                ops = []
                for update in updates:
                    if isinstance(update, tuple):
                        variable, new_value = update
                        ops.append(state_ops.assign(variable, new_value))
                    else:
                        ops.append(update)
                self.updates_op = control_flow_ops.group(*ops)
        self.name = name
        self.feed_dict = session_kwargs.pop("feed_dict", None)
        fetches = session_kwargs.pop("fetches", [])
        self.fetches = [array_ops.identity(x) for x in (fetches if isinstance(fetches, list) else [fetches])]
        self.run_options = session_kwargs.pop("options", None)
        self.run_metadata = session_kwargs.pop("run_metadata", None)
        if session_kwargs:
            raise ValueError("Some keys in session_kwargs are not supported at this time: %s"
                             % (session_kwargs.keys(),))
        self.fetch_callbacks = {}

    def __call__(self, inputs):
        values = nest.flatten(inputs)
        sess = session.get_session(values)
        feed = {}
        for tensor, value in zip(self.inputs, values):
            if value is None:
                continue
            if hasattr(value, "op"):
                raise TypeError("graphlab's K.function takes numpy values for its inputs (got the tensor %s "
                                "for %s); build the graph with that tensor instead" % (value.name, tensor.name))
            feed[tensor] = np.asarray(value, dtype=dtypes.as_dtype(tensor.dtype).as_numpy_dtype)
        if self.feed_dict:
            for key in sorted(self.feed_dict, key=lambda k: k.name):
                feed[key] = np.asarray(self.feed_dict[key], dtype=key.dtype.as_numpy_dtype)
        fetched = sess.run(self.outputs + self.fetches + [self.updates_op], feed_dict=feed,
                           options=self.run_options, run_metadata=self.run_metadata)
        fetched = fetched[:-1]
        for fetch, output in zip(self.fetches, fetched[len(self.outputs):]):
            if fetch in self.fetch_callbacks:
                self.fetch_callbacks[fetch](output)
        return nest.pack_sequence_as(self._outputs_structure, fetched[:len(self.outputs)])


class _nothing:
    def __enter__(self):
        return None

    def __exit__(self, *exc):
        return False


def _as_tensor(value):
    """Variables stand for their value."""
    if hasattr(value, "op") and hasattr(value, "value_index"):
        return value
    if hasattr(value, "value") and callable(value.value):
        return value.value()
    return value


def function(inputs, outputs, updates=None, name=None, **kwargs):
    """``K.function(inputs, outputs, updates)``: call it with a list of numpy values for ``inputs``."""
    if kwargs:
        for key in kwargs:
            if key not in ("feed_dict", "fetches", "options", "run_metadata"):
                raise ValueError("Invalid argument \"%s\" passed to K.function with TensorFlow backend" % key)
    return GraphExecutionFunction(inputs, outputs, updates=updates, name=name, **kwargs)
