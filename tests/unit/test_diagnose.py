"""mpigen diagnose: the judging on fixture objects (pure), the KIND/NAME forms, and the command
against the in-process fake API server (tests/fake_apiserver.py), a user who may not list some
kinds among them."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from mpigen.diagnose.expected import expected
from mpigen.diagnose.gather import Observed
from mpigen.diagnose.judge import Diagnosis, Fact, judge
from mpigen.diagnose.report import json_report, text_report
from mpigen.diagnose.target import JOB_KINDS, parse_target
from mpigen.load.cluster import Cluster, read_cluster
from mpigen.load.yaml_loader import load_text
from mpigen.main import main
from tests.fake_apiserver import JOB_KINDS as FAKE_JOB_KINDS
from tests.fake_apiserver import KINDS, TOKEN, FakeApiServer, Kind, kubeconfig, make_pki

MPIJOB, PYTORCHJOB, TFJOB, TRAINJOB = JOB_KINDS
VOLCANO = "scheduling.volcano.sh/v1beta1"
NS = "research"


# --- fixtures: a job, the objects the operator created for it, the cluster


def container(name: str, gpus: int = 0, cpu: str = "2") -> dict[str, Any]:
    amounts = {"cpu": cpu, "memory": "4Gi", **({"nvidia.com/gpu": str(gpus)} if gpus else {})}
    return {"name": name, "image": "horovod/horovod:0.28.1", "command": ["sleep", "1"],
            "resources": {"requests": amounts, "limits": amounts}}


def mpijob(name: str = "bert", workers: int = 2, gpus: int = 4, queue: str | None = "research",
           volcano: bool = True) -> dict[str, Any]:
    def template(role: str, gpu: int) -> dict[str, Any]:
        spec: dict[str, Any] = {"containers": [container(role, gpu, "1" if role == "launcher" else "2")]}
        if volcano:
            spec["schedulerName"] = "volcano"
        return {"spec": spec}

    policy = {"schedulingPolicy": {"queue": queue}} if queue else {}
    return {"apiVersion": "kubeflow.org/v2beta1", "kind": "MPIJob",
            "metadata": {"name": name, "namespace": NS, "uid": f"uid-{name}",
                         "creationTimestamp": "2026-11-26T20:00:00Z"},
            "spec": {"slotsPerWorker": 1, "runPolicy": {"cleanPodPolicy": "Running", **policy},
                     "mpiReplicaSpecs": {"Launcher": {"replicas": 1, "template": template("launcher", 0)},
                                         "Worker": {"replicas": workers, "template": template("worker", gpus)}}},
            "status": {"conditions": [condition("Created", "True", "MPIJobCreated",
                                                f"MPIJob {NS}/{name} is created.")]}}


def condition(kind: str, status: str, reason: str = "", message: str = "",
              when: str = "2026-11-26T20:00:01Z") -> dict[str, Any]:
    return {"type": kind, "status": status, "reason": reason, "message": message, "lastTransitionTime": when}


def node(name: str, gpus: int = 8) -> dict[str, Any]:
    return {"apiVersion": "v1", "kind": "Node", "metadata": {"name": name},
            "status": {"allocatable": {"cpu": "64", "memory": "512Gi", "nvidia.com/gpu": str(gpus), "pods": "110"}}}


def queue(name: str = "research", gpus: str = "8", state: str = "Open") -> dict[str, Any]:
    return {"apiVersion": VOLCANO, "kind": "Queue", "metadata": {"name": name},
            "spec": {"capability": {"nvidia.com/gpu": gpus}, "weight": 1},
            "status": {"state": state, "allocated": {"nvidia.com/gpu": "0"}, "pending": 1}}


def cluster_of(*objects: dict[str, Any]) -> Cluster:
    loaded = load_text(yaml.safe_dump_all(list(objects)), "cluster.yaml")
    cluster, found = read_cluster(loaded.documents, "cluster.yaml")
    assert found == []
    return cluster


def podgroup_of(job: dict[str, Any], cluster: Cluster | None, phase: str = "Pending",
                **conditions: str) -> dict[str, Any]:
    """The PodGroup mpigen computes for the job, as the cluster holds it (with a status)."""
    group = copy.deepcopy(expected(job, "volcano", cluster).podgroup)
    assert group is not None
    group["status"] = {"phase": phase, "conditions": [condition(k, "True", "NotEnoughResources", v)
                                                      for k, v in conditions.items()]}
    return group


def pod(name: str, role: str, node_name: str | None = None, phase: str = "Pending",
        scheduled: str | None = None) -> dict[str, Any]:
    status: dict[str, Any] = {"phase": phase}
    if scheduled is not None:
        status["conditions"] = [condition("PodScheduled", "False", "Unschedulable", scheduled)]
    spec: dict[str, Any] = {"containers": [container(role, 4 if role == "worker" else 0)]}
    if node_name:
        spec["nodeName"] = node_name
    return {"apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": name, "namespace": NS,
                         "labels": {"training.kubeflow.org/job-name": name.split("-")[0],
                                    "training.kubeflow.org/job-role": role}},
            "spec": spec, "status": status}


def mpijob_pods(name: str = "bert", workers: int = 2, **kwargs: Any) -> list[dict[str, Any]]:
    return [pod(f"{name}-launcher-x7k2p", "launcher", **kwargs)] + \
        [pod(f"{name}-worker-{i}", "worker", **kwargs) for i in range(workers)]


def created(job: dict[str, Any], cluster: Cluster | None, launcher: bool = True) -> dict[tuple[str, str], Any]:
    """What diagnose reads back of what the operator creates (its Service, launcher Job, PodGroup)."""
    name = job["metadata"]["name"]
    out: dict[tuple[str, str], Any] = {("Service", name): {"kind": "Service"},
                                       ("Job", f"{name}-launcher"): {"kind": "Job"} if launcher else None}
    if expected(job, "volcano", cluster).podgroup is not None:
        out[("PodGroup", name)] = {"kind": "PodGroup"}
    return out


def event(pod_name: str, message: str, when: str, count: int = 1, reason: str = "FailedScheduling",
          kind: str = "Pod") -> dict[str, Any]:
    return {"apiVersion": "v1", "kind": "Event", "metadata": {"name": f"{pod_name}.{when}", "namespace": NS},
            "involvedObject": {"kind": kind, "name": pod_name, "namespace": NS}, "reason": reason,
            "type": "Warning", "message": message, "count": count, "lastTimestamp": when}


def observed(job: dict[str, Any], cluster: Cluster | None, **fields: Any) -> Observed:
    kind = next(k for k in JOB_KINDS if k.kind == job["kind"])
    return Observed(kind, NS, job["metadata"]["name"], "prod", job, cluster, **fields)


def codes(diagnosis: Diagnosis) -> list[str]:
    return [c.code for c in diagnosis.causes]


# --- the judging, on fixture objects


def test_a_running_mpijob() -> None:
    job = mpijob()
    job["status"]["conditions"].append(condition("Running", "True", "MPIJobRunning", "MPIJob research/bert runs."))
    cluster = cluster_of(node("node-0"), node("node-1"), queue())
    group = podgroup_of(job, cluster, "Running")
    pods = mpijob_pods(node_name="node-0", phase="Running")
    found = judge(observed(job, cluster, pods=pods, created=created(job, cluster), podgroups=[group], events=[]))
    assert (found.phase, found.answer, found.causes) == ("Running", "Running: 3 of 3 pods", ())
    facts = {f.source: f.text for f in found.evidence}
    assert facts["podgroups.scheduling.volcano.sh/bert"] == "as mpigen computes it for the job"
    assert facts["pods"] == "3 of 3 pods running, 3 bound to a node (3 exist)"


def test_a_podgroup_held_by_its_volcano_queue_capability() -> None:
    """2 workers x 8 GPUs fit the nodes, not the queue's capability of 8 GPUs (issue 21's case)."""
    job = mpijob(gpus=8)
    research = queue(gpus="8")
    cluster = cluster_of(node("node-0"), node("node-1"), node("node-2"), research)
    group = podgroup_of(job, cluster, Unschedulable="3/3 tasks in gang unschedulable: pod group is not ready, "
                                                    "3 Pending, 3 minAvailable")
    cluster = cluster_of(node("node-0"), node("node-1"), node("node-2"), research, group)
    waiting = "pod group is not ready, 3 Pending, 3 minAvailable"
    found = judge(observed(job, cluster, pods=mpijob_pods(scheduled=waiting), created=created(job, cluster),
                           podgroups=[group], queue=research, events=[]))
    assert found.phase == "Pending"
    assert found.answer.startswith("Pending: queue research cannot admit the gang: capability 8 nvidia.com/gpu, "
                                   "none in use; this gang needs 16 (proportion plugin")
    assert codes(found) == ["queue-cannot-admit", "podgroup-unschedulable", "pod-unschedulable"]
    assert found.causes[0].file == "queues.scheduling.volcano.sh/research"
    assert found.causes[2].message == ("pods bert-launcher-x7k2p, bert-worker-0, bert-worker-1 not scheduled: "
                                       f"PodScheduled=False (Unschedulable): {waiting}")
    facts = [(f.source, f.text) for f in found.evidence]
    assert ("queues.scheduling.volcano.sh/research", "state Open; capability nvidia.com/gpu=8; allocated "
            "nvidia.com/gpu=0; PodGroups: 1 pending") in facts
    assert [text.split(":")[0] for source, text in facts if source == "nodes"] == [
        "the gang fits the cluster file's 3 nodes (allocatable; the Pods on them are not in the file)"]


def test_unschedulable_pods_with_their_failed_scheduling_events() -> None:
    """No gang scheduler: each pod is scheduled alone, and the nodes are too small."""
    job = mpijob(gpus=8, volcano=False, queue=None)
    cluster = cluster_of(node("node-0", gpus=4))
    message = "0/1 nodes are available: 1 Insufficient nvidia.com/gpu. preemption: 0/1 nodes are available"
    pods = [pod("bert-launcher-x7k2p", "launcher", "node-0", "Running")] + \
        [pod(f"bert-worker-{i}", "worker", scheduled=message) for i in range(2)]
    events = [event("bert-worker-0", "0/1 nodes are available: old", "2026-11-26T20:00:05Z"),
              event("bert-worker-0", message, "2026-11-26T20:10:00Z", count=7),
              event("bert-worker-1", message, "2026-11-26T20:10:00Z", count=7)]
    found = judge(observed(job, cluster, pods=pods, created=created(job, cluster), events=events))
    assert found.phase == "Pending" and codes(found) == ["pod-unschedulable"]
    [cause] = found.causes
    assert cause.file == "pods/bert-worker-0 (and 1 more)"
    assert cause.message == (f"pods bert-worker-0, bert-worker-1 not scheduled: PodScheduled=False (Unschedulable): "
                             f"{message}; latest event FailedScheduling (x7, last 2026-11-26T20:10:00Z): {message}")
    assert found.answer == f"Pending: 2 pods not scheduled: PodScheduled=False (Unschedulable): {message}; latest " \
                           f"event FailedScheduling (x7, last 2026-11-26T20:10:00Z): {message}"


def test_a_gang_that_cannot_fit_the_live_nodes() -> None:
    """No Queue listed (the user may not list them): the nodes alone refuse the gang."""
    job = mpijob(gpus=8)
    cluster = cluster_of(node("node-0", gpus=8))
    group = podgroup_of(job, cluster)
    found = judge(observed(job, cluster, pods=mpijob_pods(), created=created(job, cluster), podgroups=[group],
                           events=[]))
    assert codes(found) == ["gang-cannot-fit"]
    assert found.causes[0].file == "nodes"
    assert found.answer == ("Pending: the gang cannot fit the cluster file's 1 node: 2 workers need 8 nvidia.com/gpu "
                            "each; the only node, node-0, can hold at most 1 (8 nvidia.com/gpu allocatable): room for "
                            "1 of 2")


def test_a_failed_job() -> None:
    job = mpijob()
    job["status"]["conditions"] += [
        condition("Running", "False", "MPIJobRunning", when="2026-11-26T20:05:00Z"),
        condition("Failed", "True", "BackoffLimitExceeded", "Job has reached the specified backoff limit",
                  when="2026-11-26T20:05:00Z")]
    launcher = pod("bert-launcher-x7k2p", "launcher", "node-0", "Failed")
    launcher["status"]["containerStatuses"] = [{"name": "launcher", "state": {"terminated": {
        "reason": "Error", "exitCode": 1, "message": "mpirun noticed that process rank 1 exited on signal 9"}}}]
    found = judge(observed(job, None, pods=[launcher], created={}, events=[]))
    assert found.phase == "Failed"
    assert found.answer == "Failed: BackoffLimitExceeded: Job has reached the specified backoff limit"
    assert Fact("pods/bert-launcher-x7k2p", "phase Failed; container launcher terminated: Error, exit code 1: mpirun "
                "noticed that process rank 1 exited on signal 9") in found.evidence
    assert codes(found) == ["job-failed"]
    assert found.causes[0].message == ("the job failed: Failed=True (BackoffLimitExceeded): Job has reached the "
                                       "specified backoff limit")


def test_a_succeeded_job_has_no_missing_objects() -> None:
    """cleanPodPolicy removes a finished job's pods: nothing is missing then."""
    job = mpijob()
    job["status"]["conditions"].append(condition("Succeeded", "True", "MPIJobSucceeded", "done"))
    found = judge(observed(job, None, pods=[], created=created(job, None, launcher=False), events=[]))
    assert (found.phase, found.answer, codes(found)) == ("Succeeded", "Succeeded", [])


