"""``tf.test``: ``tf.test.TestCase`` (unittest with TF's array assertions and graph-mode sessions),
``tf.test.main``, and the device queries (graphlab runs on the CPU: no GPU)."""
import contextlib
import tempfile
import unittest

import numpy as np

from graphlab.gradient_checker import compute_gradient, compute_gradient_error  # noqa: F401


class TestCase(unittest.TestCase):
    """``tf.test.TestCase``: each test starts with a fresh default graph; ``session()`` /
    ``cached_session()`` / ``test_session()`` give a Session on it; ``evaluate`` runs tensors."""

    def __init__(self, methodName="runTest"):  # noqa: N803  (unittest's name)
        super().__init__(methodName)
        self._cached_session = None
        self._tempdir = None

    def setUp(self):
        from graphlab.framework.graph import reset_default_graph
        reset_default_graph()
        super().setUp()

    def tearDown(self):
        if self._cached_session is not None:
            self._cached_session.close()
            self._cached_session = None
        super().tearDown()

    # ------------------------------------------------------------------------------------------ sessions
    @contextlib.contextmanager
    def session(self, graph=None, config=None, use_gpu=True, force_gpu=False):
        """A new Session on ``graph`` (default: the default graph), installed as the default session."""
        from graphlab.framework.graph import get_default_graph
        from graphlab.runtime.session import Session
        graph = graph or get_default_graph()
        with graph.as_default(), Session(graph=graph, config=config) as sess, sess.as_default():
            yield sess

    @contextlib.contextmanager
    def cached_session(self, graph=None, config=None, use_gpu=True, force_gpu=False):
        """One Session per test, reused by every call (closed in tearDown)."""
        from graphlab.framework.graph import get_default_graph
        from graphlab.runtime.session import Session
        graph = graph or get_default_graph()
        if self._cached_session is None or self._cached_session.graph is not graph:
            if self._cached_session is not None:
                self._cached_session.close()
            self._cached_session = Session(graph=graph, config=config)
        with graph.as_default(), self._cached_session.as_default():
            yield self._cached_session

    def _test_session(self, graph=None, config=None, use_gpu=True, force_gpu=False):
        """TF1's name for ``cached_session``."""
        return self.cached_session(graph, config, use_gpu, force_gpu)

    # a property, so unittest and pytest do not take ``test_session`` for a test (its name starts "test")
    test_session = property(lambda self: self._test_session)

    def evaluate(self, tensors):
        """The values of ``tensors`` (any nest) from the default session, else the cached one."""
        from graphlab.framework.default_stacks import get_default_session
        sess = get_default_session()
        if sess is not None:
            return sess.run(tensors)
        with self.cached_session() as sess:
            return sess.run(tensors)

    def get_temp_dir(self):
        """A temporary directory for this test."""
        if self._tempdir is None:
            self._tempdir = tempfile.mkdtemp(prefix="graphlab_test_")
        return self._tempdir

    # ---------------------------------------------------------------------------------------- assertions
    def _values(self, a):
        if hasattr(a, "op") and hasattr(a, "dtype"):
            return np.asarray(self.evaluate(a))
        return np.asarray(a)

    def assertAllClose(self, a, b, rtol=1e-6, atol=1e-6, msg=None):  # noqa: N802  (TF's names)
        """Values (arrays, tensors, nested lists/dicts) equal within ``atol + rtol * |b|``."""
        if isinstance(a, dict) and isinstance(b, dict):
            self.assertEqual(set(a), set(b), msg)
            for key in a:
                self.assertAllClose(a[key], b[key], rtol=rtol, atol=atol, msg=msg)
            return
        if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)) and any(
                isinstance(v, (list, tuple, dict, np.ndarray)) for v in list(a) + list(b)) and len(a) == len(b) \
                and not _rectangular(a):
            for x, y in zip(a, b):
                self.assertAllClose(x, y, rtol=rtol, atol=atol, msg=msg)
            return
        a, b = self._values(a), self._values(b)
        self.assertEqual(a.shape, b.shape, "Shape mismatch: expected %s, got %s. %s" % (a.shape, b.shape, msg or ""))
        np.testing.assert_allclose(a, b, rtol=rtol, atol=atol, err_msg=msg or "", equal_nan=True)

    def assertAllEqual(self, a, b, msg=None):  # noqa: N802
        a, b = self._values(a), self._values(b)
        self.assertEqual(a.shape, b.shape, "Shape mismatch: expected %s, got %s. %s" % (a.shape, b.shape, msg or ""))
        np.testing.assert_array_equal(a, b, err_msg=msg or "")

    def assertNotAllClose(self, a, b, **kwargs):  # noqa: N802
        try:
            self.assertAllClose(a, b, **kwargs)
        except AssertionError:
            return
        raise AssertionError("The two values are close at all elements")

    def assertAllCloseAccordingToType(self, a, b, rtol=1e-6, atol=1e-6, float_rtol=1e-6, float_atol=1e-6,  # noqa: N802
                                      half_rtol=1e-3, half_atol=1e-3, msg=None):
        a, b = self._values(a), self._values(b)
        if a.dtype == np.float32 or b.dtype == np.float32:
            rtol, atol = max(rtol, float_rtol), max(atol, float_atol)
        if a.dtype == np.float16 or b.dtype == np.float16:
            rtol, atol = max(rtol, half_rtol), max(atol, half_atol)
        self.assertAllClose(a, b, rtol=rtol, atol=atol, msg=msg)

    def assertAllInRange(self, target, lower_bound, upper_bound, open_lower_bound=False,  # noqa: N802
                         open_upper_bound=False):
        target = self._values(target)
        low = target > lower_bound if open_lower_bound else target >= lower_bound
        high = target < upper_bound if open_upper_bound else target <= upper_bound
        if not np.all(low & high):
            raise AssertionError("%d of the %d element(s) are outside the range %s%s, %s%s." % (
                int(np.sum(~(low & high))), target.size, "(" if open_lower_bound else "[", lower_bound,
                upper_bound, ")" if open_upper_bound else "]"))

    def assertAllInSet(self, target, expected_set):  # noqa: N802
        target = self._values(target)
        missing = set(target.ravel().tolist()) - set(expected_set)
        if missing:
            raise AssertionError("%d unique element(s) are not in the set %s: %s" % (len(missing), expected_set,
                                                                                   sorted(missing)))

    def assertAllGreater(self, a, comparison_target):  # noqa: N802
        self.assertGreater(np.min(self._values(a)), comparison_target)

    def assertAllLess(self, a, comparison_target):  # noqa: N802
        self.assertLess(np.max(self._values(a)), comparison_target)

    def assertAllGreaterEqual(self, a, comparison_target):  # noqa: N802
        self.assertGreaterEqual(np.min(self._values(a)), comparison_target)

    def assertAllLessEqual(self, a, comparison_target):  # noqa: N802
        self.assertLessEqual(np.max(self._values(a)), comparison_target)

    def assertNear(self, f1, f2, err, msg=None):  # noqa: N802
        """|f1 - f2| <= err."""
        self.assertTrue(f1 == f2 or abs(f1 - f2) <= err, "%f != %f +/- %f%s" % (
            f1, f2, err, " (%s)" % msg if msg is not None else ""))

    def assertArrayNear(self, farray1, farray2, err, msg=None):  # noqa: N802
        self.assertEqual(len(farray1), len(farray2), msg=msg)
        for f1, f2 in zip(farray1, farray2):
            self.assertNear(float(f1), float(f2), err, msg=msg)

    def assertShapeEqual(self, np_array, tf_tensor, msg=None):  # noqa: N802
        """The numpy array's shape equals the tensor's static shape."""
        if not isinstance(np_array, (np.ndarray, np.generic)):
            raise TypeError("np_array must be a Numpy ndarray or Numpy scalar")
        if not hasattr(tf_tensor, "shape") or not hasattr(tf_tensor, "op"):
            raise TypeError("tf_tensor must be a Tensor")
        self.assertAllEqual(np_array.shape, tf_tensor.shape.as_list(), msg=msg)

    def assertDeviceEqual(self, device1, device2, msg=None):  # noqa: N802
        from graphlab.framework.device_spec import canonical_name
        self.assertEqual(canonical_name(device1), canonical_name(device2),
                         "Devices %s and %s are not equal. %s" % (device1, device2, msg or ""))

    def assertProtoEquals(self, expected, message, msg=None):  # noqa: N802
        from google.protobuf import text_format
        if isinstance(expected, str):
            expected = text_format.Parse(expected, type(message)())
        self.assertEqual(expected, message, msg)

    def assertRaisesOpError(self, expected_err_re_or_predicate):  # noqa: N802
        from graphlab.formats.errors import OpError
        return self.assertRaisesRegex(OpError, expected_err_re_or_predicate)

    def assertRaisesWithPredicateMatch(self, exception_type, expected_err_re_or_predicate):  # noqa: N802
        if callable(expected_err_re_or_predicate):
            return _PredicateRaises(self, exception_type, expected_err_re_or_predicate)
        return self.assertRaisesRegex(exception_type, expected_err_re_or_predicate)


