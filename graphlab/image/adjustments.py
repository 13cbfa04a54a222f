"""Colour adjustments as TF builds them: standardization, brightness, contrast, saturation, hue and gamma,
fixed and random."""

from graphlab.framework import dtypes
from graphlab.framework import graph as graph_mod
from graphlab.framework.registry import build_op, convert_to_tensor
from graphlab.image.checks import assert_at_least_3d
from graphlab.image.conversions import convert_image_dtype
from graphlab.ops import array_ops, math_ops, random_ops


# ---------------------------------------------------------------------------------- colour adjustments
def per_image_standardization(image):
    """(x - mean) / max(stddev, 1/sqrt(num_pixels)), per image, as float32."""
    with graph_mod.name_scope(None, "per_image_standardization", [image]) as scope:
        image = convert_to_tensor(image, name="image")
        image = assert_at_least_3d(image)
        image = math_ops.cast(image, dtype=dtypes.float32)
        num_pixels = math_ops.reduce_prod(array_ops.shape(image)[-3:])
        image_mean = math_ops.reduce_mean(image, axis=[-1, -2, -3], keepdims=True)
        stddev = reduce_std(image, axis=[-1, -2, -3], keepdims=True)
        min_stddev = math_ops.rsqrt(math_ops.cast(num_pixels, dtypes.float32))
        adjusted_stddev = math_ops.maximum(stddev, min_stddev)
        image -= image_mean
        return math_ops.divide(image, adjusted_stddev, name=scope)


def reduce_variance(input_tensor, axis=None, keepdims=False, name=None):
    with graph_mod.name_scope(name or "reduce_variance"):
        means = math_ops.reduce_mean(input_tensor, axis=axis, keepdims=True)
        squared_deviations = math_ops.square(input_tensor - means)
        return math_ops.reduce_mean(squared_deviations, axis=axis, keepdims=keepdims)


def reduce_std(input_tensor, axis=None, keepdims=False, name=None):
    with graph_mod.name_scope(name or "reduce_std"):
        return math_ops.sqrt(reduce_variance(input_tensor, axis=axis, keepdims=keepdims))


def _float_image(image):
    return image if image.dtype.base_dtype in (dtypes.float16, dtypes.float32) else \
        convert_image_dtype(image, dtypes.float32)


def adjust_brightness(image, delta):
    with graph_mod.name_scope(None, "adjust_brightness", [image, delta]) as name:
        image = convert_to_tensor(image, name="image")
        orig_dtype = image.dtype.base_dtype
        flt_image = _float_image(image)
        adjusted = math_ops.add(flt_image, math_ops.cast(delta, flt_image.dtype.base_dtype), name=name)
        return convert_image_dtype(adjusted, orig_dtype, saturate=True)


def random_brightness(image, max_delta, seed=None):
    if max_delta < 0:
        raise ValueError("max_delta must be non-negative.")
    return adjust_brightness(image, random_ops.random_uniform([], -max_delta, max_delta, seed=seed))


def adjust_contrast(images, contrast_factor):
    with graph_mod.name_scope(None, "adjust_contrast", [images, contrast_factor]) as name:
        images = convert_to_tensor(images, name="images")
        orig_dtype = images.dtype.base_dtype
        flt_images = _float_image(images)
        factor = convert_to_tensor(contrast_factor, dtypes.float32, name="contrast_factor")
        adjusted = build_op("AdjustContrastv2", [flt_images, factor], name=name).outputs[0]
        return convert_image_dtype(adjusted, orig_dtype, saturate=True)


def _random_factor(lower, upper, seed):
    """TF's checks of random_contrast/random_saturation's bounds, then the factor drawn from [lower, upper)."""
    if upper <= lower:
        raise ValueError("upper must be > lower.")
    if lower < 0:
        raise ValueError("lower must be non-negative.")
    return random_ops.random_uniform([], lower, upper, seed=seed)


def random_contrast(image, lower, upper, seed=None):
    return adjust_contrast(image, _random_factor(lower, upper, seed))


def adjust_saturation(image, saturation_factor, name=None):
    """Scales the saturation of RGB images (AdjustSaturation), clipped to [0, 1]."""
    with graph_mod.name_scope(name, "adjust_saturation", [image]):
        image = convert_to_tensor(image, name="image")
        orig_dtype = image.dtype.base_dtype
        flt_image = _float_image(image)
        adjusted = build_op("AdjustSaturation", [flt_image, saturation_factor]).outputs[0]
        return convert_image_dtype(adjusted, orig_dtype)


def random_saturation(image, lower, upper, seed=None):
    return adjust_saturation(image, _random_factor(lower, upper, seed))


def adjust_hue(image, delta, name=None):
    """Rotates the hue of RGB images by ``delta`` (a fraction of a turn, in [-1, 1]) with AdjustHue."""
    with graph_mod.name_scope(name, "adjust_hue", [image]):
        image = convert_to_tensor(image, name="image")
        orig_dtype = image.dtype.base_dtype
        flt_image = _float_image(image)
        adjusted = build_op("AdjustHue", [flt_image, delta]).outputs[0]
        return convert_image_dtype(adjusted, orig_dtype)


def random_hue(image, max_delta, seed=None):
    if max_delta > 0.5:
        raise ValueError("max_delta must be <= 0.5.")
    if max_delta < 0:
        raise ValueError("max_delta must be non-negative.")
    return adjust_hue(image, random_ops.random_uniform([], -max_delta, max_delta, seed=seed))


def adjust_gamma(image, gamma=1, gain=1):
    """``tf.image.adjust_gamma``: gain * image ** gamma, in floats, converted back to the image's dtype."""
    with graph_mod.name_scope(None, "adjust_gamma", [image, gamma, gain]):
        image = convert_to_tensor(image, name="image")
        orig_dtype = image.dtype.base_dtype
        flt_image = image if orig_dtype in (dtypes.float16, dtypes.float32) else convert_image_dtype(
            image, dtypes.float32)
        if not isinstance(gamma, (int, float)) or gamma < 0:
            if isinstance(gamma, (int, float)):
                raise ValueError("Gamma should be a non-negative real number.")
        adjusted = gain * flt_image ** gamma
        return convert_image_dtype(adjusted, orig_dtype, saturate=True)
