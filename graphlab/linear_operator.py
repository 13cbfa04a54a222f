"""``tf.linalg.LinearOperator`` and its subclasses: matrices described by their structure (a diagonal, a
Kronecker product, a circulant spectrum ...). Each subclass builds its dense matrix from graph ops; the
base class answers every question (matmul, solve, determinants, adjoint, inverse ...) from that dense form,
so results equal TF's (which uses structure-specific algorithms) within rounding, and gradients flow
through the ops used."""
import numpy as np

from graphlab.framework import dtypes, graph as graph_mod, tensor_shape
from graphlab.ops import array_ops, math_ops
from graphlab.framework.registry import const_value, convert_to_tensor


def _ops():
    from graphlab.ops import diag_ops, linalg_impl, linalg_ops
    return diag_ops, linalg_impl, linalg_ops


class LinearOperator:
    """A (batch of) linear operator(s) of shape [..., M, N]; subclasses define ``_to_dense``."""

    def __init__(self, dtype, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None, is_square=None,
                 name=None, parameters=None, graph_parents=None):
        if is_positive_definite and is_non_singular is False:
            raise ValueError("A positive definite matrix is always non-singular.")
        self._dtype = dtypes.as_dtype(dtype).base_dtype if dtype is not None else None
        self._is_non_singular = True if is_positive_definite else is_non_singular
        self._is_self_adjoint = is_self_adjoint
        self._is_positive_definite = is_positive_definite
        self._is_square_set = is_square
        self._name = name or type(self).__name__
        self._parameters = dict(parameters or {})

    # --- what subclasses provide ----------------------------------------------------------------------
    def _to_dense(self):
        raise NotImplementedError("%s does not define _to_dense" % type(self).__name__)

    def _shape(self):
        return self.to_dense().shape

    # --- properties ------------------------------------------------------------------------------------
    dtype = property(lambda self: self._dtype)
    name = property(lambda self: self._name)
    parameters = property(lambda self: dict(self._parameters))
    is_non_singular = property(lambda self: self._is_non_singular)
    is_self_adjoint = property(lambda self: self._is_self_adjoint)
    is_positive_definite = property(lambda self: self._is_positive_definite)

    @property
    def is_square(self):
        if self._is_square_set is not None:
            return self._is_square_set
        m, n = self.shape[-2:].as_list() if self.shape.ndims is not None else (None, None)
        return None if m is None or n is None else m == n

    @property
    def shape(self):
        return self._shape()

    @property
    def batch_shape(self):
        return self.shape[:-2]

    @property
    def tensor_rank(self):
        return self.shape.ndims

    @property
    def domain_dimension(self):
        return self.shape.dims[-1] if self.shape.ndims is not None else tensor_shape.Dimension(None)

    @property
    def range_dimension(self):
        return self.shape.dims[-2] if self.shape.ndims is not None else tensor_shape.Dimension(None)

    def shape_tensor(self, name="shape_tensor"):
        with self._name_scope(name):
            return array_ops.shape(self.to_dense())

    def batch_shape_tensor(self, name="batch_shape_tensor"):
        with self._name_scope(name):
            return array_ops.shape(self.to_dense())[:-2]

    def domain_dimension_tensor(self, name="domain_dimension_tensor"):
        with self._name_scope(name):
            return array_ops.shape(self.to_dense())[-1]

    def range_dimension_tensor(self, name="range_dimension_tensor"):
        with self._name_scope(name):
            return array_ops.shape(self.to_dense())[-2]

    def tensor_rank_tensor(self, name="tensor_rank_tensor"):
        with self._name_scope(name):
            return array_ops.rank(self.to_dense())

    def _name_scope(self, name):
        return graph_mod.get_default_graph().name_scope("%s/%s" % (self._name, name))

    # --- the dense matrix and what follows from it ---------------------------------------------------------
    def to_dense(self, name="to_dense"):
        with self._name_scope(name):
            return self._to_dense()

    def matmul(self, x, adjoint=False, adjoint_arg=False, name="matmul"):
        if isinstance(x, LinearOperator):
            left = self.adjoint() if adjoint else self
            right = x.adjoint() if adjoint_arg else x
            return LinearOperatorComposition([left, right])
        with self._name_scope(name):
            x = convert_to_tensor(x, name="x")
            return math_ops.matmul(self._to_dense(), x, adjoint_a=adjoint, adjoint_b=adjoint_arg)

    def __matmul__(self, other):
        return self.matmul(other)

    def matvec(self, x, adjoint=False, name="matvec"):
        with self._name_scope(name):
            x = convert_to_tensor(x, name="x")
            return array_ops.squeeze(math_ops.matmul(self._to_dense(), array_ops.expand_dims(x, -1),
                                                     adjoint_a=adjoint), [-1])

    def solve(self, rhs, adjoint=False, adjoint_arg=False, name="solve"):
        _, linalg_impl, linalg_ops = _ops()
        if isinstance(rhs, LinearOperator):
            left = self.adjoint() if adjoint else self
            right = rhs.adjoint() if adjoint_arg else rhs
            return LinearOperatorComposition([left.inverse(), right])
        with self._name_scope(name):
            rhs = convert_to_tensor(rhs, name="rhs")
            if adjoint_arg:
                rhs = linalg_impl.adjoint(rhs)
            return linalg_ops.matrix_solve(self._to_dense(), rhs, adjoint=adjoint)

    def solvevec(self, rhs, adjoint=False, name="solve"):
        with self._name_scope(name):
            rhs = convert_to_tensor(rhs, name="rhs")
            return array_ops.squeeze(self.solve(array_ops.expand_dims(rhs, -1), adjoint=adjoint), [-1])

    def determinant(self, name="det"):
        _, _, linalg_ops = _ops()
        with self._name_scope(name):
            return linalg_ops.matrix_determinant(self._to_dense())

    def log_abs_determinant(self, name="log_abs_det"):
        _, _, linalg_ops = _ops()
        with self._name_scope(name):
            return linalg_ops.log_matrix_determinant(self._to_dense())[1]

    def diag_part(self, name="diag_part"):
        diag_ops, _, _ = _ops()
        with self._name_scope(name):
            return diag_ops.matrix_diag_part(self._to_dense())

    def trace(self, name="trace"):
        with self._name_scope(name):
            return math_ops.reduce_sum(self.diag_part(), axis=-1)

    def add_to_tensor(self, x, name="add_to_tensor"):
        with self._name_scope(name):
            return self._to_dense() + convert_to_tensor(x, name="x")

    def eigvals(self, name="eigvals"):
        _, _, linalg_ops = _ops()
        if not self.is_self_adjoint:
            raise NotImplementedError("Only self-adjoint matrices are supported.")
        with self._name_scope(name):
            return linalg_ops.self_adjoint_eigvals(self._to_dense())

    def cond(self, name="cond"):
        _, _, linalg_ops = _ops()
        with self._name_scope(name):
            s = linalg_ops.svd(self._to_dense(), compute_uv=False)
            return math_ops.reduce_max(s, axis=-1) / math_ops.reduce_min(s, axis=-1)

    def adjoint(self, name=None):
        if self.is_self_adjoint:
            return self
        return LinearOperatorAdjoint(self, name=name)

    H = property(adjoint)

    def inverse(self, name=None):
        if self.is_square is False:
            raise ValueError("Cannot take the Inverse: This operator represents a non square matrix.")
        if self.is_non_singular is False:
            raise ValueError("Cannot take the Inverse: This operator represents a singular matrix.")
        return LinearOperatorInversion(self, name=name)

    def cholesky(self, name="cholesky"):
        _, _, linalg_ops = _ops()
        if not (self.is_self_adjoint and self.is_positive_definite):
            raise ValueError("Cholesky decomposition is only defined for self-adjoint positive definite operators")
        return LinearOperatorLowerTriangular(linalg_ops.cholesky(self.to_dense()), is_non_singular=True,
                                             is_square=True)

    def assert_non_singular(self, name="assert_non_singular"):
        from graphlab.ops.control_flow_ops import no_op
        return no_op(name=name)

    assert_positive_definite = assert_self_adjoint = assert_non_singular

    def __repr__(self):
        return "<tf.linalg.%s '%s' shape=%s dtype=%s>" % (type(self).__name__, self._name, self.shape,
                                                          self.dtype.name if self.dtype else None)


