"""ApplyAdam's one-pass C kernel (graphlab/ops/_fused.c) against its numpy fallback and against TensorFlow.

Both forms do TF's arithmetic in TF's order, so the variable and both slots must come out bit for bit the
same whichever form ran, and the same as TensorFlow's own kernel."""
import shutil

import numpy as np
import pytest

import graphlab as tf
from graphlab.ops import training_ops

import tfref

# 37x23 is no multiple of any vector width (the loops' tails run; TF takes its element-by-element branch),
# 64x32 is (TF takes its vector-packet branch).
SHAPES = [(37, 23), (64, 32)]
STEPS = 4


def _grads(dtype, shape):
    rng = np.random.RandomState(7)
    return [(rng.randn(*shape) * 10 ** rng.uniform(-4, 1)).astype(dtype) for _ in range(STEPS)]


def _initial(dtype, shape):
    return np.random.RandomState(3).randn(*shape).astype(dtype)


def _train(dtype, nesterov, shape, strided_grad=False):
    """Adam steps on one variable with the given gradients; the variable and its slots after each step."""
    tf.reset_default_graph()
    w = tf.Variable(_initial(dtype, shape), name="w")
    fed = grad = tf.placeholder(dtype, shape)
    if strided_grad:     # the same numbers as every other column of a wider array: a strided view (a feed is
        # copied whole, as TF's session copies it, so the view comes from a py_func)
        grad = tf.py_func(lambda g: np.repeat(g, 2, axis=-1)[..., ::2], [fed], dtype)
        grad.set_shape(shape)
    opt = tf.train.AdamOptimizer(0.01)
    if nesterov:   # TF1's AdamOptimizer never sets use_nesterov; the op itself has the attribute
        opt._create_slots([w])
        opt._prepare()
        step = training_ops.apply_adam(
            w, opt.get_slot(w, "m"), opt.get_slot(w, "v"), tf.constant(0.9, dtype), tf.constant(0.999, dtype),
            tf.constant(0.01, dtype), tf.constant(0.9, dtype), tf.constant(0.999, dtype),
            tf.constant(1e-8, dtype), grad, use_nesterov=True)
    else:
        step = opt.apply_gradients([(grad, w)])
    slots = [opt.get_slot(w, "m"), opt.get_slot(w, "v")]
    history = []
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for g in _grads(dtype, shape):
            sess.run(step, {fed: g})
            history.append(sess.run([w] + slots))
    return history


def _assert_same(ours, theirs):
    for step, (a, b) in enumerate(zip(ours, theirs)):
        for name, x, y in zip(("variable", "m", "v"), a, b):
            assert x.dtype == y.dtype
            np.testing.assert_array_equal(x, y, err_msg="%s after step %d" % (name, step + 1))


class _CountedKernels:
    """Stands in for graphlab.ops._fused and counts the updates its C loop did (it declines arrays that do
    not suit it)."""

    def __init__(self, real):
        self.real, self.calls = real, 0

    def apply_adam(self, *args):
        done = self.real.apply_adam(*args)
        self.calls += done
        return done


@pytest.fixture
def c_kernels(monkeypatch):
    if training_ops.fused is None:
        # With a compiler on the machine the build should have worked: that is a failure, not a skip.
        report = pytest.fail if shutil.which("cc") or shutil.which("gcc") else pytest.skip
        report("graphlab/ops/_fused.c was not compiled at install time (`make setup` builds it where a C "
               "compiler and Python's headers are installed); graphlab works without it, ApplyAdam in numpy")
    counted = _CountedKernels(training_ops.fused)
    monkeypatch.setattr(training_ops, "fused", counted)
    return counted


