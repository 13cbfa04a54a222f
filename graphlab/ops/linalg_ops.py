"""Matrix decompositions and solvers over the innermost two axes (batched): MatrixInverse, MatrixDeterminant,
LogMatrixDeterminant, Cholesky, MatrixTriangularSolve, MatrixSolve, MatrixSolveLs, SelfAdjointEigV2, Svd and
Qr, with TF's gradient rules (linalg_grad.py) and the Python functions TF builds around them
(``tf.cholesky_solve``, ``tf.matrix_solve_ls``, ``tf.linalg.logdet`` ...).

The LU and Cholesky based kernels (inverse, determinants, solves, Cholesky, least squares) compute in the
input's own dtype, with the unblocked algorithms of the Eigen decompositions TF's CPU kernels use (partial
pivoting LU, LLT): a float32 normal equation rounds as in TF, not as float64 would. The iterative ones
(SelfAdjointEigV2, Svd, Qr) use numpy.linalg in float64 and cast back (numpy computes every LAPACK call in
double). As TF's CPU kernels: a failed Cholesky gives NaN in the lower triangle, a triangular solve divides
by a zero diagonal (inf), while MatrixInverse and MatrixSolve raise "not invertible".
"""
import numpy as np

from graphlab.framework import dtypes, tensor_shape
from graphlab.framework import graph as graph_mod
from graphlab.formats.errors import InvalidArgumentError
from graphlab.ops import array_ops, control_flow_ops, math_ops
from graphlab.ops.diag_ops import matrix_band_part, matrix_diag, matrix_diag_part, matrix_set_diag
from graphlab.framework.registry import build_op, convert_to_tensor, register_op

_FLOATS = (dtypes.float64, dtypes.float32, dtypes.float16, dtypes.complex64, dtypes.complex128)


# ---------------------------------------------------------------------------------------------- helpers
def _check_float(op, arg="input"):
    t = op._inputs[0]._dtype.base_dtype
    if t not in _FLOATS:
        raise TypeError("Value passed to parameter '%s' has DataType %s not in list of allowed values: float64, "
                        "float32, float16, complex64, complex128" % (arg, t.name))


def _matrix_dims(shape, square=False):
    """Static checks of a batch of matrices; the dims list (None for unknown rank)."""
    if shape.ndims is None:
        return None
    if shape.ndims < 2:
        raise ValueError("Shape must be at least rank 2 but is rank %d" % shape.ndims)
    dims = shape.as_list()
    if square and None not in dims[-2:] and dims[-1] != dims[-2]:
        raise ValueError("Dimensions must be equal, but are %d and %d" % (dims[-2], dims[-1]))
    return dims


def _square_same(op):
    _check_float(op)
    x = op._inputs[0]
    _matrix_dims(x._shape, square=True)
    return [(x._dtype.base_dtype, x._shape)]


def _run_checks(ctx, x, square=True):
    if x.ndim < 2:
        raise InvalidArgumentError(None, ctx.op, "Input tensor 0 must have rank >= 2, got %d" % x.ndim)
    if square and x.shape[-1] != x.shape[-2]:
        raise InvalidArgumentError(None, ctx.op, "Input matrix must be square.")


def _wide(x):
    """Compute in float64 (complex128) and return a function casting results back to x's type."""
    wide = np.complex128 if x.dtype.kind == "c" else np.float64
    return x.astype(wide), (lambda v: np.asarray(v).astype(x.dtype))


def _lu(m):
    """Eigen's unblocked PartialPivLU of one square matrix, in its own dtype: (lu, perm, swaps) with the
    unit-lower L below the diagonal and U on and above it, ``m[perm] = L U``."""
    lu = np.array(m, copy=True)
    n = lu.shape[0]
    perm = np.arange(n)
    swaps = 0
    for k in range(n):
        p = k + int(np.argmax(np.abs(lu[k:, k])))     # the first largest, as Eigen's maxCoeff
        if lu[p, k] != 0:
            if p != k:
                lu[[k, p]] = lu[[p, k]]
                perm[[k, p]] = perm[[p, k]]
                swaps += 1
            lu[k + 1:, k] /= lu[k, k]
        if k < n - 1:
            lu[k + 1:, k + 1:] -= np.outer(lu[k + 1:, k], lu[k, k + 1:])
    return lu, perm, swaps


def _lu_solve(lu, perm, b):
    """x with (P^-1 L U) x = b: forward substitution with the unit-lower L, back substitution with U."""
    x = np.array(b[perm], copy=True)
    n = lu.shape[0]
    with np.errstate(divide="ignore", invalid="ignore"):
        for i in range(1, n):
            x[i] -= lu[i, :i] @ x[:i]
        for i in range(n - 1, -1, -1):
            x[i] = (x[i] - lu[i, i + 1:] @ x[i + 1:]) / lu[i, i]
    return x


def _invertible(lu):
    return lu.shape[0] == 0 or np.min(np.abs(np.diagonal(lu))) > 0


