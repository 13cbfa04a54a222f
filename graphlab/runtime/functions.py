"""Running a graph function: a tf.data map/filter/... function, a dataset factory or a FunctionDef read from a
GraphDef (graphlab/framework/function_library.py). The dataset kernels call it through
``Session._run_function`` for each element; the function's plan is built once per session and cached in the
session's kernel state beside the variables and queues, so its stateful ops keep their state across calls.
"""
from graphlab.runtime.executor import Plan


def run_function(session, function, values):
    """The outputs of ``function`` (its ``args`` fed with ``values``, numpy), as a list."""
    key = ("__function_plan__", id(function))
    plan = session._state.get(key)
    if plan is None:
        plan = session._state.setdefault(key, Plan(session, function.outputs, [], function.args))
    slots = plan.run(list(values))
    return [slots[s] for s in plan.fetch_slots]
