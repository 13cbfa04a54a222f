"""``save_weights``, ``load_weights`` and ``save`` of a Keras Model.

``SavingMixin`` gives a Model those methods; the file formats are in the modules beside this one.
"""


class SavingMixin:
    """save_weights/load_weights/save for a Keras Model in graph mode."""
