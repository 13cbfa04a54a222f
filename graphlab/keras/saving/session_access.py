"""The session that holds a Keras model's variable values: the Keras backend's (``K.get_session()``, which
also initializes variables not yet initialized, as tf-keras's saving does through it)."""
from graphlab.framework import default_stacks


def get_session():
    try:
        from graphlab.keras import backend
    except ImportError:
        backend = None
    getter = getattr(backend, "get_session", None)
    if getter is not None:
        return getter()
    session = default_stacks.get_default_session()
    if session is None:
        raise RuntimeError("No session holds the model's variables: run inside `with tf.Session() as sess:` "
                           "or set one with tf.keras.backend.set_session(sess).")
    return session
