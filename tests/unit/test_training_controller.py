"""mpigen.operator.training_controller: training-operator v1.9.4's Pods, Services, env and TF_CONFIG.

The last tests run the real operator (tests/oracle/training-v1.9, built by its owner into
tests/oracle/bin) on the same jobs and compare every Pod, Service and the PodGroup.
"""

from __future__ import annotations

import copy
import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from mpigen.operator import training_controller as tc
from mpigen.operator.mpi_controller import NotCreated
from mpigen.operator.podgroup import OperatorPanicError

ORACLE = Path(__file__).resolve().parents[1] / "oracle" / "bin" / "training-v1.9"


def replica(n: int | None, container: str, **extra: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"template": {"spec": {"containers": [{"name": container, "image": "img:1"}]}}, **extra}
    if n is not None:
        out["replicas"] = n
    return out


def pytorch(workers: int = 3, master: bool = True, **spec: Any) -> dict[str, Any]:
    specs = {"Worker": replica(workers, "pytorch")}
    if master:
        specs = {"Master": replica(1, "pytorch"), **specs}
    return {"apiVersion": "kubeflow.org/v1", "kind": "PyTorchJob", "metadata": {"name": "pt", "namespace": "ml"},
            "spec": {"pytorchReplicaSpecs": specs, **spec}}


def tfjob(**types: int) -> dict[str, Any]:
    return {"apiVersion": "kubeflow.org/v1", "kind": "TFJob", "metadata": {"name": "tf"},
            "spec": {"tfReplicaSpecs": {t: replica(n, "tensorflow") for t, n in types.items()}}}


def objects(job: dict[str, Any], *args: Any, **kwargs: Any) -> list[dict[str, Any]]:
    out = list(tc.created_objects(job, *args, **kwargs))
    for obj in out:  # TF_CONFIG as the operator writes it
        for container in obj.get("spec", {}).get("containers", []) if obj["kind"] == "Pod" else []:
            for env in container.get("env") or []:
                if isinstance(env.get("value"), tc.TFConfig):
                    env["value"] = str(env["value"])
    return out


def env(pod: dict[str, Any], container: int = 0) -> dict[str, str | None]:
    return {e["name"]: e.get("value") for e in pod["spec"]["containers"][container].get("env") or []}


def by_name(objs: list[dict[str, Any]], kind: str) -> dict[str, dict[str, Any]]:
    return {o["metadata"]["name"]: o for o in objs if o["kind"] == kind}


def test_pytorch_pods_services_and_env() -> None:
    objs = objects(pytorch())
    assert [(o["kind"], o["metadata"]["name"]) for o in objs] == [
        ("Pod", "pt-master-0"), ("Service", "pt-master-0"), ("Pod", "pt-worker-0"), ("Pod", "pt-worker-1"),
        ("Pod", "pt-worker-2"), ("Service", "pt-worker-0"), ("Service", "pt-worker-1"), ("Service", "pt-worker-2")]
    pods = by_name(objs, "Pod")
    master, worker = pods["pt-master-0"], pods["pt-worker-1"]
    assert master["metadata"]["labels"] == {
        "training.kubeflow.org/operator-name": "pytorchjob-controller", "training.kubeflow.org/job-name": "pt",
        "training.kubeflow.org/replica-type": "master", "training.kubeflow.org/replica-index": "0",
        "training.kubeflow.org/job-role": "master"}
    assert "training.kubeflow.org/job-role" not in pods["pt-worker-0"]["metadata"]["labels"]
    assert env(worker) == {"PYTHONUNBUFFERED": "1", "MASTER_PORT": "23456", "PET_MASTER_PORT": "23456",
                           "MASTER_ADDR": "pt-master-0", "PET_MASTER_ADDR": "pt-master-0", "WORLD_SIZE": "4",
                           "RANK": "2", "PET_NODE_RANK": "2", "PET_NPROC_PER_NODE": "auto", "PET_NNODES": "4"}
    assert env(master)["RANK"] == "0"
    assert master["spec"]["restartPolicy"] == "OnFailure" and "initContainers" not in master["spec"]
    (init,) = worker["spec"]["initContainers"]
    assert init["name"] == "init-pytorch" and init["image"] == "alpine:3.10"
    assert "seq 100); do if nslookup pt-master-0;" in init["command"][2]
    service = by_name(objs, "Service")["pt-worker-2"]
    assert service["spec"] == {"clusterIP": "None", "selector": service["metadata"]["labels"],
                               "ports": [{"name": "pytorchjob-port", "port": 23456}]}
    assert service["metadata"]["labels"]["training.kubeflow.org/replica-index"] == "2"


