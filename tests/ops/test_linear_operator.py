"""tf.linalg.LinearOperator and its 21 subclasses against TensorFlow running the same program: each operator's
dense matrix, shape, matmul (and adjoint matmul), matvec, solve, determinant, log|det|, diagonal and trace."""
import contextlib
import io
import json

import numpy as np

import graphlab
from tests import tfref

PROGRAM = '''
import json
import numpy as np
rng = np.random.RandomState(5)
A = rng.randn(3, 3).astype(np.float32) + 3 * np.eye(3, dtype=np.float32)
B = rng.randn(2, 2).astype(np.float32) + 2 * np.eye(2, dtype=np.float32)
X = rng.randn(3, 2).astype(np.float32)
L = tf.linalg
ops = {
    "full": L.LinearOperatorFullMatrix(A),
    "diag": L.LinearOperatorDiag([1.0, 2.0, -3.0]),
    "tril": L.LinearOperatorLowerTriangular(A),
    "eye": L.LinearOperatorIdentity(3),
    "eye_batch": L.LinearOperatorIdentity(2, batch_shape=[2]),
    "scaled": L.LinearOperatorScaledIdentity(3, 2.5),
    "zeros": L.LinearOperatorZeros(3, 2, is_square=False, is_self_adjoint=False),
    "toeplitz": L.LinearOperatorToeplitz([1.0, 2.0, 3.0], [1.0, -1.0, 0.5]),
    "householder": L.LinearOperatorHouseholder([1.0, 2.0, 2.0]),
    "perm": L.LinearOperatorPermutation([2, 0, 1]),
    "tridiag": L.LinearOperatorTridiag(np.array([[1., 2., 0.], [4., 5., 6.], [0., 7., 8.]], np.float32)),
    "tridiag_seq": L.LinearOperatorTridiag([[1., 2., 9.], [4., 5., 6.], [9., 7., 8.]], diagonals_format="sequence"),
    "tridiag_mat": L.LinearOperatorTridiag(A, diagonals_format="matrix"),
    "adjoint": L.LinearOperatorAdjoint(L.LinearOperatorFullMatrix(A)),
    "inverse": L.LinearOperatorInversion(L.LinearOperatorFullMatrix(A)),
    "composition": L.LinearOperatorComposition([L.LinearOperatorFullMatrix(A), L.LinearOperatorDiag([1.0, 2.0, 3.0])]),
    "kronecker": L.LinearOperatorKronecker([L.LinearOperatorFullMatrix(B), L.LinearOperatorFullMatrix(A)]),
    "blockdiag": L.LinearOperatorBlockDiag([L.LinearOperatorFullMatrix(B), L.LinearOperatorFullMatrix(A)]),
    "blocktril": L.LinearOperatorBlockLowerTriangular([[L.LinearOperatorFullMatrix(B)],
                                                       [L.LinearOperatorFullMatrix(X), L.LinearOperatorFullMatrix(A)]]),
    "lowrank": L.LinearOperatorLowRankUpdate(L.LinearOperatorDiag([2.0, 3.0, 4.0]), X, diag_update=[0.5, 2.0]),
    "circulant": L.LinearOperatorCirculant(tf.cast(tf.constant([6.0, 1.0 - 1j, 2.0, 1.0 + 1j]), tf.complex64)),
    "circulant_real": L.LinearOperatorCirculant(tf.cast(tf.constant([6.0, 1.0, 2.0, 1.0]), tf.complex64),
                                                input_output_dtype=tf.float32),
    "circulant2d": L.LinearOperatorCirculant2D(tf.cast(tf.constant([[6.0, 1.0, 1.0], [2.0, 1.0, 1.0]]), tf.complex64),
                                               input_output_dtype=tf.float32),
    "circulant3d": L.LinearOperatorCirculant3D(tf.cast(tf.reshape(tf.range(1.0, 9.0), [2, 2, 2]), tf.complex64),
                                               input_output_dtype=tf.float32),
}
fetch, keys = [], []
def add(key, t):
    keys.append(key)
    fetch.append(t)
for name, op in ops.items():
    dense = op.to_dense()
    if dense.dtype.is_complex:
        add(name + "/dense_re", tf.real(dense)); add(name + "/dense_im", tf.imag(dense))
        continue
    add(name + "/dense", dense)
    add(name + "/shape", tf.constant(op.shape.as_list() if op.shape.is_fully_defined() else [-1]))
    n = op.shape.as_list()[-1]
    x = tf.ones(op.batch_shape.as_list() + [n, 2]) * tf.reshape(tf.range(1.0, 1.0 + n), [n, 1])
    add(name + "/matmul", op.matmul(x))
    add(name + "/diag_part", op.diag_part())
    add(name + "/trace", op.trace())
    if name != "zeros":
        add(name + "/matvec", op.matvec(tf.range(1.0, 1.0 + n)))
        add(name + "/solve", op.solve(x))
        add(name + "/logdet", op.log_abs_determinant())
        add(name + "/det", op.determinant())
        add(name + "/adj_matmul", op.matmul(x, adjoint=True))
with tf.Session() as sess:
    values = sess.run(fetch)
print(json.dumps({k: np.round(np.asarray(v, np.float64), 4).tolist() for k, v in zip(keys, values)}))
'''


def test_linear_operators_match_tensorflow():
    theirs = json.loads(tfref.run_tf(PROGRAM).strip().splitlines()[-1])
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        exec(PROGRAM, {"tf": graphlab})
    ours = json.loads(buf.getvalue().strip().splitlines()[-1])
    assert sorted(ours) == sorted(theirs)
    for key in theirs:
        np.testing.assert_allclose(np.array(ours[key]), np.array(theirs[key]), rtol=1e-3, atol=2e-3, err_msg=key)


def test_operators_compose_and_invert():
    L = graphlab.linalg
    a = L.LinearOperatorFullMatrix(np.array([[2.0, 1.0], [0.0, 3.0]], np.float32))
    d = L.LinearOperatorDiag([2.0, 4.0])
    assert isinstance(a.matmul(d), L.LinearOperatorComposition)
    assert isinstance(a.inverse(), L.LinearOperatorInversion) and d.adjoint() is d   # a real diagonal is self-adjoint
    with graphlab.Session() as sess:
        np.testing.assert_allclose(sess.run(a.inverse().matmul(a).to_dense()), np.eye(2), atol=1e-6)
        np.testing.assert_allclose(sess.run((a @ d).to_dense()), [[4.0, 4.0], [0.0, 12.0]])
