"""``tf.image``: decoding and encoding (graphlab/ops/image_ops.py, with Pillow), resizing (bilinear, nearest,
bicubic, area), cropping, padding, flips, brightness, contrast, saturation and hue, HSV, standardization,
dtype conversion and grayscale, built op for op as TF 2.21's ``tf.compat.v1.image`` builds them (ported from
its image_ops_impl.py: the same scopes, static shortcuts and, for images of unknown size, the same run-time
shape checks). Images are 3-D [height, width, channels] or 4-D batches."""
import numpy as np

from graphlab.framework import dtypes, graph as graph_mod, tensor_shape
from graphlab.framework.tensor import Tensor
from graphlab.ops import array_ops, control_flow_ops, logging_ops, math_ops, random_ops
from graphlab.ops.image_ops import (build_op, decode_gif, decode_image, decode_jpeg, decode_png,  # noqa: F401
                                    encode_jpeg, encode_png)
from graphlab.framework.registry import const_value, convert_to_tensor


class ResizeMethod:
    BILINEAR, NEAREST_NEIGHBOR, BICUBIC, AREA = 0, 1, 2, 3


_RESIZE_OPS = {ResizeMethod.BILINEAR: "ResizeBilinear", ResizeMethod.NEAREST_NEIGHBOR: "ResizeNearestNeighbor",
               ResizeMethod.BICUBIC: "ResizeBicubic", ResizeMethod.AREA: "ResizeArea",
               "bilinear": "ResizeBilinear", "nearest": "ResizeNearestNeighbor", "bicubic": "ResizeBicubic",
               "area": "ResizeArea"}


# ------------------------------------------------------------------------------ TF's checks of images
def _is_tensor(x):
    return isinstance(x, Tensor) or hasattr(x, "_as_graph_element") and hasattr(x, "initializer")


def _assert(cond, ex_type, msg):
    """A run-time Assert for a tensor condition; for a Python one, raise now or add nothing."""
    if _is_tensor(cond):
        return [logging_ops.Assert(cond, [msg])]
    if not cond:
        raise ex_type(msg)
    return []


def _binary_assert(sym, opname, op_func, x, y, data, message, name=None):
    with graph_mod.name_scope(name, opname, [x, y, data]):
        x = convert_to_tensor(x, name="x")
        y = convert_to_tensor(y, name="y")
        if data is None:
            data = ["Condition x %s y did not hold element-wise:" % sym, "x (%s) = " % x.name, x,
                    "y (%s) = " % y.name, y]
        if message is not None:
            data = [message] + list(data)
        condition = math_ops.reduce_all(op_func(x, y))
        return logging_ops.Assert(condition, data)


def _assert_positive(x, data):
    with graph_mod.name_scope(None, "assert_positive", [x, data]):
        x = convert_to_tensor(x, name="x")
        zero = convert_to_tensor(0, dtype=x.dtype.base_dtype)
        return _binary_assert("<", "assert_less", math_ops.less, zero, x, data, None)


def _assert_greater_equal(x, y, message):
    return _binary_assert(">=", "assert_greater_equal", math_ops.greater_equal, x, y, None, message)


def _image_dimensions(image, rank):
    if image.shape.is_fully_defined():
        return image.shape.as_list()
    static = image.shape.with_rank(rank).as_list()
    dynamic = array_ops.unstack(array_ops.shape(image), rank)
    return [s if s is not None else d for s, d in zip(static, dynamic)]


def _check_3d(image, require_static=True):
    try:
        shape = image.shape.with_rank(3)
    except ValueError:
        raise ValueError("'image' (shape %s) must be three-dimensional." % image.shape) from None
    if require_static and not shape.is_fully_defined():
        raise ValueError("'image' (shape %s) must be fully defined." % shape)
    if any(x == 0 for x in shape.as_list()):
        raise ValueError("all dims of 'image.shape' must be > 0: %s" % shape)
    if not shape.is_fully_defined():
        return [_assert_positive(array_ops.shape(image), ["all dims of 'image.shape' must be > 0."])]
    return []


def _check_at_least_3d(image, require_static=True):
    try:
        shape = image.shape.with_rank(3) if image.shape.ndims is None else image.shape.with_rank_at_least(3)
    except ValueError:
        raise ValueError("'image' (shape %s) must be at least three-dimensional." % image.shape) from None
    if require_static and not shape.is_fully_defined():
        raise ValueError("'image' must be fully defined.")
    inner = shape.as_list()[-3:] if shape.ndims is not None else [None] * 3
    if any(x == 0 for x in inner):
        raise ValueError("inner 3 dims of 'image.shape' must be > 0: %s" % shape)
    if any(x is None for x in inner):
        return [_assert_positive(array_ops.shape(image)[-3:], ["inner 3 dims of 'image.shape' must be > 0."]),
                _assert_greater_equal(array_ops.rank(image), 3, "'image' must be at least three-dimensional.")]
    return []