def _static_shape(t):
    return t.shape


# ======================================================================================== matrices given whole
class LinearOperatorFullMatrix(LinearOperator):
    def __init__(self, matrix, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=None, name="LinearOperatorFullMatrix"):
        self._matrix = convert_to_tensor(matrix, name="matrix")
        super().__init__(self._matrix.dtype, is_non_singular, is_self_adjoint, is_positive_definite, is_square,
                         name, {"matrix": matrix})

    def _shape(self):
        return self._matrix.shape

    def _to_dense(self):
        return self._matrix


class LinearOperatorDiag(LinearOperator):
    def __init__(self, diag, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None, is_square=True,
                 name="LinearOperatorDiag"):
        self._diag = convert_to_tensor(diag, name="diag")
        if not self._diag.dtype.is_complex and is_self_adjoint is None:
            is_self_adjoint = True
        super().__init__(self._diag.dtype, is_non_singular, is_self_adjoint, is_positive_definite, is_square, name,
                         {"diag": diag})

    diag = property(lambda self: self._diag)

    def _shape(self):
        s = self._diag.shape
        return s.concatenate(s[-1:]) if s.ndims is not None else tensor_shape.UNKNOWN

    def _to_dense(self):
        diag_ops, _, _ = _ops()
        return diag_ops.matrix_diag(self._diag)

    def diag_part(self, name="diag_part"):
        with self._name_scope(name):
            return self._diag * array_ops.ones_like(self._diag)


