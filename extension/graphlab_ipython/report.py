"""Formatting of the after-cell report: a list of sections, published once per cell as a mimebundle with
text/plain (terminals, nbval) and text/html (JupyterLab)."""
import collections
import html
import os
import re

from graphlab.lint import checks

Section = collections.namedtuple("Section", "title lines fixes")
HEADER = "graphlab:"


def location(source_line, shell=None):
    """``In [3], line 2: x = x + 1`` for notebook cells, ``file.py:12: ...`` for files."""
    if source_line is None:
        return "(unknown line)"
    name = None
    filename = source_line.filename
    fmap = getattr(getattr(shell, "compile", None), "_filename_map", None)
    if fmap and filename in fmap:
        name = "In [%s], line %d" % (fmap[filename], source_line.lineno)
    if name is None:
        name = "%s:%d" % (os.path.basename(filename), source_line.lineno)
    text = source_line.text
    return "%s: %s" % (name, text) if text else name


def _statement(source_line, shell=None):
    """``location`` without a trailing comment on the line: the report quotes the code, the sentence follows."""
    where = location(source_line, shell)
    code_part, hash_, comment = where.rpartition("  #")
    return code_part.rstrip() if hash_ and "'" not in comment and '"' not in comment else where


def _count_types(ops):
    return ", ".join("%d %s" % (n, t) for t, n in collections.Counter(op.type for op in ops).most_common())


_NUMBERED = re.compile(r"^(.*?)(?:_(\d+))?(_input|_target)?$")


def keras_renames(dups, new_ops):
    """What a re-run of Keras code made, from the names Keras gave: ``("model", pairs)`` when it built a model
    again (a renamed scope holds a layer's weight, ``dense_2/kernel``: Keras names each new layer after those
    already in the graph and makes its weights resource variables), ``("compile", pairs)`` when it compiled one
    again (new ``loss_1``/``metrics_N`` scopes and metric variables ``total_1``), else ``(None, [])``; pairs
    are ``(old scope, new scope)``. Plain TF1 code re-run (reference variables) gives ``(None, [])``."""
    handles = [op.name for op in new_ops if op.type == "VarHandleOp"]
    if not handles:
        return None, []
    pairs = []
    for d in dups:
        new, old = d.op.name.partition("/")[0], d.original.name.partition("/")[0]
        if new == old or new.endswith(("_input", "_target")):
            continue
        a, b = _NUMBERED.match(new), _NUMBERED.match(old)
        if a.group(1) == b.group(1) and a.group(2) and (old, new) not in pairs:
            pairs.append((old, new))
    layers = [(old, new) for old, new in pairs if any(h.startswith(new + "/") for h in handles)]
    if layers:
        return "model", layers
    if any(_NUMBERED.match(new).group(1) in ("loss", "metrics") for _, new in pairs):
        return "compile", pairs
    return None, []


def duplicates_section(dups, new_ops, earlier, record, graph):
    first = earlier[0].label
    runs = ", ".join(r.label for r in earlier)
    title = "re-run duplicated ops"
    if not any(r.cell_id == record.cell_id for r in earlier):     # another cell with the same source: a copy
        when = "This cell is a copy of one that ran before (same code as %s); this run (%s)" % (runs, record.label)
        title = "copied cell duplicated ops"
    elif record.cell_id.startswith("src:") and record.inside is None:
        # the front end sent no cell id (nbclient, nbval, a terminal): a re-run and a pasted copy look alike
        when = "The same code ran before (%s), in this cell or in a copy of it; this run (%s)" % (
            runs, record.label)
        title = "re-run or copied cell duplicated ops"
    else:
        when = "This cell ran before (%s); this run (%s)" % (runs, record.label)
    lines = ["%s created %d op%s, %d of them structurally identical to ops from the earlier run: %s." % (
        when, len(new_ops), "s" if len(new_ops) != 1 else "", len(dups), _count_types([d.op for d in dups]))]
    examples = ["%s duplicates %s" % (d.op.name, d.original.name) for d in dups[:3]]
    lines.append("For example " + "; ".join(examples) + ".")
    dup_bytes = sum(checks.const_bytes(d.op) for d in dups)
    if dup_bytes:
        lines.append("Duplicated constant data: %s." % checks.human_bytes(dup_bytes))
    lines.append("The default graph now has %d ops." % len(graph._ops))
    kind, renames = keras_renames(dups, new_ops)
    named = ", ".join("%s -> %s" % p for p in renames[:4])
    if kind == "model":
        lines.append("This is a Keras model built again: Keras named the new layers after the ones already in the "
                     "graph (%s), and the earlier model's layers and variables stay in the graph and in Keras's "
                     "session (tf.keras.backend.get_session())." % named)
        fixes = ["call tf.keras.backend.clear_session() at the top of the cell: it starts a new default graph "
                 "and session and restarts Keras's layer names (%s ...)" % ", ".join(p[0] for p in renames[:2]),
                 "build the model once (run this cell only once, or move the building code into its own cell)"]
        return Section("%s: a Keras model (first run %s)" % (title, first), lines, fixes)
    if kind == "compile":
        lines.append("This is a Keras model compiled again: each compile adds a new loss, new metrics and their "
                     "variables (%s); the earlier ones stay in the graph, unused." % named)
        fixes = ["compile once, in the cell that builds the model",
                 "to start clean, put tf.keras.backend.clear_session() at the top of the cell that builds the "
                 "model and run that cell, then compile"]
        return Section("%s: a Keras compile (first run %s)" % (title, first), lines, fixes)
    fixes = ["build the graph once (run this cell only once, or move the building code into its own cell)",
             "put tf.reset_default_graph() at the top of the cell, or use %%graph_cell NAME to build it in a "
             "fresh graph",
             "use `with tf.Graph().as_default():` for a graph of its own"]
    return Section("%s (first run %s)" % (title, first), lines, fixes)