def _assert_at_least_3d(image):
    return control_flow_ops.with_dependencies(_check_at_least_3d(image, require_static=False), image)


def _check_grayscale(image):
    try:
        shape = image.shape.with_rank(2) if image.shape.ndims is None else image.shape.with_rank_at_least(2)
    except ValueError:
        raise ValueError("A grayscale image (shape %s) must be at least two-dimensional." % image.shape) from None
    if shape.is_fully_defined():
        if shape.as_list()[-1] != 1:
            raise ValueError("Last dimension of a grayscale image should be size 1.")
        return []
    return [logging_ops.assert_equal(array_ops.shape(image)[-1], 1,
                                     message="Last dimension of a grayscale image should be size 1."),
            _assert_greater_equal(array_ops.rank(image), 3, "A grayscale image must be at least two-dimensional.")]


def _fix_flip_shape(image, result):
    if image.shape.ndims is None:
        result.set_shape([None, None, None])
    else:
        result.set_shape(image.shape)
    return result


def _as_batch(image):
    """(4-D image, whether it was a batch), as TF's crop/pad/resize helpers begin."""
    shape = image.shape
    if shape.ndims == 3:
        return array_ops.expand_dims(image, 0), False
    if shape.ndims is None:
        image = array_ops.expand_dims(image, 0)
        image.set_shape([None] * 4)
        return image, False
    if shape.ndims != 4:
        raise ValueError("'image' (shape %s) must have either 3 or 4 dimensions." % shape)
    return image, True


# -------------------------------------------------------------------------------------------- resizing
def _resize_images_common(images, resizer_fn, size, preserve_aspect_ratio, name, skip_resize_if_same):
    with graph_mod.name_scope(name, "resize", [images, size]):
        images = convert_to_tensor(images, name="images")
        if images.shape.ndims is None:
            raise ValueError("'images' contains no shape.")
        is_batch = True
        if images.shape.ndims == 3:
            is_batch = False
            images = array_ops.expand_dims(images, 0)
        elif images.shape.ndims != 4:
            raise ValueError("'images' must have either 3 or 4 dimensions.")
        _, height, width, _ = images.shape.as_list()
        try:
            size = convert_to_tensor(size, dtypes.int32, name="size")
        except (TypeError, ValueError):
            raise ValueError("'size' must be a 1-D int32 Tensor") from None
        if not size.shape.is_compatible_with([2]):
            raise ValueError("'size' must be a 1-D Tensor of 2 elements: new_height, new_width")
        if preserve_aspect_ratio:
            _, current_height, current_width, _ = _image_dimensions(images, rank=4)
            f32 = dtypes.float32
            scale_h = math_ops.cast(size[0], f32) / math_ops.cast(current_height, f32)
            scale_w = math_ops.cast(size[1], f32) / math_ops.cast(current_width, f32)
            scale = math_ops.minimum(scale_h, scale_w)
            new_h = math_ops.cast(math_ops.round(scale * math_ops.cast(current_height, f32)), dtypes.int32)
            new_w = math_ops.cast(math_ops.round(scale * math_ops.cast(current_width, f32)), dtypes.int32)
            size = convert_to_tensor([new_h, new_w], dtypes.int32, name="size")
        known = const_value(size)
        new_h_const = int(known[0]) if known is not None else None
        new_w_const = int(known[1]) if known is not None else None
        if skip_resize_if_same and None not in (new_w_const, width, new_h_const, height) and \
                width == new_w_const and height == new_h_const:
            return array_ops.squeeze(images, axis=[0]) if not is_batch else images
        images = resizer_fn(images, size)
        images.set_shape([None, new_h_const, new_w_const, None])
        return array_ops.squeeze(images, axis=[0]) if not is_batch else images


def resize_images(images, size, method=ResizeMethod.BILINEAR, align_corners=False, preserve_aspect_ratio=False,
                  name=None):
    """``tf.image.resize_images`` (TF1's): ResizeBilinear, ResizeNearestNeighbor, ResizeBicubic or
    ResizeArea; the result is float32 except for nearest neighbour."""
    op_type = _RESIZE_OPS.get(method)
    if op_type is None:
        raise ValueError("Resize method is not implemented: {}".format(method))

    def resize_fn(images_t, new_size):
        return build_op(op_type, [images_t, new_size], attrs={"align_corners": bool(align_corners),
                        **({"half_pixel_centers": False} if op_type != "ResizeArea" else {})}).outputs[0]
    return _resize_images_common(images, resize_fn, size, preserve_aspect_ratio=preserve_aspect_ratio, name=name,
                                 skip_resize_if_same=True)


