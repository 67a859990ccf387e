"""mpigen.expand.environments: JSON merge patch (RFC 7386) of environments over the base spec."""

from __future__ import annotations

import copy

import pytest

from mpigen.expand.environments import environment_names, merge, origin, spec_for


# RFC 7386, Appendix A: every example, as (target, patch, result)
RFC7386 = [
    ({"a": "b"}, {"a": "c"}, {"a": "c"}),
    ({"a": "b"}, {"b": "c"}, {"a": "b", "b": "c"}),
    ({"a": "b"}, {"a": None}, {}),
    ({"a": "b", "b": "c"}, {"a": None}, {"b": "c"}),
    ({"a": ["b"]}, {"a": "c"}, {"a": "c"}),
    ({"a": "c"}, {"a": ["b"]}, {"a": ["b"]}),
    ({"a": {"b": "c"}}, {"a": {"b": "d", "c": None}}, {"a": {"b": "d"}}),
    ({"a": [{"b": "c"}]}, {"a": [1]}, {"a": [1]}),
    (["a", "b"], ["c", "d"], ["c", "d"]),
    ({"a": "b"}, ["c"], ["c"]),
    ({"a": "foo"}, None, None),
    ({"a": "foo"}, "bar", "bar"),
    ({"e": None}, {"a": 1}, {"e": None, "a": 1}),
    ([1, 2], {"a": "b", "c": None}, {"a": "b"}),
    ({}, {"a": {"bb": {"ccc": None}}}, {"a": {"bb": {}}}),
]


@pytest.mark.parametrize("target, patch, result", RFC7386)
def test_merge_rfc7386_examples(target, patch, result):
    target_before, patch_before = copy.deepcopy(target), copy.deepcopy(patch)
    assert merge(target, patch) == result
    assert target == target_before and patch == patch_before


def test_maps_merge_lists_replace_null_removes():
    base = {
        "image": "img:1",
        "workers": {"replicas": 2, "resources": {"cpu": "1", "memory": "1Gi"}, "gpus": 1},
        "env": [{"name": "A", "value": "1"}, {"name": "B", "value": "2"}],
        "labels": {"team": "ml"},
    }
    override = {
        "workers": {"replicas": 8, "resources": {"memory": "4Gi"}, "gpus": None},
        "env": [{"name": "C", "value": "3"}],
        "labels": None,
        "new": {"nested": {"x": 1, "gone": None}},
    }
    base_before, override_before = copy.deepcopy(base), copy.deepcopy(override)
    assert merge(base, override) == {
        "image": "img:1",
        "workers": {"replicas": 8, "resources": {"cpu": "1", "memory": "4Gi"}},
        "env": [{"name": "C", "value": "3"}],
        "new": {"nested": {"x": 1}},
    }
    assert base == base_before
    assert override == override_before


def test_merge_result_is_a_new_dict_at_every_level_the_override_reaches():
    base = {"a": {"b": {"c": 1}}, "untouched": {"x": 1}}
    result = merge(base, {"a": {"b": {"d": 2}}})
    assert result == {"a": {"b": {"c": 1, "d": 2}}, "untouched": {"x": 1}}
    assert result is not base and result["a"] is not base["a"] and result["a"]["b"] is not base["a"]["b"]
    result["a"]["b"]["c"] = 99
    assert base == {"a": {"b": {"c": 1}}, "untouched": {"x": 1}}


def test_merge_keeps_base_key_order_and_appends_new_keys():
    result = merge({"z": 1, "a": 2, "m": 3}, {"a": 20, "new": 4, "z": None})
    assert list(result) == ["a", "m", "new"]
    assert result == {"a": 20, "m": 3, "new": 4}


def test_merge_null_for_absent_key_is_no_op():
    assert merge({"a": 1}, {"missing": None}) == {"a": 1}
    assert merge({"a": 1}, {}) == {"a": 1}


def test_merge_scalar_replaced_by_mapping_drops_nulls():
    assert merge({"a": 5}, {"a": {"b": 1, "c": None}}) == {"a": {"b": 1}}


def test_merge_false_and_zero_are_values_not_removals():
    assert merge({"a": 1, "b": True, "c": "x"}, {"a": 0, "b": False, "c": ""}) == {"a": 0, "b": False, "c": ""}


# --------------------------------------------------------------------------------------------
# spec_for, environment_names
# --------------------------------------------------------------------------------------------

SPEC = {
    "framework": "pytorch",
    "image": "img:1",
    "command": ["python", "train.py"],
    "workers": {"replicas": 2, "gpus": 1, "resources": {"cpu": "4"}},
    "env": [{"name": "A", "value": "1"}],
    "environments": {
        "prod": {
            "workers": {"replicas": 8, "resources": {"memory": "32Gi"}},
            "env": [{"name": "B", "value": "2"}],
            "image": "img:2",
            "scheduling": {"gang": {"enabled": True}},
        },
        "dev": {"workers": {"gpus": None}, "command": None},
        "empty": {},
        "broken": "not a mapping",
    },
}