class LinearOperatorLowerTriangular(LinearOperator):
    def __init__(self, tril, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None, is_square=True,
                 name="LinearOperatorLowerTriangular"):
        self._tril = convert_to_tensor(tril, name="tril")
        super().__init__(self._tril.dtype, is_non_singular, is_self_adjoint, is_positive_definite, is_square, name,
                         {"tril": tril})

    def _shape(self):
        return self._tril.shape

    def _to_dense(self):
        diag_ops, _, _ = _ops()
        return diag_ops.matrix_band_part(self._tril, -1, 0)


class LinearOperatorIdentity(LinearOperator):
    def __init__(self, num_rows, batch_shape=None, dtype=None, is_non_singular=True, is_self_adjoint=True,
                 is_positive_definite=True, is_square=True, assert_proper_shapes=False, name="LinearOperatorIdentity"):
        self._num_rows = num_rows
        self._batch_shape_arg = batch_shape
        super().__init__(dtype or dtypes.float32, is_non_singular, is_self_adjoint, is_positive_definite, is_square,
                         name, {"num_rows": num_rows, "batch_shape": batch_shape, "dtype": dtype})

    def _static_n(self):
        n = const_value(self._num_rows) if hasattr(self._num_rows, "op") else self._num_rows
        return None if n is None else int(n)

    def _shape(self):
        n = self._static_n()
        batch = [] if self._batch_shape_arg is None else list(
            const_value(self._batch_shape_arg) if hasattr(self._batch_shape_arg, "op") else self._batch_shape_arg)
        return tensor_shape.TensorShape(batch + [n, n])

    def _to_dense(self):
        _, linalg_impl, _ = _ops()
        return linalg_impl.eye(self._num_rows, batch_shape=self._batch_shape_arg, dtype=self._dtype)