resize = resize_images


def _resize_op(op_type, default_name):
    def resize(images, size, align_corners=False, name=None, half_pixel_centers=False):
        attrs = {"align_corners": bool(align_corners)}
        if op_type != "ResizeArea":
            attrs["half_pixel_centers"] = bool(half_pixel_centers)
        return build_op(op_type, [images, size], attrs=attrs, name=name,
                        default_name=default_name).outputs[0]
    resize.__name__ = default_name
    resize.__doc__ = "``tf.image.%s``: the %s op itself." % (default_name, op_type)
    return resize


resize_bilinear = _resize_op("ResizeBilinear", "ResizeBilinear")
resize_nearest_neighbor = _resize_op("ResizeNearestNeighbor", "ResizeNearestNeighbor")
resize_bicubic = _resize_op("ResizeBicubic", "ResizeBicubic")
resize_area = _resize_op("ResizeArea", "ResizeArea")


# ------------------------------------------------------------------------------------ cropping, padding
def crop_to_bounding_box(image, offset_height, offset_width, target_height, target_width):
    with graph_mod.name_scope(None, "crop_to_bounding_box", [image]):
        image = convert_to_tensor(image, name="image")
        image, is_batch = _as_batch(image)
        assert_ops = _check_at_least_3d(image, require_static=False)
        batch, height, width, depth = _image_dimensions(image, rank=4)
        assert_ops += _assert(offset_width >= 0, ValueError, "offset_width must be >= 0.")
        assert_ops += _assert(offset_height >= 0, ValueError, "offset_height must be >= 0.")
        assert_ops += _assert(target_width > 0, ValueError, "target_width must be > 0.")
        assert_ops += _assert(target_height > 0, ValueError, "target_height must be > 0.")
        assert_ops += _assert(width >= target_width + offset_width, ValueError, "width must be >= target + offset.")
        assert_ops += _assert(height >= target_height + offset_height, ValueError,
                              "height must be >= target + offset.")
        image = control_flow_ops.with_dependencies(assert_ops, image)
        cropped = array_ops.slice(image, array_ops.stack([0, offset_height, offset_width, 0]),
                                  array_ops.stack([array_ops.shape(image)[0], target_height, target_width,
                                                   array_ops.shape(image)[3]]))
        cropped.set_shape([None if _is_tensor(i) else i for i in [batch, target_height, target_width, depth]])
        return array_ops.squeeze(cropped, axis=[0]) if not is_batch else cropped


def pad_to_bounding_box(image, offset_height, offset_width, target_height, target_width):
    with graph_mod.name_scope(None, "pad_to_bounding_box", [image]):
        image = convert_to_tensor(image, name="image")
        image, is_batch = _as_batch(image)
        batch, height, width, depth = _image_dimensions(image, rank=4)
        after_padding_width = target_width - offset_width - width
        after_padding_height = target_height - offset_height - height
        assert_ops = _check_at_least_3d(image, require_static=False)
        assert_ops += _assert(offset_height >= 0, ValueError, "offset_height must be >= 0")
        assert_ops += _assert(offset_width >= 0, ValueError, "offset_width must be >= 0")
        assert_ops += _assert(after_padding_width >= 0, ValueError, "width must be <= target - offset")
        assert_ops += _assert(after_padding_height >= 0, ValueError, "height must be <= target - offset")
        image = control_flow_ops.with_dependencies(assert_ops, image)
        paddings = array_ops.reshape(array_ops.stack([0, 0, offset_height, after_padding_height, offset_width,
                                                      after_padding_width, 0, 0]), [4, 2])
        padded = array_ops.pad(image, paddings)
        padded.set_shape([None if _is_tensor(i) else i for i in [batch, target_height, target_width, depth]])
        return array_ops.squeeze(padded, axis=[0]) if not is_batch else padded


