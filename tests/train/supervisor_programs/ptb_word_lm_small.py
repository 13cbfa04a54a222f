import os, tempfile, json
import numpy as np

def ptb_producer(raw_data, batch_size, num_steps, name=None):
    # tensorflow/models tutorials/rnn/ptb/reader.py's ptb_producer
    with tf.name_scope(name, "PTBProducer", [raw_data, batch_size, num_steps]):
        raw_data = tf.convert_to_tensor(raw_data, name="raw_data", dtype=tf.int32)
        data_len = tf.size(raw_data)
        batch_len = data_len // batch_size
        data = tf.reshape(raw_data[0: batch_size * batch_len], [batch_size, batch_len])
        epoch_size = (batch_len - 1) // num_steps
        assertion = tf.assert_positive(epoch_size, message="epoch_size == 0, decrease batch_size or num_steps")
        with tf.control_dependencies([assertion]):
            epoch_size = tf.identity(epoch_size, name="epoch_size")
        i = tf.train.range_input_producer(epoch_size, shuffle=False).dequeue()
        x = tf.strided_slice(data, [0, i * num_steps], [batch_size, (i + 1) * num_steps])
        x.set_shape([batch_size, num_steps])
        y = tf.strided_slice(data, [0, i * num_steps + 1], [batch_size, (i + 1) * num_steps + 1])
        y.set_shape([batch_size, num_steps])
        return x, y

class Config:
    init_scale, learning_rate, max_grad_norm, num_layers = 0.1, 1.0, 5, 2
    num_steps, hidden_size, max_epoch, max_max_epoch = 4, 8, 1, 3
    keep_prob, lr_decay, batch_size, vocab_size = 1.0, 0.5, 3, 17

