"""``tf.errors``: the OpError family."""
from graphlab.framework.errors import *  # noqa: F401,F403
from graphlab.framework.errors import OpError  # noqa: F401
