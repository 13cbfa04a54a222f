# Solutions to lesson 01's exercises, one section per exercise cell (see notebooks/README.md).

# %% ex-running-average
class RunningAverage:
    def __init__(self):
        self.graph = tf.Graph()
        with self.graph.as_default():
            with tf.variable_scope("smoother"):
                average = tf.get_variable("average", [], initializer=tf.zeros_initializer())
            self.reading = tf.placeholder(tf.float32, [], name="reading")
            self.step = tf.assign(average, average + 0.1 * (self.reading - average))
            init = tf.global_variables_initializer()
        self.sess = tf.Session(graph=self.graph)
        self.sess.run(init)

    def update(self, reading):
        return self.sess.run(self.step, feed_dict={self.reading: reading})

# %% ex-running-average wrong: a fresh graph per call (Fix 2) forgets the average between calls
class RunningAverage:
    def update(self, reading):
        with tf.Graph().as_default():
            with tf.variable_scope("smoother"):
                average = tf.get_variable("average", [], initializer=tf.zeros_initializer())
            step = tf.assign(average, average + 0.1 * (reading - average))
            with tf.Session() as sess:
                sess.run(tf.global_variables_initializer())
                return sess.run(step)

# %% ex-running-average wrong: the try/except + reuse_variables() patch, one session kept
class RunningAverage:
    def __init__(self):
        self.sess = None

    def update(self, reading):
        with tf.variable_scope("smoother") as scope:
            try:
                average = tf.get_variable("average", [], initializer=tf.zeros_initializer())
            except ValueError:
                scope.reuse_variables()
                average = tf.get_variable("average")
        step = tf.assign(average, average + 0.1 * (reading - average))
        if self.sess is None:
            self.sess = tf.Session()
            self.sess.run(tf.global_variables_initializer())
        return self.sess.run(step)

# %% ex-running-average wrong: builds once but runs a new initializer in every update
class RunningAverage:
    def __init__(self):
        self.graph = tf.Graph()
        with self.graph.as_default():
            with tf.variable_scope("smoother"):
                self.average = tf.get_variable("average", [], initializer=tf.zeros_initializer())
            self.reading = tf.placeholder(tf.float32, [], name="reading")
            self.step = tf.assign(self.average, self.average + 0.1 * (self.reading - self.average))
        self.sess = tf.Session(graph=self.graph)

    def update(self, reading):
        with self.graph.as_default():
            self.sess.run(tf.variables_initializer([self.average]))
        return self.sess.run(self.step, feed_dict={self.reading: reading})

# %% ex-which-graph
predicted_default = ["a", "d"]
predicted_side = ["b", "mul/y", "mul"]
predicted_worker = ["c"]

# %% ex-which-graph wrong: thinks a thread shares the process's default graph (the rule before TF's per-thread stacks)
predicted_default = ["a", "c", "d"]
predicted_side = ["b", "mul/y", "mul"]
predicted_worker = []

# %% ex-which-graph wrong: thinks the worker thread inherits side as its default graph
predicted_default = ["a", "d"]
predicted_side = ["b", "c", "mul/y", "mul"]
predicted_worker = []

# %% ex-which-graph wrong: forgets the constant made for 2.0
predicted_default = ["a", "d"]
predicted_side = ["b", "mul"]
predicted_worker = ["c"]

# %% ex-which-graph wrong: names the op after the Python variable
predicted_default = ["a", "d"]
predicted_side = ["b", "e"]
predicted_worker = ["c"]

# %% ex-served-from-a-thread
def predict(values):
    """Answer one request: y for the given x values (called in a worker thread)."""
    with model_graph.as_default():
        graph = tf.get_default_graph()
        inputs = graph.get_tensor_by_name("x:0")
        outputs = graph.get_tensor_by_name("y:0")
        return model_sess.run(outputs, feed_dict={inputs: values})

# %% ex-served-from-a-thread wrong: a new session in the model's graph starts from the initial value
def predict(values):
    with model_graph.as_default():
        with tf.Session() as sess:
            sess.run(scale.initializer)
            return sess.run(y, feed_dict={x: values})

# %% ex-served-from-a-thread wrong: builds the lookup ops again in the worker's own graph
def predict(values):
    inputs = tf.placeholder(tf.float32, [None], name="x")
    return model_sess.run(y, feed_dict={inputs: values})
