"""Candidate samplers, compute_accidental_hits, nce_loss and sampled_softmax_loss against TF 2.21, and the
classic word2vec tutorial (basic word2vec with nce_loss on an embedding).

Graphs are compared op for op. Values are compared where they do not depend on the random draws: expected
counts follow from the sampled ids (and, for the learned unigram, from the true classes seen so far), the
losses and their gradients are computed from the same sampled ids given to both. The uniform and log-uniform
samplers draw TF's own numbers (tests/ops/test_random_as_tf.py), so a seeded word2vec trains as in TF with
nothing fed but its batches; the unigram samplers' draws come from numpy, so their statistics are compared
(with the others'): the frequency of each class over thousands of draws, and the mean number of tries
rejection sampling needed."""
import numpy as np
import pytest

from tests import tfsnippets as tfcompare

WORD2VEC = """
import math
batch_size, embedding_size, vocabulary_size, num_sampled = 16, 8, 200, 8
valid_examples = np.array([3, 7, 11, 19])
graph = tf.Graph()
with graph.as_default():
    with tf.name_scope('inputs'):
        train_inputs = tf.placeholder(tf.int32, shape=[batch_size])
        train_labels = tf.placeholder(tf.int32, shape=[batch_size, 1])
        valid_dataset = tf.constant(valid_examples, dtype=tf.int32)
    with tf.device('/cpu:0'):
        with tf.name_scope('embeddings'):
            embeddings = tf.Variable(tf.random_uniform([vocabulary_size, embedding_size], -1.0, 1.0))
            embed = tf.nn.embedding_lookup(embeddings, train_inputs)
        with tf.name_scope('weights'):
            nce_weights = tf.Variable(tf.truncated_normal([vocabulary_size, embedding_size],
                                                          stddev=1.0 / math.sqrt(embedding_size)))
        with tf.name_scope('biases'):
            nce_biases = tf.Variable(tf.zeros([vocabulary_size]))
    with tf.name_scope('loss'):
        loss = tf.reduce_mean(tf.nn.nce_loss(weights=nce_weights, biases=nce_biases, labels=train_labels,
                                             inputs=embed, num_sampled=num_sampled, num_classes=vocabulary_size))
    tf.summary.scalar('loss', loss)
    with tf.name_scope('optimizer'):
        optimizer = tf.train.GradientDescentOptimizer(1.0).minimize(loss)
    norm = tf.sqrt(tf.reduce_sum(tf.square(embeddings), 1, keepdims=True))
    normalized_embeddings = embeddings / norm
    valid_embeddings = tf.nn.embedding_lookup(normalized_embeddings, valid_dataset)
    similarity = tf.matmul(valid_embeddings, normalized_embeddings, transpose_b=True)
    merged = tf.summary.merge_all()
    init = tf.global_variables_initializer()
    saver = tf.train.Saver()
"""

GRAPHS = {
    "samplers_and_accidental_hits": """
t = tf.placeholder(tf.int64, [None, 2], name="t")
s = [tf.nn.uniform_candidate_sampler(t, 2, 4, True, 10), tf.nn.log_uniform_candidate_sampler(t, 2, 5, False, 50, seed=3),
     tf.nn.learned_unigram_candidate_sampler(t, 2, 4, False, 10, name="learned"),
     tf.random.fixed_unigram_candidate_sampler(t, 2, 4, True, 5, unigrams=[1, 2, 3, 4, 5], distortion=0.75),
     tf.nn.all_candidate_sampler(t, 2, 4, True), tf.random.uniform_candidate_sampler(tf.constant([[1, 2]], tf.int64), 2, 1, True, 3)]
hits = tf.nn.compute_accidental_hits(t, s[0][0], 2)
""",
    "nce_and_sampled_softmax": """
w = tf.Variable(tf.ones([50, 4]), name="w")
b = tf.Variable(tf.zeros([50]), name="b")
x = tf.placeholder(tf.float32, [None, 4], name="x")
y = tf.placeholder(tf.int32, [None, 1], name="y")
y2 = tf.placeholder(tf.int64, [None, 2], name="y2")
nce = tf.nn.nce_loss(w, b, y, x, 5, 50)
nce2 = tf.nn.nce_loss(w, b, y2, x, 3, 50, num_true=2, remove_accidental_hits=True, name="nce2")
sm = tf.nn.sampled_softmax_loss(w, b, y, x, 5, 50)
sm2 = tf.nn.sampled_softmax_loss([w], b, y2, x, 4, 50, num_true=2, remove_accidental_hits=False,
                                 sampled_values=tf.nn.uniform_candidate_sampler(y2, 2, 4, True, 50))
grads = tf.gradients(tf.reduce_sum(nce) + tf.reduce_sum(nce2) + tf.reduce_sum(sm) + tf.reduce_sum(sm2), [w, b, x])
""",
    # built in the default graph here, so that the comparison can list its ops
    "word2vec_tutorial": WORD2VEC.replace("graph = tf.Graph()", "graph = tf.get_default_graph()"),
}

