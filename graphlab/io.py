"""``tf.io``: the TF 1.14+ names of the file, record and parsing functions."""
from graphlab.formats.tfrecord import TFRecordOptions, TFRecordWriter, tf_record_iterator  # noqa: F401
from graphlab.ops.parsing_ops import (FixedLenFeature, VarLenFeature, decode_csv, decode_raw,  # noqa: F401
                                      parse_example, parse_single_example)
from graphlab.ops.reader_ops import matching_files, read_file, write_file  # noqa: F401
from graphlab.ops.image_ops import decode_gif, decode_image, decode_jpeg, decode_png, encode_jpeg, encode_png  # noqa: F401
# --- more of tf.io (bench/api_coverage.py)
from graphlab import gfile  # noqa: F401,E402
from graphlab.framework.graph_io import write_graph  # noqa: F401,E402
from graphlab.formats.tfrecord import TFRecordCompressionType  # noqa: F401,E402
from graphlab.ops.data_flow_ops import PaddingFIFOQueue, PriorityQueue, QueueBase, RandomShuffleQueue  # noqa: F401,E402
from graphlab.ops.string_codec_ops import (decode_base64, decode_compressed, encode_base64,  # noqa: F401,E402
                                           extract_jpeg_shape, is_jpeg, parse_tensor,
                                           serialize_tensor)
from graphlab.ops.image_ops import decode_and_crop_jpeg, decode_bmp  # noqa: F401,E402
from graphlab.train.input import match_filenames_once  # noqa: F401,E402

from graphlab import omissions as _omissions  # noqa: E402
_omissions.install(globals(), "tf.io")
