"""``tf.image.resize_images`` and the resize ops' wrappers (bilinear, nearest, bicubic, area), with TF's
shortcuts when the size does not change and its checks of the size argument."""

from graphlab.framework import dtypes
from graphlab.framework import graph as graph_mod
from graphlab.framework.registry import build_op, const_value, convert_to_tensor
from graphlab.image.checks import image_dimensions
from graphlab.ops import array_ops, math_ops


class ResizeMethod:
    BILINEAR, NEAREST_NEIGHBOR, BICUBIC, AREA = 0, 1, 2, 3


_RESIZE_OPS = {ResizeMethod.BILINEAR: "ResizeBilinear", ResizeMethod.NEAREST_NEIGHBOR: "ResizeNearestNeighbor",
               ResizeMethod.BICUBIC: "ResizeBicubic", ResizeMethod.AREA: "ResizeArea",
               "bilinear": "ResizeBilinear", "nearest": "ResizeNearestNeighbor", "bicubic": "ResizeBicubic",
               "area": "ResizeArea"}


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
            _, current_height, current_width, _ = image_dimensions(images, rank=4)
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
