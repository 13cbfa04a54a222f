"""``tf.keras.layers``: one module per family, as in Keras."""
from graphlab.keras.engine.base_layer import Layer
from graphlab.keras.engine.input_layer import Input, InputLayer
from graphlab.keras.engine.input_spec import InputSpec
from graphlab.keras.layers.activation import ELU, LeakyReLU, PReLU, ReLU, Softmax, ThresholdedReLU
from graphlab.keras.layers.convolutional import (Conv1D, Conv2D, Conv2DTranspose, Convolution1D, Convolution2D,
                                                 Convolution2DTranspose)
from graphlab.keras.layers.core import (Activation, Dense, Dropout, Flatten, Identity, Lambda, Masking, Permute,
                                        RepeatVector, Reshape)
from graphlab.keras.layers.embeddings import Embedding
from graphlab.keras.layers.merging import (Add, Average, Concatenate, Maximum, Minimum, Multiply, Subtract, add,
                                           average, concatenate, maximum, minimum, multiply, subtract)
from graphlab.keras.layers.normalization import BatchNormalization, LayerNormalization
from graphlab.keras.layers.pooling import (AveragePooling1D, AveragePooling2D, AvgPool1D, AvgPool2D,
                                           GlobalAveragePooling1D, GlobalAveragePooling2D, GlobalAvgPool1D,
                                           GlobalAvgPool2D, GlobalMaxPool1D, GlobalMaxPool2D, GlobalMaxPooling1D,
                                           GlobalMaxPooling2D, MaxPool1D, MaxPool2D, MaxPooling1D, MaxPooling2D)
from graphlab.keras.layers.regularization import (ActivityRegularization, GaussianDropout, GaussianNoise,
                                                  SpatialDropout1D, SpatialDropout2D)
from graphlab.keras.layers.reshaping import (Cropping1D, Cropping2D, UpSampling1D, UpSampling2D, ZeroPadding1D,
                                             ZeroPadding2D)
from graphlab.keras.layers.recurrent import (GRU, LSTM, RNN, GRUCell, LSTMCell, SimpleRNN, SimpleRNNCell,
                                             StackedRNNCells)
from graphlab.keras.layers.wrappers import Bidirectional, TimeDistributed, Wrapper
from graphlab.keras.layers.serialization import deserialize, serialize  # noqa: E402