class LinearOperatorScaledIdentity(LinearOperatorIdentity):
    def __init__(self, num_rows, multiplier, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=True, assert_proper_shapes=False, name="LinearOperatorScaledIdentity"):
        self._multiplier = convert_to_tensor(multiplier, name="multiplier")
        super().__init__(num_rows, None, self._multiplier.dtype, is_non_singular, is_self_adjoint,
                         is_positive_definite, is_square, assert_proper_shapes, name)
        self._batch_shape_arg = None
        self._parameters = {"num_rows": num_rows, "multiplier": multiplier}

    multiplier = property(lambda self: self._multiplier)

    def _shape(self):
        n = self._static_n()
        return self._multiplier.shape.concatenate([n, n])

    def _to_dense(self):
        _, linalg_impl, _ = _ops()
        eye = linalg_impl.eye(self._num_rows, dtype=self._dtype)
        return array_ops.expand_dims(array_ops.expand_dims(self._multiplier, -1), -1) * eye


class LinearOperatorZeros(LinearOperator):
    def __init__(self, num_rows, num_columns=None, batch_shape=None, dtype=None, is_non_singular=False,
                 is_self_adjoint=True, is_positive_definite=False, is_square=True, assert_proper_shapes=False,
                 name="LinearOperatorZeros"):
        self._num_rows = num_rows
        self._num_columns = num_rows if num_columns is None else num_columns
        self._batch = [] if batch_shape is None else list(batch_shape)
        if is_square and self._num_rows != self._num_columns:
            raise ValueError("LinearOperatorZeros initialized as is_square=True, but got num_rows(%d) != "
                             "num_columns(%d)" % (self._num_rows, self._num_columns))
        super().__init__(dtype or dtypes.float32, is_non_singular, is_self_adjoint, is_positive_definite, is_square,
                         name,
                         {"num_rows": num_rows, "num_columns": num_columns, "batch_shape": batch_shape})

    def _shape(self):
        return tensor_shape.TensorShape(self._batch + [self._num_rows, self._num_columns])

    def _to_dense(self):
        return array_ops.zeros(self._batch + [self._num_rows, self._num_columns], dtype=self._dtype)


class LinearOperatorToeplitz(LinearOperator):
    """Constant along each diagonal: ``col`` is the first column, ``row`` the first row (row[0] is ignored)."""

    def __init__(self, col, row, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=None, name="LinearOperatorToeplitz"):
        self._col = convert_to_tensor(col, name="col")
        self._row = convert_to_tensor(row, name="row", dtype=self._col.dtype.base_dtype)
        super().__init__(self._col.dtype, is_non_singular, is_self_adjoint, is_positive_definite, is_square, name,
                         {"col": col, "row": row})

    def _shape(self):
        return self._col.shape.concatenate(self._row.shape[-1:])

    def _to_dense(self):
        n, m = self._col.shape.as_list()[-1], self._row.shape.as_list()[-1]
        # element (i, j) is col[i - j] below the diagonal and row[j - i] above it
        values = array_ops.concat([array_ops.reverse(self._row[..., 1:], [-1]), self._col], -1)   # row reversed, col
        index = np.array([[m - 1 + i - j for j in range(m)] for i in range(n)], np.int32)
        return array_ops.gather(values, index, axis=-1)


class LinearOperatorHouseholder(LinearOperator):
    """I - 2 v v^H / (v^H v): the reflection through the hyperplane orthogonal to ``reflection_axis``."""

    def __init__(self, reflection_axis, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=None, name="LinearOperatorHouseholder"):
        self._axis = convert_to_tensor(reflection_axis, name="reflection_axis")
        super().__init__(self._axis.dtype, True if is_non_singular is None else is_non_singular,
                         True if is_self_adjoint is None else is_self_adjoint, is_positive_definite,
                         True if is_square is None else is_square, name, {"reflection_axis": reflection_axis})

    def _shape(self):
        s = self._axis.shape
        return s.concatenate(s[-1:])

    def _to_dense(self):
        _, linalg_impl, _ = _ops()
        v = array_ops.expand_dims(self._axis, -1)
        n = self._axis.shape.as_list()[-1]
        outer = math_ops.matmul(v, v, adjoint_b=True)
        norm = math_ops.reduce_sum(math_ops.conj(self._axis) * self._axis, axis=-1)
        return linalg_impl.eye(n, dtype=self._dtype) - 2.0 * outer / array_ops.expand_dims(
            array_ops.expand_dims(norm, -1), -1)


