"""mpigen.scheduler.admission.kueue: whether Kueue v0.19.2 admits a job's Workload, from the objects
of a cluster file (read by mpigen.load.cluster in v1beta1 or v1beta2).

The cases named after Kueue's ``pkg/scheduler/scheduler_test.go`` (``TestSchedule``) take its
ClusterQueues, cohorts, LocalQueues and Workloads, and expect its outcome: the Workload admitted
(and on which flavor), or left inadmissible with its message.
"""

from __future__ import annotations

from typing import Any

import pytest
import yaml

from mpigen.load.cluster import Cluster, read_cluster
from mpigen.load.yaml_loader import load_text
from mpigen.operator.quantity import Quantity
from mpigen.scheduler.admission import job_admission
from mpigen.scheduler.admission.verdict import ADMITS, CANNOT_ADMIT, MAY_NOT_ADMIT
from mpigen.scheduler.fit import Role
from mpigen.scheduler.nodes import PodShape

V1B2, V1B1 = "kueue.x-k8s.io/v1beta2", "kueue.x-k8s.io/v1beta1"


def flavor(name: str, labels: dict | None = None, taints: list | None = None) -> dict:
    spec: dict = {}
    if labels:
        spec["nodeLabels"] = labels
    if taints:
        spec["nodeTaints"] = taints
    return {"apiVersion": V1B2, "kind": "ResourceFlavor", "metadata": {"name": name}, "spec": spec}


def cluster_queue(name: str, flavors: dict[str, dict[str, Any]], cohort: str = "", api: str = V1B2,
                  selector: dict | None = None, **spec: Any) -> dict:
    """``flavors``: flavor -> resource -> nominal quota, or a mapping of nominalQuota, borrowingLimit,
    lendingLimit."""
    resources = list(dict.fromkeys(r for quotas in flavors.values() for r in quotas))
    group = {"coveredResources": resources, "flavors": [
        {"name": f, "resources": [{"name": r, **(q if isinstance(q, dict) else {"nominalQuota": q})}
                                  for r, q in quotas.items()]} for f, quotas in flavors.items()]}
    body = {"namespaceSelector": {} if selector is None else selector, "resourceGroups": [group], **spec}
    if cohort:
        body["cohort" if api == V1B1 else "cohortName"] = cohort
    return {"apiVersion": api, "kind": "ClusterQueue", "metadata": {"name": name}, "spec": body}


def local_queue(name: str, namespace: str, cq: str, **spec: Any) -> dict:
    return {"apiVersion": V1B2, "kind": "LocalQueue", "metadata": {"name": name, "namespace": namespace},
            "spec": {"clusterQueue": cq, **spec}}


def cohort(name: str, parent: str = "", **spec: Any) -> dict:
    return {"apiVersion": V1B2, "kind": "Cohort", "metadata": {"name": name},
            "spec": {**({"parentName": parent} if parent else {}), **spec}}


def admitted(name: str, namespace: str, cq: str, usage: dict[str, str], flavor_name: str = "default",
             priority: int = 0) -> dict:
    return {"apiVersion": V1B2, "kind": "Workload", "metadata": {"name": name, "namespace": namespace},
            "spec": {"priority": priority, "queueName": "x"},
            "status": {"conditions": [{"type": "QuotaReserved", "status": "True"}],
                       "admission": {"clusterQueue": cq, "podSetAssignments": [
                           {"name": "main", "flavors": {r: flavor_name for r in usage}, "resourceUsage": usage,
                            "count": 1}]}}}


