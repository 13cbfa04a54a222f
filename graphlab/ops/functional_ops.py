"""``tf.map_fn``, ``tf.scan``, ``tf.foldl`` and ``tf.foldr`` as TF1 builds them: a ``tf.while_loop`` over the
first dimension of ``elems``, reading one element per iteration from a TensorArray (``unstack``) and, for
map_fn and scan, writing one result per iteration into another (``stack`` afterwards). The function is
called once, to build the loop body; ``maximum_iterations`` is the number of elements.

While they build the loop, variables made by the function are read where they are used (TF sets the
variable scope's caching device for the time of the call), as in TF.
"""
import contextlib

from graphlab.framework import graph as graph_mod, nest, tensor_shape
from graphlab.framework import registry
from graphlab.ops.tensor_array import TensorArray
from graphlab.ops.while_loop import while_loop


def _check_callable(fn):
    if not callable(fn):
        raise TypeError("%s is not callable. Please provide a callable function." % getattr(fn, "__name__", fn))


@contextlib.contextmanager
def _caching_device_of_readers():
    """TF's functional ops cache a variable's value on the device of the op that reads it while they build
    their loop (graphlab has one device; kept so the scope's setting is what TF's would be)."""
    from graphlab.ops.variable_scope import get_variable_scope
    scope = get_variable_scope()
    unset = scope.caching_device is None
    if unset:
        scope.set_caching_device(lambda op: op.device)
    try:
        yield
    finally:
        if unset:
            scope.set_caching_device(None)


def _first_dim(t):
    """The static size of ``t``'s first dimension, or None (TF's dimension_value(t.shape[0]))."""
    return t.shape.with_rank_at_least(1).as_list()[0]


def _dynamic_length(t):
    """The first dimension of ``t``'s shape, as a tensor (``tf.shape(t)[0]``)."""
    from graphlab.ops import array_ops
    return array_ops.shape(t)[0]


def map_fn(fn, elems, dtype=None, parallel_iterations=None, back_prop=True, swap_memory=False, infer_shape=True,
           name=None, fn_output_signature=None):
    """``tf.map_fn``: ``fn`` applied to each element of ``elems`` along its first dimension, the results
    stacked. ``dtype`` (or ``fn_output_signature``) gives the results' dtypes when they differ from
    ``elems``'."""
    if fn_output_signature is None:
        fn_output_signature = dtype
    if not callable(fn):
        raise TypeError("The provided function %s is not callable.fn must be callable."
                        % getattr(fn, "__name__", fn))
    if not parallel_iterations:
        parallel_iterations = 10
    elems_flat = nest.flatten(elems)
    if not elems_flat:
        raise ValueError("elems must be a Tensor or (possibly nested) sequence of Tensors. Got %s, which does not "
                         "contain any Tensors." % (elems,))
    if fn_output_signature is None:
        result_dtypes = None
        result_unflatten = lambda x: nest.pack_sequence_as(elems, x)  # noqa: E731
    else:
        from graphlab.framework import dtypes
        result_dtypes = [dtypes.as_dtype(d) for d in nest.flatten(fn_output_signature)]
        result_unflatten = lambda x: nest.pack_sequence_as(fn_output_signature, x)  # noqa: E731
    with graph_mod.name_scope(name, "map", [e for e in elems_flat if hasattr(e, "graph")]), \
            _caching_device_of_readers():
        elems_flat = [registry.convert_to_tensor(t, name="elem") for t in elems_flat]
        first = elems_flat[0]
        if first.shape.ndims is not None and first.shape.ndims < 1:
            raise ValueError("Elements in elems must be 1+ dimensional Tensors, not scalars")
        n_static = tensor_shape.Dimension(first.shape.with_rank_at_least(1).as_list()[0])
        for t in elems_flat[1:]:
            n_static.assert_is_compatible_with(tensor_shape.Dimension(t.shape.with_rank_at_least(1).as_list()[0]))
        n = n_static.value or _dynamic_length(first)
        elems_ta = [TensorArray(dtype=t.dtype, size=n, dynamic_size=False, infer_shape=True) for t in elems_flat]
        elems_ta = [ta.unstack(t) for ta, t in zip(elems_ta, elems_flat)]
        i = registry.constant(0)
        out_dtypes = result_dtypes or [t.dtype for t in elems_flat]
        result_ta = [TensorArray(dtype=dt, size=n, dynamic_size=False, infer_shape=infer_shape)
                     for dt in out_dtypes]

        def compute(i, tas):
            value = nest.pack_sequence_as(elems, [ta.read(i) for ta in elems_ta])
            result = fn(value)
            nest.assert_same_structure(fn_output_signature or elems, result)
            tas = [ta.write(i, v) for ta, v in zip(tas, nest.flatten(result))]
            return i + 1, tas
        _, r_a = while_loop(lambda i, _: i < n, compute, (i, result_ta), parallel_iterations=parallel_iterations,
                            back_prop=back_prop, swap_memory=swap_memory, maximum_iterations=n)
        results = [r.stack() for r in r_a]
        for r in results:
            r.set_shape(tensor_shape.TensorShape([n_static.value]).concatenate(r.shape[1:]))
        return result_unflatten(results)


