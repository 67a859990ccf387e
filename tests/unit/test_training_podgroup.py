"""mpigen.operator.training_podgroup: training-operator v1.9.4's gang rules for PyTorchJob/TFJob.

Part 1 runs the upstream cases in ``tests/cases/upstream_training`` (training-operator v1.9.4 has
no unit test of CalcPGMinResources or of the PodGroup spec; its gang tests are
``TestIsCustomSchedulerSet`` and the envtest specs on suspended / externally managed jobs). The
PodGroup itself is checked against the real controller by ``tests/oracle`` (differential).
Part 2 holds mpigen's cases, one per rule of the module docstring.
"""

from __future__ import annotations

import random

import pytest

from mpigen.operator import training_podgroup as tp
from mpigen.operator.quantity import Quantity
from mpigen.operator.training_defaults import set_defaults
from tests.upstream_training import cases as _cases


@pytest.mark.parametrize("case", _cases("TestIsCustomSchedulerSet"))
def test_upstream_is_custom_scheduler_set(case: dict) -> None:
    job = {"kind": "TFJob", "spec": {"tfReplicaSpecs": case["specs"]}}
    assert bool(tp.custom_scheduler_set(job, case["gang_scheduler_name"])) is case["want"]


@pytest.mark.parametrize("case", _cases("PyTorchJobController"))
def test_upstream_pytorchjob_controller_creates_nothing_when(case: dict) -> None:
    job = _job("PyTorchJob", {"Master": (1, None), "Worker": (1, None)})
    job["spec"]["runPolicy"] = case["run_policy"]
    assert (tp.skipped_reason(set_defaults(job)) is not None) is case["skipped"]


# ------------------------------------------------------------------ mpigen's cases


def _job(kind: str, specs: dict, policy: dict | None = None, annotations: dict | None = None) -> dict:
    key, name = {"PyTorchJob": ("pytorchReplicaSpecs", "pytorch"), "TFJob": ("tfReplicaSpecs", "tensorflow")}[kind]
    replica_specs = {}
    for rtype, (replicas, resources, *pc) in specs.items():
        containers = resources if isinstance(resources, list) else [resources]
        pod: dict = {"containers": [{"name": name, "image": "i", **({"resources": r} if r is not None else {})}
                                    for r in containers]}
        if pc:
            pod["priorityClassName"] = pc[0]
        replica_specs[rtype] = {"template": {"spec": pod}}
        if replicas is not None:
            replica_specs[rtype]["replicas"] = replicas
    spec: dict = {key: replica_specs}
    if policy is not None:
        spec["runPolicy"] = {"schedulingPolicy": policy}
    meta: dict = {"name": "job", "namespace": "ns"}
    if annotations:
        meta["annotations"] = annotations
    return {"apiVersion": "kubeflow.org/v1", "kind": kind, "metadata": meta, "spec": spec}


def _strings(resources: dict) -> dict:
    return {k: str(v) for k, v in resources.items()}


def test_min_member_is_the_sum_of_replicas_unset_counting_one() -> None:
    job = _job("TFJob", {"PS": (2, None), "Worker": (None, None), "Evaluator": (0, None)})
    assert tp.calculate_min_member(job) == 3
    assert tp.calculate_min_member(set_defaults(job)) == 3
    job["spec"]["runPolicy"] = {"schedulingPolicy": {"minAvailable": 0}}
    assert tp.calculate_min_member(job) == 0


def test_queue_and_priority_class() -> None:
    job = _job("PyTorchJob", {"Worker": (1, None, "high")}, annotations={"scheduling.volcano.sh/queue-name": "q"})
    assert tp.calculate_queue(job, tp.GANG_VOLCANO) == "default"  # the annotation is not read
    assert tp.calculate_queue(job, tp.GANG_SCHEDULER_PLUGINS) is None
    assert tp.calculate_priority_class(job) is None  # never the template's
    job["spec"]["runPolicy"] = {"schedulingPolicy": {"queue": "research", "priorityClass": "p"}}
    assert tp.calculate_queue(job, tp.GANG_VOLCANO) == "research"
    assert tp.calculate_priority_class(job) == "p"
    with pytest.raises(ValueError):
        tp.calculate_queue(job, "kueue")


