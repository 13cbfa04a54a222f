"""Keras's merge layers and their functions: Add (``add/add``), Subtract, Multiply, Average, Maximum,
Minimum and Concatenate (``concatenate/concat``) over a list of tensors of one shape."""
from graphlab.framework import tensor_shape
from graphlab.keras import backend
from graphlab.keras.engine.base_layer import Layer
from graphlab.ops import array_ops, math_ops


def _shape_tuples(input_shape):
    """TensorShapes as tuples of ints and None, as Keras shows shapes in messages."""
    if isinstance(input_shape, (list, tuple)) and input_shape and not isinstance(input_shape[0], (int, type(None))):
        return [_shape_tuples(s) for s in input_shape]
    shape = tensor_shape.as_shape(input_shape)
    return tuple(shape.as_list()) if shape.ndims is not None else None


class _Merge(Layer):
    """Combine a list of at least two tensors element by element."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True

    def _merge_function(self, inputs):
        raise NotImplementedError

    def build(self, input_shape):
        input_shape = _shape_tuples(input_shape)
        if not isinstance(input_shape, list):
            raise ValueError("A merge layer should be called on a list of inputs. Received: input_shape=%s (not a "
                             "list of shapes)" % (input_shape,))
        if len(input_shape) < 1:
            raise ValueError("A merge layer should be called on a list of at least 1 input. Got %d inputs. Full "
                             "input_shape received: %s" % (len(input_shape), input_shape))
        self.built = True

    def compute_mask(self, inputs, mask=None):
        """A step counts where every input's mask counts it."""
        if mask is None or all(m is None for m in mask):
            return None
        masks = [array_ops.expand_dims(m, axis=0) for m in mask if m is not None]
        return math_ops.reduce_all(backend.concatenate(masks, axis=0), axis=0, keepdims=False)

    def call(self, inputs):
        if not isinstance(inputs, (list, tuple)):
            raise ValueError("A merge layer should be called on a list of inputs. Received: inputs=%s (not a list "
                             "of tensors)" % (inputs,))
        return self._merge_function(list(inputs))


class Add(_Merge):
    def _merge_function(self, inputs):
        output = inputs[0]
        for x in inputs[1:]:
            output += x
        return output


class Subtract(_Merge):
    def build(self, input_shape):
        super().build(input_shape)
        input_shape = _shape_tuples(input_shape)
        if len(input_shape) != 2:
            raise ValueError("A `Subtract` layer should be called on exactly 2 inputs. Received: input_shape=%s"
                             % (input_shape,))

    def _merge_function(self, inputs):
        if len(inputs) != 2:
            raise ValueError("A `Subtract` layer should be called on exactly 2 inputs. Received: inputs=%s"
                             % (inputs,))
        return inputs[0] - inputs[1]


class Multiply(_Merge):
    def _merge_function(self, inputs):
        output = inputs[0]
        for x in inputs[1:]:
            output = output * x
        return output


class Average(_Merge):
    def _merge_function(self, inputs):
        output = inputs[0]
        for x in inputs[1:]:
            output += x
        return output / len(inputs)


class Maximum(_Merge):
    def _merge_function(self, inputs):
        output = inputs[0]
        for x in inputs[1:]:
            output = math_ops.maximum(output, x)
        return output


class Minimum(_Merge):
    def _merge_function(self, inputs):
        output = inputs[0]
        for x in inputs[1:]:
            output = math_ops.minimum(output, x)
        return output


class Concatenate(_Merge):
    """Join along ``axis`` (the last by default)."""

    def __init__(self, axis=-1, **kwargs):
        super().__init__(**kwargs)
        self.axis = axis
        self.supports_masking = True

    def build(self, input_shape):
        input_shape = _shape_tuples(input_shape)
        if not isinstance(input_shape, list) or len(input_shape) < 1:
            raise ValueError("A `Concatenate` layer should be called on a list of at least 1 input. Received: "
                             "input_shape=%s" % (input_shape,))
        self.built = True

    def _merge_function(self, inputs):
        return backend.concatenate(inputs, axis=self.axis)

    def compute_mask(self, inputs, mask=None):
        if mask is None or all(m is None for m in mask):
            return None
        raise NotImplementedError("graphlab's Concatenate does not combine masks; mask the inputs after "
                                  "concatenating them instead")

    def get_config(self):
        config = super().get_config()
        config["axis"] = self.axis
        return config


def add(inputs, **kwargs):
    return Add(**kwargs)(inputs)


def subtract(inputs, **kwargs):
    return Subtract(**kwargs)(inputs)


def multiply(inputs, **kwargs):
    return Multiply(**kwargs)(inputs)


def average(inputs, **kwargs):
    return Average(**kwargs)(inputs)


def maximum(inputs, **kwargs):
    return Maximum(**kwargs)(inputs)


def minimum(inputs, **kwargs):
    return Minimum(**kwargs)(inputs)


def concatenate(inputs, axis=-1, **kwargs):
    return Concatenate(axis=axis, **kwargs)(inputs)