def test_environment_names_sorted():
    assert environment_names(SPEC) == ["broken", "dev", "empty", "prod"]
    assert environment_names({}) == []
    assert environment_names({"environments": None}) == []
    assert environment_names({"environments": ["prod"]}) == []


def test_spec_for_base_drops_environments():
    spec_before = copy.deepcopy(SPEC)
    base = spec_for(SPEC, None)
    assert base == {k: v for k, v in spec_before.items() if k != "environments"}
    assert "environments" not in base
    assert SPEC == spec_before


def test_spec_for_environment():
    spec_before = copy.deepcopy(SPEC)
    assert spec_for(SPEC, "prod") == {
        "framework": "pytorch",
        "image": "img:2",
        "command": ["python", "train.py"],
        "workers": {"replicas": 8, "gpus": 1, "resources": {"cpu": "4", "memory": "32Gi"}},
        "env": [{"name": "B", "value": "2"}],
        "scheduling": {"gang": {"enabled": True}},
    }
    assert spec_for(SPEC, "dev") == {
        "framework": "pytorch",
        "image": "img:1",
        "workers": {"replicas": 2, "resources": {"cpu": "4"}},
        "env": [{"name": "A", "value": "1"}],
    }
    assert SPEC == spec_before


def test_spec_for_empty_unknown_or_non_mapping_environment_is_the_base():
    base = spec_for(SPEC, None)
    assert spec_for(SPEC, "empty") == base
    assert spec_for(SPEC, "nope") == base
    assert spec_for(SPEC, "broken") == base
    assert spec_for({"image": "x"}, "prod") == {"image": "x"}


# --------------------------------------------------------------------------------------------
# origin
# --------------------------------------------------------------------------------------------

@pytest.mark.parametrize(
    "path, expected",
    [
        (("workers", "replicas"), ("environments", "prod", "workers", "replicas")),  # set by prod
        (("workers", "gpus"), ("workers", "gpus")),  # inherited from the base
        (("workers", "resources", "cpu"), ("workers", "resources", "cpu")),
        (("workers", "resources", "memory"), ("environments", "prod", "workers", "resources", "memory")),
        (("workers", "resources"), ("workers", "resources")),  # a mapping both wrote: the base's
        (("workers",), ("workers",)),
        (("env",), ("environments", "prod", "env")),  # a list replaces whole
        (("env", 0, "name"), ("environments", "prod", "env", 0, "name")),
        (("image",), ("environments", "prod", "image")),
        (("scheduling",), ("environments", "prod", "scheduling")),  # a mapping only prod has
        (("scheduling", "gang", "enabled"), ("environments", "prod", "scheduling", "gang", "enabled")),
        (("command", 1), ("command", 1)),
        (("missing", "x"), ("missing", "x")),
        ((), ()),
    ],
)
def test_origin_prod(path, expected):
    assert origin(path, SPEC, "prod") == expected


@pytest.mark.parametrize("path", [("workers", "replicas"), ("env", 0), (), ("scheduling",)])
def test_origin_base_is_identity(path):
    assert origin(path, SPEC, None) == path


def test_origin_unknown_or_empty_environment_is_base():
    assert origin(("workers", "replicas"), SPEC, "nope") == ("workers", "replicas")
    assert origin(("workers", "replicas"), SPEC, "empty") == ("workers", "replicas")
    assert origin(("image",), SPEC, "broken") == ("image",)


def test_origin_returns_a_tuple_for_list_paths():
    assert origin(["image"], SPEC, "prod") == ("environments", "prod", "image")


def test_origin_of_a_mapping_the_base_does_not_have():
    spec = {"environments": {"e": {"a": {"b": {"c": 1}}}}}
    assert origin(("a",), spec, "e") == ("environments", "e", "a")
    assert origin(("a", "b"), spec, "e") == ("environments", "e", "a", "b")
    assert origin(("a", "b", "c"), spec, "e") == ("environments", "e", "a", "b", "c")
    assert origin(("a",), {"a": None, **spec}, "e") == ("environments", "e", "a")


def test_origin_of_a_mapping_that_replaced_a_base_scalar():
    spec = {"a": 5, "environments": {"e": {"a": {"b": 1}}}}
    assert spec_for(spec, "e") == {"a": {"b": 1}}
    assert origin(("a",), spec, "e") == ("environments", "e", "a")


def test_origin_paths_resolve_to_the_written_value():
    # every leaf of the effective spec is found at the path origin() gives
    def leaves(obj, path=()):
        if isinstance(obj, dict) and obj:
            for k, v in obj.items():
                yield from leaves(v, path + (k,))
        elif isinstance(obj, list) and obj:
            for i, v in enumerate(obj):
                yield from leaves(v, path + (i,))
        else:
            yield path, obj

    def get(obj, path):
        for part in path:
            obj = obj[part]
        return obj

    for env in ("prod", "dev", "empty"):
        for path, value in leaves(spec_for(SPEC, env)):
            assert get(SPEC, origin(path, SPEC, env)) == value, (env, path)