def test_limits_only_when_requests_are_absent() -> None:
    job = _job("TFJob", {"Worker": (2, [{"requests": {"cpu": "1"}, "limits": {"cpu": "4", "memory": "1Gi"}},
                                        {"limits": {"cpu": "2", "memory": "1Gi"}},
                                        {"requests": {}, "limits": {"nvidia.com/gpu": "1"}},
                                        {"requests": None, "limits": {"example.com/x": "3"}}])})
    got = tp.calculate_min_resources(job, 2, {})
    assert _strings(got) == {"cpu": "6", "memory": "2Gi", "example.com/x": "6"}


def test_priority_order_and_the_min_member_cut() -> None:
    job = _job("TFJob", {"PS": (2, {"requests": {"cpu": "1"}}, "low"),
                         "Worker": (3, {"requests": {"cpu": "10"}}, "high")})
    pcs = {"low": 1, "high": 100}
    assert _strings(tp.calculate_min_resources(job, 4, pcs)) == {"cpu": "31"}  # 3 workers, then 1 PS
    assert _strings(tp.calculate_min_resources(job, 0, pcs)) == {}
    assert _strings(tp.calculate_min_resources(job, -1, pcs)) == {}
    assert _strings(tp.calculate_min_resources(job, 99, pcs)) == {"cpu": "32"}
    assert len(tp.min_resources_outcomes(job, 4, pcs)) == 1


def test_zero_replicas_add_nothing() -> None:
    job = _job("TFJob", {"PS": (0, {"requests": {"cpu": "1"}}), "Worker": (1, {"requests": {"memory": "1Gi"}})})
    assert _strings(tp.calculate_min_resources(job, 5, {})) == {"memory": "1Gi"}


def test_explicit_min_resources_win() -> None:
    job = _job("TFJob", {"Worker": (1, {"requests": {"cpu": "1"}})}, {"minResources": {"cpu": "500m"}})
    assert _strings(tp.calculate_min_resources(job, 1, {})) == {"cpu": "500m"}
    assert tp.min_resources_outcomes(job, 1, {}) == [{"cpu": Quantity.parse("500m")}]


def test_equal_priorities_give_every_order() -> None:
    job = _job("TFJob", {"PS": (1, {"requests": {"cpu": "1"}}), "Worker": (3, {"requests": {"cpu": "2"}})},
               {"minAvailable": 2})
    outcomes = [_strings(o) for o in tp.min_resources_outcomes(job, 2, {})]
    assert outcomes == [{"cpu": "3"}, {"cpu": "4"}]  # the document's order first
    assert _strings(tp.calculate_min_resources(job, 2, {})) == outcomes[0]


def test_formats_follow_go_add() -> None:
    one = _job("TFJob", {"Worker": (1, {"requests": {"memory": "01Gi"}})})
    assert str(tp.calculate_min_resources(one, 1, {})["memory"]) == str(Quantity.parse("01Gi"))
    mixed = _job("TFJob", {"PS": (1, {"requests": {"memory": "1Gi"}}), "Worker": (2, {"requests": {"memory": "1000M"}})})
    outcomes = {str(o["memory"]) for o in tp.min_resources_outcomes(mixed, 3, {})}
    assert outcomes == {"3001701Ki", "3073741824"}  # the first operand's format
    zero = _job("TFJob", {"PS": (1, [{"requests": {"cpu": "1"}}, {"requests": {"cpu": "-1"}}, {"requests": {"cpu": "2Ki"}}])})
    assert str(tp.calculate_min_resources(zero, 1, {})["cpu"]) == "2Ki"  # Add to a zero takes the addend's format


def _naive(entries: list[tuple[int, list[dict]]], min_member: int) -> dict[str, Quantity]:
    """CalcPGMinResources pod by pod, as Go loops (DeepCopy of the first, Add after)."""
    result: dict[str, Quantity] = {}
    count = 0
    for replicas, containers in entries:
        for _ in range(replicas):
            if count >= min_member:
                break
            count += 1
            for resources in containers:
                for name, raw in resources.items():
                    q = Quantity.parse(raw)
                    result[name] = q if name not in result else result[name].add(q)
    return result


