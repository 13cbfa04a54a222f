"""``tf.linalg`` functions that compose other ops, built as TF 2.21 builds them: trace, eye, norm, tensordot,
adjoint / matrix_transpose, matvec, logdet, and from Svd and norms matrix_rank, pinv (the Moore-Penrose
inverse) and normalize; and the one op of the family without a better home, Cross
(``tf.cross``, with TF's gradient).
"""
import builtins

import numpy as np

from graphlab.framework import dtypes
from graphlab.framework import graph as graph_mod
from graphlab.formats.errors import InvalidArgumentError
from graphlab.ops import array_ops, math_ops
from graphlab.ops.diag_ops import matrix_diag, matrix_diag_part, matrix_set_diag
from graphlab.framework.registry import ShapeError, build_op, convert_to_tensor, merge_error, register_op


# ------------------------------------------------------------------------------------------------ Cross
def _cross_outputs(op):
    a, b = op._inputs
    for t in (a, b):
        if t._shape.ndims is not None:
            if t._shape.ndims < 1:
                raise ValueError("Shape must be at least rank 1 but is rank 0")
            last = t._shape.as_list()[-1]
            if last is not None and last != 3:
                raise ValueError("Dimension must be 3 but is %d" % last)
    if a._shape.ndims is not None and b._shape.ndims is not None:
        problem = merge_error(a._shape.as_list(), b._shape.as_list())
        if problem:
            raise ShapeError(problem)
        return [(a._dtype.base_dtype, a._shape.merge_with(b._shape))]
    return [(a._dtype.base_dtype, a._shape if a._shape.ndims is not None else b._shape)]


def _cross_kernel(ctx, a, b):
    if a.shape != b.shape:
        raise InvalidArgumentError(None, ctx.op, "Both inputs must be of same shape: %s vs. %s"
                                   % (list(a.shape), list(b.shape)))
    return np.cross(a, b).astype(a.dtype, copy=False)


register_op("Cross", inputs=["a: T", "b: T"], outputs=_cross_outputs, kernel=_cross_kernel,
            grad=lambda op, grad: [cross(op.inputs[1], grad), cross(grad, op.inputs[0])],
            doc="Pairwise cross product of 3-element vectors (the innermost axis).")


def cross(a, b, name=None):
    """``tf.cross`` / ``tf.linalg.cross``."""
    return build_op("Cross", [a, b], name=name).outputs[0]


# ----------------------------------------------------------------------------------- transposes, trace
def matrix_transpose(a, name="matrix_transpose", conjugate=False):
    """``tf.linalg.matrix_transpose``: swap the innermost two axes."""
    with graph_mod.name_scope(name, "matrix_transpose", [a]):
        a = convert_to_tensor(a, name="a")
        ndims = a.shape.ndims
        if ndims is not None:
            if ndims < 2:
                raise ValueError("Argument `a` should be a (batch) matrix with rank >= 2.  Received `a` = %s with "
                                 "shape: %s" % (a, a.shape))
            perm = list(builtins.range(ndims - 2)) + [ndims - 1, ndims - 2]
        else:
            a_rank = array_ops.rank(a)
            perm = array_ops.concat((build_op("Range", [0, a_rank - 2, 1], name="Range").outputs[0],
                                     [a_rank - 1, a_rank - 2]), 0)
        return array_ops.transpose(a, perm=perm)


def adjoint(matrix, name=None):
    """``tf.linalg.adjoint``: the conjugate transpose (the transpose, for real matrices)."""
    with graph_mod.name_scope(name, "adjoint", [matrix]):
        matrix = convert_to_tensor(matrix, name="matrix")
        return matrix_transpose(matrix, conjugate=True)


def trace(x, name=None):
    """``tf.trace`` / ``tf.linalg.trace``: the sum of each innermost matrix's diagonal."""
    with graph_mod.name_scope(name, "Trace", [x]) as scope:
        x = convert_to_tensor(x, name="x")
        return math_ops.reduce_sum(matrix_diag_part(x), [-1], name=scope)


