"""Queues in the verdict, against the real controllers (issue 21 item 5): each scenario is
predicted by `mpigen explain --kube-context` before the job is applied, and the real scheduler or
Kueue then does what mpigen said.

Volcano (namespace `volcano`): a gang that fits the nodes but not its queue's capability stays
Pending; of two tenants' jobs in one queue, the second waits for the first. Kueue (namespace
`kueue`): the ClusterQueue cluster-queue admits a job within its nominal quota and holds one over it.
scheduler-plugins (namespace `scheduler-plugins`): an ElasticQuota holds a gang over its max.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest
import yaml

from tests.e2e.conftest import FIGURES, Kube
from tests.e2e.test_gang import _apply_spec, _delete, _pods, spec
from tests.e2e.test_kueue import _condition, _workload, kueue_spec

CONTEXT = "mpigen-local"  # cluster/objects.py kubeconfig_file
RUN_SECONDS = 120  # how long an admitted gang may take to be bound and Running
HOLD_SECONDS = 30  # how long a held gang is watched for a pod that gets bound anyway
VERDICTS: list[bool] = []
VERDICT = re.compile(r" (error queue-cannot-admit|warning queue-may-not-admit|info queue-admits) ")  # one per scenario: mpigen's verdict equals the controller's


def _queue(kube: Kube, name: str, gpus: int) -> None:
    queue = {"apiVersion": "scheduling.volcano.sh/v1beta1", "kind": "Queue", "metadata": {"name": name},
             "spec": {"weight": 1, "reclaimable": True, "capability": {"nvidia.com/gpu": str(gpus)}}}
    kube.kubectl("apply", "--server-side", "--field-manager=mpigen-e2e", "-f", "-", stdin=json.dumps(queue))
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if (kube.get("queue", name).get("status") or {}).get("state") == "Open":
            return
        time.sleep(1)
    raise AssertionError(f"Volcano queue {name} not Open after 60 s")


def _explain(kube: Kube, doc: dict, tmp_path: Path):
    path = tmp_path / f"{doc['metadata']['name']}.yaml"
    path.write_text(yaml.safe_dump(doc))
    return kube.mpigen("explain", str(path), "--kube-context", CONTEXT)


def _running(kube: Kube, namespace: str, name: str, expected: int, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        pods = _pods(kube, namespace, name)
        if len(pods) == expected and all(p["status"].get("phase") == "Running" for p in pods):
            return True
        time.sleep(1)
    return False


def _unbound_for(kube: Kube, namespace: str, name: str, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if any(p["spec"].get("nodeName") for p in _pods(kube, namespace, name)):
            return False
        time.sleep(1)
    return True


def _volcano_job(kube: Kube, name: str, queue: str, workers: int) -> dict:
    doc = spec(name, kube.namespaces["volcano"], "volcano", workers)
    doc["spec"]["scheduling"]["queue"] = queue
    return doc


def test_a_gang_that_fits_the_nodes_but_not_its_queue_stays_pending(kube: Kube, tmp_path: Path) -> None:
    namespace, name = kube.namespaces["volcano"], "over-capability"
    _queue(kube, "capped", 8)
    doc = _volcano_job(kube, name, "capped", 2)
    explained = _explain(kube, doc, tmp_path)
    predicted = explained.returncode == 1 and "error queue-cannot-admit queue capped cannot admit the gang" in \
        explained.stderr and "capability 8 nvidia.com/gpu" in explained.stderr
    _apply_spec(kube, doc, tmp_path)
    try:
        held = _unbound_for(kube, namespace, name, HOLD_SECONDS)
        phase = (kube.get("podgroups.scheduling.volcano.sh", "-n", namespace)["items"] or [{}])
        VERDICTS.append(predicted and held)
        assert predicted, explained.stderr
        assert held, f"Volcano bound a pod of a gang over its queue's capability: {phase}"
    finally:
        _delete(kube, "mpijob", namespace, name)
        kube.kubectl("delete", "queue", "capped", "--wait=true", "--timeout=60s", check=False, timeout=90)


def test_the_second_tenant_waits_for_the_first(kube: Kube, tmp_path: Path) -> None:
    namespace = kube.namespaces["volcano"]
    _queue(kube, "tenants", 16)
    first, second = _volcano_job(kube, "tenant-a", "tenants", 2), _volcano_job(kube, "tenant-b", "tenants", 1)
    try:
        ahead = _explain(kube, first, tmp_path)
        assert ahead.returncode == 0 and "info queue-admits queue tenants admits the gang" in ahead.stderr, ahead.stderr
        _apply_spec(kube, first, tmp_path)
        first_runs = _running(kube, namespace, "tenant-a", 3, RUN_SECONDS)
        explained = _explain(kube, second, tmp_path)
        predicted = explained.returncode == 1 and "error queue-cannot-admit queue tenants" in explained.stderr
        _apply_spec(kube, second, tmp_path)
        held = _unbound_for(kube, namespace, "tenant-b", HOLD_SECONDS)
        _delete(kube, "mpijob", namespace, "tenant-a")
        then_runs = _running(kube, namespace, "tenant-b", 2, RUN_SECONDS)
        VERDICTS.append(first_runs and predicted and held and then_runs)
        assert first_runs, "the first tenant's job did not run"
        assert predicted, explained.stderr
        assert held, "Volcano bound the second tenant's job over the queue's capability"
        assert then_runs, "the second tenant's job did not run once the first was deleted"
    finally:
        for name in ("tenant-a", "tenant-b"):
            _delete(kube, "mpijob", namespace, name)
        kube.kubectl("delete", "queue", "tenants", "--wait=true", "--timeout=60s", check=False, timeout=90)


@pytest.mark.parametrize("workers, admitted", [(2, True), (5, False)])
def test_kueue_admits_within_its_nominal_quota_and_holds_over_it(kube: Kube, tmp_path: Path, workers: int,
                                                                 admitted: bool) -> None:
    namespace, name = kube.namespaces["kueue"], f"kueue-verdict-{workers}"
    doc = kueue_spec(name, namespace, workers)
    explained = _explain(kube, doc, tmp_path)
    if admitted:
        predicted = explained.returncode == 0 and "info queue-admits" in explained.stderr
    else:
        predicted = explained.returncode == 1 and "error queue-cannot-admit" in explained.stderr
    _apply_spec(kube, doc, tmp_path)
    try:
        runs = _running(kube, namespace, name, workers + 1, RUN_SECONDS) if admitted else \
            not _unbound_for(kube, namespace, name, HOLD_SECONDS)
        workload = _workload(kube, namespace, "MPIJob", name)
        agrees = (_condition(workload, "Admitted").get("status") == "True") == admitted and runs == admitted
        VERDICTS.append(predicted and agrees)
        assert predicted, explained.stderr
        assert agrees, workload
    finally:
        _delete(kube, "mpijob", namespace, name)


def _cluster_queue(name: str, gpus: int, cohort: str | None = None) -> dict:
    queue = {"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "ClusterQueue", "metadata": {"name": name},
             "spec": {"namespaceSelector": {}, "resourceGroups": [{
                 "coveredResources": ["cpu", "memory", "nvidia.com/gpu"],
                 "flavors": [{"name": "default-flavor", "resources": [
                     {"name": "cpu", "nominalQuota": "64"}, {"name": "memory", "nominalQuota": "256Gi"},
                     {"name": "nvidia.com/gpu", "nominalQuota": str(gpus)}]}]}]}}
    if cohort:
        queue["spec"]["cohortName"] = cohort
    return queue


def test_kueue_admits_a_job_once_a_cohort_lends_the_quota(kube: Kube, tmp_path: Path) -> None:
    """ClusterQueue team-a (8 GPUs) holds a job of two 8-GPU workers; once team-a and team-b (16
    GPUs, unused) share the cohort research, Kueue admits it, borrowing team-b's quota."""
    namespace, name = kube.namespaces["kueue"], "kueue-borrows"
    local_queue = {"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "LocalQueue",
                   "metadata": {"name": "team-a", "namespace": namespace}, "spec": {"clusterQueue": "team-a"}}
    queues = {"apiVersion": "v1", "kind": "List",
              "items": [_cluster_queue("team-a", 8), _cluster_queue("team-b", 16), local_queue]}
    kube.kubectl("apply", "--server-side", "--field-manager=mpigen-e2e", "-f", "-", stdin=json.dumps(queues))
    doc = kueue_spec(name, namespace, 2)
    doc["spec"]["scheduling"]["queue"] = "team-a"
    try:
        alone = _explain(kube, doc, tmp_path)
        predicted_held = alone.returncode == 1 and "error queue-cannot-admit" in alone.stderr
        _apply_spec(kube, doc, tmp_path)
        held = _unbound_for(kube, namespace, name, HOLD_SECONDS) and \
            _condition(_workload(kube, namespace, "MPIJob", name), "Admitted").get("status") != "True"
        cohort = {"apiVersion": "v1", "kind": "List",
                  "items": [_cluster_queue("team-a", 8, "research"), _cluster_queue("team-b", 16, "research")]}
        kube.kubectl("apply", "--server-side", "--field-manager=mpigen-e2e", "-f", "-", stdin=json.dumps(cohort))
        time.sleep(2)  # Kueue's cache sees the cohort a moment after the API server stored it
        lent = _explain(kube, doc, tmp_path)
        predicted_admitted = lent.returncode == 0 and "info queue-admits" in lent.stderr
        runs = _running(kube, namespace, name, 3, RUN_SECONDS)
        VERDICTS.append(predicted_held and held)
        VERDICTS.append(predicted_admitted and runs)
        assert held, "Kueue admitted a job over its ClusterQueue's nominal quota without a cohort"
        assert runs, "Kueue did not admit the job once the cohort could lend the quota"
        assert predicted_held, alone.stderr
        assert predicted_admitted, lent.stderr
    finally:
        _delete(kube, "mpijob", namespace, name)
        kube.kubectl("delete", "localqueue", "team-a", "-n", namespace, "--wait=true", "--timeout=60s", check=False)
        kube.kubectl("delete", "clusterqueue", "team-a", "team-b", "--wait=true", "--timeout=60s", check=False)


