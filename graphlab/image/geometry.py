"""Where the pixels go: cropping and padding to a bounding box, central and random crops, flips (fixed and
random), rot90 and transpose."""

from graphlab.framework import dtypes
from graphlab.framework import graph as graph_mod
from graphlab.framework.registry import const_value, convert_to_tensor
from graphlab.image.checks import (
    as_batch,
    assert_at_least_3d,
    assert_that,
    check_at_least_3d,
    fix_flip_shape,
    image_dimensions,
    is_tensor,
)
from graphlab.ops import (
    array_ops,
    control_flow_case,
    control_flow_ops,
    math_ops,
    random_ops,
)


# ------------------------------------------------------------------------------------ cropping, padding
def crop_to_bounding_box(image, offset_height, offset_width, target_height, target_width):
    with graph_mod.name_scope(None, "crop_to_bounding_box", [image]):
        image = convert_to_tensor(image, name="image")
        image, is_batch = as_batch(image)
        assert_ops = check_at_least_3d(image, require_static=False)
        batch, height, width, depth = image_dimensions(image, rank=4)
        assert_ops += assert_that(offset_width >= 0, ValueError, "offset_width must be >= 0.")
        assert_ops += assert_that(offset_height >= 0, ValueError, "offset_height must be >= 0.")
        assert_ops += assert_that(target_width > 0, ValueError, "target_width must be > 0.")
        assert_ops += assert_that(target_height > 0, ValueError, "target_height must be > 0.")
        assert_ops += assert_that(width >= target_width + offset_width, ValueError, "width must be >= target + offset.")
        assert_ops += assert_that(height >= target_height + offset_height, ValueError,
                              "height must be >= target + offset.")
        image = control_flow_ops.with_dependencies(assert_ops, image)
        cropped = array_ops.slice(image, array_ops.stack([0, offset_height, offset_width, 0]),
                                  array_ops.stack([array_ops.shape(image)[0], target_height, target_width,
                                                   array_ops.shape(image)[3]]))
        cropped.set_shape([None if is_tensor(i) else i for i in [batch, target_height, target_width, depth]])
        return array_ops.squeeze(cropped, axis=[0]) if not is_batch else cropped


def pad_to_bounding_box(image, offset_height, offset_width, target_height, target_width):
    with graph_mod.name_scope(None, "pad_to_bounding_box", [image]):
        image = convert_to_tensor(image, name="image")
        image, is_batch = as_batch(image)
        batch, height, width, depth = image_dimensions(image, rank=4)
        after_padding_width = target_width - offset_width - width
        after_padding_height = target_height - offset_height - height
        assert_ops = check_at_least_3d(image, require_static=False)
        assert_ops += assert_that(offset_height >= 0, ValueError, "offset_height must be >= 0")
        assert_ops += assert_that(offset_width >= 0, ValueError, "offset_width must be >= 0")
        assert_ops += assert_that(after_padding_width >= 0, ValueError, "width must be <= target - offset")
        assert_ops += assert_that(after_padding_height >= 0, ValueError, "height must be <= target - offset")
        image = control_flow_ops.with_dependencies(assert_ops, image)
        paddings = array_ops.reshape(array_ops.stack([0, 0, offset_height, after_padding_height, offset_width,
                                                      after_padding_width, 0, 0]), [4, 2])
        padded = array_ops.pad(image, paddings)
        padded.set_shape([None if is_tensor(i) else i for i in [batch, target_height, target_width, depth]])
        return array_ops.squeeze(padded, axis=[0]) if not is_batch else padded


