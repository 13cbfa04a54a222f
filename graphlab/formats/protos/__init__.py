"""TensorFlow's protocol buffer messages (a subset), generated from the .proto files beside this module.

Package name, message names and field numbers match TensorFlow, so the bytes we write are the bytes TF
reads. Regenerate with regenerate.sh after editing a .proto; never edit the *_pb2.py files by hand.
"""