def pytorchjob(name: str = "ddp", queue_name: str = "team") -> dict[str, Any]:
    def replica(replicas: int) -> dict[str, Any]:
        return {"replicas": replicas, "restartPolicy": "OnFailure",
                "template": {"spec": {"containers": [dict(container("pytorch", 1), ports=[
                    {"name": "pytorchjob-port", "containerPort": 23456}])]}}}

    return {"apiVersion": "kubeflow.org/v1", "kind": "PyTorchJob",
            "metadata": {"name": name, "namespace": NS, "uid": f"uid-{name}",
                         "labels": {"kueue.x-k8s.io/queue-name": queue_name}},
            "spec": {"runPolicy": {"suspend": True},
                     "pytorchReplicaSpecs": {"Master": replica(1), "Worker": replica(3)}},
            "status": {"conditions": [condition("Created", "True", "PyTorchJobCreated"),
                                      condition("Suspended", "True", "PyTorchJobSuspended", "suspended")]}}


def workload(job: dict[str, Any], reserved: dict[str, Any] | None) -> dict[str, Any]:
    return {"apiVersion": "kueue.x-k8s.io/v1beta1", "kind": "Workload",
            "metadata": {"name": f"pytorchjob-{job['metadata']['name']}-3f2a1", "namespace": NS,
                         "ownerReferences": [{"apiVersion": "kubeflow.org/v1", "kind": "PyTorchJob",
                                              "name": job["metadata"]["name"], "uid": job["metadata"]["uid"]}]},
            "spec": {"queueName": "team"},
            "status": {"conditions": [reserved] if reserved else []}}


