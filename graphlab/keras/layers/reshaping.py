"""Keras's ZeroPadding2D: one Pad op adding zero rows and columns around each image."""
from graphlab.framework import tensor_shape
from graphlab.keras import backend
from graphlab.keras.engine.base_layer import Layer
from graphlab.keras.engine.input_spec import InputSpec
from graphlab.ops import array_ops


class ZeroPadding2D(Layer):
    """``padding``: an int, (rows, cols), or ((top, bottom), (left, right))."""

    def __init__(self, padding=(1, 1), data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.data_format = backend.normalize_data_format(data_format)
        if isinstance(padding, int):
            self.padding = ((padding, padding), (padding, padding))
        elif hasattr(padding, "__len__") and len(padding) == 2:
            if all(isinstance(p, int) for p in padding):
                self.padding = ((padding[0], padding[0]), (padding[1], padding[1]))
            else:
                self.padding = tuple(tuple(p) for p in padding)
        else:
            raise ValueError("`padding` should be either an int, a tuple of 2 ints (symmetric_height_pad, "
                             "symmetric_width_pad), or a tuple of 2 tuples of 2 ints ((top_pad, bottom_pad), "
                             "(left_pad, right_pad)). Received: padding=%s." % (padding,))
        self.input_spec = InputSpec(ndim=4)

    def call(self, inputs):
        if self.data_format == "channels_first":
            pattern = [[0, 0], [0, 0], list(self.padding[0]), list(self.padding[1])]
        else:
            pattern = [[0, 0], list(self.padding[0]), list(self.padding[1]), [0, 0]]
        return array_ops.pad(inputs, pattern)

    def compute_output_shape(self, input_shape):
        dims = tensor_shape.as_shape(input_shape).as_list()
        rows, cols = (2, 3) if self.data_format == "channels_first" else (1, 2)
        for axis, (a, b) in ((rows, self.padding[0]), (cols, self.padding[1])):
            if dims[axis] is not None:
                dims[axis] += a + b
        return tensor_shape.TensorShape(dims)

    def get_config(self):
        config = super().get_config()
        config.update({"padding": self.padding, "data_format": self.data_format})
        return config
