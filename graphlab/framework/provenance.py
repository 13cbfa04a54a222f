"""A neutral tag that the code driving graphlab (the IPython extension) sets, and that every new op records.

The engine only copies ``current`` onto each op; it never interprets it. The extension puts the execution
number and the cell's identity there, so it can tell which cell run created which ops.
"""

current = None


def set_tag(tag):
    """Set the tag recorded on ops created from now on; returns the previous tag."""
    global current
    previous, current = current, tag
    return previous
