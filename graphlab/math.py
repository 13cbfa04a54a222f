"""``tf.math``: the math ops under their TF2-style names (re-exports of graphlab.ops.math_ops)."""
from graphlab.ops.math_ops import (abs, add, add_n, argmax, argmin, ceil, cos, count_nonzero, divide,  # noqa: F401,A004
                                   equal, exp, floor, floordiv, floormod, greater, greater_equal, less,
                                   less_equal, log, log1p, logical_and, logical_not, logical_or, logical_xor,
                                   maximum, minimum, multiply, negative, not_equal, pow, realdiv, reciprocal,
                                   reduce_all, reduce_any, reduce_max, reduce_mean, reduce_min, reduce_prod,
                                   reduce_sum, round, rsqrt, sigmoid, sign, sin, sqrt, square,
                                   squared_difference, subtract, tanh, truediv)
from graphlab.ops.math_ops import floormod as mod  # noqa: F401
from graphlab.ops.scan_ops import cumprod, cumsum  # noqa: F401
from graphlab.ops.math_ops import acos, asin, atan, cosh, expm1, scalar_mul, sinh, tan  # noqa: F401
from graphlab.ops.special_math_ops import digamma, erf, lgamma, polygamma  # noqa: F401
from graphlab.ops.nn_ops import softplus, softsign  # noqa: F401,E402

from graphlab.ops.nn_ops import in_top_k, top_k  # noqa: F401,E402  (tf.math.in_top_k, tf.math.top_k)
from graphlab.ops.nn_impl import l2_normalize  # noqa: F401,E402  (also tf.nn.l2_normalize)
from graphlab.ops.math_ops import is_finite, is_inf, is_nan, reduce_logsumexp  # noqa: F401,E402
from graphlab.ops.nn_impl import zero_fraction  # noqa: F401,E402  (also tf.nn.zero_fraction)
from graphlab.ops.segment_ops import (segment_max, segment_mean, segment_min, segment_prod,  # noqa: F401,E402
                                      segment_sum, unsorted_segment_max, unsorted_segment_mean, unsorted_segment_min,
                                      unsorted_segment_prod, unsorted_segment_sqrt_n)
from graphlab.ops.array_ops import unsorted_segment_sum  # noqa: F401,E402
from graphlab.ops.counting_ops import bincount  # noqa: F401,E402
# --- more of tf.math (bench/api_coverage.py)
from graphlab.ops.array_ops import invert_permutation  # noqa: F401,E402
from graphlab.ops.special_math_ops import (acosh, asinh, atan2, atanh, erfc, nextafter, rint, xdivy,  # noqa: F401,E402
                                          xlog1py, xlogy)
from graphlab.ops.math_impl import (multiply_no_nan, polyval, reciprocal_no_nan,  # noqa: F401,E402
                                          reduce_euclidean_norm, reduce_std, reduce_variance)
from graphlab.ops.math_ops import conj, div_no_nan as divide_no_nan  # noqa: F401,E402
from graphlab.ops.nn_ops import log_softmax, softmax  # noqa: F401,E402
from graphlab.tf1_root import (accumulate_n, confusion_matrix, is_non_decreasing,  # noqa: F401,E402
                               is_strictly_increasing, lbeta, log_sigmoid)
from graphlab.ops.complex_ops import angle, conj, imag, real  # noqa: F401,E402