def test_pytorch_env_goes_to_every_container_and_nproc_counts_in_world_size() -> None:
    job = pytorch(workers=1, nprocPerNode="4")
    job["spec"]["pytorchReplicaSpecs"]["Worker"]["template"]["spec"]["containers"].append(
        {"name": "sidecar", "image": "s", "env": [{"name": "MINE", "value": "x"}]})
    worker = by_name(objects(job), "Pod")["pt-worker-0"]
    assert env(worker)["WORLD_SIZE"] == "8" and env(worker)["PET_NPROC_PER_NODE"] == "4"
    assert list(env(worker, 1))[:2] == ["MINE", "PYTHONUNBUFFERED"] and env(worker, 1)["RANK"] == "1"


def test_pytorch_elastic_without_master() -> None:
    job = pytorch(workers=2, master=False, elasticPolicy={
        "minReplicas": 1, "maxReplicas": 4, "rdzvBackend": "etcd", "maxRestarts": 3, "rdzvId": "x",
        "rdzvConf": [{"key": "a", "value": "1"}, {"key": "b", "value": "2"}], "standalone": True})
    pods = by_name(objects(job), "Pod")
    first = pods["pt-worker-0"]
    assert first["metadata"]["labels"]["training.kubeflow.org/job-role"] == "master"
    assert "training.kubeflow.org/job-role" not in pods["pt-worker-1"]["metadata"]["labels"]
    assert "initContainers" not in first["spec"]
    assert [e for e in first["spec"]["containers"][0]["env"]] == [
        {"name": "PYTHONUNBUFFERED", "value": "1"}, {"name": "PET_NPROC_PER_NODE", "value": "auto"},
        {"name": "PET_RDZV_ENDPOINT", "value": "pt-worker-0:23456"}, {"name": "PET_RDZV_BACKEND", "value": "etcd"},
        {"name": "PET_NNODES", "value": "1:4"}, {"name": "PET_MAX_RESTARTS", "value": "3"},
        {"name": "PET_RDZV_ID", "value": "x"}, {"name": "PET_RDZV_CONF", "value": "a=1,b=2"},
        {"name": "PET_STANDALONE"}]


def test_pytorch_hpa_and_the_empty_rdzv_conf_panic() -> None:
    job = pytorch(elasticPolicy={"maxReplicas": 5, "metrics": [{"type": "Resource"}]})
    hpa = objects(job)[0]
    assert hpa["kind"] == "HorizontalPodAutoscaler" and hpa["spec"]["minReplicas"] == 5
    assert hpa["spec"]["scaleTargetRef"] == {"kind": "PyTorchJob", "name": "pt", "apiVersion": "kubeflow.org/v1"}
    with pytest.raises(OperatorPanicError, match="rdzvConf"):
        objects(pytorch(elasticPolicy={"rdzvConf": []}))


def test_tf_config_as_the_operator_marshals_it() -> None:
    pods = by_name(objects(tfjob(PS=1, Worker=2, Chief=1), cluster_domain="cluster.local"), "Pod")
    assert list(pods) == ["tf-ps-0", "tf-worker-0", "tf-worker-1", "tf-chief-0"]
    assert env(pods["tf-worker-1"])["TF_CONFIG"] == (
        '{"cluster":{"chief":["tf-chief-0.default.svc.cluster.local:2222"],'
        '"ps":["tf-ps-0.default.svc.cluster.local:2222"],'
        '"worker":["tf-worker-0.default.svc.cluster.local:2222","tf-worker-1.default.svc.cluster.local:2222"]},'
        '"task":{"type":"worker","index":1},"environment":"cloud"}')
    assert pods["tf-chief-0"]["metadata"]["labels"]["training.kubeflow.org/job-role"] == "master"
    assert "training.kubeflow.org/job-role" not in pods["tf-worker-0"]["metadata"]["labels"]


