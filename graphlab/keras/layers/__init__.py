"""``tf.keras.layers``: one module per family, as in Keras."""
from graphlab.keras.engine.base_layer import Layer
from graphlab.keras.engine.input_layer import Input, InputLayer
from graphlab.keras.engine.input_spec import InputSpec
from graphlab.keras.layers.core import Activation, Dense, Dropout, Flatten, Lambda, Permute, RepeatVector, Reshape