def test_a_suspended_kueue_job_whose_workload_is_not_admitted() -> None:
    job = pytorchjob()
    held = condition("QuotaReserved", "False", "Pending", "couldn't assign flavors to pod set master: insufficient "
                     "quota for nvidia.com/gpu in flavor default-flavor, 4 more needed")
    found_workload = workload(job, held)
    cluster_queue = {"apiVersion": "kueue.x-k8s.io/v1beta1", "kind": "ClusterQueue", "metadata": {"name": "team"},
                     "spec": {"resourceGroups": [{"coveredResources": ["nvidia.com/gpu"], "flavors": [
                         {"name": "default-flavor", "resources": [{"name": "nvidia.com/gpu", "nominalQuota": 4}]}]}]},
                     "status": {"pendingWorkloads": 1, "admittedWorkloads": 1, "flavorsUsage": [
                         {"name": "default-flavor", "resources": [{"name": "nvidia.com/gpu", "total": "4"}]}]}}
    found = judge(observed(job, None, pods=[], created={}, workload=found_workload, cluster_queue=cluster_queue,
                           events=[]))
    assert found.phase == "Suspended"
    assert found.answer == ("Suspended: Kueue has not admitted Workload pytorchjob-ddp-3f2a1 (QuotaReserved=False "
                            "(Pending): couldn't assign flavors to pod set master: insufficient quota for "
                            "nvidia.com/gpu in flavor default-flavor, 4 more needed)")
    assert codes(found) == ["workload-not-admitted"]
    assert found.causes[0].file == "workloads.kueue.x-k8s.io/pytorchjob-ddp-3f2a1"
    facts = {f.source: f.text for f in found.evidence}
    assert facts["clusterqueues.kueue.x-k8s.io/team"] == ("flavor default-flavor nominal quota nvidia.com/gpu=4; "
                                                          "1 pending, 1 admitted Workloads; flavor default-flavor in "
                                                          "use nvidia.com/gpu=4")
    # without a Workload: Kueue has not taken the job; without Kueue's label: the job's own suspend
    found = judge(observed(job, None, pods=[], created={}, events=[]))
    assert found.answer == "Suspended: Kueue has no Workload for the job (queue team)"
    del job["metadata"]["labels"]
    found = judge(observed(job, None, pods=[], created={}, events=[]))
    assert (found.answer, codes(found)) == ("Suspended: the job's spec says suspend: true", ["job-suspended"])