@pytest.mark.parametrize("seed", range(40))
def test_closed_form_sum_equals_the_pod_by_pod_loop(seed: int) -> None:
    rng = random.Random(seed)
    values = ["0", "1", "-1", "2Ki", "-2Ki", "500m", "1e3", "1G", "-1G", "3", "0.5Gi"]
    entries = []
    specs = {}
    for rtype in ("PS", "Worker", "Evaluator")[:rng.randint(1, 3)]:
        containers = [{name: rng.choice(values) for name in rng.sample(["cpu", "memory"], rng.randint(1, 2))}
                      for _ in range(rng.randint(1, 3))]
        replicas = rng.randint(0, 5)
        entries.append((replicas, containers))
        specs[rtype] = (replicas, [{"requests": c} for c in containers])
    min_member = rng.randint(0, 12)
    got = tp.calculate_min_resources(_job("TFJob", specs), min_member, {})
    want = _naive(entries, min_member)
    assert _strings(got) == _strings(want)
    assert all(got[k].format == want[k].format for k in want)


def test_podgroup_volcano_and_scheduler_plugins() -> None:
    job = set_defaults(_job("PyTorchJob", {"Master": (1, {"requests": {"cpu": "1"}}),
                                           "Worker": (2, {"limits": {"cpu": "2"}})},
                            {"priorityClass": "p", "scheduleTimeoutSeconds": 30}, annotations={"a": "b"}))
    assert tp.podgroup(job, tp.GANG_VOLCANO, {}) == {
        "apiVersion": "scheduling.volcano.sh/v1beta1", "kind": "PodGroup",
        "metadata": {"name": "job", "namespace": "ns", "annotations": {"a": "b"}},
        "spec": {"minMember": 3, "queue": "default", "priorityClassName": "p", "minResources": {"cpu": "5"}}}
    assert tp.podgroup(job, tp.GANG_SCHEDULER_PLUGINS, {}, "sp") == {
        "apiVersion": "scheduling.x-k8s.io/v1alpha1", "kind": "PodGroup",
        "metadata": {"name": "job", "namespace": "ns", "annotations": {"a": "b"}},
        "spec": {"minMember": 3, "minResources": {"cpu": "5"}, "scheduleTimeoutSeconds": 30}}


def test_podgroup_with_nothing_to_count() -> None:
    job = set_defaults(_job("TFJob", {"Worker": (1, None)}, {"minAvailable": 0}))
    assert tp.podgroup(job, tp.GANG_VOLCANO, {})["spec"] == {"queue": "default", "minResources": {}}
    assert tp.podgroup(job, tp.GANG_SCHEDULER_PLUGINS, {})["spec"] == {}


def test_decorate_pod_template() -> None:
    template = {"metadata": {"labels": {"a": "b"}}, "spec": {"containers": []}}
    volcano = tp.decorate_pod_template(template, "job", "Worker", tp.GANG_VOLCANO)
    assert volcano["spec"]["schedulerName"] == "volcano"
    assert volcano["metadata"]["annotations"] == {"scheduling.k8s.io/group-name": "job", "volcano.sh/task-spec": "worker"}
    plugins = tp.decorate_pod_template(template, "job", "PS", tp.GANG_SCHEDULER_PLUGINS, "coscheduler")
    assert plugins["spec"]["schedulerName"] == "coscheduler"
    assert plugins["metadata"]["labels"] == {"a": "b", "scheduling.x-k8s.io/pod-group": "job"}
    assert template == {"metadata": {"labels": {"a": "b"}}, "spec": {"containers": []}}
    custom = {"spec": {"schedulerName": "default-scheduler"}}
    assert tp.decorate_pod_template(custom, "job", "PS", tp.GANG_VOLCANO)["spec"]["schedulerName"] == "default-scheduler"
    assert tp.decorate_pod_template({}, "job", "PS", tp.GANG_SCHEDULER_PLUGINS)["spec"]["schedulerName"] == \
        "scheduler-plugins-scheduler"


def test_null_replica_spec_is_an_operator_panic() -> None:
    with pytest.raises(tp.OperatorPanicError):
        tp.calculate_min_member({"kind": "TFJob", "spec": {"tfReplicaSpecs": {"PS": None}}})
