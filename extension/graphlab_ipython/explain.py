"""Explanations of the classic graph-mode errors, tied to this notebook's history: which execution created
the op the error names, and whether a re-run of that cell is the reason."""
import re

from graphlab_ipython import report

_ALREADY = re.compile(r"Variable (\S+) already exists, disallowed")
_UNINIT = re.compile(r"Attempting to use uninitialized value (\S+)")
_NOT_IN_CKPT = re.compile(r"Key (\S+) not found in checkpoint")
_FEED = re.compile(r"You must feed a value for placeholder tensor '([^']+)'")
_SUFFIX = re.compile(r"^(.*)_(\d+)$")


def explain(error, watcher, cell_id):
    """A report Section explaining ``error`` (the exception the cell raised), or None if not a classic."""
    text = _message(error)
    for pattern, handler in ((_ALREADY, _already_exists), (_UNINIT, _uninitialized),
                             (_NOT_IN_CKPT, _not_in_checkpoint), (_FEED, _must_feed)):
        m = pattern.search(text)
        if m:
            return handler(m.group(1).rstrip(".,"), error, watcher, cell_id)
    return None


def _message(error):
    message = getattr(error, "message", None)
    return message if isinstance(message, str) else str(error)


def _graph(error):
    op = getattr(error, "op", None)
    if op is not None and getattr(op, "graph", None) is not None:
        return op.graph
    from graphlab.framework.graph import get_default_graph
    return get_default_graph()


def _created(op):
    tag = getattr(op, "provenance", None) if op is not None else None
    count = getattr(tag, "execution_count", None)
    return "In [%s]" % count if count is not None else None


def _same_cell(op, cell_id):
    return getattr(getattr(op, "provenance", None), "cell_id", None) == cell_id


def _same_execution(op, watcher):
    """Whether ``op`` was created by the execution that raised (a builder called twice in one cell, or the
    same source run twice through run_cell without history, which does not advance In [N])."""
    tag = getattr(op, "provenance", None)
    current = getattr(watcher, "current_tag", None)
    if tag is not None and tag is current:
        return True
    # the same source run again without advancing In [N] (run_cell without history): same count and
    # same cell; two different cells never count as one execution, even where a front end (nbval)
    # does not advance In [N] between them
    count = getattr(tag, "execution_count", None)
    return (count is not None and count == getattr(watcher, "current_count", None)
            and current is not None and getattr(tag, "cell_id", None) == getattr(current, "cell_id", None))


def _already_exists(name, error, watcher, cell_id):
    graph = _graph(error)
    op = graph._get_operation_or_none(name)
    lines = []
    when = _created(op)
    same_run = op is not None and when and _same_execution(op, watcher)
    if same_run:
        lines.append("Variable %s was already created earlier in this same execution (%s): the code that builds "
                     "it ran twice, and the second tf.get_variable call asked for the name again in the same "
                     "default graph." % (name, when))
    elif op is not None and when:
        if _same_cell(op, cell_id):
            lines.append("Variable %s was created by this same cell when it ran as %s; running the cell again "
                         "asks tf.get_variable to create it a second time in the same default graph." % (name, when))
        else:
            lines.append("Variable %s was created by %s, an earlier cell of this notebook." % (name, when))
    else:
        lines.append("A variable named %s is already in the default graph." % name)
    fixes = ["put tf.reset_default_graph() at the top of the cell that builds the model (or use %%graph_cell)",
             "reuse it on purpose: tf.variable_scope(scope, reuse=tf.AUTO_REUSE)"]
    if same_run:
        fixes.insert(0, "run the code that builds %s once per graph (or give each copy its own "
                        "tf.variable_scope)" % name)
    return report.Section("why: variable %s already exists" % name, lines, fixes)


def _uninitialized(name, error, watcher, cell_id):
    graph = _graph(error)
    var = graph._get_operation_or_none(name)
    lines = []
    when = _created(var)
    if when:
        lines.append("Variable %s was created by %s." % (name, when))
    covering, others = [], []
    for op in graph._ops:
        if op._type == "NoOp" and op._name.split("/")[-1].startswith("init"):
            targets = {c._inputs[0]._op._name for c in op._control_inputs if c._inputs}
            (covering if name in targets else others).append(op)
    if others and not covering:
        last = others[-1]
        made = _created(last)
        lines.append("The initializer %s%s was built before %s existed: an initializer covers only the "
                     "variables that existed when it was built." % (last.name, " (%s)" % made if made else "", name))
    m = _SUFFIX.match(name.split("/")[-1])
    if m and var is not None:
        lines.append("The _%s suffix means a variable of the same name already existed: a re-run cell made a "
                     "second copy, which the earlier initializer run did not touch." % m.group(2))
    lines.append("Each session keeps its own values: the initializer must run in this session, after the "
                 "variables were created.")
    fixes = ["sess.run(tf.global_variables_initializer()) after building the model (build the initializer "
             "after the variables)"]
    return report.Section("why: %s is uninitialized" % name, lines, fixes)


def _not_in_checkpoint(name, error, watcher, cell_id):
    from graphlab.framework.graph import get_default_graph
    graph = get_default_graph()
    renamed = []
    for op in graph._ops:
        if op._type in ("VariableV2", "VarHandleOp") and _SUFFIX.match(op._name.split("/")[-1]):
            renamed.append("%s (%s)" % (op._name, _created(op) or "?"))
    lines = ["The checkpoint has no value saved under %s: the Saver looks variables up by name." % name]
    if renamed:
        lines.append("Variables that got a numbered name because the graph already held one of the same name "
                     "(a re-run cell): %s." % ", ".join(renamed[:5]))
    fixes = ["build the model once in a fresh graph (tf.reset_default_graph() first), then restore",
             "map names explicitly: tf.train.Saver({'name_in_checkpoint': variable})"]
    return report.Section("why: %s is not in the checkpoint" % name, lines, fixes)


def _must_feed(name, error, watcher, cell_id):
    graph = _graph(error)
    op_name = name.split(":")[0]
    op = graph._get_operation_or_none(op_name)
    lines = []
    when = _created(op)
    lines.append("The fetched value depends on placeholder %s%s, and feed_dict has no value for it." % (
        op_name, " (created by %s)" % when if when else ""))
    if op is not None:
        twins = [o for o in graph._ops if o is not op and o._type == op._type
                 and o._attrs.get("dtype") == op._attrs.get("dtype") and
                 _base(o._name) == _base(op._name)]
        if twins:
            lines.append("The graph holds other placeholders of that name: %s. A re-run cell created a new "
                         "placeholder; feed the one the fetched tensor was built from (build and feed in the "
                         "same run of the cell)." % ", ".join(
                             "%s (%s)" % (t.name, _created(t) or "?") for t in twins[:4]))
    fixes = ["sess.run(fetches, feed_dict={%s: value}) with the Python variable holding that placeholder"
             % op_name.split("/")[-1]]
    return report.Section("why: placeholder %s needs a feed" % op_name, lines, fixes)


def _base(name):
    m = _SUFFIX.match(name)
    return m.group(1) if m else name
