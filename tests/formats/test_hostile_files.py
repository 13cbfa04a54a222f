"""One test per way a small hostile or damaged file used to get past graphlab's loaders (a huge declared
constant, a Const without its value, input indices int() accepted, deep text nesting, a wrapped-around
element count, a cut-off events file). TF's messages quoted here were observed with TF 2.21."""
import os
import tracemalloc

import numpy as np
import pytest

import graphlab as tf
from graphlab.framework import graph_io
from graphlab.formats import sstable, tensor_bundle
from graphlab.formats.errors import DataLossError
from graphlab.formats.protos import graph_def_pb2, tensor_bundle_pb2, types_pb2


def _const_graph_def(shape, values=(), name="c", dtype=types_pb2.DT_FLOAT):
    gd = graph_def_pb2.GraphDef()
    nd = gd.node.add(name=name, op="Const")
    nd.attr["dtype"].type = dtype
    t = nd.attr["value"].tensor
    t.dtype = dtype
    for d in shape:
        t.tensor_shape.dim.add(size=d)
    t.float_val.extend(values)
    return gd


def _peak_bytes(fn):
    tracemalloc.start()
    try:
        result = fn()
        return result, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("count", [2 ** 28, 2 ** 33])
def test_a_tiny_graph_def_declaring_a_huge_constant_imports_without_allocating_it(count):
    """TF fills a short value list with its last value; the one value is broadcast, not copied."""
    gd = _const_graph_def([count], [0.25])
    assert gd.ByteSize() < 60
    (c,), peak = _peak_bytes(lambda: tf.import_graph_def(gd, name="", return_elements=["c:0"]))
    assert peak < 1 << 22
    assert c.shape.as_list() == [count]
    with tf.Session() as sess:
        try:
            assert sess.run(c[count - 1]) == 0.25
        except tf.errors.InvalidArgumentError as e:
            # running it builds the tensor, as TF's Const does: where the machine cannot give that much memory
            # (2**33 floats: 32 GiB), TF's error, naming the node
            assert count == 2 ** 33 and e.op.name == "c", e
            assert "\nNode: 'c'\nCannot parse tensor from proto: dtype: DT_FLOAT" in e.message, e.message
    # written back as TF writes such a constant: one value and the shape
    (node,) = [n for n in tf.get_default_graph().as_graph_def().node if n.name == "c"]
    assert node.ByteSize() < 60


def test_a_declared_size_the_values_cannot_fill_is_a_clear_error_naming_the_node():
    with pytest.raises(ValueError, match=r"node 'big'.*declares shape \[8589934592\].*holds only 2 values"):
        tf.import_graph_def(_const_graph_def([2 ** 33], [1.0, 2.0], name="big"), name="")
    with pytest.raises(ValueError, match=r"node 'wide'.*too large \(more than 2\*\*63 - 1 entries\)"):
        tf.import_graph_def(_const_graph_def([2 ** 32, 2 ** 32], name="wide"), name="")


def test_a_const_without_a_tensor_value_is_tf_value_error_naming_the_node():
    gd = _const_graph_def([2], [1.0])
    del gd.node[0].attr["value"]
    with pytest.raises(ValueError, match="NodeDef missing attr 'value' .*node 'c'"):
        tf.import_graph_def(gd, name="")
    gd.node[0].attr["value"].i = 3
    with pytest.raises(ValueError, match="AttrValue had value with type 'int' when 'tensor' expected .*node 'c'"):
        tf.import_graph_def(gd, name="")


@pytest.mark.parametrize("index", ["-1", " 1", "+1", "0_1", "abc", ""])
def test_an_input_index_that_is_not_digits_names_no_node(index):
    """TF: "Node 'b': Unknown input node 'a:-1'"; int() used to read "-1" as the last output."""
    gd = _const_graph_def([2], [1.0, 2.0], name="a")
    b = gd.node.add(name="b", op="Identity", input=["a:" + index])
    b.attr["T"].type = types_pb2.DT_FLOAT
    with pytest.raises(ValueError, match="Node 'b': Unknown input node 'a:%s'" % index.replace("+", r"\+")):
        tf.import_graph_def(gd, name="")


