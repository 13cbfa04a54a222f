"""``tf.keras.utils``: to_categorical and the helpers Keras's layers share."""
from graphlab.keras.utils.np_utils import normalize, to_categorical
from graphlab.keras.utils.generic_utils import Progbar  # noqa: E402,F401