@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: "x".join(map(str, s)))
@pytest.mark.parametrize("nesterov", [False, True], ids=["adam", "nesterov"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_one_pass_and_numpy_forms_round_alike(c_kernels, monkeypatch, dtype, nesterov, shape):
    one_pass = _train(dtype, nesterov, shape)
    assert c_kernels.calls == STEPS
    monkeypatch.setattr(training_ops, "fused", None)
    _assert_same(one_pass, _train(dtype, nesterov, shape))


def test_a_strided_gradient_takes_the_numpy_form_with_the_same_result(c_kernels):
    """The C loop walks contiguous memory only; a strided gradient goes to the numpy form."""
    strided = _train(np.float32, False, SHAPES[0], strided_grad=True)
    assert c_kernels.calls == 0
    _assert_same(strided, _train(np.float32, False, SHAPES[0]))
    assert c_kernels.calls == STEPS


def test_the_c_loop_declines_arrays_it_cannot_take_and_touches_nothing(c_kernels):
    """Misaligned, overlapping, read-only, strided or mixed-type arrays: apply_adam says no (the kernel then
    takes the numpy form) and leaves every array as it was."""
    def arrays():
        return [np.full(16, x, np.float32) for x in (1.0, 0.0, 0.5, 0.25, 2.0)]   # var, out, m, v, grad

    def misaligned(a):
        raw = np.zeros(a.nbytes + 1, np.uint8)
        view = np.frombuffer(raw.data, np.float32, len(a), offset=1)
        view[...] = a
        return view

    def read_only(a):
        a.setflags(write=False)
        return a

    def shifted_by_one(var):
        """var and an out of the same length that overlap it one element along."""
        base = np.empty(var.size + 1, var.dtype)
        base[:-1] = var
        return [base[:-1], base[1:]]

    cases = {"misaligned grad": lambda a: a[:4] + [misaligned(a[4])],
             "m is v": lambda a: a[:3] + [a[2], a[4]],
             "out overlaps var": lambda a: shifted_by_one(a[0]) + a[2:],
             "read-only m": lambda a: a[:2] + [read_only(a[2])] + a[3:],
             "strided grad": lambda a: a[:4] + [np.repeat(a[4], 2)[::2]],
             "float64 grad": lambda a: a[:4] + [a[4].astype(np.float64)],
             "shorter v": lambda a: a[:3] + [a[3][:8], a[4]]}
    for what, make in cases.items():
        args = make(arrays())
        before = [a.copy() for a in args]
        assert c_kernels.apply_adam(*args, 0.1, 0.9, 0.999, 1e-8, False) is False, what
        for a, b in zip(args, before):
            np.testing.assert_array_equal(a, b, err_msg=what)
    assert c_kernels.apply_adam(*arrays(), 0.1, 0.9, 0.999, 1e-8, False) is True
    assert c_kernels.calls == 1


def test_the_c_loop_updates_the_variable_in_place_when_out_is_var(c_kernels):
    """out may be var itself (ApplyAdam updates the variable's buffer in place, as TF): the same numbers as
    with a separate out, written into var."""
    def arrays():
        return [np.linspace(-1, 1, 16).astype(np.float32), np.zeros(16, np.float32),
                np.full(16, 0.5, np.float32), np.full(16, 0.25, np.float32), np.linspace(2, 3, 16).astype(np.float32)]
    separate = arrays()
    assert c_kernels.apply_adam(*separate, 0.1, 0.9, 0.999, 1e-8, False) is True
    in_place = arrays()
    args = [in_place[0], in_place[0]] + in_place[2:]
    assert c_kernels.apply_adam(*args, 0.1, 0.9, 0.999, 1e-8, False) is True
    np.testing.assert_array_equal(in_place[0], separate[1])
    np.testing.assert_array_equal(in_place[2], separate[2])
    np.testing.assert_array_equal(in_place[3], separate[3])


TF_SCRIPT = """
from tensorflow.python.ops import gen_training_ops
data = np.load(sys.argv[1])
out = {}
for key in sorted(k[len("initial_"):] for k in data.files if k.startswith("initial_")):
    dtype, nesterov = np.dtype(key.split("-")[0]), key.endswith("True")
    tf.reset_default_graph()
    w = tf.Variable(data["initial_" + key], name="w")
    fed = tf.placeholder(dtype, data["initial_" + key].shape)
    opt = tf.train.AdamOptimizer(0.01)
    if nesterov:
        opt._create_slots([w])
        opt._prepare()
        c = lambda x: tf.constant(x, dtype)
        step = gen_training_ops.apply_adam(w, opt.get_slot(w, "m"), opt.get_slot(w, "v"), c(0.9), c(0.999),
                                           c(0.01), c(0.9), c(0.999), c(1e-8), fed, use_nesterov=True)
    else:
        step = opt.apply_gradients([(fed, w)])
    slots = [opt.get_slot(w, "m"), opt.get_slot(w, "v")]
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        history = []
        for g in data["grads_" + key]:
            sess.run(step, {fed: g})
            history.append([x.tolist() for x in sess.run([w] + slots)])
    out[key] = history
print(json.dumps(out))
"""


def test_matches_tensorflow_bit_for_bit(tmp_path, c_kernels):
    """Bit for bit with TF's kernel, on numbers away from the denormal range (TF flushes denormal results
    to zero, graphlab keeps them; see graphlab/ops/_fused.c)."""
    tfref.require_tf()
    cases = {"%s-%dx%d-%s" % (np.dtype(dtype).name, shape[0], shape[1], nesterov): (dtype, nesterov, shape)
             for dtype in (np.float32, np.float64) for nesterov in (False, True) for shape in SHAPES}
    data = {}
    for key, (dtype, nesterov, shape) in cases.items():
        data["initial_" + key] = _initial(dtype, shape)
        data["grads_" + key] = np.stack(_grads(dtype, shape))
    np.savez(tmp_path / "adam.npz", **data)
    theirs = tfref.run_tf_json(TF_SCRIPT, str(tmp_path / "adam.npz"))
    assert sorted(theirs) == sorted(cases)
    for key, (dtype, nesterov, shape) in cases.items():
        _assert_same(_train(dtype, nesterov, shape), [[np.array(x, dtype) for x in step] for step in theirs[key]])
    assert c_kernels.calls == STEPS * len(cases)


BAD_INPUTS_SCRIPT = """
def update_error(build, fed_lr, fed_grad, slot_shape=(3,)):
    # The message of the InvalidArgumentError running one update op raises (None when it runs).
    tf.reset_default_graph()
    w = tf.Variable(np.ones(3, np.float32), name="w")
    a = tf.Variable(np.zeros(slot_shape, np.float32), validate_shape=False, name="a")
    b = tf.Variable(np.zeros(3, np.float32), name="b")
    lr = tf.placeholder(tf.float32, name="lr")
    grad = tf.placeholder(tf.float32, name="grad")
    step = build(w, a, b, lr, grad, lambda x: tf.constant(x, tf.float32))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        try:
            sess.run(step, {lr: np.full(fed_lr, 0.1, np.float32), grad: np.ones(fed_grad, np.float32)})
        except tf.errors.InvalidArgumentError as e:
            return [line for line in e.message.splitlines() if " not " in line][0]
    return None


def adam(position):
    # ApplyAdam with the fed placeholder as its hyper-parameter number ``position``.
    def build(w, m, v, lr, grad, c):
        args = [c(0.9), c(0.999), c(0.1), c(0.9), c(0.999), c(1e-8)]
        args[position] = lr
        return ops.apply_adam(w, m, v, *args, grad)
    return build


def rms_prop(position):
    def build(w, ms, mom, lr, grad, c):
        args = [c(0.1), c(0.9), c(0.9), c(1e-8)]
        args[position] = lr
        return ops.apply_rms_prop(w, ms, mom, *args, grad)
    return build


CASES = [(adam(2), (), 3, (3, 1)), (adam(2), (), 2), (adam(2), 3, 3)] + [(adam(i), 3, 3) for i in range(6)] + [
    (rms_prop(i), 3, 3) for i in range(4)] + [
    (lambda w, a, b, lr, grad, c: ops.apply_gradient_descent(w, lr, grad), 3, 3),
    (lambda w, a, b, lr, grad, c: ops.apply_gradient_descent(w, lr, grad), (), 2),
    (lambda w, a, b, lr, grad, c: ops.apply_momentum(w, a, lr, grad, c(0.9)), 3, 3),
    (lambda w, a, b, lr, grad, c: ops.apply_momentum(w, a, c(0.1), grad, lr), 3, 3),
    (lambda w, a, b, lr, grad, c: ops.apply_momentum(w, a, lr, grad, c(0.9)), (), 3, (2,)),
    (lambda w, a, b, lr, grad, c: ops.apply_adagrad(w, a, lr, grad), 3, 3),
    (lambda w, a, b, lr, grad, c: ops.apply_rms_prop(w, a, b, lr, c(0.9), c(0.9), c(1e-8), grad), (), 3, (1, 3)),
]


def all_errors():
    return [update_error(*case) for case in CASES]
"""


def test_bad_inputs_get_tensorflows_errors_whichever_form_runs(monkeypatch):
    """A slot or gradient of the wrong shape and a hyper-parameter that is not a scalar are refused before
    any arithmetic (the C loop itself would only see lengths), with TF's messages, quirks included: TF's
    ApplyAdam and ApplyRMSProp write "lr is not a scalar : [3]"."""
    theirs = tfref.run_tf_json("from tensorflow.python.ops import gen_training_ops as ops\n" + BAD_INPUTS_SCRIPT
                               + "print(json.dumps(all_errors()))")
    assert theirs[:3] == ["var and m do not have the same shape[3] [3,1]", "var and grad do not have the same "
                          "shape[3] [2]", "lr is not a scalar : [3]"] and None not in theirs
    scope = {"np": np, "tf": tf, "ops": training_ops}
    exec(BAD_INPUTS_SCRIPT, scope)
    for c_kernel in (training_ops.fused, None):
        monkeypatch.setattr(training_ops, "fused", c_kernel)
        assert scope["all_errors"]() == theirs