def test_a_missing_launcher() -> None:
    job = mpijob()
    cluster = cluster_of(node("node-0"), node("node-1"), queue())
    group = podgroup_of(job, cluster, "Inqueue")
    pods = [pod(f"bert-worker-{i}", "worker", "node-0", "Running") for i in range(2)]
    found = judge(observed(job, cluster, pods=pods, created=created(job, cluster, launcher=False),
                           podgroups=[group], events=[]))
    assert (found.phase, codes(found)) == ("Pending", ["object-missing"])
    assert found.answer == "Pending: jobs.batch/bert-launcher does not exist"
    assert found.causes[0].message.startswith("mpi-operator creates jobs.batch/bert-launcher for this job (as mpigen "
                                              "explain computes it) and the cluster has no such object")


def test_a_podgroup_that_differs_from_the_computed_one() -> None:
    job = mpijob()
    cluster = cluster_of(node("node-0"), node("node-1"), queue(), queue("other"))
    group = podgroup_of(job, cluster, "Running")
    group["spec"].update(minMember=2, queue="other")
    group["spec"]["minResources"]["cpu"] = "5000m"  # 5 as the computed value writes it: no difference
    job["status"]["conditions"].append(condition("Running", "True", "MPIJobRunning"))
    found = judge(observed(job, cluster, pods=mpijob_pods(node_name="node-0", phase="Running"),
                           created=created(job, cluster), podgroups=[group], events=[]))
    assert found.phase == "Running" and codes(found) == ["podgroup-differs"]
    assert found.causes[0].message == ("the PodGroup differs from the one mpigen computes for the job: minMember 2, "
                                       "mpigen computes 3; queue other, mpigen computes research")


