"""FIFOQueue: state shared across differently pruned runs of one session, OutOfRangeError when closed."""
import numpy as np
import pytest

import graphlab as tf


def test_fifo_queue_roundtrip_and_close():
    tf.reset_default_graph()
    q = tf.FIFOQueue(10, [tf.float32], shapes=[[2]])
    assert q.queue_ref.op.type == "FIFOQueueV2"
    enq = q.enqueue_many([[[1., 2.], [3., 4.], [5., 6.]]])
    one, many, size, close = q.dequeue(), q.dequeue_many(2), q.size(), q.close()
    with tf.Session() as sess:
        sess.run(enq)                      # one plan fills the queue ...
        assert sess.run(size) == 3         # ... another sees it
        np.testing.assert_array_equal(sess.run(one), [1., 2.])
        np.testing.assert_array_equal(sess.run(many), [[3., 4.], [5., 6.]])
        sess.run(q.enqueue([[7., 8.]]))
        sess.run(close)
        np.testing.assert_array_equal(sess.run(one), [7., 8.])
        with pytest.raises(tf.errors.OutOfRangeError, match="is closed and has insufficient elements"):
            sess.run(one)
    with tf.Session() as other:            # a new session has its own, empty queue
        with pytest.raises(tf.errors.OpError, match="would block"):
            other.run(one)