def matvec(a, b, transpose_a=False, adjoint_a=False, a_is_sparse=False, b_is_sparse=False, name=None):
    """``tf.linalg.matvec``: matmul with b as a column, squeezed back."""
    with graph_mod.name_scope(name, "MatVec", [a, b]):
        output = math_ops.matmul(a, array_ops.expand_dims(b, axis=-1), transpose_a=transpose_a,
                                 adjoint_a=adjoint_a)
        return array_ops.squeeze(output, axis=-1)


# --------------------------------------------------------------------------------------------------- eye
def eye(num_rows, num_columns=None, batch_shape=None, dtype=dtypes.float32, name=None):
    """``tf.eye`` / ``tf.linalg.eye``: ones on the diagonal (MatrixDiagV3 of ones, or set into zeros when
    not square)."""
    with graph_mod.name_scope(name, "eye", [num_rows, num_columns, batch_shape]):
        is_square = num_columns is None
        batch_shape = [] if batch_shape is None else batch_shape
        num_columns = num_rows if num_columns is None else num_columns
        tensors = hasattr(num_rows, "_op") or hasattr(num_columns, "_op")
        if tensors:
            diag_size = math_ops.minimum(num_rows, num_columns)
        else:
            if not isinstance(num_rows, (int, np.integer)) or not isinstance(num_columns, (int, np.integer)):
                raise TypeError("Arguments `num_rows` and `num_columns` must be positive integer values. Received: "
                                "num_rows=%s, num_columns=%s" % (num_rows, num_columns))
            is_square = num_rows == num_columns
            diag_size = np.minimum(num_rows, num_columns)
        if hasattr(batch_shape, "_op") or hasattr(diag_size, "_op"):
            batch_shape = convert_to_tensor(batch_shape, name="shape", dtype=dtypes.int32)
            diag_shape = array_ops.concat((batch_shape, [diag_size]), axis=0)
            if not is_square:
                shape = array_ops.concat((batch_shape, [num_rows, num_columns]), axis=0)
        else:
            batch_shape = list(batch_shape)
            diag_shape = batch_shape + [diag_size]
            if not is_square:
                shape = batch_shape + [num_rows, num_columns]
        diag_ones = array_ops.ones(diag_shape, dtype=dtype)
        if is_square:
            return matrix_diag(diag_ones)
        return matrix_set_diag(array_ops.zeros(shape, dtype=dtype), diag_ones)


# -------------------------------------------------------------------------------------------------- norm
def norm(tensor, ord="euclidean", axis=None, keepdims=None, name=None, keep_dims=None):  # noqa: A002
    """``tf.norm`` / ``tf.linalg.norm``: vector norms (euclidean, 1, inf, any p > 0) and matrix norms
    (fro, 1, inf; the spectral norm 2 through Svd, which TF reaches through map_fn)."""
    if keepdims is not None and keep_dims is not None:
        raise ValueError("Cannot specify both 'keep_dims' and 'keepdims'.")
    keepdims = bool(keep_dims if keepdims is None else keepdims)
    is_matrix = isinstance(axis, (tuple, list)) and len(axis) == 2
    if is_matrix:
        axis = tuple(axis)
        if not isinstance(axis[0], int) or not isinstance(axis[1], int) or axis[0] == axis[1]:
            raise ValueError("'axis' must be None, an integer, or a tuple of 2 unique integers, got %s" % (axis,))
        supported = ["euclidean", "fro", 1, 2, np.inf]
        if ord not in supported:
            raise ValueError("'ord' must be a supported matrix norm in %s, got %s" % (supported, ord))
    else:
        if not (isinstance(axis, int) or axis is None):
            raise ValueError("'axis' must be None, an integer, or a tuple of 2 unique integers, got %s" % (axis,))
        supported = ["euclidean", 1, 2, np.inf]
        if (not np.isreal(ord) or ord <= 0) and ord not in supported:
            raise ValueError("'ord' must be a supported vector norm, got %s" % ord)
        if axis is not None:
            axis = (axis,)
    with graph_mod.name_scope(name, "norm", [tensor]):
        tensor = convert_to_tensor(tensor)
        if ord in ["fro", "euclidean", 2, 2.0]:
            if is_matrix and ord in [2, 2.0]:
                result = _spectral_norm(tensor, axis)
            else:
                result = math_ops.sqrt(math_ops.reduce_sum(tensor * math_ops.conj(tensor), axis, keepdims=True))
        else:
            result = math_ops.abs(tensor)
            if ord == 1:
                result = math_ops.reduce_sum(result, None if axis is None else axis[0], keepdims=True)
                if is_matrix:
                    result = math_ops.reduce_max(result, axis[-1], keepdims=True)
            elif ord == np.inf:
                if is_matrix:
                    result = math_ops.reduce_sum(result, axis[1], keepdims=True)
                result = math_ops.reduce_max(result, None if axis is None else axis[0], keepdims=True)
            else:
                result = math_ops.pow(math_ops.reduce_sum(math_ops.pow(result, ord), axis, keepdims=True),
                                      1.0 / ord)
        if not keepdims:
            result = array_ops.squeeze(result, axis)
        return result


