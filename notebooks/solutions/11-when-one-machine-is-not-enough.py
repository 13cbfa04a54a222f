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
