"""py_func runs Python in the session; a PyFunc whose function is not registered fails clearly."""
import numpy as np
import pytest

import graphlab as tf
from graphlab.ops import script_ops


def test_py_func_runs_and_missing_function_is_reported():
    tf.reset_default_graph()
    x = tf.placeholder(tf.float32, [3])
    y = tf.py_func(lambda v: (v * 2).astype(np.float32), [x], tf.float32, name="double")
    assert y.op.type == "PyFunc" and y.op.get_attr("token").startswith("pyfunc_")
    with tf.Session() as sess:
        np.testing.assert_array_equal(sess.run(y, {x: [1, 2, 3]}), [2, 4, 6])
        token = y.op.get_attr("token")
        saved = script_ops._FUNCS.pop(token)       # as in a graph loaded by another process
        try:
            # TF 2.21's error for a graph loaded by a process that did not register the function
            with pytest.raises(tf.errors.InvalidArgumentError,
                               match=r"\nValueError: Could not find callback with key=%s in the registry\." % token):
                sess.run(y, {x: [1, 2, 3]})
        finally:
            script_ops._FUNCS[token] = saved
