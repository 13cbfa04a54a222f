"""The extension's magics; each parses its arguments with IPython's magic_arguments, so ``--help`` works."""
from IPython.core.magic import Magics, cell_magic, line_magic, magics_class
from IPython.core.magic_arguments import argument, magic_arguments, parse_argstring

from graphlab.framework import graph as graph_mod
from graphlab_ipython import drawing
from graphlab_ipython.watcher import RULES


def _parse(magic, line):
    """parse_argstring, plus ``-h``/``--help`` printing the magic's usage (IPython's parser has no help flag)."""
    if any(word in ("-h", "--help") for word in line.split()):
        print(magic.parser.format_help())
        return None
    return parse_argstring(magic, line)


def _view_arguments(fn):
    for arg in reversed([
            argument("--scope", default=None, help="only ops under this name scope"),
            argument("--depth", type=int, default=None, help="scope levels to expand"),
            argument("--collapse", default=None, help="what to collapse (e.g. bookkeeping, none)"),
            argument("--no-series", dest="group_series", action="store_false", default=None,
                     help="do not group repeated series (x_1, x_2, ...)")]):
        fn = arg(fn)
    return fn


@magics_class
class GraphMagics(Magics):
    """%graph, %subgraph, %%graph_cell, %graph_lint, %graph_diff, %graph_reset."""

    def __init__(self, shell, watcher):
        super().__init__(shell)
        self.watcher = watcher

    def _graph_named(self, name):
        if not name:
            return graph_mod.get_default_graph()
        if name in self.watcher.graphs:
            return self.watcher.graphs[name]
        value = self.shell.user_ns.get(name)
        if isinstance(value, graph_mod.Graph):
            return value
        raise ValueError("No graph named %r: use a %%%%graph_cell name or a Python variable holding a tf.Graph."
                         % name)

    @magic_arguments()
    @argument("name", nargs="?", default=None, help="a %%graph_cell name or a variable holding a Graph")
    @_view_arguments
    @argument("--at", type=int, default=None, help="the graph as it was after execution In [AT]")
    @argument("--live", action="store_true", help="a widget that refreshes after every cell")
    @line_magic
    def graph(self, line):
        """Render the default graph (or a named one)."""
        args = _parse(self.graph, line)
        if args is None:
            return None
        graph = self._graph_named(args.name)
        options = dict(scope=args.scope, depth=args.depth, collapse=args.collapse, group_series=args.group_series)
        if args.live:
            from graphlab_ipython.live import LiveGraph
            return LiveGraph(self.watcher, graph if args.name else None, options).show()
        upto = None
        if args.at is not None:
            record = self.watcher.record_for(args.at)
            if record is None:
                print("In [%d] added no ops that graphlab recorded." % args.at)
                return None
            upto = record.end
        return drawing.draw(graph, upto=upto, **options)

    @magic_arguments()
    @argument("fetch", nargs="+", help="tensor or op names (or variables) to fetch")
    @argument("--feed", nargs="*", default=[], help="tensors that are fed (pruning stops there)")
    @argument("--graph", dest="graph_name", default=None, help="a named graph instead of the default one")
    @_view_arguments
    @line_magic
    def subgraph(self, line):
        """Render only what running FETCH would execute (the pruned view)."""
        args = _parse(self.subgraph, line)
        if args is None:
            return None
        graph = self._graph_named(args.graph_name)
        fetches = [self._element(graph, f) for f in args.fetch]
        feeds = [self._element(graph, f) for f in args.feed]
        return drawing.draw(graph, fetches=fetches, feeds=feeds or None, scope=args.scope, depth=args.depth,
                            collapse=args.collapse, group_series=args.group_series)

    def _element(self, graph, text):
        value = self.shell.user_ns.get(text)
        if value is not None and hasattr(value, "graph"):
            return value
        return graph.as_graph_element(text)

    @magic_arguments()
    @argument("name", help="the graph is kept under this name (see %%graph NAME)")
    @cell_magic
    def graph_cell(self, line, cell):
        """Run the cell in a fresh graph kept under NAME (re-running replaces it, nothing doubles)."""
        args = _parse(self.graph_cell, line)
        if args is None:
            return None
        graph = graph_mod.Graph()
        self.watcher.graphs[args.name] = graph
        with graph.as_default():
            self.shell.ex(cell)
        print("%s: %d ops in graph %r" % ("graph_cell", len(graph.get_operations()), args.name))

    @magic_arguments()
    @argument("state", nargs="?", choices=["on", "off", "status"], default="status")
    @argument("--op-growth", type=int, default=None, help="ops from one line in one run that count as growth")
    @argument("--large-const", type=int, default=None, help="constant size in bytes that counts as large")
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
    @argument("n", nargs="?", type=int, default=None, help="execution number (default: the latest that added ops)")
    @line_magic
    def graph_diff(self, line):
        """List the ops execution In [N] added to its graph."""
        args = _parse(self.graph_diff, line)
        if args is None:
            return None
        record = self.watcher.record_for(args.n) if args.n is not None else (
            self.watcher.records[-1] if self.watcher.records else None)
        if record is None:
            print("No ops recorded for %s." % ("In [%d]" % args.n if args.n is not None else "any execution"))
            return
        ops = record.ops()
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
        graph_mod.reset_default_graph()
        self.watcher.forget()
        print("graphlab: the default graph is empty again.")

