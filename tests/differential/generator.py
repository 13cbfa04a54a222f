"""A seeded generator of small TF1 programs, the same text for graphlab and for the reference TensorFlow.

``program(seed)`` gives (source, features): Python source written against the TF1 API (``tf`` is graphlab
or ``tensorflow.compat.v1``) that builds a graph, opens ``sess`` and records runs through ``run(sess,
fetches, feed_dict)`` (tests/differential/runner.py), and the set of constructs it uses (for the summary).

The programs are well defined in TF: two accesses of one variable (or queue) in the same run, one of them a
write, are always ordered by a data or control dependency, since TF's executor runs unordered ops in any
order (such a program has no single right answer); the same holds for a random op's state in a while loop's
parallel iterations. Every access is tracked with the ops it depends on, and
a fetch that would race is not made. Everything else (including what is known to diverge) is generated.
"""
import random

FLOAT, INT, BOOL = "float32", "int32", "bool"
SHAPES = [(), (3,), (4,), (2, 3), (2, 1), (1, 3), (3, 2)]


class Node:
    """Something the program names: a tensor, an op, or a variable.

    anc: ids of the nodes it depends on (itself included); acc: (node id, resource, 'r'|'w') accesses among
    them. ref: the variable whose current value it stands for (a variable, or an assign op's output), so a
    consumer or a fetch reads that variable when it runs."""

    def __init__(self, gen, expr, kind, dtype=None, shape=None, inputs=(), own=(), ref=None, var=None):
        self.id = gen.next_id()
        self.expr, self.kind, self.dtype, self.shape, self.ref, self.var = expr, kind, dtype, shape, ref, var
        self.anc = {self.id}
        self.acc = set()
        for n in list(inputs) + gen.control:
            self.anc |= n.anc
            self.acc |= n.acc
            if n in inputs and n.ref is not None:  # a consumer of a reference reads the variable
                self.acc.add((self.id, n.ref, "r"))
        self.acc |= {(self.id, res, mode) for res, mode in own}
        gen.anc_of[self.id] = self.anc


