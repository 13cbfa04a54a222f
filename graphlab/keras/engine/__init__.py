"""Keras's engine: the base Layer, Input, the functional Model, Sequential, and training."""
