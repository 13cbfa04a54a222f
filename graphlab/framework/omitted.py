"""Names of TensorFlow's API that graphlab leaves out on purpose (GPUs, TPUs, distributed runtimes, ...).

``omitted("tf.foo", "why")`` is a stand-in: calling it, or reading any attribute of it, raises
``tf.errors.UnimplementedError`` with the reason, so a TF1 program stops at the user's line with a sentence
that says why rather than with an AttributeError. bench/api_coverage.py counts these apart.
"""
from graphlab.formats.errors import UnimplementedError


class Omitted:
    """A deliberately left-out TF name: a function, class or module that graphlab does not provide."""

    def __init__(self, name, reason):
        self.__graphlab_omitted__ = reason
        self._name = name

    def _raise(self):
        raise UnimplementedError(None, None, "%s is not available in graphlab: %s"
                                 % (self._name, self.__graphlab_omitted__))

    def __call__(self, *args, **kwargs):
        self._raise()

    def __getattr__(self, attr):
        if attr.startswith("__"):
            raise AttributeError(attr)
        self._raise()

    def __repr__(self):
        return "<omitted %s: %s>" % (self._name, self.__graphlab_omitted__)


def omitted(name, reason):
    """A stand-in for the TF name ``name`` (e.g. ``"tf.train.Server"``) that raises UnimplementedError(reason)."""
    return Omitted(name, reason)


def omit_all(namespace, prefix, names, reason):
    """Put a stand-in for each of ``names`` (space-separated) into ``namespace``, all with one reason."""
    for name in names.split():
        namespace[name] = Omitted(prefix + name, reason)


def reason_of(obj):
    """The reason a name was left out, or None when ``obj`` is a real implementation."""
    return obj.__graphlab_omitted__ if isinstance(obj, Omitted) else None
