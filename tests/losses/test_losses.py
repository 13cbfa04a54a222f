"""tf.losses and tf.metrics.accuracy: names and values as TF 2.21 (compat.v1) gives them (copied from TF)."""
import numpy as np
import pytest

import graphlab as tf


@pytest.fixture
def data():
    lab = tf.constant([[0., 1.], [1., 0.]])
    pred = tf.constant([[0.2, 0.7], [0.6, 0.1]])
    logits = tf.constant([[1., 2.], [3., -1.]])
    return lab, pred, logits


def _check(t, name, value):
    assert t.name == name
    np.testing.assert_allclose(tf.Session().run(t), value, rtol=2e-6)


def test_losses_names_and_values(data):
    lab, pred, logits = data
    R = tf.losses.Reduction
    _check(tf.losses.mean_squared_error(lab, pred), "mean_squared_error/value:0", 0.074999996)
    _check(tf.losses.mean_squared_error(lab, pred, weights=tf.constant([[1.], [0.]])),
           "mean_squared_error_1/value:0", 0.065000005)
    _check(tf.losses.mean_squared_error(lab, pred, reduction=R.SUM), "mean_squared_error_2/Sum:0", 0.29999998)
    _check(tf.losses.mean_squared_error(lab, pred, weights=tf.constant([[1.], [0.]]),
                                        reduction=R.SUM_OVER_BATCH_SIZE), "mean_squared_error_3/value:0", 0.0325)
    _check(tf.losses.absolute_difference(lab, pred), "absolute_difference/value:0", 0.25)
    _check(tf.losses.log_loss(lab, pred), "log_loss/value:0", 0.299001)
    _check(tf.losses.hinge_loss(lab, logits), "hinge_loss/value:0", 0.5)
    _check(tf.losses.softmax_cross_entropy(lab, logits), "softmax_cross_entropy_loss/value:0", 0.16570581)
    _check(tf.losses.softmax_cross_entropy(lab, logits, label_smoothing=0.1),
           "softmax_cross_entropy_loss_1/value:0", 0.2907058)
    _check(tf.losses.softmax_cross_entropy(lab, logits, weights=tf.constant([1., 0.])),
           "softmax_cross_entropy_loss_2/value:0", 0.31326166)
    _check(tf.losses.sparse_softmax_cross_entropy(tf.constant([1, 0]), logits),
           "sparse_softmax_cross_entropy_loss/value:0", 0.16570581)
    _check(tf.losses.sparse_softmax_cross_entropy(tf.constant([1, 0]), logits, weights=tf.constant([0., 3.])),
           "sparse_softmax_cross_entropy_loss_1/value:0", 0.054449882)
    _check(tf.losses.sigmoid_cross_entropy(lab, logits), "sigmoid_cross_entropy_loss/value:0", 0.45050967)
    _check(tf.losses.sigmoid_cross_entropy(lab, logits, label_smoothing=0.2),
           "sigmoid_cross_entropy_loss_1/value:0", 0.5755096)
    _check(tf.losses.mean_squared_error(lab, pred, scope="myloss"), "myloss/value:0", 0.074999996)
    _check(tf.losses.mean_squared_error(lab, pred, weights=0.0), "mean_squared_error_4/value:0", 0.0)
    with tf.name_scope("outer"):
        _check(tf.losses.absolute_difference(lab, pred), "outer/absolute_difference/value:0", 0.25)


def test_losses_collection_and_totals(data):
    lab, pred, logits = data
    none = tf.losses.mean_squared_error(lab, pred, reduction=tf.losses.Reduction.NONE, loss_collection=None)
    assert none.name == "mean_squared_error/Mul:0"
    np.testing.assert_allclose(tf.Session().run(none), [[0.04, 0.09], [0.16, 0.01]], rtol=1e-6)
    tf.losses.mean_squared_error(lab, pred)
    tf.losses.hinge_loss(lab, logits)
    assert [t.name for t in tf.losses.get_losses()] == ["mean_squared_error_1/value:0", "hinge_loss/value:0"]
    assert tf.get_collection(tf.GraphKeys.LOSSES) == tf.losses.get_losses()
    assert tf.losses.get_regularization_losses() == []
    _check(tf.losses.get_regularization_loss(), "Const_3:0", 0.0)
    _check(tf.losses.get_total_loss(), "total_loss:0", 0.575)
    tf.losses.add_loss(tf.constant(5.0, name="extra"))
    assert tf.losses.get_losses()[-1].name == "extra:0"
    _check(tf.losses.get_total_loss(), "total_loss_1:0", 5.575)
    assert tf.losses.Reduction.SUM_BY_NONZERO_WEIGHTS == "weighted_sum_by_nonzero_weights"


def test_metrics_accuracy_streams_through_local_variables():
    labels = tf.placeholder(tf.int64, [None])
    predictions = tf.placeholder(tf.int64, [None])
    acc, update = tf.metrics.accuracy(labels, predictions)
    assert (acc.name, update.name) == ("accuracy/value:0", "accuracy/update_op:0")
    assert [v.name for v in tf.local_variables()] == ["accuracy/total:0", "accuracy/count:0"]
    assert [v.name for v in tf.get_collection(tf.GraphKeys.METRIC_VARIABLES)] == ["accuracy/total:0",
                                                                                  "accuracy/count:0"]
    assert tf.global_variables() == []
    sess = tf.Session()
    sess.run(tf.local_variables_initializer())
    seen = [sess.run(acc), sess.run(update, {labels: [1, 2, 3], predictions: [1, 2, 0]}), sess.run(acc),
            sess.run(update, {labels: [1], predictions: [0]}), sess.run(acc)]
    np.testing.assert_allclose(seen, [0.0, 0.6666667, 0.6666667, 0.5, 0.5], rtol=1e-6)
    acc_w, update_w = tf.metrics.accuracy(labels, predictions, weights=tf.constant([1., 0., 1.]), name="acc_w")
    assert (acc_w.name, update_w.name) == ("acc_w/value:0", "acc_w/update_op:0")
    sess.run(tf.local_variables_initializer())
    assert sess.run(update_w, {labels: [1, 2, 3], predictions: [1, 0, 0]}) == 0.5


def test_weights_that_cannot_broadcast_fail_where_the_loss_is_built():
    """TF checks the weights' static shape while building (assert_broadcastable) and says why."""
    labels = tf.placeholder(tf.float32, [4, 3])
    predictions = tf.placeholder(tf.float32, [4, 3])
    with pytest.raises(ValueError, match=r"weights can not be broadcast to values\. values\.rank=2\. "
                                         r"weights\.rank=1\."):
        tf.losses.mean_squared_error(labels, predictions, weights=tf.ones([3]))
    with pytest.raises(ValueError, match=r"weights can not be broadcast to values\. Mismatch at dim 1\. "
                                         r"values\.shape=\[4 3\], weights\.shape=\[4 2\]"):
        tf.losses.mean_squared_error(labels, predictions, weights=tf.ones([4, 2]))
    loss = tf.losses.mean_squared_error(labels, predictions, weights=tf.constant([[1.0], [0.0], [1.0], [1.0]]))
    check = tf.get_default_graph().get_operation_by_name("mean_squared_error_2/assert_broadcastable/"
                                                         "static_dims_check_success")
    assert check.type == "NoOp"
    value = tf.Session().run(loss, {labels: np.zeros((4, 3), np.float32), predictions: np.ones((4, 3), np.float32)})
    assert value == pytest.approx(1.0)
