"""The extension's magics; each parses its arguments with IPython's magic_arguments, so ``--help`` works."""
"""Wrong names and values given to a magic raise IPython's UsageError: one line, no traceback."""
import sys

from IPython.core.error import UsageError
from IPython.core.magic import Magics, cell_magic, line_magic, magics_class
from IPython.core.magic_arguments import argument, magic_arguments, parse_argstring

from graphlab import graphview
from graphlab.framework import graph as graph_mod
from graphlab_ipython import drawing, names
from graphlab_ipython.watcher import RULES

_COLLAPSE_WORDS = ("none", "bookkeeping")


def _parse(magic, line):
    """parse_argstring, plus ``-h``/``--help`` printing the magic's usage (IPython's parser has no help flag)."""
    if any(word in ("-h", "--help") for word in line.split()):
        print(magic.parser.format_help())
        return None
    return parse_argstring(magic, line)


def _count(option, minimum=0):
    """An argparse type: an int >= minimum, or a one-line error naming the option."""
    def convert(text):
        try:
            value = int(text)
        except ValueError:
            raise UsageError("%s needs a whole number, got %r" % (option, text)) from None
        if value < minimum:
            raise UsageError("%s must be >= %d, got %d" % (option, minimum, value))
        return value
    convert.__name__ = "int"
    return convert


def _size(text):
    try:
        return names.parse_size(text)
    except ValueError as e:
        raise UsageError("--large-const: %s" % e) from None


def _drawn(draw, *args, **kwargs):
    """The renderer's refusals (a feed without a fetch, a bad option value) as one-line UsageErrors."""
    try:
        return draw(*args, **kwargs)
    except (ValueError, TypeError, KeyError) as e:
        raise UsageError("cannot draw: %s" % e) from None


def _width(text):
    """--width: a number of px, "column" or "none"."""
    if text.lower() in ("none", "full"):
        return False
    if text.lower() == "column":
        return "column"
    try:
        value = float(text)
    except ValueError:
        value = 0
    if value <= 0:
        raise UsageError("--width %s: give a number of pixels (e.g. 900), column or none." % text)
    return value


def _split(text):
    return [w.strip() for w in text.split(",") if w.strip()] if text else None


def _view_options(args):
    """The drawing options every view magic shares, as render's keyword arguments."""
    width = args.width
    return dict(scope=args.scope, depth=args.depth, collapse=args.collapse, group_series=args.group_series,
                expand=_split(args.expand), highlight=_split(args.highlight),
                width=width, color_by=args.color_by)


def _view_arguments(fn):
    for arg in reversed([
            argument("--scope", default=None, help="only ops under this name scope"),
            argument("--depth", type=_count("--depth"), default=None, help="scope levels to expand"),
            argument("--collapse", default=None, help="what to collapse: none, bookkeeping (gradients, save, initializers, optimizer scopes) "
                     "or scope names, comma separated"),
            argument("--no-series", dest="group_series", action="store_false", default=None,
                     help="do not group repeated series (x_1, x_2, ...)"),
            argument("--color-by", dest="color_by", choices=["device"], default=None,
                     help="device: fill each op with the colour of its job and task (ps, worker ...)"),
            argument("--expand", default=None, help="scopes or loop frames to keep open, comma separated "
                     "(e.g. while,gradients/while)"),
            argument("--highlight", default=None, help="op types or names to emphasise, comma separated "
                     "(e.g. StackPushV2,StackPopV2); the rest is faded"),
            argument("--width", type=_width, default=None, help="the width to fit in px (default: the notebook "
                     "column); none draws at full size")]):
        fn = arg(fn)
    return fn


def _is_graph(value):
    return isinstance(value, graph_mod.Graph) or graphview.is_tf_graph(value)


