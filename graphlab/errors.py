"""``tf.errors``: the OpError family."""
from graphlab.formats.errors import *  # noqa: F401,F403
from graphlab.formats.errors import OpError  # noqa: F401
