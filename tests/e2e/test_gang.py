"""Gang scheduling for real, with Volcano and with scheduler-plugins' Coscheduling.

The cluster has four kwok nodes of 8 GPUs each, node-0..node-3 (and the production pools cpu-0
and gpu-0..gpu-3, whose taints these jobs do not tolerate). A job of four 8-GPU workers (and a
small launcher) fits: every pod is bound and Running. The same job with a fifth worker does not:
the scheduler binds none of its pods (all or nothing), and `mpigen explain --cluster FILE`, given
the Nodes and PriorityClasses as kubectl prints them, says so before it is applied.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
import yaml

from tests.e2e.conftest import Kube

GANGS = ("volcano", "scheduler-plugins")
BIND_SECONDS = 120  # how long a fitting gang may take to be bound and Running
HOLD_SECONDS = 30  # how long an oversized gang is watched for a pod that gets bound anyway


def spec(name: str, namespace: str, gang: str, workers: int, framework: str = "mpi") -> dict:
    doc = {
        "apiVersion": "mpigen.dev/v1alpha1", "kind": "TrainingJob",
        "metadata": {"name": name, "namespace": namespace},
        "spec": {
            "framework": framework, "image": "mpioperator/tensorflow-benchmarks:latest",
            "command": ["python", "train.py"], "workers": workers,
            "resources": {"gpu": 8, "cpu": "16", "memory": "64Gi"},
            "scheduling": {"gang": gang},
        },
    }
    if framework == "mpi":
        doc["spec"]["mpi"] = {"launcher": {"resources": {"cpu": "1", "memory": "1Gi"}}}
    else:  # the PyTorch master takes the workers' resources: one node fewer for the workers
        doc["spec"]["workers"] = workers - 1
    return doc


def _pods(kube: Kube, namespace: str, job: str) -> list[dict]:
    selector = f"training.kubeflow.org/job-name={job}"
    return kube.get("pods", "-n", namespace, "-l", selector)["items"]


def _write_spec(doc: dict, tmp_path: Path) -> Path:
    path = tmp_path / f"{doc['metadata']['name']}.yaml"
    path.write_text(yaml.safe_dump(doc))
    return path


def _apply_spec(kube: Kube, doc: dict, tmp_path: Path) -> Path:
    path = _write_spec(doc, tmp_path)
    built = kube.mpigen("build", str(path))
    assert built.returncode == 0, built.stderr
    kube.kubectl("apply", "--server-side", "--field-manager=mpigen-e2e", "-f", "-", stdin=built.stdout)
    return path


def _delete(kube: Kube, kind: str, namespace: str, name: str) -> None:
    kube.kubectl("delete", kind, name, "-n", namespace, "--wait=true", "--timeout=60s", check=False, timeout=90)
    deadline = time.monotonic() + 90
    while _pods(kube, namespace, name) and time.monotonic() < deadline:
        time.sleep(1)


@pytest.mark.parametrize("framework", ["mpi", "pytorch"])
@pytest.mark.parametrize("gang", GANGS)
def test_a_gang_that_fits_is_bound_and_running(kube: Kube, tmp_path: Path, nodes_file: Path, gang: str,
                                               framework: str) -> None:
    namespace = kube.namespaces[gang]
    name = f"fits-{framework}"
    doc = spec(name, namespace, gang, 4, framework)
    kind = "mpijob" if framework == "mpi" else "pytorchjob"
    explained = kube.mpigen("explain", str(_write_spec(doc, tmp_path)), "--cluster", str(nodes_file))
    assert explained.returncode == 0 and "gang-" not in explained.stderr, explained.stderr
    placement = ("node-0..node-3: 1 worker each; launcher on node-0" if framework == "mpi"
                 else "master on node-0; node-1..node-3: 1 worker each")
    assert f"the gang fits\n    {placement}\n" in explained.stdout, explained.stdout
    _apply_spec(kube, doc, tmp_path)
    try:
        expected = 5 if framework == "mpi" else 4
        deadline = time.monotonic() + BIND_SECONDS
        pods: list[dict] = []
        while time.monotonic() < deadline:
            pods = _pods(kube, namespace, name)
            if len(pods) == expected and all(p["status"].get("phase") == "Running" for p in pods):
                break
            time.sleep(1)
        summary = {p["metadata"]["name"]: (p["spec"].get("nodeName"), p["status"].get("phase")) for p in pods}
        assert len(pods) == expected and all(phase == "Running" for _, phase in summary.values()), (
            f"{gang}: not every pod bound and Running after {BIND_SECONDS} s: {json.dumps(summary)}")
    finally:
        _delete(kube, kind, namespace, name)


@pytest.mark.parametrize("gang", GANGS)
def test_a_gang_one_worker_too_large_gets_nothing(kube: Kube, tmp_path: Path, nodes_file: Path, gang: str) -> None:
    namespace = kube.namespaces[gang]
    name = "too-large"
    doc = spec(name, namespace, gang, 5)
    explained = kube.mpigen("explain", str(_write_spec(doc, tmp_path)), "--cluster", str(nodes_file))
    assert explained.returncode == 1, explained.stderr
    assert "error gang-cannot-fit the gang cannot fit the cluster file's 9 nodes" in explained.stderr
    assert ("5 workers need 8 nvidia.com/gpu each; cpu-0: none (taint dedicated=cpu:NoSchedule not tolerated), "
            "gpu-0..gpu-3: none (taint dedicated=gpu-training:NoSchedule not tolerated), node-0..node-3: at most 1 "
            "each (8 nvidia.com/gpu allocatable): room for 4 of 5") in explained.stderr, explained.stderr
    _apply_spec(kube, doc, tmp_path)
    try:
        deadline = time.monotonic() + HOLD_SECONDS
        pods: list[dict] = []
        while time.monotonic() < deadline:
            pods = _pods(kube, namespace, name)
            bound = [p["metadata"]["name"] for p in pods if p["spec"].get("nodeName")]
            assert not bound, f"{gang} bound {bound} of a gang that cannot fit"
            time.sleep(1)
        assert len(pods) == 6, f"the operator created {len(pods)} pods, not 6"
    finally:
        _delete(kube, "mpijob", namespace, name)
