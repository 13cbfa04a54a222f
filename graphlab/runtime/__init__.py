"""The runtime: Session, pruning, plan cache, executor, while-loop frames, running a graph function.
Imports only graphlab.framework and graphlab.formats below it."""
