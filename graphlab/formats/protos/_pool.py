"""graphlab's own protobuf descriptor pool.

Our messages carry TensorFlow's package and message names (tensorflow.GraphDef, ...) so that the bytes
are TF's bytes. Registered in protobuf's default pool they would collide with TensorFlow's own
descriptors ("duplicate symbol 'tensorflow.TensorShapeProto'") when both are imported in one process.
Every *_pb2 module here adds its file to this private pool instead (regenerate.sh rewrites protoc's
output to do so); the wire format is unchanged.
"""
from google.protobuf import any_pb2, descriptor_pool, wrappers_pb2

POOL = descriptor_pool.DescriptorPool()
# meta_graph.proto imports google/protobuf/any.proto: the private pool needs its own copy.
POOL.AddSerializedFile(any_pb2.DESCRIPTOR.serialized_pb)
# trackable_object_graph.proto imports google/protobuf/wrappers.proto (has_checkpoint_values is a BoolValue).
POOL.AddSerializedFile(wrappers_pb2.DESCRIPTOR.serialized_pb)
