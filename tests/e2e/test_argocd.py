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
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import pytest
import yaml

from tests.argocd import harness
from tests.argocd.conftest import argocd_lua  # noqa: F401 - the harness binary, a fixture
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


def trainjob(name: str, namespace: str, **run_policy: object) -> dict:
    return spec(name, namespace, "pytorch", 1, runtime="torch-distributed", **run_policy)  # numNodes 2


def true_condition(obj: dict | None, kind: str) -> dict | None:
    for condition in ((obj or {}).get("status") or {}).get("conditions") or []:
        if condition.get("type") == kind and condition.get("status") == "True":
            return condition
    return None


def phase(obj: dict) -> str:
    return (obj.get("status") or {}).get("phase") or ""


@dataclass
class Scenario:
    """One job on the cluster: applied from its spec, its objects read, their health checked."""

    kube: Kube
    argocd_lua: Path
    tmp_path: Path
    namespace: str
    name: str

    def apply(self, doc: dict) -> None:
        path = self.tmp_path / f"{self.name}.yaml"
        path.write_text(yaml.safe_dump(doc))
        built = self.kube.mpigen("build", str(path))
        assert built.returncode == 0, built.stderr
        done = self.kube.apply_when_cached("--server-side", "--field-manager=mpigen-e2e", "-f", "-",
                                           stdin=built.stdout)
        assert done.returncode == 0, done.stderr

    def delete(self, kind: str) -> None:
        self.kube.kubectl("delete", RESOURCES[kind][0], self.name, "-n", self.namespace, "--wait=true",
                          "--timeout=60s", check=False, timeout=90)

    def live(self, kind: str) -> dict | None:
        done = self.kube.kubectl("get", RESOURCES[kind][0], self.name, "-n", self.namespace, "-o", "json",
                                 check=False)
        return json.loads(done.stdout) if done.returncode == 0 else None

    def wait(self, kind: str, what: str, reached: Callable[[dict], bool], seconds: float = WAIT_SECONDS) -> dict:
        """The live object once the controllers report WHAT (``reached``), polled once a second."""
        deadline = time.monotonic() + seconds
        obj = None
        while time.monotonic() < deadline:
            obj = self.live(kind)
            if obj is not None and reached(obj):
                return obj
            time.sleep(1)
        pytest.fail(f"{kind}/{self.name} not {what} after {seconds} s: {json.dumps((obj or {}).get('status'))}")

    def check(self, kind: str, obj: dict, what: str, status: str, message: str = "") -> None:
        """The health check of KIND on the live OBJ says STATUS, and MESSAGE within its message."""
        folder = harness.CUSTOMIZATIONS / RESOURCES[kind][1]
        path = self.tmp_path / f"{kind}-{self.name}-{what}.json"
        path.write_text(json.dumps(obj))
        (got,) = harness.run(self.argocd_lua, "health", [{"id": what, "script": str(folder / "health.lua"),
                                                          "object": str(path), "openLibs": False}])
        agrees = not got.get("error") and got.get("status") == status and message in got.get("message", "")
        AGREE[f"{kind}/{self.name} {what}"] = agrees
        assert agrees, f"{kind}/{self.name} {what}: expected {status} ({message}), got {got}"

    def at(self, kind: str, condition: str, status: str, message: str = "") -> None:
        """Once the controller sets CONDITION True on the live object, its health check says STATUS."""
        obj = self.wait(kind, condition, lambda o: true_condition(o, condition) is not None)
        self.check(kind, obj, condition, status, message)

    def nudge_after(self, kind: str, seconds: int) -> None:
        """An annotation on the job SECONDS after its status.startTime (waited for): the event
        training-operator v1.9.4 needs to see a deadline pass. It requeues the job for its
        deadline on a queue that drops what it is given (util.FakeWorkQueue; kubeflow/trainer#3358,
        where patching the job is the workaround), so only the job's next event fails it, and kwok
        writes no pod status once the pods are Running."""
        self.wait(kind, "started", lambda o: bool((o.get("status") or {}).get("startTime")))
        time.sleep(seconds + 1)
        self.kube.kubectl("annotate", "--overwrite", RESOURCES[kind][0], self.name, "-n", self.namespace,
                          "mpigen.dev/e2e-deadline-passed=true")

    def pods(self, selector: str) -> list[dict]:
        return self.kube.get("pods", "-n", self.namespace, "-l", selector)["items"]

    def end_pods(self, selector: str, exit_code: int) -> None:
        """Write each pod's status as a kubelet would once its containers exit: kwok never ends them."""
        now = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        found = self.pods(selector)
        assert found, f"no pod in {self.namespace} matches {selector}"
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
            self.kube.kubectl("patch", "pod", pod["metadata"]["name"], "-n", self.namespace, "--subresource=status",
                              "--type=merge", "-p", json.dumps({"status": status}))

    def all_running(self, selector: str, count: int) -> bool:
        found = self.pods(selector)
        return len(found) == count and all(p["status"].get("phase") == "Running" for p in found)


