"""``tf.strings``: string ops under their TF2 names (graphlab/ops/string_ops.py; join and regex_full_match
from io_ops.py, substr from string_codec_ops.py)."""
from graphlab.ops.io_ops import string_join as join  # noqa: F401
from graphlab.ops.string_codec_ops import substr  # noqa: F401
from graphlab.ops.string_ops import (as_string, length, lower, reduce_join, regex_full_match,  # noqa: F401
                                     regex_replace, split, string_strip as strip, to_number, unsorted_segment_join,
                                     upper)
from graphlab.ops.logging_ops import string_format as format  # noqa: F401,A004,E402
