"""``tf.keras.models``: the model classes."""
from graphlab.keras.engine.functional import Model
from graphlab.keras.engine.sequential import Sequential
from graphlab.keras.saving.save import load_model, save_model  # noqa: F401