def test_kueue_preempts_a_lower_priority_job_for_a_higher_one(kube: Kube, tmp_path: Path) -> None:
    """ClusterQueue gpu-pool (16 GPUs, preemption withinClusterQueue: LowerPriority) runs a job of
    WorkloadPriorityClass low over its whole quota; a job of class high needs that room: mpigen
    says only preempting the low job makes room, and Kueue evicts it and admits the high one."""
    namespace = kube.namespaces["kueue"]
    queue = _cluster_queue("gpu-pool", 16)
    queue["spec"]["preemption"] = {"withinClusterQueue": "LowerPriority"}
    objects = {"apiVersion": "v1", "kind": "List", "items": [
        queue,
        {"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "LocalQueue",
         "metadata": {"name": "gpu-pool", "namespace": namespace}, "spec": {"clusterQueue": "gpu-pool"}},
        {"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "WorkloadPriorityClass", "metadata": {"name": "low"},
         "value": 100},
        {"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "WorkloadPriorityClass", "metadata": {"name": "high"},
         "value": 1000}]}
    kube.kubectl("apply", "--server-side", "--field-manager=mpigen-e2e", "-f", "-", stdin=json.dumps(objects))
    low, high = kueue_spec("kueue-low", namespace, 2), kueue_spec("kueue-high", namespace, 2)
    low["spec"]["scheduling"].update(queue="gpu-pool", priorityClass="low")
    high["spec"]["scheduling"].update(queue="gpu-pool", priorityClass="high")
    try:
        _apply_spec(kube, low, tmp_path)
        low_runs = _running(kube, namespace, "kueue-low", 3, RUN_SECONDS)
        explained = _explain(kube, high, tmp_path)
        predicted = any(VERDICT.search(line) and "preempt" in line and "kueue-low" in line
                        for line in explained.stderr.splitlines())
        _apply_spec(kube, high, tmp_path)
        high_runs = _running(kube, namespace, "kueue-high", 3, RUN_SECONDS)
        evicted = _condition(_workload(kube, namespace, "MPIJob", "kueue-low"), "Admitted").get("status") != "True"
        VERDICTS.append(predicted and high_runs and evicted)
        assert low_runs, "the low-priority job did not run"
        assert high_runs and evicted, "Kueue did not preempt the low-priority job for the high one"
        assert predicted, explained.stderr
    finally:
        for name in ("kueue-high", "kueue-low"):
            _delete(kube, "mpijob", namespace, name)
        kube.kubectl("delete", "localqueue", "gpu-pool", "-n", namespace, "--wait=true", "--timeout=60s", check=False)
        kube.kubectl("delete", "clusterqueue", "gpu-pool", "--wait=true", "--timeout=60s", check=False)
        kube.kubectl("delete", "workloadpriorityclass", "low", "high", "--wait=true", "--timeout=60s", check=False)


