"""graphlab's IPython extension: ``%load_ext graphlab`` (or ``graphlab_ipython``).

After each cell it reports, only when there is something to say, what the cell did to the graph that
matters: a re-run that duplicated ops, a line that created hundreds of ops, a large embedded constant, an
explanation of a classic error tied to this notebook's history, an initializer run after a restore, an op
built inside ``sess.run(...)`` on every call, a stateful op left outside the ``tf.cond`` that reads it, a
``py_func`` in a graph written to a file; tracebacks fold graphlab's own frames; and,
while a run waits on a queue that no runner thread fills, which queue and runner, and what to call. It adds
the magics ``%graph``, ``%subgraph``, ``%%graph_cell``, ``%graph_lint``, ``%graph_diff``, ``%graph_reset`` and
``%step`` (a recorded run stepped op by op, stepping.py).

Thin by design (like IPython's autoreload): the logic lives in ``watcher.GraphWatcher``, the magics in
``magics.GraphMagics``; loading registers them, unloading removes exactly what loading added.
"""
_ATTR = "_graphlab_ipython"


def load_ipython_extension(ip):
    """Register the cell hooks, the session-run listener and the magics (once per shell)."""
    if getattr(ip, _ATTR, None) is not None:
        return
    from graphlab.framework import graph_io
    from graphlab.runtime import session, waiting
    from graphlab_ipython import stalls, tracebacks
    from graphlab_ipython.magics import GraphMagics
    from graphlab_ipython.watcher import GraphWatcher

    watcher = GraphWatcher(ip)
    magics = GraphMagics(ip, watcher)
    ip.events.register("pre_run_cell", watcher.pre_run_cell)
    ip.events.register("post_run_cell", watcher.post_run_cell)
    session.run_listeners.append(watcher.on_session_run)
    graph_io.export_listeners.append(watcher.on_export)
    waiting.blocked_listeners.append(stalls.on_blocked)
    tracebacks.install(ip, watcher)
    ip.register_magics(magics)
    setattr(ip, _ATTR, (watcher, magics))


def unload_ipython_extension(ip):
    """Remove every hook, listener and magic that ``load_ipython_extension`` added."""
    loaded = getattr(ip, _ATTR, None)
    if loaded is None:
        return
    watcher, magics = loaded
    from graphlab.framework import graph_io
    from graphlab import graphview
    from graphlab.framework import provenance
    from graphlab.runtime import session, waiting
    from graphlab_ipython import stalls, tracebacks

    for name, callback in (("pre_run_cell", watcher.pre_run_cell), ("post_run_cell", watcher.post_run_cell)):
        try:
            ip.events.unregister(name, callback)
        except ValueError:
            pass
    if watcher.on_session_run in session.run_listeners:
        session.run_listeners.remove(watcher.on_session_run)
    if watcher.on_export in graph_io.export_listeners:
        graph_io.export_listeners.remove(watcher.on_export)
    tracebacks.uninstall(ip)
    if stalls.on_blocked in waiting.blocked_listeners:
        waiting.blocked_listeners.remove(stalls.on_blocked)
    manager = ip.magics_manager
    for kind, names in magics.magics.items():
        for name in names:
            manager.magics[kind].pop(name, None)
    manager.registry.pop(type(magics).__name__, None)
    watcher.close()
    provenance.set_tag(None)
    graphview.stop_recording()
    setattr(ip, _ATTR, None)


def watcher_of(ip):
    """The loaded extension's GraphWatcher for shell ``ip`` (None when not loaded)."""
    loaded = getattr(ip, _ATTR, None)
    return loaded[0] if loaded else None
