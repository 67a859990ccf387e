"""The PyTorchJob/TFJob half of the differential tests: training-operator v1.9.4 against mpigen.

The oracle ``tests/oracle/training-v1.9`` (see its ``main.go``) runs the real PyTorchJob and
TFJob reconcilers of training-operator v1.9.4 (webhook validation first) and prints the PodGroup
and the Pods and Services they created. Here each case is compared with
``mpigen.operator.training_podgroup`` on ``training_defaults.set_defaults(job)``:

* outcome: the operator creates its objects / panics / creates nothing (suspended) -- a job the
  webhook refuses is a disagreement too (the strategies only draw jobs it accepts);
* the PodGroup: apiVersion, kind, name, namespace, annotations, every spec field exactly, and
  minResources by value AND exact string, where the string (and with a minAvailable cut even the
  value) must be one of ``min_resources_outcomes`` -- Go's map iteration orders equal-priority
  replica types at random. When the operator took another outcome than mpigen's representative
  one, that is a note, not a disagreement;
* every Pod's gang decoration (schedulerName, group-name and task-spec annotations, pod-group
  label) per replica type, against ``decorate_pod_template``, and the number of Pods per type.

Used by ``harness.py`` (which owns the processes, the report and ``A/N cases agree``).
"""

from __future__ import annotations

import copy
from typing import Any, Iterator

from mpigen.operator import training_podgroup as tp
from mpigen.operator.podgroup import OperatorPanicError
from mpigen.operator.training_defaults import set_defaults

MODULE = "training-v1.9"
VERSION = "training-v1.9.4"
MAX_PODS = 2
# A TFJob's pods carry the whole cluster in TF_CONFIG: creating n of them costs the operator
# O(n^2). Above this many pods the oracle stops at the first Pod (the PodGroup is made before).
TFJOB_MAX_PODS = 1000
MAP_ORDER_NOTE = "training.podgroup.spec.minResources:equal-priority-order"
STORED_NOTE = "training.podgroup.spec.minResources:stored-as-json-beyond-int64"


def _stored(resources: dict[str, str]) -> dict[str, str]:
    """A resource list as read back from JSON storage: each quantity parsed again (capped)."""
    from mpigen.operator.quantity import Quantity

    return {name: str(Quantity.parse(text)) for name, text in resources.items()}


# Above this many pods a PyTorchJob's are not created either (10,000 take the oracle 10-20 s);
# a case can ask for them with "skipPods": false.
PYTORCHJOB_MAX_PODS = 2000


def skip_pods(case: dict) -> bool:
    if "skipPods" in case:
        return case["skipPods"]
    job = case["job"]
    specs = (job.get("spec") or {}).get(tp.REPLICA_SPECS_KEY[job["kind"]]) or {}
    pods = sum(max(1, r.get("replicas", 1)) for r in specs.values() if isinstance(r, dict))
    return pods > (TFJOB_MAX_PODS if job["kind"] == "TFJob" else PYTORCHJOB_MAX_PODS)


def request_of(case: dict) -> dict:
    return {"id": case["id"], "job": case["job"], "priorityClasses": case["priorityClasses"],
            "gang": case["gang"], "schedulerName": case["schedulerName"], "maxPods": MAX_PODS,
            "skipPods": skip_pods(case)}


def scheduler_name(case: dict) -> str:
    return case["schedulerName"] or "scheduler-plugins"  # what the oracle passes without one


def _decoration_of(template: dict, rtype: str) -> dict:
    meta = template.get("metadata") or {}
    annotations, labels = meta.get("annotations") or {}, meta.get("labels") or {}
    return {"replicaType": rtype.lower(), "schedulerName": (template.get("spec") or {}).get("schedulerName") or "",
            "groupAnnotation": annotations.get(tp.VOLCANO_GROUP_NAME_ANNOTATION),
            "taskSpec": annotations.get(tp.VOLCANO_TASK_SPEC_ANNOTATION),
            "groupLabel": labels.get(tp.SCHEDULER_PLUGINS_POD_GROUP_LABEL)}