def test_an_elastic_quota_holds_its_namespace(kube: Kube, tmp_path: Path) -> None:
    """An ElasticQuota of 8 GPUs at most in the scheduler-plugins namespace: a gang of two 8-GPU
    workers fits the nodes, but CapacityScheduling refuses the second worker, so Coscheduling binds
    none of them; without the quota the same job runs (tests/e2e/test_gang.py)."""
    namespace, name = kube.namespaces["scheduler-plugins"], "over-quota"
    quota = {"apiVersion": "scheduling.x-k8s.io/v1alpha1", "kind": "ElasticQuota",
             "metadata": {"name": "gpus", "namespace": namespace},
             "spec": {"min": {"nvidia.com/gpu": "8"}, "max": {"nvidia.com/gpu": "8"}}}
    kube.kubectl("apply", "--server-side", "--field-manager=mpigen-e2e", "-f", "-", stdin=json.dumps(quota))
    doc = spec(name, namespace, "scheduler-plugins", 2)
    try:
        explained = _explain(kube, doc, tmp_path)
        predicted = explained.returncode == 1 and "error queue-cannot-admit" in explained.stderr and \
            "ElasticQuota" in explained.stderr
        _apply_spec(kube, doc, tmp_path)
        held = _unbound_for(kube, namespace, name, HOLD_SECONDS)
        VERDICTS.append(predicted and held)
        assert held, "a pod of a gang over its namespace's ElasticQuota was bound"
        assert predicted, explained.stderr
    finally:
        _delete(kube, "mpijob", namespace, name)
        kube.kubectl("delete", "elasticquota", "gpus", "-n", namespace, "--wait=true", "--timeout=60s", check=False)


def test_figure() -> None:
    assert VERDICTS, "no scenario ran"
    FIGURES.append(f"{sum(VERDICTS)}/{len(VERDICTS)} admission verdicts equal the controllers'")
    assert all(VERDICTS)
