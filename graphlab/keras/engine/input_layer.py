"""``tf.keras.Input`` and ``InputLayer``: a Placeholder named after the layer (``input_1``, ``input_2``, ...
counted from 1, or ``dense_input`` for a Sequential model's first layer) that starts a functional graph."""
from graphlab.framework import dtypes
from graphlab.keras import backend
from graphlab.keras.engine import node as node_mod
from graphlab.keras.engine.base_layer import Layer


class InputLayer(Layer):
    """The layer behind ``Input``: it holds the placeholder (or a given tensor) and no weights."""

    def __init__(self, input_shape=None, batch_size=None, dtype=None, input_tensor=None, sparse=None,
                 name=None, ragged=None, batch_input_shape=None, optional=False, **kwargs):
        if kwargs:
            raise ValueError("Unrecognized keyword arguments: %s" % (list(kwargs.keys()),))
        if sparse or ragged:
            raise ValueError("graphlab's InputLayer makes dense placeholders only (sparse/ragged inputs are not "
                             "implemented)")
        if input_shape is not None and batch_input_shape is not None:
            raise ValueError("Only provide the input_shape OR batch_input_shape argument to InputLayer, not "
                             "both at the same time.")
        if batch_input_shape is not None:
            batch_size, input_shape = batch_input_shape[0], tuple(batch_input_shape[1:])
        if not name:
            name = backend.unique_object_name("input", zero_based=False)
        if dtype is None:
            dtype = backend.floatx() if input_tensor is None else input_tensor.dtype.base_dtype.name
        elif input_tensor is not None and input_tensor.dtype.base_dtype != dtypes.as_dtype(dtype):
            raise ValueError("`input_tensor.dtype` differs from `dtype`. Received: input_tensor.dtype=%s but "
                             "expected dtype=%s" % (input_tensor.dtype, dtype))
        super().__init__(dtype=dtype, name=name)
        self.built = True
        self.sparse, self.ragged = False, False
        self.is_placeholder = input_tensor is None
        if input_tensor is None:
            if input_shape is not None:
                batch_input_shape = (batch_size,) + tuple(input_shape)
            else:
                batch_input_shape = None
            with backend.get_graph().as_default():
                input_tensor = backend.placeholder(shape=batch_input_shape, dtype=dtype, name=self.name)
        else:
            batch_input_shape = backend.int_shape(input_tensor)
        self._batch_input_shape = batch_input_shape
        node_mod.Node(self, outputs=[input_tensor])

    def get_config(self):
        return {"batch_input_shape": self._batch_input_shape, "dtype": self.dtype, "sparse": self.sparse,
                "ragged": self.ragged, "name": self.name, "optional": False}


def Input(shape=None, batch_size=None, name=None, dtype=None, sparse=None, tensor=None, ragged=None,  # noqa: N802
          type_spec=None, batch_shape=None, **kwargs):
    """A Keras tensor: the placeholder of a new InputLayer, shape ``(batch_size,) + shape``."""
    if kwargs:
        raise ValueError("Unrecognized keyword arguments: %s" % (list(kwargs.keys()),))
    if shape is not None and batch_shape is not None:
        raise ValueError("Only provide the `shape` OR `batch_shape` argument to Input, not both at the same time.")
    if shape is None and tensor is None and batch_shape is None:
        raise ValueError("Please provide to Input a `shape` or a `tensor` or a `type_spec` argument. Note that "
                         "`shape` does not include the batch dimension.")
    if isinstance(shape, int):
        shape = (shape,)
    layer = InputLayer(input_shape=tuple(shape) if shape is not None else None, batch_size=batch_size,
                       name=name, dtype=dtype, sparse=sparse, input_tensor=tensor, ragged=ragged,
                       batch_input_shape=tuple(batch_shape) if batch_shape is not None else None)
    outputs = layer._inbound_nodes[0].outputs
    return outputs[0] if len(outputs) == 1 else outputs