def test_tf_config_sparse_and_not_distributed() -> None:
    job = tfjob(Worker=2, Evaluator=1)
    job["spec"]["enableDynamicWorker"] = True
    pods = by_name(objects(job), "Pod")
    assert env(pods["tf-worker-1"])["TF_CONFIG"] == \
        '{"cluster":{"worker":{"1":"tf-worker-1.default.svc:2222"},"ps":null},"task":{"type":"worker","index":1}}'
    assert env(pods["tf-evaluator-0"])["TF_CONFIG"] == \
        '{"cluster":{"worker":{},"ps":[]},"task":{"type":"evaluator","index":0}}'
    single = by_name(objects(tfjob(Worker=1)), "Pod")["tf-worker-0"]
    assert "env" not in single["spec"]["containers"][0]


def test_restart_policy_exit_code_and_suspend() -> None:
    job = pytorch()
    job["spec"]["pytorchReplicaSpecs"]["Worker"]["restartPolicy"] = "ExitCode"
    assert by_name(objects(job), "Pod")["pt-worker-0"]["spec"]["restartPolicy"] == "Never"
    assert objects(pytorch(runPolicy={"suspend": True}), "volcano") == []


@pytest.mark.parametrize("change, message", [
    (lambda j: j["spec"]["pytorchReplicaSpecs"]["Master"].update(replicas=2), "Master replicas must be 1"),
    (lambda j: j["spec"]["pytorchReplicaSpecs"].update(worker=j["spec"]["pytorchReplicaSpecs"].pop("Worker")),
     "'worker' is not supported"),
    (lambda j: j["spec"]["pytorchReplicaSpecs"]["Worker"]["template"]["spec"]["containers"][0].update(name="x"),
     "container named pytorch"),
    (lambda j: j["metadata"].update(name="Bad_Name"), "DNS-1035"),
])
def test_the_webhook_rejects(change, message: str) -> None:
    job = pytorch()
    change(job)
    with pytest.raises(NotCreated, match=message):
        objects(job)


def test_another_controller_and_tf_with_two_leads() -> None:
    with pytest.raises(NotCreated, match="another controller"):
        objects(pytorch(runPolicy={"managedBy": "kueue.x-k8s.io/multikueue"}))
    with pytest.raises(NotCreated, match="more than 1 Chief or Master"):
        objects(tfjob(Chief=1, Master=1))


@pytest.mark.parametrize("gang", [None, "volcano", "scheduler-plugins"])
def test_shared_pods_equal_the_pods_built_one_by_one(gang: str | None) -> None:
    for job in (pytorch(workers=4), tfjob(PS=2, Worker=3)):
        created = [o for o in objects(job, gang, scheduler_name="sp") if o["kind"] == "Pod"]
        prepared = tc.prepared(job)
        alone = []
        for rtype in tc.replica_types(prepared):
            for i in range(prepared["spec"][tc._fw(prepared)["key"]][rtype]["replicas"]):
                pod = tc.pod(prepared, rtype, i, gang, "sp")
                for container in pod["spec"]["containers"]:
                    for e in container.get("env") or []:
                        if isinstance(e.get("value"), tc.TFConfig):
                            e["value"] = str(e["value"])
                alone.append(pod)
        assert created == alone


def test_max_pods_bounds_pods_and_services_and_input_is_kept() -> None:
    job = pytorch(workers=1_000_000)
    before = copy.deepcopy(job)
    objs = objects(job, "volcano", max_pods=1)
    assert [o["kind"] for o in objs] == ["PodGroup", "Pod", "Service", "Pod", "Service"]
    assert objs[0]["spec"]["minMember"] == 1_000_001
    assert job == before