def _rectangular(value):
    try:
        np.asarray(value, dtype=float)
        return True
    except (ValueError, TypeError):
        return False


class _PredicateRaises:
    def __init__(self, case, kind, predicate):
        self.case, self.kind, self.predicate = case, kind, predicate

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc, tb):
        if exc_type is None:
            raise AssertionError("%s not raised" % self.kind.__name__)
        if not issubclass(exc_type, self.kind) or not self.predicate(exc):
            return False
        return True


def main(argv=None):
    """``tf.test.main``: run the module's tests with unittest (flags parsed as tf.app.run does)."""
    import sys
    return unittest.main(argv=argv if argv is not None else sys.argv)


def is_gpu_available(cuda_only=False, min_cuda_compute_capability=None):
    """``tf.test.is_gpu_available``: False (graphlab runs every op with numpy on the CPU)."""
    return False


def gpu_device_name():
    """``tf.test.gpu_device_name``: '' (no GPU)."""
    return ""


def is_built_with_cuda():
    return False


def is_built_with_gpu_support():
    return False


def get_temp_dir():
    """``tf.test.get_temp_dir``: one temporary directory for the process."""
    global _TEMP
    if _TEMP is None:
        _TEMP = tempfile.mkdtemp(prefix="graphlab_test_")
    return _TEMP


_TEMP = None