def test_the_answer_as_json() -> None:
    job = mpijob()
    job["status"]["conditions"].append(condition("Failed", "True", "MPIJobFailed", "launcher failed"))
    found = judge(observed(job, None, pods=[], created={}, events=[]))
    data = json.loads(json_report(found, ["may not list events in namespace research: no"], "MPIJob", "bert", NS,
                                  "prod"))
    assert data["phase"] == "Failed"
    assert data["causes"] == [{"code": "job-failed", "message": "the job failed: Failed=True (MPIJobFailed): "
                                                                "launcher failed"}]
    assert data["unread"] == ["may not list events in namespace research: no"]
    assert text_report(found, []).splitlines()[0] == "Failed: MPIJobFailed: launcher failed"


# --- KIND/NAME


@pytest.mark.parametrize("text", ["mpijob/bert", "mpijobs/bert", "MPIJob/bert", "mpijobs.kubeflow.org/bert",
                                  "mpijob.kubeflow.org/bert", "mpijobs.v2beta1.kubeflow.org/bert"])
def test_the_kinds_as_kubectl_takes_them(text: str) -> None:
    assert parse_target(text) == (MPIJOB, "bert")


def test_every_kind() -> None:
    assert [parse_target(t)[0].kind for t in ("pytorchjob/x", "tfjobs/x", "trainjob/x",
                                              "trainjobs.trainer.kubeflow.org/x")] == \
        ["PyTorchJob", "TFJob", "TrainJob", "TrainJob"]


@pytest.mark.parametrize("text, said", [("bert", "expected KIND/NAME"), ("deployment/x", "not a kind mpigen diagnoses"),
                                        ("mpijobs.example.com/x", "served by the API group kubeflow.org"),
                                        ("mpijob/", "expected KIND/NAME"), ("mpijob/a/b", "expected KIND/NAME")])
def test_what_is_not_a_job(text: str, said: str) -> None:
    with pytest.raises(ValueError, match=said):
        parse_target(text)


# --- the command, against the fake API server


