"""``tf.keras.models``: the model classes."""
from graphlab.keras.engine.functional import Model
from graphlab.keras.engine.sequential import Sequential
