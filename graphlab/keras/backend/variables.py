"""Keras's variables and placeholders: ``K.variable``, ``K.placeholder``, reading and writing values.

``make_variable`` is the one place Keras variables are made (layers' weights and ``K.variable``): a
``tf.Variable`` created with ``use_resource=True`` as tf-keras makes it, its initial value built inside
``<name>/Initializer/``, and remembered so ``K.get_session()`` initializes it.
"""
import functools

import numpy as np

from graphlab.framework import dtypes, tensor_shape
from graphlab.framework.registry import constant as _constant
from graphlab.framework.registry import convert_to_tensor
from graphlab.keras.backend import config, session
from graphlab.ops import array_ops, state_ops
from graphlab.ops import variables as variables_mod


def make_variable(name, shape=None, dtype=dtypes.float32, initializer=None, trainable=True,
                  constraint=None, collections=None, validate_shape=True):
    """A resource variable ``name`` in the current name scope, its value ``initializer(shape, dtype)``
    (or the value given instead of an initializer, in its own dtype). Every Keras variable is made here."""
    if initializer is not None and not callable(initializer):
        init_val, variable_dtype = initializer, None
    else:
        if isinstance(initializer, type):
            initializer = initializer()
        init_val = functools.partial(initializer, shape, dtype=dtype)
        variable_dtype = dtypes.as_dtype(dtype).base_dtype
    variable_shape = tensor_shape.TensorShape(shape) if shape is not None else None
    variable = variables_mod.Variable(initial_value=init_val, name=name, trainable=trainable,
                                      dtype=variable_dtype, validate_shape=validate_shape,
                                      constraint=constraint, use_resource=True, collections=collections,
                                      shape=variable_shape if variable_shape is not None and variable_shape.ndims
                                      else None)
    session.track_variable(variable)
    return variable


def is_variable(value):
    return isinstance(value, variables_mod.Variable) or hasattr(value, "_keras_initialized") or (
        hasattr(value, "initializer") and hasattr(value, "assign"))


def variable(value, dtype=None, name=None, constraint=None):
    """``K.variable``: a variable holding ``value`` (numpy array, list or number) as ``dtype`` (floatx)."""
    dtype = dtypes.as_dtype(dtype or config.floatx())
    value = np.asarray(value, dtype=dtype.as_numpy_dtype) if not hasattr(value, "op") else value
    result = make_variable(name, initializer=value, constraint=constraint)
    result._keras_shape = tuple(value.shape) if isinstance(value, np.ndarray) else int_shape(value)
    return result


def constant(value, dtype=None, shape=None, name=None):
    """``K.constant``: a Const of ``value`` in ``dtype`` (floatx)."""
    return _constant(value, dtype=dtypes.as_dtype(dtype or config.floatx()), shape=shape, name=name or "Const")


def placeholder(shape=None, ndim=None, dtype=None, sparse=False, name=None, ragged=False):
    """``K.placeholder``: a Placeholder of ``shape`` (or ``ndim`` unknown dimensions) and ``dtype``."""
    if sparse or ragged:
        raise ValueError("graphlab's K.placeholder makes dense placeholders only (sparse/ragged are not "
                         "implemented)")
    dtype = dtypes.as_dtype(dtype or config.floatx())
    if not shape and ndim:
        shape = (None,) * ndim
    result = array_ops.placeholder(dtype, shape=shape, name=name)
    return result


def is_placeholder(value):
    return getattr(getattr(value, "op", None), "type", None) == "Placeholder"


def dtype(x):
    """The dtype's name: 'float32'."""
    return x.dtype.base_dtype.name


def int_shape(x):
    """The static shape as a tuple of ints and None: (None, 3)."""
    shape = x.shape if hasattr(x, "shape") else None
    if isinstance(shape, tuple):
        return shape
    if shape is None or tensor_shape.as_shape(shape).ndims is None:
        return None
    return tuple(tensor_shape.as_shape(shape).as_list())


def ndim(x):
    shape = int_shape(x)
    return None if shape is None else len(shape)


def count_params(x):
    return int(np.prod(int_shape(x)))


def get_value(x):
    """The value of a variable (or tensor) as a numpy array, run in Keras's session."""
    if isinstance(x, np.ndarray):
        return x
    with x.graph.as_default():
        return session.get_session((x,)).run(x)


def batch_get_value(tensors):
    if not tensors:
        return []
    return session.get_session(tensors).run(list(tensors))


def set_value(x, value):
    """Give variable ``x`` the numpy ``value`` (through a fed placeholder, so no new op on later calls)."""
    batch_set_value([(x, value)])


def batch_set_value(tuples):
    """Assign several variables in one run. Each variable gets one placeholder (None in every dimension)
    and one assign op the first time, fed on every later call, as Keras caches them."""
    if not tuples:
        return
    feed, ops = {}, []
    for x, value in tuples:
        dtype = dtypes.as_dtype(x.dtype).base_dtype
        value = np.asarray(value, dtype=dtype.as_numpy_dtype)
        if getattr(x, "_assign_placeholder", None) is None:
            with x.graph.as_default():
                x._assign_placeholder = array_ops.placeholder(dtype, shape=[None] * value.ndim)
                x._assign_op = x.assign(x._assign_placeholder)
        feed[x._assign_placeholder] = value
        ops.append(x._assign_op)
    session.get_session().run(ops, feed_dict=feed)


def eval(x):  # noqa: A001  (Keras's name)
    """The value of ``x`` in Keras's session."""
    return get_value(convert_to_tensor(x) if not is_variable(x) else x)


def zeros(shape, dtype=None, name=None):
    """``K.zeros``: a variable of zeros."""
    dtype = dtypes.as_dtype(dtype or config.floatx())
    return variable(np.zeros(shape, dtype.as_numpy_dtype), dtype, name)


def ones(shape, dtype=None, name=None):
    dtype = dtypes.as_dtype(dtype or config.floatx())
    return variable(np.ones(shape, dtype.as_numpy_dtype), dtype, name)


def update(x, new_x):
    return state_ops.assign(x, new_x)


def update_add(x, increment):
    return state_ops.assign_add(x, increment)


def update_sub(x, decrement):
    return state_ops.assign_sub(x, decrement)
