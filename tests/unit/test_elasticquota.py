"""mpigen.scheduler.admission.elasticquota: scheduler-plugins v0.33.5's capacity scheduling, on the
cases of its ``pkg/capacityscheduling/capacity_scheduling_test.go`` (``TestPreFilter``), each named
after the upstream case: the same ElasticQuotas (min, max, what is used) and pod requests, and the
same PreFilter code (Success is "admits", Unschedulable a refusal)."""

from __future__ import annotations

import pytest
import yaml

from mpigen.load.cluster import Cluster, read_cluster
from mpigen.load.yaml_loader import load_text
from mpigen.operator.quantity import Quantity
from mpigen.scheduler.admission import job_admission
from mpigen.scheduler.admission.elasticquota import elastic_quota_verdict
from mpigen.scheduler.admission.verdict import ADMITS, CANNOT_ADMIT, MAY_NOT_ADMIT
from mpigen.scheduler.fit import Role
from mpigen.scheduler.nodes import PodShape


def quota(namespace: str, minimum: dict | None, maximum: dict | None) -> dict:
    spec = {k: v for k, v in (("min", minimum), ("max", maximum)) if v is not None}
    return {"apiVersion": "scheduling.x-k8s.io/v1alpha1", "kind": "ElasticQuota",
            "metadata": {"name": "quota", "namespace": namespace}, "spec": spec}


def pod(name: str, namespace: str, requests: dict, node: str | None = "node-a", priority: int = 0) -> dict:
    spec = {"containers": [{"name": "c", "resources": {"requests": requests}}], "priority": priority}
    if node:
        spec["nodeName"] = node
    return {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name, "namespace": namespace},
            "spec": spec, "status": {"phase": "Running" if node else "Pending"}}


def cluster_of(*objects: dict) -> Cluster:
    found, diagnostics = read_cluster(load_text(yaml.safe_dump_all(objects), "c.yaml").documents, "c.yaml")
    assert diagnostics == []
    return found


def one(requests: dict, count: int = 1) -> list[Role]:
    return [Role("worker", count, PodShape({k: Quantity.parse(v) for k, v in requests.items()}))]


NS1 = quota("ns1", {"memory": "1000"}, {"memory": "2000"})


@pytest.mark.parametrize("case, namespace, objects, memory, outcome", [
    ("pod subjects to ElasticQuota: ns1-p1", "ns1", [NS1, pod("used", "ns1", {"memory": "300"})], "500", ADMITS),
    ("pod subjects to ElasticQuota: ns1-p2", "ns1", [NS1, pod("used", "ns1", {"memory": "300"})], "1800",
     CANNOT_ADMIT),
    ("the sum of used is bigger than the sum of min", "ns2",
     [NS1, quota("ns2", {"memory": "1000"}, {"memory": "2000"}), pod("a", "ns1", {"memory": "1800"}),
      pod("b", "ns2", {"memory": "200"})], "500", MAY_NOT_ADMIT),  # PreFilter refuses; ns1 beyond its min may be preempted
    ("without elasticQuotaInfo", "ns2", [NS1, pod("used", "ns1", {"memory": "300"})], "500", None),
])
def test_prefilter(case: str, namespace: str, objects: list[dict], memory: str, outcome: str | None) -> None:
    verdict = elastic_quota_verdict(namespace, one({"memory": memory}), 0, cluster_of(*objects))
    assert (verdict.outcome if verdict else None) == outcome


def test_the_proof_names_max_use_and_need() -> None:
    verdict = elastic_quota_verdict("ns1", one({"memory": "1800"}), 0,
                                    cluster_of(NS1, pod("used", "ns1", {"memory": "300"})))
    assert verdict is not None and verdict.kind == "ElasticQuota" and verdict.queue == "ns1/quota"
    assert verdict.reasons == (
        "ElasticQuota ns1/quota: max 2000 memory, 300 in use by 1 Pod; this job's pods need 1800 (capacity "
        "scheduling PreFilter: \"is more than Max\"), and no preemption the plugin allows would make room: the pods "
        "stay Pending until enough of what uses the quota finishes",)


