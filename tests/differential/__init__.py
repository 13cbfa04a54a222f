"""Differential test: generated TF1 programs run in graphlab and in the reference TensorFlow, compared."""
