"""mpigen diagnose and the admission verdicts on a live job (mpigen.scheduler.admission.job_admission):
Kueue's on the Workload of a job it keeps suspended, the ElasticQuota's on pods of scheduler-plugins,
judged on the cluster less the job's own pods and Workload; on fixture objects and against the fake
API server (tests/fake_apiserver.py)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from mpigen.diagnose.expected import expected
from mpigen.diagnose.judge import judge
from tests.fake_apiserver import JOB_KINDS as FAKE_JOB_KINDS
from tests.fake_apiserver import KINDS, FakeApiServer
from tests.unit.test_diagnose import (NS, cluster_of, codes, condition, config, container, mpijob, node, observed,
                                      pki, run)

__all__ = ["pki"]  # the fixture, shared with test_diagnose.py

KUEUE = "kueue.x-k8s.io/v1beta1"
PLUGINS = "scheduling.x-k8s.io/v1alpha1"
PLUGINS_SCHEDULER = "scheduler-plugins-scheduler"


# --- Kueue: a ClusterQueue team-a of 8 GPUs, LocalQueue team-a in the namespace


def kueue_job(name: str, workers: int, gpus: int = 8, queue: str = "team-a", suspended: bool = True,
              priority_class: str | None = None) -> dict[str, Any]:
    """An MPIJob Kueue manages (no gang scheduler): suspended until its Workload is admitted."""
    job = mpijob(name, workers, gpus, queue=None, volcano=False)
    job["metadata"]["labels"] = {"kueue.x-k8s.io/queue-name": queue}
    if priority_class:
        job["metadata"]["labels"]["kueue.x-k8s.io/priority-class"] = priority_class
    if suspended:
        job["spec"]["runPolicy"]["suspend"] = True
        job["status"]["conditions"].append(condition("Suspended", "True", "MPIJobSuspended", "MPIJob suspended"))
    else:
        job["status"]["conditions"].append(condition("Running", "True", "MPIJobRunning"))
    return job


def cluster_queue(name: str = "team-a", gpus: int = 8, preemption: str | None = None) -> dict[str, Any]:
    queue = {"apiVersion": KUEUE, "kind": "ClusterQueue", "metadata": {"name": name},
             "spec": {"namespaceSelector": {}, "resourceGroups": [{
                 "coveredResources": ["cpu", "memory", "nvidia.com/gpu"],
                 "flavors": [{"name": "default-flavor", "resources": [
                     {"name": "cpu", "nominalQuota": "64"}, {"name": "memory", "nominalQuota": "256Gi"},
                     {"name": "nvidia.com/gpu", "nominalQuota": str(gpus)}]}]}]}}
    if preemption:
        queue["spec"]["preemption"] = {"withinClusterQueue": preemption}
    return queue


def kueue_objects(queue: str = "team-a", gpus: int = 8, preemption: str | None = None) -> list[dict[str, Any]]:
    return [cluster_queue(queue, gpus, preemption),
            {"apiVersion": KUEUE, "kind": "LocalQueue", "metadata": {"name": queue, "namespace": NS},
             "spec": {"clusterQueue": queue}},
            {"apiVersion": KUEUE, "kind": "ResourceFlavor", "metadata": {"name": "default-flavor"}, "spec": {}}]


def kueue_workload(job: dict[str, Any], admitted_gpus: int = 0, priority: int = 0,
                   held: str = "couldn't assign flavors to pod set worker: insufficient quota for nvidia.com/gpu in "
                               "flavor default-flavor, 8 more needed") -> dict[str, Any]:
    """The Workload Kueue made for ``job``: admitted holding ``admitted_gpus``, else pending."""
    name = job["metadata"]["name"]
    queue = job["metadata"]["labels"]["kueue.x-k8s.io/queue-name"]
    status: dict[str, Any]
    if admitted_gpus:
        status = {"admission": {"clusterQueue": queue, "podSetAssignments": [
            {"name": "worker", "flavors": {"nvidia.com/gpu": "default-flavor"},
             "resourceUsage": {"nvidia.com/gpu": str(admitted_gpus)}}]},
                  "conditions": [condition("QuotaReserved", "True", "QuotaReserved"),
                                 condition("Admitted", "True", "Admitted")]}
    else:
        status = {"conditions": [condition("QuotaReserved", "False", "Pending", held)]}
    return {"apiVersion": KUEUE, "kind": "Workload",
            "metadata": {"name": f"mpijob-{name}-3f2a1", "namespace": NS, "creationTimestamp": "2026-11-26T20:00:00Z",
                         "ownerReferences": [{"apiVersion": "kubeflow.org/v2beta1", "kind": "MPIJob", "name": name,
                                              "uid": job["metadata"]["uid"], "controller": True}]},
            "spec": {"queueName": queue, "priority": priority}, "status": status}


def running_pods(name: str, workers: int, gpus: int = 8, scheduler: str | None = None) -> list[dict[str, Any]]:
    def one(pod: str, role: str, gpu: int, on: str) -> dict[str, Any]:
        spec: dict[str, Any] = {"containers": [container(role, gpu)], "nodeName": on}
        if scheduler:
            spec["schedulerName"] = scheduler
        return {"apiVersion": "v1", "kind": "Pod",
                "metadata": {"name": pod, "namespace": NS,
                             "labels": {"training.kubeflow.org/job-name": name,
                                        "training.kubeflow.org/job-role": role}},
                "spec": spec, "status": {"phase": "Running"}}

    return [one(f"{name}-launcher-9fz2k", "launcher", 0, "node-0")] + \
        [one(f"{name}-worker-{i}", "worker", gpus, f"node-{i}") for i in range(workers)]


def operator_objects(*names: str) -> dict[str, list[dict[str, Any]]]:
    """The Services and launcher Jobs mpi-operator created for the jobs."""
    return {"services": [{"apiVersion": "v1", "kind": "Service", "metadata": {"name": n, "namespace": NS}}
                         for n in names],
            "jobs": [{"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": f"{n}-launcher", "namespace": NS}}
                     for n in names]}


def kueue_cluster() -> dict[str, list[dict[str, Any]]]:
    """ClusterQueue team-a (8 GPUs): the job small (1 worker of 8 GPUs) admitted and running, the job
    big (2 workers of 8 GPUs) held: 16 GPUs are more than the nominal quota."""
    big, small = kueue_job("big", 2), kueue_job("small", 1, suspended=False)
    queue, local, flavor = kueue_objects()
    return {"nodes": [node("node-0"), node("node-1"), node("node-2")], "mpijobs": [big, small],
            "clusterqueues": [queue], "localqueues": [local], "resourceflavors": [flavor],
            "workloads": [kueue_workload(big), kueue_workload(small, admitted_gpus=8)],
            "pods": running_pods("small", 1), **operator_objects("big", "small"), "events": []}


def test_a_kueue_job_over_its_cluster_queues_nominal_quota_live(tmp_path: Path, pki: Path,
                                                                capsys: pytest.CaptureFixture) -> None:
    with FakeApiServer(pki, kueue_cluster(), served=KINDS + FAKE_JOB_KINDS) as fake:
        code, out, err = run(["diagnose", "mpijob/big", "-n", NS, "--kubeconfig", config(tmp_path, fake, pki)], capsys)
        _, as_json, _ = run(["diagnose", "mpijob/big", "-n", NS, "--format", "json",
                             "--kubeconfig", config(tmp_path, fake, pki)], capsys)
        running, running_out, _ = run(["diagnose", "mpijob/small", "-n", NS, "--format", "json",
                                       "--kubeconfig", config(tmp_path, fake, pki)], capsys)
    assert code == 1, err
    lines = out.splitlines()
    proof = ("ClusterQueue team-a: nominalQuota 8 nvidia.com/gpu on flavor default-flavor, 8 in use by 1 Workload "
             f"({NS}/mpijob-small-3f2a1), no cohort to borrow from; this job needs 16, so the Workload stays pending "
             "however little else runs")
    assert lines[0].startswith(f"Suspended: LocalQueue {NS}/team-a cannot admit the Workload: {proof}"), lines[0]
    causes = lines[lines.index("causes:") + 1:lines.index("evidence:")]
    assert len(causes) == 1 and causes[0].startswith(
        f"  localqueues.kueue.x-k8s.io/team-a: error queue-cannot-admit LocalQueue {NS}/team-a cannot admit the "
        "Workload (Kueue v0.19.2's default configuration")
    # the Workload's own condition is the evidence
    assert "  workloads.kueue.x-k8s.io/mpijob-big-3f2a1: Kueue has not admitted Workload mpijob-big-3f2a1 (queue " \
           "team-a): QuotaReserved=False (Pending): couldn't assign flavors to pod set worker: insufficient quota " \
           "for nvidia.com/gpu in flavor default-flavor, 8 more needed; the job stays suspended until it does" in lines
    data = json.loads(as_json)
    assert data["phase"] == "Suspended"
    assert [c["code"] for c in data["causes"]] == ["queue-cannot-admit"]
    assert proof in data["causes"][0]["message"]
    # the job admitted and running beside it: no queue cause (its own Workload holds the quota)
    small = json.loads(running_out)
    assert (running, small["phase"], small["answer"], small["causes"]) == (0, "Running", "Running: 2 of 2 pods", [])


def test_kueue_may_admit_only_by_preempting_a_lower_priority_job() -> None:
    """ClusterQueue gpu-pool (16 GPUs, withinClusterQueue LowerPriority): the job low holds it all;
    high (WorkloadPriorityClass high) waits until Kueue evicts low. Once evicted, low cannot come
    back while high holds the quota."""
    classes = [{"apiVersion": KUEUE, "kind": "WorkloadPriorityClass", "metadata": {"name": n}, "value": v}
               for n, v in (("low", 100), ("high", 1000))]
    low = kueue_job("low", 2, queue="gpu-pool", suspended=False, priority_class="low")
    high = kueue_job("high", 2, queue="gpu-pool", priority_class="high")
    held = [kueue_workload(high, priority=1000), kueue_workload(low, admitted_gpus=16, priority=100)]
    cluster = cluster_of(node("node-0"), node("node-1"), *kueue_objects("gpu-pool", 16, "LowerPriority"), *classes,
                         *held, *running_pods("low", 2))
    found = judge(observed(high, cluster, pods=[], created={}, workload=held[0], events=[]))
    assert (found.phase, codes(found)) == ("Suspended", ["queue-may-not-admit"])
    assert found.causes[0].file == "localqueues.kueue.x-k8s.io/gpu-pool"
    assert found.answer.startswith(f"Suspended: LocalQueue {NS}/gpu-pool may not admit the Workload: ")
    assert f"only preemption could make room: Kueue would evict some of {NS}/mpijob-low-3f2a1 (priority 100, " \
           "ClusterQueue gpu-pool)" in found.answer
    # preempted: low's Workload evicted, high's admitted holding the 16 GPUs
    evicted = kueue_workload(low, priority=100, held="Preempted to accommodate a workload (UID: uid-high)")
    low["spec"]["runPolicy"]["suspend"] = True
    now = [kueue_workload(high, admitted_gpus=16, priority=1000), evicted]
    cluster = cluster_of(node("node-0"), node("node-1"), *kueue_objects("gpu-pool", 16, "LowerPriority"), *classes,
                         *now, *running_pods("high", 2))
    found = judge(observed(low, cluster, pods=[], created={}, workload=evicted, events=[]))
    assert (found.phase, codes(found)) == ("Suspended", ["queue-cannot-admit"])
    assert "16 in use by 1 Workload (research/mpijob-high-3f2a1)" in found.causes[0].message


def test_a_kueue_verdict_that_admits_leaves_the_workload_the_cause() -> None:
    """Kueue's port would admit the Workload (the quota is free): the Workload's condition stays the
    cause, and the verdict is evidence."""
    job = kueue_job("big", 1)
    workload = kueue_workload(job, held="Workload is waiting for its turn")
    cluster = cluster_of(node("node-0"), *kueue_objects(), workload)
    found = judge(observed(job, cluster, pods=[], created={}, workload=workload, events=[]))
    assert codes(found) == ["workload-not-admitted"]
    facts = {f.source: f.text for f in found.evidence}
    assert facts["localqueues.kueue.x-k8s.io/team-a"].startswith(f"LocalQueue {NS}/team-a admits the Workload (")


# --- scheduler-plugins: an ElasticQuota of 8 GPUs in the namespace


def elastic_quota(gpus: int = 8, **more: str) -> dict[str, Any]:
    """min and max ``gpus`` GPUs; a max that does not list cpu and memory allows none (the plugin
    takes 0)."""
    limit = {"nvidia.com/gpu": str(gpus), **more}
    return {"apiVersion": PLUGINS, "kind": "ElasticQuota", "metadata": {"name": "gpus", "namespace": NS},
            "spec": {"min": limit, "max": limit}}


def plugins_job(name: str, workers: int) -> dict[str, Any]:
    job = mpijob(name, workers, 8, queue=None, volcano=False)
    for replica in job["spec"]["mpiReplicaSpecs"].values():
        replica["template"]["spec"]["schedulerName"] = PLUGINS_SCHEDULER
    return job


def test_a_gang_held_by_its_namespaces_elastic_quota_live(tmp_path: Path, pki: Path,
                                                          capsys: pytest.CaptureFixture) -> None:
    job = plugins_job("over-quota", 2)
    group = copy.deepcopy(expected(job, "scheduler-plugins", None).podgroup)
    assert group is not None and group["apiVersion"] == PLUGINS
    group["status"] = {"phase": "Pending"}
    waiting = "0/3 nodes are available: pod group is not ready"
    pods = []
    for pod in running_pods("over-quota", 2):
        pod["spec"].pop("nodeName")
        pod["spec"]["schedulerName"] = PLUGINS_SCHEDULER
        pod["status"] = {"phase": "Pending", "conditions": [condition("PodScheduled", "False", "Unschedulable",
                                                                      waiting)]}
        pods.append(pod)
    held = {"nodes": [node("node-0"), node("node-1"), node("node-2")], "mpijobs": [job], "podgroups": [group],
            "pods": pods, "elasticquotas": [elastic_quota()], **operator_objects("over-quota"), "events": []}
    with FakeApiServer(pki, held, served=KINDS + FAKE_JOB_KINDS) as fake:
        code, out, err = run(["diagnose", "mpijob/over-quota", "-n", NS, "--kubeconfig",
                              config(tmp_path, fake, pki)], capsys)
        _, as_json, _ = run(["diagnose", "mpijob/over-quota", "-n", NS, "--format", "json", "--kubeconfig",
                             config(tmp_path, fake, pki)], capsys)
    assert code == 1, err
    lines = out.splitlines()
    proof = (f"ElasticQuota {NS}/gpus: max 8 nvidia.com/gpu, 0 in use by 0 Pods; this job's pods need 16 (capacity "
             "scheduling PreFilter: \"is more than Max\")")
    assert lines[0].startswith(f"Pending: ElasticQuota {NS}/gpus cannot admit the pods: "), lines[0]
    assert proof in lines[0]
    causes = lines[lines.index("causes:") + 1:lines.index("evidence:")]
    assert causes[0].startswith("  elasticquotas.scheduling.x-k8s.io/gpus: error queue-cannot-admit ElasticQuota "
                                f"{NS}/gpus cannot admit the pods (scheduler-plugins v0.33.5 capacity scheduling")
    assert [c["code"] for c in json.loads(as_json)["causes"]] == ["queue-cannot-admit", "pod-unschedulable"]
    # the namespace's ElasticQuotas, read back for the evidence (the README's list on elasticquotas)
    assert f"/apis/{PLUGINS}/namespaces/{NS}/elasticquotas" in [path for _, path, _ in fake.requests]
    assert "  elasticquotas.scheduling.x-k8s.io/gpus: min nvidia.com/gpu=8; max nvidia.com/gpu=8; used none" in lines


def test_the_jobs_own_bound_pods_do_not_count_twice_in_its_elastic_quota() -> None:
    """A job of 2 workers of 8 GPUs without a gang, one worker bound: with it, its namespace uses
    8 of the 16 its ElasticQuota allows; the job, judged anew, needs 16, which the quota allows
    (counting the bound worker twice would make it 24)."""
    job = plugins_job("partial", 2)
    pods = running_pods("partial", 2, scheduler=PLUGINS_SCHEDULER)
    pods[0]["spec"].pop("nodeName")
    pods[0]["status"] = {"phase": "Pending"}
    pods[2]["spec"].pop("nodeName")
    pods[2]["status"] = {"phase": "Pending", "conditions": [condition(
        "PodScheduled", "False", "Unschedulable", "0/2 nodes are available: 2 Insufficient nvidia.com/gpu")]}
    cluster = cluster_of(node("node-0"), node("node-1", gpus=0), elastic_quota(16, cpu="64", memory="256Gi"), *pods)
    found = judge(observed(job, cluster, pods=pods, created={}, events=[], gang_option="none"))
    assert found.phase == "Pending"
    assert "queue-cannot-admit" not in codes(found)
    said = [f.text for f in found.evidence if f.source == "elasticquotas.scheduling.x-k8s.io/gpus"]
    assert len(said) == 1 and said[0].startswith(f"ElasticQuota {NS}/gpus admits the pods (")
    assert said[0].endswith("with them the namespace uses 5 of max 64 cpu, 12Gi of max 256Gi memory, 16 of max 16 "
                            "nvidia.com/gpu")
