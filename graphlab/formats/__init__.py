"""TensorFlow's on-disk formats, bytes only: the bottom layer of the engine, importing nothing above it
(import-linter contracts in pyproject.toml).

protos/        TF's protocol buffer messages (our own .proto subset with TF's field numbers)
crc32c         CRC32C checksums and TF's masking
sstable        LevelDB tables, the container of a checkpoint's .index file
tensor_bundle  V2 checkpoints: PREFIX.index + PREFIX.data-00000-of-00001
text_format    the text-proto "checkpoint" state file
dtypes_map     numpy dtype <-> DataType enum
errors         TF's error classes (tf.errors), and the loaders' message for a corrupt file
tfrecord       TFRecord files and TF's record framing (event files use it too)
atomic         writing a file so that a failure leaves the previous one intact
"""
