"""``Dataset.from_generator`` as TF 2.21 builds it in graph mode: ``TensorDataset`` of a dummy 0, then
``flat_map`` to a ``GeneratorDataset`` whose three functions (init: a new iterator id; next: the next element;
finalize: forget the iterator) call Python through ``PyFunc``. The generator is called anew for each
iteration; its values are converted to the declared types, and a value that does not fit is an
InvalidArgumentError naming the generator."""
import itertools
import threading

import numpy as np

from graphlab.data.functions import flatten, pack
from graphlab.framework import dtypes, tensor_shape
from graphlab.formats.errors import InvalidArgumentError, OutOfRangeError
from graphlab.framework.registry import build_op


class _GeneratorState:
    """Live Python iterators by id, as TF's ``_GeneratorState``."""

    def __init__(self, generator, args):
        self.generator, self.args = generator, args
        self.iterators = {}
        self.ids = itertools.count()
        self.lock = threading.Lock()

    def new_id(self, *arg_values):
        with self.lock:
            key = next(self.ids)
            self.iterators[key] = iter(self.generator(*arg_values))
        return np.int64(key)

    def next(self, key):
        it = self.iterators.get(int(key))
        if it is None:
            raise OutOfRangeError(None, None, "End of sequence")
        try:
            return next(it)
        except StopIteration:
            raise OutOfRangeError(None, None, "End of sequence") from None

    def finalize(self, key):
        self.iterators.pop(int(key), None)
        return np.int64(key)


def from_generator(dataset_cls, spec_cls, generator, output_types, output_shapes, args):
    from graphlab.ops import script_ops
    from graphlab.framework.registry import convert_to_tensor
    if not callable(generator):
        raise TypeError("`generator` must be a Python callable.")
    types = [dtypes.as_dtype(t) for t in flatten(output_types)]
    shapes = ([tensor_shape.as_shape(s) for s in flatten_shapes(output_types, output_shapes)]
              if output_shapes is not None else [tensor_shape.UNKNOWN] * len(types))
    specs = [spec_cls(t, s) for t, s in zip(types, shapes)]
    structure = pack(output_types, specs)
    state = _GeneratorState(generator, ())
    arg_tensors = [convert_to_tensor(a) for a in (args or ())]

    def get_iterator_id_fn(dummy, *arg_values):
        return script_ops.py_func(lambda *vals: state.new_id(*[_plain(v) for v in vals]), list(arg_values),
                                  dtypes.int64)

    def generator_next_fn(iterator_id):
        def next_values(key):
            values = flatten_values(output_types, state.next(key))
            if len(values) != len(types):
                raise InvalidArgumentError(None, None, "`generator` yielded an element that did not match the "
                                           "expected structure (%d components, expected %d)." % (len(values), len(types)))
            out = []
            for v, t, s in zip(values, types, shapes):
                try:
                    arr = np.asarray(v, dtype=object if t == dtypes.string else t.as_numpy_dtype)
                except (TypeError, ValueError):
                    raise InvalidArgumentError(None, None, "`generator` yielded an element that could not be "
                                               "converted to the expected type. The expected type was %s, but the "
                                               "yielded element was %r." % (t.name, v)) from None
                if not s.is_compatible_with(tensor_shape.TensorShape(arr.shape)):
                    raise InvalidArgumentError(None, None, "`generator` yielded an element of shape %s where an "
                                               "element of shape %s was expected." % (list(arr.shape), s))
                out.append(arr)
            return out
        outs = script_ops.py_func(next_values, [iterator_id], types)
        outs = outs if isinstance(outs, list) else [outs]
        for t, s in zip(outs, shapes):
            t.set_shape(s)
        return pack(output_types, outs) if len(outs) > 1 or isinstance(output_types, (tuple, dict)) else outs[0]

    def finalize_fn(iterator_id):
        return script_ops.py_func(state.finalize, [iterator_id], dtypes.int64)

    dummy = dataset_cls.from_tensors(0)

    def flat_map_fn(dummy_arg):
        from graphlab.data.functions import TracedFunction
        from graphlab.framework import graph as graph_mod
        graph = graph_mod.get_default_graph()
        arg_specs = [dummy_arg] + arg_tensors

        def call(f, a):
            return f(*a)
        init = TracedFunction(graph, get_iterator_id_fn, "from_generator_get_iterator_id_fn",
                              [t.dtype.base_dtype for t in arg_specs], [t.shape for t in arg_specs], call)
        nxt = TracedFunction(graph, generator_next_fn, "from_generator_generator_next_fn", [dtypes.int64],
                             [tensor_shape.SCALAR], call)
        fin = TracedFunction(graph, finalize_fn, "from_generator_finalize_fn", [dtypes.int64],
                             [tensor_shape.SCALAR], call)
        attrs = {"init_func": init, "next_func": nxt, "finalize_func": fin,
                 "Tinit_func_args": [t.dtype.base_dtype for t in arg_specs] + [t.dtype.base_dtype for t in init.captured],
                 "Tnext_func_args": [t.dtype.base_dtype for t in nxt.captured],
                 "Tfinalize_func_args": [t.dtype.base_dtype for t in fin.captured],
                 "output_types": types, "output_shapes": shapes, "metadata": ""}
        op = build_op("GeneratorDataset", [list(arg_specs) + init.captured + nxt.captured + fin.captured], attrs=attrs)
        return dataset_cls(op.outputs[0], structure)
    return dummy.flat_map(flat_map_fn)


def _plain(v):
    v = np.asarray(v)
    if v.dtype == object and v.ndim == 0:
        return v[()]
    return v[()] if v.ndim == 0 else v


def flatten_shapes(structure, values):
    if isinstance(structure, dict):
        return [v for k in sorted(structure) for v in flatten_shapes(structure[k], values[k])]
    if isinstance(structure, tuple):
        return [v for s, x in zip(structure, values) for v in flatten_shapes(s, x)]
    return [values]


def flatten_values(structure, value):
    """A yielded element in flat order (tuples and dicts as in ``output_types``)."""
    if isinstance(structure, dict):
        return [v for k in sorted(structure) for v in flatten_values(structure[k], value[k])]
    if isinstance(structure, tuple):
        if not isinstance(value, (tuple, list)) or len(value) != len(structure):
            raise InvalidArgumentError(None, None, "`generator` yielded an element that did not match the expected "
                                       "structure. The expected structure was %r, but the yielded element was %r."
                                       % (structure, value))
        return [v for s, x in zip(structure, value) for v in flatten_values(s, x)]
    return [value]
