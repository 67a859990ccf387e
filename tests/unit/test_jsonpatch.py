"""mpigen.render.jsonpatch: RFC 6902 diff/apply used for kustomize overlay patches."""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mpigen.render.jsonpatch import apply, diff, pointer


def same(a, b) -> bool:
    """Equality that tells True from 1 and 1 from 1.0."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return a == b


@pytest.mark.parametrize(
    "parts, text",
    [
        ([], ""),
        (["a"], "/a"),
        (["a", 0, "b"], "/a/0/b"),
        (["sidecar.istio.io/inject"], "/sidecar.istio.io~1inject"),
        (["a~b"], "/a~0b"),
        (["~1"], "/~01"),
        (["/~"], "/~1~0"),
        ([""], "/"),
        (["", ""], "//"),
    ],
)
def test_pointer_escapes_per_rfc6901(parts, text):
    assert pointer(parts) == text


def test_diff_of_equal_objects_is_empty():
    obj = {"a": [1, {"b": None}], "c": "x"}
    assert diff(obj, copy.deepcopy(obj)) == []


def test_diff_exact_ops():
    old = {"metadata": {"name": "j", "annotations": {"sidecar.istio.io/inject": "true", "old": "x"}},
           "spec": {"replicas": 2, "args": ["-np", "2"], "list": [1, 2, 3]}}
    new = {"metadata": {"name": "j", "annotations": {"sidecar.istio.io/inject": "false", "a~b": "y"}},
           "spec": {"replicas": 8, "args": ["-np", "8"], "list": [1, 2]}}
    assert diff(old, new) == [
        {"op": "replace", "path": "/metadata/annotations/sidecar.istio.io~1inject", "value": "false"},
        {"op": "add", "path": "/metadata/annotations/a~0b", "value": "y"},
        {"op": "remove", "path": "/metadata/annotations/old"},
        {"op": "replace", "path": "/spec/replicas", "value": 8},
        {"op": "replace", "path": "/spec/args/1", "value": "8"},
        {"op": "replace", "path": "/spec/list", "value": [1, 2]},
    ]


@pytest.mark.parametrize(
    "old, new, ops",
    [
        (1, True, [{"op": "replace", "path": "", "value": True}]),
        (0, False, [{"op": "replace", "path": "", "value": False}]),
        (1, 1.0, [{"op": "replace", "path": "", "value": 1.0}]),
        ({"a": 1}, {"a": "1"}, [{"op": "replace", "path": "/a", "value": "1"}]),
        ({"a": {"b": 1}}, {"a": [1]}, [{"op": "replace", "path": "/a", "value": [1]}]),
        ({"a": [1]}, {"a": {"0": 1}}, [{"op": "replace", "path": "/a", "value": {"0": 1}}]),
        ({"a": None}, {"a": {}}, [{"op": "replace", "path": "/a", "value": {}}]),
        ([], {}, [{"op": "replace", "path": "", "value": {}}]),
        ({"": 1}, {"": 2}, [{"op": "replace", "path": "/", "value": 2}]),
        ([1, 2], [1, 2, 3], [{"op": "replace", "path": "", "value": [1, 2, 3]}]),
        ([[1], [2]], [[1], [3]], [{"op": "replace", "path": "/1/0", "value": 3}]),
    ],
)
def test_diff_type_and_length_changes(old, new, ops):
    assert diff(old, new) == ops
    assert same(apply(old, ops), new)


@pytest.mark.parametrize(
    "old, new",
    [
        ({"a/b": 1, "c~d": 2, "~1": 3, "/": 4, "~": 5}, {"a/b": 10, "c~d": 20, "~1": 30, "/": 40, "~": 50}),
        ({"a/b": {"~0": [1, 2]}}, {"a/b": {"~0": [1, 2, 3], "x/y~z": {"q": None}}}),
        ({"keep": 1, "gone/x": {"deep": [1]}}, {"keep": 1, "new~1": {"deep": {"er": [True]}}}),
        ({"l": [1, 2, 3]}, {"l": []}),
        ({"l": []}, {"l": [{"a": 1}]}),
        ({"a": {"b": {"c": {"d": 1}}}}, {"a": {"b": {"c": {}, "e": [None]}}}),
        ({"a": {"b": {"c": {}, "e": [None]}}}, {"a": {"b": {"c": {"d": 1}}}}),
        ({"x": [{"a": 1}, {"b": 2}]}, {"x": [{"a": 2, "c": 3}, {}]}),
        ({"n": 1}, {"n": None}),
        ({"": {"": 1}}, {"": {"": 2, "x": 3}}),
        ("s", {"a": 1}),
        ({"a": 1}, None),
    ],
)
def test_round_trip(old, new):
    ops = diff(old, new)
    assert same(apply(old, ops), new)
    assert diff(apply(old, ops), new) == []


def test_ops_are_json_serialisable_and_keys_escaped():
    ops = diff({"a/b": {"c~d": 1}}, {"a/b": {"c~d": 2}})
    assert json.loads(json.dumps(ops)) == [{"op": "replace", "path": "/a~1b/c~0d", "value": 2}]


def test_apply_does_not_mutate_input_and_copies_values():
    old = {"a": {"b": [1]}, "c": 1}
    new = {"a": {"b": [1, 2]}, "d": {"e": 1}}
    old_copy = copy.deepcopy(old)
    ops = diff(old, new)
    result = apply(old, ops)
    assert old == old_copy
    assert result == new
    result["d"]["e"] = 99
    result["a"]["b"].append(3)
    assert new == {"a": {"b": [1, 2]}, "d": {"e": 1}}


def test_apply_rfc6901_unescape_order():
    # "~01" is the key "~1", not "/"
    assert apply({"~1": 0, "/": 0}, [{"op": "replace", "path": "/~01", "value": 1}]) == {"~1": 1, "/": 0}
    assert apply({"~1": 0, "/": 0}, [{"op": "replace", "path": "/~1", "value": 1}]) == {"~1": 0, "/": 1}


def test_apply_list_index_and_remove():
    obj = {"a": [{"x": 1}, {"x": 2}]}
    assert apply(obj, [{"op": "replace", "path": "/a/1/x", "value": 5}]) == {"a": [{"x": 1}, {"x": 5}]}
    assert apply(obj, [{"op": "remove", "path": "/a/0"}]) == {"a": [{"x": 2}]}
    assert apply(obj, [{"op": "add", "path": "/b", "value": 1}]) == {"a": [{"x": 1}, {"x": 2}], "b": 1}


# --------------------------------------------------------------------------------------------
# property
# --------------------------------------------------------------------------------------------

_keys = st.text(alphabet=st.sampled_from(list("ab~/01-. ")), max_size=4) | st.text(max_size=3)
_scalars = (st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
            | st.text(max_size=4))
json_like = st.recursive(
    _scalars,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(_keys, children, max_size=5),
    max_leaves=20,
)


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(json_like, json_like)
def test_property_apply_diff_gives_new(a, b):
    a_before = copy.deepcopy(a)
    ops = diff(a, b)
    result = apply(a, ops)
    assert same(result, b) or (result == b and _only_signed_zero_differs(result, b))
    assert same(a, a_before)  # diff and apply leave their input alone
    assert diff(result, b) == []


def _only_signed_zero_differs(x, y) -> bool:
    # 0.0 == -0.0 for Python and for JSON consumers alike; diff may leave the sign as it was
    return json.dumps(x).replace("-0.0", "0.0") == json.dumps(y).replace("-0.0", "0.0")


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.dictionaries(_keys, json_like, max_size=5), st.data())
def test_property_small_edits_give_small_patches(a, data):
    # changing one top-level key gives exactly one op, at that key's pointer
    if not a:
        return
    key = data.draw(st.sampled_from(sorted(a)))
    b = dict(a)
    b[key] = ["__changed__", a[key]] if isinstance(a[key], dict) else {"__changed__": a[key]}
    ops = diff(a, b)
    assert ops == [{"op": "replace", "path": pointer([key]), "value": b[key]}]
    assert same(apply(a, ops), b)
