"""A loop pass as one generated Python function: the kernel calls of a while loop's body written out in order.

The fast loop runner (loop_runner.py) runs the same steps in every iteration. Interpreting them from a list
(``run_interpreted``) costs about 0.4 us per step (unpack the step, fetch its arguments, test its mode, store
its result), which for the ~120 steps of a 2-layer LSTM's forward and backward iterations, 50 time steps, is
a few milliseconds of a 45 ms training step. ``compile_pass`` writes those steps out as straight-line code:

    def run(v, dead_ops, k=kernels, c=contexts, s=steps, checked=run_checked):
        at = 0
        try:
            at = 7
            v[31] = k[7](c[7], v[12], v[30])   # an op whose inputs cannot be dead: just its kernel
            at = 8
            checked(s[8], v, dead_ops)         # an op that may meet a dead value: the general rules
            ...
        except OpError:
            raise
        except Exception as e:
            raise kernel_failure(c[at].op, e) from e

``v`` is the frame's value slots. What a step does is exactly what ``run_interpreted`` does with it; an
exception a kernel raises becomes the same InvalidArgumentError naming the same op (``at`` says which).
Writing the code out costs ~20 us per step, so a loop is compiled only when it runs again (see FastLoop.run):
a one-off run of a large loop pays nothing for it.
"""
from graphlab.formats import errors
from graphlab.framework.registry import DEAD
from graphlab.runtime.frames import kernel_failure

# what a step does with dead values (loop_runner's modes): only FAST steps are written out as a direct call
FAST, CHECK, MERGE, TRIGGER = 0, 1, 2, 3


def run_interpreted(steps, values, dead_ops):
    """One pass over ``steps``, step by step, with TF's rules for dead values in the steps whose mode is not
    FAST (ops that may meet a dead value, in or after a tf.cond)."""
    for kernel, ctx, getter, n_out, outs, ctrl, mode, _ in steps:
        args = getter(values)
        if mode:
            dead = ctrl and not dead_ops.isdisjoint(ctrl)
            if not dead:
                for a in args:
                    if a is DEAD:
                        dead = True
                        break
            if dead and mode == CHECK:
                dead_ops.add(ctx.op)
                for slot in outs:
                    values[slot] = DEAD
                continue
        if kernel is None:           # skipped: nothing reads its result
            continue
        try:
            result = kernel(ctx, *args)
        except errors.OpError:
            raise
        except Exception as e:
            raise kernel_failure(ctx.op, e) from e
        if n_out == 1:
            values[outs[0]] = result
        elif n_out:
            for slot, v in zip(outs, result):
                values[slot] = v
            if mode == MERGE and result[0] is DEAD:
                dead_ops.add(ctx.op)


def run_checked(step, values, dead_ops):
    """One step, as ``run_interpreted`` runs it (a compiled pass's step that may meet a dead value)."""
    run_interpreted((step,), values, dead_ops)


def compile_pass(steps):
    """A function ``run(values, dead_ops)`` doing ``steps`` in order, as ``run_interpreted`` does. Each step is
    a loop_runner step tuple (kernel, ctx, getter, n_out, outs, ctrl, mode, ins), ``ins`` its input slots."""
    lines = []
    for i, step in enumerate(steps):
        kernel, _, _, n_out, outs, _, mode, ins = step
        lines.append("at = %d" % i)
        if mode != FAST or kernel is None:
            lines.append("checked(s[%d], v, dead_ops)" % i)
            continue
        call = "k[%d](%s)" % (i, ", ".join(["c[%d]" % i] + ["v[%d]" % slot for slot in ins]))
        if n_out == 1:
            lines.append("v[%d] = %s" % (outs[0], call))
        elif n_out == 0:
            lines.append(call)
        else:
            lines.append("for slot, value in zip(%r, %s):" % (tuple(outs), call))
            lines.append("    v[slot] = value")
    source = "\n".join([
        "def run(v, dead_ops, k=kernels, c=contexts, s=steps, checked=run_checked):",
        "    at = 0",
        "    try:",
        *["        " + line for line in lines or ["pass"]],
        "    except OpError:",
        "        raise",
        "    except Exception as e:",
        "        raise kernel_failure(c[at].op, e) from e",
    ])
    namespace = {"kernels": [step[0] for step in steps], "contexts": [step[1] for step in steps],
                 "steps": list(steps), "run_checked": run_checked, "OpError": errors.OpError,
                 "kernel_failure": kernel_failure}
    exec(compile(source, "<graphlab loop pass>", "exec"), namespace)
    return namespace["run"]