SAMPLED = """
w = tf.constant(np.linspace(-1, 1, 40, dtype=np.float32).reshape(10, 4))
b = tf.constant(np.linspace(0, 0.9, 10, dtype=np.float32))
x = tf.constant(np.array([[0.5, -1.0, 2.0, 0.1], [1.0, 1.0, -0.5, 0.0], [0.0, 0.3, 0.2, -0.4]], np.float32))
sampled = (tf.constant([2, 7, 0], tf.int64), tf.constant([[0.3], [0.2], [0.25]]), tf.constant([0.4, 0.1, 0.5]))
sampled2 = (tf.constant([1, 9, 4, 3], tf.int64), tf.constant([[0.3, 0.1], [0.2, 0.2], [0.25, 0.5]]),
            tf.constant([0.4, 0.1, 0.5, 0.2]))
"""

VALUES = {
    "nce_loss_with_given_samples": SAMPLED + """
y = tf.constant([[2], [5], [9]])
y2 = tf.constant([[2, 4], [5, 1], [9, 3]], tf.int64)
losses = [tf.nn.nce_loss(w, b, y, x, 3, 10, sampled_values=sampled),
          tf.nn.nce_loss(w, b, y2, x, 4, 10, num_true=2, sampled_values=sampled2, remove_accidental_hits=True)]
grads = tf.gradients(tf.reduce_sum(losses[0]) + tf.reduce_sum(losses[1]), [w, b, x])
fetch = losses + [tf.convert_to_tensor(g) for g in grads]
feed = {}
""",
    "sampled_softmax_with_given_samples": SAMPLED + """
y = tf.constant([[2], [5], [9]])
y2 = tf.constant([[2, 4], [5, 1], [9, 3]], tf.int64)
losses = [tf.nn.sampled_softmax_loss(w, b, y, x, 3, 10, sampled_values=sampled),
          tf.nn.sampled_softmax_loss(w, b, y2, x, 4, 10, num_true=2, sampled_values=sampled2),
          tf.nn.sampled_softmax_loss(w, b, y, x, 3, 10, sampled_values=sampled, remove_accidental_hits=False)]
grads = tf.gradients(tf.add_n([tf.reduce_sum(l) for l in losses]), [w, b, x])
fetch = losses + [tf.convert_to_tensor(g) for g in grads]
feed = {}
""",
    # expected counts: p * num_sampled without rejection (functions of the ids only), ones for all_candidate
    "expected_counts_and_hits": """
t = tf.constant([[0, 3], [7, 49], [3, 3]], tf.int64)
fixed = tf.nn.fixed_unigram_candidate_sampler(t[:, :1], 1, 6, False, 8, unigrams=[5, 1, 1, 2, 0, 3, 7, 1],
                                              distortion=0.5, num_reserved_ids=0)
fetch = [tf.nn.log_uniform_candidate_sampler(t, 2, 6, False, 50)[1], tf.nn.uniform_candidate_sampler(t, 2, 3, False, 50)[1],
         fixed[1], tf.nn.all_candidate_sampler(t, 2, 50, True)[0], tf.nn.all_candidate_sampler(t, 2, 50, True)[1],
         tf.nn.compute_accidental_hits(t, tf.constant([3, 7, 5, 3], tf.int64), 2)[0],
         tf.nn.compute_accidental_hits(t, tf.constant([3, 7, 5, 3], tf.int64), 2)[1],
         tf.nn.compute_accidental_hits(t, tf.constant([3, 7, 5, 3], tf.int64), 2)[2]]
feed = {}
""",
}

