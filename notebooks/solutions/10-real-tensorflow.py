# Solutions to lesson 10's exercises, one section per exercise cell (see notebooks/README.md).

# %% c08
def make_train(counter):
    step = tf.assign_add(counter, 1.0)        # built once, when make_train is called
    def train(sess, steps):
        for _ in range(steps):
            sess.run(step)
        return sess.run(counter)
    return train

# %% c08 wrong: builds the op once per call, outside the loop but inside train
def make_train(counter):
    def train(sess, steps):
        step = tf.assign_add(counter, 1.0)
        for _ in range(steps):
            sess.run(step)
        return sess.run(counter)
    return train

# %% c08 wrong: still builds an op on every step, only another one
def make_train(counter):
    def train(sess, steps):
        for _ in range(steps):
            sess.run(counter + 1.0)
        return sess.run(counter)
    return train

# %% c08 wrong: builds the op once but runs it one time too few
def make_train(counter):
    step = tf.assign_add(counter, 1.0)
    def train(sess, steps):
        for _ in range(steps - 1):
            sess.run(step)
        return sess.run(counter)
    return train

# %% c11
def run_in_graphlab(path, inputs):
    with open(path, "rb") as f:
        graph_def = gl.GraphDef.FromString(f.read())
    with gl.Graph().as_default():
        gl.import_graph_def(graph_def, name="")
        with gl.Session() as sess:
            sess.run("weights/Assign")
            return sess.run("scores:0", {"features:0": inputs})

# %% c11 wrong: forgets the variable's initializer
def run_in_graphlab(path, inputs):
    with open(path, "rb") as f:
        graph_def = gl.GraphDef.FromString(f.read())
    with gl.Graph().as_default():
        gl.import_graph_def(graph_def, name="")
        with gl.Session() as sess:
            return sess.run("scores:0", {"features:0": inputs})

# %% c11 wrong: returns the imported tensor instead of running it
def run_in_graphlab(path, inputs):
    with open(path, "rb") as f:
        graph_def = gl.GraphDef.FromString(f.read())
    with gl.Graph().as_default() as g:
        gl.import_graph_def(graph_def, name="")
        return g.get_tensor_by_name("scores:0")
