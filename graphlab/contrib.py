"""``tf.contrib``: the few TF1 contrib helpers tutorials call, re-exported from graphlab's own modules.

``tf.contrib.framework``'s checkpoint helpers (``list_variables``, ``load_variable``, ``load_checkpoint``) are
graphlab.train.checkpoint_utils under their contrib names; ``tf.contrib.rnn`` (what TF 1.x tutorials import
as ``from tensorflow.contrib import rnn``) holds the same cells and functions as ``tf.nn.rnn_cell`` and
``tf.nn``, which TF 2.21 keeps (it has no contrib to compare with).
"""
import types

from graphlab import rnn_cell as _cells
from graphlab.ops import rnn as _rnn
from graphlab.train import checkpoint_utils as _ckpt
from graphlab.train import device_setter as _device_setter

framework = types.SimpleNamespace(
    list_variables=_ckpt.list_variables,
    load_variable=_ckpt.load_variable,
    load_checkpoint=_ckpt.load_checkpoint,
)

# TF 1.x kept the load-balancing ps strategy for replica_device_setter here (TF 2 has no counterpart).
training = types.SimpleNamespace(
    GreedyLoadBalancingStrategy=_device_setter.GreedyLoadBalancingStrategy,
    byte_size_load_fn=_device_setter.byte_size_load_fn,
)

rnn = types.SimpleNamespace(
    static_rnn=_rnn.static_rnn,
    static_bidirectional_rnn=_rnn.static_bidirectional_rnn,
    **{name: getattr(_cells, name) for name in (
        "RNNCell", "BasicRNNCell", "GRUCell", "BasicLSTMCell", "LSTMCell", "LSTMStateTuple", "MultiRNNCell",
        "DropoutWrapper", "ResidualWrapper", "DeviceWrapper")},
)

# Every other tf.contrib module: TF 2 removed tf.contrib, so a TF1 program that uses one cannot run on the TF
# graphlab compares with either. Its name stands in (graphlab.framework.omitted), and using it raises
# UnimplementedError saying so, with the TF 2 spelling where one exists, instead of an AttributeError.
_WHY = ("tf.contrib was removed in TensorFlow 2; graphlab keeps only tf.contrib.rnn (the cells of "
        "tf.nn.rnn_cell), tf.contrib.framework's checkpoint readers and tf.contrib.training's ps load balancing")
_INSTEAD = {
    "layers": "tf.layers (flatten, dense, conv2d, batch_normalization ...) and tf.nn take its place; "
              "xavier_initializer() is tf.glorot_uniform_initializer(), l2_regularizer(scale) is "
              "lambda w: scale * tf.nn.l2_loss(w)",
    "data": "tf.contrib.data became tf.data",
    "learn": "its Estimators and MNIST loaders have no counterpart; feed numpy arrays to placeholders",
    "slim": "build the layers with tf.layers and tf.nn",
}


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    from graphlab.framework.omitted import Omitted
    instead = _INSTEAD.get(name)
    return Omitted("tf.contrib." + name, _WHY + ("; " + instead if instead else ""))
