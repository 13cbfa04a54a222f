"""``tf.keras`` as TF 1.15 ran it in graph mode: layers and models that build ops in the default graph, and
``compile``/``fit`` that run them in the session behind ``tf.keras.backend.get_session()``.

The reference is tf-keras 2.21 under ``tf.compat.v1`` with v2 behaviour disabled (``TF_USE_LEGACY_KERAS=1``):
the same op names, variable names (``dense/kernel:0``), resource variables and files.

Where things live, as in Keras's own package:
* ``backend``: the session, the learning phase, ``K.function`` and the small tensor helpers;
* ``engine/``: the base Layer, Input, the functional Model and Sequential; ``engine/training.py`` holds what
  ``compile``, ``fit``, ``evaluate`` and ``predict`` build and run;
* ``layers/``, ``activations``, ``initializers``, ``regularizers``, ``constraints``: what a model is made of;
* ``losses``, ``metrics``, ``optimizers``, ``callbacks``: what training adds to the graph and around it;
* ``saving/``: weights in TF checkpoints and HDF5, whole models as SavedModels;
* ``datasets/``: the classic data sets, read from Keras's cache directory.
"""

from graphlab.keras import activations, backend, constraints, initializers, layers, models, regularizers, utils
from graphlab.keras import callbacks, losses, metrics, optimizers  # noqa: E402
from graphlab.keras import datasets  # noqa: F401
from graphlab.keras.engine.functional import Model
from graphlab.keras.engine.input_layer import Input
from graphlab.keras.engine.sequential import Sequential
