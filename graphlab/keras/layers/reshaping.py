"""Keras's reshaping layers: zero padding (a Pad op), cropping (a strided slice) and UpSampling2D (a resize)."""
import numpy as np

from graphlab.framework import tensor_shape
from graphlab.framework.registry import build_op, constant
from graphlab.image import resizing
from graphlab.keras import backend
from graphlab.keras.engine.base_layer import Layer
from graphlab.keras.engine.input_spec import InputSpec
from graphlab.keras.utils.generic_utils import normalize_tuple
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


class UpSampling2D(Layer):
    """Repeat rows and columns ``size`` times (tf.image.resize, nearest or bilinear, as TF2's resize)."""

    def __init__(self, size=(2, 2), data_format=None, interpolation="nearest", **kwargs):
        super().__init__(**kwargs)
        self.data_format = backend.normalize_data_format(data_format)
        self.size = normalize_tuple(size, 2, "size")
        if interpolation not in ("nearest", "bilinear"):
            raise ValueError('`interpolation` argument should be one of `"nearest"` or `"bilinear"`. Received: '
                             '"%s".' % (interpolation,))
        self.interpolation = interpolation
        self.input_spec = InputSpec(ndim=4)

    def call(self, inputs):
        rows, cols = (2, 3) if self.data_format == "channels_first" else (1, 2)
        known = inputs.shape.as_list()[rows:cols + 1]
        if None not in known:
            new_shape = constant(known, dtype="int32")
        else:
            new_shape = array_ops.shape(inputs)[rows:cols + 1]
        new_shape *= constant(np.array(self.size, dtype="int32"))
        x = inputs
        if self.data_format == "channels_first":
            x = array_ops.transpose(x, [0, 2, 3, 1])
        op_type = "ResizeNearestNeighbor" if self.interpolation == "nearest" else "ResizeBilinear"

        def resize(images, size):
            return build_op(op_type, [images, size], attrs={"align_corners": False,
                                                            "half_pixel_centers": True}).outputs[0]
        x = resizing._resize_images_common(x, resize, new_shape, preserve_aspect_ratio=False, name=None,
                                           skip_resize_if_same=False)
        if None not in known:      # TF folds size * factor while building, so the output's size is known
            x.set_shape([None] + [k * f for k, f in zip(known, self.size)] + [None])
        if self.data_format == "channels_first":
            x = array_ops.transpose(x, [0, 3, 1, 2])
        return x

    def compute_output_shape(self, input_shape):
        dims = tensor_shape.as_shape(input_shape).as_list()
        rows, cols = (2, 3) if self.data_format == "channels_first" else (1, 2)
        for axis, factor in ((rows, self.size[0]), (cols, self.size[1])):
            if dims[axis] is not None:
                dims[axis] *= factor
        return tensor_shape.TensorShape(dims)

    def get_config(self):
        config = super().get_config()
        config.update({"size": self.size, "data_format": self.data_format, "interpolation": self.interpolation})
        return config


class ZeroPadding1D(Layer):
    """Zeros added before and after the steps of [batch, steps, features] (one Pad op)."""

    def __init__(self, padding=1, **kwargs):
        super().__init__(**kwargs)
        self.padding = (padding, padding) if isinstance(padding, int) else tuple(padding)
        self.input_spec = InputSpec(ndim=3)

    def call(self, inputs):
        return array_ops.pad(inputs, [[0, 0], [self.padding[0], self.padding[1]], [0, 0]])

    def get_config(self):
        config = super().get_config()
        config["padding"] = self.padding
        return config


class Cropping1D(Layer):
    """Steps cut from the start and end of [batch, steps, features]."""

    def __init__(self, cropping=(1, 1), **kwargs):
        super().__init__(**kwargs)
        self.cropping = (cropping, cropping) if isinstance(cropping, int) else tuple(cropping)
        self.input_spec = InputSpec(ndim=3)

    def call(self, inputs):
        if self.cropping[1] == 0:
            return inputs[:, self.cropping[0]:, :]
        return inputs[:, self.cropping[0]:-self.cropping[1], :]

    def get_config(self):
        config = super().get_config()
        config["cropping"] = self.cropping
        return config


class Cropping2D(Layer):
    """Rows and columns cut from the edges of images: ((top, bottom), (left, right))."""

    def __init__(self, cropping=((0, 0), (0, 0)), data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.data_format = backend.normalize_data_format(data_format)
        if isinstance(cropping, int):
            self.cropping = ((cropping, cropping), (cropping, cropping))
        elif all(isinstance(c, int) for c in cropping):
            self.cropping = ((cropping[0], cropping[0]), (cropping[1], cropping[1]))
        else:
            self.cropping = tuple(tuple(c) for c in cropping)
        self.input_spec = InputSpec(ndim=4)

    def call(self, inputs):
        (top, bottom), (left, right) = self.cropping
        rows = slice(top, -bottom if bottom else None)
        cols = slice(left, -right if right else None)
        if self.data_format == "channels_first":
            return inputs[:, :, rows, cols]
        return inputs[:, rows, cols, :]

    def get_config(self):
        config = super().get_config()
        config.update({"cropping": self.cropping, "data_format": self.data_format})
        return config


class UpSampling1D(Layer):
    """Each step repeated ``size`` times (K.repeat_elements along the steps)."""

    def __init__(self, size=2, **kwargs):
        super().__init__(**kwargs)
        self.size = int(size)
        self.input_spec = InputSpec(ndim=3)

    def call(self, inputs):
        return backend.repeat_elements(inputs, self.size, axis=1)

    def compute_output_shape(self, input_shape):
        dims = tensor_shape.as_shape(input_shape).as_list()
        return tensor_shape.TensorShape([dims[0], None if dims[1] is None else dims[1] * self.size, dims[2]])

    def get_config(self):
        config = super().get_config()
        config["size"] = self.size
        return config