class LinearOperatorPermutation(LinearOperator):
    """The permutation matrix that sends row i of a vector to row perm[i]: P[i, perm[i]] = 1."""

    def __init__(self, perm, dtype=dtypes.float32, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None, name="LinearOperatorPermutation"):
        from graphlab.framework import dtypes as _dt
        self._perm = convert_to_tensor(perm, name="perm")
        if not self._perm.dtype.is_integer:
            raise TypeError("`perm` must be integer dtype")
        super().__init__(_dt.as_dtype(dtype), True, is_self_adjoint, is_positive_definite, True, name,
                         {"perm": perm, "dtype": dtype})

    perm = property(lambda self: self._perm)

    def _shape(self):
        s = self._perm.shape
        return s.concatenate(s[-1:])

    def _to_dense(self):
        from graphlab.ops.array_ops import one_hot
        return one_hot(self._perm, self._perm.shape.as_list()[-1], dtype=self._dtype)


class LinearOperatorTridiag(LinearOperator):
    """A tridiagonal matrix from ``diagonals``: "compact" [..., 3, N] (superdiag, diag, subdiag, with the
    superdiagonal's last and the subdiagonal's first entry ignored), "sequence" (three tensors) or "matrix"."""

    def __init__(self, diagonals, diagonals_format="compact", is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None, name="LinearOperatorTridiag"):
        if diagonals_format not in ("compact", "sequence", "matrix"):
            raise ValueError("Diagonals Format must be one of compact, matrix, sequence, got : %s" % diagonals_format)
        if diagonals_format == "sequence":
            diagonals = [convert_to_tensor(d, name="diag_%d" % i) for i, d in enumerate(diagonals)]
            dtype = diagonals[0].dtype
        else:
            diagonals = convert_to_tensor(diagonals, name="diagonals")
            dtype = diagonals.dtype
        self._diagonals, self._format = diagonals, diagonals_format
        super().__init__(dtype, is_non_singular, is_self_adjoint, is_positive_definite, True, name,
                         {"diagonals": diagonals, "diagonals_format": diagonals_format})

    def _parts(self):
        if self._format == "sequence":
            return self._diagonals
        if self._format == "compact":
            return [self._diagonals[..., 0, :], self._diagonals[..., 1, :], self._diagonals[..., 2, :]]
        return None

    def _shape(self):
        if self._format == "matrix":
            return self._diagonals.shape
        d = self._parts()[1].shape
        return d.concatenate(d[-1:])

    def _to_dense(self):
        diag_ops, _, _ = _ops()
        if self._format == "matrix":
            return self._diagonals   # as TF: the matrix is taken to be tridiagonal, not banded here
        sup, main, sub = self._parts()
        n = main.shape.as_list()[-1]
        upper = diag_ops.matrix_diag(sup[..., :n - 1], k=1)
        lower = diag_ops.matrix_diag(sub[..., 1:], k=-1)
        return upper + diag_ops.matrix_diag(main) + lower

    def _banded(self):
        """What TF's tridiagonal matmul and solve read: only the three diagonals, even of a full "matrix"."""
        diag_ops, _, _ = _ops()
        dense = self._to_dense()
        return diag_ops.matrix_band_part(dense, 1, 1) if self._format == "matrix" else dense

    def matmul(self, x, adjoint=False, adjoint_arg=False, name="matmul"):
        if isinstance(x, LinearOperator) or self._format != "matrix":
            return super().matmul(x, adjoint, adjoint_arg, name)
        with self._name_scope(name):
            return math_ops.matmul(self._banded(), convert_to_tensor(x, name="x"), adjoint_a=adjoint,
                                   adjoint_b=adjoint_arg)

    def matvec(self, x, adjoint=False, name="matvec"):
        with self._name_scope(name):
            x = array_ops.expand_dims(convert_to_tensor(x, name="x"), -1)
            return array_ops.squeeze(math_ops.matmul(self._banded(), x, adjoint_a=adjoint), [-1])

    def solve(self, rhs, adjoint=False, adjoint_arg=False, name="solve"):
        _, linalg_impl, linalg_ops = _ops()
        if isinstance(rhs, LinearOperator):
            return super().solve(rhs, adjoint, adjoint_arg, name)
        with self._name_scope(name):
            rhs = convert_to_tensor(rhs, name="rhs")
            if adjoint_arg:
                rhs = linalg_impl.adjoint(rhs)
            return linalg_ops.matrix_solve(self._banded(), rhs, adjoint=adjoint)