def op_growth_section(growth, shell=None):
    """A line that ran again and again in one cell run (a Python loop calling it), each run adding ops. The
    advice depends on what the loop does: runs that feed each other compute something the graph now holds
    unrolled (``tf.while_loop`` keeps one copy of the body); independent copies are an op to build once."""
    lines, computes = [], False
    for g in growth:
        lines.append("%s ran about %d times and created %d ops in this run (%s; e.g. %s)%s." % (
            location(g.source_line, shell), g.runs, g.count,
            ", ".join("%d %s" % (n, t) for t, n in g.types.items()), ", ".join(g.example_names),
            ": each run used the previous run's result, so the graph holds the loop unrolled"
            if g.kind == "unrolled" else ": each run built another copy of the same ops"))
        computes = computes or g.kind == "unrolled"
    fixes = []
    if computes:
        fixes.append("to compute in a loop, put the loop in the graph: tf.while_loop(cond, body, [start]) builds "
                     "the body once, and the session runs it as often as cond says")
    copied = [g for g in growth if g.kind != "unrolled"]
    if any("IteratorGetNext" in g.types for g in copied):
        fixes.append("call iterator.get_next() once, before the loop, and sess.run its result inside: every "
                     "call adds another IteratorGetNext op (all reading the same iterator)")
    if copied:
        fixes.append("build the op once, outside the loop, and only sess.run it inside the loop")
    if any("Const" in g.types for g in copied):
        fixes.append("feed changing values through a tf.placeholder instead of creating new constants")
    return Section("one line keeps adding ops", lines, fixes)


def large_constants_section(large, shell=None):
    lines = []
    for c in large:
        lines.append("%s embeds %s: shape %s, %s, %s in the graph." % (
            location(c.source_line, shell), c.op.name, list(c.shape), getattr(c.dtype, "name", c.dtype),
            checks.human_bytes(c.nbytes)))
    fixes = ["x = tf.placeholder(dtype, shape) in the graph, and sess.run(..., feed_dict={x: value}): the "
             "data stays out of the graph (and out of saved GraphDefs and every re-run)"]
    return Section("large constant embedded in the graph", lines, fixes)


def restore_init_section(events, count):
    lines = []
    for restore_tag, names in events:
        restore_count = getattr(restore_tag, "execution_count", restore_tag)
        lines.append("In [%s] ran an initializer after the restore %s in the same session: it overwrote the "
                     "restored value%s of %s." % (
                         count, "in In [%s]" % restore_count if restore_count is not None else "",
                         "s" if len(names) > 1 else "", ", ".join(names[:5])))
    fixes = ["run the initializer first and saver.restore(sess, path) after it, or restore only"]
    return Section("initializer after restore", lines, fixes)