def resize_image_with_crop_or_pad(image, target_height, target_width):
    """Centre crop where the image is larger, zero-pad around it where smaller."""
    with graph_mod.name_scope(None, "resize_image_with_crop_or_pad", [image]):
        image = convert_to_tensor(image, name="image")
        image, is_batch = _as_batch(image)
        assert_ops = _check_at_least_3d(image, require_static=False)
        assert_ops += _assert(target_width > 0, ValueError, "target_width must be > 0.")
        assert_ops += _assert(target_height > 0, ValueError, "target_height must be > 0.")
        image = control_flow_ops.with_dependencies(assert_ops, image)
        if _is_tensor(target_height):
            target_height = control_flow_ops.with_dependencies(assert_ops, target_height)
        if _is_tensor(target_width):
            target_width = control_flow_ops.with_dependencies(assert_ops, target_width)

        def max_(x, y):
            return math_ops.maximum(x, y) if _is_tensor(x) or _is_tensor(y) else max(x, y)

        def min_(x, y):
            return math_ops.minimum(x, y) if _is_tensor(x) or _is_tensor(y) else min(x, y)

        def equal_(x, y):
            return math_ops.equal(x, y) if _is_tensor(x) or _is_tensor(y) else x == y
        _, height, width, _ = _image_dimensions(image, rank=4)
        width_diff = target_width - width
        offset_crop_width = max_(-width_diff // 2, 0)
        offset_pad_width = max_(width_diff // 2, 0)
        height_diff = target_height - height
        offset_crop_height = max_(-height_diff // 2, 0)
        offset_pad_height = max_(height_diff // 2, 0)
        cropped = crop_to_bounding_box(image, offset_crop_height, offset_crop_width, min_(target_height, height),
                                       min_(target_width, width))
        resized = pad_to_bounding_box(cropped, offset_pad_height, offset_pad_width, target_height, target_width)
        if resized.shape.ndims is None:
            raise ValueError("resized contains no shape.")
        _, resized_height, resized_width, _ = _image_dimensions(resized, rank=4)
        assert_ops = _assert(equal_(resized_height, target_height), ValueError, "resized height is not correct.")
        assert_ops += _assert(equal_(resized_width, target_width), ValueError, "resized width is not correct.")
        resized = control_flow_ops.with_dependencies(assert_ops, resized)
        return array_ops.squeeze(resized, axis=[0]) if not is_batch else resized


resize_with_crop_or_pad = resize_image_with_crop_or_pad


def central_crop(image, central_fraction):
    with graph_mod.name_scope(None, "central_crop", [image]):
        image = convert_to_tensor(image, name="image")
        fraction = const_value(central_fraction) if _is_tensor(central_fraction) else central_fraction
        if fraction is not None:
            if fraction <= 0.0 or fraction > 1.0:
                raise ValueError("central_fraction must be within (0, 1]")
            if fraction == 1.0:
                return image
        else:
            image = control_flow_ops.with_dependencies(_assert(math_ops.logical_or(
                central_fraction > 0.0, central_fraction <= 1.0), ValueError,
                "central_fraction must be within (0, 1]"), image)
        _assert_at_least_3d(image)          # as TF: built, and its result not used
        rank = image.shape.ndims
        if rank not in (3, 4):
            raise ValueError("`image` should either be a Tensor with rank = 3 or rank = 4. Had rank = {}."
                             .format(rank))

        def get_dim(idx):
            static = image.shape.as_list()[idx]
            return (static, False) if static is not None else (array_ops.shape(image)[idx], True)
        first = 0 if rank == 3 else 1
        img_h, dynamic_h = get_dim(first)
        img_w, dynamic_w = get_dim(first + 1)
        img_d = image.shape.as_list()[-1]
        dynamic_h = dynamic_h or fraction is None
        dynamic_w = dynamic_w or fraction is None

        def start(size, dynamic):
            if dynamic:
                sd = math_ops.cast(size, dtypes.float64)
                return math_ops.cast((sd - sd * math_ops.cast(central_fraction, dtypes.float64)) / 2, dtypes.int32)
            sd = float(size)
            return int((sd - sd * fraction) / 2)
        h_start, w_start = start(img_h, dynamic_h), start(img_w, dynamic_w)
        h_size, w_size = img_h - h_start * 2, img_w - w_start * 2
        if rank == 3:
            begin, size = array_ops.stack([h_start, w_start, 0]), array_ops.stack([h_size, w_size, -1])
        else:
            begin, size = array_ops.stack([0, h_start, w_start, 0]), array_ops.stack([-1, h_size, w_size, -1])
        image = array_ops.slice(image, begin, size)
        dims = [None if dynamic_h else h_size, None if dynamic_w else w_size, img_d]
        image.set_shape(dims if rank == 3 else [image.shape.as_list()[0]] + dims)
        return image


def random_crop(value, size, seed=None, name=None):
    """A uniformly placed crop of ``size`` (as TF: random offsets, then Slice)."""
    with graph_mod.name_scope(name, "random_crop", [value, size]) as scope:
        value = convert_to_tensor(value, name="value")
        size = convert_to_tensor(size, dtype=dtypes.int32, name="size")
        shape = array_ops.shape(value)
        limit = shape - size + 1
        offset = random_ops.random_uniform(array_ops.shape(shape), dtype=size.dtype, maxval=size.dtype.max,
                                           seed=seed) % limit
        return array_ops.slice(value, offset, size, name=scope)


# ------------------------------------------------------------------------------------------------ flips
def _flip(image, flip_index, scope_name):
    with graph_mod.name_scope(None, scope_name, [image]):
        image = convert_to_tensor(image, name="image")
        image = _assert_at_least_3d(image)
        shape = image.shape

        def f_rank3():
            return _fix_flip_shape(image, array_ops.reverse(image, [flip_index]))

        def f_rank4():
            return array_ops.reverse(image, [flip_index + 1])
        if shape.ndims is None:
            return control_flow_ops.cond(math_ops.equal(array_ops.rank(image), 3), f_rank3, f_rank4)
        if shape.ndims == 3:
            return f_rank3()
        if shape.ndims == 4:
            return f_rank4()
        raise ValueError("'image' (shape %s)must have either 3 or 4 dimensions." % shape)


def flip_left_right(image):
    return _flip(image, 1, "flip_left_right")


def flip_up_down(image):
    return _flip(image, 0, "flip_up_down")


def _random_flip(image, flip_index, seed, scope_name):
    with graph_mod.name_scope(None, scope_name, [image]) as scope:
        image = convert_to_tensor(image, name="image")
        image = _assert_at_least_3d(image)
        shape = image.shape

        def f_rank3():
            uniform_random = random_ops.random_uniform(shape=[], minval=0, maxval=1.0, seed=seed)
            mirror_cond = math_ops.less(uniform_random, 0.5)
            result = control_flow_ops.cond(mirror_cond, lambda: array_ops.reverse(image, [flip_index]),
                                           lambda: image, name=scope)
            return _fix_flip_shape(image, result)

        def f_rank4():
            batch_size = array_ops.shape(image)[0]
            uniform_random = random_ops.random_uniform(shape=[batch_size], minval=0, maxval=1.0, seed=seed)
            flips = math_ops.round(array_ops.reshape(uniform_random, [batch_size, 1, 1, 1]))
            flips = math_ops.cast(flips, image.dtype.base_dtype)
            flipped_input = array_ops.reverse(image, [flip_index + 1])
            return flips * flipped_input + (1 - flips) * image
        if shape.ndims is None:
            return control_flow_ops.cond(math_ops.equal(array_ops.rank(image), 3), f_rank3, f_rank4)
        if shape.ndims == 3:
            return f_rank3()
        if shape.ndims == 4:
            return f_rank4()
        raise ValueError("'image' (shape %s) must have either 3 or 4 dimensions." % shape)


def random_flip_left_right(image, seed=None):
    return _random_flip(image, 1, seed, "random_flip_left_right")


def random_flip_up_down(image, seed=None):
    return _random_flip(image, 0, seed, "random_flip_up_down")


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


# ---------------------------------------------------------------------------------- colour adjustments
def per_image_standardization(image):
    """(x - mean) / max(stddev, 1/sqrt(num_pixels)), per image, as float32."""
    with graph_mod.name_scope(None, "per_image_standardization", [image]) as scope:
        image = convert_to_tensor(image, name="image")
        image = _assert_at_least_3d(image)
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
        images = control_flow_ops.with_dependencies(_check_grayscale(images), images)
        images = convert_to_tensor(images, name="images")
        rank_1 = array_ops.expand_dims(array_ops.rank(images) - 1, 0)
        shape_list = [array_ops.ones(rank_1, dtype=dtypes.int32)] + [array_ops.expand_dims(3, 0)]
        multiples = array_ops.concat(shape_list, 0)
        rgb = array_ops.tile(images, multiples, name=name)
        rgb.set_shape(images.shape[:-1].concatenate(tensor_shape.TensorShape([3])))
        return rgb


from graphlab.image_analysis import (adjust_gamma, image_gradients, psnr, rgb_to_yiq, rgb_to_yuv,  # noqa: F401,E402
                                     rot90, sobel_edges, total_variation, transpose, transpose_image, yiq_to_rgb,
                                     yuv_to_rgb)
from graphlab.ops.image_ops import decode_and_crop_jpeg, decode_bmp  # noqa: F401,E402
from graphlab.ops.string_codec_ops import extract_jpeg_shape, is_jpeg  # noqa: F401,E402
