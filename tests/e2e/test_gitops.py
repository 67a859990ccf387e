"""GitOps for real: a `mpigen build -o` tree applied with `kubectl apply -k`; the spec changes
(workers 2 -> 4), `mpigen check` sees the drift, `mpigen check --fix` rewrites the tree, and the
tree applied again makes the live job follow. A change the API server refuses on a live object
(a PyTorchJob's queue) is warned about by `mpigen check`, is refused by the server as warned, and
goes through once the job is deleted and created again."""

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


def _pytorch_spec(namespace: str, queue: str) -> dict:
    return {
        "apiVersion": "mpigen.dev/v1alpha1", "kind": "TrainingJob",
        "metadata": {"name": QUEUED, "namespace": namespace},
        "spec": {"framework": "pytorch", "image": "example/train:1", "command": ["python", "train.py"],
                 "workers": 1, "resources": {"cpu": "1", "memory": "1Gi"},
                 "scheduling": {"gang": "volcano", "queue": queue}},
    }


QUEUED = "immutable-queue"


def _podgroup_queue(kube: Kube, namespace: str) -> str | None:
    done = kube.kubectl("get", "podgroups.scheduling.volcano.sh", QUEUED, "-n", namespace, "-o",
                        "jsonpath={.spec.queue}", check=False)
    return done.stdout if done.returncode == 0 else None


def _wait_podgroup(kube: Kube, namespace: str, queue: str | None) -> str | None:
    """The queue of the job's PodGroup once it is ``queue`` (None: once the PodGroup is gone)."""
    deadline = time.monotonic() + WAIT_SECONDS
    found = _podgroup_queue(kube, namespace)
    while found != queue and time.monotonic() < deadline:
        time.sleep(1)
        found = _podgroup_queue(kube, namespace)
    return found


def test_a_queue_change_needs_the_job_deleted_and_recreated(kube: Kube, tmp_path: Path) -> None:
    namespace = kube.namespaces["volcano"]
    repo = tmp_path / "repo"
    (repo / "specs").mkdir(parents=True)
    (repo / ".mpigen.yaml").write_text(yaml.safe_dump({"specs": ["specs/*.yaml"], "output": "deploy"}))
    spec = repo / "specs" / "queued.yaml"
    spec.write_text(yaml.safe_dump(_pytorch_spec(namespace, "research")))
    built = kube.mpigen("build", "specs/queued.yaml", "-o", "deploy", cwd=repo)
    assert built.returncode == 0, built.stderr
    base = repo / "deploy" / QUEUED / "base"
    kube.kubectl("apply", "-k", str(base))
    try:
        assert _wait_podgroup(kube, namespace, "research") == "research"

        spec.write_text(yaml.safe_dump(_pytorch_spec(namespace, "nlp")))
        checked = kube.mpigen("check", cwd=repo)
        assert checked.returncode == 1, checked.stdout + checked.stderr
        (warning,) = [line for line in checked.stderr.splitlines() if " immutable-field " in line]
        assert warning.startswith(f"deploy/{QUEUED}/base/pytorchjob.yaml:"), warning
        assert 'spec.runPolicy.schedulingPolicy.queue: "research" -> "nlp"' in warning
        assert "must be deleted and re-created" in warning
        fixed = kube.mpigen("check", "--fix", cwd=repo)
        assert fixed.returncode == 0, fixed.stdout + fixed.stderr
        assert " immutable-field " in fixed.stderr

        refused = kube.kubectl("apply", "-k", str(base), check=False)
        assert refused.returncode != 0, refused.stdout
        assert "spec.runPolicy.schedulingPolicy.queue" in refused.stderr, refused.stderr
        assert "immutable" in refused.stderr, refused.stderr
        job = kube.get("pytorchjob", QUEUED, "-n", namespace)
        assert job["spec"]["runPolicy"]["schedulingPolicy"]["queue"] == "research"

        # as the warning says: delete, then apply (the operator's PodGroup goes with the job)
        kube.kubectl("delete", "-k", str(base), "--wait=true", "--timeout=90s", timeout=120)
        assert _wait_podgroup(kube, namespace, None) is None
        kube.kubectl("apply", "-k", str(base))
        job = kube.get("pytorchjob", QUEUED, "-n", namespace)
        assert job["spec"]["runPolicy"]["schedulingPolicy"]["queue"] == "nlp"
        assert _wait_podgroup(kube, namespace, "nlp") == "nlp"
    finally:
        kube.kubectl("delete", "-k", str(base), "--wait=true", "--timeout=90s", check=False, timeout=120)
