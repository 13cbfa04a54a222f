"""Op families. Importing this package registers every op type (see registry.py)."""
from graphlab.ops import array_ops, control_flow_ops, math_ops, state_ops  # noqa: F401  (registration)