def expected(case: dict) -> Any:
    """mpigen's view of the case, as a harness.Expected (imported late: no import cycle)."""
    from tests.oracle.harness import Expected

    gang = case["gang"]
    try:
        try:
            job = set_defaults(case["job"])
        except OperatorPanicError as e:
            return Expected("panic", str(e))
        if tp.skipped_reason(job):
            return Expected("skipped", tp.skipped_reason(job))
        pcs = {pc["name"]: pc["value"] for pc in case["priorityClasses"]}
        exp = Expected("ok")
        exp.podgroup = tp.podgroup(job, gang, pcs, scheduler_name(case))
        outcomes = tp.min_resources_outcomes(job, tp.calculate_min_member(job), pcs)
        exp.min_resources_variants = [{k: str(v) for k, v in sorted(o.items())} for o in outcomes]
        specs = tp.replica_specs(job)
        for rtype, replica in specs.items():
            template = tp.decorate_pod_template(replica.get("template") or {}, job["metadata"]["name"], rtype,
                                                gang, scheduler_name(case))
            exp.decorations[rtype.lower()] = _decoration_of(template, rtype)
            # core.CalculatePodSliceSize is max(highest index + 1, replicas) with no Pods yet: a
            # type with replicas 0 still gets Pod 0 in the first sync (deleted in the next one).
            exp.resources[rtype.lower()] = max(1, replica["replicas"])
        exp.workers = sum(exp.resources.values())
        return exp
    except Exception as e:  # a crash of mpigen's port is a disagreement, not a harness failure
        return Expected("mpigen-error", f"{type(e).__name__}: {e}")


def outcome(response: dict) -> str:
    """ok / panic / invalid (webhook) / error / skipped (no PodGroup, no Pod: suspended)."""
    error = response.get("error") or ""
    if error.startswith("panic:"):
        return "panic"
    if error.startswith("validation:"):
        return "invalid"
    if error:
        return "error"
    if response.get("podgroup") is None and not response["counts"].get("Pod"):
        return "skipped"
    return "ok"


def compare(case: dict, response: dict, exp: Any) -> list:
    from tests.oracle.harness import Disagreement, _quantity_maps_equal_by_value

    out: list = []

    def dis(key: str, detail: str, note: bool = False) -> None:
        out.append(Disagreement(case["id"], case["version"], key, detail, note=note))

    got = outcome(response)
    if exp.outcome == "mpigen-error":
        dis("mpigen-error", f"mpigen raised {exp.detail}; operator: {response.get('error') or 'ok'}")
        return out
    if got != exp.outcome:
        dis(f"outcome {got}/{exp.outcome}", f"operator: {response.get('error') or 'created its objects'}"
            + (f" [{response['panicAt']}]" if response.get("panicAt") else "") + f"; mpigen: {exp.detail or 'ok'}")
        return out
    if got != "ok":
        return out
    pg, want = response["podgroup"], exp.podgroup
    for key in ("apiVersion", "kind"):
        if pg.get(key) != want[key]:
            dis(f"podgroup.{key}", f"operator {pg.get(key)!r}, mpigen {want[key]!r}")
    meta = {k: v for k, v in pg["metadata"].items() if k in ("name", "namespace", "annotations")}
    if meta != want["metadata"]:
        dis("podgroup.metadata", f"operator {meta}, mpigen {want['metadata']}")
    got_spec, want_spec = dict(pg.get("spec") or {}), dict(want["spec"])
    got_min, want_min = got_spec.pop("minResources", None), want_spec.pop("minResources", None)
    for key in sorted(set(got_spec) | set(want_spec)):
        if got_spec.get(key) != want_spec.get(key):
            dis(f"podgroup.spec.{key}", f"operator {got_spec.get(key)!r}, mpigen {want_spec.get(key)!r}")
    if (got_min is None) != (want_min is None):
        # scheduler-plugins omits an empty sum: with equal priorities and a minAvailable cut another
        # order of the replica types can sum to nothing (or to something where mpigen's is empty)
        if (got_min or {}) in [v or {} for v in exp.min_resources_variants]:
            dis(MAP_ORDER_NOTE, f"operator {got_min}, mpigen {want_min}", note=True)
        else:
            dis("podgroup.spec.minResources", f"operator {got_min!r}, mpigen {want_min!r}")
    elif got_min is not None and got_min != want_min:
        if got_min in exp.min_resources_variants:
            dis(MAP_ORDER_NOTE, f"operator {got_min}, mpigen {want_min}", note=True)
        elif got_min in [_stored(v) for v in exp.min_resources_variants]:
            # The fake client keeps objects as JSON, as the API server does: reading them back parses
            # every quantity again, and ParseQuantity caps a binary-suffixed value above 2^63-1 at
            # 9223372036854775807. mpigen shows the computed value and warns (quantity-overflow).
            dis(STORED_NOTE, f"operator {got_min}, mpigen {want_min}", note=True)
        elif any(_quantity_maps_equal_by_value(got_min, v) for v in exp.min_resources_variants):
            dis("podgroup.spec.minResources.format", f"operator {got_min}, outcomes {exp.min_resources_variants}")
        else:
            dis("podgroup.spec.minResources.value", f"operator {got_min}, outcomes {exp.min_resources_variants}")
    if response.get("podsSkipped"):
        return out
    counts: dict[str, int] = {}
    for deco in response["decorations"]:
        rtype = deco["replicaType"]
        counts[rtype] = counts.get(rtype, 0) + deco["count"]
        got_deco = {k: deco[k] for k in ("replicaType", "schedulerName", "groupAnnotation", "taskSpec", "groupLabel")}
        if got_deco != exp.decorations.get(rtype):
            dis(f"decoration.{rtype}", f"operator {got_deco}, mpigen {exp.decorations.get(rtype)}")
    want_counts = {k: v for k, v in exp.resources.items() if v}
    if counts != want_counts:
        dis("pods.count", f"operator created {counts}, mpigen expects {want_counts}")
    return out


