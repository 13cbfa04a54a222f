"""Pixel types and colour spaces: convert_image_dtype and saturate_cast, HSV, grayscale, YIQ and YUV."""
import numpy as np

from graphlab.framework import dtypes, tensor_shape
from graphlab.framework import graph as graph_mod
from graphlab.framework.registry import build_op, convert_to_tensor
from graphlab.image.checks import check_grayscale
from graphlab.ops import array_ops, control_flow_ops, math_ops
from graphlab.ops.linalg_impl import tensordot


# ------------------------------------------------------------------------------------------ dtypes
def convert_image_dtype(image, dtype, saturate=False, name=None):
    """Integers <-> floats in [0, 1], scaled by the integer type's maximum, as TF does."""
    image = convert_to_tensor(image, name="image")
    dtype = dtypes.as_dtype(dtype).base_dtype
    src = image.dtype.base_dtype
    if not dtype.is_floating and not dtype.is_integer:
        raise AttributeError("dtype must be either floating point or integer")
    if not src.is_floating and not src.is_integer:
        raise AttributeError("image dtype must be either floating point or integer")
    if dtype == src:
        return array_ops.identity(image, name=name)
    with graph_mod.name_scope(name, "convert_image", [image]) as name:
        if src.is_integer and dtype.is_integer:
            scale_in, scale_out = src.max, dtype.max
            if scale_in > scale_out:
                scaled = math_ops.floordiv(image, (scale_in + 1) // (scale_out + 1))
                return saturate_cast(scaled, dtype, name=name) if saturate else math_ops.cast(scaled, dtype, name=name)
            cast = saturate_cast(image, dtype) if saturate else math_ops.cast(image, dtype)
            return math_ops.multiply(cast, (scale_out + 1) // (scale_in + 1), name=name)
        if src.is_floating and dtype.is_floating:
            return math_ops.cast(image, dtype, name=name)
        if src.is_integer:
            cast = math_ops.cast(image, dtype)
            return math_ops.multiply(cast, 1.0 / src.max, name=name)
        scaled = math_ops.multiply(image, dtype.max + 0.5)
        return saturate_cast(scaled, dtype, name=name) if saturate else math_ops.cast(scaled, dtype, name=name)


def saturate_cast(value, dtype, name=None):
    """``tf.saturate_cast``: clip to the target type's range (a ClipByValue "clamp" whose limits are the
    nearest values of the input type inside it, as TF 2.21 computes them), then Cast."""
    with graph_mod.name_scope(name, "saturate_cast", [value]) as name:
        value = convert_to_tensor(value, name="value")
        dtype = dtypes.as_dtype(dtype).base_dtype
        in_dtype = value.dtype.base_dtype
        np_dtype = in_dtype.as_numpy_dtype
        try:
            promoted_type = np.promote_types(np_dtype, dtype.as_numpy_dtype)
        except TypeError:
            promoted_type = float
        min_limit = np_dtype(np.maximum(in_dtype.min, dtype.min))
        if np.array([min_limit, dtype.min], dtype=promoted_type)[0] < np.array([min_limit, dtype.min],
                                                                            dtype=promoted_type)[1]:
            min_limit = np.nextafter(min_limit, np_dtype(0), dtype=np_dtype)
        max_limit = np_dtype(np.minimum(float(in_dtype.max), float(dtype.max)))
        promoted = np.array([max_limit, dtype.max], dtype=promoted_type)
        if promoted[0] > promoted[1]:
            max_limit = np.nextafter(max_limit, np_dtype(0), dtype=np_dtype)
        value = build_op("ClipByValue", [value, convert_to_tensor(np.asarray(min_limit, np_dtype), dtype=in_dtype),
                                         convert_to_tensor(np.asarray(max_limit, np_dtype), dtype=in_dtype)],
                         name="clamp").outputs[0]
        return math_ops.cast(value, dtype, name=name)


# ---------------------------------------------------------------------------------- colour spaces
def rgb_to_hsv(images, name=None):
    """RGB -> HSV on the last axis (RGBToHSV), hue in [0, 1)."""
    return build_op("RGBToHSV", [convert_to_tensor(images, name="images")], name=name,
                    default_name="RGBToHSV").outputs[0]


def hsv_to_rgb(images, name=None):
    """HSV -> RGB on the last axis (HSVToRGB)."""
    return build_op("HSVToRGB", [convert_to_tensor(images, name="images")], name=name,
                    default_name="HSVToRGB").outputs[0]


def rgb_to_grayscale(images, name=None):
    with graph_mod.name_scope(name, "rgb_to_grayscale", [images]) as name:
        images = convert_to_tensor(images, name="images")
        orig_dtype = images.dtype.base_dtype
        flt_image = convert_image_dtype(images, dtypes.float32)
        from graphlab.ops.linalg_impl import tensordot
        gray_float = tensordot(flt_image, [0.2989, 0.587, 0.114], [-1, -1])
        gray_float = array_ops.expand_dims(gray_float, -1)
        return convert_image_dtype(gray_float, orig_dtype, name=name)


def grayscale_to_rgb(images, name=None):
    with graph_mod.name_scope(name, "grayscale_to_rgb", [images]) as name:
        images = convert_to_tensor(images, name="images")
        images = control_flow_ops.with_dependencies(check_grayscale(images), images)
        images = convert_to_tensor(images, name="images")
        rank_1 = array_ops.expand_dims(array_ops.rank(images) - 1, 0)
        shape_list = [array_ops.ones(rank_1, dtype=dtypes.int32)] + [array_ops.expand_dims(3, 0)]
        multiples = array_ops.concat(shape_list, 0)
        rgb = array_ops.tile(images, multiples, name=name)
        rgb.set_shape(images.shape[:-1].concatenate(tensor_shape.TensorShape([3])))
        return rgb


_RGB_TO_YIQ = [[0.299, 0.59590059, 0.2115], [0.587, -0.27455667, -0.52273617], [0.114, -0.32134392, 0.31119955]]
_YIQ_TO_RGB = [[1, 1, 1], [0.95598634, -0.27201283, -1.10674021], [0.6208248, -0.64720424, 1.70423049]]
_RGB_TO_YUV = [[0.299, -0.14714119, 0.61497538], [0.587, -0.28886916, -0.51496512], [0.114, 0.43601035, -0.10001026]]
_YUV_TO_RGB = [[1, 1, 1], [0, -0.394642334, 2.03206185], [1.13988303, -0.58062185, 0]]


def _colour(images, matrix):
    images = convert_to_tensor(images, name="images")
    kernel = convert_to_tensor(matrix, dtype=images.dtype, name="kernel")
    ndims = images.shape.ndims
    return tensordot(images, kernel, axes=[[ndims - 1], [0]])


def rgb_to_yiq(images):
    """``tf.image.rgb_to_yiq``: the last axis (R, G, B in [0, 1]) mapped to (Y, I, Q)."""
    return _colour(images, _RGB_TO_YIQ)


def yiq_to_rgb(images):
    return _colour(images, _YIQ_TO_RGB)


def rgb_to_yuv(images):
    """``tf.image.rgb_to_yuv``: the last axis (R, G, B in [0, 1]) mapped to (Y, U, V)."""
    return _colour(images, _RGB_TO_YUV)


def yuv_to_rgb(images):
    return _colour(images, _YUV_TO_RGB)
