"""Our proto subset: importable, TF's names and wire bytes."""

import importlib
import pkgutil

import graphlab.formats.protos as protos
from graphlab.formats.protos import (attr_value_pb2, graph_def_pb2, meta_graph_pb2, saver_pb2,
                                     tensor_bundle_pb2, types_pb2)


def pb2_modules():
    return [importlib.import_module("graphlab.formats.protos." + m.name)
            for m in pkgutil.iter_modules(protos.__path__) if m.name.endswith("_pb2")]


def test_all_modules_import_with_tf_package_name():
    mods = pb2_modules()
    assert len(mods) >= 16
    # error codes live in TF's sub-package tensorflow.error, and Keras's SavedModel metadata in tf-keras's own
    # package, as in the files those projects write
    special = {"error_codes_pb2": "tensorflow.error", "keras_saved_metadata_pb2": "third_party.py.tf_keras.protobuf"}
    for m in mods:
        assert m.DESCRIPTOR.package == special.get(m.__name__.rsplit(".", 1)[1], "tensorflow")


def test_bundle_header_bytes():
    h = tensor_bundle_pb2.BundleHeaderProto(num_shards=1)
    h.version.producer = 1
    assert h.SerializeToString() == bytes.fromhex("08011a020801")


def test_enum_numbers():
    assert types_pb2.DT_FLOAT == 1 and types_pb2.DT_HALF == 19 and types_pb2.DT_FLOAT_REF == 101
    assert types_pb2.DT_UINT64 == 23 and saver_pb2.SaverDef.V2 == 2


def test_node_and_meta_graph_wire_bytes():
    g = graph_def_pb2.GraphDef()
    node = g.node.add(name="a", op="Const")
    node.attr["dtype"].CopyFrom(attr_value_pb2.AttrValue(type=types_pb2.DT_FLOAT))
    assert node.SerializeToString() == bytes.fromhex("0a0161 1205 436f6e7374 2a0b 0a05 6474797065 1202 3001")
    m = meta_graph_pb2.MetaGraphDef()
    m.collection_def["variables"].bytes_list.value.append(b"x")
    assert m.SerializeToString() == bytes.fromhex("2212 0a09 7661726961626c6573 1205 1203 0a0178")


def test_unknown_fields_survive_round_trip():
    # MetaGraphDef.object_graph_def (7) is not modelled; a file that has it must not lose it.
    raw = bytes.fromhex("3a020a00")
    m = meta_graph_pb2.MetaGraphDef.FromString(raw)
    assert m.SerializeToString() == raw
