"""``tf.linalg``: linear algebra (re-exports; TF1's root aliases such as ``tf.matrix_inverse`` are in graphlab)."""
from graphlab.ops.clip_ops import global_norm  # noqa: F401
from graphlab.ops.diag_ops import diag as tensor_diag  # noqa: F401
from graphlab.ops.diag_ops import diag_part as tensor_diag_part  # noqa: F401
from graphlab.ops.diag_ops import matrix_band_part as band_part  # noqa: F401
from graphlab.ops.diag_ops import matrix_diag as diag  # noqa: F401
from graphlab.ops.diag_ops import matrix_diag_part as diag_part  # noqa: F401
from graphlab.ops.diag_ops import matrix_set_diag as set_diag  # noqa: F401
from graphlab.ops.einsum_ops import einsum  # noqa: F401
from graphlab.ops.linalg_impl import (adjoint, cross, eye, logdet, matrix_transpose, matvec, norm,  # noqa: F401
                                      tensordot, trace)
from graphlab.ops.linalg_impl import matrix_transpose as transpose  # noqa: F401
from graphlab.ops.linalg_ops import cholesky, cholesky_solve, qr, svd  # noqa: F401
from graphlab.ops.linalg_ops import log_matrix_determinant as slogdet  # noqa: F401
from graphlab.ops.linalg_ops import matrix_determinant as det  # noqa: F401
from graphlab.ops.linalg_ops import matrix_inverse as inv  # noqa: F401
from graphlab.ops.linalg_ops import matrix_solve as solve  # noqa: F401
from graphlab.ops.linalg_ops import matrix_solve_ls as lstsq  # noqa: F401
from graphlab.ops.linalg_ops import matrix_triangular_solve as triangular_solve  # noqa: F401
from graphlab.ops.linalg_ops import self_adjoint_eig as eigh  # noqa: F401
from graphlab.ops.linalg_ops import self_adjoint_eigvals as eigvalsh  # noqa: F401
from graphlab.ops.math_ops import matmul  # noqa: F401
from graphlab.ops.nn_impl import l2_normalize  # noqa: F401
from graphlab.ops.linalg_impl import matrix_rank, normalize, pinv  # noqa: F401,E402
from graphlab.linear_operator import (LinearOperator, LinearOperatorAdjoint, LinearOperatorBlockDiag,  # noqa: F401,E402
                                      LinearOperatorBlockLowerTriangular, LinearOperatorCirculant,
                                      LinearOperatorCirculant2D, LinearOperatorCirculant3D, LinearOperatorComposition,
                                      LinearOperatorDiag, LinearOperatorFullMatrix, LinearOperatorHouseholder,
                                      LinearOperatorIdentity, LinearOperatorInversion, LinearOperatorKronecker,
                                      LinearOperatorLowerTriangular, LinearOperatorLowRankUpdate,
                                      LinearOperatorPermutation, LinearOperatorScaledIdentity, LinearOperatorToeplitz,
                                      LinearOperatorTridiag, LinearOperatorZeros)
