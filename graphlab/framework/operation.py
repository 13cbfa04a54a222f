"""Operation: one node of a Graph. It records what to compute (type and attrs), from what (inputs and
control inputs), and where the user asked for it (source line and the extension's provenance tag)."""
from graphlab.framework import default_stacks


class Operation:
    """``<tf.Operation 'init' type=NoOp>``. Created only through ``Graph``; never executed by itself."""

    __slots__ = ("_graph", "_name", "_type", "_inputs", "_outputs", "_control_inputs", "_control_outputs",
                 "_attrs", "_id", "source_line", "provenance", "_control_flow_context", "_device", "__weakref__")

    def __init__(self, graph, op_type, name, inputs, attrs, control_inputs, source_line, provenance):
        self._graph = graph
        self._device = ""
        self._type = op_type
        self._name = name
        self._inputs = inputs
        self._outputs = []
        self._control_inputs = control_inputs
        self._control_outputs = ()   # a list once some op waits for this one
        self._attrs = attrs
        self._id = -1
        self.source_line = source_line
        self.provenance = provenance
        self._control_flow_context = None   # the tf.cond branch or while loop the op was built in

    # --- structure --------------------------------------------------------------------------------
    @property
    def name(self):
        return self._name

    @property
    def type(self):
        return self._type

    @property
    def graph(self):
        return self._graph

    @property
    def inputs(self):
        return tuple(self._inputs)

    @property
    def outputs(self):
        return list(self._outputs)

    def values(self):
        return tuple(self._outputs)

    @property
    def control_inputs(self):
        return list(self._control_inputs)

    @property
    def _control_outputs_list(self):
        return list(self._control_outputs)

    @property
    def device(self):
        """The device the op was asked for (TF's canonical string, "" for none), from ``tf.device``."""
        return self._device

    def _set_device(self, device):
        from graphlab.framework.device_spec import canonical_name
        self._device = canonical_name(device)

    def colocation_groups(self):
        """``["loc:@<op>"]`` for the ops this one must share a device with (its ``_class`` attr)."""
        classes = self._attrs.get("_class")
        if classes:
            groups = [g for g in (c.decode() if isinstance(c, bytes) else c for c in classes)
                      if g.startswith("loc:@")]
            if groups:
                return groups
        return ["loc:@" + self._name]

    @property
    def node_def(self):
        from graphlab.framework import graph_io
        return graph_io.node_def(self)

    @property
    def traceback(self):
        """The user's line that created this op, as a one-entry list (TF gives the whole stack)."""
        return [self.source_line] if self.source_line is not None else []

    def get_attr(self, name):
        try:
            return self._attrs[name]
        except KeyError:
            raise ValueError("Operation %r has no attr named '%s'." % (self._name, name)) from None

    def _own_attrs(self):
        """The op's attrs as a dict of its own, to change: ops with identical attrs (an AddV2 of float32)
        share one read-only mapping, copied here the first time one of them gets an attr of its own."""
        if type(self._attrs) is not dict:
            self._attrs = dict(self._attrs)
        return self._attrs

    @property
    def attrs(self):
        """All attributes as a read-only view (name -> python value)."""
        return dict(self._attrs)

    def _add_control_input(self, op):
        if op not in self._control_inputs:
            if type(self._control_inputs) is not list:   # the shared empty tuple of an op built without any
                self._control_inputs = list(self._control_inputs)
            self._control_inputs.append(op)
            if op._control_outputs:
                op._control_outputs.append(self)
            else:
                op._control_outputs = [self]

    def _add_control_inputs(self, ops):
        for op in ops:
            self._add_control_input(op)

    def _remove_all_control_inputs(self):
        for c in self._control_inputs:
            if self in c._control_outputs:
                c._control_outputs.remove(self)
        self._control_inputs = ()

    def _update_input(self, index, tensor):
        """Rewire input ``index`` to ``tensor`` (TF's ``_update_input``): how a loop's Merge gets its back
        edge from the NextIteration made after it, and how a cond branch or loop body routes an outside
        tensor through the Switch or Enter it makes right after the op that reads it."""
        old = self._inputs[index]
        if old is tensor:
            return
        if type(self._inputs) is not list:
            self._inputs = list(self._inputs)
        self._inputs[index] = tensor
        if self in old._consumers:       # one entry per use, as _register_op made them
            old._consumers.remove(self)
        if tensor._consumers:
            tensor._consumers.append(self)
        else:
            tensor._consumers = [self]

    def _set_control_flow_context(self, ctxt):
        self._control_flow_context = ctxt

    def _get_control_flow_context(self):
        return self._control_flow_context

    def run(self, feed_dict=None, session=None):
        """Run this op in ``session`` (default: the default session)."""
        default_stacks.session_for_eval(session, self._graph, "run()").run(self, feed_dict)

    def _as_graph_element(self):
        return self

    def __repr__(self):
        return "<tf.Operation '%s' type=%s>" % (self._name, self._type)

    def __str__(self):     # as TF: the NodeDef in protobuf's text form (print(train_op) in tutorials)
        return str(self.node_def)