RESULTS = {
    # class frequencies over many draws (seeded, so each side repeats itself), and for draws without
    # repeats the mean number of tries their expected counts imply
    "sampler_statistics": """
t = tf.constant([[0], [4]], tf.int64)
cases = {"log_uniform": tf.nn.log_uniform_candidate_sampler(t, 1, 400, False, 20, seed=1),
         "log_uniform_unique": tf.nn.log_uniform_candidate_sampler(t, 1, 10, True, 20, seed=2),
         "uniform_unique": tf.nn.uniform_candidate_sampler(t, 1, 6, True, 12, seed=3),
         "fixed": tf.nn.fixed_unigram_candidate_sampler(t, 1, 400, False, 6, unigrams=[0, 1, 2, 3, 4], num_reserved_ids=1,
                                                        distortion=0.75, seed=4),
         "fixed_shard": tf.nn.fixed_unigram_candidate_sampler(t // 2, 1, 400, False, 3, unigrams=[1, 2, 3, 4, 5, 6], num_shards=2,
                                                              shard=1, seed=5)}
result = {}
with tf.Session() as sess:
    for name, (ids, true_count, sampled_count) in cases.items():
        # 1000 draws of up to 10 classes without repeats, or 50 draws of 400 with
        draws = [sess.run([ids, true_count, sampled_count]) for _ in range(1000 if name.endswith("unique") else 50)]
        flat = np.concatenate([d[0] for d in draws])
        # unique draws: how many tries rejection took, from an expected count 1 - (1 - p)^tries
        result[name] = {"frequency": (np.bincount(flat, minlength=20) / flat.size).tolist(),
                        "distinct_per_draw": float(np.mean([len(set(d[0].tolist())) for d in draws]))}
        if name.endswith("unique"):     # solved for the least likely class drawn (its count is least rounded)
            rare = [int(np.argmax(d[0])) for d in draws]
            p = [np.log((d[0][r] + 2.0) / (d[0][r] + 1.0)) / np.log(21.0) if name.startswith("log") else 1 / 12.0
                 for d, r in zip(draws, rare)]
            result[name]["mean_tries"] = float(np.mean([np.log1p(-d[2][r]) / np.log1p(-q) for d, r, q in zip(draws, rare, p)]))
""",
    # the learned unigram counts true classes after each draw: its expected counts follow from the history
    "learned_unigram_history": """
t = tf.placeholder(tf.int64, [None, 1])
s = tf.nn.learned_unigram_candidate_sampler(t, 1, 4, False, 6, seed=7)
with tf.Session() as sess:
    result = [sess.run(s[1], {t: batch}).reshape(-1).tolist() for batch in ([[1], [1], [5]], [[1], [2], [0]], [[1], [3], [3]])]
    flat = np.concatenate([sess.run(s[0], {t: [[1], [1], [1]]}) for _ in range(300)])
    result.append((np.bincount(flat, minlength=6) / flat.size).tolist())
""",
    # word2vec: the tutorial's graph trained 3 steps with the same embeddings, batches and sampled classes
    "word2vec_training": WORD2VEC + """
sampler = [op for op in graph.get_operations() if op.type == "LogUniformCandidateSampler"][0]
rng = np.random.RandomState(0)
with tf.Session(graph=graph) as session:
    init.run()
    session.run([embeddings.assign(rng.uniform(-1, 1, (200, 8)).astype(np.float32)),
                 nce_weights.assign(rng.normal(0, 0.3, (200, 8)).astype(np.float32))])
    losses = []
    for step in range(3):
        feed = {train_inputs: rng.randint(0, 200, 16), train_labels: rng.randint(0, 200, (16, 1)),
                sampler.outputs[0]: rng.choice(200, 8, replace=False), sampler.outputs[1]: rng.uniform(0.01, 0.1, (16, 1)),
                sampler.outputs[2]: rng.uniform(0.01, 0.1, 8)}
        _, loss_val = session.run([optimizer, loss], feed_dict=feed)
        losses.append(float(loss_val))
    result = {"losses": losses, "embeddings": session.run(embeddings).round(5).tolist(),
              "similarity": session.run(similarity).round(5).tolist(), "nce_biases": session.run(nce_biases).round(6).tolist()}
""",
    # the same tutorial seeded, its sampler left to draw: TF's log-uniform picks, so TF's losses
    "word2vec_seeded": WORD2VEC.replace("with graph.as_default():", "with graph.as_default():\n    tf.set_random_seed(1)")
    + """
rng = np.random.RandomState(0)
with tf.Session(graph=graph) as session:
    init.run()
    losses = []
    for step in range(4):
        feed = {train_inputs: rng.randint(0, 200, 16), train_labels: rng.randint(0, 200, (16, 1))}
        _, loss_val = session.run([optimizer, loss], feed_dict=feed)
        losses.append(float(loss_val))
    result = {"losses": losses, "embeddings": session.run(embeddings).round(5).tolist()}
""",
}

