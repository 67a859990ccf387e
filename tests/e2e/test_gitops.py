"""GitOps for real: a `mpigen build -o` tree applied with `kubectl apply -k`; the spec changes
(workers 2 -> 4), `mpigen check` sees the drift, `mpigen check --fix` rewrites the tree, and the
tree applied again makes the live job follow."""

from __future__ import annotations

import time
from pathlib import Path

import yaml

from tests.e2e.conftest import Kube

WAIT_SECONDS = 120


def _spec(namespace: str, workers: int) -> dict:
    return {
        "apiVersion": "mpigen.dev/v1alpha1", "kind": "TrainingJob",
        "metadata": {"name": "gitops", "namespace": namespace},
        "spec": {"framework": "mpi", "image": "mpioperator/tensorflow-benchmarks:latest",
                 "command": ["python", "train.py"], "workers": workers,
                 "resources": {"cpu": "2", "memory": "4Gi"}, "scheduling": {"gang": "volcano"}},
    }


def _running_workers(kube: Kube, namespace: str) -> list[str]:
    pods = kube.get("pods", "-n", namespace, "-l",
                    "training.kubeflow.org/job-name=gitops,training.kubeflow.org/job-role=worker")["items"]
    return sorted(p["metadata"]["name"] for p in pods if p["status"].get("phase") == "Running")


def _wait_workers(kube: Kube, namespace: str, count: int) -> list[str]:
    deadline = time.monotonic() + WAIT_SECONDS
    running: list[str] = []
    while time.monotonic() < deadline:
        running = _running_workers(kube, namespace)
        if len(running) == count:
            break
        time.sleep(1)
    return running


def test_the_live_job_follows_the_spec(kube: Kube, tmp_path: Path) -> None:
    namespace = kube.namespaces["volcano"]
    repo = tmp_path / "repo"
    (repo / "specs").mkdir(parents=True)
    (repo / ".mpigen.yaml").write_text(yaml.safe_dump({"specs": ["specs/*.yaml"], "output": "deploy"}))
    spec = repo / "specs" / "gitops.yaml"
    spec.write_text(yaml.safe_dump(_spec(namespace, 2)))
    built = kube.mpigen("build", "specs/gitops.yaml", "-o", "deploy", cwd=repo)
    assert built.returncode == 0, built.stderr
    base = repo / "deploy" / "gitops" / "base"
    kube.kubectl("apply", "-k", str(base))
    try:
        assert len(_wait_workers(kube, namespace, 2)) == 2

        spec.write_text(yaml.safe_dump(_spec(namespace, 4)))
        drift = kube.mpigen("check", cwd=repo)
        assert drift.returncode == 1, f"mpigen check saw no drift:\n{drift.stdout}{drift.stderr}"
        fixed = kube.mpigen("check", "--fix", cwd=repo)
        assert fixed.returncode == 0, fixed.stdout + fixed.stderr
        assert kube.mpigen("check", cwd=repo).returncode == 0

        kube.kubectl("apply", "-k", str(base))
        job = kube.get("mpijob", "gitops", "-n", namespace)
        assert job["spec"]["mpiReplicaSpecs"]["Worker"]["replicas"] == 4
        running = _wait_workers(kube, namespace, 4)
        assert running == [f"gitops-worker-{i}" for i in range(4)], running
    finally:
        kube.kubectl("delete", "-k", str(base), "--wait=true", "--timeout=90s", check=False, timeout=120)
