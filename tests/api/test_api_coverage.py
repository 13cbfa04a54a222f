"""bench/api_coverage.py's figure is honest: every name it counts as provided is a real object of the kind TF
has (a callable where TF's is callable, a module where TF's is a module), never an omission stand-in; and
every deliberate omission raises UnimplementedError saying why, when called or when an attribute is read."""
import importlib.util
import inspect
import os

import pytest

import graphlab as tf
from graphlab.framework.omitted import Omitted, reason_of
from graphlab.omissions import OMISSIONS
from tests import tfref

_SPEC = importlib.util.spec_from_file_location(
    "api_coverage", os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "bench",
                                 "api_coverage.py"))
api_coverage = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(api_coverage)

# Names whose kind differs from TF's on purpose: TF's tf.newaxis is None too, but other TF values here are
# classes or protos that graphlab keeps as plain values.
KIND_EXCEPTIONS = set()


@pytest.fixture(scope="module")
def listing():
    tfref.require_tf()
    return api_coverage.tf_names()


@pytest.fixture(scope="module")
def result(listing):
    return api_coverage.classify(listing)


def _kind(obj):
    if inspect.ismodule(obj):
        return "module"
    return "callable" if callable(obj) else "value"


def test_every_provided_name_is_a_real_object_of_tfs_kind(listing, result):
    wrong = []
    for module, entry in result.items():
        namespace = api_coverage.graphlab_module(module)
        for name in entry["provided"]:
            obj = getattr(namespace, name)
            assert reason_of(obj) is None
            theirs = listing[module][name]
            ours = _kind(obj)
            expected = {"class": "callable"}.get(theirs, theirs)
            if ours != expected and (module, name) not in KIND_EXCEPTIONS and not (
                    expected == "module" and ours == "value"):   # a namespace object standing for a module
                wrong.append("%s.%s: TF's is a %s, graphlab's a %s" % (api_coverage.label(module), name, theirs, ours))
    assert not wrong, "\n".join(wrong)


SAMPLE = ["acosh", "atan2", "erfc", "sort", "argsort", "searchsorted", "meshgrid", "repeat", "hessians",
          "confusion_matrix", "log_sigmoid", "tables_initializer", "orthogonal_initializer", "serialize_tensor",
          "nn.log_poisson_loss", "nn.normalize_moments", "nn.sufficient_statistics", "nn.max_pool_v2",
          "math.reduce_std", "math.xlogy", "math.polyval", "io.encode_base64", "io.is_jpeg",
          "losses.cosine_distance", "saved_model.main_op.main_op", "saved_model.main_op_with_restore", "saved_model.classification_signature_def"]


@pytest.mark.parametrize("dotted", SAMPLE)
def test_sampled_new_names_are_callable_and_not_stand_ins(dotted):
    obj = tf
    for part in dotted.split("."):
        obj = getattr(obj, part)
    assert callable(obj) and not isinstance(obj, Omitted), dotted


def _omitted_names():
    for prefix, groups in OMISSIONS.items():
        for names, reason in groups:
            for name in names.split():
                yield prefix, name, reason


@pytest.mark.parametrize("prefix,name,reason", list(_omitted_names()))
def test_every_omission_raises_unimplemented_error_with_its_reason(prefix, name, reason):
    namespace = tf
    for part in prefix.split(".")[1:]:
        namespace = getattr(namespace, part)
    obj = getattr(namespace, name)
    if not isinstance(obj, Omitted):   # the namespace now defines it for real: then it is no omission
        assert reason_of(obj) is None
        return
    assert reason_of(obj) == reason and len(reason) > 20
    with pytest.raises(tf.errors.UnimplementedError, match="%s.%s is not available in graphlab: " % (prefix, name)):
        obj()
    with pytest.raises(tf.errors.UnimplementedError, match="not available in graphlab"):
        obj.some_attribute


def test_the_script_counts_omissions_apart_and_lists_missing_names(result, capsys):
    assert "ctc_loss" in result["nn"]["omitted"] and "ctc_loss" not in result["nn"]["provided"]
    assert "Server" in result["train"]["omitted"]
    api_coverage.print_table(result)
    out = capsys.readouterr().out
    assert "total" in out and "omitted" in out and "provided%" in out