def _cholesky_one(m):
    """Eigen's unblocked LLT (lower) of one matrix in its own dtype, or None when it is not positive
    definite."""
    l = np.tril(np.array(m, copy=True))  # noqa: E741  (L, as the formulas write it)
    n = l.shape[0]
    for k in range(n):
        x = l[k, k].real - (np.vdot(l[k, :k], l[k, :k]).real if k else 0)
        if not x > 0:
            return None
        x = np.sqrt(l.real.dtype.type(x))
        l[k, k] = x
        if k + 1 < n:
            if k:
                l[k + 1:, k] -= l[k + 1:, :k] @ np.conj(l[k, :k])
            l[k + 1:, k] /= x
    return l


def _each_matrix(fn, *arrays):
    """``fn`` applied to each matrix of a batch (the leading axes of the first array)."""
    batch = arrays[0].shape[:-2]
    flats = [a.reshape((-1,) + a.shape[-2:]) if a.ndim > 2 else a[None] for a in arrays]
    results = [fn(*ms) for ms in zip(*flats)]
    return results, batch


def _batch_shape(a, b):
    """Broadcast batch dims of two matrix batches (TF 2's solvers broadcast them)."""
    try:
        return list(np.broadcast_shapes(tuple(a[:-2]), tuple(b[:-2])))
    except ValueError:
        raise ValueError("Incompatible batch dimensions: %s and %s" % (a[:-2], b[:-2])) from None


def _static_batch(a, b):
    if a is None or b is None:
        return None
    batch = []
    da, db = a[:-2], b[:-2]
    n = max(len(da), len(db))
    da, db = [1] * (n - len(da)) + da, [1] * (n - len(db)) + db
    for x, y in zip(da, db):
        if x == 1:
            batch.append(y)
        elif y == 1 or y is None:
            batch.append(x if y != 1 else x)
        elif x is None:
            batch.append(y)
        elif x != y:
            raise ValueError("Dimensions must be equal, but are %d and %d" % (x, y))
        else:
            batch.append(x)
    return batch


# ------------------------------------------------------------------------------------------ MatrixInverse
def _inverse_kernel(ctx, x):
    _run_checks(ctx, x)
    if ctx.attrs["adjoint"]:
        x = np.conj(np.swapaxes(x, -1, -2))

    def inverse(m):
        lu, perm, _ = _lu(m)
        if not _invertible(lu):
            raise InvalidArgumentError(None, ctx.op, "Input is not invertible.")
        return _lu_solve(lu, perm, np.eye(m.shape[0], dtype=m.dtype))
    results, batch = _each_matrix(inverse, x)
    return np.array(results, dtype=x.dtype).reshape(x.shape)


def _inverse_grad(op, grad):
    """TF's _MatrixInverseGrad: -inv^H grad inv^H (with the adjoint flags)."""
    ainv = op.outputs[0]
    adj = op._attrs["adjoint"]
    return [-math_ops.matmul(ainv, math_ops.matmul(grad, ainv, adjoint_a=adj, adjoint_b=not adj),
                             adjoint_a=not adj)]


register_op("MatrixInverse", inputs=["input: T"], outputs=_square_same, kernel=_inverse_kernel, grad=_inverse_grad,
            doc="The inverse (of the adjoint, with adjoint=True) of each square matrix.")


# ------------------------------------------------------------------------------- MatrixDeterminant, slogdet
def _det_outputs(op):
    _check_float(op)
    x = op._inputs[0]
    dims = _matrix_dims(x._shape, square=True)
    shape = tensor_shape.UNKNOWN if dims is None else tensor_shape.TensorShape(dims[:-2])
    return [(x._dtype.base_dtype, shape)]


def _sign_and_log_abs_det(m):
    """TF's determinant kernels: from the pivoted LU in m's dtype, the sign (the permutation's times the
    diagonal's) and the sum of log |diagonal|; 1 and 0 for an empty matrix."""
    if m.shape[0] == 0:
        return m.dtype.type(1), m.real.dtype.type(0)
    lu, _, swaps = _lu(m)
    diag = np.diagonal(lu)
    magnitude = np.abs(diag)
    with np.errstate(divide="ignore", invalid="ignore"):
        log_abs = np.sum(np.log(magnitude))
        sign = (-1 if swaps % 2 else 1) * np.prod(diag / magnitude)
    return m.dtype.type(sign), log_abs


def _det_kernel(ctx, x):
    _run_checks(ctx, x)

    def det(m):
        sign, log_abs = _sign_and_log_abs_det(m)
        return sign * np.exp(log_abs)
    results, batch = _each_matrix(det, x)
    return np.array(results, dtype=x.dtype).reshape(batch)


def _det_grad(op, grad):
    """TF's _MatrixDeterminantGrad: grad * det * inv(a)^H."""
    a, c = op.inputs[0], op.outputs[0]
    a_adj_inv = matrix_inverse(a, adjoint=True)
    multipliers = array_ops.reshape(grad * c, array_ops.concat([array_ops.shape(c), [1, 1]], 0))
    return [multipliers * a_adj_inv]


register_op("MatrixDeterminant", inputs=["input: T"], outputs=_det_outputs, kernel=_det_kernel, grad=_det_grad,
            doc="The determinant of each square matrix.")


