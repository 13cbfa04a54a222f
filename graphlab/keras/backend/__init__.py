"""``tf.keras.backend`` (K) in graph mode: the session and graph state (session.py), settings (config.py),
variables and placeholders (variables.py), ``K.function`` (function.py) and tensor helpers (math.py)."""
from graphlab.framework import graph as graph_mod
from graphlab.ops import nn_ops
from graphlab.keras.backend.config import (epsilon, floatx, image_data_format, normalize_data_format,
                                           set_epsilon, set_floatx, set_image_data_format)
from graphlab.keras.backend.session import (clear_session, get_graph, get_session, get_uid, learning_phase,
                                            manual_variable_initialization, reset_uids, set_learning_phase,
                                            set_session, symbolic_learning_phase, track_tf_optimizer,
                                            track_variable, unique_object_name)
from graphlab.keras.backend.variables import (batch_get_value, batch_set_value, constant, count_params, dtype,
                                              eval, get_value, int_shape, is_placeholder, make_variable, ndim,
                                              ones, placeholder, set_value, update, update_add, update_sub,
                                              variable, zeros)
from graphlab.keras.backend.function import GraphExecutionFunction, function
from graphlab.keras.backend.rnn import rnn
from graphlab.keras.backend.math import (abs, all, any, argmax, argmin, batch_dot, batch_flatten,
                                         binary_crossentropy, cast, cast_to_floatx, categorical_crossentropy,
                                         clip, concatenate, cos, dot, elu, equal, exp, expand_dims, flatten,
                                         gather, greater, greater_equal, hard_sigmoid, in_test_phase,
                                         in_train_phase, l2_normalize, less, less_equal, log, max, maximum, mean,
                                         min, minimum, not_equal, one_hot, ones_like, permute_dimensions, pow,
                                         prod, relu, repeat, reshape, reverse, round, shape, sigmoid, sign, sin,
                                         softmax, softplus, softsign, sparse_categorical_crossentropy, sqrt, square,
                                         squeeze, stack, std, stop_gradient, sum, switch, tanh, tile,
                                         transpose, var, zeros_like)
from graphlab.keras.backend.math import (arange, cumprod, cumsum, dropout, gradients, in_top_k, random_normal,
                                         random_uniform, repeat_elements, spatial_2d_padding, temporal_padding,
                                         truncated_normal)

name_scope = None  # replaced below: K.name_scope is TF1's name_scope


def _name_scope(name, default_name=None, values=None):
    return graph_mod.name_scope(name, default_name, values)


name_scope = _name_scope


def bias_add(x, bias, data_format=None):
    """nn.bias_add with Keras's data format (NHWC unless channels_first)."""
    data_format = normalize_data_format(data_format)
    if len(bias.shape) != 1:
        raise ValueError("graphlab's K.bias_add takes a 1-D bias")
    return nn_ops.bias_add(x, bias, data_format="NCHW" if data_format == "channels_first" else "NHWC")


def backend():
    """'tensorflow'."""
    return "tensorflow"


def is_keras_tensor(x):
    from graphlab.keras.engine.node import keras_history
    return keras_history(x) is not None
