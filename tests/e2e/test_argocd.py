"""Argo CD's health checks (mpigen/gitops) on live objects: jobs built by mpigen are applied to the
local cluster and driven to each phase the cluster can produce; once the controllers report a
phase (a condition, a PodGroup phase), the health script of the object's kind runs on the live
object under gopher-lua, as an argocd-cm script (tests/argocd/argocd-lua), and must give the
verdict of that phase:

- running (every pod bound and started by kwok): MPIJob, PyTorchJob, TFJob, TrainJob and its
  JobSet, the Volcano PodGroup are Healthy;
- gang-held (one worker more than the four kwok nodes hold): the job is Progressing, Volcano's
  PodGroup Progressing with its Unschedulable condition's message;
- suspended (runPolicy.suspend): MPIJob, PyTorchJob, TFJob, TrainJob and its JobSet are Suspended;
- succeeded and failed: kwok never ends a pod, so the test writes the pod's status as a kubelet
  would (phase Succeeded or Failed, its containers terminated); the launcher Job's controller, the
  operators, JobSet and Trainer then report Succeeded, Failed or Complete from it (Healthy,
  Degraded); runPolicy.activeDeadlineSeconds fails a job by the controllers' own clock (Degraded).

The local cluster runs scheduler-plugins' scheduler but not its PodGroup controller, which alone
writes a scheduler-plugins PodGroup's phase: such a PodGroup keeps no phase here, and its check must
say Progressing (waiting for that controller). Kueue is not part of the local cluster. The figure
is `A/N live objects: the Argo CD health checks agree with the controllers' phase`.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Callable

import pytest
import yaml

from tests.argocd import harness
from tests.e2e.conftest import FIGURES, Kube

WAIT_SECONDS = 120
HOLD_SECONDS = 20  # a gang still unbound after this long is held
AGREE: dict[str, bool] = {}  # "<Kind>/<name> <phase>" -> the verdict was the phase's
GPU_WORKER = {"gpu": 8, "cpu": "16", "memory": "64Gi"}  # a whole kwok node
SMALL = {"cpu": "1", "memory": "1Gi"}
RESOURCES = {  # kind -> (resource qualified by its group, folder of its health check)
    "MPIJob": ("mpijobs.kubeflow.org", "kubeflow.org/MPIJob"),
    "PyTorchJob": ("pytorchjobs.kubeflow.org", "kubeflow.org/PyTorchJob"),
    "TFJob": ("tfjobs.kubeflow.org", "kubeflow.org/TFJob"),
    "TrainJob": ("trainjobs.trainer.kubeflow.org", "trainer.kubeflow.org/TrainJob"),
    "JobSet": ("jobsets.jobset.x-k8s.io", "jobset.x-k8s.io/JobSet"),
    "VolcanoPodGroup": ("podgroups.scheduling.volcano.sh", "scheduling.volcano.sh/PodGroup"),
    "CoschedulingPodGroup": ("podgroups.scheduling.x-k8s.io", "scheduling.x-k8s.io/PodGroup"),
}


@pytest.fixture(scope="module")
def argocd_lua() -> Path:
    try:
        return harness.build()
    except harness.BuildError as exc:
        pytest.fail(str(exc))


def spec(name: str, namespace: str, framework: str, workers: int, *, gang: str = "none",
         resources: dict | None = None, runtime: str | None = None, **run_policy: object) -> dict:
    doc: dict = {
        "apiVersion": "mpigen.dev/v1alpha1", "kind": "TrainingJob",
        "metadata": {"name": name, "namespace": namespace},
        "spec": {"framework": framework, "image": "example/train:1", "command": ["python", "train.py"],
                 "workers": workers, "resources": resources or SMALL, "scheduling": {"gang": gang}},
    }
    if framework == "mpi":
        doc["spec"]["mpi"] = {"launcher": {"resources": SMALL}}
    if framework != "mpi" and runtime is None:
        doc["spec"]["restartPolicy"] = "Never"  # a failed pod fails the job at once
    if runtime:
        doc["spec"]["runtime"] = runtime
    if run_policy:
        doc["spec"]["runPolicy"] = run_policy
    return doc


def apply(kube: Kube, doc: dict, tmp_path: Path) -> None:
    path = tmp_path / f"{doc['metadata']['name']}.yaml"
    path.write_text(yaml.safe_dump(doc))
    built = kube.mpigen("build", str(path))
    assert built.returncode == 0, built.stderr
    done = kube.apply_when_cached("--server-side", "--field-manager=mpigen-e2e", "-f", "-", stdin=built.stdout)
    assert done.returncode == 0, done.stderr


def delete(kube: Kube, kind: str, namespace: str, name: str) -> None:
    kube.kubectl("delete", RESOURCES[kind][0], name, "-n", namespace, "--wait=true", "--timeout=60s", check=False,
                 timeout=90)


def live(kube: Kube, kind: str, namespace: str, name: str) -> dict | None:
    done = kube.kubectl("get", RESOURCES[kind][0], name, "-n", namespace, "-o", "json", check=False)
    return json.loads(done.stdout) if done.returncode == 0 else None


def true_condition(obj: dict | None, kind: str) -> dict | None:
    for condition in ((obj or {}).get("status") or {}).get("conditions") or []:
        if condition.get("type") == kind and condition.get("status") == "True":
            return condition
    return None


def wait_for(kube: Kube, kind: str, namespace: str, name: str, phase: str, reached: Callable[[dict], bool],
             seconds: float = WAIT_SECONDS) -> dict:
    """The live object once the controllers report PHASE (``reached``), polled once a second."""
    deadline = time.monotonic() + seconds
    obj = None
    while time.monotonic() < deadline:
        obj = live(kube, kind, namespace, name)
        if obj is not None and reached(obj):
            return obj
        time.sleep(1)
    pytest.fail(f"{kind}/{name} not {phase} after {seconds} s: {json.dumps((obj or {}).get('status'))}")


def check(argocd_lua: Path, tmp_path: Path, kind: str, obj: dict, phase: str, status: str,
          message: str | None = None) -> None:
    """The health check of KIND on the live OBJ says STATUS (and MESSAGE within its message)."""
    folder = harness.CUSTOMIZATIONS / RESOURCES[kind][1]
    path = tmp_path / f"{kind}-{obj['metadata']['name']}-{phase}.json"
    path.write_text(json.dumps(obj))
    (got,) = harness.run(argocd_lua, "health", [{"id": phase, "script": str(folder / "health.lua"),
                                                 "object": str(path), "openLibs": False}])
    agrees = not got.get("error") and got.get("status") == status and (message or "") in got.get("message", "")
    AGREE[f"{kind}/{obj['metadata']['name']} {phase}"] = agrees
    assert agrees, f"{kind}/{obj['metadata']['name']} {phase}: expected {status} ({message}), got {got}"


def pods(kube: Kube, namespace: str, selector: str) -> list[dict]:
    return kube.get("pods", "-n", namespace, "-l", selector)["items"]


def end_pods(kube: Kube, namespace: str, selector: str, exit_code: int) -> None:
    """Write each pod's status as a kubelet would once its containers exit: kwok never ends them."""
    now = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    found = pods(kube, namespace, selector)
    assert found, f"no pod in {namespace} matches {selector}"
    for pod in found:
        terminated = {"exitCode": exit_code, "reason": "Completed" if exit_code == 0 else "Error",
                      "startedAt": pod["status"].get("startTime", now), "finishedAt": now}
        status = {
            "phase": "Succeeded" if exit_code == 0 else "Failed",
            "conditions": [{"type": t, "status": s, "lastTransitionTime": now} for t, s in
                           (("Initialized", "True"), ("Ready", "False"), ("ContainersReady", "False"),
                            ("PodScheduled", "True"))],
            "containerStatuses": [{"name": c["name"], "image": c["image"], "imageID": "", "ready": False,
                                   "restartCount": 0, "started": False, "state": {"terminated": terminated}}
                                  for c in pod["spec"]["containers"]],
        }
        kube.kubectl("patch", "pod", pod["metadata"]["name"], "-n", namespace, "--subresource=status",
                     "--type=merge", "-p", json.dumps({"status": status}))


