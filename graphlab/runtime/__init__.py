"""The runtime: Session, pruning, plan cache and executor."""