@magics_class
class GraphMagics(Magics):
    """%graph, %subgraph, %%graph_cell, %graph_lint, %graph_diff, %graph_reset, %step."""

    def __init__(self, shell, watcher):
        super().__init__(shell)
        self.watcher = watcher

    def _graph_named(self, name):
        if not name:
            return self.watcher.default_graph()
        if name in self.watcher.graphs:
            return self.watcher.graphs[name]
        value = self.shell.user_ns.get(name)
        if _is_graph(value):
            return graphview.adapt(value)
        known = list(self.watcher.graphs) + [k for k, v in self.shell.user_ns.items()
                                             if _is_graph(v) and not k.startswith("_")]
        hits = names.close_matches(name, known)
        raise UsageError("No graph named %r: give a %%%%graph_cell name or a Python variable holding a tf.Graph.%s"
                         % (name, " Did you mean: %s?" % ", ".join(hits) if hits else
                            " Known graphs: %s." % ", ".join(known) if known else ""))

    def _check_view(self, graph, scope, collapse):
        """Unknown --scope or --collapse values: a UsageError naming close matches and the valid words."""
        scopes = None
        if scope:
            scopes = names.scopes_of(graph)
            if scope.strip("/") not in scopes:
                raise UsageError("No ops in scope %r.%s" % (scope, names.suggestion(scope.strip("/"), scopes,
                                                                                  "scopes")))
        if collapse:
            scopes = scopes if scopes is not None else names.scopes_of(graph)
            for word in [c.strip() for c in collapse.split(",") if c.strip()]:
                if word.lower() in _COLLAPSE_WORDS or word.strip("/") in scopes:
                    continue
                hits = names.close_matches(word, list(_COLLAPSE_WORDS) + scopes)
                raise UsageError("--collapse %r is neither a role nor a scope of this graph: use none, bookkeeping "
                                 "(gradients, save, initializer and optimizer scopes) or a scope%s." % (
                                     word, (": did you mean %s?" % ", ".join(hits)) if hits else
                                     " (top-level scopes: %s)" % ", ".join(names.fold([c for c in scopes if "/" not in c])[:10])
                                     if scopes else ""))

    @magic_arguments()
    @argument("name", nargs="?", default=None, help="a %%graph_cell name or a variable holding a Graph")
    @_view_arguments
    @argument("--at", type=_count("--at"), default=None, help="the graph as it was after execution In [AT]")
    @argument("--live", action="store_true", help="a widget that refreshes after every cell "
              "(%%graph --live off stops it)")
    @argument("--stop", action="store_true", help="stop every live view")
    @argument("--run-metadata", dest="run_metadata", default=None, metavar="VAR",
              help="a variable holding the RunMetadata of a traced run (TF's or graphlab's): highlight the ops "
                   "that actually ran, with their times")
    @line_magic
    def graph(self, line):
        """Render the default graph (or a named one)."""
        args = _parse(self.graph, line)
        if args is None:
            return None
        from graphlab_ipython import live
        if args.stop or (args.live and args.name == "off"):
            stopped = live.stop_all(self.watcher)
            print("graphlab: stopped %d live view%s." % (stopped, "" if stopped == 1 else "s"))
            return None
        graph = self._graph_named(args.name)
        options = _view_options(args)
        self._check_view(graph, args.scope, args.collapse)
        if args.live:
            if not live.has_widget_frontend(self.shell):
                print("graphlab: %graph --live needs a widget front end (JupyterLab or Jupyter Notebook with "
                      "ipywidgets); this shell has none, so use %graph after a cell instead.")
                return None
            return live.LiveGraph(self.watcher, graph if args.name else None, options).show()
        upto = None
        if args.at is not None:
            upto = self._upto(graph, args.at)
        if args.run_metadata:
            metadata = self.shell.user_ns.get(args.run_metadata)
            if not (hasattr(metadata, "step_stats") or hasattr(metadata, "op_times")):
                raise UsageError("--run-metadata %s: give a variable holding a RunMetadata filled by a traced run "
                                 "(sess.run(..., options=tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE), "
                                 "run_metadata=md))." % args.run_metadata)
            options["run_metadata"] = metadata
        return _drawn(drawing.draw, graph, upto=upto, **options)

    def _upto(self, graph, count):
        """How many ops ``graph`` had after execution In [count]; UsageError when that run's graph is gone."""
        latest = self.watcher.current_count
        if latest is not None and count > latest:
            raise UsageError("In [%d] has not run yet (this is In [%d])." % (count, latest))
        record = self.watcher.record_for(count)
        if record is not None and record.graph is not graph and graph is not self.watcher.default_graph():
            raise UsageError("%%graph --at follows the default graph's history; In [%d] did not build this "
                             "named graph." % count)
        if record is not None and record.graph is not graph:
            raise UsageError("In [%d]'s graph was replaced (tf.reset_default_graph() or %%graph_reset ran since): "
                             "%s; %%graph --at only shows earlier states of the graph shown now." % (
                                 count, "that graph no longer exists" if record.graph is None else
                                 "it is not the graph shown here"))
        runs = [r for r in self.watcher.runs_of(graph) if r.execution_count <= count]
        if not runs:
            later = self.watcher.runs_of(graph)
            if later:
                raise UsageError("The graph shown was created after In [%d] (its first recorded run is In [%s])." % (
                    count, later[0].execution_count))
            raise UsageError("graphlab recorded no cell that added ops to this graph up to In [%d]." % count)
        return runs[-1].end

    @magic_arguments()
    @argument("fetch", nargs="+", help="tensor or op names (or variables) to fetch")
    @argument("--feed", action="append", default=[], metavar="T",
              help="a fed tensor (pruning stops there); repeat --feed or separate names with commas")
    @argument("--graph", dest="graph_name", default=None, help="a named graph instead of the default one")
    @_view_arguments
    @line_magic
    def subgraph(self, line):
        """Render only what running FETCH would execute (the pruned view)."""
        args = _parse(self.subgraph, line)
        if args is None:
            return None
        graph = self._graph_named(args.graph_name)
        self._check_view(graph, args.scope, args.collapse)
        fetches = [self._element(graph, f) for f in args.fetch]
        feeds = [self._fed_tensor(self._element(graph, f.strip()), f.strip())
                 for group in args.feed for f in group.split(",") if f.strip()]
        return _drawn(drawing.draw, graph, fetches=fetches, feeds=feeds or None, **_view_options(args))

    @staticmethod
    def _fed_tensor(element, text):
        outputs = getattr(element, "outputs", None)
        if outputs is None:
            return element
        if len(outputs) != 1:
            raise UsageError("--feed %s: op %s has %d outputs; name the tensor (%s:0)." % (
                text, element.name, len(outputs), element.name))
        return outputs[0]

    def _element(self, graph, text):
        """A fetch/feed given as a Python variable or a tensor/op name; UsageError when it is not in ``graph``."""
        value = self.shell.user_ns.get(text)
        if value is not None and hasattr(value, "_as_graph_element") and not isinstance(value, str):
            element = value._as_graph_element()
            if graphview.adapt(element.graph) is not graph:
                raise UsageError(
                    "%s (the Python variable %s) is not an element of this graph: it was built in a graph that "
                    "has been replaced since (tf.reset_default_graph()) or in another graph; re-run the cell "
                    "that builds it, or pass --graph NAME." % (element.name, text))
            return graph.wrap(element) if isinstance(graph, graphview.TFGraph) else element
        try:
            return graph.as_graph_element(text)
        except (KeyError, ValueError, TypeError):
            pass
        candidates = [op._name for op in graph._ops]
        raise UsageError("No tensor or op named %r in %s (%d ops), and no Python variable of that name holds "
                         "one.%s" % (text, "this graph", len(candidates),
                                     names.suggestion(text.split(":")[0], candidates, "ops")))

    @magic_arguments()
    @argument("name", help="the graph is kept under this name (see %%graph NAME)")
    @cell_magic
    def graph_cell(self, line, cell):
        """Run the cell in a fresh graph kept under NAME (re-running replaces it, nothing doubles)."""
        args = _parse(self.graph_cell, line)
        if args is None:
            return None
        __tracebackhide__ = True      # IPython's traceback then starts at the cell's own lines
        previous = self.watcher.graphs.get(args.name)
        engine_graph, graph = self.watcher.new_graph()      # graphlab's Graph, or a tf.Graph and its view
        code = self._compile_cell(line, cell)
        self.watcher.graphs[args.name] = graph
        try:
            with engine_graph.as_default():
                exec(code, self.shell.user_global_ns, self.shell.user_ns)
        except BaseException:
            if previous is None:
                del self.watcher.graphs[args.name]
            else:
                self.watcher.graphs[args.name] = previous
            print("graph_cell: the cell raised after adding %d ops; graph %r %s." % (
                len(graph._ops), args.name, "was not kept" if previous is None else
                "keeps its previous complete version (%d ops)" % len(previous._ops)))
            raise
        print("%s: %d ops in graph %r" % ("graph_cell", len(graph.get_operations()), args.name))

    def _compile_cell(self, line, cell):
        """Compile the body under a file name registered with IPython's linecache, with the line numbers the
        user sees (the magic line is line 1), so a traceback shows the cell's source lines."""
        count = self.watcher.current_count
        if count is None:
            count = self.shell.execution_count
        full = "%%%%graph_cell %s\n%s" % (line, cell)
        filename = self.shell.compile.cache(full, count, raw_code=full)
        return compile("\n" + cell, filename, "exec", self.shell.compile.flags, True)

    @magic_arguments()
    @argument("state", nargs="?", choices=["on", "off", "status"], default="status")
    @argument("--op-growth", type=_count("--op-growth", 1), default=None, help="ops from one line in one run that count as growth")
    @argument("--large-const", type=_size, default=None,
              help="constant size that counts as large: bytes, or 500KB, 512KiB, 1MB, 1MiB")
    @argument("--enable", nargs="*", default=[], choices=list(RULES), help="rules to turn on")
    @argument("--disable", nargs="*", default=[], choices=list(RULES), help="rules to turn off")
    @line_magic
    def graph_lint(self, line):
        """Turn the after-cell report on or off, set thresholds, or show the settings."""
        args = _parse(self.graph_lint, line)
        if args is None:
            return None
        config = self.watcher.config
        if args.state == "on":
            config.enabled = True
        elif args.state == "off":
            config.enabled = False
        if args.op_growth is not None:
            config.op_growth = args.op_growth
        if args.large_const is not None:
            config.large_const = args.large_const
        for rule in args.enable:
            config.rules[rule] = True
        for rule in args.disable:
            config.rules[rule] = False
        print(config.status())

    @magic_arguments()
    @argument("n", nargs="?", type=_count("N"), default=None, help="execution number (default: the latest that added ops)")
    @line_magic
    def graph_diff(self, line):
        """List the ops execution In [N] added to its graph."""
        args = _parse(self.graph_diff, line)
        if args is None:
            return None
        current = self.watcher.default_graph()
        if args.n is not None:
            record = self.watcher.record_for(args.n)
        else:
            runs = self.watcher.runs_of(current)
            record = runs[-1] if runs else None
        if record is None:
            print("No ops recorded for %s." % ("In [%d]" % args.n if args.n is not None else
                                                "the current default graph"))
            return
        ops = record.ops()
        if record.graph is not current and not any(g is record.graph for g in self.watcher.graphs.values()):
            print("In [%s]'s graph was replaced (tf.reset_default_graph() or %%graph_reset ran since); %s" % (
                record.execution_count, "that graph no longer exists." if record.graph is None else
                "the %d ops it added there are not in the current default graph:" % len(ops)))
            if record.graph is None:
                return
        else:
            print("In [%s] added %d ops (%d..%d of its graph):" % (record.execution_count, len(ops),
                                                                    record.start + 1, record.end))
        for op in ops[:500]:
            inputs = ", ".join(t.name for t in op.inputs)
            print("  %s  %s(%s)" % (op.name, op.type, inputs))
        if len(ops) > 500:
            print("  ... %d more" % (len(ops) - 500))

    @magic_arguments()
    @line_magic
    def graph_reset(self, line):
        """tf.reset_default_graph() and forget the extension's history of earlier runs."""
        if _parse(self.graph_reset, line) is None:
            return
        self.watcher.reset_default_graphs()
        self.watcher.forget()
        print("graphlab: the default graph is empty again.")


    @magic_arguments()
    @argument("fetch", nargs="+", help="tensor or op names (or variables) to run")
    @argument("--feed", action="append", default=[], metavar="NAME=EXPR",
              help="feed tensor NAME (a name or a variable) the value of the Python expression EXPR; repeat "
                   "for more feeds")
    @argument("--until", default=None, metavar="nan|inf|OP",
              help="start at the first op whose output holds a NaN or an Inf (nan, as tfdbg's has_inf_or_nan), "
                   "an Inf (inf), or at op OP")
    @argument("--session", default=None, metavar="VAR",
              help="the variable holding the Session to run in (default: the default session, or the only "
                   "Session variable of this graph)")
    @_view_arguments
    @line_magic
    def step(self, line):
        """Run FETCH once, recording every op (graphlab.debug.record), and step through the run beside the
        pruned graph's drawing: a slider and play button, previous/next, first NaN/Inf, jump to an op; the
        values each op read and made. Without a widget front end, print tfdbg's listing, one line an op."""
        args = _parse(self.step, line)
        if args is None:
            return None
        from graphlab_ipython import live, stepping
        graph = self.watcher.default_graph()
        self._check_view(graph, args.scope, args.collapse)
        fetches = [self._element(graph, self._tensor_name(f)) for f in args.fetch]
        feed_dict, fed = {}, []
        for item in args.feed:
            name, eq, expr = item.partition("=")
            if not eq or not name.strip() or not expr.strip():
                raise UsageError("--feed %s: write NAME=EXPR, e.g. --feed x=batch_x" % item)
            tensor = self._fed_tensor(self._element(graph, self._tensor_name(name.strip())), name.strip())
            try:
                value = eval(expr, self.shell.user_global_ns, self.shell.user_ns)  # the user's own expression
            except Exception as e:
                raise UsageError("--feed %s: the expression %r failed: %s: %s" % (
                    name.strip(), expr, type(e).__name__, e)) from None
            feed_dict[_engine(tensor)] = value
            fed.append(tensor)
        sess = self._session(args.session, graph)
        import graphlab.debug
        record = graphlab.debug.record(sess, [_engine(f) for f in fetches], feed_dict or None)
        index, note, mark = 0, None, None
        if args.until:
            found = stepping.stop_index(record, args.until)
            if found is None:
                note = ("no op's output held %s" % ("a NaN or Inf" if args.until == "nan" else "an Inf")
                        if args.until in ("nan", "inf") else "op %s did not run" % args.until)
            else:
                index = mark = found
                note = "stopped at the first %s" % ("NaN/Inf" if args.until == "nan" else "Inf"
                                                     if args.until == "inf" else "run of " + args.until)
        if record.error is not None:
            index = len(record.ops) - 1 if args.until is None else index
            failure = "the run failed: %s" % (getattr(record.error, "message", None) or record.error)
            note = failure if note is None else note + "; " + failure
        if not live.has_widget_frontend(self.shell):
            view = stepping.StepView(record, None, index, note)
            print("\n".join(view.listing_lines(mark)))
            if note:
                print(note)
            return None
        try:
            svg = drawing.draw(graph, fetches=fetches, feeds=fed or None, scope=args.scope, depth=args.depth,
                               collapse=args.collapse, group_series=False if args.group_series is None else
                               args.group_series).svg()
        except Exception:            # no Graphviz: the values and the listing still work
            svg = None
        view = stepping.StepView(record, svg, index, note)
        view.widget()
        return view

    def _tensor_name(self, text):
        """A variable holding a tensor, as that tensor's name (``loss`` -> ``loss:0``): TF's tensors no longer
        offer ``_as_graph_element``, and the bare name would fetch the op (running it, returning None)."""
        value = self.shell.user_ns.get(text)
        if value is not None and not isinstance(value, str) and hasattr(value, "value_index") \
                and hasattr(value, "op") and isinstance(getattr(value, "name", None), str):
            return value.name
        return text

    def _session(self, name, graph):
        """The Session ``%step`` runs in: --session VAR, else the default one, else the only one in the
        user's variables that runs this graph."""
        engine_graph = getattr(graph, "tf_graph", graph)
        if name:
            sess = self.shell.user_ns.get(name)
            if sess is None or not (hasattr(sess, "run") and hasattr(sess, "graph")):
                raise UsageError("--session %s: no variable of that name holds a Session." % name)
            return sess
        from graphlab.runtime.session import get_default_session
        default = get_default_session()
        if default is None and isinstance(graph, graphview.TFGraph):
            default = graphview.tf_module().get_default_session()
        if default is not None and default.graph is engine_graph:
            return default
        found = [k for k, v in self.shell.user_ns.items() if not k.startswith("_") and type(v).__name__.endswith(
            "Session") and hasattr(v, "run") and getattr(v, "graph", None) is engine_graph
            and not getattr(v, "_closed", False)]
        if len(found) == 1:
            return self.shell.user_ns[found[0]]
        raise UsageError("%%step needs a Session to run in: %s. Pass --session VAR." % (
            "several variables hold one (%s)" % ", ".join(sorted(found)) if found else
            "none of your variables holds an open Session of this graph"))


def _engine(element):
    """The engine's own tensor or op behind a graph view's element (TF's, for a tf.Graph)."""
    if isinstance(element, (graphview.TFTensor, graphview.TFOp)):
        return element._tf
    return element
