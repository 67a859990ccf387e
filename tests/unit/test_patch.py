"""mpigen.patch: strategic merge patches applied as apimachinery applies them.

The cases are data, tests/cases/patch/*.yaml, one YAML document each:

    name: what the case shows
    upstream: where it comes from (the ports of apimachinery's patch_test.go)
    type: the OpenAPI name of the patched object (default io.k8s.api.core.v1.PodTemplateSpec)
    strategies: the strategies file of another type (mergeitem: upstream's test type MergeItem)
    original: the object
    patch: the patch
    expected: the patched object          # or
    problems: [{path: [...], code: ...}]  # where the patch is refused, and why
    origins: [{result: [...], patch: [...] or null}]  # patch_origin of paths of the result
    kubectl: accepts   # a case with problems that kubectl applies all the same

tests/integration/test_patch_kubectl.py runs every pod-template case without problems through the
real `kubectl patch --type strategic`.
"""

from __future__ import annotations

import copy

import pytest

from mpigen.patch import CODES, POD_TEMPLATE_SPEC, PatchProblem, apply, apply_pod_template_patch, patch_origin
from tests.patch_cases import KEYS, canonical, load_cases, strategies_of

ALL = load_cases()


def run(case: dict):
    return apply(case.get("original") or {}, case["patch"], case.get("type", POD_TEMPLATE_SPEC),
                 strategies=strategies_of(case))


def test_the_cases_are_all_there() -> None:
    upstream = [c for c in ALL if "upstream" in c]
    pod = [c for c in ALL if c.get("type", POD_TEMPLATE_SPEC) == POD_TEMPLATE_SPEC]
    assert len(upstream) >= 190 and len(pod) >= 60
    assert len({c["id"] for c in ALL}) == len(ALL)
    codes = {p["code"] for c in ALL for p in c.get("problems", [])}
    assert codes == set(CODES), f"codes without a case: {set(CODES) - codes}"
    for case in ALL:
        assert ("expected" in case) != ("problems" in case), case["id"]
        assert set(case) - {"id"} <= KEYS, case["id"]


@pytest.mark.parametrize("case", ALL, ids=[c["id"] for c in ALL])
def test_case(case: dict) -> None:
    original, patch = copy.deepcopy(case.get("original")), copy.deepcopy(case["patch"])
    result, problems = run(case)
    assert case.get("original") == original and case["patch"] == patch, "the inputs were changed"
    if "problems" in case:
        found = [{"path": list(p.path), "code": p.code} for p in problems]
        assert found == case["problems"], [p.message for p in problems]
        assert all(p.message and p.code in CODES for p in problems)
        return
    assert problems == [], problems
    assert canonical(result) == canonical(case["expected"])
    for check in case.get("origins", []):
        assert patch_origin(result, tuple(check["result"]), case["patch"]) == \
            (tuple(check["patch"]) if check["patch"] is not None else None), check


def test_the_result_shares_nothing_with_the_inputs() -> None:
    template = {"spec": {"containers": [{"name": "a", "env": [{"name": "X", "value": "1"}]}]}}
    patch = {"spec": {"containers": [{"name": "b", "ports": [{"containerPort": 80}]}], "volumes": [{"name": "v"}]}}
    result, _ = apply_pod_template_patch(template, patch)
    result["spec"]["containers"][0]["ports"].append({"containerPort": 81})
    result["spec"]["containers"][1]["env"][0]["value"] = "2"
    result["spec"]["volumes"][0]["emptyDir"] = {}
    assert patch == {"spec": {"containers": [{"name": "b", "ports": [{"containerPort": 80}]}], "volumes": [{"name": "v"}]}}
    assert template == {"spec": {"containers": [{"name": "a", "env": [{"name": "X", "value": "1"}]}]}}


def test_a_patch_that_is_not_a_mapping() -> None:
    template = {"spec": {"containers": [{"name": "a"}]}}
    for patch in ([], None, "spec: {}"):
        result, problems = apply_pod_template_patch(template, patch)
        assert result == template and [(p.path, p.code) for p in problems] == [((), "patch-type")]


def test_problems_say_what_to_write() -> None:
    _, problems = apply_pod_template_patch({"spec": {"containers": [{"name": "main", "image": "a"}]}},
                                           {"spec": {"containers": [{"image": "b"}]}})
    assert problems == [PatchProblem(("spec", "containers", 0), "patch-merge-key",
                                     "this item of spec.containers has no name: a strategic merge patch matches the "
                                     "items of spec.containers by their name, so name the item to change or add with "
                                     "`name: ...`")]


def test_the_strategies_are_kubernetes_own() -> None:
    from mpigen.patch.strategies import kubernetes_types

    types = kubernetes_types()
    spec = types["io.k8s.api.core.v1.PodSpec"]["fields"]
    assert (spec["containers"]["patchStrategy"], spec["containers"]["patchMergeKey"]) == ("merge", "name")
    assert (spec["volumes"]["patchStrategy"], spec["volumes"]["patchMergeKey"]) == ("merge,retainKeys", "name")
    assert "patchStrategy" not in spec["tolerations"] and spec["tolerations"]["shape"] == "list"
    ports = types["io.k8s.api.core.v1.Container"]["fields"]["ports"]
    assert ports["patchMergeKey"] == "containerPort"
    assert kubernetes_types() is types  # read once
