"""Measures of images: total_variation, image_gradients, sobel_edges and psnr."""
import numpy as np

from graphlab.framework import dtypes
from graphlab.framework import graph as graph_mod
from graphlab.framework.registry import constant, convert_to_tensor
from graphlab.image.conversions import convert_image_dtype
from graphlab.ops import array_ops, math_ops
from graphlab.ops.convolution import depthwise_conv2d


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