def _spectral_norm(tensor, axis):
    """The largest singular value over the two axes, kept as size-1 axes. TF computes the permutations with
    map_fn loops; graphlab needs a known rank and computes them in Python (same values, other ops)."""
    from graphlab.ops.linalg_ops import svd
    rank = tensor.shape.ndims
    if rank is None:
        raise NotImplementedError("graphlab computes tf.norm(ord=2) over a matrix only for inputs of known rank")
    pos = [a % rank for a in axis]
    before = [i for i in builtins.range(rank) if i not in pos] + pos
    after = [before.index(i) for i in builtins.range(rank)]
    permed = array_ops.transpose(tensor, perm=before)
    largest = math_ops.reduce_max(math_ops.abs(svd(permed, compute_uv=False)), axis=-1, keepdims=True)
    return array_ops.transpose(array_ops.expand_dims(largest, axis=-1), perm=after)


# -------------------------------------------------------------------------------------------- tensordot
def _tensordot_axes(a, axes):
    shape = a.shape
    if isinstance(axes, (int, np.integer)):
        if axes < 0:
            raise ValueError("`axes` must be at least 0. Received: %d." % axes)
        if shape.ndims is not None:
            if axes > shape.ndims:
                raise ValueError("`axes` must not be larger than the number of dimensions of tensor %s.  Received "
                                 "%d, vs tensor dimensions %d." % (a, axes, shape.ndims))
            return list(builtins.range(shape.ndims - axes, shape.ndims)), list(builtins.range(axes))
        rank = array_ops.rank(a)
        return (array_ops.range(rank - axes, rank, dtype=dtypes.int32),
                array_ops.range(axes, dtype=dtypes.int32))
    if isinstance(axes, (list, tuple)):
        if len(axes) != 2:
            raise ValueError("`axes` must be an integer or have length 2. Received %s." % (axes,))
        a_axes, b_axes = axes
        if isinstance(a_axes, (int, np.integer)) and isinstance(b_axes, (int, np.integer)):
            a_axes, b_axes = [a_axes], [b_axes]
        if len(a_axes) != len(b_axes):
            raise ValueError("Different number of contraction axes `a` and `b`, %d != %d."
                             % (len(a_axes), len(b_axes)))
        return a_axes, b_axes
    axes = convert_to_tensor(axes, name="axes", dtype=dtypes.int32)
    return axes[0], axes[1]


