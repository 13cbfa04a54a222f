"""What ``compile``, ``fit``, ``evaluate``, ``predict`` and the ``*_on_batch`` methods build and run.

``TrainingMixin`` gives a Model those methods; the Model class itself (layers, inputs, outputs, weights) is
in the engine's functional module, so building a model and training it can be read apart.
"""


class TrainingMixin:
    """compile/fit/evaluate/predict for a Keras Model in graph mode."""