def scan(fn, elems, initializer=None, parallel_iterations=10, back_prop=True, swap_memory=False, infer_shape=True,
         reverse=False, name=None):
    """``tf.scan``: every intermediate value of ``a = fn(a, element)`` over the elements of ``elems``
    (from the end with ``reverse``), starting from ``initializer`` (else from the first element)."""
    _check_callable(fn)
    input_is_sequence = nest.is_nested(elems)

    def input_pack(x):
        return nest.pack_sequence_as(elems, x) if input_is_sequence else x[0]
    if initializer is None:
        output_is_sequence, output_pack = input_is_sequence, input_pack
    else:
        output_is_sequence = nest.is_nested(initializer)

        def output_pack(x):
            return nest.pack_sequence_as(initializer, x) if output_is_sequence else x[0]

    def output_flatten(x):
        return nest.flatten(x) if output_is_sequence else [x]
    elems_flat = nest.flatten(elems) if input_is_sequence else [elems]
    with graph_mod.name_scope(name, "scan", [e for e in elems_flat if hasattr(e, "graph")]), \
            _caching_device_of_readers():
        elems_flat = [registry.convert_to_tensor(t, name="elem") for t in elems_flat]
        n = _first_dim(elems_flat[0])
        if n is None:
            n = _dynamic_length(elems_flat[0])
        elems_ta = [TensorArray(dtype=t.dtype, size=n, dynamic_size=False, element_shape=t.shape[1:],
                                infer_shape=True).unstack(t) for t in elems_flat]
        if initializer is None:
            a_flat = [ta.read(n - 1 if reverse else 0) for ta in elems_ta]
            i = 1
        else:
            a_flat = [registry.convert_to_tensor(x) for x in output_flatten(initializer)]
            i = 0
        accs_ta = [TensorArray(dtype=a.dtype, size=n, element_shape=a.shape if infer_shape else None,
                               dynamic_size=False, infer_shape=infer_shape) for a in a_flat]
        if initializer is None:
            accs_ta = [ta.write(n - 1 if reverse else 0, a) for ta, a in zip(accs_ta, a_flat)]

        def compute(i, a_flat, tas):
            packed_elems = input_pack([ta.read(i) for ta in elems_ta])
            a_out = fn(output_pack(a_flat), packed_elems)
            nest.assert_same_structure(elems if initializer is None else initializer, a_out)
            flat_a_out = output_flatten(a_out)
            tas = [ta.write(i, v) for ta, v in zip(tas, flat_a_out)]
            return (i - 1 if reverse else i + 1), flat_a_out, tas
        if reverse:
            initial_i = n - 1 - i
            condition = lambda i, _1, _2: i >= 0  # noqa: E731
        else:
            initial_i = i
            condition = lambda i, _1, _2: i < n  # noqa: E731
        _, _, r_a = while_loop(condition, compute, (initial_i, a_flat, accs_ta),
                               parallel_iterations=parallel_iterations, back_prop=back_prop,
                               swap_memory=swap_memory, maximum_iterations=n)
        results = [r.stack() for r in r_a]
        n_static = tensor_shape.Dimension(elems_flat[0].shape.with_rank_at_least(1).as_list()[0])
        for t in elems_flat[1:]:
            n_static.assert_is_compatible_with(tensor_shape.Dimension(t.shape.with_rank_at_least(1).as_list()[0]))
        for r in results:
            r.set_shape(tensor_shape.TensorShape([n_static.value]).concatenate(r.shape[1:]))
        return output_pack(results)


def _fold(fn, elems, initializer, parallel_iterations, back_prop, swap_memory, name, default_name, right):
    _check_callable(fn)
    with graph_mod.name_scope(name, default_name, [e for e in nest.flatten(elems) if hasattr(e, "graph")]), \
            _caching_device_of_readers():
        elems_flat = [registry.convert_to_tensor(t, name="elem") for t in nest.flatten(elems)]
        n = _first_dim(elems_flat[0]) or _dynamic_length(elems_flat[0])

        def create_ta(elem):
            return TensorArray(dtype=elem.dtype, size=n, dynamic_size=False, infer_shape=True).unstack(elem)
        elems_ta = nest.map_structure(create_ta, elems)
        if right:
            if initializer is None:
                i = n - 1
                a = nest.map_structure(lambda ta: ta.read(i), elems_ta)
            else:
                i, a = n, initializer

            def compute(i, a):
                i -= 1
                return [i, fn(a, nest.map_structure(lambda ta: ta.read(i), elems_ta))]
            condition = lambda i, a: i > 0  # noqa: E731
        else:
            if initializer is None:
                a = nest.map_structure(lambda ta: ta.read(0), elems_ta)
                i = registry.constant(1)
            else:
                a, i = initializer, registry.constant(0)

            def compute(i, a):
                a = fn(a, nest.map_structure(lambda ta: ta.read(i), elems_ta))
                return [i + 1, a]
            condition = lambda i, a: i < n  # noqa: E731
        _, r_a = while_loop(condition, compute, [i, a], parallel_iterations=parallel_iterations,
                            back_prop=back_prop, swap_memory=swap_memory, maximum_iterations=n)
        return r_a


def foldl(fn, elems, initializer=None, parallel_iterations=10, back_prop=True, swap_memory=False, name=None):
    """``tf.foldl``: ``a = fn(a, element)`` over the elements of ``elems`` from the first; the final ``a``."""
    return _fold(fn, elems, initializer, parallel_iterations, back_prop, swap_memory, name, "foldl", right=False)


def foldr(fn, elems, initializer=None, parallel_iterations=10, back_prop=True, swap_memory=False, name=None):
    """``tf.foldr``: ``a = fn(a, element)`` over the elements of ``elems`` from the last; the final ``a``."""
    return _fold(fn, elems, initializer, parallel_iterations, back_prop, swap_memory, name, "foldr", right=True)


__all__ = ["map_fn", "scan", "foldl", "foldr"]
