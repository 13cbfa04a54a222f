"""tf.layers against live TF 1.15-style layers (tf_keras's legacy_tf_layers under TF 2.21): each layer's graph
op for op (variable names, scopes, the ops keras builds), values of forward passes, gradients and training
steps with seeded initializers, batch normalization's moving averages through UPDATE_OPS and its training
switch (a bool and a bool tensor), and the layer classes' reuse and weight lists."""
import numpy as np

from tests.tfcompare import Cases, install_tests

R = np.random.RandomState(7)
IMG = R.normal(0, 1, (3, 6, 6, 2)).astype(np.float32)
SEQ = R.normal(0, 1, (3, 8, 2)).astype(np.float32)
VOL = R.normal(0, 1, (2, 4, 4, 4, 2)).astype(np.float32)
VEC = R.normal(2, 3, (5, 3)).astype(np.float32)

GRAPHS = {
    "conv1d": "x=tf.placeholder(tf.float32,[None,10,3]); y=tf.layers.conv1d(x,4,3)",
    "conv3d": "x=tf.placeholder(tf.float32,[None,4,4,4,2]); y=tf.layers.conv3d(x,4,3,padding='same')",
    "conv2d_dilated_regularized": "x=tf.placeholder(tf.float32,[None,6,6,3]); "
                                  "y=tf.layers.conv2d(x,4,3,dilation_rate=2,activation=tf.nn.relu,"
                                  "kernel_regularizer=tf.nn.l2_loss)",
    "conv2d_transpose": "x=tf.placeholder(tf.float32,[None,5,5,2]); y=tf.layers.conv2d_transpose(x,4,3,strides=2)",
    "conv2d_transpose_same": "x=tf.placeholder(tf.float32,[None,6,6,3]); y=tf.layers.conv2d_transpose(x,4,[3,2],"
                             "strides=[2,1],padding='same',activation=tf.nn.relu)",
    "conv2d_transpose_unknown_size": "x=tf.placeholder(tf.float32,[None,None,None,3]); "
                                     "y=tf.layers.conv2d_transpose(x,4,3,strides=2)",
    "conv3d_transpose_same": "x=tf.placeholder(tf.float32,[None,4,4,4,2]); "
                             "y=tf.layers.conv3d_transpose(x,4,3,strides=2,padding='same')",
    "conv3d_transpose_valid": "x=tf.placeholder(tf.float32,[None,4,4,4,2]); "
                              "y=tf.layers.conv3d_transpose(x,4,3,strides=2)",
    "separable_conv2d": "x=tf.placeholder(tf.float32,[None,5,5,2]); y=tf.layers.separable_conv2d(x,4,3)",
    "separable_conv2d_dilated": "x=tf.placeholder(tf.float32,[None,6,6,3]); y=tf.layers.separable_conv2d(x,4,3,"
                                "depth_multiplier=2,padding='same',dilation_rate=2)",
    "separable_conv1d": "x=tf.placeholder(tf.float32,[None,5,2]); y=tf.layers.separable_conv1d(x,4,3)",
    "pooling_1d": "x=tf.placeholder(tf.float32,[None,8,2]); y=tf.layers.max_pooling1d(x,2,2); "
                  "z=tf.layers.average_pooling1d(x,3,2,padding='same')",
    "pooling_2d": "x=tf.placeholder(tf.float32,[None,4,4,2]); y=tf.layers.max_pooling2d(x,2,2); "
                  "z=tf.layers.average_pooling2d(x,2,1,padding='same')",
    "pooling_3d": "x=tf.placeholder(tf.float32,[None,4,4,4,2]); y=tf.layers.max_pooling3d(x,2,2); "
                  "z=tf.layers.average_pooling3d(x,2,2)",
    "flatten_and_dropout": "x=tf.placeholder(tf.float32,[None,4,4,2]); f=tf.layers.flatten(x); "
                           "d=tf.layers.dropout(x,0.3,training=True); d2=tf.layers.dropout(x,0.3); "
                           "f2=tf.layers.flatten(tf.placeholder(tf.float32,[2,None,3])); "
                           "f3=tf.layers.flatten(tf.placeholder(tf.float32,[None,None,3]))",
    "dropout_noise_shape": "x=tf.placeholder(tf.float32,[None,8,3]); "
                           "z=tf.layers.dropout(x,0.5,noise_shape=[None,1,3],training=True,seed=3)",
    "dropout_training_tensor": "x=tf.placeholder(tf.float32,[None,3])\n"
                               "with tf.variable_scope('net'):\n"
                               "  y=tf.layers.dense(x,4)\n"
                               "  z=tf.layers.Dropout(0.5)(y,training=tf.placeholder(tf.bool))",
    "batch_norm_inference": "x=tf.placeholder(tf.float32,[None,4,4,2]); y=tf.layers.batch_normalization(x)",
    "batch_norm_fused_training": "x=tf.placeholder(tf.float32,[None,4,4,2]); "
                                 "y=tf.layers.batch_normalization(x,training=True)",
    "batch_norm_fused_training_tensor": "x=tf.placeholder(tf.float32,[None,4,4,2]); "
                                        "y=tf.layers.batch_normalization(x,training=tf.placeholder(tf.bool))",
    "batch_norm_2d_training": "x=tf.placeholder(tf.float32,[None,3]); "
                              "y=tf.layers.batch_normalization(x,training=True)",
    "batch_norm_2d_training_tensor": "x=tf.placeholder(tf.float32,[None,3]); y=tf.layers.batch_normalization("
                                     "x,training=tf.placeholder_with_default(False,[]))",
    "batch_norm_2d_inference": "x=tf.placeholder(tf.float32,[None,3]); y=tf.layers.batch_normalization(x)",
    "batch_norm_3d_no_center_scale": "x=tf.placeholder(tf.float32,[None,4,3]); y=tf.layers.batch_normalization("
                                     "x,center=False,scale=False,training=True,momentum=0.9)",
    "batch_norm_reuse": "x=tf.placeholder(tf.float32,[None,4,4,3]); y=tf.layers.batch_normalization(x,"
                        "training=True,name='bn'); y2=tf.layers.batch_normalization(x,training=True,name='bn',"
                        "reuse=True)",
    "dense_class_called_twice": "x=tf.placeholder(tf.float32,[None,3]); l=tf.layers.Dense(4,activation=tf.nn.relu)"
                                "; y=l(x); y2=l(x); m=tf.layers.dense(x,2)",
    "dense_reuse_by_name": "x=tf.placeholder(tf.float32,[None,3]); y=tf.layers.dense(x,4); "
                           "y2=tf.layers.dense(x,4,name='dense',reuse=True); "
                           "y3=tf.layers.dense(x,4,name='dense',reuse=True)",
    "dense_rank_3": "x=tf.placeholder(tf.float32,[None,5,3]); y=tf.layers.dense(x,4)",
    "classes_cnn": "x=tf.placeholder(tf.float32,[None,6,6,3]); y=tf.layers.Conv2D(4,3,name='c')(x); "
                   "y2=tf.layers.MaxPooling2D(2,2)(y); z=tf.layers.Flatten()(y2); w=tf.layers.Dense(3)(z)",
}