BUILD_ERRORS = {
    "true_classes_type": "tf.nn.log_uniform_candidate_sampler(tf.constant([[1]]), 1, 2, True, 5)",
    "true_classes_rank": "tf.nn.uniform_candidate_sampler(tf.constant([1, 2], tf.int64), 1, 2, True, 5)",
    "num_sampled_minimum": "tf.nn.uniform_candidate_sampler(tf.constant([[1]], tf.int64), 1, 0, True, 5)",
    "learned_range_too_large": "tf.nn.learned_unigram_candidate_sampler(tf.constant([[1]], tf.int64), 1, 1, True, 2**31)",
    "hits_num_true": "tf.nn.compute_accidental_hits(tf.constant([[1]], tf.int64), tf.constant([1], tf.int64), 2)",
}

_T = "t = tf.placeholder(tf.int64, None)\nfeed = {t: [[1, 2], [3, 0]]}\n"
RUN_ERRORS = {
    "range_too_small_for_unique": _T + "fetch = tf.nn.uniform_candidate_sampler(t, 2, 6, True, 5)",
    "true_class_out_of_range": _T + "fetch = tf.nn.log_uniform_candidate_sampler(t, 2, 2, False, 3)",
    "num_true_columns": _T + "fetch = tf.nn.log_uniform_candidate_sampler(t, 1, 2, False, 3)",
    "not_a_matrix": "t = tf.placeholder(tf.int64, None)\nfeed = {t: [1, 2]}\nfetch = tf.nn.uniform_candidate_sampler(t, 2, 2, True, 5)",
    "unigrams_missing": _T + "fetch = tf.nn.fixed_unigram_candidate_sampler(t, 2, 2, False, 5)",
    "hits_sampled_vector": _T + "s = tf.placeholder(tf.int64, None)\nfeed[s] = [[1]]\n"
                                "fetch = tf.nn.compute_accidental_hits(t, s, 2)",
}


@pytest.fixture(scope="module")
def tf_results():
    return tfcompare.reference(graphs=GRAPHS, values=VALUES, build_errors=BUILD_ERRORS, run_errors=RUN_ERRORS,
                               results=RESULTS)


@pytest.mark.parametrize("key", sorted(GRAPHS))
def test_graph_matches_tensorflow_op_for_op(key, tf_results):
    tfcompare.check_graph(GRAPHS[key], tf_results["graphs"][key])


@pytest.mark.parametrize("key", sorted(VALUES))
def test_values_match_tensorflow(key, tf_results):
    tfcompare.check_values(tfcompare.run_ours(VALUES[key]), tf_results["values"][key], rtol=2e-6, atol=2e-7, what=key)


