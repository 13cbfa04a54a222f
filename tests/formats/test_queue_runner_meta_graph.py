"""Queue runners travel in meta graphs as TF stores them (the "queue_runners" collection of QueueRunnerDef
bytes): a pipeline exported by one side and imported by the other starts its runner threads and yields the
same batches (tensorflow/models' ptb_word_lm exports and re-imports its model this way)."""
import json

import graphlab
from graphlab.formats.protos import queue_runner_pb2
from tests import tfref

# An input pipeline of two runners: the producer's and tf.train.batch's, below a name scope.
PIPELINE = """
with tf.name_scope("input"):
    index = tf.train.range_input_producer(12, shuffle=False).dequeue()
    batch = tf.train.batch([index * 10], batch_size=4, capacity=8)
"""

RUN_IMPORTED = """
def run_imported(tf, path, batch_name):
    tf.reset_default_graph()
    tf.train.import_meta_graph(path)
    runners = tf.get_collection(tf.GraphKeys.QUEUE_RUNNERS)
    batch = tf.get_default_graph().get_tensor_by_name(batch_name)
    with tf.Session() as sess:
        coord = tf.train.Coordinator()
        threads = tf.train.start_queue_runners(sess, coord)
        batches = [sess.run(batch).tolist() for _ in range(3)]
        coord.request_stop()
        coord.join(threads)
    return {"runners": [[r.name, len(r.enqueue_ops), r.close_op.name, r.cancel_op.name,
                         [c.__name__ for c in r.queue_closed_exception_types]] for r in runners],
            "batches": batches}
"""


def _graphlab_export(path):
    graphlab.reset_default_graph()
    scope = {"tf": graphlab}
    exec(PIPELINE, scope)
    graphlab.train.export_meta_graph(path)
    return scope["batch"].name


def _graphlab_run_imported(path, batch_name):
    scope = {}
    exec(RUN_IMPORTED, scope)
    return scope["run_imported"](graphlab, path, batch_name)


def _runner_defs(meta_graph_def):
    return [queue_runner_pb2.QueueRunnerDef.FromString(raw)
            for raw in meta_graph_def.collection_def["queue_runners"].bytes_list.value]


def test_graphlab_writes_tensorflows_queue_runner_defs_and_each_side_runs_the_others(tmp_path):
    ours = str(tmp_path / "graphlab.meta")
    batch_name = _graphlab_export(ours)
    theirs = str(tmp_path / "tf.meta")
    tf_out = tfref.run_tf_json(PIPELINE + RUN_IMPORTED + """
tf.train.export_meta_graph(sys.argv[2])
print(json.dumps({"graphlab_file": run_imported(tf, sys.argv[1], sys.argv[3]),
                  "own_file": run_imported(tf, sys.argv[2], sys.argv[3])}))
""", ours, theirs, batch_name)
    # the same runner definitions, byte for byte, from the same program
    from graphlab.framework import meta_graph
    ours_defs = _runner_defs(meta_graph.read_meta_graph_file(ours))
    assert [d.SerializeToString() for d in ours_defs] == \
        [d.SerializeToString() for d in _runner_defs(meta_graph.read_meta_graph_file(theirs))]
    assert [d.queue_name for d in ours_defs] == ["input/input_producer", "input/batch/fifo_queue"]
    # TF runs graphlab's file as its own; graphlab runs TF's file and its own alike
    expected = tf_out["own_file"]
    assert expected["batches"] == [[0, 10, 20, 30], [40, 50, 60, 70], [80, 90, 100, 110]]
    assert tf_out["graphlab_file"] == expected
    assert json.loads(json.dumps(_graphlab_run_imported(theirs, batch_name))) == expected
    assert json.loads(json.dumps(_graphlab_run_imported(ours, batch_name))) == expected


def test_a_runner_outside_the_export_scope_is_left_out_and_import_scope_prefixes_its_ops(tmp_path):
    graphlab.reset_default_graph()
    exec(PIPELINE, {"tf": graphlab})
    with graphlab.name_scope("other"):
        graphlab.train.range_input_producer(3)
    mgd = graphlab.train.export_meta_graph(export_scope="input")
    assert [d.queue_name for d in _runner_defs(mgd)] == ["input_producer", "batch/fifo_queue"]
    graphlab.reset_default_graph()
    graphlab.train.import_meta_graph(mgd, import_scope="again")
    runners = graphlab.get_collection(graphlab.GraphKeys.QUEUE_RUNNERS)
    assert [r.name for r in runners] == ["again/input_producer", "again/batch/fifo_queue"]
    assert [op.name for op in runners[1].enqueue_ops] == ["again/batch/fifo_queue_enqueue"]
    assert isinstance(runners[0].queue, graphlab.Operation)       # as TF gives it for an imported runner


def test_error_codes_and_classes_map_as_in_tensorflow():
    errors = graphlab.errors
    assert errors.exception_type_from_error_code(11) is errors.OutOfRangeError
    assert errors.error_code_from_exception_type(errors.CancelledError) == errors.CANCELLED
    try:
        errors.exception_type_from_error_code(99)
    except KeyError:
        pass
    else:
        raise AssertionError("code 99 has no class in TF: KeyError expected")
