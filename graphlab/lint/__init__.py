"""Graph analyses shared by the IPython extension and the command line (``python -m graphlab.lint``):
structural duplicates across runs, op growth per source line, large embedded constants, and the classic
mistakes of a cluster program (variables off the ps tasks, no chief: lint/cluster.py). Pure Python over the
engine's graphs; nothing here imports IPython."""
from graphlab.lint.checks import (DEFAULT_LARGE_CONST, DEFAULT_OP_GROWTH, MiB, Duplicate, DuplicateIndex,
                                  Growth, LargeConstant, const_bytes, duplicates, human_bytes,
                                  large_constants, op_growth)
from graphlab.lint.report import lint_graph
from graphlab.lint.structural import StructuralHasher, freeze

__all__ = ["StructuralHasher", "freeze", "DuplicateIndex", "duplicates", "op_growth", "large_constants",
           "const_bytes", "human_bytes", "lint_graph", "Duplicate", "Growth", "LargeConstant", "MiB",
           "DEFAULT_OP_GROWTH", "DEFAULT_LARGE_CONST"]