def test_sampler_statistics_match_tensorflow(tf_results):
    ours = tfcompare.run_result(RESULTS["sampler_statistics"])["result"]
    theirs = tf_results["results"]["sampler_statistics"]["result"]
    for name in theirs:
        mine, tfs = np.array(ours[name]["frequency"]), np.array(theirs[name]["frequency"])
        # total variation distance between the two empirical distributions (thousands of draws each)
        assert 0.5 * np.abs(mine - tfs).sum() < 0.05, (name, mine.round(3), tfs.round(3))
        assert (mine > 0).tolist() == (tfs > 0).tolist(), name      # the same classes can come up at all
        assert ours[name]["distinct_per_draw"] == pytest.approx(theirs[name]["distinct_per_draw"], rel=0.05), name
        if "mean_tries" in theirs[name]:
            assert ours[name]["mean_tries"] == pytest.approx(theirs[name]["mean_tries"], rel=0.05), name


def test_learned_unigram_counts_the_true_classes_seen(tf_results):
    ours = tfcompare.run_result(RESULTS["learned_unigram_history"])["result"]
    theirs = tf_results["results"]["learned_unigram_history"]["result"]
    np.testing.assert_allclose(ours[:3], theirs[:3], rtol=1e-6)      # expected counts: exact functions of history
    assert 0.5 * np.abs(np.array(ours[3]) - np.array(theirs[3])).sum() < 0.06


def test_word2vec_tutorial_trains_as_in_tensorflow(tf_results):
    ours = tfcompare.run_result(RESULTS["word2vec_training"])["result"]
    theirs = tf_results["results"]["word2vec_training"]["result"]
    np.testing.assert_allclose(ours["losses"], theirs["losses"], rtol=1e-5)
    for key in ("embeddings", "similarity", "nce_biases"):
        np.testing.assert_allclose(ours[key], theirs[key], atol=2e-5, err_msg=key)


def test_seeded_word2vec_draws_and_trains_as_in_tensorflow(tf_results):
    ours = tfcompare.run_result(RESULTS["word2vec_seeded"])["result"]
    theirs = tf_results["results"]["word2vec_seeded"]["result"]
    np.testing.assert_allclose(ours["losses"], theirs["losses"], rtol=1e-5)
    np.testing.assert_allclose(ours["embeddings"], theirs["embeddings"], atol=2e-5)


@pytest.mark.parametrize("key", sorted(BUILD_ERRORS))
def test_build_errors_match_tensorflow(key, tf_results):
    tfcompare.check_build_error(BUILD_ERRORS[key], tf_results["build_errors"][key])


@pytest.mark.parametrize("key", sorted(RUN_ERRORS))
def test_run_errors_match_tensorflow(key, tf_results):
    tfcompare.check_run_error(RUN_ERRORS[key], tf_results["run_errors"][key])


def test_fixed_unigram_needs_one_weight_per_class():
    """TF's kernel message (TF itself is not asked here: its process can crash on this error in a session)."""
    import graphlab as tf
    t = tf.placeholder(tf.int64, None)
    bad = tf.nn.fixed_unigram_candidate_sampler(t, 2, 2, False, 5, unigrams=[1, 2, 3])
    with tf.Session() as sess:
        with pytest.raises(tf.errors.InvalidArgumentError) as info:
            sess.run(bad, {t: [[1, 2], [3, 0]]})
    assert info.value.message.endswith("\nNode: 'FixedUnigramCandidateSampler'\nrange is 5 must be equal to "
                                       "weights size  3\n\t [[{{node FixedUnigramCandidateSampler}}]]")


def test_unique_sampling_gives_distinct_classes_and_rejection_expected_counts():
    import graphlab as tf
    t = tf.constant([[0], [4]], tf.int64)
    ids, true_count, sampled_count = tf.nn.log_uniform_candidate_sampler(t, 1, 15, True, 20, seed=5)
    with tf.Session() as sess:
        for _ in range(20):
            got, tc, sc = sess.run([ids, true_count, sampled_count])
            assert len(set(got.tolist())) == 15 and got.min() >= 0 and got.max() < 20
            p = np.log((got + 2.0) / (got + 1.0)) / np.log(21.0)
            tries = np.log1p(-sc) / np.log1p(-p)        # TF's 1 - (1 - p)^tries, solved for tries
            rare = p < 0.1                               # counts far from 1 keep their precision in float32
            assert np.allclose(tries[rare], tries[rare][0], rtol=1e-3) and tries[rare][0] >= 15 - 1e-3