def all_running(kube: Kube, namespace: str, selector: str, count: int) -> bool:
    found = pods(kube, namespace, selector)
    return len(found) == count and all(p["status"].get("phase") == "Running" for p in found)


def job_selector(name: str, role: str = "") -> str:
    return f"training.kubeflow.org/job-name={name}" + (f",training.kubeflow.org/job-role={role}" if role else "")


# ------------------------------------------------------------------------------------------------


def test_mpijob_running_then_succeeded(kube: Kube, argocd_lua: Path, tmp_path: Path) -> None:
    namespace, name = kube.namespaces["volcano"], "argocd-mpi"
    apply(kube, spec(name, namespace, "mpi", 2, gang="volcano", resources=GPU_WORKER), tmp_path)
    try:
        job = wait_for(kube, "MPIJob", namespace, name, "running", lambda o: true_condition(o, "Running") is not None)
        check(argocd_lua, tmp_path, "MPIJob", job, "running", "Healthy", f"MPIJob {namespace}/{name} is running.")
        group = wait_for(kube, "VolcanoPodGroup", namespace, name, "running",
                         lambda o: (o.get("status") or {}).get("phase") == "Running")
        check(argocd_lua, tmp_path, "VolcanoPodGroup", group, "running", "Healthy", "Running: ")
        end_pods(kube, namespace, job_selector(name, "launcher"), 0)
        job = wait_for(kube, "MPIJob", namespace, name, "succeeded", lambda o: true_condition(o, "Succeeded") is not None)
        check(argocd_lua, tmp_path, "MPIJob", job, "succeeded", "Healthy", "successfully completed")
    finally:
        delete(kube, "MPIJob", namespace, name)


