"""``tf.nest`` (tf.compat.v1.nest) compared with TF 2.21 run live: the same calls in both engines give the
same values (by repr) or the same error class and message."""
import json

import pytest

import graphlab as tf
from tests.tfref import run_tf

CASES = r'''
import collections
nest = tf.nest
P = collections.namedtuple("P", "a b")
Q = collections.namedtuple("Q", "a b")
P2 = collections.namedtuple("P", "a b")
od = collections.OrderedDict([("b", 1), ("a", 2)])
dd = collections.defaultdict(list, {"b": 1, "a": 2})
cases = {
 "flatten": lambda: nest.flatten([1, (2, {"b": 3, "a": [4]}), P(5, 6), None, "s", b"t"]),
 "flatten_leaf": lambda: nest.flatten(7),
 "flatten_none": lambda: nest.flatten(None),
 "flatten_ordered_dict": lambda: nest.flatten(od),
 "flatten_set_is_a_leaf": lambda: nest.flatten({1}),
 "flatten_dict_views": lambda: [nest.flatten(od.keys()), nest.flatten(od.values()), nest.flatten(od.items())],
 "flatten_unsortable_keys": lambda: nest.flatten({1: 1, "a": 2}),
 "pack": lambda: nest.pack_sequence_as([1, (2, {"b": 3, "a": 4})], list("wxyz")),
 "pack_ordered_dict": lambda: nest.pack_sequence_as(od, [10, 20]),
 "pack_defaultdict": lambda: [nest.pack_sequence_as(dd, [5, 6]), nest.pack_sequence_as(dd, [5, 6]).default_factory],
 "pack_namedtuple": lambda: nest.pack_sequence_as(P(1, [2]), [10, 20]),
 "pack_too_few": lambda: nest.pack_sequence_as([1, 2], [1]),
 "pack_leaf": lambda: nest.pack_sequence_as(1, [5]),
 "pack_leaf_two_items": lambda: nest.pack_sequence_as(1, [5, 6]),
 "pack_not_a_sequence": lambda: nest.pack_sequence_as([1], 5),
 "map": lambda: nest.map_structure(lambda x, y: x + y, [1, (2, 3)], [10, (20, 30)]),
 "map_namedtuple": lambda: nest.map_structure(lambda x: x * 2, P(1, {"k": 2})),
 "map_count": lambda: nest.map_structure(lambda x, y: x, [1, 2], [1]),
 "map_types": lambda: nest.map_structure(lambda x, y: x, [1, 2], (1, 2)),
 "map_types_unchecked": lambda: nest.map_structure(lambda x, y: x, [1, 2], (1, 2), check_types=False),
 "map_bad_keyword": lambda: nest.map_structure(lambda x: x, [1], foo=1),
 "map_not_callable": lambda: nest.map_structure(5, [1]),
 "map_no_structure": lambda: nest.map_structure(lambda x: x),
 "same": lambda: nest.assert_same_structure([1, (2,)], [3, (4,)]),
 "same_count": lambda: nest.assert_same_structure([1, 2], [1]),
 "same_inner_count": lambda: nest.assert_same_structure([1, [2, 3]], [1, [2]], check_types=False),
 "same_nesting": lambda: nest.assert_same_structure([1, [2]], [1, 2]),
 "same_leaf": lambda: nest.assert_same_structure([1, 2], 1),
 "same_types": lambda: nest.assert_same_structure([1, 2], (1, 2)),
 "same_inner_types": lambda: nest.assert_same_structure({"a": [1]}, {"a": (1,)}),
 "same_namedtuples": lambda: nest.assert_same_structure(P(1, 2), Q(1, 2)),
 "same_namedtuple_twins": lambda: nest.assert_same_structure(P(1, 2), P2(1, 2)),
 "same_dict_keys": lambda: nest.assert_same_structure({"a": 1}, {"b": 1}),
 "same_dict_keys_unchecked": lambda: nest.assert_same_structure({"a": 1}, {"b": 1}, check_types=False),
 "same_dict_ordered_dict": lambda: nest.assert_same_structure({"a": 1}, od),
 "namespace": lambda: sorted(n for n in dir(nest) if not n.startswith("_")),
 "is_nested": lambda: [nest.is_nested(x) for x in ([], (), {}, "s", b"b", 1, None, od, P(1, 2), {1},
                                                    np.zeros(2), range(2), collections.deque([1]),
                                                    bytearray(b"a"), od.keys())],
}
out = {}
for key, fn in cases.items():
    try:
        out[key] = ["ok", repr(fn())]
    except Exception as e:
        out[key] = [type(e).__name__, str(e)]
print(json.dumps(out))
'''


@pytest.fixture(scope="module")
def reference():
    return json.loads(run_tf(CASES).strip().splitlines()[-1])


def test_nest_answers_as_tf(reference):
    import numpy as np
    scope = {"tf": tf, "np": np, "json": json, "print": lambda text: scope.__setitem__("printed", text)}
    exec(CASES, scope)
    ours = json.loads(scope["printed"])
    assert ours.keys() == reference.keys()
    diffs = {k: (ours[k], reference[k]) for k in reference if ours[k] != reference[k]}
    assert not diffs