class PTBInput:
    def __init__(self, config, data, name=None):
        self.batch_size = batch_size = config.batch_size
        self.num_steps = num_steps = config.num_steps
        self.epoch_size = ((len(data) // batch_size) - 1) // num_steps
        self.input_data, self.targets = ptb_producer(data, batch_size, num_steps, name=name)

class PTBModel:
    def __init__(self, is_training, config, input_):
        self._input = input_
        batch_size, num_steps = input_.batch_size, input_.num_steps
        size, vocab_size = config.hidden_size, config.vocab_size
        with tf.device("/cpu:0"):
            embedding = tf.get_variable("embedding", [vocab_size, size], dtype=tf.float32)
            inputs = tf.nn.embedding_lookup(embedding, input_.input_data)
        cell = tf.nn.rnn_cell.MultiRNNCell(
            [tf.nn.rnn_cell.BasicLSTMCell(size, forget_bias=0.0, state_is_tuple=True, reuse=not is_training)
             for _ in range(config.num_layers)], state_is_tuple=True)
        self._initial_state = cell.zero_state(batch_size, tf.float32)
        state = self._initial_state
        outputs = []
        with tf.variable_scope("RNN"):
            for time_step in range(num_steps):
                if time_step > 0:
                    tf.get_variable_scope().reuse_variables()
                (cell_output, state) = cell(inputs[:, time_step, :], state)
                outputs.append(cell_output)
        output = tf.reshape(tf.concat(outputs, 1), [-1, size])
        softmax_w = tf.get_variable("softmax_w", [size, vocab_size], dtype=tf.float32)
        softmax_b = tf.get_variable("softmax_b", [vocab_size], dtype=tf.float32)
        logits = tf.nn.xw_plus_b(output, softmax_w, softmax_b)
        logits = tf.reshape(logits, [batch_size, num_steps, vocab_size])
        loss = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=input_.targets, logits=logits)
        self._cost = tf.reduce_sum(tf.reduce_mean(loss, axis=0))
        self._final_state = state
        self._train_op = None
        if not is_training:
            return
        self._lr = tf.Variable(0.0, trainable=False)
        tvars = tf.trainable_variables()
        grads, _ = tf.clip_by_global_norm(tf.gradients(self._cost, tvars), config.max_grad_norm)
        optimizer = tf.train.GradientDescentOptimizer(self._lr)
        self._train_op = optimizer.apply_gradients(zip(grads, tvars),
                                                   global_step=tf.train.get_or_create_global_step())
        self._new_lr = tf.placeholder(tf.float32, shape=[], name="new_learning_rate")
        self._lr_update = tf.assign(self._lr, self._new_lr)

    def export_ops(self, name):
        """ptb_word_lm's export_ops: the model's tensors into collections of its own naming."""
        self._name = name
        ops = {name + "/cost": self._cost}
        if self._train_op is not None:
            ops.update(lr=self._lr, new_lr=self._new_lr, lr_update=self._lr_update, train_op=self._train_op)
        for key, op in ops.items():
            tf.add_to_collection(key, op)
        for suffix, state in (("initial", self._initial_state), ("final", self._final_state)):
            for c, h in state:
                tf.add_to_collection(name + "/" + suffix, c)
                tf.add_to_collection(name + "/" + suffix, h)

    def import_ops(self):
        """ptb_word_lm's import_ops: the same tensors looked up again in the imported graph."""
        if self._train_op is not None:
            self._train_op = tf.get_collection_ref("train_op")[0]
            self._lr = tf.get_collection_ref("lr")[0]
            self._new_lr = tf.get_collection_ref("new_lr")[0]
            self._lr_update = tf.get_collection_ref("lr_update")[0]
        self._cost = tf.get_collection_ref(self._name + "/cost")[0]
        for suffix in ("initial", "final"):
            flat = tf.get_collection_ref(self._name + "/" + suffix)
            state = tuple(tf.nn.rnn_cell.LSTMStateTuple(flat[i], flat[i + 1]) for i in range(0, len(flat), 2))
            setattr(self, "_%s_state" % suffix, state)

    def assign_lr(self, session, lr_value):
        session.run(self._lr_update, feed_dict={self._new_lr: lr_value})

    input = property(lambda self: self._input)
    initial_state = property(lambda self: self._initial_state)
    cost = property(lambda self: self._cost)
    final_state = property(lambda self: self._final_state)
    lr = property(lambda self: self._lr)
    train_op = property(lambda self: self._train_op)

def run_epoch(session, model, eval_op=None):
    costs, iters = 0.0, 0
    state = session.run(model.initial_state)
    fetches = {"cost": model.cost, "final_state": model.final_state}
    if eval_op is not None:
        fetches["eval_op"] = eval_op
    for step in range(model.input.epoch_size):
        feed_dict = {}
        for i, (c, h) in enumerate(model.initial_state):
            feed_dict[c] = state[i].c
            feed_dict[h] = state[i].h
        vals = session.run(fetches, feed_dict)
        state = vals["final_state"]
        costs += vals["cost"]
        iters += model.input.num_steps
    return np.exp(costs / iters)

rng = np.random.RandomState(0)
train_data = list(rng.randint(0, 17, size=200))
valid_data = list(rng.randint(0, 17, size=80))
config = Config()
save_path = tempfile.mkdtemp()
out = {"train": [], "valid": []}
with tf.Graph().as_default():
    tf.set_random_seed(7)
    initializer = tf.random_uniform_initializer(-config.init_scale, config.init_scale, seed=3)
    with tf.name_scope("Train"):
        train_input = PTBInput(config=config, data=train_data, name="TrainInput")
        with tf.variable_scope("Model", reuse=None, initializer=initializer):
            m = PTBModel(is_training=True, config=config, input_=train_input)
        tf.summary.scalar("Training Loss", m.cost)
        tf.summary.scalar("Learning Rate", m.lr)
    with tf.name_scope("Valid"):
        valid_input = PTBInput(config=config, data=valid_data, name="ValidInput")
        with tf.variable_scope("Model", reuse=True, initializer=initializer):
            mvalid = PTBModel(is_training=False, config=config, input_=valid_input)
        tf.summary.scalar("Validation Loss", mvalid.cost)
    models = {"Train": m, "Valid": mvalid}
    for name, model in models.items():
        model.export_ops(name)
    metagraph = tf.train.export_meta_graph()
with tf.Graph().as_default():
    tf.train.import_meta_graph(metagraph)
    for model in models.values():
        model.import_ops()
    sv = tf.train.Supervisor(logdir=save_path, save_summaries_secs=0, save_model_secs=0)
    config_proto = tf.ConfigProto(allow_soft_placement=False)
    with sv.managed_session(config=config_proto) as session:
        for i in range(config.max_max_epoch):
            lr_decay = config.lr_decay ** max(i + 1 - config.max_epoch, 0.0)
            m.assign_lr(session, config.learning_rate * lr_decay)
            out["train"].append(round(float(run_epoch(session, m, eval_op=m.train_op)), 4))
            out["valid"].append(round(float(run_epoch(session, mvalid)), 4))
        sv.saver.save(session, save_path, global_step=sv.global_step)
    out["ckpt"] = os.path.basename(tf.train.latest_checkpoint(os.path.dirname(save_path)) or "").replace(
        os.path.basename(save_path), "SAVE_PATH")
    out["files"] = sorted(f for f in os.listdir(save_path) if not f.startswith("events"))
out["train_op"] = m.train_op.name
print(json.dumps(out))
