"""Seeds of the fixed range in `make test` that diverge from TensorFlow today, by category.

A category names what graphlab does wrong (see CATEGORIES); tests/differential/test_differential.py marks
each seed listed here xfail(strict=True) for exactly that category. So a fix turns its seeds into XPASS
failures (delete them, and the category once it is empty), a seed that diverges for another reason fails,
and a new divergence fails. `python -m tests.differential 0:300 --write-known` rewrites SEEDS from a run.
"""

CATEGORIES = {
    "crash": "a side died or hung on the program",
    "variable_read_time":
        "a reference variable is read when the variable op runs, not when its consumer runs, so a control "
        "dependency, tf.tuple/tf.group or a cond/while body does not order the read after an assign/scatter",
    "resource_variable_as_ref":
        "use_resource=True / a resource variable_scope builds reference-variable ops (VariableV2, Assign, "
        "Identity read, v/initial_value) where TF builds VarHandleOp, ReadVariableOp, *VariableOp, "
        "v/Initializer/initial_value",
    "random_values": "a seeded random op gives other numbers than TF",
    "values": "fetched values, dtypes, shapes or Python types differ",
    "spurious_error": "graphlab raises where TF does not",
    "missing_error": "TF raises, graphlab does not",
    "tuple_with_operation":
        "tf.tuple([an Operation, ...]) raises AttributeError ('Operation' object has no attribute 'op'); TF passes "
        "the op through with its control dependencies",
    "queue_close_twice": "closing a closed queue succeeds; TF raises CancelledError 'Queue ... is already closed.'",
    "dtype_not_checked":
        "an op accepts a dtype outside its TF type list (truncatemod/floormod/truncatediv on int8/int16), where "
        "TF raises TypeError 'Value passed to parameter 'x' has DataType int8 not in list of allowed values'",
    "error_class": "an error of another class than TF's",
    "too_many_indices_indexerror": "IndexError where TF raises ValueError for too many indices",
    "op_names": "graph op names or types differ",
    "ref_enter_name": "a reference entering a while loop is named .../Enter, TF names it .../RefEnter",
    "tuple_ref_identity": "tf.tuple of a reference builds Identity, TF builds RefIdentity",
    "error_message": "same error class as TF, other words",
    "build_error_node_format":
        "shape-function errors name the node in TF 1.x's form ('add' (op: 'AddV2')), not TF 2.21's "
        "'{{node add}} = AddV2[T=DT_FLOAT](Const, Const_1)'",
    "run_error_format":
        "run-time errors lack TF 2.21's 'Graph execution error: ... Node: ... [[{{node x}}]]' frame",
    "other": "differs otherwise",
    # Not a divergence (harness.RACY): listed in the summary, never in DIVERGING.
    "racy_in_tensorflow":
        "the program reads a variable with nothing ordering the read against an update; TF's own answer varies "
        "between runs and graphlab gives one of TF's answers",
}

# The seeds of FIXED_RANGE that diverge today, by category (python -m tests.differential 0:300 --write-known)
FIXED_RANGE = range(0, 300)
DIVERGING = {
}
SEEDS = {seed: category for category, seeds in DIVERGING.items() for seed in seeds}


def rewrite(seeds, found):
    """Replace the entries of the seeds in `seeds` by `found` (seed -> category) and write this file again."""
    table = {s: c for s, c in SEEDS.items() if s not in seeds}
    table.update(found)
    by_category = {}
    for seed in sorted(table):
        by_category.setdefault(table[seed], []).append(seed)
    body = ""
    for category in CATEGORIES:
        if category in by_category:
            numbers = [str(s) for s in by_category[category]]
            lines, line = [], ""
            for n in numbers:
                if len(line) + len(n) + 2 > 100:
                    lines.append(line)
                    line = ""
                line += n + ", "
            lines.append(line)
            body += "    %r: [\n%s    ],\n" % (category, "".join("        %s\n" % l.rstrip() for l in lines))
    path = __file__.replace(".pyc", ".py")
    with open(path) as f:
        text = f.read()
    head, rest = text.split("DIVERGING = {", 1)
    tail = rest.split("\n}\n", 1)[1]
    with open(path, "w") as f:
        f.write(head + "DIVERGING = {\n" + body + "}\n" + tail)