@pytest.mark.parametrize("gang", ["volcano", "scheduler-plugins"])
def test_a_gang_held_job_is_progressing_with_its_podgroups_reason(kube: Kube, argocd_lua: Path, tmp_path: Path,
                                                                    gang: str) -> None:
    namespace, name = kube.namespaces[gang], "argocd-held"
    apply(kube, spec(name, namespace, "mpi", 5, gang=gang, resources=GPU_WORKER), tmp_path)
    try:
        if gang == "volcano":
            group = wait_for(kube, "VolcanoPodGroup", namespace, name, "gang-held", lambda o: (
                (o.get("status") or {}).get("phase") in ("Pending", "Inqueue")
                and true_condition(o, "Unschedulable") is not None))
            reason = true_condition(group, "Unschedulable")["message"]
            check(argocd_lua, tmp_path, "VolcanoPodGroup", group, "gang-held", "Progressing", reason)
        else:  # no PodGroup controller of scheduler-plugins here: no phase, and no pod is bound
            group = wait_for(kube, "CoschedulingPodGroup", namespace, name, "created", lambda o: True)
            time.sleep(HOLD_SECONDS)
            assert not [p for p in pods(kube, namespace, job_selector(name)) if p["spec"].get("nodeName")]
            group = live(kube, "CoschedulingPodGroup", namespace, name)
            assert not (group.get("status") or {}).get("phase")
            check(argocd_lua, tmp_path, "CoschedulingPodGroup", group, "without its controller", "Progressing",
                  "Waiting for the scheduler-plugins PodGroup controller")
        job = live(kube, "MPIJob", namespace, name)
        assert true_condition(job, "Created") is not None and true_condition(job, "Running") is None, job.get("status")
        check(argocd_lua, tmp_path, "MPIJob", job, "gang-held", "Progressing", "Not running yet")
    finally:
        delete(kube, "MPIJob", namespace, name)


def test_pytorchjob_running_then_failed(kube: Kube, argocd_lua: Path, tmp_path: Path) -> None:
    namespace, name = kube.namespaces["scheduler-plugins"], "argocd-pytorch"
    apply(kube, spec(name, namespace, "pytorch", 1, gang="scheduler-plugins"), tmp_path)
    try:
        job = wait_for(kube, "PyTorchJob", namespace, name, "running",
                       lambda o: true_condition(o, "Running") is not None)
        check(argocd_lua, tmp_path, "PyTorchJob", job, "running", "Healthy", f"PyTorchJob {name} is running.")
        end_pods(kube, namespace, f"{job_selector(name)},training.kubeflow.org/replica-type=master", 1)
        job = wait_for(kube, "PyTorchJob", namespace, name, "failed", lambda o: true_condition(o, "Failed") is not None)
        check(argocd_lua, tmp_path, "PyTorchJob", job, "failed", "Degraded", "1 Master replica(s) failed")
    finally:
        delete(kube, "PyTorchJob", namespace, name)


def test_tfjob_running(kube: Kube, argocd_lua: Path, tmp_path: Path) -> None:
    namespace, name = kube.namespaces["none"], "argocd-tf"
    apply(kube, spec(name, namespace, "tensorflow", 2), tmp_path)
    try:
        job = wait_for(kube, "TFJob", namespace, name, "running", lambda o: true_condition(o, "Running") is not None)
        check(argocd_lua, tmp_path, "TFJob", job, "running", "Healthy", "is running.")
    finally:
        delete(kube, "TFJob", namespace, name)


@pytest.mark.parametrize("framework, kind", [("mpi", "MPIJob"), ("pytorch", "PyTorchJob"), ("tensorflow", "TFJob")])
def test_a_suspended_job_is_suspended(kube: Kube, argocd_lua: Path, tmp_path: Path, framework: str, kind: str) -> None:
    namespace, name = kube.namespaces["none"], f"argocd-suspended-{framework}"
    apply(kube, spec(name, namespace, framework, 1, suspend=True), tmp_path)
    try:
        job = wait_for(kube, kind, namespace, name, "suspended", lambda o: true_condition(o, "Suspended") is not None)
        check(argocd_lua, tmp_path, kind, job, "suspended", "Suspended")
    finally:
        delete(kube, kind, namespace, name)


