"""tf.linalg functions TF builds from Svd and norms: matrix_rank, pinv (the Moore-Penrose inverse) and
normalize; their gradients are those of the ops they are made of."""
import numpy as np

from graphlab.framework import dtypes, graph as graph_mod
from graphlab.ops import array_ops, math_ops
from graphlab.framework.registry import convert_to_tensor


def matrix_rank(a, tol=None, validate_args=False, name=None):
    """``tf.linalg.matrix_rank``: how many singular values exceed ``tol`` (default eps * max(m, n) * s_max)."""
    from graphlab.ops.linalg_ops import svd
    with graph_mod.get_default_graph().name_scope(name or "matrix_rank"):
        a = convert_to_tensor(a, name="a")
        s = svd(a, compute_uv=False)
        if tol is None:
            dims = a.shape.as_list()[-2:] if a.shape.ndims is not None else [None, None]
            if None not in dims:
                m = np.max(dims)
            else:
                m = math_ops.reduce_max(array_ops.shape(a)[-2:])
            eps = np.finfo(a.dtype.as_numpy_dtype).eps
            tol = eps * math_ops.cast(m, a.dtype) * math_ops.reduce_max(s, axis=-1, keepdims=True)
        return math_ops.reduce_sum(math_ops.cast(s > tol, dtypes.int32), axis=-1)


def pinv(a, rcond=None, validate_args=False, name=None):
    """``tf.linalg.pinv``: V diag(1/s) U^H, singular values below rcond * s_max dropped."""
    from graphlab.ops.linalg_ops import svd
    with graph_mod.get_default_graph().name_scope(name or "pinv"):
        a = convert_to_tensor(a, name="a")
        dtype = a.dtype.as_numpy_dtype
        if rcond is None:
            dims = a.shape.as_list()[-2:] if a.shape.ndims is not None else [None, None]
            if None not in dims:
                max_rows_cols = float(max(dims))
            else:
                shape = array_ops.shape(a)
                max_rows_cols = math_ops.cast(math_ops.maximum(shape[-2], shape[-1]), a.dtype)
            rcond = 10. * max_rows_cols * np.finfo(dtype).eps
        rcond = convert_to_tensor(rcond, dtype=a.dtype.base_dtype, name="rcond")
        singular_values, left, right = svd(a, full_matrices=False, compute_uv=True)
        cutoff = rcond * math_ops.reduce_max(singular_values, axis=-1)
        singular_values = array_ops.where_v2(singular_values > array_ops.expand_dims(cutoff, -1), singular_values,
                                             np.array(np.inf, dtype))
        a_pinv = math_ops.matmul(right / array_ops.expand_dims(singular_values, -2), left, adjoint_b=True)
        if a.shape.ndims is not None:
            a_pinv.set_shape(a.shape[:-2].concatenate([a.shape[-1], a.shape[-2]]))
        return a_pinv


def normalize(tensor, ord="euclidean", axis=None, name=None):  # noqa: A002
    """``tf.linalg.normalize``: (tensor / its norm, the norm) with the norm's axes kept."""
    from graphlab.ops.linalg_impl import norm as norm_fn
    with graph_mod.name_scope(name, "normalize", [tensor]):
        tensor = convert_to_tensor(tensor)
        norm = norm_fn(tensor, ord, axis, keepdims=True)
        norm = math_ops.cast(norm, tensor.dtype)
        return tensor / norm, norm