_SEEDED = ""
# Variables get fixed values, so the comparison does not depend on the two random generators
_FILL = """
    rng = np.random.RandomState(0)
    for v in tf.global_variables():
        sess.run(v.assign(rng.normal(0, 0.5, v.shape.as_list()).astype(np.float32)))
"""
VALUES = {
    "conv_layers_forward_and_gradients": _SEEDED + """
x = tf.constant(IMG)
outs = [tf.layers.conv2d(x, 3, 3, padding='same', activation=tf.nn.relu),
        tf.layers.conv2d_transpose(x, 2, 3, strides=2),
        tf.layers.conv2d_transpose(x, 2, [2, 3], strides=[1, 2], padding='same'),
        tf.layers.separable_conv2d(x, 3, 3, depth_multiplier=2),
        tf.layers.conv1d(tf.constant(SEQ), 3, 3, strides=2, padding='same'),
        tf.layers.separable_conv1d(tf.constant(SEQ), 2, 3),
        tf.layers.conv3d(tf.constant(VOL), 2, 3),
        tf.layers.conv3d_transpose(tf.constant(VOL), 2, 3, strides=2, padding='same')]
loss = tf.add_n([tf.reduce_sum(tf.square(o)) for o in outs])
grads = tf.gradients(loss, tf.trainable_variables() + [x])
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
""" + _FILL + """
    fetch = [tf.constant(v) for v in sess.run(outs + grads)]
""",
    "pooling_flatten_dense": _SEEDED + """
x = tf.constant(IMG)
outs = [tf.layers.max_pooling2d(x, 2, 2), tf.layers.average_pooling2d(x, 3, 2, padding='same'),
        tf.layers.max_pooling1d(tf.constant(SEQ), 3, 2, padding='same'),
        tf.layers.average_pooling1d(tf.constant(SEQ), 2, 2),
        tf.layers.max_pooling3d(tf.constant(VOL), 2, 2), tf.layers.average_pooling3d(tf.constant(VOL), 2, 1),
        tf.layers.dense(tf.layers.flatten(x), 4, activation=tf.nn.tanh),
        tf.layers.dense(tf.constant(SEQ), 3)]
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
""" + _FILL + """
    fetch = [tf.constant(v) for v in sess.run(outs)]
""",
    "dropout_scaling": """
x = tf.ones([4, 10])
on = tf.layers.dropout(x, 0.5, training=True, seed=5)
fetch = [tf.layers.dropout(x, 0.5, seed=5), tf.reduce_all(tf.equal(on * (on - 2.0), 0.0)),
         tf.layers.dropout(x, 0.0, training=True)]
""",
    "batch_norm_fused_moving_averages": """
x = tf.placeholder(tf.float32, [None, 6, 6, 2])
training = tf.placeholder(tf.bool, [])
y = tf.layers.batch_normalization(x, training=training, momentum=0.8)
update_ops = tf.get_collection(tf.GraphKeys.UPDATE_OPS)
loss = tf.reduce_sum(y * tf.range(2.0))
with tf.control_dependencies(update_ops):
    train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
out = []
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(3):
        out += sess.run([y, train], {x: IMG * (step + 1), training: True})[:1]
        out += sess.run(tf.global_variables())
    out.append(sess.run(y, {x: IMG, training: False}))
fetch = [tf.constant(v) for v in out] + [tf.constant(len(update_ops))]
""",
    "batch_norm_dense_moving_averages": """
x = tf.placeholder(tf.float32, [None, 3])
y = tf.layers.batch_normalization(x, training=True, momentum=0.5, epsilon=0.01)
z = tf.layers.batch_normalization(x, name='eval')
y3 = tf.layers.batch_normalization(tf.reshape(x, [5, 1, 3]), axis=1, training=True)
grads = tf.gradients(tf.reduce_sum(y * y * tf.range(3.0)), [x] + tf.trainable_variables()[:2])
out = []
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(2):
        out += sess.run([y, z, y3] + grads, {x: VEC + step})
        sess.run(tf.get_collection(tf.GraphKeys.UPDATE_OPS), {x: VEC + step})
    out += sess.run(tf.global_variables())
fetch = [tf.constant(v) for v in out]
""",
}