# ============================================================================== operators made of operators
class LinearOperatorAdjoint(LinearOperator):
    def __init__(self, operator, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=None, name=None):
        self._operator = operator
        super().__init__(operator.dtype, operator.is_non_singular if is_non_singular is None else is_non_singular,
                         operator.is_self_adjoint if is_self_adjoint is None else is_self_adjoint,
                         operator.is_positive_definite if is_positive_definite is None else is_positive_definite,
                         operator.is_square if is_square is None else is_square,
                         name or operator.name + "_adjoint", {"operator": operator})

    operator = property(lambda self: self._operator)

    def _shape(self):
        s = self._operator.shape
        return s[:-2].concatenate([s[-1], s[-2]])

    def _to_dense(self):
        _, linalg_impl, _ = _ops()
        return linalg_impl.adjoint(self._operator.to_dense())


class LinearOperatorInversion(LinearOperator):
    def __init__(self, operator, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=None, name=None):
        self._operator = operator
        super().__init__(operator.dtype, operator.is_non_singular if is_non_singular is None else is_non_singular,
                         operator.is_self_adjoint if is_self_adjoint is None else is_self_adjoint,
                         operator.is_positive_definite if is_positive_definite is None else is_positive_definite,
                         True, name or operator.name + "_inv", {"operator": operator})

    operator = property(lambda self: self._operator)

    def _shape(self):
        return self._operator.shape

    def _to_dense(self):
        _, _, linalg_ops = _ops()
        return linalg_ops.matrix_inverse(self._operator.to_dense())


class LinearOperatorComposition(LinearOperator):
    """operators[0] @ operators[1] @ ... (applied right to left)."""

    def __init__(self, operators, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=None, name=None):
        operators = list(operators)
        if not operators:
            raise ValueError("Expected a non-empty list of operators. Found: []")
        self._operators = operators
        super().__init__(operators[0].dtype, is_non_singular, is_self_adjoint, is_positive_definite, is_square,
                         name or "_o_".join(op.name for op in operators), {"operators": operators})

    operators = property(lambda self: list(self._operators))

    def _shape(self):
        first, last = self._operators[0].shape, self._operators[-1].shape
        batch = first[:-2]
        for op in self._operators[1:]:
            batch = _broadcast_static(batch, op.shape[:-2])
        return batch.concatenate([first[-2], last[-1]])

    def _to_dense(self):
        dense = self._operators[-1].to_dense()
        for op in reversed(self._operators[:-1]):
            dense = math_ops.matmul(op.to_dense(), dense)
        return dense


def _broadcast_static(a, b):
    from graphlab.framework.registry import broadcast_shape
    return broadcast_shape(a, b)