def _slogdet_kernel(ctx, x):
    _run_checks(ctx, x)
    results, batch = _each_matrix(_sign_and_log_abs_det, x)
    signs = np.array([r[0] for r in results], dtype=x.dtype).reshape(batch)
    logs = np.array([r[1] for r in results], dtype=x.dtype).reshape(batch)
    return signs, logs


def _slogdet_grad(op, _, grad_b):
    """TF's _LogMatrixDeterminantGrad: d log|det a| = inv(a)^H (the sign has no gradient)."""
    a, c = op.inputs[0], op.outputs[1]
    a_adj_inv = matrix_inverse(a, adjoint=True)
    multipliers = array_ops.reshape(grad_b, array_ops.concat([array_ops.shape(c), [1, 1]], 0))
    return [multipliers * a_adj_inv]


register_op("LogMatrixDeterminant", inputs=["input: T"], outputs=lambda op: _det_outputs(op) * 2,
            kernel=_slogdet_kernel, grad=_slogdet_grad,
            doc="Sign and log of the absolute value of each determinant.")


# --------------------------------------------------------------------------------------------- Cholesky
def _cholesky_kernel(ctx, x):
    _run_checks(ctx, x)
    lower = np.tril(np.ones(x.shape[-2:], bool))

    def cholesky(m):
        l = _cholesky_one(m)  # noqa: E741
        # TF's CPU kernel: NaN in the lower triangle of a failed matrix
        return np.where(lower, np.nan, 0).astype(m.dtype) if l is None else l
    results, _ = _each_matrix(cholesky, x)
    return np.array(results, dtype=x.dtype).reshape(x.shape)


def _cholesky_grad(op, grad):
    """TF's _CholeskyGrad (Murray's backward substitution form, built from triangular solves)."""
    l = op.outputs[0]  # noqa: E741  (TF's name)
    num_rows = array_ops.shape(l)[-1]
    batch_shape = array_ops.shape(l)[:-2]
    from graphlab.ops.linalg_impl import adjoint, eye
    l_inverse = matrix_triangular_solve(l, eye(num_rows, batch_shape=batch_shape, dtype=l.dtype))
    middle = math_ops.matmul(l, grad, adjoint_a=True)
    middle = matrix_set_diag(middle, 0.5 * matrix_diag_part(middle))
    middle = matrix_band_part(middle, -1, 0)
    grad_a = math_ops.matmul(math_ops.matmul(l_inverse, middle, adjoint_a=True), l_inverse)
    grad_a += adjoint(grad_a)
    return [grad_a * 0.5]


register_op("Cholesky", inputs=["input: T"], outputs=_square_same, kernel=_cholesky_kernel, grad=_cholesky_grad,
            doc="The lower-triangular L with L L^H = input (read from the lower triangle).")


# ------------------------------------------------------------------------------- MatrixTriangularSolve
def _solve_outputs(op, fixed_square=True):
    _check_float(op, "matrix")
    a, b = op._inputs[:2]
    da, db = _matrix_dims(a._shape, square=fixed_square), _matrix_dims(b._shape)
    if da is None or db is None:
        return [(a._dtype.base_dtype, tensor_shape.UNKNOWN)]
    if da[-2] is not None and db[-2] is not None and da[-2] != db[-2]:
        raise ValueError("Dimensions must be equal, but are %d and %d" % (da[-2], db[-2]))
    return [(a._dtype.base_dtype, tensor_shape.TensorShape(_static_batch(da, db) + [da[-1], db[-1]]))]


def _triangular_solve(a, b, lower, adjoint):
    """Substitution row by row (no pivoting, no checks: a zero diagonal gives inf/NaN, as TF)."""
    if adjoint:
        a, lower = np.conj(np.swapaxes(a, -1, -2)), not lower
    n = a.shape[-1]
    x = np.zeros(np.broadcast_shapes(a.shape[:-2], b.shape[:-2]) + b.shape[-2:], dtype=np.result_type(a, b))
    a = np.broadcast_to(a, x.shape[:-2] + a.shape[-2:])
    b = np.broadcast_to(b, x.shape)
    order = range(n) if lower else range(n - 1, -1, -1)
    with np.errstate(divide="ignore", invalid="ignore"):
        for i in order:
            done = np.einsum("...j,...jk->...k", a[..., i, :], x)
            x[..., i, :] = (b[..., i, :] - done) / a[..., i, i, None]
    return x


def _triangular_kernel(ctx, a, b):
    _run_checks(ctx, a)
    if b.ndim < 2 or b.shape[-2] != a.shape[-1]:
        raise InvalidArgumentError(None, ctx.op, "Input matrix and right-hand side must have the same number of "
                                   "rows.")
    tri = np.tril(a) if ctx.attrs["lower"] else np.triu(a)
    return _triangular_solve(tri, b.astype(a.dtype), ctx.attrs["lower"], ctx.attrs["adjoint"]).astype(a.dtype)


