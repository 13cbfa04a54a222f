"""Graph, Operation, Tensor, names and scopes, dtypes and shapes; the op table and op building (registry.py);
the default graph and session stacks; the control-flow context base; GraphDef and meta graph import and
export, and the function library. Imports only graphlab.formats below it."""
