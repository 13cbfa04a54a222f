"""TensorFlow's on-disk formats, independent of the engine.

protos/        TF's protocol buffer messages (our own .proto subset with TF's field numbers)
crc32c         CRC32C checksums and TF's masking
sstable        LevelDB tables, the container of a checkpoint's .index file
tensor_bundle  V2 checkpoints: PREFIX.index + PREFIX.data-00000-of-00001
text_format    the text-proto "checkpoint" state file
dtypes_map     numpy dtype <-> DataType enum
errors         exceptions raised for missing or corrupt files
"""