class Gen:
    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.lines = []
        self.indent = 0
        self.count = 0
        self.ids = 0
        self.anc_of = {}
        self.control = []      # nodes of the enclosing control_dependencies blocks
        self.tensors = []      # usable tensors (not variables)
        self.vars = []
        self.writes = []       # assign / scatter / group ops
        self.placeholders = []
        self.features = set()
        self.graph_seed = None

    # ---------------------------------------------------------------- helpers
    def next_id(self):
        self.ids += 1
        return self.ids

    def name(self, prefix):
        self.count += 1
        return "%s%d" % (prefix, self.count)

    def emit(self, line):
        self.lines.append("    " * self.indent + line)

    def chance(self, p):
        return self.rng.random() < p

    def literal(self, dtype, shape, nonzero=False, low=-6, high=6):
        r = self.rng
        if not shape:
            if dtype == BOOL:
                return r.choice(["True", "False"])
            v = r.randint(low, high)
            if nonzero and v == 0:
                v = r.choice([-3, 2, 5])
            if dtype == FLOAT:
                return repr(v + r.choice([0.0, 0.0, 0.5, -0.25]))
            return str(v)
        return "[" + ", ".join(self.literal(dtype, shape[1:], nonzero, low, high) for _ in range(shape[0])) + "]"

    def pick(self, pool, pred=lambda n: True):
        options = [n for n in pool if pred(n)]
        return self.rng.choice(options) if options else None

    def tensor(self, dtype=None, shape=None, allow_vars=True):
        """A tensor (or variable) of the given dtype/shape from the pool, else a new constant."""
        pool = self.tensors + (self.vars if allow_vars else [])
        n = self.pick(pool, lambda n: (dtype is None or n.dtype == dtype) and (shape is None or n.shape == shape))
        if n is None or self.chance(0.25):
            n = self.const(dtype or self.rng.choice([FLOAT, INT]), shape if shape is not None else self.shape())
        return n

    def shape(self):
        return self.rng.choice(SHAPES)

    def add(self, node):
        if node.kind == "tensor":
            self.tensors.append(node)
        return node

    def const(self, dtype, shape, nonzero=False):
        name = self.name("c")
        self.emit("%s = tf.constant(%s, dtype=tf.%s)" % (name, self.literal(dtype, shape, nonzero), dtype))
        return self.add(Node(self, name, "tensor", dtype, shape))

    # ---------------------------------------------------------------- program parts
    def variable(self):
        dtype = self.rng.choice([FLOAT, FLOAT, INT])
        shape = self.rng.choice([(), (3,), (4,), (2, 3)])
        name = self.name("v")
        init = self.literal(dtype, shape)
        style = self.rng.choice(["Variable", "Variable", "resource", "get_variable", "resource_scope"])
        resource = style in ("resource", "resource_scope")
        self.features.add("resource_variable" if resource else "ref_variable")
        if style == "Variable":
            self.emit("%s = tf.Variable(%s, dtype=tf.%s, name=%r)" % (name, init, dtype, name))
        elif style == "resource":
            self.emit("%s = tf.Variable(%s, dtype=tf.%s, name=%r, use_resource=True)" % (name, init, dtype, name))
        else:
            scope = self.name("scope")
            self.emit("with tf.variable_scope(%r%s):" % (scope, ", use_resource=True" if resource else ""))
            self.emit("    %s = tf.get_variable(%r, shape=%s, dtype=tf.%s, initializer=tf.constant_initializer(%s))"
                      % (name, name, list(shape), dtype, self.literal(dtype, ())))
        node = Node(self, name, "variable", dtype, shape)
        node.ref = node.id
        node.resource = resource
        self.vars.append(node)
        return node

    def update(self):
        v = self.pick(self.vars)
        if v is None:
            return
        name = self.name("u")
        kind = self.rng.choice(["assign", "assign_add", "assign_sub", "method", "scatter", "scatter", "scatter_nd"])
        locking = self.rng.choice(["", ", use_locking=True", ", use_locking=False"])
        if kind == "scatter" and v.shape and len(v.shape) >= 1:
            op = self.rng.choice(["scatter_update", "scatter_add", "scatter_sub", "scatter_mul", "scatter_max",
                                  "scatter_min"])
            k = self.rng.randint(1, v.shape[0])
            if op == "scatter_update":
                idx = self.rng.sample(range(v.shape[0]), k)
            else:
                idx = [self.rng.randrange(v.shape[0]) for _ in range(k)]
            upd = self.literal(v.dtype, (k,) + v.shape[1:])
            self.emit("%s = tf.%s(%s, %s, %s%s)" % (name, op, v.expr, idx, upd, locking))
            self.features.add("scatter")
        elif kind == "scatter_nd" and v.shape:
            k = self.rng.randint(1, v.shape[0])
            idx = [[i] for i in self.rng.sample(range(v.shape[0]), k)]
            op = self.rng.choice(["scatter_nd_update", "scatter_nd_add", "scatter_nd_sub"])
            self.emit("%s = tf.%s(%s, %s, %s)" % (name, op, v.expr, idx, self.literal(v.dtype, (k,) + v.shape[1:])))
            self.features.add("scatter")
        elif kind == "method":
            op = self.rng.choice(["assign", "assign_add", "assign_sub"])
            value = self.tensor(v.dtype, v.shape, allow_vars=False)
            self.emit("%s = %s.%s(%s%s)" % (name, v.expr, op, value.expr, locking))
            self.features.add("assign")
            node = Node(self, name, "tensor", v.dtype, v.shape, inputs=[v, value], own=[(v.id, "w")], ref=v.id)
            self.writes.append(node)
            return node
        else:
            op = kind if kind.startswith("assign") else "assign"
            value = self.tensor(v.dtype, v.shape, allow_vars=False)
            self.emit("%s = tf.%s(%s, %s%s)" % (name, op, v.expr, value.expr, locking))
            self.features.add("assign")
            node = Node(self, name, "tensor", v.dtype, v.shape, inputs=[v, value], own=[(v.id, "w")], ref=v.id)
            self.writes.append(node)
            return node
        node = Node(self, name, "tensor", v.dtype, v.shape, inputs=[v], own=[(v.id, "w")], ref=v.id)
        self.writes.append(node)
        return node

    def read(self):
        src = self.pick(self.vars + [w for w in self.writes if w.ref is not None])
        if src is None:
            return
        name = self.name("r")
        form = self.rng.choice(["tf.identity(%s)", "%s.read_value()", "%s + 0", "tf.identity(%s)", "%s.value()",
                                "tf.gather(%s, [0])", "%s * 1"])
        if form in ("%s.read_value()", "%s.value()") and src.kind != "variable":
            form = "tf.identity(%s)"
        if form == "tf.gather(%s, [0])" and not src.shape:
            form = "%s + 0"
        shape = (1,) + src.shape[1:] if form.startswith("tf.gather") else src.shape
        self.emit("%s = %s" % (name, form % src.expr))
        self.features.add("read")
        node = Node(self, name, "tensor", src.dtype, shape, inputs=[src])
        if src.ref is not None:
            node.acc.add((node.id, src.ref, "r"))
        if self.control:
            self.features.add("read_under_control_deps")
        return self.add(node)

    def control_block(self, depth=0):
        deps = self.rng.sample(self.writes + self.tensors, min(len(self.writes + self.tensors),
                                                              self.rng.randint(1, 2)))
        if not deps:
            return
        none = depth > 0 and self.chance(0.3)
        self.emit("with tf.control_dependencies(%s):" % ("None" if none else "[%s]" % ", ".join(d.expr for d in deps)))
        self.features.add("control_dependencies_none" if none else "control_dependencies")
        saved = self.control
        self.control = [] if none else self.control + deps
        self.indent += 1
        before = len(self.lines)
        for _ in range(self.rng.randint(1, 3)):
            r = self.rng.random()
            if r < 0.45:
                self.read()
            elif r < 0.65:
                self.update()
            elif r < 0.8 and depth < 2:
                self.control_block(depth + 1)
            else:
                self.arith()
        if len(self.lines) == before:
            self.emit("pass")
        self.indent -= 1
        self.control = saved

    def group(self):
        pool = self.writes + self.tensors
        items = self.rng.sample(pool, min(len(pool), self.rng.randint(1, 3)))
        if not items:
            return
        name = self.name("g")
        if self.chance(0.5):
            self.emit("%s = tf.group(%s)" % (name, ", ".join(i.expr for i in items)))
            self.features.add("group")
            node = Node(self, name, "op", inputs=items)
            self.writes.append(node)
        else:
            ctrl = self.rng.sample(self.writes, min(len(self.writes), 1))
            self.emit("%s = tf.tuple([%s]%s)" % (name, ", ".join(i.expr for i in items),
                                                 ", control_inputs=[%s]" % ctrl[0].expr if ctrl else ""))
            self.features.add("tuple")
            for k, i in enumerate(items):
                n = Node(self, "%s[%d]" % (name, k), "tensor", i.dtype, i.shape, inputs=items + ctrl)
                self.add(n)

    def arith(self):
        r = self.rng.random()
        if r < 0.3:
            return self.binary()
        if r < 0.45:
            return self.intdiv()
        if r < 0.6:
            return self.reduction()
        if r < 0.8:
            return self.slicing()
        return self.unary()

    def broadcast_partner(self, shape):
        options = {(): [(), (3,), (2, 3)], (3,): [(), (3,), (2, 3), (1, 3), (2, 1)], (4,): [(), (4,)],
                   (2, 3): [(), (3,), (2, 3), (1, 3), (2, 1)], (2, 1): [(), (2, 1), (1, 3), (2, 3), (3,)],
                   (1, 3): [(), (3,), (1, 3), (2, 1), (2, 3)], (3, 2): [(), (2,), (3, 2), (3, 1)]}
        return self.rng.choice(options.get(shape, [shape]))

    @staticmethod
    def bshape(a, b):
        n = max(len(a), len(b))
        a, b = (1,) * (n - len(a)) + a, (1,) * (n - len(b)) + b
        return tuple(max(x, y) for x, y in zip(a, b))

    def binary(self):
        a = self.tensor(self.rng.choice([FLOAT, INT]))
        b = self.tensor(a.dtype, self.broadcast_partner(a.shape))
        name = self.name("t")
        op = self.rng.choice(["%s + %s", "%s - %s", "%s * %s", "tf.maximum(%s, %s)", "tf.minimum(%s, %s)",
                              "tf.add(%s, %s)", "tf.subtract(%s, %s)", "%s / %s", "tf.squared_difference(%s, %s)"])
        dtype = a.dtype
        if op == "%s / %s" and dtype == INT:
            dtype = "float64"
        if op.startswith("tf.squared") and dtype == INT:
            op = "%s * %s"
        self.emit("%s = %s" % (name, op % (a.expr, b.expr)))
        self.features.add("broadcast" if a.shape != b.shape else "elementwise")
        return self.add(Node(self, name, "tensor", dtype, self.bshape(a.shape, b.shape), inputs=[a, b]))

    def intdiv(self):
        dtype = self.rng.choice([INT, INT, INT, FLOAT, "int64", "int8", "int16"])
        shape = self.rng.choice([(3,), (4,), (2, 3)])
        a = self.tensor(dtype, shape) if dtype in (INT, FLOAT) else self.const(dtype, shape)
        b = self.const(dtype, self.broadcast_partner(shape), nonzero=True)
        name = self.name("d")
        op = self.rng.choice(["%s // %s", "%s %% %s", "tf.floordiv(%s, %s)", "tf.truncatediv(%s, %s)",
                              "tf.mod(%s, %s)", "tf.truncatemod(%s, %s)", "tf.floormod(%s, %s)", "tf.div(%s, %s)"])
        if dtype == FLOAT and op.startswith("tf.truncatediv"):
            op = "tf.div(%s, %s)"
        self.emit("%s = %s" % (name, op % (a.expr, b.expr)))
        self.features.add("integer_division")
        return self.add(Node(self, name, "tensor", dtype, self.bshape(a.shape, b.shape), inputs=[a, b]))

    def reduction(self):
        a = self.tensor(self.rng.choice([FLOAT, INT]), self.rng.choice([(3,), (2, 3), (3, 2), (4,)]))
        fn = self.rng.choice(["reduce_sum", "reduce_mean", "reduce_max", "reduce_min", "reduce_prod", "argmax",
                              "argmin", "reduce_any", "reduce_all"])
        name = self.name("s")
        rank = len(a.shape)
        if fn.startswith("arg"):
            axis = self.rng.randrange(-rank, rank)
            self.emit("%s = tf.%s(%s, axis=%d)" % (name, fn, a.expr, axis))
            shape = tuple(d for i, d in enumerate(a.shape) if i != axis % rank)
            self.features.add("reduction")
            return self.add(Node(self, name, "tensor", "int64", shape, inputs=[a]))
        expr = a.expr
        dtype = a.dtype
        if fn in ("reduce_any", "reduce_all"):
            expr = "%s > %s" % (a.expr, self.literal(a.dtype, ()))
            dtype = BOOL
        axis = self.rng.choice([None, self.rng.randrange(-rank, rank), list(range(rank))])
        keep = self.chance(0.3)
        self.emit("%s = tf.%s(%s%s%s)" % (name, fn, expr, "" if axis is None else ", axis=%r" % (axis,),
                                          ", keepdims=True" if keep else ""))
        if axis is None or isinstance(axis, list):
            axes = set(range(rank))
        else:
            axes = {axis % rank}
        shape = tuple((1 if i in axes else d) for i, d in enumerate(a.shape) if keep or i not in axes)
        self.features.add("reduction")
        return self.add(Node(self, name, "tensor", dtype, shape, inputs=[a]))

    def slicing(self):
        a = self.tensor(None, self.rng.choice([(3,), (4,), (2, 3), (3, 2)]))
        name = self.name("x")
        if len(a.shape) == 1:
            n = a.shape[0]
            choices = [("[1:]", (n - 1,)), ("[-1]", ()), ("[::-1]", (n,)), ("[-2:]", (2,)), ("[::2]", ((n + 1) // 2,)),
                       ("[-3:-1]", (2,)), ("[:-1]", (n - 1,)), ("[tf.newaxis, :]", (1, n)), ("[::-2]", ((n + 1) // 2,))]
        else:
            r, c = a.shape
            choices = [("[:, -1]", (r,)), ("[-1]", (c,)), ("[::-1, 1:]", (r, c - 1)), ("[..., 0]", (r,)),
                       ("[:, ::-1]", (r, c)), ("[-1:, :-1]", (1, c - 1)), ("[1, -1]", ()),
                       ("[:, tf.newaxis, 0]", (r, 1))]
        sl, shape = self.rng.choice(choices)
        self.emit("%s = %s%s" % (name, a.expr, sl))
        self.features.add("slicing")
        return self.add(Node(self, name, "tensor", a.dtype, shape, inputs=[a]))

    def unary(self):
        a = self.tensor(self.rng.choice([FLOAT, INT]))
        name = self.name("y")
        dtype, shape = a.dtype, a.shape
        op = self.rng.choice(["tf.abs(%s)", "tf.negative(%s)", "tf.square(%s)", "tf.sign(%s)", "-%s",
                              "tf.cast(%s, tf.float32)", "tf.cast(%s, tf.int32)", "tf.reshape(%s, [-1])",
                              "tf.expand_dims(%s, 0)", "tf.stack([%s, %s])", "tf.concat([%s, %s], 0)"])
        if op.startswith("tf.cast"):
            dtype = op.split("tf.")[-1].rstrip(")")
        if op.startswith("tf.reshape"):
            shape = (self.prod(shape),)
        if op.startswith("tf.expand") or op.startswith("tf.stack"):
            shape = (2 if "stack" in op else 1,) + shape
        if op.startswith("tf.concat"):
            if not shape:
                op = "tf.stack([%s, %s])"
                shape = (2,)
            else:
                shape = (2 * shape[0],) + shape[1:]
        self.emit("%s = %s" % (name, op.replace("%s", a.expr)))
        return self.add(Node(self, name, "tensor", dtype, shape, inputs=[a]))

    @staticmethod
    def prod(shape):
        out = 1
        for d in shape:
            out *= d
        return out

    def random_op(self, inside=False):
        """A seeded random op: op seed, graph seed, or both (never neither: TF would be nondeterministic)."""
        seed = "" if (self.graph_seed is not None and self.chance(0.5)) else ", seed=%d" % self.rng.randint(0, 99)
        shape = list(self.rng.choice([(2,), (3,), (2, 2)]))
        kind = self.rng.choice(["random_uniform", "random_normal", "truncated_normal", "random_int",
                                "random_shuffle", "multinomial"])
        if kind == "random_int":
            return "tf.random_uniform(%s, minval=-5, maxval=5, dtype=tf.int32%s)" % (shape, seed), INT, tuple(shape)
        if kind == "random_shuffle":
            return "tf.random_shuffle(tf.range(5)%s)" % seed, INT, (5,)
        if kind == "multinomial":
            return "tf.multinomial([[0.0, 1.0, 2.0]], 4%s)" % seed, "int64", (1, 4)
        return "tf.%s(%s%s)" % (kind, shape, seed), FLOAT, tuple(shape)

    def random(self):
        expr, dtype, shape = self.random_op()
        name = self.name("rnd")
        self.emit("%s = %s" % (name, expr))
        self.features.add("random")
        return self.add(Node(self, name, "tensor", dtype, shape))

    def cond(self):
        name = self.name("cnd")
        if self.placeholders_bool is None and self.chance(0.5):
            self.placeholders_bool = self.name("flag")
            self.emit("%s = tf.placeholder(tf.bool, shape=[], name=%r)" % (self.placeholders_bool,
                                                                           self.placeholders_bool))
            self.placeholders.append(Node(self, self.placeholders_bool, "tensor", BOOL, ()))
        if self.placeholders_bool is not None and self.chance(0.7):
            pred, pred_node = self.placeholders_bool, self.placeholders[-1]
            pred_node = [p for p in self.placeholders if p.expr == self.placeholders_bool][0]
        else:
            a = self.tensor(FLOAT, ())
            pred = "tf.less(%s, %s)" % (a.expr, self.literal(FLOAT, ()))
            pred_node = a
        v = self.pick(self.vars)
        bodies = []
        inputs = [pred_node]
        own = []
        branch_dtype, branch_shape = FLOAT, (2,)
        if v is not None:
            branch_dtype, branch_shape = v.dtype, v.shape
        for branch in ("true", "false"):
            fn = "%s_%s" % (name, branch)
            self.emit("def %s():" % fn)
            r = self.rng.random()
            if v is not None and r < 0.4:
                op = self.rng.choice(["assign_add", "assign_sub", "assign"])
                self.emit("    return tf.%s(%s, %s)" % (op, v.expr, self.literal(v.dtype, v.shape)))
                own += [(v.id, "w")]
            elif v is not None and r < 0.7:
                self.emit("    with tf.control_dependencies([tf.assign_add(%s, %s)]):"
                          % (v.expr, self.literal(v.dtype, v.shape)))
                self.emit("        return %s" % self.rng.choice(["tf.identity(%s)" % v.expr,
                                                                 "%s.read_value()" % v.expr,
                                                                 "%s + 0" % v.expr]))
                own += [(v.id, "w")]
            elif v is not None and r < 0.85:
                self.emit("    return tf.identity(%s)" % v.expr)
                own += [(v.id, "r")]
            else:
                expr, dtype, shape = self.random_op()
                if v is not None:
                    expr = "tf.zeros_like(%s) + tf.cast(tf.reduce_sum(%s), tf.%s)" % (v.expr, expr, v.dtype)
                    own += [(v.id, "r")]
                else:
                    expr = "tf.cast(tf.reduce_sum(%s), tf.float32) + tf.zeros([2])" % expr
                self.features.add("random_in_cond")
                self.emit("    return %s" % expr)
        self.emit("%s = tf.cond(%s, %s_true, %s_false)" % (name, pred, name, name))
        self.features.add("cond")
        if any(mode == "w" for _, mode in own):
            self.features.add("stateful_cond")
        if v is not None:
            own.append((v.id, "r"))
        node = Node(self, name, "tensor", branch_dtype, branch_shape, inputs=inputs, own=own)
        return self.add(node)

    def while_loop(self):
        name = self.name("loop")
        v = self.pick(self.vars, lambda v: v.dtype == FLOAT)
        n = self.rng.randint(0, 4)
        own = []
        self.emit("def %s_body(i, acc):" % name)
        stateful = v is not None and self.chance(0.7)
        parallel = ""
        if stateful:
            self.emit("    upd = tf.assign_add(%s, %s)" % (v.expr, self.literal(FLOAT, v.shape)))
            self.emit("    with tf.control_dependencies([upd]):")
            read = self.rng.choice(["%s.read_value()", "tf.identity(%s)", "%s * 1.0"]) % v.expr
            self.emit("        return i + 1, acc + tf.reduce_sum(%s)" % read)
            own += [(v.id, "w"), (v.id, "r")]
            parallel = ", parallel_iterations=1"
            self.features.add("stateful_loop")
        elif self.chance(0.6) or self.graph_seed is None:
            expr, dtype, shape = self.random_op()
            self.emit("    return i + 1, acc * 0.5 + tf.cast(tf.reduce_sum(%s), tf.float32)" % expr)
            # a random op keeps its generator's state across iterations: iterations run in parallel would
            # draw in any order, so (as for a variable) the loop runs them one at a time
            parallel = ", parallel_iterations=1"
            self.features.add("random_in_loop")
        else:
            self.emit("    return i + 1, acc * 2.0 + tf.cast(i, tf.float32)")
        self.emit("%s = tf.while_loop(lambda i, acc: i < %d, %s_body, [tf.constant(0), tf.constant(%s)]%s)"
                  % (name, n, name, self.literal(FLOAT, ()), parallel))
        self.features.add("while_loop")
        node = Node(self, name, "tensor", None, None, own=own)
        for k, (dtype, shape) in enumerate([(INT, ()), (FLOAT, ())]):
            self.add(Node(self, "%s[%d]" % (name, k), "tensor", dtype, shape, inputs=[node]))

    def placeholder(self):
        dtype = self.rng.choice([FLOAT, INT])
        shape = self.shape()
        name = self.name("p")
        if self.chance(0.3):
            self.emit("%s = tf.placeholder_with_default(%s, shape=%s)" % (name, self.literal(dtype, shape),
                                                                          list(shape)))
            return self.add(Node(self, name, "tensor", dtype, shape))
        self.emit("%s = tf.placeholder(tf.%s, shape=%s, name=%r)" % (name, dtype, list(shape), name))
        node = Node(self, name, "tensor", dtype, shape)
        self.placeholders.append(node)
        self.features.add("placeholder")
        return self.add(node)

    # ---------------------------------------------------------------- queues
    def queue(self):
        name = self.name("q")
        cap = self.rng.randint(3, 6)
        dtype = self.rng.choice([FLOAT, INT])
        shape = self.rng.choice([(), (2,)])
        shuffle = self.chance(0.4)
        q = {"name": name, "cap": cap, "dtype": dtype, "shape": shape, "count": 0, "closed": False, "min": 0}
        if shuffle:
            q["min"] = self.rng.randint(0, 1)
            seed = ", seed=%d" % self.rng.randint(0, 50) if (self.graph_seed is None or self.chance(0.5)) else ""
            shared = ", shared_name=%r" % (name + "_shared") if self.chance(0.3) else ""
            self.emit("%s = tf.RandomShuffleQueue(%d, %d, [tf.%s], shapes=[%s]%s%s)"
                      % (name, cap, q["min"], dtype, list(shape), seed, shared))
            self.features.add("random_shuffle_queue")
        else:
            self.emit("%s = tf.FIFOQueue(%d, [tf.%s], shapes=[%s])" % (name, cap, dtype, list(shape)))
            self.features.add("fifo_queue")
        k = self.rng.randint(1, cap)
        q["k"] = k
        self.emit("%s_enq = %s.enqueue_many([%s])" % (name, name, self.literal(dtype, (k,) + shape)))
        self.emit("%s_deq = %s.dequeue()" % (name, name))
        self.emit("%s_deq2 = %s.dequeue_many(2)" % (name, name))
        self.emit("%s_size = %s.size()" % (name, name))
        self.emit("%s_close = %s.close()" % (name, name))
        self.queues.append(q)

    def queue_run(self, q):
        """One run on a queue that cannot block: dequeue only what is there (or after close)."""
        n = q["name"]
        options = ["size"]
        if not q["closed"] and q["count"] + q["k"] <= q["cap"]:
            options += ["enq", "enq"]
        if q["closed"] or q["count"] - 1 >= q["min"]:
            options += ["deq", "deq"]
        if q["closed"] or q["count"] - 2 >= q["min"]:
            options += ["deq2"]
        options.append("close")
        if q["closed"]:
            options.append("enq")  # enqueue after close: TF's CancelledError
        op = self.rng.choice(options)
        if op == "enq" and not q["closed"]:
            q["count"] += q["k"]
        elif op == "deq":
            q["count"] = max(0, q["count"] - 1)
        elif op == "deq2":
            q["count"] = max(0, q["count"] - 2)
        elif op == "close":
            q["closed"] = True
        fetch = "%s_%s" % (n, op)
        if op in ("deq", "size") and self.chance(0.3):
            fetch = "[%s, %s]" % (fetch, fetch)
        self.emit("run(sess, %s)" % fetch)

    # ---------------------------------------------------------------- runs
    def races(self, nodes):
        accesses = set()
        for n in nodes:
            accesses |= n.acc
        accesses = list(accesses)
        for i, (a, ra, ma) in enumerate(accesses):
            for (b, rb, mb) in accesses[i + 1:]:
                if ra == rb and a != b and "w" in (ma, mb):
                    if a not in self.anc_of[b] and b not in self.anc_of[a]:
                        return True
        return False

    def fetch_node(self, node):
        """Fetching a reference reads its variable when the fetch happens, after everything it depends on."""
        if node.ref is None:
            return node
        f = Node.__new__(Node)
        f.id = self.next_id()
        f.anc = node.anc | {f.id}
        f.acc = node.acc | {(f.id, node.ref, "r")}
        f.expr, f.ref = node.expr, None
        self.anc_of[f.id] = f.anc
        return f

    def structure(self, items):
        r = self.rng.random()
        exprs = [i.expr for i in items]
        if len(exprs) == 1 and r < 0.4:
            return exprs[0]
        if r < 0.55:
            return "[%s]" % ", ".join(exprs)
        if r < 0.7:
            return "(%s,)" % ", ".join(exprs)
        if r < 0.85:
            return "{%s}" % ", ".join("%r: %s" % ("k%d" % k, e) for k, e in enumerate(exprs))
        half = len(exprs) // 2
        return "{'a': [%s], 'b': (%s,)}" % (", ".join(exprs[:half]), ", ".join(exprs[half:]) or exprs[0])

    def feed(self, fetched):
        items = []
        for p in self.placeholders:
            items.append("%s: %s" % (p.expr, self.literal(p.dtype, p.shape)))
        if self.chance(0.25):
            pool = [t for t in self.tensors if t.ref is None and "[" not in t.expr and t.shape is not None
                    and t.dtype in (FLOAT, INT) and t not in self.placeholders]
            t = self.pick(pool)
            if t is not None:
                items.append("%s: %s" % (t.expr, self.literal(t.dtype, t.shape)))
                self.features.add("feed_intermediate")
        return ", feed_dict={%s}" % ", ".join(items) if items else ""

    def session_run(self):
        pool = self.tensors + self.vars + self.writes
        for _ in range(20):
            items = self.rng.sample(pool, min(len(pool), self.rng.randint(1, 4)))
            if self.chance(0.3):
                items.append(self.rng.choice(items))
                self.features.add("repeated_fetch")
            if not self.races([self.fetch_node(i) for i in items]):
                break
        else:
            items = [self.rng.choice(self.tensors + self.vars)]
            if self.races([self.fetch_node(i) for i in items]):
                return
        self.emit("run(sess, %s%s)" % (self.structure(items), self.feed(items)))

    # ---------------------------------------------------------------- invalid programs
    def invalid_build(self):
        """A statement TF rejects while building (its class and message are the expected outcome)."""
        kind = self.rng.choice(["shape", "dtype", "indices", "reshape", "assign_shape", "concat", "matmul",
                                "placeholder_shape", "reduce_axis"])
        self.features.add("invalid_build_" + kind)
        if kind == "shape":
            self.emit("bad = tf.constant(%s) + tf.constant(%s)"
                      % (self.literal(FLOAT, (2,)), self.literal(FLOAT, (3,))))
        elif kind == "dtype":
            self.emit("bad = tf.constant(%s) + tf.constant(%s)" % (self.literal(INT, (2,)), self.literal(FLOAT, (2,))))
        elif kind == "indices":
            a = self.tensor(None, self.rng.choice([(3,), (2, 3)]))
            self.emit("bad = %s[%s]" % (a.expr, ", ".join(["0"] * (len(a.shape) + 1))))
        elif kind == "reshape":
            self.emit("bad = tf.reshape(tf.constant(%s), [4])" % self.literal(FLOAT, (3,)))
        elif kind == "assign_shape" and self.vars:
            v = self.rng.choice(self.vars)
            self.emit("bad = tf.assign(%s, %s)" % (v.expr, self.literal(v.dtype, (5,))))
        elif kind == "concat":
            self.emit("bad = tf.concat([tf.zeros([2, 3]), tf.zeros([2, 2])], 0)")
        elif kind == "matmul":
            self.emit("bad = tf.matmul(tf.zeros([2, 3]), tf.zeros([2, 3]))")
        elif kind == "reduce_axis":
            self.emit("bad = tf.reduce_sum(tf.zeros([2, 3]), axis=2)")
        else:
            self.emit("bad = tf.placeholder(tf.float32, [2]) + tf.placeholder(tf.float32, [3])")

    def invalid_run(self):
        """A run TF rejects (bad feed, missing feed, runtime shape or index errors, division by zero)."""
        kind = self.rng.choice(["feed_shape", "feed_missing", "runtime_shape", "gather", "div_zero", "feed_dtype",
                                "fetch_none", "feed_string"])
        self.features.add("invalid_run_" + kind)
        if kind == "feed_shape":
            p = self.placeholder_for_error()
            self.emit("run(sess, %s + 1, feed_dict={%s: %s})" % (p, p, self.literal(FLOAT, (5,))))
        elif kind == "feed_missing":
            p = self.placeholder_for_error()
            self.emit("run(sess, %s * 2)" % p)
        elif kind == "feed_dtype":
            p = self.placeholder_for_error()
            self.emit("run(sess, %s, feed_dict={%s: 'text'})" % (p, p))
        elif kind == "feed_string":
            self.emit("run(sess, 'no_such_tensor:0')")
        elif kind == "runtime_shape":
            self.emit("e1 = tf.placeholder(tf.float32)")
            self.emit("e2 = tf.placeholder(tf.float32)")
            self.emit("run(sess, e1 + e2, feed_dict={e1: %s, e2: %s})" % (self.literal(FLOAT, (2,)),
                                                                        self.literal(FLOAT, (3,))))
        elif kind == "gather":
            self.emit("e3 = tf.placeholder(tf.int32, [None])")
            self.emit("run(sess, tf.gather(tf.constant(%s), e3), feed_dict={e3: [0, 7]})" % self.literal(FLOAT, (3,)))
        elif kind == "div_zero":
            self.emit("e4 = tf.placeholder(tf.int32, [2])")
            self.emit("run(sess, tf.constant([7, -7]) // e4, feed_dict={e4: [2, 0]})")
        else:
            self.emit("run(sess, None)")

    def placeholder_for_error(self):
        self.emit("e0 = tf.placeholder(tf.float32, [2], name='e0')")
        return "e0"

    # ---------------------------------------------------------------- the whole program
    def build(self):
        r = self.rng
        self.placeholders_bool = None
        self.queues = []
        if self.chance(0.6):
            self.graph_seed = r.randint(0, 999)
            self.emit("tf.set_random_seed(%d)" % self.graph_seed)
        for _ in range(r.randint(0, 3)):
            self.variable()
        steps = [self.update, self.update, self.read, self.control_block, self.group, self.arith, self.arith,
                 self.arith, self.cond, self.while_loop, self.random, self.placeholder, self.queue]
        for _ in range(r.randint(3, 9)):
            step = r.choice(steps)
            if step in (self.update, self.read, self.cond) and not self.vars and self.chance(0.7):
                self.variable()
            if step == self.queue and self.queues:
                continue
            step()
        invalid_build = self.chance(0.12)
        if invalid_build:
            self.invalid_build()
        self.emit("init = tf.global_variables_initializer()")
        self.emit("sess = tf.Session()")
        if self.vars and self.chance(0.12):
            self.features.add("invalid_run_uninitialized")
            v = r.choice(self.vars)
            self.emit("run(sess, %s)" % r.choice([v.expr, "%s + 1" % v.expr, "%s.read_value()" % v.expr]))
        self.emit("run(sess, init)")
        for _ in range(r.randint(1, 4)):
            if self.queues and self.chance(0.4):
                self.queue_run(self.queues[0])
            elif self.tensors or self.vars or self.writes:
                self.session_run()
        if self.chance(0.15):
            self.invalid_run()
        if self.tensors or self.vars:
            self.session_run()
        return "\n".join(self.lines) + "\n"


def program(seed):
    """(source, sorted feature names) of the program with this seed; the same seed always gives the same text."""
    gen = Gen(seed)
    source = "# differential program, seed %d\n" % seed + gen.build()
    return source, sorted(gen.features)


if __name__ == "__main__":
    import sys
    for s in sys.argv[1:]:
        src, feats = program(int(s))
        print(src)
        print("# features:", ", ".join(feats))
