"""mpigen.patch.diff: the strategic merge patch that turns one pod template into another.

Applied (:func:`mpigen.patch.apply`, the port of kubectl's) it gives the target, for every case
of tests/cases/patch/ (original -> expected) and for random pairs of pod templates; it says only
what differs, and a ``$setElementOrder`` only where the merged order would not be the target's.
"""

from __future__ import annotations

import pytest

from mpigen.patch import POD_TEMPLATE_SPEC, apply, apply_pod_template_patch
from mpigen.patch.diff import PatchDiffError, create_patch, equal
from tests.patch_cases import RandomTemplates, load_cases, strategies_of

CASES = [c for c in load_cases() if "expected" in c and not c.get("problems")]


def test_the_cases_are_found() -> None:
    assert len(CASES) >= 250


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_the_patch_of_each_case_gives_its_result(case: dict) -> None:
    original, expected = case["original"] or {}, case["expected"]
    types = strategies_of(case)
    patch = create_patch(original, expected, case.get("type", POD_TEMPLATE_SPEC), strategies=types)
    result, problems = apply(original, patch, case.get("type", POD_TEMPLATE_SPEC), strategies=types)
    assert not problems and equal(result, expected)


def test_equal_templates_need_no_patch() -> None:
    template = {"metadata": {"labels": {"a": "b"}}, "spec": {"containers": [{"name": "w", "image": "i"}]}}
    assert create_patch(template, template) == {}


def test_only_what_differs_and_the_order_by_the_items_kept() -> None:
    """A new item lands before the template's unless the patch lists one it follows (kubectl)."""
    original = {"spec": {"containers": [{"name": "worker", "image": "a", "env": [{"name": "A", "value": "1"}],
                                         "resources": {"limits": {"cpu": "1"}, "requests": {"cpu": "1"}}}],
                         "nodeSelector": {"pool": "x", "zone": "a"}}}
    target = {"spec": {"containers": [{"name": "worker", "image": "a",
                                       "env": [{"name": "A", "value": "1"}, {"name": "B", "value": "2"}],
                                       "resources": {"limits": {"cpu": "1"}}}],
                       "nodeSelector": {"pool": "y"}, "hostIPC": True}}
    assert create_patch(original, target) == {"spec": {
        "containers": [{"name": "worker", "env": [{"name": "A"}, {"name": "B", "value": "2"}],  # B after A
                        "resources": {"requests": None}}],
        "nodeSelector": {"pool": "y", "zone": None}, "hostIPC": True}}


def test_a_renamed_container_is_deleted_and_added_in_its_place() -> None:
    original = {"spec": {"containers": [{"name": "launcher", "image": "a"}, {"name": "logs", "image": "b"}]}}
    target = {"spec": {"containers": [{"name": "mpi", "image": "a"}, {"name": "logs", "image": "b"}]}}
    patch = create_patch(original, target)
    assert patch == {"spec": {"containers": [{"name": "mpi", "image": "a"}, {"name": "launcher", "$patch": "delete"}]}}
    original["spec"]["containers"].reverse()
    target["spec"]["containers"].reverse()
    assert create_patch(original, target) == {"spec": {"containers": [
        {"name": "logs"}, {"name": "mpi", "image": "a"}, {"name": "launcher", "$patch": "delete"}]}}


def test_a_new_order_is_the_items_listed_by_their_keys() -> None:
    original = {"spec": {"containers": [{"name": "a", "image": "x"}, {"name": "b", "image": "x"}]}}
    target = {"spec": {"containers": [{"name": "b", "image": "x"}, {"name": "a", "image": "x"}]}}
    assert create_patch(original, target) == {"spec": {"containers": [{"name": "b"}, {"name": "a"}]}}


def test_a_list_whose_merge_keys_repeat_is_replaced_whole() -> None:
    original = {"spec": {"containers": [{"name": "w", "ports": [{"containerPort": 53, "protocol": "TCP"}]}]}}
    target = {"spec": {"containers": [{"name": "w", "ports": [{"containerPort": 53, "protocol": "TCP"},
                                                              {"containerPort": 53, "protocol": "UDP"}]}]}}
    patch = create_patch(original, target)
    assert patch["spec"]["containers"][0]["ports"][0] == {"$patch": "replace"}


def test_a_value_patches_cannot_reach_is_refused() -> None:
    """A mapping that must become empty inside a merged list item cannot be told apart from a
    deletion when the list has no merge key: the patch made would not give the target."""
    with pytest.raises(PatchDiffError):
        create_patch({"spec": {"containers": [{"name": "w", "image": "a"}]}},
                     {"spec": {"containers": [{"name": "w", "image": "a"}, {"image": "b"}]}}, strategies={
                         POD_TEMPLATE_SPEC: {"fields": {"spec": {"shape": "object", "type": "S"}}},
                         "S": {"fields": {"containers": {"shape": "list", "patchStrategy": "merge",
                                                         "patchMergeKey": "name", "items": {
                                                             "shape": "primitive", "type": "string"}}}}})


def test_random_pairs_of_templates() -> None:
    """The patch between two random templates gives the second from the first."""
    templates = RandomTemplates(7)
    ordered = 0
    for _ in range(400):
        original, target = templates.template(), templates.template()
        patch = create_patch(original, target)
        result, problems = apply_pod_template_patch(original, patch)
        assert not problems and equal(result, target), (original, target, patch)
        ordered += _anchors(patch) > 0
    assert ordered >= 30  # the order of many lists was said by listing the items kept


def _anchors(value) -> int:
    """Items of a patch's lists that are only a merge key: they place the others."""
    if isinstance(value, dict):
        return sum(_anchors(v) for v in value.values())
    if isinstance(value, list):
        return sum(isinstance(v, dict) and len(v) == 1 and not any(k.startswith("$") for k in v) or _anchors(v)
                   for v in value)
    return 0