def _unbroadcast_solve(a, b, grad_a, grad_b):
    """Sum gradients over batch dims a solver broadcast (TF's rule, with BroadcastGradientArgs)."""
    if a.shape.is_fully_defined() and b.shape.is_fully_defined() and a.shape[:-2] == b.shape[:-2]:
        return [grad_a, grad_b]
    from graphlab.ops.broadcast_ops import broadcast_gradient_args
    a_shape, b_shape = array_ops.shape(a), array_ops.shape(b)
    ra, rb = broadcast_gradient_args(a_shape[:-2], b_shape[:-2])
    grad_a = array_ops.reshape(math_ops.reduce_sum(grad_a, axis=ra), a_shape)
    grad_b = array_ops.reshape(math_ops.reduce_sum(grad_b, axis=rb), b_shape)
    return [grad_a, grad_b]


def _triangular_grad(op, grad):
    """TF's _MatrixTriangularSolveGrad."""
    a, b = op.inputs
    adj, lower = op._attrs["adjoint"], op._attrs["lower"]
    c = op.outputs[0]
    grad_b = matrix_triangular_solve(a, grad, lower=lower, adjoint=not adj)
    grad_a = -math_ops.matmul(c, grad_b, adjoint_b=True) if adj else -math_ops.matmul(grad_b, c, adjoint_b=True)
    grad_a = matrix_band_part(grad_a, -1, 0) if lower else matrix_band_part(grad_a, 0, -1)
    return _unbroadcast_solve(a, b, grad_a, grad_b)


register_op("MatrixTriangularSolve", inputs=["matrix: T", "rhs: T"], outputs=_solve_outputs,
            kernel=_triangular_kernel, grad=_triangular_grad,
            doc="Solves matrix x = rhs for a lower (or upper) triangular matrix; batch dims broadcast.")


# ----------------------------------------------------------------------------------------- MatrixSolve
def _matrix_solve_outputs(op):
    _check_float(op, "matrix")
    a, b = op._inputs
    da, db = _matrix_dims(a._shape, square=True), _matrix_dims(b._shape)
    if da is None or db is None:
        return [(a._dtype.base_dtype, tensor_shape.UNKNOWN)]
    if len(da) != len(db):   # TF compares the batch shapes' ranks
        raise ValueError("Shapes must be equal rank, but are %d and %d" % (len(da) - 2, len(db) - 2))
    for x, y in zip(da[:-1], db[:-1]):
        if x is not None and y is not None and x != y:
            raise ValueError("Dimensions must be equal, but are %d and %d" % (x, y))
    return [(a._dtype.base_dtype, tensor_shape.TensorShape(da[:-2] + [da[-1], db[-1]]))]


def _matrix_solve_kernel(ctx, a, b):
    _run_checks(ctx, a)
    if b.shape[:-1] != a.shape[:-1]:
        raise InvalidArgumentError(None, ctx.op, "Input matrix and right-hand side must have the same number of "
                                   "rows.")
    if ctx.attrs["adjoint"]:
        a = np.conj(np.swapaxes(a, -1, -2))

    def solve(m, rhs):
        lu, perm, _ = _lu(m)
        if not _invertible(lu):
            raise InvalidArgumentError(None, ctx.op, "Input matrix is not invertible.")
        return _lu_solve(lu, perm, rhs.astype(m.dtype))
    results, _ = _each_matrix(solve, a, b)
    return np.array(results, dtype=a.dtype).reshape(b.shape)


def _matrix_solve_grad(op, grad):
    """TF's _MatrixSolveGrad."""
    a = op.inputs[0]
    adj = op._attrs["adjoint"]
    c = op.outputs[0]
    grad_b = matrix_solve(a, grad, adjoint=not adj)
    grad_a = -math_ops.matmul(c, grad_b, adjoint_b=True) if adj else -math_ops.matmul(grad_b, c, adjoint_b=True)
    return [grad_a, grad_b]


register_op("MatrixSolve", inputs=["matrix: T", "rhs: T"], outputs=_matrix_solve_outputs,
            kernel=_matrix_solve_kernel, grad=_matrix_solve_grad,
            doc="Solves matrix x = rhs (or adjoint(matrix) x = rhs) for square matrices.")


# ---------------------------------------------------------------------------------------- MatrixSolveLs
def _solve_ls_outputs(op):
    _check_float(op, "matrix")
    a, b = op._inputs[:2]
    da, db = _matrix_dims(a._shape), _matrix_dims(b._shape)
    if da is None or db is None:
        return [(a._dtype.base_dtype, tensor_shape.UNKNOWN)]
    if da[-2] is not None and db[-2] is not None and da[-2] != db[-2]:
        raise ValueError("Dimensions must be equal, but are %d and %d" % (da[-2], db[-2]))
    return [(a._dtype.base_dtype, tensor_shape.TensorShape(da[:-2] + [da[-1], db[-1]]))]


