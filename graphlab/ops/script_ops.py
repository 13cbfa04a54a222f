"""``tf.py_func``: a PyFunc op that calls a Python function inside ``Session.run``.

The graph stores only a token (``pyfunc_0``, ``pyfunc_1`` ...) naming the function in this process's
registry, as TF does. A graph loaded elsewhere keeps the token but not the function: running the op then
fails as in TensorFlow (InvalidArgumentError "ValueError: Could not find callback with key=pyfunc_0 in the
registry."), and nothing from the file is ever executed. This is why graphs holding
py_func cannot be served.
"""
import itertools
import threading

import numpy as np

from graphlab.framework import dtypes, tensor_shape
from graphlab.formats.errors import InvalidArgumentError
from graphlab.framework.registry import NOT_DIFFERENTIABLE, build_op, register_op

_FUNCS = {}
_COUNTER = itertools.count()
_LOCK = threading.Lock()


def _register(func):
    with _LOCK:
        token = "pyfunc_%d" % next(_COUNTER)
        _FUNCS[token] = func
    return token


def _py_func_kernel(ctx, *args):
    token = ctx.attrs["token"]
    func = _FUNCS.get(token)
    if func is None:
        # TF 2.21's words (its PyFunc kernel turns the callback registry's ValueError into InvalidArgument;
        # TF 1.x said "callback pyfunc_0 is not found"). A C++ server has no PyFunc kernel at all.
        raise InvalidArgumentError(None, ctx.op, "ValueError: Could not find callback with key=%s in the "
                                   "registry." % token)
    # the function gets its own arrays, which it may change: never a Const's value, a kept result or
    # another op's output that later ops still read
    result = func(*[a.copy() if isinstance(a, np.ndarray) else a for a in args])
    touts = ctx.attrs["Tout"]
    if not touts:
        return None
    values = [result] if len(touts) == 1 and not isinstance(result, (list, tuple)) else list(result)
    if len(touts) == 1 and isinstance(result, (list, tuple)) and len(values) != 1:
        values = [result]
    if len(values) != len(touts):
        raise InvalidArgumentError(None, ctx.op, "%s returns %d values, but expects to see %d values." %
                                   (token, len(values), len(touts)))
    out = []
    for v, dt in zip(values, touts):
        arr = np.asarray(v) if dt != dtypes.string else np.asarray(v, dtype=object)
        if dt != dtypes.string and arr.dtype != dt.as_numpy_dtype:
            raise InvalidArgumentError(None, ctx.op, "%s returns a value of type %s, but the op declares Tout %s." %
                                       (token, arr.dtype, dt.name))
        out.append(arr)
    return out[0] if len(out) == 1 else tuple(out)


register_op(
    "PyFunc",
    inputs=["input: list"],
    outputs=lambda op: [(dt, tensor_shape.UNKNOWN) for dt in op._attrs["Tout"]],
    kernel=_py_func_kernel,
    grad=NOT_DIFFERENTIABLE,
    stateful=True,
    doc="Calls a Python function registered in this process (by token) on numpy values.")


def py_func(func, inp, Tout, stateful=True, name=None):  # noqa: N803  (TF's argument name)
    """``tf.py_func``: outputs ``func(*values of inp)``; ``Tout`` a dtype or list of dtypes."""
    single = not isinstance(Tout, (list, tuple))
    touts = [dtypes.as_dtype(t).base_dtype for t in ([Tout] if single else Tout)]
    token = _register(func)
    op = build_op("PyFunc", [list(inp)], attrs={"token": token, "Tout": touts},
                  name=name, default_name="PyFunc")
    if single:
        return op.outputs[0]
    return op.outputs


__all__ = ["py_func"]