# ----------------------------------------------------------------------------- the oracle

def _normalized(obj: Any) -> Any:
    """What the oracle's typed Go objects add: zero values, owner references, status, timestamps."""
    if isinstance(obj, dict):
        out = {k: _normalized(v) for k, v in obj.items()
               if k not in ("creationTimestamp", "ownerReferences", "status") and not (k == "targetPort" and v == 0)}
        return {k: v for k, v in out.items() if v not in ({}, None)}
    if isinstance(obj, list):
        return [_normalized(v) for v in obj]
    return obj


def _oracle_init_container(pod: dict[str, Any]) -> None:
    """The oracle does not parse the operator's flags: its init container has no image and 0 tries."""
    for init in pod["spec"].get("initContainers") or []:
        if init["name"] == "init-pytorch" and "image" not in init:
            init["image"] = tc.INIT_CONTAINER_IMAGE
            init["command"][2] = init["command"][2].replace("$(seq 0)", f"$(seq {tc.INIT_CONTAINER_MAX_TRIES})")


ORACLE_JOBS = {
    "pytorch": pytorch(workers=3),
    "pytorch-nproc-labels": pytorch(workers=2, nprocPerNode="2", runPolicy={"schedulingPolicy": {"minAvailable": 3}}),  # all: no random cut
    "pytorch-elastic": pytorch(workers=2, master=False, elasticPolicy={"minReplicas": 1, "maxReplicas": 3,
                                                                       "rdzvConf": [{"key": "k", "value": "v"}]}),
    "tf": tfjob(PS=2, Worker=3, Chief=1, Evaluator=1),
    "tf-single": tfjob(Worker=1),
}
ORACLE_JOBS["tf-sparse"] = copy.deepcopy(ORACLE_JOBS["tf"])
ORACLE_JOBS["tf-sparse"]["spec"]["enableDynamicWorker"] = True
ORACLE_JOBS["pytorch-nproc-labels"]["spec"]["pytorchReplicaSpecs"]["Worker"]["template"]["metadata"] = {
    "labels": {"team": "a"}, "annotations": {"note": "n"}}
ORACLE_JOBS["pytorch-nproc-labels"]["spec"]["pytorchReplicaSpecs"]["Worker"]["template"]["spec"]["containers"][0][
    "resources"] = {"requests": {"cpu": "2", "memory": "1Gi"}}


@pytest.mark.oracle
@pytest.mark.parametrize("gang", ["volcano", "scheduler-plugins"])
def test_every_pod_service_and_podgroup_match_the_operator(gang: str) -> None:
    from tests.oracle.harness import build

    build(ORACLE.name)  # go build once (a fresh clone has no binary yet)
    requests = [json.dumps({"id": key, "job": job, "gang": gang, "schedulerName": "sp", "maxPods": 100,
                            "priorityClasses": []}) for key, job in ORACLE_JOBS.items()]
    run = subprocess.run([str(ORACLE)], input="\n".join(requests) + "\n", capture_output=True, text=True,
                         timeout=300, check=True)
    for line in run.stdout.splitlines():
        result = json.loads(line)
        job = ORACLE_JOBS[result["id"]]
        assert result["error"] == "", result
        mine = objects(job, gang, scheduler_name="sp")
        groups = [o for o in mine if o["kind"] == "PodGroup"]
        assert [_normalized(g) for g in groups] == [_normalized(result["podgroup"])], result["id"]
        theirs = result["objects"]
        for pod in theirs:
            if pod["kind"] == "Pod":
                _oracle_init_container(pod)
        key = lambda o: (o["kind"], o["metadata"]["name"])  # noqa: E731
        assert sorted(map(key, theirs)) == sorted(key(o) for o in mine if o["kind"] in ("Pod", "Service"))
        expected = {key(o): _normalized(o) for o in theirs}
        for obj in mine:
            if obj["kind"] in ("Pod", "Service"):
                assert _normalized(obj) == expected[key(obj)], (result["id"], key(obj))
