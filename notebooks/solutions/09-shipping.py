# Solutions to lesson 09's exercises, one section per exercise cell (see notebooks/README.md).

# %% c11
body = {"inputs": features[:3].tolist()}

# %% c11 wrong: the row form
body = {"instances": features[:3].tolist()}

# %% c11 wrong: one row only
body = {"inputs": features[:1].tolist()}

# %% c11 wrong: a numpy array cannot be written as JSON
body = {"inputs": features[:3]}

# %% c13
def export_with_classes(version):
    tf.reset_default_graph()
    x, y, probs, loss, train = build_classifier()
    classes = tf.argmax(probs, axis=1, name="classes")
    with tf.Session() as sess:
        tf.train.Saver().restore(sess, prefix2)
        staging = os.path.join(work, "staging-%d" % version)
        tf.saved_model.simple_save(sess, staging, {"x": x}, {"probs": probs, "classes": classes})
    os.rename(staging, os.path.join(base, str(version)))

# %% c13 wrong: computes the classes but leaves them out of the signature
def export_with_classes(version):
    tf.reset_default_graph()
    x, y, probs, loss, train = build_classifier()
    classes = tf.argmax(probs, axis=1, name="classes")
    with tf.Session() as sess:
        tf.train.Saver().restore(sess, prefix2)
        staging = os.path.join(work, "staging-%d" % version)
        tf.saved_model.simple_save(sess, staging, {"x": x}, {"probs": probs})
    os.rename(staging, os.path.join(base, str(version)))

# %% c13 wrong: the argmax over the batch, not over each row
def export_with_classes(version):
    tf.reset_default_graph()
    x, y, probs, loss, train = build_classifier()
    classes = tf.argmax(probs, axis=0, name="classes")
    with tf.Session() as sess:
        tf.train.Saver().restore(sess, prefix2)
        staging = os.path.join(work, "staging-%d" % version)
        tf.saved_model.simple_save(sess, staging, {"x": x}, {"probs": probs, "classes": classes})
    os.rename(staging, os.path.join(base, str(version)))