VALUES["batch_norm_colocation_and_devices"] = """
def classes(op):
    try:
        return ",".join(c if isinstance(c, str) else c.decode() for c in op.get_attr("_class"))
    except ValueError:
        return ""
x = tf.placeholder(tf.float32, [None, 4, 4, 2])
with tf.device("/cpu:0"):
    y = tf.layers.batch_normalization(x, training=True)
    z = tf.layers.batch_normalization(tf.layers.flatten(x), training=tf.placeholder(tf.bool, []))
fetch = [tf.constant(["%s %s %s" % (op.name, op.device, classes(op)) for op in tf.get_default_graph().get_operations()
                      if "Initializer" not in op.name])]
"""

BUILD_ERRORS = {
    "dense_unknown_last_dimension": "tf.layers.dense(tf.placeholder(tf.float32, [None, None]), 3)",
    "batch_norm_reuse_missing_variable": "x = tf.ones([2, 4, 4, 3]); tf.layers.batch_normalization(x, center=False, "
                                         "name='bn'); tf.layers.batch_normalization(x, name='bn', reuse=True)",
    "scope_name_before_call": "tf.layers.Dense(3).scope_name",
}

CASES = Cases(graphs=GRAPHS, values=VALUES, build_errors=BUILD_ERRORS,
              data={"IMG": IMG, "SEQ": SEQ, "VOL": VOL, "VEC": VEC})
install_tests(globals(), CASES, rtol=2e-5, atol=2e-5)


def test_layer_classes_names_weights_and_updates():
    import graphlab as tf
    tf.reset_default_graph()
    first, conv, second = tf.layers.Dense(4), tf.layers.Conv2D(2, 3), tf.layers.Dense(3, name="foo")
    assert (first.name, conv.name, second.name) == ("dense_1", "conv2d_1", "foo")
    x = tf.placeholder(tf.float32, [None, 3])
    first(x)
    assert first.built and first.scope_name == "dense"
    assert [v.name for v in first.variables] == ["dense/kernel:0", "dense/bias:0"]
    assert first.trainable_weights == first.variables and first.non_trainable_weights == []
    bn = tf.layers.BatchNormalization()
    bn(x, training=True)
    assert [v.name for v in bn.trainable_weights] == ["batch_normalization/gamma:0", "batch_normalization/beta:0"]
    assert [v.name for v in bn.non_trainable_weights] == ["batch_normalization/moving_mean:0",
                                                          "batch_normalization/moving_variance:0"]
    assert [op.name for op in bn.updates] == ["batch_normalization/AssignMovingAvg",
                                              "batch_normalization/AssignMovingAvg_1"]
    assert tf.get_collection(tf.GraphKeys.UPDATE_OPS) == bn.updates
    assert isinstance(bn, tf.layers.Layer)


def test_custom_layer_subclass():
    import graphlab as tf
    tf.reset_default_graph()

    class Scale(tf.layers.Layer):
        def build(self, input_shape):
            self.w = self.add_weight("w", [input_shape[-1].value], initializer=tf.ones_initializer())
            self.built = True

        def call(self, inputs):
            return inputs * self.w

    layer = Scale()
    y = layer(tf.constant([[1.0, 2.0]]))
    assert layer.name == "scale_1" and [v.name for v in layer.variables] == ["scale/w:0"]
    assert y.op.name == "scale/mul"
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        np.testing.assert_array_equal(sess.run(y), [[1.0, 2.0]])
