"""Small helpers Keras's engine shares: names and argument inspection."""
import inspect
import re


def to_snake_case(name):
    """Conv2DTranspose -> conv2d_transpose, as Keras names layers after their class."""
    intermediate = re.sub("(.)([A-Z][a-z0-9]+)", r"\1_\2", name)
    snake = re.sub("([a-z])([A-Z])", r"\1_\2", intermediate).lower()
    return snake if snake[0] != "_" else "private" + snake


def has_arg(fn, name):
    """Whether ``fn`` takes an argument ``name`` (or **kwargs)."""
    try:
        params = inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return False
    if name in params:
        return True
    return any(p.kind == p.VAR_KEYWORD for p in params.values()) and False


def dimension_value(dim):
    """An int or None from a Dimension, an int or None."""
    return getattr(dim, "value", dim)


def normalize_tuple(value, n, name):
    """An int or an n-sequence of ints as an n-tuple (conv and pooling sizes)."""
    if isinstance(value, int):
        return (value,) * n
    try:
        value_tuple = tuple(value)
    except TypeError:
        raise ValueError("The `%s` argument must be a tuple of %d integers. Received: %s" % (name, n, value))
    if len(value_tuple) != n:
        raise ValueError("The `%s` argument must be a tuple of %d integers. Received: %s" % (name, n, value))
    for single in value_tuple:
        if not isinstance(single, int):
            raise ValueError("The `%s` argument must be a tuple of %d integers. Received: %s including element "
                             "%s of type %s" % (name, n, value, single, type(single)))
    return value_tuple