def _solve_ls_kernel(ctx, a, b, l2):
    _run_checks(ctx, a, square=False)
    n = a.shape[-1]

    def least_squares(m, rhs):
        """TF's fast path: the Cholesky factor of the regularized Gram matrix, all in m's dtype."""
        mh = np.conj(m.T)
        gram = mh @ m + np.asarray(l2, m.real.dtype) * np.eye(n, dtype=m.dtype)
        l = _cholesky_one(gram)  # noqa: E741
        if l is None:
            raise InvalidArgumentError(None, ctx.op, "Input matrix was rank deficient or ill-conditioned. Try "
                                       "setting fast=False or provide a larger l2_regularizer > 0.")
        y = _triangular_solve(l, mh @ rhs.astype(m.dtype), True, False)
        return _triangular_solve(l, y, True, True)
    results, batch = _each_matrix(least_squares, a, b)
    return np.array(results, dtype=a.dtype).reshape(batch + (n, b.shape[-1]))


def _regularized_gramian_cholesky(matrix, l2_regularizer, first_kind):
    """TF's _RegularizedGramianCholesky: Cholesky of A^H A (first kind) or A A^H, plus l2 * I."""
    from graphlab.ops.linalg_impl import eye
    gramian = math_ops.matmul(matrix, matrix, adjoint_a=first_kind, adjoint_b=not first_kind)
    if hasattr(l2_regularizer, "_op") or l2_regularizer != 0:
        matrix_shape = array_ops.shape(matrix)
        batch_shape = matrix_shape[:-2]
        small_dim = matrix_shape[-1] if first_kind else matrix_shape[-2]
        identity = eye(small_dim, batch_shape=batch_shape, dtype=matrix.dtype)
        small_static = matrix.shape[-1 if first_kind else -2]
        identity.set_shape(matrix.shape[:-2].concatenate([small_static, small_static]))
        gramian += l2_regularizer * identity
    return build_op("Cholesky", [gramian]).outputs[0]


def _solve_ls_grad(op, grad):
    """TF's _MatrixSolveLsGrad (fast=True only), for statically shaped matrices."""
    if not op._attrs["fast"]:
        raise ValueError("Gradient not defined for fast=False")
    a, b = op.inputs[0], op.inputs[1]
    shape = a.shape[-2:] if a.shape.ndims is not None else tensor_shape.unknown_shape(2)
    if not shape.is_fully_defined():
        raise NotImplementedError("graphlab differentiates MatrixSolveLs only for matrices of known shape (TF "
                                  "builds a tf.cond here); give the matrix a static shape.")
    l2 = math_ops.cast(op.inputs[2], a.dtype.base_dtype)
    m, n = shape.as_list()
    if m >= n:
        x = op.outputs[0]
        chol = _regularized_gramian_cholesky(a, l2, first_kind=True)
        z = cholesky_solve(chol, grad)
        xzt = math_ops.matmul(x, z, adjoint_b=True)
        from graphlab.ops.linalg_impl import matrix_transpose
        zx_sym = xzt + matrix_transpose(xzt)
        grad_a = -math_ops.matmul(a, zx_sym) + math_ops.matmul(b, z, adjoint_b=True)
        return [grad_a, math_ops.matmul(a, z), None]
    chol = _regularized_gramian_cholesky(a, l2, first_kind=False)
    grad_b = cholesky_solve(chol, math_ops.matmul(a, grad))
    tmp = cholesky_solve(chol, b)
    a1 = -math_ops.matmul(grad_b, math_ops.matmul(tmp, a, adjoint_a=True))
    a2 = math_ops.matmul(tmp, grad - math_ops.matmul(a, grad_b, adjoint_a=True), adjoint_b=True)
    return [a1 + a2, grad_b, None]


register_op("MatrixSolveLs", inputs=["matrix: T", "rhs: T", "l2_regularizer: float64"], outputs=_solve_ls_outputs,
            kernel=_solve_ls_kernel, grad=_solve_ls_grad,
            doc="Least-squares solutions of matrix x = rhs with an L2 penalty (the normal equations).")


# ------------------------------------------------------------------------------------- SelfAdjointEigV2
def _eig_outputs(op):
    _check_float(op)
    x = op._inputs[0]
    dims = _matrix_dims(x._shape, square=True)
    dtype = x._dtype.base_dtype
    if dims is None:
        return [(dtype, tensor_shape.UNKNOWN), (dtype, tensor_shape.UNKNOWN)]
    v = tensor_shape.TensorShape(dims) if op._attrs["compute_v"] else tensor_shape.TensorShape([0])
    return [(dtype, tensor_shape.TensorShape(dims[:-1])), (dtype, v)]


def _eig_kernel(ctx, x):
    _run_checks(ctx, x)
    xw, back = _wide(x)
    e, v = np.linalg.eigh(xw, UPLO="L")
    return back(e.real), (back(v) if ctx.attrs["compute_v"] else np.zeros((), x.dtype))


def _safe_reciprocal(x, epsilon=1e-20):
    return x * math_ops.reciprocal(x * x + epsilon)