@pytest.fixture
def scenario(kube: Kube, argocd_lua: Path, tmp_path: Path) -> Callable[[str, str], Scenario]:
    return lambda gang, name: Scenario(kube, argocd_lua, tmp_path, kube.namespaces[gang], name)


def job_selector(name: str, role: str = "") -> str:
    return f"training.kubeflow.org/job-name={name}" + (f",training.kubeflow.org/job-role={role}" if role else "")


def jobset_ready(obj: dict) -> bool:
    """JobSet's allJobsReady: the ready and succeeded Jobs add up to the replicated jobs' replicas."""
    expected = sum(r.get("replicas", 1) for r in obj["spec"]["replicatedJobs"])
    statuses = (obj.get("status") or {}).get("replicatedJobsStatus") or []
    return expected == sum(s.get("ready", 0) + s.get("succeeded", 0) for s in statuses)


# ------------------------------------------------------------------------------------------------


def test_mpijob_running_then_succeeded(scenario) -> None:
    s = scenario("volcano", "argocd-mpi")
    s.apply(spec(s.name, s.namespace, "mpi", 2, gang="volcano", resources=GPU_WORKER))
    try:
        s.at("MPIJob", "Running", "Healthy", f"MPIJob {s.namespace}/{s.name} is running.")
        group = s.wait("VolcanoPodGroup", "Running", lambda o: phase(o) == "Running")
        s.check("VolcanoPodGroup", group, "Running", "Healthy", "Running: ")
        s.end_pods(job_selector(s.name, "launcher"), 0)
        s.at("MPIJob", "Succeeded", "Healthy", "successfully completed")
    finally:
        s.delete("MPIJob")


@pytest.mark.parametrize("gang", ["volcano", "scheduler-plugins"])
def test_a_gang_held_job_is_progressing_with_its_podgroups_reason(scenario, gang: str) -> None:
    s = scenario(gang, "argocd-held")
    s.apply(spec(s.name, s.namespace, "mpi", 5, gang=gang, resources=GPU_WORKER))
    try:
        if gang == "volcano":
            group = s.wait("VolcanoPodGroup", "gang-held", lambda o: (
                phase(o) in ("Pending", "Inqueue") and true_condition(o, "Unschedulable") is not None))
            reason = true_condition(group, "Unschedulable")["message"]
            s.check("VolcanoPodGroup", group, "gang-held", "Progressing", reason)
        else:  # no PodGroup controller of scheduler-plugins here: no phase, and no pod is bound
            s.wait("CoschedulingPodGroup", "created", lambda o: True)
            time.sleep(HOLD_SECONDS)
            assert not [p for p in s.pods(job_selector(s.name)) if p["spec"].get("nodeName")]
            group = s.live("CoschedulingPodGroup")
            assert phase(group) == ""
            s.check("CoschedulingPodGroup", group, "without its controller", "Progressing",
                    "Waiting for the scheduler-plugins PodGroup controller")
        # the operator writes the job's status after it creates the PodGroup: Volcano may mark the group
        # Unschedulable first, so the Created condition is waited for, not read once
        job = s.wait("MPIJob", "Created", lambda o: true_condition(o, "Created") is not None)
        assert true_condition(job, "Running") is None, job.get("status")
        s.check("MPIJob", job, "gang-held", "Progressing", "Not running yet")
    finally:
        s.delete("MPIJob")


def test_pytorchjob_running_then_failed(scenario) -> None:
    s = scenario("scheduler-plugins", "argocd-pytorch")
    s.apply(spec(s.name, s.namespace, "pytorch", 1, gang="scheduler-plugins"))
    try:
        s.at("PyTorchJob", "Running", "Healthy", f"PyTorchJob {s.name} is running.")
        s.end_pods(f"{job_selector(s.name)},training.kubeflow.org/replica-type=master", 1)
        s.at("PyTorchJob", "Failed", "Degraded", "1 Master replica(s) failed")
    finally:
        s.delete("PyTorchJob")


