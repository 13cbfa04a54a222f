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