def _tensordot_reshape(a, axes, flipped=False):
    """a transposed and reshaped to a matrix with the contracted axes last (first when flipped)."""
    if a.shape.is_fully_defined() and isinstance(axes, (list, tuple)):
        shape_a = a.shape.as_list()
        axes = [i if i >= 0 else i + len(shape_a) for i in axes]
        free = [i for i in builtins.range(len(shape_a)) if i not in axes]
        free_dims = [shape_a[i] for i in free]
        prod_free = int(np.prod([shape_a[i] for i in free]))
        prod_axes = int(np.prod([shape_a[i] for i in axes]))
        perm = list(axes) + free if flipped else free + list(axes)
        new_shape = [prod_axes, prod_free] if flipped else [prod_free, prod_axes]
        moved = array_ops.transpose(a, perm) if (np.array(perm) != np.arange(len(shape_a))).any() else a
        reshaped = array_ops.reshape(moved, new_shape) if moved.shape.as_list() != new_shape else moved
        return reshaped, free_dims, free_dims
    if a.shape.ndims is not None and isinstance(axes, (list, tuple)):
        shape_list = a.shape.as_list()
        axes = [i if i >= 0 else i + len(shape_list) for i in axes]
        free = [i for i in builtins.range(len(shape_list)) if i not in axes]
        free_static = [shape_list[i] for i in free]
        axes = convert_to_tensor(axes, dtype=dtypes.int32, name="axes")
        free = convert_to_tensor(free, dtype=dtypes.int32, name="free")
        shape_a = array_ops.shape(a)
    else:
        free_static = None
        shape_a = array_ops.shape(a)
        rank_a = array_ops.rank(a)
        axes = convert_to_tensor(axes, dtype=dtypes.int32, name="axes")
        axes = array_ops.where(axes >= 0, axes, axes + rank_a)
        free, _ = array_ops.setdiff1d(array_ops.range(rank_a), axes, dtypes.int32)
    free_dims = array_ops.gather(shape_a, free)
    axes_dims = array_ops.gather(shape_a, axes)
    prod_free = math_ops.reduce_prod(free_dims)
    prod_axes = math_ops.reduce_prod(axes_dims)
    if flipped:
        perm = array_ops.concat([axes, free], 0)
        new_shape = array_ops.stack([prod_axes, prod_free])
    else:
        perm = array_ops.concat([free, axes], 0)
        new_shape = array_ops.stack([prod_free, prod_axes])
    return array_ops.reshape(array_ops.transpose(a, perm), new_shape), free_dims, free_static


def tensordot(a, b, axes, name=None):
    """``tf.tensordot``: contraction as one MatMul between transposed, reshaped operands."""
    with graph_mod.name_scope(name, "Tensordot", [a, b, axes]) as scope:
        a = convert_to_tensor(a, name="a")
        b = convert_to_tensor(b, name="b")
        a_axes, b_axes = _tensordot_axes(a, axes)
        a_matrix, a_free, a_static = _tensordot_reshape(a, a_axes)
        b_matrix, b_free, b_static = _tensordot_reshape(b, b_axes, True)
        product = math_ops.matmul(a_matrix, b_matrix)
        if isinstance(a_free, list) and isinstance(b_free, list):
            if product.shape.is_fully_defined() and product.shape.as_list() == a_free + b_free:
                return product
            return array_ops.reshape(product, a_free + b_free, name=scope)
        a_free = convert_to_tensor(a_free, dtype=dtypes.int32)
        b_free = convert_to_tensor(b_free, dtype=dtypes.int32)
        result = array_ops.reshape(product, array_ops.concat([a_free, b_free], 0), name=scope)
        if a_static is not None and b_static is not None:
            result.set_shape(a_static + b_static)
        return result


# ------------------------------------------------------------------------------------------------ logdet
def logdet(matrix, name=None):
    """``tf.linalg.logdet``: log det of a Hermitian positive-definite matrix, from its Cholesky factor."""
    with graph_mod.name_scope(name, "logdet", [matrix]):
        chol = build_op("Cholesky", [matrix]).outputs[0]
        return 2.0 * math_ops.reduce_sum(math_ops.log(matrix_diag_part(chol)), axis=[-1])


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


__all__ = ["cross", "matrix_transpose", "adjoint", "trace", "matvec", "eye", "norm", "tensordot", "logdet"]
