"""Keras's Embedding: a [input_dim, output_dim] weight looked up by integer ids (cast to int32 first when
they are another type), ``embedding/embedding_lookup``; with ``mask_zero`` the ids that are 0 are masked
(``embedding/NotEqual``) for the layers after it."""
from graphlab.keras import backend, constraints, initializers, regularizers
from graphlab.keras.engine.base_layer import Layer
from graphlab.keras.layers.core import _serialize
from graphlab.ops import math_ops, nn_impl


class Embedding(Layer):
    """Map each id in [0, input_dim) to a trainable vector of ``output_dim`` floats."""

    def __init__(self, input_dim, output_dim, embeddings_initializer="uniform", embeddings_regularizer=None,
                 activity_regularizer=None, embeddings_constraint=None, mask_zero=False, input_length=None,
                 **kwargs):
        if "input_shape" not in kwargs:
            kwargs["input_shape"] = (input_length,) if input_length else (None,)
        if input_dim <= 0 or output_dim <= 0:
            raise ValueError("Both `input_dim` and `output_dim` should be positive, Received input_dim = %s and "
                             "output_dim = %s" % (input_dim, output_dim))
        kwargs.setdefault("dtype", backend.floatx())
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        self.input_dim, self.output_dim = input_dim, output_dim
        self.embeddings_initializer = initializers.get(embeddings_initializer)
        self.embeddings_regularizer = regularizers.get(embeddings_regularizer)
        self.embeddings_constraint = constraints.get(embeddings_constraint)
        self.mask_zero = mask_zero
        self.supports_masking = mask_zero
        self.input_length = input_length

    def build(self, input_shape=None):
        self.embeddings = self.add_weight(shape=(self.input_dim, self.output_dim),
                                          initializer=self.embeddings_initializer, name="embeddings",
                                          regularizer=self.embeddings_regularizer,
                                          constraint=self.embeddings_constraint)
        self.built = True

    def compute_mask(self, inputs, mask=None):
        if not self.mask_zero:
            return None
        return math_ops.not_equal(inputs, 0)

    def call(self, inputs):
        if backend.dtype(inputs) not in ("int32", "int64"):
            inputs = math_ops.cast(inputs, "int32")
        return nn_impl.embedding_lookup(self.embeddings, inputs)

    def get_config(self):
        config = super().get_config()
        config.update({"input_dim": self.input_dim, "output_dim": self.output_dim,
                       "embeddings_initializer": _serialize(self.embeddings_initializer, initializers),
                       "embeddings_regularizer": _serialize(self.embeddings_regularizer, regularizers),
                       "activity_regularizer": _serialize(self.activity_regularizer, regularizers),
                       "embeddings_constraint": _serialize(self.embeddings_constraint, constraints),
                       "mask_zero": self.mask_zero, "input_length": self.input_length})
        return config