def _eig_grad(op, grad_e, grad_v):
    """TF's _SelfAdjointEigV2Grad (built after both incoming gradients, as TF orders it)."""
    from graphlab.ops.linalg_impl import adjoint
    e = op.outputs[0]
    with graph_mod.get_default_graph().control_dependencies([g for g in (grad_e, grad_v) if g is not None]):
        if op._attrs["compute_v"]:
            v = op.outputs[1]
            f = matrix_set_diag(_safe_reciprocal(array_ops.expand_dims(e, -2) - array_ops.expand_dims(e, -1)),
                                array_ops.zeros_like(e))
            grad_a = math_ops.matmul(v, math_ops.matmul(
                matrix_diag(grad_e) + f * math_ops.matmul(v, grad_v, adjoint_a=True), v, adjoint_b=True))
        else:
            _, v = self_adjoint_eig(op.inputs[0])
            grad_a = math_ops.matmul(v, math_ops.matmul(matrix_diag(grad_e), v, adjoint_b=True))
        grad_a = matrix_band_part(grad_a + adjoint(grad_a), -1, 0)
        grad_a = matrix_set_diag(grad_a, 0.5 * matrix_diag_part(grad_a))
        return [grad_a]


register_op("SelfAdjointEigV2", inputs=["input: T"], outputs=_eig_outputs, kernel=_eig_kernel, grad=_eig_grad,
            doc="Eigenvalues (ascending) and eigenvectors of each self-adjoint matrix (its lower triangle).")


# ------------------------------------------------------------------------------------------------- Svd
def _factor_dims(op):
    """(dtype, batch dims, m, n, min(m, n)) of a decomposition's input; dims None for an unknown rank."""
    _check_float(op)
    x = op._inputs[0]
    dims = _matrix_dims(x._shape)
    if dims is None:
        return x._dtype.base_dtype, None, None, None, None
    m, n = dims[-2:]
    return x._dtype.base_dtype, dims[:-2], m, n, (None if m is None or n is None else min(m, n))


def _svd_outputs(op):
    dtype, batch, m, n, p = _factor_dims(op)
    if batch is None:
        return [(dtype, tensor_shape.UNKNOWN)] * 3
    s = tensor_shape.TensorShape(batch + [p])
    if not op._attrs["compute_uv"]:
        return [(dtype, s), (dtype, tensor_shape.TensorShape([0])), (dtype, tensor_shape.TensorShape([0]))]
    full = op._attrs["full_matrices"]
    return [(dtype, s), (dtype, tensor_shape.TensorShape(batch + [m, m if full else p])),
            (dtype, tensor_shape.TensorShape(batch + [n, n if full else p]))]


def _svd_kernel(ctx, x):
    _run_checks(ctx, x, square=False)
    xw, back = _wide(x)
    if not ctx.attrs["compute_uv"]:
        return back(np.linalg.svd(xw, compute_uv=False)), np.zeros((), x.dtype), np.zeros((), x.dtype)
    u, s, vh = np.linalg.svd(xw, full_matrices=ctx.attrs["full_matrices"])
    return back(s), back(u), back(np.conj(np.swapaxes(vh, -1, -2)))


def _svd_grad(op, grad_s, grad_u, grad_v):
    """TF's _SvdGrad (real matrices; m <= n, or its adjoint)."""
    from graphlab.ops.linalg_impl import adjoint, matrix_transpose
    a = op.inputs[0]
    a_shape = a.shape.with_rank_at_least(2)
    grad_s = math_ops.cast(grad_s, a.dtype)
    grad_s_mat = matrix_diag(grad_s)
    if not op._attrs["compute_uv"]:
        s, u, v = svd(a, compute_uv=True)
        grad_a = math_ops.matmul(u, math_ops.matmul(grad_s_mat, v, adjoint_b=True))
        grad_a.set_shape(a_shape)
        return [grad_a]
    full = op._attrs["full_matrices"]
    m, n = a_shape.as_list()[-2:]
    if m is None or n is None:
        raise NotImplementedError("SVD gradient has not been implemented for input with unknown inner matrix "
                                  "shape.")
    s, u, v = op.outputs
    s = math_ops.cast(s, a.dtype)
    use_adjoint = m > n
    if use_adjoint:
        m, n = n, m
        u, v = v, u
        grad_u, grad_v = grad_v, grad_u
    with graph_mod.get_default_graph().control_dependencies([grad_s, grad_u, grad_v]):
        if full and abs(m - n) > 1:
            raise NotImplementedError("svd gradient is not implemented for abs(m - n) > 1 when full_matrices is "
                                      "True. Received: m=%d and n=%d from op input=%s with shape=%s."
                                      % (m, n, a, a_shape))
        s_mat = matrix_diag(s)
        s2 = math_ops.square(s)
        array_ops.shape(s)   # TF builds the shape here (used only for complex inputs)
        f = matrix_set_diag(_safe_reciprocal(array_ops.expand_dims(s2, -2) - array_ops.expand_dims(s2, -1)),
                            array_ops.zeros_like(s))
        s_inv_mat = matrix_diag(_safe_reciprocal(s))
        v1 = v[..., :, :m]
        grad_v1 = grad_v[..., :, :m]
        u_gu = math_ops.matmul(u, grad_u, adjoint_a=True)
        v_gv = math_ops.matmul(v1, grad_v1, adjoint_a=True)
        f_u = f * u_gu
        f_v = f * v_gv
        term1_nouv = (grad_s_mat + math_ops.matmul(f_u + adjoint(f_u), s_mat) +
                      math_ops.matmul(s_mat, f_v + adjoint(f_v)))
        term1 = math_ops.matmul(u, math_ops.matmul(term1_nouv, v1, adjoint_b=True))
        if m == n:
            grad_a = term1
        else:
            gv1t = matrix_transpose(grad_v1, conjugate=True)
            gv1t_v1 = math_ops.matmul(gv1t, v1)
            term2_nous = gv1t - math_ops.matmul(gv1t_v1, v1, adjoint_b=True)
            if full:
                v2 = v[..., :, m:n]
                grad_v2 = grad_v[..., :, m:n]
                v1t_gv2 = math_ops.matmul(v1, grad_v2, adjoint_a=True)
                term2_nous -= math_ops.matmul(v1t_gv2, v2, adjoint_b=True)
            u_s_inv = math_ops.matmul(u, s_inv_mat)
            grad_a = term1 + math_ops.matmul(u_s_inv, term2_nous)
        if use_adjoint:
            grad_a = matrix_transpose(grad_a, conjugate=True)
        grad_a.set_shape(a_shape)
        return [grad_a]


