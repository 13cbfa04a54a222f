"""``tf.keras.layers.InputSpec``: what a layer accepts, checked when it is called (Keras's messages)."""
from graphlab.framework import nest


class InputSpec:
    """dtype, shape, ndim, max_ndim, min_ndim and fixed axes ({axis: size}) a layer's input must have."""

    def __init__(self, dtype=None, shape=None, ndim=None, max_ndim=None, min_ndim=None, axes=None,
                 allow_last_axis_squeeze=False, name=None):
        self.dtype = dtype
        self.shape = tuple(shape) if shape is not None else None
        self.ndim = len(shape) if shape is not None else ndim
        self.max_ndim, self.min_ndim, self.name = max_ndim, min_ndim, name
        self.allow_last_axis_squeeze = allow_last_axis_squeeze
        self.axes = {int(k): v for k, v in (axes or {}).items()}

    def __repr__(self):
        spec = [("dtype=" + str(self.dtype)) if self.dtype else "",
                ("shape=" + str(self.shape)) if self.shape else "",
                ("ndim=" + str(self.ndim)) if self.ndim else "",
                ("max_ndim=" + str(self.max_ndim)) if self.max_ndim else "",
                ("min_ndim=" + str(self.min_ndim)) if self.min_ndim else "",
                ("axes=" + str(self.axes)) if self.axes else ""]
        return "InputSpec(%s)" % ", ".join(x for x in spec if x)

    def get_config(self):
        return {"dtype": self.dtype, "shape": self.shape, "ndim": self.ndim, "max_ndim": self.max_ndim,
                "min_ndim": self.min_ndim, "axes": self.axes}


def assert_input_compatibility(input_spec, inputs, layer_name):
    """Raise Keras's ValueError when ``inputs`` do not fit the layer's spec."""
    if not input_spec:
        return
    specs = nest.flatten(input_spec)
    flat = nest.flatten(inputs)
    if len(flat) != len(specs):
        raise ValueError('Layer "%s" expects %d input(s), but it received %d input tensors. Inputs received: %s'
                         % (layer_name, len(specs), len(flat), flat))
    for index, (x, spec) in enumerate(zip(flat, specs)):
        if spec is None:
            continue
        shape = x.shape
        rank = shape.ndims
        if spec.ndim is not None and not spec.allow_last_axis_squeeze and rank is not None and rank != spec.ndim:
            raise ValueError('Input %d of layer "%s" is incompatible with the layer: expected ndim=%d, found '
                             'ndim=%d. Full shape received: %s' % (index, layer_name, spec.ndim, rank,
                                                                   tuple(shape)))
        if spec.max_ndim is not None and rank is not None and rank > spec.max_ndim:
            raise ValueError('Input %d of layer "%s" is incompatible with the layer: expected max_ndim=%d, found '
                             'ndim=%d' % (index, layer_name, spec.max_ndim, rank))
        if spec.min_ndim is not None and rank is not None and rank < spec.min_ndim:
            raise ValueError('Input %d of layer "%s" is incompatible with the layer: expected min_ndim=%d, found '
                             'ndim=%d. Full shape received: %s' % (index, layer_name, spec.min_ndim, rank,
                                                                   tuple(shape)))
        if spec.dtype is not None and x.dtype.base_dtype.name != spec.dtype:
            raise ValueError('Input %d of layer "%s" is incompatible with the layer: expected dtype=%s, found '
                             'dtype=%s' % (index, layer_name, spec.dtype, x.dtype.base_dtype.name))
        if spec.axes and rank is not None:
            dims = shape.as_list()
            for axis, value in spec.axes.items():
                if value is not None and dims[int(axis)] not in (value, None):
                    raise ValueError('Input %d of layer "%s" is incompatible with the layer: expected axis %d of '
                                     'input shape to have value %d, but received input with shape %s'
                                     % (index, layer_name, axis, value, tuple(dims)))