def run_builds_section(built, shell=None):
    """``built``: [(SourceLine, [[ops] per run call])], one entry per line whose sess.run(...) built ops in
    several run calls."""
    lines, types = [], set()
    for source_line, runs in built:
        ops = [op for run in runs for op in run]
        types.update(op.type for op in ops)
        lines.append("%s built a new %s op inside sess.run(...) in each of its %d runs (%s): an op created in "
                     "the argument of sess.run is added to the graph every time the line runs." % (
                         _statement(source_line, shell), ops[0].type, len(runs),
                         ", ".join(op.name for op in ops[:4]) + (", ..." if len(ops) > 4 else "")))
    if "IteratorGetNext" in types:
        example = "next_batch = iterator.get_next()), and run that in the loop: sess.run(next_batch)"
    elif types <= {"NoOp"}:
        example = "init = tf.global_variables_initializer()), and run that in the loop: sess.run(init)"
    else:
        example = "step = tf.assign_add(v, 1)), and run that in the loop: sess.run(step)"
    fixes = ["build the op once, before the loop (e.g. " + example]
    return Section("op built inside sess.run(...)", lines, fixes)


def cond_leaks_section(leaks, shell=None):
    lines = []
    for op, switches in leaks:
        lines.append("%s creates %s (%s) before the tf.cond that reads it (%s). Only a branch uses its value, "
                     "yet it runs whenever the cond runs, whichever branch is taken: tf.cond is lazy only for "
                     "ops created inside its branch functions." % (
                         _statement(getattr(op, "source_line", None), shell), op.name, op.type,
                         _cond_name(switches[0])))
    fixes = ["create the op inside the branch function: def branch(): return tf.assign_add(...), then "
             "tf.cond(pred, branch, other)"]
    return Section("stateful op outside tf.cond", lines, fixes)


def _cond_name(switch):
    """The scope of the tf.cond a branch op belongs to (``cond`` for ``cond/cond_text``)."""
    context = getattr(switch, "_control_flow_context", None)
    name = getattr(context, "name", None) or switch.name
    return name.rpartition("/")[0] or name


def exports_section(exports):
    """``exports``: [(kind, path, [PyFunc NodeDefs])]."""
    lines = []
    for kind, path, nodes in exports:
        tokens = [node.attr["token"].s.decode("utf-8", "replace") for node in nodes if "token" in node.attr]
        lines.append("The %s written to %s holds %s %s (%s). The file keeps only the token, never the Python "
                     "function." % (kind, os.path.basename(path.rstrip(os.sep)) or path,
                                    "PyFunc op" if len(nodes) == 1 else "PyFunc ops",
                                    ", ".join(node.name for node in nodes[:4]),
                                    "token " + ", ".join(tokens[:4]) if tokens else "no token"))
    lines.append("Another Python process that loads it fails when the op runs: InvalidArgumentError \"ValueError: "
                 "Could not find callback with key=%s in the registry.\" (TensorFlow 2; TF 1.x said \"callback "
                 "... is not found\"). A C++ server (TensorFlow Serving) has no kernel for PyFunc at all."
                 % (tokens[0] if exports and tokens else "pyfunc_0"))
    fixes = ["write the computation with TensorFlow ops",
             "do the Python step outside the graph: before feeding or after fetching",
             "export a serving graph built without the py_func"]
    return Section("py_func in an exported graph", lines, fixes)


def render_text(sections):
    out = []
    for s in sections:
        out.append("%s %s" % (HEADER, s.title))
        out.extend("  " + line for line in s.lines)
        if s.fixes:
            out.append("  Fix: " + "; or ".join(s.fixes) + ".")
    return "\n".join(out)


def render_html(sections):
    parts = ['<div class="graphlab-report" style="border-left:3px solid #d08000;padding:2px 8px;'
             'margin:4px 0;font-size:90%">']
    for s in sections:
        parts.append("<div><b>graphlab: %s</b>" % html.escape(s.title))
        parts.append("<ul>%s</ul>" % "".join("<li>%s</li>" % html.escape(line) for line in s.lines))
        if s.fixes:
            parts.append("<div>Fix: %s</div>" % "; or ".join("<code>%s</code>" % html.escape(f)
                                                              if f.startswith("x = ") else html.escape(f)
                                                              for f in s.fixes))
        parts.append("</div>")
    parts.append("</div>")
    return "".join(parts)


def bundle(sections):
    return {"text/plain": render_text(sections), "text/html": render_html(sections)}


def publish(sections):
    from IPython.display import display
    display(bundle(sections), raw=True)
