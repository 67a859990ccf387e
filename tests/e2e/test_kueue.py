"""Kueue v0.19.2 in the local cluster (issue 21 item 4): the namespace `kueue`, whose operators run
no gang scheduler plugin and whose jobs Kueue admits by their LocalQueue.

cluster/kueue.yaml gives the ClusterQueue cluster-queue a nominal quota of what node-0..node-3 offer
(256 cpu, 2Ti memory, 32 nvidia.com/gpu) and the LocalQueue kueue/user-queue. A job mpigen builds
with `scheduling: {gang: kueue, queue: user-queue}` is created suspended by Kueue's webhook; a job
within the quota is admitted (its Workload's condition Admitted) and runs; a job over it stays
suspended, its Workload without quota, and no pod is created.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tests.e2e.conftest import Kube
from tests.e2e.test_gang import _apply_spec, _delete, _pods, spec

ADMIT_SECONDS = 120  # how long an admitted job may take to have every pod Running
HOLD_SECONDS = 30  # how long a job over the quota is watched for an admission or a pod


def kueue_spec(name: str, namespace: str, workers: int, framework: str = "mpi") -> dict:
    doc = spec(name, namespace, "kueue", workers, framework)
    doc["spec"]["scheduling"] = {"gang": "kueue", "queue": "user-queue"}
    return doc


def _workload(kube: Kube, namespace: str, kind: str, name: str) -> dict | None:
    for workload in kube.get("workloads.kueue.x-k8s.io", "-n", namespace)["items"]:
        owners = workload["metadata"].get("ownerReferences") or []
        if any(o["kind"] == kind and o["name"] == name for o in owners):
            return workload
    return None


def _condition(obj: dict | None, kind: str) -> dict:
    conditions = ((obj or {}).get("status") or {}).get("conditions") or []
    return next((c for c in conditions if c["type"] == kind), {})


def _suspended(kube: Kube, kind: str, namespace: str, name: str) -> bool:
    job = kube.get(kind, name, "-n", namespace)
    return bool((job["spec"].get("runPolicy") or {}).get("suspend"))


@pytest.mark.parametrize("framework", ["mpi", "pytorch"])
def test_kueue_admits_a_job_within_its_quota(kube: Kube, tmp_path: Path, framework: str) -> None:
    namespace = kube.namespaces["kueue"]
    kind, owner = ("mpijob", "MPIJob") if framework == "mpi" else ("pytorchjob", "PyTorchJob")
    name = f"kueue-fits-{framework}"
    _apply_spec(kube, kueue_spec(name, namespace, 2, framework), tmp_path)
    try:
        expected = 3 if framework == "mpi" else 2
        deadline = time.monotonic() + ADMIT_SECONDS
        workload, pods = None, []
        while time.monotonic() < deadline:
            workload = _workload(kube, namespace, owner, name)
            pods = _pods(kube, namespace, name)
            if (_condition(workload, "Admitted").get("status") == "True" and len(pods) == expected
                    and all(p["status"].get("phase") == "Running" for p in pods)):
                break
            time.sleep(1)
        assert _condition(workload, "Admitted").get("status") == "True", f"not admitted: {workload}"
        assert not _suspended(kube, kind, namespace, name)
        phases = {p["metadata"]["name"]: p["status"].get("phase") for p in pods}
        assert len(pods) == expected and set(phases.values()) == {"Running"}, phases
        admission = workload["status"]["admission"]
        assert admission["clusterQueue"] == "cluster-queue"
        assert {a["flavors"].get("nvidia.com/gpu") for a in admission["podSetAssignments"]} >= {"default-flavor"}
    finally:
        _delete(kube, kind, namespace, name)


def test_kueue_holds_a_job_over_its_quota(kube: Kube, tmp_path: Path) -> None:
    namespace = kube.namespaces["kueue"]
    name = "kueue-over-quota"
    _apply_spec(kube, kueue_spec(name, namespace, 5), tmp_path)  # 40 nvidia.com/gpu of 32
    try:
        deadline = time.monotonic() + HOLD_SECONDS
        workload = None
        while time.monotonic() < deadline:
            workload = _workload(kube, namespace, "MPIJob", name)
            assert _condition(workload, "Admitted").get("status") != "True", f"admitted over its quota: {workload}"
            assert not _pods(kube, namespace, name), "pods of a job Kueue has not admitted"
            time.sleep(1)
        assert workload is not None, "Kueue created no Workload for the job"
        assert _suspended(kube, "mpijob", namespace, name)
        reserved = _condition(workload, "QuotaReserved")
        assert reserved.get("status") == "False" and "nvidia.com/gpu" in reserved.get("message", ""), reserved
    finally:
        _delete(kube, "mpijob", namespace, name)
