"""tf.keras.optimizers as tf-keras's legacy optimizers build them in graph mode: every op of get_updates
(gradients, hyper-parameter variables, slots, coefficients, ResourceApply* updates, iter += 1) and the
variables' values over three steps, for each optimizer and option; tf.train optimizers through get()."""
import pytest

from tests.keras import kerasref

STEPS = """
w = tf.Variable(np.array([[1., -2.], [0.5, 3.]], np.float32), use_resource=True, name="w")
b = tf.Variable(np.array([0.1, -0.2], np.float32), use_resource=True, name="b")
x = tf.constant(np.array([[1., 2.], [3., 4.], [-1., 0.5]], np.float32))
loss = tf.reduce_mean(tf.square(tf.matmul(x, w) + b))
n0 = len(tf.get_default_graph().get_operations())
opt = keras.optimizers.%s
with tf.name_scope("training"):
    upd = opt.get_updates(loss, [w, b])
built = ops(n0)
sess = keras.backend.get_session()
sess.run(tf.variables_initializer([w, b]))
vals = []
for i in range(3):
    sess.run(upd)
    vals.append([floats(v) for v in sess.run([w, b])])
result = {"ops": built, "values": vals, "weights": [v.name for v in opt.weights],
          "iterations": int(sess.run(opt.iterations)), "lr": float(keras.backend.get_value(opt.lr))}
"""
OPTIMIZERS = ["Adam(0.1)", "SGD(0.1)", "SGD(0.1, momentum=0.9)", "SGD(0.1, momentum=0.9, nesterov=True)",
              "RMSprop(0.1)", "RMSprop(0.1, momentum=0.5)", "RMSprop(0.1, momentum=0.5, centered=True)",
              "RMSprop(0.1, centered=True)", "Adagrad(0.1)", "Adadelta(1.0)", "Adamax(0.1)", "Nadam(0.1)",
              "Adam(0.1, decay=0.01)", "SGD(0.1, clipnorm=0.5)", "Adam(0.1, clipvalue=0.1)",
              "Adam(learning_rate=0.1, global_clipnorm=0.1)", "Adam(0.1, amsgrad=True)"]
SNIPPETS = {"steps " + o: STEPS % o for o in OPTIMIZERS}
SPARSE = """
emb = tf.Variable(np.arange(12, dtype=np.float32).reshape(6, 2) / 10, use_resource=True, name="emb")
ids = tf.constant([1, 3, 1], name="ids")
loss = tf.reduce_sum(tf.square(tf.nn.embedding_lookup(emb, ids)))
n0 = len(tf.get_default_graph().get_operations())
opt = keras.optimizers.%s
with tf.name_scope("training"):
    upd = opt.get_updates(loss, [emb])
built = ops(n0)
sess = keras.backend.get_session()
sess.run(emb.initializer)
vals = []
for i in range(2):
    sess.run(upd)
    vals.append(floats(sess.run(emb)))
result = {"ops": built, "values": vals}
"""
for _o in ["SGD(0.1)", "SGD(0.1, momentum=0.9)", "SGD(0.1, momentum=0.9, nesterov=True)", "Adam(0.1)",
           "Adagrad(0.1)"]:
    SNIPPETS["embedding rows " + _o] = SPARSE % _o
SNIPPETS["config"] = """
result = [keras.optimizers.Adam(0.01, decay=0.1).get_config(), keras.optimizers.SGD(momentum=0.5).get_config(),
          keras.optimizers.RMSprop().get_config(), type(keras.optimizers.get("adam")).__name__,
          type(keras.optimizers.get("rmsprop")).__name__, keras.optimizers.get("sgd").get_config()]
"""
SNIPPETS["set lr"] = """
opt = keras.optimizers.SGD(0.1)
w = tf.Variable([1.0], use_resource=True)
upd = opt.get_updates(tf.reduce_sum(w * w), [w])
sess = keras.backend.get_session()
sess.run(w.initializer)
keras.backend.set_value(opt.lr, 0.5)
sess.run(upd)
opt.learning_rate = 0.25
sess.run(upd)
result = [floats(sess.run(w)), float(keras.backend.get_value(opt.learning_rate))]
"""
SNIPPETS["errors"] = """
result = []
for make in [lambda: keras.optimizers.SGD(momentum=2.0), lambda: keras.optimizers.Adam(foo=1),
             lambda: keras.optimizers.Adagrad(initial_accumulator_value=-1.0), lambda: keras.optimizers.get("nope"),
             lambda: keras.optimizers.SGD(clipnorm=-1)]:
    try:
        make()
        result.append(None)
    except Exception as e:
        text = str(e)
        if "Allowed kwargs are {" in text:   # a set: its order changes from process to process
            head, _, tail = text.partition("{")
            text = head + str(sorted(tail.rstrip(".}").replace("'", "").split(", ")))
        result.append([type(e).__name__, text])
"""
SNIPPETS["tf.train optimizer"] = """
opt = keras.optimizers.get(tf.train.GradientDescentOptimizer(0.1))
w = tf.Variable([1.0, 2.0], name="w")
upd = opt.get_updates(tf.reduce_sum(w * w), [w])
sess = keras.backend.get_session()
sess.run(w.initializer)
sess.run(upd)
result = [type(opt).__name__, opt.iterations.name, floats(sess.run(w)), int(sess.run(opt.iterations))]
"""


@pytest.fixture(scope="module")
def theirs():
    return kerasref.reference(SNIPPETS)


@pytest.mark.parametrize("key", sorted(SNIPPETS))
def test_optimizers_as_tf(key, theirs):
    ours = kerasref.run_ours(SNIPPETS[key], raising="error" in key)
    kerasref.assert_same(ours["result"], theirs[key]["result"], rtol=1e-6)
