"""The comparison rules of the differential test, on hand-made records (no engine runs here): what counts
as the same result and what is reported as a divergence, and that every generated program is well formed."""
import ast

from . import generator, harness


def _record(runs, ops=(("Const", "Const"),), build_error=None):
    return {"build_error": build_error, "runs": runs, "ops": [list(o) for o in ops]}


def _array(values, dtype="float32", shape=None, type_="ndarray"):
    return {"value": {"type": type_, "dtype": dtype, "shape": shape or [len(values)], "values": values}}


def test_floats_within_float32_noise_are_the_same():
    assert harness.differences(_record([_array([1.0 + 4e-6, 1e-7])]), _record([_array([1.0, 0.0])])) == []


def test_floats_beyond_the_tolerance_integers_and_nan_differ():
    assert harness.differences(_record([_array([1.0 + 3e-5])]), _record([_array([1.0])]))
    assert harness.differences(_record([_array([3], "int32")]), _record([_array([4], "int32")]))
    assert harness.differences(_record([_array(["nan"])]), _record([_array([0.0])]))


def test_dtype_shape_and_python_type_are_compared_exactly():
    assert harness.differences(_record([_array([1], "int64")]), _record([_array([1], "int32")]))[0][0].endswith("dtype")
    assert harness.differences(_record([_array([1.0], shape=[1, 1])]), _record([_array([1.0])]))[0][0].endswith("shape")
    assert harness.differences(_record([_array([1.0], shape=[], type_="ndarray")]),
                               _record([_array([1.0], shape=[], type_="float32")]))[0][0].endswith("type")


def test_fetch_structure_is_compared():
    tup = {"value": {"tuple": [_array([1.0])["value"]]}}
    lst = {"value": {"list": [_array([1.0])["value"]]}}
    assert harness.differences(_record([tup]), _record([lst]))


def test_errors_are_compared_by_class_and_message():
    ours = _record([{"error": ["InvalidArgumentError", "Incompatible shapes: [2] vs. [3]"]}])
    same = _record([{"error": ["InvalidArgumentError", "Incompatible shapes: [2] vs. [3]"]}])
    other = _record([{"error": ["InvalidArgumentError", "Incompatible shapes: [2] vs. [4]"]}])
    assert harness.differences(ours, same) == []
    where, _, _ = harness.differences(ours, other)[0]
    assert where == "run 1 error"


def test_op_names_are_compared_and_categorized():
    diffs = harness.differences(_record([], ops=[("v/initial_value", "Const")]),
                                _record([], ops=[("v/Initializer/initial_value", "Const")]))
    assert harness.classify([], diffs, {}, {"ops": []}) == "op_names"


def test_generated_programs_are_python_and_repeatable():
    for seed in range(50):
        source, features = generator.program(seed)
        ast.parse(source)
        assert generator.program(seed) == (source, features)
        assert "sess = tf.Session()" in source


_RACE_SOURCE = "# a read beside an assign_add, nothing ordering the two\n"
_RACE_JOB = {"seed": 1, "source": _RACE_SOURCE, "features": ["assign", "read", "ref_variable"]}


def _ran(value):
    return _record([{"value": None}, _array([value])])


def test_a_race_tf_answers_both_ways_is_racy_not_a_divergence():
    # TF gave 1.0 in the batch, then 0.0 and 1.0 in its reruns; graphlab gave 0.0, one of TF's answers
    found = harness.compare(_RACE_JOB, _ran(0.0), _ran(1.0), reruns=[_ran(1.0), _ran(0.0), _ran(1.0)])
    assert found[0] == harness.RACY == "racy_in_tensorflow"
    assert not harness.is_divergence(found[0])
    assert "racy" in found[1]


def test_a_difference_tf_repeats_every_time_is_a_divergence():
    found = harness.compare(_RACE_JOB, _ran(0.0), _ran(1.0), reruns=[_ran(1.0)] * 5)
    assert found[0] == "variable_read_time" and harness.is_divergence(found[0])
    assert "diverges from TensorFlow" in found[1]


def test_an_answer_tf_never_gives_is_a_divergence_even_when_tf_varies():
    found = harness.compare(_RACE_JOB, _ran(7.0), _ran(1.0), reruns=[_ran(0.0), _ran(1.0)])
    assert harness.is_divergence(found[0])


def test_crashed_reruns_do_not_make_a_program_racy():
    crash = {"seed": 1, "crash": [-11, "Segmentation fault"]}
    assert harness.compare(_RACE_JOB, _ran(0.0), _ran(1.0), reruns=[crash, crash])[0] == "variable_read_time"


def test_reruns_in_live_tensorflow_of_a_deterministic_program_agree():
    """rerun_tf runs the program in the reference TF (with other inter-op pools): a program with no race
    gives the same record every time, so graphlab's other answer stays a divergence."""
    harness.tfref.require_tf()
    source = ("v = tf.Variable(2.0)\ninc = tf.assign_add(v, 1.0)\nwith tf.control_dependencies([inc]):\n"
              "    z = tf.identity(v)\nsess = tf.Session()\nrun(sess, v.initializer)\nrun(sess, z)\n")
    job = {"seed": 5, "source": source, "features": ["assign", "read_under_control_deps", "ref_variable"]}
    reruns = harness.rerun_tf([job], times=4)[5]
    assert len(reruns) == 4 and all(not harness.differences(r, reruns[0]) for r in reruns)
    assert reruns[0]["runs"][1]["value"]["values"] == [3.0]
    wrong = dict(reruns[0], runs=[reruns[0]["runs"][0], _array([2.0], shape=[])])
    assert harness.is_divergence(harness.compare(job, wrong, reruns[0], reruns)[0])
