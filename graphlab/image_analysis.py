"""More of ``tf.image``, built from graph ops as TF builds them: the YIQ and YUV colour spaces, rot90 and
transpose, adjust_gamma, and the image measures total_variation, image_gradients, sobel_edges and psnr.
Re-exported by graphlab/image.py."""
import numpy as np

from graphlab.framework import dtypes, graph as graph_mod
from graphlab.ops import array_ops, control_flow_case, math_ops
from graphlab.ops.linalg_impl import tensordot
from graphlab.framework.registry import constant, convert_to_tensor

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


def adjust_gamma(image, gamma=1, gain=1):
    """``tf.image.adjust_gamma``: gain * image ** gamma, in floats, converted back to the image's dtype."""
    from graphlab.image import convert_image_dtype
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


def total_variation(images, name=None):
    """``tf.image.total_variation``: the sum of absolute differences of neighbouring pixels (per image)."""
    with graph_mod.get_default_graph().name_scope(name or "total_variation"):
        images = convert_to_tensor(images)
        ndims = images.shape.ndims
        if ndims == 3:
            dif1 = images[1:, :, :] - images[:-1, :, :]
            dif2 = images[:, 1:, :] - images[:, :-1, :]
            axis = None
        elif ndims == 4:
            dif1 = images[:, 1:, :, :] - images[:, :-1, :, :]
            dif2 = images[:, :, 1:, :] - images[:, :, :-1, :]
            axis = [1, 2, 3]
        else:
            raise ValueError("'images' must be either 3 or 4-dimensional.")
        return (math_ops.reduce_sum(math_ops.abs(dif1), axis=axis)
                + math_ops.reduce_sum(math_ops.abs(dif2), axis=axis))


def image_gradients(image):
    """``tf.image.image_gradients``: (dy, dx), forward differences padded with a zero row/column."""
    image = convert_to_tensor(image)
    if image.shape.ndims != 4:
        raise ValueError("image_gradients expects a 4D tensor [batch_size, h, w, d], not %s." % image.shape)
    batch_size, height, width, depth = array_ops.unstack(array_ops.shape(image))
    dy = image[:, 1:, :, :] - image[:, :-1, :, :]
    dx = image[:, :, 1:, :] - image[:, :, :-1, :]
    shape = array_ops.stack([batch_size, 1, width, depth])
    dy = array_ops.concat([dy, array_ops.zeros(shape, image.dtype)], 1)
    dy = array_ops.reshape(dy, array_ops.shape(image))
    shape = array_ops.stack([batch_size, height, 1, depth])
    dx = array_ops.concat([dx, array_ops.zeros(shape, image.dtype)], 2)
    dx = array_ops.reshape(dx, array_ops.shape(image))
    return dy, dx


def sobel_edges(image):
    """``tf.image.sobel_edges``: [batch, h, w, channels, 2], the vertical and horizontal Sobel responses
    (edges reflected), with one depthwise convolution."""
    from graphlab.ops.convolution import depthwise_conv2d
    static_image_shape = image.shape
    image_shape = array_ops.shape(image)
    kernels = [[[-1, -2, -1], [0, 0, 0], [1, 2, 1]], [[-1, 0, 1], [-2, 0, 2], [-1, 0, 1]]]
    num_kernels = len(kernels)
    kernels = np.transpose(np.asarray(kernels), (1, 2, 0))
    kernels = np.expand_dims(kernels, -2)
    kernels_tf = constant(kernels, dtype=image.dtype)
    kernels_tf = array_ops.tile(kernels_tf, [1, 1, image_shape[-1], 1], name="sobel_filters")
    pad_sizes = [[0, 0], [1, 1], [1, 1], [0, 0]]
    padded = array_ops.pad(image, pad_sizes, mode="REFLECT")
    strides = [1, 1, 1, 1]
    output = depthwise_conv2d(padded, kernels_tf, strides, "VALID")
    shape = array_ops.concat([image_shape, [num_kernels]], 0)
    output = array_ops.reshape(output, shape=shape)
    output.set_shape(static_image_shape.concatenate([num_kernels]))
    return output


def psnr(a, b, max_val, name=None):
    """``tf.image.psnr``: peak signal-to-noise ratio in dB over the last three axes."""
    from graphlab.image import convert_image_dtype
    with graph_mod.name_scope(name, "PSNR", [a, b]):
        a = convert_to_tensor(a)
        b = convert_to_tensor(b)
        max_val = math_ops.cast(max_val, a.dtype)
        max_val = convert_image_dtype(max_val, dtypes.float32)
        a = convert_image_dtype(a, dtypes.float32)
        b = convert_image_dtype(b, dtypes.float32)
        mse = math_ops.reduce_mean(math_ops.squared_difference(a, b), [-3, -2, -1])
        return math_ops.subtract(20 * math_ops.log(max_val) / math_ops.log(10.0),
                                 np.float32(10 / np.log(10)) * math_ops.log(mse), name="psnr")
