"""Rows for the registry-wide numeric gradient check (tests/gradients/test_gradients.py SAMPLES) of the op families in
graphlab/ops/space_batch_ops.py, conv3d_ops.py, depthwise_conv_ops.py, linalg_ops.py and the other families
added with them. Kept here so each family's rows sit together; ``samples`` gets test_gradients' helpers."""
import numpy as np


# Ops TF registers no gradient for (differentiating them raises LookupError, as in TF).
NO_RULE_IN_TF = {"Unique", "UniqueWithCounts", "DenseBincount", "HistogramFixedWidth", "RandomGammaGrad",
                 "TruncateMod", "EnsureShape", "ParallelConcat"}
# Rules a numeric check cannot test: the op draws new samples on every run. RandomGamma's rule is compared
# with TF's gradient values in tests/ops/test_random_sampling_ops.py instead.
SAMPLED = {"RandomGamma"}


def samples(tf, u, pos, ints, raw):
    """op type -> (build(*placeholders) -> output, [float64 inputs][, tolerances]), as in SAMPLES."""
    ties = np.array([1, 3, 3, 2, 3, 0, 1, 1, 5, 2, 4, 4, 5, 2, 2, 2], np.float64).reshape(1, 2, 2, 4, 1) + \
        np.arange(16).reshape(1, 2, 2, 4, 1) * 1e-3     # distinct values: no ties for the max pools
    pool3 = dict(ksize=[1, 2, 2, 2, 1], strides=[1, 1, 1, 2, 1], padding="VALID", data_format="NDHWC")
    conv3 = dict(strides=[1, 1, 2, 1, 1], padding="SAME", data_format="NDHWC", dilations=[1] * 5)
    depthwise = dict(strides=[1, 2, 1, 1], padding="SAME", explicit_paddings=[], data_format="NHWC",
                     dilations=[1] * 4)
    return {
        # saturate_cast's clamp (ClipByValue): values well inside and outside scalar and per-column limits
        "ClipByValue": (lambda x, lo, hi: raw("ClipByValue", [x, lo, hi]),
                        [np.array([[-2.0, 0.3, 2.5], [0.9, -0.7, 1.2]]), np.array(-1.0), np.array([1.0, 0.5, 2.0])]),
        # complex numbers and Fourier transforms (graphlab/ops/complex_ops.py, fft_ops.py): real in, real out
        "Complex": (lambda a, b: tf.real(tf.complex(a, b) * tf.complex(b, a + 1.0)) + tf.imag(tf.complex(a, b) * tf.complex(a, b)),
                    [u(2, 3), u(3)]),
        "Real": (lambda a: tf.real(tf.complex(a, a * a) * tf.complex(a, 1.0 + 0 * a)), [u(4)]),
        "Imag": (lambda a: tf.imag(tf.complex(a, a * a) * tf.complex(a, 1.0 + 0 * a)), [u(4)]),
        "Conj": (lambda a: tf.real(tf.conj(tf.complex(a, a * a)) * tf.complex(a, a)) + tf.imag(tf.conj(tf.complex(a, a * a))),
                 [u(4)]),
        "Angle": (lambda a, b: tf.angle(tf.complex(a, b)), [pos(4), u(4)]),
        "ComplexAbs": (lambda a, b: tf.abs(tf.complex(a, b)), [u(4), pos(4)]),
        "FFT": (lambda a, b: tf.real(tf.fft(tf.complex(a, b)) * tf.complex(b, a)), [u(2, 5), u(2, 5)]),
        "IFFT": (lambda a, b: tf.imag(tf.ifft(tf.complex(a, b)) * tf.complex(b, a)), [u(2, 5), u(2, 5)]),
        "FFT2D": (lambda a, b: tf.real(tf.fft2d(tf.complex(a, b)) * tf.complex(b, a)), [u(3, 4), u(3, 4)]),
        "IFFT2D": (lambda a, b: tf.imag(tf.ifft2d(tf.complex(a, b)) * tf.complex(b, a)), [u(3, 4), u(3, 4)]),
        "FFT3D": (lambda a, b: tf.real(tf.fft3d(tf.complex(a, b)) * tf.complex(b, a)), [u(2, 2, 3), u(2, 2, 3)]),
        "IFFT3D": (lambda a, b: tf.imag(tf.ifft3d(tf.complex(a, b)) * tf.complex(b, a)), [u(2, 2, 3), u(2, 2, 3)]),
        "RFFT": (lambda a, w: tf.real(tf.signal.rfft(a, [6]) * tf.complex(w, w)) + tf.reduce_sum(tf.imag(tf.signal.rfft(a) * tf.signal.rfft(a))),
                 [u(2, 5), u(2, 4)]),
        "IRFFT": (lambda a, b: tf.signal.irfft(tf.complex(a, b), [6]) * tf.signal.irfft(tf.complex(b, a))[..., :1],
                  [u(2, 4), u(2, 4)]),
        "RFFT2D": (lambda a, w: tf.real(tf.signal.rfft2d(a, [3, 4]) * tf.complex(w, w)), [u(2, 3, 5), u(2, 3, 3)]),
        "IRFFT2D": (lambda a, b: tf.signal.irfft2d(tf.complex(a, b), [3, 5]) * 2.0, [u(3, 3), u(3, 3)]),
        "RFFT3D": (lambda a, w: tf.real(tf.signal.rfft3d(a) * tf.complex(w, w)), [u(2, 2, 4), u(2, 2, 3)]),
        "IRFFT3D": (lambda a, b: tf.signal.irfft3d(tf.complex(a, b), [2, 2, 4]) * tf.signal.irfft3d(tf.complex(b, a), [2, 2, 4]), [u(2, 2, 3), u(2, 2, 3)]),
        # elementwise ops added for the API coverage figure (graphlab/ops/special_math_ops.py, bitwise_ops.py, math_ops.py)
        "Asinh": (tf.asinh, [u(4) * 2]),
        "Acosh": (tf.acosh, [pos(4) + 1.0]),
        "Atanh": (tf.atanh, [u(4) * 0.8]),
        "Atan2": (tf.atan2, [u(2, 3), pos(3)]),
        "Erfc": (tf.erfc, [u(4)]),
        "Rint": (lambda x: tf.rint(x) + x, [u(3) + 0.3]),
        "TruncateDiv": (lambda x, y: tf.truncatediv(x, y) + x, [pos(3) * 3 + 0.1, pos(3)]),
        "Xlogy": (tf.math.xlogy, [u(2, 3), pos(3)]),
        "Xlog1py": (tf.math.xlog1py, [u(3), pos(2, 3)]),
        "Xdivy": (tf.math.xdivy, [u(2, 3), pos(2, 3)]),
        "NextAfter": (lambda x, y: tf.math.nextafter(x, y) * 2.0, [u(3), u(2, 3)]),
        "MulNoNan": (tf.math.multiply_no_nan, [u(2, 3), u(3)]),
        "EuclideanNorm": (lambda x: tf.math.reduce_euclidean_norm(x, 1) + tf.math.reduce_euclidean_norm(
            x, 0, keepdims=True)[0, :2], [u(2, 3)]),
        # space / batch / depth
        "SpaceToBatchND": (lambda x: tf.space_to_batch_nd(x, [2, 2], [[1, 1], [0, 1]]), [u(2, 2, 3, 2)]),
        "BatchToSpaceND": (lambda x: tf.batch_to_space_nd(x, [2, 1], [[1, 0], [0, 1]]), [u(4, 2, 3, 2)]),
        "SpaceToDepth": (lambda x: tf.space_to_depth(x, 2), [u(1, 4, 2, 2)]),
        "DepthToSpace": (lambda x: tf.depth_to_space(x, 2), [u(1, 2, 1, 8)]),
        # 3-D convolution and pooling
        "Conv3D": (lambda x, f: tf.nn.conv3d(x, f, [1, 1, 2, 1, 1], "SAME"), [u(1, 3, 4, 2, 2), u(2, 2, 1, 2, 2)]),
        "Conv3DBackpropInputV2": (lambda f, dy: raw("Conv3DBackpropInputV2", [ints([1, 3, 4, 2, 2]), f, dy], **conv3),
                                  [u(2, 2, 1, 2, 2), u(1, 3, 2, 2, 2)]),
        "Conv3DBackpropFilterV2": (lambda x, dy: raw("Conv3DBackpropFilterV2", [x, ints([2, 2, 1, 2, 2]), dy], **conv3),
                                   [u(1, 3, 4, 2, 2), u(1, 3, 2, 2, 2)]),
        "MaxPool3D": (lambda x: tf.nn.max_pool3d(x, [1, 2, 2, 2, 1], [1, 1, 1, 2, 1], "SAME"), [ties]),
        "MaxPool3DGrad": (lambda g: raw("MaxPool3DGrad", [tf.constant(ties), tf.nn.max_pool3d(tf.constant(ties), **pool3),
                                                          g], **pool3), [u(1, 1, 1, 2, 1)]),
        "MaxPool3DGradGrad": (lambda g: raw("MaxPool3DGradGrad", [tf.constant(ties), tf.nn.max_pool3d(
            tf.constant(ties), **pool3), g], **pool3), [u(1, 2, 2, 4, 1)]),
        "AvgPool3D": (lambda x: tf.nn.avg_pool3d(x, [1, 2, 2, 2, 1], [1, 1, 2, 1, 1], "SAME"), [u(1, 2, 3, 3, 2)]),
        "AvgPool3DGrad": (lambda g: raw("AvgPool3DGrad", [ints([1, 2, 3, 3, 2]), g], ksize=[1, 2, 2, 2, 1],
                                        strides=[1, 1, 2, 1, 1], padding="SAME", data_format="NDHWC"),
                          [u(1, 2, 2, 3, 2)]),
        # fused batch norm: float32 only (as TF), so checked through casts with a looser tolerance
        "FusedBatchNormV3": (lambda x, s, o: tf.cast(tf.nn.fused_batch_norm(
            tf.cast(x, tf.float32), tf.cast(s, tf.float32), tf.cast(o, tf.float32))[0], tf.float64),
            [u(2, 2, 1, 3), pos(3), u(3)], {"delta": 1e-2, "rtol": 3e-3}),
        "FusedBatchNormGradV3": (lambda dy, x, s: tf.add_n([tf.reduce_sum(tf.cast(t, tf.float64) * w) for t, w in zip(
            raw("FusedBatchNormGradV3", [tf.cast(dy, tf.float32), tf.cast(x, tf.float32), tf.cast(s, tf.float32),
                                         tf.reduce_mean(tf.cast(x, tf.float32), [0, 1, 2]),
                                         tf.nn.moments(tf.cast(x, tf.float32), [0, 1, 2])[1], tf.constant(0.0)],
                epsilon=0.001, data_format="NHWC", is_training=True).op.outputs[:3],
            [tf.constant(u(2, 2, 1, 3)), tf.constant(u(3)), tf.constant(u(3))])]),
            [u(2, 2, 1, 3), u(2, 2, 1, 3), pos(3)], {"delta": 3e-3, "rtol": 5e-3}),
        # diagonals and bands
        "Diag": (tf.diag, [u(2, 2)]),
        "DiagPart": (tf.diag_part, [u(2, 3, 2, 3)]),
        "MatrixDiagV3": (lambda d: tf.linalg.diag(d, k=(-1, 1), num_rows=4, padding_value=0.5), [u(2, 3, 3)]),
        "MatrixDiagPartV3": (lambda x: tf.linalg.diag_part(x, k=(-1, 1), align="LEFT_RIGHT"), [u(2, 3, 4)]),
        "MatrixSetDiagV3": (lambda x, d: tf.linalg.set_diag(x, d, k=(0, 1)), [u(2, 3, 4), u(2, 2, 3)]),
        "MatrixBandPart": (lambda x: tf.linalg.band_part(x, 1, 0), [u(2, 3, 4)]),
        # inverses, determinants, factorizations, solvers (well-conditioned inputs)
        "MatrixInverse": (lambda a: tf.matrix_inverse(a, adjoint=True), [u(2, 3, 3) + 3 * np.eye(3)]),
        "MatrixDeterminant": (tf.matrix_determinant, [u(2, 3, 3) + 2 * np.eye(3)]),
        "LogMatrixDeterminant": (lambda a: tf.linalg.slogdet(a)[1], [u(2, 3, 3) + 2 * np.eye(3)]),
        "Cholesky": (lambda a: tf.cholesky(tf.matmul(a, a, transpose_b=True) + tf.eye(3, dtype=tf.float64)),
                     [u(2, 3, 3)]),
        "MatrixTriangularSolve": (lambda a, b: tf.matrix_triangular_solve(a, b, lower=False, adjoint=True),
                                  [u(2, 3, 3) + 3 * np.eye(3), u(3, 2)]),
        "MatrixSolve": (tf.matrix_solve, [u(2, 3, 3) + 3 * np.eye(3), u(2, 3, 2)]),
        # the op itself appears for fast=True only when large (TF's rule refuses fast=False): built raw here
        "MatrixSolveLs": (lambda a, b: raw("MatrixSolveLs", [a, b, tf.constant(0.1, tf.float64)], fast=True) +
                          tf.reduce_sum(raw("MatrixSolveLs", [tf.transpose(a), b[:3], tf.constant(0.2, tf.float64)],
                                            fast=True)), [u(4, 3), u(4, 2)]),
        "SelfAdjointEigV2": (lambda a: tf.self_adjoint_eig(a + tf.matrix_transpose(a))[0] +
                             tf.reduce_sum(tf.square(tf.self_adjoint_eig(a + tf.matrix_transpose(a))[1]), -1),
                             [u(2, 3, 3)]),
        "Svd": (lambda a: tf.square(tf.svd(a)[1]) + tf.reduce_sum(tf.svd(a, compute_uv=False)), [u(2, 3, 4)]),
        "Qr": (lambda a: tf.square(tf.qr(a)[0]) + tf.reduce_sum(tf.square(tf.qr(a)[1])), [u(2, 4, 3)]),
        "Einsum": (lambda a, b: tf.einsum("bij,jk->bik", a, b) + tf.reduce_sum(tf.einsum("bii->b", a)), [u(2, 3, 3), u(3, 3)]),
        "Cross": (tf.cross, [u(4, 3), u(4, 3)]),
        # segments, partitions, gathers and scatters (distinct values: no ties for max/min)
        "SegmentSum": (lambda d: tf.reshape(tf.segment_sum(d, ints([0, 0, 2])), [3, 2]), [u(3, 2)]),
        "SegmentMean": (lambda d: tf.reshape(tf.segment_mean(d, ints([0, 0, 2])), [3, 2]), [u(3, 2)]),
        "SegmentMax": (lambda d: tf.reshape(tf.segment_max(d, ints([0, 0, 2])), [3, 2]), [u(3, 2)]),
        "SegmentMin": (lambda d: tf.reshape(tf.segment_min(d, ints([0, 0, 2])), [3, 2]), [u(3, 2)]),
        "SegmentProd": (lambda d: tf.reshape(tf.segment_prod(d, ints([0, 0, 2])), [3, 2]), [u(3, 2)]),
        "UnsortedSegmentMax": (lambda d: tf.unsorted_segment_max(d, ints([1, -1, 0]), 2), [u(3, 2)]),
        "UnsortedSegmentMin": (lambda d: tf.unsorted_segment_min(d, ints([1, 0, 1]), 2), [u(3, 2)]),
        "UnsortedSegmentProd": (lambda d: tf.unsorted_segment_prod(d, ints([1, 0, 1]), 3), [u(3, 2)]),
        "DynamicPartition": (lambda d: tf.reshape(tf.dynamic_partition(d, ints([1, 0, 1]), 2)[1], [2, 2]), [u(3, 2)]),
        "ParallelDynamicStitch": (lambda a, b: raw("ParallelDynamicStitch", [[ints([0, 2]), ints([1])], [a, b]]),
                                  [u(2, 2), u(1, 2)]),
        "GatherNd": (lambda p: tf.gather_nd(p, ints([[0, 1], [2, 0], [0, 1]])) +
                     tf.reduce_sum(tf.gather_nd(p, ints([[1], [1]]))), [u(3, 2)]),
        "ScatterNd": (lambda v: tf.scatter_nd(ints([[0], [2], [0]]), v, ints([3, 2])), [u(3, 2)]),
        "TensorScatterUpdate": (lambda t, v: tf.tensor_scatter_update(t, ints([[0], [2]]), v), [u(3, 2), u(2, 2)]),
        "TensorScatterAdd": (lambda t, v: tf.tensor_scatter_add(t, ints([[0], [0]]), v), [u(3, 2), u(2, 2)]),
        "TensorScatterSub": (lambda t, v: tf.tensor_scatter_sub(t, ints([[1, 1]]), v), [u(3, 2), u(1)]),
        "TensorScatterMax": (lambda t, v: tf.tensor_scatter_nd_max(t, ints([[0], [2]]), v), [u(3, 2), u(2, 2)]),
        "TensorScatterMin": (lambda t, v: tf.tensor_scatter_nd_min(t, ints([[0], [2]]), v), [u(3, 2), u(2, 2)]),
        "Roll": (lambda x: tf.roll(x, [1, -1], [0, 1]), [u(3, 2)]),
        # depthwise
        "DepthwiseConv2dNative": (lambda x, f: tf.nn.depthwise_conv2d_native(x, f, [1, 2, 1, 1], "SAME"),
                                  [u(1, 4, 3, 2), u(2, 2, 2, 2)]),
        "DepthwiseConv2dNativeBackpropInput": (
            lambda f, dy: raw("DepthwiseConv2dNativeBackpropInput", [ints([1, 4, 3, 2]), f, dy], **depthwise),
            [u(2, 2, 2, 2), u(1, 2, 3, 4)]),
        "DepthwiseConv2dNativeBackpropFilter": (
            lambda x, dy: raw("DepthwiseConv2dNativeBackpropFilter", [x, ints([2, 2, 2, 2]), dy], **depthwise),
            [u(1, 4, 3, 2), u(1, 2, 3, 4)]),
    }
