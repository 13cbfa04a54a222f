# Solutions to lesson 11's exercises, one section per exercise cell (see notebooks/README.md).

# %% ex-place
def place_for_worker(cluster, index):
    with gl.Graph().as_default() as graph:
        with gl.device(gl.train.replica_device_setter(cluster=cluster, worker_device="/job:worker/task:%d" % index)):
            build_model(gl)
    return graph

# %% ex-place wrong: every worker's ops on the default worker device (no task: the placer picks one)
def place_for_worker(cluster, index):
    with gl.Graph().as_default() as graph:
        with gl.device(gl.train.replica_device_setter(cluster=cluster)):
            build_model(gl)
    return graph

# %% ex-place wrong: everything pinned to the worker, variables included (each worker keeps its own copy)
def place_for_worker(cluster, index):
    with gl.Graph().as_default() as graph:
        with gl.device("/job:worker/task:%d" % index):
            build_model(gl)
    return graph

# %% ex-balance
def balanced_devices(sizes):
    strategy = gl.contrib.training.GreedyLoadBalancingStrategy(2, gl.contrib.training.byte_size_load_fn)
    with gl.Graph().as_default():
        with gl.device(gl.train.replica_device_setter(ps_tasks=2, ps_strategy=strategy)):
            return {name: gl.Variable(gl.zeros([n]), name=name).op.device for name, n in sizes.items()}

# %% ex-balance wrong: round-robin, the default strategy
def balanced_devices(sizes):
    with gl.Graph().as_default():
        with gl.device(gl.train.replica_device_setter(ps_tasks=2)):
            return {name: gl.Variable(gl.zeros([n]), name=name).op.device for name, n in sizes.items()}

# %% ex-balance wrong: balances the number of variables, not their bytes
def balanced_devices(sizes):
    strategy = gl.contrib.training.GreedyLoadBalancingStrategy(2, lambda op: 1)
    with gl.Graph().as_default():
        with gl.device(gl.train.replica_device_setter(ps_tasks=2, ps_strategy=strategy)):
            return {name: gl.Variable(gl.zeros([n]), name=name).op.device for name, n in sizes.items()}

# %% ex-sync
def train_synchronously(steps, config):
    with gl.Graph().as_default() as graph:
        x, y, w, b, loss = build_model(gl)
        step = gl.train.get_or_create_global_step()
        opt = gl.train.GradientDescentOptimizer(LR)
        opt = gl.train.SyncReplicasOptimizer(opt, replicas_to_aggregate=1)
        train = opt.minimize(loss, global_step=step)
        hooks = [opt.make_session_run_hook(True, num_tokens=0), gl.train.StopAtStepHook(last_step=steps)]
        with gl.train.MonitoredTrainingSession(hooks=hooks, config=config, stop_grace_period_secs=1,
                                               save_checkpoint_secs=None, save_summaries_steps=None,
                                               log_step_count_steps=None) as sess:
            while not sess.should_stop():
                sess.run(train, {x: X, y: Y})
            final = sess.run([w, b, step])
    return graph, final

# %% ex-sync wrong: the optimizer wrapped, but no hook: nobody starts the queue runner, the first step waits
def train_synchronously(steps, config):
    with gl.Graph().as_default() as graph:
        x, y, w, b, loss = build_model(gl)
        step = gl.train.get_or_create_global_step()
        opt = gl.train.SyncReplicasOptimizer(gl.train.GradientDescentOptimizer(LR), replicas_to_aggregate=1)
        train = opt.minimize(loss, global_step=step)
        hooks = [gl.train.StopAtStepHook(last_step=steps)]
        with gl.train.MonitoredTrainingSession(hooks=hooks, config=config, stop_grace_period_secs=1,
                                               save_checkpoint_secs=None, save_summaries_steps=None,
                                               log_step_count_steps=None) as sess:
            while not sess.should_stop():
                sess.run(train, {x: X, y: Y})
            final = sess.run([w, b, step])
    return graph, final

# %% ex-sync wrong: two replicas to aggregate with only one worker: the take waits for a gradient never sent
def train_synchronously(steps, config):
    with gl.Graph().as_default() as graph:
        x, y, w, b, loss = build_model(gl)
        step = gl.train.get_or_create_global_step()
        opt = gl.train.SyncReplicasOptimizer(gl.train.GradientDescentOptimizer(LR), replicas_to_aggregate=2)
        train = opt.minimize(loss, global_step=step)
        hooks = [opt.make_session_run_hook(True, num_tokens=0), gl.train.StopAtStepHook(last_step=steps)]
        with gl.train.MonitoredTrainingSession(hooks=hooks, config=config, stop_grace_period_secs=1,
                                               save_checkpoint_secs=None, save_summaries_steps=None,
                                               log_step_count_steps=None) as sess:
            while not sess.should_stop():
                sess.run(train, {x: X, y: Y})
            final = sess.run([w, b, step])
    return graph, final