register_op("Svd", inputs=["input: T"], outputs=_svd_outputs, kernel=_svd_kernel, grad=_svd_grad,
            doc="Singular values (descending) and, with compute_uv, the vectors u and v (not v^H).")


# -------------------------------------------------------------------------------------------------- Qr
def _qr_outputs(op):
    dtype, batch, m, n, p = _factor_dims(op)
    if batch is None:
        return [(dtype, tensor_shape.UNKNOWN)] * 2
    full = op._attrs["full_matrices"]
    return [(dtype, tensor_shape.TensorShape(batch + [m, m if full else p])),
            (dtype, tensor_shape.TensorShape(batch + [m if full else p, n]))]


def _qr_kernel(ctx, x):
    _run_checks(ctx, x, square=False)
    xw, back = _wide(x)
    q, r = np.linalg.qr(xw, mode="complete" if ctx.attrs["full_matrices"] else "reduced")
    return back(q), back(r)


def _qr_grad(op, dq, dr):
    """TF's _QrGrad (square and deep matrices, and wide ones by splitting off the extra columns)."""
    from graphlab.ops.linalg_impl import adjoint
    q, r = op.outputs
    rd = r.shape.as_list() if r.shape.ndims is not None else None
    if rd is None or rd[-2] is None or rd[-1] is None:
        raise NotImplementedError("QrGrad not implemented with dynamic shapes. Received r.shape: %s" % r.shape)
    qd = q.shape.as_list()
    if rd[-2] > rd[-1] and qd[-2] == qd[-1]:
        raise NotImplementedError("QrGrad not implemented when nrows > ncols and full_matrices is true. Received "
                                  "r.shape=%s with nrows=%dand ncols=%d." % (r.shape, rd[-2], rd[-1]))

    def triangular(x, r):
        return adjoint(matrix_triangular_solve(r, adjoint(x), lower=False, adjoint=False))

    def square_and_deep(q, r, dq, dr):
        qdq = math_ops.matmul(q, dq, adjoint_a=True)
        qdq_ = qdq - adjoint(qdq)
        rdr = math_ops.matmul(r, dr, adjoint_b=True)
        rdr_ = rdr - adjoint(rdr)
        tril = matrix_band_part(qdq_ + rdr_, -1, 0)
        grad_a = math_ops.matmul(q, dr + triangular(tril, r))
        grad_b = triangular(dq - math_ops.matmul(q, qdq), r)
        return grad_a + grad_b

    num_rows, num_cols = qd[-2], rd[-1]
    if num_rows >= num_cols:
        return [square_and_deep(q, r, dq, dr)]
    a = op.inputs[0]
    y = a[..., :, num_rows:]
    u = r[..., :, :num_rows]
    dv = dr[..., :, num_rows:]
    du = dr[..., :, :num_rows]
    dy = math_ops.matmul(q, dv)
    dx = square_and_deep(q, u, dq + math_ops.matmul(y, dv, adjoint_b=True), du)
    return [array_ops.concat([dx, dy], axis=-1)]


register_op("Qr", inputs=["input: T"], outputs=_qr_outputs, kernel=_qr_kernel, grad=_qr_grad,
            doc="q with orthonormal columns and upper-triangular r with q r = input.")


# ----------------------------------------------------------------------------------------- public API
def matrix_inverse(input, adjoint=False, name=None):  # noqa: A002
    """``tf.matrix_inverse`` / ``tf.linalg.inv``."""
    return build_op("MatrixInverse", [input], attrs={"adjoint": bool(adjoint)}, name=name).outputs[0]


def matrix_determinant(input, name=None):  # noqa: A002
    """``tf.matrix_determinant`` / ``tf.linalg.det``."""
    return build_op("MatrixDeterminant", [input], name=name).outputs[0]


def log_matrix_determinant(input, name=None):  # noqa: A002
    """``tf.linalg.slogdet``: (sign, log|det|)."""
    outs = build_op("LogMatrixDeterminant", [input], name=name).outputs
    return outs[0], outs[1]


