"""Saving Keras models: weights in TF checkpoints and HDF5 files, whole models as SavedModels."""