def test_leading_zeros_are_an_index_as_in_tf():
    gd = _const_graph_def([2], [1.0, 2.0], name="a")
    gd.node.add(name="b", op="Identity", input=["a:00"]).attr["T"].type = types_pb2.DT_FLOAT
    (b,) = tf.import_graph_def(gd, name="", return_elements=["b:0"])
    assert b.op.inputs[0].name == "a:0"


def test_a_restore_wired_to_output_minus_one_is_refused(tmp_path):
    """A meta graph whose save/Assign read save/RestoreV2:-1 used to restore another variable's value."""
    v = tf.Variable(1.0, name="v")
    w = tf.Variable(2.0, name="w")
    saver = tf.train.Saver()
    mgd = saver.export_meta_graph()
    for nd in mgd.graph_def.node:
        if nd.name == "save/Assign":
            nd.input[1] = "save/RestoreV2:-1"
    tf.reset_default_graph()
    with pytest.raises(ValueError, match="Node 'save/Assign': Unknown input node 'save/RestoreV2:-1'"):
        tf.train.import_meta_graph(mgd)
    del v, w


def test_a_pbtxt_nested_a_thousand_levels_is_data_loss_naming_the_file(tmp_path):
    depth = 1000
    text = ('node { name: "n" op: "NoOp" attr { key: "k" value { '
            + 'func { name: "f" attr { key: "k" value { ' * depth + "} } } " * depth + "} } }")
    path = tmp_path / "deep.pbtxt"
    path.write_text(text)
    with pytest.raises(DataLossError, match="deep.pbtxt.*nested too deeply"):
        graph_io.load_graph_def(str(path))


def test_an_element_count_that_wraps_around_int64_is_data_loss(tmp_path):
    """Shape [2**32, 2**32] multiplies to 2**64, which int64 arithmetic wraps to 0 = the stored size."""
    prefix = str(tmp_path / "ck")
    tensor_bundle.write_bundle(prefix, {"t": np.zeros(0, np.float32)})
    items = sstable.read_table(tensor_bundle.index_path(prefix))
    entry = tensor_bundle_pb2.BundleEntryProto()
    entry.ParseFromString(items[1][1])
    del entry.shape.dim[:]
    entry.shape.dim.add(size=2 ** 32)
    entry.shape.dim.add(size=2 ** 32)
    items[1] = (items[1][0], entry.SerializeToString())
    with open(tensor_bundle.index_path(prefix), "wb") as f:
        f.write(sstable.build_table(items))
    with pytest.raises(DataLossError, match=r"tensor t of shape \[4294967296, 4294967296\].*the index says 0"):
        tensor_bundle.BundleReader(prefix).read("t")


def _events_file(tmp_path):
    writer = tf.summary.FileWriter(str(tmp_path / "logs"))
    loss = tf.summary.scalar("loss", tf.constant(1.0))
    with tf.Session() as sess:
        for step in range(2):
            writer.add_summary(sess.run(loss), step)
    writer.close()
    path = os.path.join(tmp_path / "logs", os.listdir(tmp_path / "logs")[0])
    with open(path, "rb") as f:
        return path, f.read()


def test_an_events_file_cut_inside_a_record_is_data_loss_as_in_tf(tmp_path):
    path, data = _events_file(tmp_path)
    records = []
    pos = 0
    while pos < len(data):
        length = int.from_bytes(data[pos:pos + 8], "little")
        records.append(pos)
        pos += 16 + length
    start = records[-1]
    for cut, expect in [(start + 12, "truncated record at %d" % start), (len(data) - 1, "truncated record at %d"
                                                                         % start)]:
        with open(path, "wb") as f:
            f.write(data[:cut])
        with pytest.raises(tf.errors.DataLossError, match=expect):
            list(tf.train.summary_iterator(path))
    # a tail shorter than a record header ends the file quietly, as TF's reader does
    with open(path, "wb") as f:
        f.write(data[:start + 11])
    assert len(list(tf.train.summary_iterator(path))) == len(records) - 1
    flipped = bytearray(data)
    flipped[-3] ^= 1
    with open(path, "wb") as f:
        f.write(bytes(flipped))
    with pytest.raises(tf.errors.DataLossError, match="corrupted record at %d" % (start + 12)):
        list(tf.train.summary_iterator(path))