def test_a_max_without_cpu_refuses_every_cpu_request() -> None:
    """newElasticQuotaInfo: a max that lists no cpu is 0 cpu (cmp2 compares MilliCPU always)."""
    found = cluster_of(quota("ns1", {"nvidia.com/gpu": "8"}, {"nvidia.com/gpu": "8"}))
    verdict = elastic_quota_verdict("ns1", one({"cpu": "1", "nvidia.com/gpu": "4"}), 0, found)
    assert verdict is not None and verdict.outcome == CANNOT_ADMIT
    assert "max lists no cpu (the plugin takes 0)" in verdict.reasons[0]
    assert elastic_quota_verdict("ns1", one({"nvidia.com/gpu": "4"}, 2), 0, found).outcome == ADMITS
    assert elastic_quota_verdict("ns1", one({"nvidia.com/gpu": "4"}, 3), 0, found).outcome == CANNOT_ADMIT


def test_no_min_is_a_min_of_zero() -> None:
    """makeResourceListForBound(LowerBoundOfMin): the sum of min is then 0 of everything, and
    aggregatedUsedOverMinWith refuses any request (a scalar min lacks counts as 0 too)."""
    found = cluster_of(quota("ns1", None, {"cpu": "8", "nvidia.com/gpu": "8"}))
    verdict = elastic_quota_verdict("ns1", one({"nvidia.com/gpu": "1"}), 0, found)
    assert verdict is not None and verdict.outcome == CANNOT_ADMIT
    assert verdict.reasons[0].startswith("the min of the 1 ElasticQuota adds up to 0 nvidia.com/gpu, 0 in use; this job's "
                                         "pods need 1 (capacity scheduling PreFilter: \"total ElasticQuota used is "
                                         "more than min\")")


def test_in_namespace_preemption() -> None:
    """capacity_scheduling_test.go "in-namespace preemption" (TestSelectVictimsOnNode): over its min,
    the pod may evict lower-priority pods of its own namespace."""
    found = cluster_of(quota("ns1", {"cpu": "5"}, {"cpu": "5"}), pod("low", "ns1", {"cpu": "4"}, priority=0),
                       pod("high", "ns1", {"cpu": "1"}, priority=100))
    verdict = elastic_quota_verdict("ns1", one({"cpu": "3"}), 50, found)
    assert verdict is not None and verdict.outcome == MAY_NOT_ADMIT
    assert verdict.reasons[1] == "only preemption could make room: the plugin may evict lower-priority Pods of its " \
                                 "namespace (ns1/low)"


def test_cross_namespace_preemption() -> None:
    """capacity_scheduling_test.go "cross-namespace preemption": within its own min, the pod may evict
    pods of namespaces that use more than their min."""
    found = cluster_of(quota("ns1", {"cpu": "5"}, {"cpu": "10"}), quota("ns2", {"cpu": "5"}, {"cpu": "10"}),
                       pod("borrowing", "ns2", {"cpu": "8"}))
    verdict = elastic_quota_verdict("ns1", one({"cpu": "4"}), 0, found)
    assert verdict is not None and verdict.outcome == MAY_NOT_ADMIT
    assert "Pods of namespaces beyond their min (ns2/borrowing)" in verdict.reasons[1]


def test_the_entry_point_picks_capacity_scheduling_for_the_secondary_scheduler() -> None:
    found = cluster_of(NS1, pod("used", "ns1", {"memory": "300"}))
    job = {"apiVersion": "kubeflow.org/v2beta1", "kind": "MPIJob", "metadata": {"name": "j", "namespace": "ns1"},
           "spec": {"mpiReplicaSpecs": {"Worker": {"replicas": 2}}}}

    def worker(scheduler: str) -> dict:
        return {"apiVersion": "v1", "kind": "Pod",
                "metadata": {"name": "j-worker-0", "labels": {"training.kubeflow.org/replica-type": "worker"}},
                "spec": {"schedulerName": scheduler,
                         "containers": [{"name": "c", "resources": {"requests": {"memory": "900"}}}]}}

    verdict = job_admission(job, [worker("scheduler-plugins-scheduler")], found)
    assert verdict is not None and verdict.outcome == CANNOT_ADMIT  # 300 + 2 x 900 > 1000 + 0 (the sum of min)
    assert job_admission(job, [worker("default-scheduler")], found) is None
