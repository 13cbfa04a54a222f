"""Graph, Operation, Tensor, names and scopes, dtypes, shapes and errors."""