@pytest.fixture(scope="module")
def pki(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_pki(tmp_path_factory.mktemp("pki"))


def held_cluster() -> dict[str, list[dict[str, Any]]]:
    """A Volcano queue of 8 GPUs, an MPIJob of 2 workers x 8 GPUs in it (Pending, its pods
    unscheduled), a running one in the default queue, and a PyTorchJob Kueue holds."""
    big, small = mpijob(gpus=8), mpijob("small", gpus=1, queue=None)
    small["status"]["conditions"].append(condition("Running", "True", "MPIJobRunning"))
    nodes = [node("node-0"), node("node-1"), node("node-2")]
    research = queue(gpus="8")
    cluster = cluster_of(*nodes, research)
    group = podgroup_of(big, cluster, Unschedulable="3/3 tasks in gang unschedulable")
    small_group = podgroup_of(small, cluster, "Running")
    waiting = "pod group is not ready, 3 Pending, 3 minAvailable"
    pods = mpijob_pods(scheduled=waiting) + mpijob_pods("small", node_name="node-2", phase="Running")
    ddp = pytorchjob()
    launcher = {"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "bert-launcher", "namespace": NS}}
    small_launcher = copy.deepcopy(launcher)
    small_launcher["metadata"]["name"] = "small-launcher"
    return {
        "nodes": nodes, "queues": [research, queue("default", gpus="64")], "podgroups": [group, small_group],
        "pods": pods, "mpijobs": [big, small], "pytorchjobs": [ddp],
        "services": [{"apiVersion": "v1", "kind": "Service", "metadata": {"name": n, "namespace": NS}}
                     for n in ("bert", "small")],
        "jobs": [launcher, small_launcher],
        "workloads": [workload(ddp, condition("QuotaReserved", "False", "Pending", "insufficient quota"))],
        "events": [event("bert-worker-0", "0/3 nodes are available: pod group is not ready", "2026-11-26T20:10:00Z"),
                   event("bert", "queue resource quota insufficient", "2026-11-26T20:11:00Z", 4, "Unschedulable",
                         "PodGroup")],
    }


@pytest.fixture
def server(pki: Path):
    with FakeApiServer(pki, held_cluster(), served=KINDS + FAKE_JOB_KINDS) as fake:
        yield fake


def run(argv: list[str], capsys: pytest.CaptureFixture) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def config(tmp_path: Path, fake: FakeApiServer, pki: Path) -> str:
    return str(kubeconfig(tmp_path / "kubeconfig", fake.url, pki, {"token": TOKEN}))


def test_a_held_job_live(tmp_path: Path, server: FakeApiServer, pki: Path, capsys: pytest.CaptureFixture) -> None:
    code, out, err = run(["diagnose", "mpijob/bert", "-n", NS, "--kubeconfig", config(tmp_path, server, pki)], capsys)
    assert code == 1, err
    lines = out.splitlines()
    assert lines[0].startswith("Pending: queue research cannot admit the gang: capability 8 nvidia.com/gpu, none in "
                               "use; this gang needs 16")
    assert lines[1] == "job mpijobs.kubeflow.org/bert -n research"
    assert "  podgroups.scheduling.volcano.sh/bert: latest Warning event Unschedulable (x4, last " \
           "2026-11-26T20:11:00Z): queue resource quota insufficient" in lines
    assert any(line.startswith("  nodes: the gang fits the 3 nodes of context fake") for line in lines)
    assert "not read (" not in out
    assert {method for method, _, _ in server.requests} == {"GET"}
    # beside what --kube-context lists, what the README says diagnose needs: get of these, list of those
    asked = set()
    for _, path, _ in server.requests:
        parts = path.split("/")[2:] if path.startswith("/api/") else path.split("/")[3:]  # after the version
        parts = parts[1:] if parts and parts[0].startswith("v") else parts
        if parts[:1] == ["namespaces"] and len(parts) >= 3:
            asked.add(("get" if len(parts) == 4 else "list", parts[2], "namespaced"))
        elif len(parts) == 2:
            asked.add(("get", parts[0], "cluster"))
    assert asked == {("get", "mpijobs", "namespaced"), ("get", "podgroups", "namespaced"),
                     ("get", "services", "namespaced"), ("get", "jobs", "namespaced"),
                     ("get", "configmaps", "namespaced"),  # the Volcano scheduler's, as --kube-context gets it
                     ("list", "pods", "namespaced"), ("list", "events", "namespaced"),
                     ("list", "workloads", "namespaced"), ("get", "queues", "cluster")}
    code, out, _ = run(["diagnose", "mpijobs.kubeflow.org/bert", "-n", NS, "--format", "json",
                        "--kubeconfig", config(tmp_path, server, pki)], capsys)
    data = json.loads(out)
    assert code == 1 and data["phase"] == "Pending"
    waiting = "PodScheduled=False (Unschedulable): pod group is not ready, 3 Pending, 3 minAvailable"
    held = ("the gang scheduler holds the PodGroup: Unschedulable=True (NotEnoughResources): 3/3 tasks in gang "
            "unschedulable")
    assert data["causes"][:2] == [{"code": "queue-cannot-admit", "message": data["causes"][0]["message"]},
                                  {"code": "podgroup-unschedulable", "message": held}]
    assert data["causes"][2:] == [  # bert-worker-0 has an event of its own
        {"code": "pod-unschedulable", "message": f"pods bert-launcher-x7k2p, bert-worker-1 not scheduled: {waiting}"},
        {"code": "pod-unschedulable", "message": f"pod bert-worker-0 not scheduled: {waiting}; latest event "
                                                 "FailedScheduling (last 2026-11-26T20:10:00Z): 0/3 nodes are "
                                                 "available: pod group is not ready"}]
    assert data["job"] == {"kind": "MPIJob", "name": "bert", "namespace": NS, "context": "fake"}


def test_a_running_job_live(tmp_path: Path, server: FakeApiServer, pki: Path, capsys: pytest.CaptureFixture) -> None:
    code, out, err = run(["diagnose", "mpijob/small", "-n", NS, "--kubeconfig", config(tmp_path, server, pki)], capsys)
    assert (code, out.splitlines()[0]) == (0, "Running: 3 of 3 pods"), err


def test_a_kueue_job_live(tmp_path: Path, server: FakeApiServer, pki: Path, capsys: pytest.CaptureFixture) -> None:
    code, out, _ = run(["diagnose", "pytorchjob/ddp", "-n", NS, "--kubeconfig", config(tmp_path, server, pki)], capsys)
    assert (code, out.splitlines()[0]) == (1, "Suspended: Kueue has not admitted Workload pytorchjob-ddp-3f2a1 "
                                              "(QuotaReserved=False (Pending): insufficient quota)")


def test_a_job_that_does_not_exist(tmp_path: Path, server: FakeApiServer, pki: Path,
                                   capsys: pytest.CaptureFixture) -> None:
    code, out, err = run(["diagnose", "tfjob/gone", "-n", NS, "--kubeconfig", config(tmp_path, server, pki)], capsys)
    assert (code, out) == (2, "")
    assert err == "mpigen: tfjobs.kubeflow.org 'gone' not found in namespace research (context fake)\n"
    code, out, err = run(["diagnose", "deployment/x", "--kubeconfig", config(tmp_path, server, pki)], capsys)
    assert (code, err) == (2, "mpigen: 'deployment' is not a kind mpigen diagnoses (mpijob, pytorchjob, tfjob, "
                              "trainjob)\n")


def test_a_cluster_without_the_kind(tmp_path: Path, pki: Path, capsys: pytest.CaptureFixture) -> None:
    with FakeApiServer(pki, held_cluster(), served=KINDS) as fake:
        code, _, err = run(["diagnose", "trainjob/x", "-n", NS, "--kubeconfig", config(tmp_path, fake, pki)], capsys)
    assert (code, err) == (2, "mpigen: the cluster of context fake does not serve trainjobs.trainer.kubeflow.org: no "
                              "TrainJob can exist there\n")


def test_a_kind_served_in_another_version(tmp_path: Path, pki: Path, capsys: pytest.CaptureFixture) -> None:
    """training-operator's old MPIJob kubeflow.org/v1: not the v2beta1 mpi-operator's rules are for."""
    old = [k for k in FAKE_JOB_KINDS if k.resource != "mpijobs"] + \
        [Kind("kubeflow.org", "v1", "mpijobs", "MPIJob", True)]
    held = held_cluster()
    held["mpijobs"] = [dict(job, apiVersion="kubeflow.org/v1") for job in held["mpijobs"]]
    with FakeApiServer(pki, held, served=KINDS + tuple(old)) as fake:
        code, _, err = run(["diagnose", "mpijob/bert", "-n", NS, "--kubeconfig", config(tmp_path, fake, pki)], capsys)
    assert (code, err) == (2, "mpigen: the cluster of context fake serves mpijobs.kubeflow.org as kubeflow.org/v1: "
                              "mpigen's rules are for kubeflow.org/v2beta1\n")


def test_an_unreachable_cluster(tmp_path: Path, pki: Path, capsys: pytest.CaptureFixture) -> None:
    import socket

    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    path = kubeconfig(tmp_path / "kubeconfig", f"https://127.0.0.1:{port}", pki, {"token": TOKEN})
    code, out, err = run(["diagnose", "mpijob/bert", "-n", NS, "--kubeconfig", str(path)], capsys)
    assert (code, out) == (2, "")
    assert err.startswith(f"mpigen: cannot reach the cluster at https://127.0.0.1:{port} (context fake)")


def test_a_user_who_may_list_only_some_kinds(tmp_path: Path, pki: Path, capsys: pytest.CaptureFixture) -> None:
    """Neither the pods, the events nor the Volcano queues: diagnose says so, and answers with the rest."""
    with FakeApiServer(pki, held_cluster(), served=KINDS + FAKE_JOB_KINDS,
                       forbidden={"pods", "events", "queues"}) as fake:
        code, out, err = run(["diagnose", "mpijob/bert", "-n", NS, "--kubeconfig", config(tmp_path, fake, pki)],
                             capsys)
        _, as_json, _ = run(["diagnose", "mpijob/bert", "-n", NS, "--format", "json",
                             "--kubeconfig", config(tmp_path, fake, pki)], capsys)
    assert code == 1, err
    lines = out.splitlines()
    assert lines[0].startswith("Pending: the gang scheduler holds the PodGroup: Unschedulable=True")
    read = lines[lines.index("not read (the answer is made without it):") + 1:]
    assert read == [
        '  may not list pods in all namespaces, so the Pods are left out: pods is forbidden: User "jane" cannot '
        'list resource "pods" in API group "" at the cluster scope',
        '  may not list queues.scheduling.volcano.sh at the cluster scope, so the Queues are left out: '
        'queues.scheduling.volcano.sh is forbidden: User "jane" cannot list resource "queues" in API group '
        '"scheduling.volcano.sh" at the cluster scope',
        '  may not list pods in namespace research: pods is forbidden: User "jane" cannot list resource "pods" in API '
        'group "" in the namespace "research"',
        '  may not get queues.scheduling.volcano.sh at the cluster scope: queues "research" is forbidden: User "jane" '
        'cannot get resource "queues" in API group "scheduling.volcano.sh" in the namespace ""',
        '  may not list events in namespace research: events is forbidden: User "jane" cannot list resource "events" '
        'in API group "" in the namespace "research"']
    assert json.loads(as_json)["unread"] == [line.strip() for line in read]
    assert "gang-cannot-fit" not in out and "queue-cannot-admit" not in out  # nothing proven without them


def test_a_trainjob_live(tmp_path: Path, pki: Path, capsys: pytest.CaptureFixture) -> None:
    """Trainer's default runtime torch-distributed (the cluster lists none): a JobSet of 2 pods."""
    trainjob = {"apiVersion": "trainer.kubeflow.org/v1alpha1", "kind": "TrainJob",
                "metadata": {"name": "tj", "namespace": NS, "uid": "uid-tj"},
                "spec": {"runtimeRef": {"name": "torch-distributed"}, "trainer": {"numNodes": 2}}}
    jobset = {"apiVersion": "jobset.x-k8s.io/v1alpha2", "kind": "JobSet", "metadata": {"name": "tj", "namespace": NS}}

    def trainer_pod(index: int, phase: str) -> dict[str, Any]:
        return {"apiVersion": "v1", "kind": "Pod", "metadata": {
            "name": f"tj-node-0-{index}-ab12c", "namespace": NS, "labels": {"jobset.sigs.k8s.io/jobset-name": "tj"}},
            "spec": {"containers": [container("node")], "nodeName": "node-0"}, "status": {"phase": phase}}

    held = {"trainjobs": [trainjob], "jobsets": [jobset], "nodes": [node("node-0")],
            "pods": [trainer_pod(0, "Running"), trainer_pod(1, "Pending")]}
    with FakeApiServer(pki, held, served=KINDS + FAKE_JOB_KINDS) as fake:
        code, out, _ = run(["diagnose", "trainjob/tj", "-n", NS, "--kubeconfig", config(tmp_path, fake, pki)], capsys)
        assert (code, out.splitlines()[0]) == (1, "Pending: 1 of 2 pods running; no cause found in what could be read")
        assert "  trainjobs.trainer.kubeflow.org/tj: Kubeflow Trainer v2.3.0 creates 1 JobSet (as mpigen explain " \
               "computes it); of those read back (not the ConfigMaps and Secrets), 1 of 1 exist" in out.splitlines()
        fake.objects["pods"][1]["status"]["phase"] = "Running"
        code, out, _ = run(["diagnose", "trainjob/tj", "-n", NS, "--kubeconfig", config(tmp_path, fake, pki)], capsys)
        assert (code, out.splitlines()[0]) == (0, "Running: 2 of 2 pods")


def test_the_operator_version_names_what_is_read_back(tmp_path: Path, server: FakeApiServer, pki: Path,
                                                     capsys: pytest.CaptureFixture) -> None:
    """mpi-operator v0.4's workers' Service is <job>-worker: that is the one looked for."""
    code, out, _ = run(["diagnose", "mpijob/small", "-n", NS, "--operator-version", "v0.4.0",
                        "--kubeconfig", config(tmp_path, server, pki)], capsys)
    assert code == 0
    assert ("GET", f"/api/v1/namespaces/{NS}/services/small-worker", {}) in server.requests
    assert f"/api/v1/namespaces/{NS}/services/small" not in [path for _, path, _ in server.requests]
    assert "  mpijobs.kubeflow.org/small: error object-missing mpi-operator creates services/small-worker for " \
           "this job (as mpigen explain computes it) and the cluster has no such object: look at the operator's log " \
           "and the job's events" in out.splitlines()