class LinearOperatorKronecker(LinearOperator):
    """The Kronecker product operators[0] (x) operators[1] (x) ..."""

    def __init__(self, operators, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=None, name=None):
        self._operators = list(operators)
        super().__init__(self._operators[0].dtype, is_non_singular, is_self_adjoint, is_positive_definite, is_square,
                         name or "_x_".join(op.name for op in self._operators), {"operators": operators})

    operators = property(lambda self: list(self._operators))

    def _shape(self):
        m = n = 1
        for op in self._operators:
            rows, cols = op.shape[-2:].as_list()
            m, n = (None if m is None or rows is None else m * rows), (None if n is None or cols is None else n * cols)
        return self._operators[0].shape[:-2].concatenate([m, n])

    def _to_dense(self):
        """kron[i * br + k, j * bc + l] = A[i, j] * B[k, l], from one broadcast product and a reshape."""
        dense = self._operators[0].to_dense()
        for op in self._operators[1:]:
            other = op.to_dense()
            a_rows, a_cols = dense.shape.as_list()[-2:]
            b_rows, b_cols = other.shape.as_list()[-2:]
            batch = dense.shape.as_list()[:-2]
            a = array_ops.expand_dims(array_ops.expand_dims(dense, -1), -3)       # [..., ar, 1, ac, 1]
            b = array_ops.expand_dims(array_ops.expand_dims(other, -2), -4)       # [..., 1, br, 1, bc]
            dense = array_ops.reshape(a * b, batch + [a_rows * b_rows, a_cols * b_cols])
        return dense


class LinearOperatorBlockDiag(LinearOperator):
    """The block-diagonal matrix with the given square operators on its diagonal."""

    def __init__(self, operators, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=True, name=None):
        self._operators = list(operators)
        super().__init__(self._operators[0].dtype, is_non_singular, is_self_adjoint, is_positive_definite, is_square,
                         name or "_ds_".join(op.name for op in self._operators), {"operators": operators})

    operators = property(lambda self: list(self._operators))

    def _shape(self):
        rows = sum(op.shape.as_list()[-2] for op in self._operators)
        cols = sum(op.shape.as_list()[-1] for op in self._operators)
        return self._operators[0].shape[:-2].concatenate([rows, cols])

    def _to_dense(self):
        cols = [op.shape.as_list()[-1] for op in self._operators]
        rows = []
        for i, op in enumerate(self._operators):
            dense = op.to_dense()
            batch = dense.shape.as_list()[:-2]
            m = dense.shape.as_list()[-2]
            pieces = [array_ops.zeros(batch + [m, cols[j]], dense.dtype) if j != i else dense
                      for j in range(len(self._operators))]
            rows.append(array_ops.concat(pieces, -1))
        return array_ops.concat(rows, -2)


class LinearOperatorBlockLowerTriangular(LinearOperator):
    """A block lower-triangular matrix: ``operators`` is a list of rows, row i holding i + 1 operators."""

    def __init__(self, operators, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=None, name="LinearOperatorBlockLowerTriangular"):
        self._operators = [list(row) for row in operators]
        super().__init__(self._operators[0][0].dtype, is_non_singular, is_self_adjoint, is_positive_definite, True,
                         name, {"operators": operators})

    operators = property(lambda self: [list(r) for r in self._operators])

    def _shape(self):
        sizes = [row[-1].shape.as_list()[-1] for row in self._operators]
        return self._operators[0][0].shape[:-2].concatenate([sum(sizes), sum(sizes)])

    def _to_dense(self):
        sizes = [row[-1].shape.as_list()[-1] for row in self._operators]
        rows = []
        for i, row in enumerate(self._operators):
            dense = [op.to_dense() for op in row]
            batch = dense[0].shape.as_list()[:-2]
            pieces = dense + [array_ops.zeros(batch + [sizes[i], sizes[j]], dense[0].dtype)
                              for j in range(i + 1, len(sizes))]
            rows.append(array_ops.concat(pieces, -1))
        return array_ops.concat(rows, -2)