def cholesky(input, name=None):  # noqa: A002
    """``tf.cholesky`` / ``tf.linalg.cholesky``."""
    return build_op("Cholesky", [input], name=name).outputs[0]


def matrix_triangular_solve(matrix, rhs, lower=True, adjoint=False, name=None):
    """``tf.matrix_triangular_solve`` / ``tf.linalg.triangular_solve`` (scope "triangular_solve")."""
    with graph_mod.name_scope(name, "triangular_solve", [matrix, rhs]):
        return build_op("MatrixTriangularSolve", [matrix, rhs],
                        attrs={"lower": bool(lower), "adjoint": bool(adjoint)}).outputs[0]


def matrix_solve(matrix, rhs, adjoint=False, name=None):
    """``tf.matrix_solve`` / ``tf.linalg.solve``."""
    return build_op("MatrixSolve", [matrix, rhs], attrs={"adjoint": bool(adjoint)}, name=name).outputs[0]


def cholesky_solve(chol, rhs, name=None):
    """``tf.cholesky_solve``: two triangular solves with the Cholesky factor."""
    with graph_mod.name_scope(name, "cholesky_solve", [chol, rhs]):
        y = build_op("MatrixTriangularSolve", [chol, rhs], attrs={"lower": True, "adjoint": False}).outputs[0]
        return build_op("MatrixTriangularSolve", [chol, y], attrs={"lower": True, "adjoint": True}).outputs[0]


def matrix_solve_ls(matrix, rhs, l2_regularizer=0.0, fast=True, name=None):
    """``tf.matrix_solve_ls`` / ``tf.linalg.lstsq``: TF's Cholesky composite (fast=True, small matrices or
    unknown shapes), else the MatrixSolveLs op."""
    matrix = convert_to_tensor(matrix, name="matrix")
    shape = matrix.shape
    composite = bool(fast)
    if composite and shape.is_fully_defined():
        dims = shape.as_list()
        batch = int(np.prod(dims[:-2])) if dims[:-2] else 1
        size = int(np.prod(dims)) * matrix.dtype.size
        composite = not (size > 256000 and batch > min(dims[-2:]))
    if not composite:
        return build_op("MatrixSolveLs", [matrix, rhs, l2_regularizer], attrs={"fast": bool(fast)},
                        name=name).outputs[0]
    with graph_mod.name_scope(name, "matrix_solve_ls", [matrix, rhs, l2_regularizer]):
        inner = shape[-2:] if shape.ndims is not None else tensor_shape.unknown_shape(2)
        if inner.is_fully_defined():
            over = inner.as_list()[0] >= inner.as_list()[1]
            return (_overdetermined if over else _underdetermined)(matrix, rhs, l2_regularizer)
        dynamic = array_ops.shape(matrix)[-2:]
        return control_flow_ops.cond(dynamic[-2] >= dynamic[-1],
                                     lambda: _overdetermined(matrix, rhs, l2_regularizer),
                                     lambda: _underdetermined(matrix, rhs, l2_regularizer))


def _overdetermined(matrix, rhs, l2):
    chol = _regularized_gramian_cholesky(matrix, l2, first_kind=True)
    return cholesky_solve(chol, math_ops.matmul(matrix, rhs, adjoint_a=True))


def _underdetermined(matrix, rhs, l2):
    chol = _regularized_gramian_cholesky(matrix, l2, first_kind=False)
    return math_ops.matmul(matrix, cholesky_solve(chol, rhs), adjoint_a=True)


def self_adjoint_eig(tensor, name=None):
    """``tf.self_adjoint_eig`` / ``tf.linalg.eigh``: (eigenvalues, eigenvectors)."""
    outs = build_op("SelfAdjointEigV2", [tensor], attrs={"compute_v": True}, name=name).outputs
    return outs[0], outs[1]


def self_adjoint_eigvals(tensor, name=None):
    """``tf.self_adjoint_eigvals`` / ``tf.linalg.eigvalsh``."""
    return build_op("SelfAdjointEigV2", [tensor], attrs={"compute_v": False}, name=name).outputs[0]


def svd(tensor, full_matrices=False, compute_uv=True, name=None):
    """``tf.svd`` / ``tf.linalg.svd``: s, or (s, u, v) with compute_uv."""
    outs = build_op("Svd", [tensor], attrs={"compute_uv": bool(compute_uv), "full_matrices": bool(full_matrices)},
                    name=name).outputs
    return (outs[0], outs[1], outs[2]) if compute_uv else outs[0]


def qr(input, full_matrices=False, name=None):  # noqa: A002
    """``tf.qr`` / ``tf.linalg.qr``: (q, r)."""
    outs = build_op("Qr", [input], attrs={"full_matrices": bool(full_matrices)}, name=name).outputs
    return outs[0], outs[1]


__all__ = ["matrix_inverse", "matrix_determinant", "log_matrix_determinant", "cholesky", "matrix_triangular_solve",
           "matrix_solve", "cholesky_solve", "matrix_solve_ls", "self_adjoint_eig", "self_adjoint_eigvals", "svd",
           "qr"]