def test_tfjob_running(scenario) -> None:
    s = scenario("none", "argocd-tf")
    s.apply(spec(s.name, s.namespace, "tensorflow", 2))
    try:
        s.at("TFJob", "Running", "Healthy", "is running.")
    finally:
        s.delete("TFJob")


FRAMEWORKS = {"MPIJob": "mpi", "PyTorchJob": "pytorch", "TFJob": "tensorflow"}
# the job's kind and runPolicy; then, in order, each object's kind, the condition its controller sets, the verdict
# and a part of the message
SUSPENDED_OR_PAST_DEADLINE = [
    ("MPIJob", {"suspend": True}, [("MPIJob", "Suspended", "Suspended", "MPIJob suspended")]),
    ("PyTorchJob", {"suspend": True}, [("PyTorchJob", "Suspended", "Suspended", "is suspended.")]),
    ("TFJob", {"suspend": True}, [("TFJob", "Suspended", "Suspended", "is suspended.")]),
    ("TrainJob", {"suspend": True}, [("TrainJob", "Suspended", "Suspended", "TrainJob is suspended"),
                                     ("JobSet", "Suspended", "Suspended", "jobset is suspended")]),
    ("MPIJob", {"activeDeadlineSeconds": 5},
     [("MPIJob", "Failed", "Degraded", "Job was active longer than specified deadline")]),
    ("PyTorchJob", {"activeDeadlineSeconds": 5},
     [("PyTorchJob", "Failed", "Degraded", "it was active longer than specified deadline")]),
    ("TrainJob", {"activeDeadlineSeconds": 5},
     [("TrainJob", "Failed", "Degraded", "TrainJob exceeded its active deadline")]),
]


@pytest.mark.parametrize("kind, run_policy, checks", SUSPENDED_OR_PAST_DEADLINE,
                         ids=[f"{kind}-{next(iter(policy))}" for kind, policy, _ in SUSPENDED_OR_PAST_DEADLINE])
def test_a_suspended_job_or_one_past_its_deadline(scenario, kind: str, run_policy: dict,
                                                  checks: list[tuple[str, str, str, str]]) -> None:
    s = scenario("none", f"argocd-{next(iter(run_policy)).lower()}-{kind.lower()}")
    s.apply(trainjob(s.name, s.namespace, **run_policy) if kind == "TrainJob"
            else spec(s.name, s.namespace, FRAMEWORKS[kind], 1, **run_policy))
    try:
        if kind in ("PyTorchJob", "TFJob") and "activeDeadlineSeconds" in run_policy:
            s.nudge_after(kind, run_policy["activeDeadlineSeconds"])
        for checked, condition, status, message in checks:
            s.at(checked, condition, status, message)
    finally:
        s.delete(kind)


def test_trainjob_running_then_complete(scenario) -> None:
    s = scenario("none", "argocd-trainjob")
    s.apply(trainjob(s.name, s.namespace))
    pods = f"jobset.sigs.k8s.io/jobset-name={s.name}"
    try:
        jobset = s.wait("JobSet", "running", lambda o: jobset_ready(o) and s.all_running(pods, 2))
        s.check("JobSet", jobset, "running", "Healthy", "Running: ")
        job = s.wait("TrainJob", "running", lambda o: any(
            j.get("ready", 0) > 0 for j in (o.get("status") or {}).get("jobsStatus") or []))
        s.check("TrainJob", job, "running", "Healthy", "Running (")
        s.end_pods(pods, 0)
        s.at("JobSet", "Completed", "Healthy", "jobset completed successfully")
        s.at("TrainJob", "Complete", "Healthy", "jobset completed successfully")
    finally:
        s.delete("TrainJob")


def test_figure() -> None:
    """Prints `A/N live objects: ...` over every check above (runs after them)."""
    assert AGREE, "no health check ran"
    FIGURES.append(f"{sum(AGREE.values())}/{len(AGREE)} live objects: the Argo CD health checks agree with the "
                   "controllers' phase")
    assert all(AGREE.values()), [k for k, v in AGREE.items() if not v]