class LinearOperatorLowRankUpdate(LinearOperator):
    """base_operator + U diag(diag_update) V^H (V = U unless given)."""

    def __init__(self, base_operator, u, diag_update=None, v=None, is_diag_update_positive=None,
                 is_non_singular=None, is_self_adjoint=None, is_positive_definite=None, is_square=None,
                 name="LinearOperatorLowRankUpdate"):
        self._base = base_operator
        self._u = convert_to_tensor(u, name="u")
        self._v = self._u if v is None else convert_to_tensor(v, name="v")
        self._diag_update = None if diag_update is None else convert_to_tensor(diag_update, name="diag_update")
        if is_self_adjoint is None and v is None and base_operator.is_self_adjoint:
            is_self_adjoint = True
        super().__init__(base_operator.dtype, is_non_singular, is_self_adjoint, is_positive_definite, is_square,
                         name, {"base_operator": base_operator, "u": u, "diag_update": diag_update, "v": v})

    base_operator = property(lambda self: self._base)
    u = property(lambda self: self._u)
    v = property(lambda self: self._v)
    diag_update = property(lambda self: self._diag_update)

    def _shape(self):
        return self._base.shape

    def _to_dense(self):
        u = self._u if self._diag_update is None else self._u * array_ops.expand_dims(self._diag_update, -2)
        return self._base.to_dense() + math_ops.matmul(u, self._v, adjoint_b=True)


# ====================================================================================== circulant operators
class _BaseCirculant(LinearOperator):
    _RANK = 1

    def __init__(self, spectrum, input_output_dtype=dtypes.complex64, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=True, name=None):
        self._spectrum = convert_to_tensor(spectrum, name="spectrum")
        if not self._spectrum.dtype.is_complex:
            from graphlab.ops.complex_ops import complex as make_complex
            self._spectrum = make_complex(self._spectrum, array_ops.zeros_like(self._spectrum))
        super().__init__(dtypes.as_dtype(input_output_dtype), is_non_singular, is_self_adjoint, is_positive_definite,
                         is_square, name or type(self).__name__,
                         {"spectrum": spectrum, "input_output_dtype": input_output_dtype})

    spectrum = property(lambda self: self._spectrum)

    def _block_shape(self):
        return self._spectrum.shape.as_list()[-self._RANK:]

    def _shape(self):
        n = int(np.prod(self._block_shape()))
        return self._spectrum.shape[:-self._RANK].concatenate([n, n])

    def convolution_kernel(self, name="convolution_kernel"):
        from graphlab.ops import fft_ops
        with self._name_scope(name):
            inverse = {1: fft_ops.ifft, 2: fft_ops.ifft2d, 3: fft_ops.ifft3d}[self._RANK](self._spectrum)
            return inverse if self._dtype.is_complex else math_ops.cast(_real(inverse), self._dtype)

    def _to_dense(self):
        """Column j of the matrix is the kernel circularly shifted by j (in every block dimension)."""
        shape = self._block_shape()
        n = int(np.prod(shape))
        kernel = self.convolution_kernel()
        batch = kernel.shape.as_list()[:-self._RANK]
        flat = array_ops.reshape(kernel, batch + [n])
        grid = np.indices(shape).reshape(self._RANK, -1).T            # multi-index of each flat position
        index = np.empty((n, n), np.int32)
        for i, a in enumerate(grid):
            for j, b in enumerate(grid):
                index[i, j] = np.ravel_multi_index(tuple((a - b) % np.array(shape)), shape)
        return array_ops.gather(flat, index, axis=-1)


def _real(x):
    from graphlab.ops.complex_ops import real
    return real(x)


class LinearOperatorCirculant(_BaseCirculant):
    _RANK = 1

    def __init__(self, spectrum, input_output_dtype=dtypes.complex64, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=True, name="LinearOperatorCirculant"):
        super().__init__(spectrum, input_output_dtype, is_non_singular, is_self_adjoint, is_positive_definite,
                         is_square, name)


class LinearOperatorCirculant2D(_BaseCirculant):
    _RANK = 2

    def __init__(self, spectrum, input_output_dtype=dtypes.complex64, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=True, name="LinearOperatorCirculant2D"):
        super().__init__(spectrum, input_output_dtype, is_non_singular, is_self_adjoint, is_positive_definite,
                         is_square, name)


class LinearOperatorCirculant3D(_BaseCirculant):
    _RANK = 3

    def __init__(self, spectrum, input_output_dtype=dtypes.complex64, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=True, name="LinearOperatorCirculant3D"):
        super().__init__(spectrum, input_output_dtype, is_non_singular, is_self_adjoint, is_positive_definite,
                         is_square, name)
