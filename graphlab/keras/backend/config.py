"""Keras's global settings: the default float type, the fuzz factor and the image data format
(``~/.keras/keras.json`` is not read: graphlab starts from Keras's defaults every time)."""

_SETTINGS = {"floatx": "float32", "epsilon": 1e-7, "image_data_format": "channels_last"}


def floatx():
    """The float type Keras layers and ``K.variable`` use when none is given ('float32')."""
    return _SETTINGS["floatx"]


def set_floatx(value):
    if value not in ("float16", "float32", "float64"):
        raise ValueError("Unknown `floatx` value: %s. Expected one of {'float16', 'float32', 'float64'}"
                         % (value,))
    _SETTINGS["floatx"] = str(value)


def epsilon():
    """The small constant Keras adds to avoid dividing by zero (1e-07)."""
    return _SETTINGS["epsilon"]


def set_epsilon(value):
    _SETTINGS["epsilon"] = value


def image_data_format():
    """'channels_last' (NHWC) unless set otherwise."""
    return _SETTINGS["image_data_format"]


def set_image_data_format(data_format):
    if data_format not in ("channels_last", "channels_first"):
        raise ValueError("Unknown `data_format`: %s. Expected one of {'channels_first', 'channels_last'}"
                         % (data_format,))
    _SETTINGS["image_data_format"] = str(data_format)


def normalize_data_format(value):
    """None means the global setting; anything else must be one of the two formats."""
    if value is None:
        value = image_data_format()
    data_format = value.lower()
    if data_format not in ("channels_first", "channels_last"):
        raise ValueError('The `data_format` argument must be one of "channels_first", "channels_last". '
                         'Received: %s' % (value,))
    return data_format