def resize_image_with_crop_or_pad(image, target_height, target_width):
    """Centre crop where the image is larger, zero-pad around it where smaller."""
    with graph_mod.name_scope(None, "resize_image_with_crop_or_pad", [image]):
        image = convert_to_tensor(image, name="image")
        image, is_batch = as_batch(image)
        assert_ops = check_at_least_3d(image, require_static=False)
        assert_ops += assert_that(target_width > 0, ValueError, "target_width must be > 0.")
        assert_ops += assert_that(target_height > 0, ValueError, "target_height must be > 0.")
        image = control_flow_ops.with_dependencies(assert_ops, image)
        if is_tensor(target_height):
            target_height = control_flow_ops.with_dependencies(assert_ops, target_height)
        if is_tensor(target_width):
            target_width = control_flow_ops.with_dependencies(assert_ops, target_width)

        def max_(x, y):
            return math_ops.maximum(x, y) if is_tensor(x) or is_tensor(y) else max(x, y)

        def min_(x, y):
            return math_ops.minimum(x, y) if is_tensor(x) or is_tensor(y) else min(x, y)

        def equal_(x, y):
            return math_ops.equal(x, y) if is_tensor(x) or is_tensor(y) else x == y
        _, height, width, _ = image_dimensions(image, rank=4)
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
        _, resized_height, resized_width, _ = image_dimensions(resized, rank=4)
        assert_ops = assert_that(equal_(resized_height, target_height), ValueError, "resized height is not correct.")
        assert_ops += assert_that(equal_(resized_width, target_width), ValueError, "resized width is not correct.")
        resized = control_flow_ops.with_dependencies(assert_ops, resized)
        return array_ops.squeeze(resized, axis=[0]) if not is_batch else resized


resize_with_crop_or_pad = resize_image_with_crop_or_pad


def central_crop(image, central_fraction):
    with graph_mod.name_scope(None, "central_crop", [image]):
        image = convert_to_tensor(image, name="image")
        fraction = const_value(central_fraction) if is_tensor(central_fraction) else central_fraction
        if fraction is not None:
            if fraction <= 0.0 or fraction > 1.0:
                raise ValueError("central_fraction must be within (0, 1]")
            if fraction == 1.0:
                return image
        else:
            image = control_flow_ops.with_dependencies(assert_that(math_ops.logical_or(
                central_fraction > 0.0, central_fraction <= 1.0), ValueError,
                "central_fraction must be within (0, 1]"), image)
        assert_at_least_3d(image)          # as TF: built, and its result not used
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
        image = assert_at_least_3d(image)
        shape = image.shape

        def f_rank3():
            return fix_flip_shape(image, array_ops.reverse(image, [flip_index]))

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
        image = assert_at_least_3d(image)
        shape = image.shape

        def f_rank3():
            uniform_random = random_ops.random_uniform(shape=[], minval=0, maxval=1.0, seed=seed)
            mirror_cond = math_ops.less(uniform_random, 0.5)
            result = control_flow_ops.cond(mirror_cond, lambda: array_ops.reverse(image, [flip_index]),
                                           lambda: image, name=scope)
            return fix_flip_shape(image, result)

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


# ------------------------------------------------------------------------------------ rot90, transpose
def rot90(image, k=1, name=None):
    """``tf.image.rot90``: rotate counter-clockwise by k quarter turns (a tf.case over k mod 4, as TF)."""
    with graph_mod.name_scope(name, "rot90", [image, k]) as scope:
        image = convert_to_tensor(image, name="image")
        k = convert_to_tensor(k, dtype=dtypes.int32, name="k")
        k = math_ops.mod(k, 4)
        ndims = image.shape.ndims
        if ndims not in (3, 4):
            raise ValueError("'image' (shape %s) must have either 3 or 4 dimensions." % image.shape)
        h, w = (0, 1) if ndims == 3 else (1, 2)
        swap = [1, 0, 2] if ndims == 3 else [0, 2, 1, 3]
        cases = [(math_ops.equal(k, 1), lambda: array_ops.transpose(array_ops.reverse(image, [w]), swap)),
                 (math_ops.equal(k, 2), lambda: array_ops.reverse(image, [h, w])),
                 (math_ops.equal(k, 3), lambda: array_ops.reverse(array_ops.transpose(image, swap), [w]))]
        result = control_flow_case.case(cases, default=lambda: image, exclusive=True, name=scope)
        if ndims == 3:
            result.set_shape([None, None, image.shape[2]])
        else:
            result.set_shape([image.shape[0], None, None, image.shape[3]])
        return result


def transpose(image, name=None):
    """``tf.image.transpose``: swap height and width."""
    with graph_mod.name_scope(name, "transpose", [image]):
        image = convert_to_tensor(image, name="image")
        ndims = image.shape.ndims
        if ndims == 3:
            return array_ops.transpose(image, [1, 0, 2], name=name)
        if ndims == 4:
            return array_ops.transpose(image, [0, 2, 1, 3], name=name)
        raise ValueError("'image' (shape %s) must have either 3 or 4 dimensions." % image.shape)


transpose_image = transpose