def coverage_keys(result: Any) -> Iterator[str]:
    kind = result.case["job"]["kind"]
    yield f"training outcome {outcome(result.response)}"
    if result.expected.podgroup is not None and outcome(result.response) == "ok":
        yield f"training podgroup {kind} {result.case['gang']}"
        if result.expected.podgroup["spec"].get("minResources"):
            yield f"training minResources {result.case['gang']}"
        if len(result.expected.min_resources_variants) > 1:
            yield "training minResources depends on map order"
        if result.expected.workers >= 1000:
            yield "training 1000+ pods" if not result.response.get("podsSkipped") else "training 1000+ replicas"


# ------------------------------------------------------------------ shrinking


def _specs_path(case: dict) -> tuple:
    return ("job", "spec", tp.REPLICA_SPECS_KEY[case["job"]["kind"]])


def candidates(case: dict) -> Iterator[dict]:
    """Smaller variants of a training case (they may leave the webhook's rules: then the oracle
    refuses them, which is another disagreement key, so the shrinker does not take them)."""
    from tests.oracle.harness import _replace

    path = _specs_path(case)
    specs = case["job"]["spec"][path[-1]]
    for rtype, replica in specs.items():
        n = replica.get("replicas")
        if isinstance(n, int):
            for smaller in sorted({0, 1, 2, n // 2, n - 1}):
                if 0 <= smaller < n:
                    yield _replace(case, path + (rtype, "replicas"), smaller)
    for i in range(len(case["priorityClasses"])):
        yield _replace(case, ("priorityClasses", i), delete=True)
    for rtype in specs:
        yield _replace(case, path + (rtype,), delete=True)
    spec = case["job"]["spec"]
    policy = (spec.get("runPolicy") or {}).get("schedulingPolicy")
    if policy is not None:
        yield _replace(case, ("job", "spec", "runPolicy", "schedulingPolicy"), delete=True)
        for key in policy:
            yield _replace(case, ("job", "spec", "runPolicy", "schedulingPolicy", key), delete=True)
    if "annotations" in case["job"]["metadata"]:
        yield _replace(case, ("job", "metadata", "annotations"), delete=True)
    for rtype, replica in specs.items():
        template = replica.get("template") or {}
        if "metadata" in template:
            yield _replace(case, path + (rtype, "template", "metadata"), delete=True)
        for key in [k for k in template.get("spec") or {} if k != "containers"]:
            yield _replace(case, path + (rtype, "template", "spec", key), delete=True)
        for i, container in enumerate(template["spec"]["containers"]):
            cpath = path + (rtype, "template", "spec", "containers", i)
            if len(template["spec"]["containers"]) > 1:
                yield _replace(case, cpath, delete=True)
            for part, values in (container.get("resources") or {}).items():
                yield _replace(case, cpath + ("resources", part), delete=True)
                for name in values or {}:
                    yield _replace(case, cpath + ("resources", part, name), delete=True)
            if "ports" in container:
                yield _replace(case, cpath + ("ports",), delete=True)


def shrink(case: dict, still_disagrees, budget: int = 800) -> dict:
    import json

    current = copy.deepcopy(case)
    progress = True
    while progress and budget > 0:
        progress = False
        for candidate in candidates(current):
            if len(json.dumps(candidate)) >= len(json.dumps(current)) and \
                    json.dumps(candidate) == json.dumps(current):
                continue
            budget -= 1
            if still_disagrees(candidate):
                current, progress = candidate, True
                break
            if budget <= 0:
                break
    return current
