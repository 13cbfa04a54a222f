"""TF's checks of images (image_ops_impl.py's _Check3DImage, _CheckAtLeast3DImage, _AssertGrayscaleImage ...):
static checks at build time, Assert ops for what is only known at run time, with TF's messages."""

from graphlab.framework import graph as graph_mod
from graphlab.framework.registry import convert_to_tensor
from graphlab.framework.tensor import Tensor
from graphlab.ops import array_ops, control_flow_ops, logging_ops, math_ops


# ------------------------------------------------------------------------------ TF's checks of images
def is_tensor(x):
    return isinstance(x, Tensor) or hasattr(x, "_as_graph_element") and hasattr(x, "initializer")


def assert_that(cond, ex_type, msg):
    """A run-time Assert for a tensor condition; for a Python one, raise now or add nothing."""
    if is_tensor(cond):
        return [logging_ops.Assert(cond, [msg])]
    if not cond:
        raise ex_type(msg)
    return []


def binary_assert(sym, opname, op_func, x, y, data, message, name=None):
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


def assert_positive(x, data):
    with graph_mod.name_scope(None, "assert_positive", [x, data]):
        x = convert_to_tensor(x, name="x")
        zero = convert_to_tensor(0, dtype=x.dtype.base_dtype)
        return binary_assert("<", "assert_less", math_ops.less, zero, x, data, None)


def assert_greater_equal(x, y, message):
    return binary_assert(">=", "assert_greater_equal", math_ops.greater_equal, x, y, None, message)


def image_dimensions(image, rank):
    if image.shape.is_fully_defined():
        return image.shape.as_list()
    static = image.shape.with_rank(rank).as_list()
    dynamic = array_ops.unstack(array_ops.shape(image), rank)
    return [s if s is not None else d for s, d in zip(static, dynamic)]


def check_3d(image, require_static=True):
    try:
        shape = image.shape.with_rank(3)
    except ValueError:
        raise ValueError("'image' (shape %s) must be three-dimensional." % image.shape) from None
    if require_static and not shape.is_fully_defined():
        raise ValueError("'image' (shape %s) must be fully defined." % shape)
    if any(x == 0 for x in shape.as_list()):
        raise ValueError("all dims of 'image.shape' must be > 0: %s" % shape)
    if not shape.is_fully_defined():
        return [assert_positive(array_ops.shape(image), ["all dims of 'image.shape' must be > 0."])]
    return []


def check_at_least_3d(image, require_static=True):
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
        return [assert_positive(array_ops.shape(image)[-3:], ["inner 3 dims of 'image.shape' must be > 0."]),
                assert_greater_equal(array_ops.rank(image), 3, "'image' must be at least three-dimensional.")]
    return []


def assert_at_least_3d(image):
    return control_flow_ops.with_dependencies(check_at_least_3d(image, require_static=False), image)


def check_grayscale(image):
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
            assert_greater_equal(array_ops.rank(image), 3, "A grayscale image must be at least two-dimensional.")]


def fix_flip_shape(image, result):
    if image.shape.ndims is None:
        result.set_shape([None, None, None])
    else:
        result.set_shape(image.shape)
    return result


def as_batch(image):
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