@pytest.mark.parametrize("framework, kind, message", [
    ("mpi", "MPIJob", "Job was active longer than specified deadline"),
    ("pytorch", "PyTorchJob", "it was active longer than specified deadline")])
def test_a_job_past_its_deadline_is_degraded(kube: Kube, argocd_lua: Path, tmp_path: Path, framework: str,
                                             kind: str, message: str) -> None:
    namespace, name = kube.namespaces["none"], f"argocd-deadline-{framework}"
    apply(kube, spec(name, namespace, framework, 1, activeDeadlineSeconds=5), tmp_path)
    try:
        job = wait_for(kube, kind, namespace, name, "failed", lambda o: true_condition(o, "Failed") is not None)
        check(argocd_lua, tmp_path, kind, job, "failed", "Degraded", message)
    finally:
        delete(kube, kind, namespace, name)


def _trainjob(name: str, namespace: str, **run_policy: object) -> dict:
    return spec(name, namespace, "pytorch", 1, runtime="torch-distributed", **run_policy)  # numNodes 2


def _jobset_ready(obj: dict) -> bool:
    expected = sum(r.get("replicas", 1) for r in obj["spec"]["replicatedJobs"])
    done = sum(s.get("ready", 0) + s.get("succeeded", 0) for s in (obj.get("status") or {}).get("replicatedJobsStatus") or [])
    return expected == done


def test_trainjob_running_then_complete(kube: Kube, argocd_lua: Path, tmp_path: Path) -> None:
    namespace, name = kube.namespaces["none"], "argocd-trainjob"
    apply(kube, _trainjob(name, namespace), tmp_path)
    selector = f"jobset.sigs.k8s.io/jobset-name={name}"
    try:
        jobset = wait_for(kube, "JobSet", namespace, name, "running",
                          lambda o: _jobset_ready(o) and all_running(kube, namespace, selector, 2))
        check(argocd_lua, tmp_path, "JobSet", jobset, "running", "Healthy", "Running: ")
        job = wait_for(kube, "TrainJob", namespace, name, "running", lambda o: any(
            s.get("ready", 0) > 0 for s in (o.get("status") or {}).get("jobsStatus") or []))
        check(argocd_lua, tmp_path, "TrainJob", job, "running", "Healthy", "Running (")
        end_pods(kube, namespace, selector, 0)
        jobset = wait_for(kube, "JobSet", namespace, name, "completed",
                          lambda o: true_condition(o, "Completed") is not None)
        check(argocd_lua, tmp_path, "JobSet", jobset, "completed", "Healthy", "jobset completed successfully")
        job = wait_for(kube, "TrainJob", namespace, name, "complete", lambda o: true_condition(o, "Complete") is not None)
        check(argocd_lua, tmp_path, "TrainJob", job, "complete", "Healthy", "jobset completed successfully")
    finally:
        delete(kube, "TrainJob", namespace, name)


def test_a_suspended_trainjob_and_its_jobset_are_suspended(kube: Kube, argocd_lua: Path, tmp_path: Path) -> None:
    namespace, name = kube.namespaces["none"], "argocd-trainjob-suspended"
    apply(kube, _trainjob(name, namespace, suspend=True), tmp_path)
    try:
        job = wait_for(kube, "TrainJob", namespace, name, "suspended",
                       lambda o: true_condition(o, "Suspended") is not None)
        check(argocd_lua, tmp_path, "TrainJob", job, "suspended", "Suspended", "TrainJob is suspended")
        jobset = wait_for(kube, "JobSet", namespace, name, "suspended",
                          lambda o: true_condition(o, "Suspended") is not None)
        check(argocd_lua, tmp_path, "JobSet", jobset, "suspended", "Suspended", "jobset is suspended")
    finally:
        delete(kube, "TrainJob", namespace, name)


def test_a_trainjob_past_its_deadline_is_degraded(kube: Kube, argocd_lua: Path, tmp_path: Path) -> None:
    namespace, name = kube.namespaces["none"], "argocd-trainjob-deadline"
    apply(kube, _trainjob(name, namespace, activeDeadlineSeconds=5), tmp_path)
    try:
        job = wait_for(kube, "TrainJob", namespace, name, "failed", lambda o: true_condition(o, "Failed") is not None)
        check(argocd_lua, tmp_path, "TrainJob", job, "failed", "Degraded", "TrainJob exceeded its active deadline")
    finally:
        delete(kube, "TrainJob", namespace, name)


def test_figure() -> None:
    """Prints `A/N live objects: ...` over every check above (runs after them)."""
    assert AGREE, "no health check ran"
    FIGURES.append(f"{sum(AGREE.values())}/{len(AGREE)} live objects: the Argo CD health checks agree with the "
                   "controllers' phase")
    assert all(AGREE.values()), [k for k, v in AGREE.items() if not v]
