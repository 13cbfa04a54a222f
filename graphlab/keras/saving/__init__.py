"""Saving Keras models: weights in TF checkpoints and HDF5 files, whole models in HDF5 and as SavedModels."""
from graphlab.keras.saving.save import load_model, save_model  # noqa: F401