def namespace(name: str, **labels: str) -> dict:
    return {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": name, "labels": labels}}


def cluster_of(*objects: dict) -> Cluster:
    loaded = load_text(yaml.safe_dump_all(objects), "cluster.yaml")
    found, diagnostics = read_cluster(loaded.documents, "cluster.yaml")
    assert diagnostics == [], [d.format() for d in diagnostics]
    return found


def job(queue: str | None, namespace_name: str = "eng-alpha", **labels: str) -> dict:
    if queue:
        labels["kueue.x-k8s.io/queue-name"] = queue
    return {"apiVersion": "kubeflow.org/v2beta1", "kind": "MPIJob",
            "metadata": {"name": "job", "namespace": namespace_name, "labels": labels}, "spec": {}}


def roles(*counts: tuple[str, int, dict[str, str]]) -> list[Role]:
    return [Role(name, count, PodShape({r: Quantity.parse(v) for r, v in requests.items()}))
            for name, count, requests in counts]


def judge(the_job: dict, pods: list[Role], *objects: dict):
    """Kueue's verdict through the one entry point (the roles stand for the created pods)."""
    from mpigen.scheduler.admission import kueue_verdict

    found = cluster_of(*objects)
    verdict = kueue_verdict(the_job, pods, found)
    assert verdict is not None
    return verdict


MAIN_4 = roles(("main", 1, {"cpu": "4"}))
ENG = namespace("eng-alpha", dep="eng")


def test_hierarchical_cohort_respects_lending_limit_when_borrowing() -> None:
    """scheduler_test.go "hierarchical cohort respects lending limit when borrowing": the lender
    keeps 7 of its 10, the borrower used its 5; 4 more do not fit the 3 lent."""
    selector = {"matchExpressions": [{"key": "dep", "operator": "In", "values": ["eng"]}]}
    verdict = judge(job("lq-borrower"), MAIN_4, ENG, flavor("on-demand"),
                    cohort("root"), cohort("child", "root"),
                    cluster_queue("cq-lender", {"on-demand": {"cpu": {"nominalQuota": "10", "lendingLimit": "3"}}},
                                  "child", selector=selector),
                    cluster_queue("cq-borrower", {"on-demand": {"cpu": {"nominalQuota": "5", "borrowingLimit": "10"}}},
                                  "child", selector=selector),
                    local_queue("lq-lender", "eng-alpha", "cq-lender"),
                    local_queue("lq-borrower", "eng-alpha", "cq-borrower"),
                    admitted("wl-existing", "eng-alpha", "cq-borrower", {"cpu": "5"}, "on-demand"))
    assert verdict.outcome == CANNOT_ADMIT
    assert verdict.reasons[0] == (
        "ClusterQueue cq-borrower: nominalQuota 5 cpu on flavor on-demand, borrowingLimit 10, 5 in use by 1 Workload "
        "(eng-alpha/wl-existing), cohort child can lend 3 now (at most 3); this job needs 4")
    assert verdict.reasons[-1] == ('Kueue: "couldn\'t assign flavors to pod set main: insufficient unused quota for cpu '
                                   'in flavor on-demand, 1 more needed"')


def test_hierarchical_cohort_allows_borrowing_up_to_lending_limit() -> None:
    """scheduler_test.go "hierarchical cohort allows borrowing up to lending limit": 3 fit the 3 lent."""
    verdict = judge(job("lq-borrower"), roles(("main", 1, {"cpu": "3"})), ENG, flavor("on-demand"),
                    cohort("root"), cohort("child", "root"),
                    cluster_queue("cq-lender", {"on-demand": {"cpu": {"nominalQuota": "10", "lendingLimit": "3"}}},
                                  "child"),
                    cluster_queue("cq-borrower", {"on-demand": {"cpu": {"nominalQuota": "5", "borrowingLimit": "10"}}},
                                  "child"),
                    local_queue("lq-borrower", "eng-alpha", "cq-borrower"),
                    admitted("wl-existing", "eng-alpha", "cq-borrower", {"cpu": "5"}, "on-demand"))
    assert verdict.outcome == ADMITS
    assert verdict.reasons == ("ClusterQueue cq-borrower admits it now, borrowing 3 cpu of flavor on-demand from "
                               "cohort child: main (1): flavor on-demand for cpu",)


def test_workload_exceeds_lending_limit_when_borrow_in_cohort() -> None:
    """scheduler_test.go "workload exceeds lending limit when borrow in cohort" (its ClusterQueues
    lend-a, 3 cpu lending at most 2, and lend-b, 2 cpu lending 2, all used): 3 more cpu are 1 more
    than the cohort has left."""
    verdict = judge(job("lend-b-queue", "lend"), roles(("main", 1, {"cpu": "3"})), namespace("lend"),
                    flavor("default"),
                    cluster_queue("lend-a", {"default": {"cpu": {"nominalQuota": "3", "lendingLimit": "2"}}}, "lend"),
                    cluster_queue("lend-b", {"default": {"cpu": {"nominalQuota": "2", "lendingLimit": "2"}}}, "lend"),
                    local_queue("lend-b-queue", "lend", "lend-b"),
                    admitted("a", "lend", "lend-b", {"cpu": "2000m"}))
    assert verdict.outcome == CANNOT_ADMIT
    assert verdict.reasons[0].startswith("ClusterQueue lend-b: nominalQuota 2 cpu on flavor default, lendingLimit 2, "
                                         "2 in use by 1 Workload (lend/a), cohort lend can lend 2 now (at most 2)")
    assert verdict.reasons[-1] == ('Kueue: "couldn\'t assign flavors to pod set main: insufficient unused quota for '
                                   'cpu in flavor default, 1 more needed"')


def test_admit_in_same_cohort_with_no_borrowing() -> None:
    """scheduler_test.go "admit in same cohort with no borrowing": within the nominal quota."""
    verdict = judge(job("main"), roles(("one", 1, {"cpu": "40"})), namespace("eng-alpha"), flavor("default"),
                    cluster_queue("eng-alpha", {"default": {"cpu": "50"}}, "eng"),
                    cluster_queue("eng-beta", {"default": {"cpu": "50"}}, "eng"),
                    local_queue("main", "eng-alpha", "eng-alpha"))
    assert verdict.outcome == ADMITS and "within its nominal quota" in verdict.reasons[0]


def test_the_issue_example_a_cluster_queue_at_its_nominal_quota() -> None:
    """The proof the issue asks for: nominal 8 GPUs, 8 used by one Workload, nothing to borrow."""
    verdict = judge(job("team-a"), roles(("worker", 2, {"nvidia.com/gpu": "8"})), namespace("eng-alpha"),
                    flavor("a100"), cluster_queue("team-a", {"a100": {"nvidia.com/gpu": "8"}}),
                    local_queue("team-a", "eng-alpha", "team-a"),
                    admitted("other", "eng-alpha", "team-a", {"nvidia.com/gpu": "8"}, "a100"))
    assert verdict.outcome == CANNOT_ADMIT
    assert verdict.reasons[0] == (
        "ClusterQueue team-a: nominalQuota 8 nvidia.com/gpu on flavor a100, 8 in use by 1 Workload (eng-alpha/other), "
        "no cohort to borrow from; this job needs 16, so the Workload stays pending however little else runs")
    assert verdict.message().startswith("LocalQueue eng-alpha/team-a cannot admit the Workload (Kueue v0.19.2's ")


def test_only_preemption_of_a_lower_priority_workload_makes_room() -> None:
    """preemption.withinClusterQueue LowerPriority: the admitted Workload of priority 0 may go."""
    verdict = judge(job("team-a", **{"kueue.x-k8s.io/priority-class": "high"}),
                    roles(("worker", 1, {"nvidia.com/gpu": "8"})), namespace("eng-alpha"), flavor("a100"),
                    {"apiVersion": V1B2, "kind": "WorkloadPriorityClass", "metadata": {"name": "high"}, "value": 100},
                    cluster_queue("team-a", {"a100": {"nvidia.com/gpu": "8"}},
                                  preemption={"withinClusterQueue": "LowerPriority"}),
                    local_queue("team-a", "eng-alpha", "team-a"),
                    admitted("low", "eng-alpha", "team-a", {"nvidia.com/gpu": "8"}, "a100", priority=0),
                    admitted("same", "eng-alpha", "team-a", {"nvidia.com/gpu": "0"}, "a100", priority=100))
    assert verdict.outcome == MAY_NOT_ADMIT
    assert "only preemption could make room: Kueue would evict some of eng-alpha/low (priority 0, ClusterQueue " \
           "team-a)" in verdict.reasons[1]


def test_no_preemption_without_a_policy() -> None:
    """The same with withinClusterQueue Never (the default): it waits, an error."""
    verdict = judge(job("team-a"), roles(("worker", 1, {"nvidia.com/gpu": "8"})), namespace("eng-alpha"),
                    flavor("a100"), cluster_queue("team-a", {"a100": {"nvidia.com/gpu": "8"}}),
                    local_queue("team-a", "eng-alpha", "team-a"),
                    admitted("low", "eng-alpha", "team-a", {"nvidia.com/gpu": "4"}, "a100"))
    assert verdict.outcome == CANNOT_ADMIT
    assert "no admitted Workload that Kueue may preempt (preemption.withinClusterQueue Never" in verdict.reasons[1]


@pytest.mark.parametrize("objects, said", [
    ([], "LocalQueue eng-alpha/team-a does not exist (the LocalQueues of namespace eng-alpha: other)"),
    ([local_queue("team-a", "eng-alpha", "missing")], "ClusterQueue missing of LocalQueue eng-alpha/team-a does "
                                                      "not exist"),
    ([local_queue("team-a", "eng-alpha", "cq", stopPolicy="Hold")], "LocalQueue eng-alpha/team-a is stopped "
                                                                    "(spec.stopPolicy Hold)"),
    ([local_queue("team-a", "eng-alpha", "stopped")], "ClusterQueue stopped is inactive: it is stopped "
                                                      "(spec.stopPolicy HoldAndDrain)"),
    ([local_queue("team-a", "eng-alpha", "nothing")], "ClusterQueue nothing's namespaceSelector null (no namespace) "
                                                      "does not select namespace eng-alpha"),
    ([local_queue("team-a", "eng-alpha", "prod-only")], "ClusterQueue prod-only's namespaceSelector {'matchLabels': "
                                                        "{'env': 'prod'}} does not select namespace eng-alpha"),
    ([local_queue("team-a", "eng-alpha", "no-flavor")], "ClusterQueue no-flavor is inactive: it references missing "
                                                        "ResourceFlavor(s): h100"),
], ids=["no LocalQueue", "no ClusterQueue", "LocalQueue stopped", "ClusterQueue stopped",
        "null namespaceSelector", "namespaceSelector excludes", "missing flavor"])
def test_a_queue_that_admits_nothing(objects: list[dict], said: str) -> None:
    nothing = cluster_queue("nothing", {"a100": {"cpu": "8"}})
    nothing["spec"].pop("namespaceSelector")
    verdict = judge(job("team-a"), MAIN_4, namespace("eng-alpha"), flavor("a100"), *objects,
                    local_queue("other", "eng-alpha", "cq"), cluster_queue("cq", {"a100": {"cpu": "8"}}),
                    cluster_queue("stopped", {"a100": {"cpu": "8"}}, stopPolicy="HoldAndDrain"), nothing,
                    cluster_queue("prod-only", {"a100": {"cpu": "8"}}, selector={"matchLabels": {"env": "prod"}}),
                    cluster_queue("no-flavor", {"h100": {"cpu": "8"}}))
    assert verdict.outcome == CANNOT_ADMIT and said in verdict.reasons[-1]


def test_v1beta1_cohort_and_the_default_local_queue() -> None:
    """v1beta1 names the cohort spec.cohort; a job without the queue label in a namespace with a
    LocalQueue default gets that one (Kueue's webhook)."""
    verdict = judge(job(None), roles(("main", 1, {"cpu": "6"})), namespace("eng-alpha"), flavor("default"),
                    cluster_queue("a", {"default": {"cpu": "4"}}, "c", api=V1B1),
                    cluster_queue("b", {"default": {"cpu": "4"}}, "c", api=V1B1),
                    local_queue("default", "eng-alpha", "a"))
    assert verdict.outcome == ADMITS and verdict.queue == "eng-alpha/default"
    assert "Kueue's webhook gives it the LocalQueue default" in verdict.reasons[0]
    assert "borrowing 2 cpu of flavor default from cohort c" in verdict.reasons[1]


def test_a_flavor_the_pods_do_not_tolerate_is_skipped() -> None:
    verdict = judge(job("q"), MAIN_4, namespace("eng-alpha"),
                    flavor("spot", taints=[{"key": "instance", "value": "spot", "effect": "NoSchedule"}]),
                    flavor("on-demand"), cluster_queue("cq", {"spot": {"cpu": "8"}, "on-demand": {"cpu": "8"}}),
                    local_queue("q", "eng-alpha", "cq"))
    assert verdict.outcome == ADMITS and "main (1): flavor on-demand for cpu" in verdict.reasons[0]
    verdict = judge(job("q"), MAIN_4, namespace("eng-alpha"),
                    flavor("spot", taints=[{"key": "instance", "value": "spot", "effect": "NoSchedule"}]),
                    cluster_queue("cq", {"spot": {"cpu": "8"}}), local_queue("q", "eng-alpha", "cq"))
    assert verdict.outcome == CANNOT_ADMIT
    assert verdict.reasons[-1] == ('Kueue: "couldn\'t assign flavors to pod set main: untolerated taint '
                                   '{instance spot NoSchedule <nil>} in flavor spot"')


def test_the_entry_point_picks_kueue_for_a_labelled_job() -> None:
    found = cluster_of(namespace("eng-alpha"), flavor("default"), cluster_queue("cq", {"default": {"cpu": "8"}}),
                       local_queue("q", "eng-alpha", "cq"))
    pod = {"apiVersion": "v1", "kind": "Pod",
           "metadata": {"name": "job-worker-0", "labels": {"training.kubeflow.org/replica-type": "worker"}},
           "spec": {"containers": [{"name": "c", "resources": {"requests": {"cpu": "3"}}}]}}
    the_job = job("q")
    the_job["spec"] = {"mpiReplicaSpecs": {"Worker": {"replicas": 2}}}
    verdict = job_admission(the_job, [pod], found)
    assert verdict is not None and verdict.kind == "LocalQueue" and verdict.outcome == ADMITS
    assert "worker (2): flavor default for cpu" in verdict.reasons[0]
    assert job_admission(job(None), [pod], found) is None  # no label, no default LocalQueue
    assert job_admission(the_job, [pod], cluster_of(namespace("x"))) is None  # no Kueue queues in the cluster


def test_the_jobs_own_workload_is_left_out() -> None:
    """A job already submitted (diagnose reads the live cluster): its own Workload, pending or
    admitted, is neither ahead of it nor in the way."""
    own = admitted("mpijob-job-1a2b3", "eng-alpha", "cq", {"cpu": "4"})
    own["metadata"]["ownerReferences"] = [{"apiVersion": "kubeflow.org/v2beta1", "kind": "MPIJob", "name": "job",
                                           "controller": True, "uid": "u"}]
    objects = (namespace("eng-alpha"), flavor("default"), cluster_queue("cq", {"default": {"cpu": "4"}}),
               local_queue("q", "eng-alpha", "cq"))
    assert judge(job("q"), MAIN_4, *objects, own).outcome == ADMITS
    other = admitted("other", "eng-alpha", "cq", {"cpu": "4"})
    assert judge(job("q"), MAIN_4, *objects, other).outcome == CANNOT_ADMIT


def test_a_malformed_kueue_object_is_reported_at_its_line_and_left_out() -> None:
    text = yaml.safe_dump_all([cluster_queue("bad", {"default": {"cpu": "lots"}}),
                               cluster_queue("good", {"default": {"cpu": "4"}}),
                               local_queue("q", "ns", "good"), local_queue("q", "ns", "good")])
    found, diagnostics = read_cluster(load_text(text, "cluster.yaml").documents, "cluster.yaml")
    assert [cq.name for cq in found.cluster_queues] == ["good"] and len(found.local_queues) == 1
    assert [d.format() for d in diagnostics] == [
        "cluster.yaml:14:23: error cluster ClusterQueue 'bad': nominalQuota: 'lots' is not a quantity "
        "(spec.resourceGroups[0].flavors[0].resources[0].nominalQuota)",
        "cluster.yaml:42:9: error cluster LocalQueue ns/q is listed twice (metadata.name)"]
