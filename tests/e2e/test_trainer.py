"""Kubeflow Trainer v2.3.0 and JobSet v0.12.0 for real: every golden TrainJob and every case of
tests/cases/trainjobs/ (a TrainJob and the TrainingRuntimes it names) is applied to the local
cluster, and

- every object the running Trainer controller creates for it (the JobSet, the PodGroup of a
  coscheduling or Volcano runtime, the MPI hostfile ConfigMap and SSH Secret, the runtime
  snapshot ConfigMap) equals what `mpigen explain --format yaml` says, field by field, compared as
  test_operators.py compares an operator's objects (explain's objects get the API server's
  defaulting, JobSet's webhook included, by a dry-run create; server-set metadata aside), and is
  owned by the TrainJob;
- the running JobSet controller creates the JobSet's Jobs (owned by the JobSet), the Jobs their
  pods, and every pod is bound and Running on the kwok nodes: all at once for a gang (Volcano or
  scheduler-plugins' Coscheduling, whichever the runtime's podGroupPolicy names).

The runtime snapshot ConfigMap holds the runtime as the controller's cache read it, written by Go's
YAML marshaller: with its managedFields (the cache keeps them) and Go's empty values (`metadata: {}`
of every template, `resources: {}` of every container), which explain does not write (it cannot
know the managedFields). Its `runtime` is compared as the object it holds: read back, server-set
metadata and empty values aside.

The TrainJob is explained with a cluster file as `kubectl get -o yaml` prints the cluster's
PriorityClasses, Nodes, ClusterTrainingRuntimes (Trainer's defaults) and the case's
TrainingRuntimes, as they are once applied. A gang that explain says cannot fit the Nodes
(`gang-cannot-fit`: the golden specs' prod environments ask for more GPUs than the four kwok nodes
have) must stay unbound instead of running. The ServiceAccounts the pods name are created, and
the claims they mount, each with a PersistentVolume.
Every case runs in the namespace NAMESPACE. The figures are `A/N Trainer objects equal explain`,
`A/N TrainJobs run: Jobs created, every pod bound and Running` and `A/N TrainJobs that explain says
cannot fit the nodes stay unbound`.
"""

from __future__ import annotations

import copy
import json
import time
from pathlib import Path

import pytest
import yaml
from deepdiff import DeepDiff

from tests.e2e.conftest import FIGURES, ROOT, Kube
from tests.e2e.test_operators import (EXPLAIN_NAMESPACE, _api_resource, _live, _server_defaulted, live_objects,
                                     normalized)

NAMESPACE = "mpigen-trainjobs"
RUNTIME_KINDS = {"TrainingRuntime", "ClusterTrainingRuntime"}
WAIT_SECONDS = 120
RESULTS: dict[str, tuple[int, int]] = {}  # TrainJob -> (equal objects, objects)
RUNS: dict[str, bool] = {}  # TrainJob -> Jobs created and every pod bound and Running
HELD: dict[str, bool] = {}  # TrainJob explain says cannot fit the nodes -> no pod of it was bound


def trainjob_cases() -> list[tuple[str, list[dict], dict]]:
    """(id, runtimes, TrainJob) for every TrainJob document of golden/*/*.yaml and of
    tests/cases/trainjobs/*.yaml, with the TrainingRuntimes and ClusterTrainingRuntimes of its
    golden case (every file of its folder), or of its file."""
    def documents(path: Path) -> list[dict]:
        return [d for d in yaml.safe_load_all(path.read_text()) if isinstance(d, dict)]

    groups = [[p for p in sorted(folder.glob("*.yaml")) if p.name != "case.yaml"]
              for folder in sorted(p for p in (ROOT / "golden").iterdir() if p.is_dir())]
    groups += [[path] for path in sorted((ROOT / "tests" / "cases" / "trainjobs").glob("*.yaml"))]
    cases = []
    for paths in groups:
        runtimes = [d for path in paths for d in documents(path) if d.get("kind") in RUNTIME_KINDS]
        unique = list({(r["kind"], r["metadata"]["name"]): r for r in runtimes}.values())
        for path in paths:
            for doc in documents(path):
                if doc.get("kind") == "TrainJob":
                    cases.append((f"{path.relative_to(ROOT).parent.name}/{path.stem}/{doc['metadata']['name']}",
                                  unique, doc))
    return cases


CASES = trainjob_cases()


SERVER_METADATA = ("managedFields", "uid", "resourceVersion", "creationTimestamp", "generation")


def _without_empty(value):
    if isinstance(value, dict):
        out = {k: _without_empty(v) for k, v in value.items()}
        return {k: v for k, v in out.items() if v not in ({}, [], None)}
    if isinstance(value, list):
        return [_without_empty(v) for v in value]
    return value


def compared(obj: dict) -> dict:
    """OBJ as test_operators.normalized leaves it; a runtime snapshot's runtime read back, without
    server-set metadata and Go's empty values."""
    obj = normalized(obj)
    if obj["kind"] == "ConfigMap" and obj["metadata"]["name"].endswith("-runtime-snapshot"):
        data = dict(obj.get("data") or {})
        for key, text in data.items():
            runtime = yaml.safe_load(text)
            if isinstance(runtime, dict) and isinstance(runtime.get("metadata"), dict):
                for field in SERVER_METADATA:
                    runtime["metadata"].pop(field, None)
            data[key] = _without_empty(runtime)
        obj["data"] = data
    return obj


def _moved(obj: dict) -> dict:
    obj = copy.deepcopy(obj)
    if obj["kind"] != "ClusterTrainingRuntime":
        obj["metadata"]["namespace"] = NAMESPACE
    return obj


@pytest.fixture(scope="module")
def namespaces(kube: Kube) -> None:
    for name in (NAMESPACE, EXPLAIN_NAMESPACE):
        kube.kubectl("create", "namespace", name, check=False)


def _cluster_file(kube: Kube, path: Path) -> Path:
    """The cluster's PriorityClasses, Nodes and runtimes as kubectl prints them."""
    cluster = kube.kubectl("get", "priorityclasses,nodes,clustertrainingruntimes", "-o", "yaml").stdout
    runtimes = kube.kubectl("get", "trainingruntimes", "-n", NAMESPACE, "-o", "yaml").stdout
    path.write_text(cluster + "---\n" + runtimes)
    return path


def _prerequisites(jobset: dict) -> list[dict]:
    """What the JobSet's pods need to exist beside them: their ServiceAccounts, and a
    PersistentVolume and its claim for every claim they mount, bound to each other (the
    PersistentVolume controller binds them at once; the kwok pods never read them)."""
    pods = [rjob["template"]["spec"]["template"]["spec"] for rjob in jobset["spec"]["replicatedJobs"]]
    claims = sorted({v["persistentVolumeClaim"]["claimName"] for pod in pods for v in pod.get("volumes") or []
                     if "persistentVolumeClaim" in v})
    accounts = sorted({pod["serviceAccountName"] for pod in pods if pod.get("serviceAccountName")} - {"default"})
    out = [{"apiVersion": "v1", "kind": "ServiceAccount", "metadata": {"name": name, "namespace": NAMESPACE}}
           for name in accounts]
    for claim in claims:
        volume = f"{NAMESPACE}-{claim}"
        out.append({"apiVersion": "v1", "kind": "PersistentVolume", "metadata": {"name": volume},
                    "spec": {"capacity": {"storage": "1Gi"}, "accessModes": ["ReadWriteMany"],
                             "storageClassName": "", "hostPath": {"path": f"/tmp/{volume}"},
                             "claimRef": {"namespace": NAMESPACE, "name": claim}}})
        out.append({"apiVersion": "v1", "kind": "PersistentVolumeClaim",
                    "metadata": {"name": claim, "namespace": NAMESPACE},
                    "spec": {"accessModes": ["ReadWriteMany"], "storageClassName": "", "volumeName": volume,
                             "resources": {"requests": {"storage": "1Gi"}}}})
    return out


def _held(kube: Kube, name: str, why: str) -> list[dict]:
    """No pod of the TrainJob NAME gets bound for HOLD_SECONDS (``why`` says why none should be);
    its pods at the end."""
    deadline = time.monotonic() + HOLD_SECONDS
    pods: list[dict] = []
    while time.monotonic() < deadline:
        pods = _pods(kube, name)
        bound = [p["metadata"]["name"] for p in pods if p["spec"].get("nodeName")]
        assert not bound, f"{bound} bound: {why}"
        time.sleep(1)
    return pods


def _pod_count(jobset: dict) -> int:
    """The pods of every Job of JOBSET: each replicated job's replicas x its Jobs' parallelism."""
    return sum(rj["template"]["spec"].get("parallelism", 1) * rj.get("replicas", 1)
               for rj in jobset["spec"]["replicatedJobs"])


def _pods(kube: Kube, name: str) -> list[dict]:
    return kube.get("pods", "-n", NAMESPACE, "-l", f"jobset.sigs.k8s.io/jobset-name={name}")["items"]


def _delete(kube: Kube, trainjob: dict, runtimes: list[dict], expected: list[dict]) -> None:
    name = trainjob["metadata"]["name"]
    kube.kubectl("delete", "trainjob", name, "-n", NAMESPACE, "--wait=true", "--timeout=60s", check=False, timeout=90)
    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline:
        if not _pods(kube, name) and all(_live(kube, _api_resource(o), NAMESPACE, o["metadata"]["name"]) is None
                                         for o in expected):
            break
        time.sleep(1)
    else:
        pytest.fail(f"objects of TrainJob {name} still there {WAIT_SECONDS} s after it was deleted")
    for runtime in runtimes:  # Trainer's finalizer goes once no TrainJob uses the runtime
        scope = [] if runtime["kind"] == "ClusterTrainingRuntime" else ["-n", NAMESPACE]
        kube.kubectl("delete", runtime["kind"].lower(), runtime["metadata"]["name"], *scope, "--wait=true",
                     "--timeout=60s", check=False, timeout=90)


@pytest.mark.parametrize("name,runtimes,trainjob", CASES, ids=[c[0] for c in CASES])
def test_trainer_objects_equal_explain(kube: Kube, namespaces: None, tmp_path: Path, name: str,
                                       runtimes: list[dict], trainjob: dict) -> None:
    runtimes = [_moved(r) for r in runtimes]
    trainjob = _moved(trainjob)
    job_name = trainjob["metadata"]["name"]
    expected: list[dict] = []
    needed: list[dict] = []  # ServiceAccounts, claims and their volumes
    try:
        if runtimes:
            kube.kubectl("apply", "--server-side", "--field-manager=mpigen-e2e", "-f", "-",
                         stdin=json.dumps({"apiVersion": "v1", "kind": "List", "items": runtimes}))
        manifest = tmp_path / "trainjob.yaml"
        manifest.write_text(yaml.safe_dump(trainjob))
        explained = kube.mpigen("explain", str(manifest), "--format", "yaml",
                                "--cluster", str(_cluster_file(kube, tmp_path / "cluster.yaml")))
        assert explained.returncode in (0, 1), explained.stderr
        # on the cluster's Nodes: the proof, said if the gang is bound all the same
        cannot_fit = [line for line in explained.stderr.splitlines() if "error gang-cannot-fit" in line]
        expected = [o for o in yaml.safe_load_all(explained.stdout) if isinstance(o, dict)]
        assert any(o["kind"] == "JobSet" for o in expected), f"explain printed no JobSet:\n{explained.stderr}"
        defaulted = _server_defaulted(kube, expected)

        needed = _prerequisites(next(o for o in expected if o["kind"] == "JobSet"))
        if needed:
            kube.kubectl("apply", "--server-side", "--field-manager=mpigen-e2e", "-f", "-",
                         stdin=json.dumps({"apiVersion": "v1", "kind": "List", "items": needed}))
        applied = kube.apply_when_cached("--server-side", "--field-manager=mpigen-e2e", "-f", str(manifest))
        assert applied.returncode == 0, applied.stderr
        live = live_objects(kube, expected, NAMESPACE)
        missing = sorted(f"{k}/{n}" for (k, n), o in live.items() if o is None)
        differences = []
        for ident, want in defaulted.items():
            got = live.get(ident)
            if got is None:
                continue
            diff = DeepDiff(compared(want), compared(got), ignore_order=False, verbose_level=2)
            if diff:
                differences.append(f"{ident[0]}/{ident[1]}: {diff.pretty()}")
            owners = got["metadata"].get("ownerReferences") or []
            if not any(o["kind"] == "TrainJob" and o["name"] == job_name and o.get("controller") for o in owners):
                differences.append(f"{ident[0]}/{ident[1]}: not controlled by the TrainJob ({owners})")
        equal = len(expected) - len(missing) - len({d.split(":")[0] for d in differences})
        RESULTS[name] = (equal, len(expected))
        RUNS[name] = False
        assert not missing and not differences, "\n".join(
            [f"missing: {', '.join(missing)}"] * bool(missing) + differences)

        jobset = live[("JobSet", job_name)]
        if trainjob["spec"].get("suspend"):  # a suspended TrainJob's JobSet is suspended: JobSet starts nothing
            assert jobset["spec"].get("suspend") is True and not _pods(kube, job_name), "a suspended TrainJob runs"
            del RUNS[name]
            return
        if cannot_fit:
            del RUNS[name]
            HELD[name] = False
            pods = _held(kube, job_name, f"explain said the gang cannot fit the nodes: {cannot_fit[0]}")
            # Held, not absent: every pod was created and waits (a JobSet that created none would
            # pass the check above too).
            assert len(pods) == _pod_count(jobset), f"{len(pods)} pods, the JobSet's are {_pod_count(jobset)}"
            HELD[name] = True
            return
        _runs(kube, jobset, live)
        RUNS[name] = True
    finally:
        _delete(kube, trainjob, runtimes, expected)
        for obj in reversed(needed):
            scope = [] if obj["kind"] == "PersistentVolume" else ["-n", NAMESPACE]
            kube.kubectl("delete", obj["kind"].lower(), obj["metadata"]["name"], *scope, "--wait=true",
                         "--timeout=60s", check=False, timeout=90)


def _runs(kube: Kube, jobset: dict, live: dict[tuple[str, str], dict | None]) -> None:
    """The JobSet controller creates every Job of JOBSET, and every pod of them gets bound and Running."""
    name = jobset["metadata"]["name"]
    jobs_expected = {f"{name}-{rj['name']}-{i}": rj["template"]["spec"].get("parallelism", 1)
                     for rj in jobset["spec"]["replicatedJobs"] for i in range(rj.get("replicas", 1))}
    deadline = time.monotonic() + WAIT_SECONDS
    jobs: dict[str, dict] = {}
    pods: list[dict] = []
    while time.monotonic() < deadline:
        jobs = {j["metadata"]["name"]: j for j in kube.get(
            "jobs", "-n", NAMESPACE, "-l", f"jobset.sigs.k8s.io/jobset-name={name}")["items"]}
        pods = _pods(kube, name)
        if (set(jobs) == set(jobs_expected) and len(pods) == sum(jobs_expected.values())
                and all(p["status"].get("phase") == "Running" for p in pods)):
            break
        time.sleep(1)
    summary = {p["metadata"]["name"]: (p["spec"].get("nodeName"), p["status"].get("phase")) for p in pods}
    assert set(jobs) == set(jobs_expected), f"Jobs {sorted(jobs)}, the JobSet's are {sorted(jobs_expected)}"
    for job in jobs.values():
        owners = job["metadata"].get("ownerReferences") or []
        assert any(o["kind"] == "JobSet" and o["name"] == name for o in owners), f"{job['metadata']['name']}: {owners}"
    assert len(pods) == sum(jobs_expected.values()) and all(phase == "Running" for _, phase in summary.values()), (
        f"not every pod bound and Running after {WAIT_SECONDS} s: {json.dumps(summary)}")
    podgroup = next((o for (kind, _), o in live.items() if kind == "PodGroup"), None)
    if podgroup is None:
        return
    for pod in pods:  # the gang's pods carry its PodGroup as their scheduler reads it
        meta = pod["metadata"]
        group = (meta.get("labels", {}).get("scheduling.x-k8s.io/pod-group")
                 or meta.get("annotations", {}).get("scheduling.k8s.io/group-name"))
        assert group == podgroup["metadata"]["name"], f"{meta['name']} is not in PodGroup {podgroup['metadata']['name']}"
    if podgroup["apiVersion"].startswith("scheduling.volcano.sh/"):  # Volcano writes the phase at a session's end
        phase = None
        deadline = time.monotonic() + WAIT_SECONDS
        while phase != "Running" and time.monotonic() < deadline:
            time.sleep(1)
            phase = _live(kube, _api_resource(podgroup), NAMESPACE, podgroup["metadata"]["name"])["status"].get("phase")
        assert phase == "Running", f"Volcano PodGroup {podgroup['metadata']['name']} is {phase}, not Running"


DEADLOCK = ROOT / "tests" / "cases" / "lint" / "trainer-depends-on-gang-deadlock" / "bad.yaml"
HOLD_SECONDS = 30  # how long a deadlocked gang is watched for a pod that gets bound anyway
SCHEDULERS = {"volcano": ({"volcano": {}}, "volcano"),
              "coscheduling": ({"coscheduling": {"scheduleTimeoutSeconds": 120}}, "scheduler-plugins-scheduler")}


@pytest.mark.parametrize("gang", sorted(SCHEDULERS))
def test_a_gang_runtime_whose_launcher_depends_on_the_nodes_never_starts(kube: Kube, namespaces: None, tmp_path: Path,
                                                                        gang: str) -> None:
    """Trainer's deepspeed-distributed shape (the launcher dependsOn the nodes being Ready) with a
    podGroupPolicy: the PodGroup counts the launcher, which JobSet creates only once the nodes are
    Ready, which the gang scheduler never binds. `mpigen validate` says so
    (trainer-depends-on-gang-deadlock); on the cluster no pod is ever bound."""
    (runtime,) = [d for d in yaml.safe_load_all(DEADLOCK.read_text()) if isinstance(d, dict)]
    runtime = _moved(runtime)
    policy, scheduler = SCHEDULERS[gang]
    runtime["spec"]["podGroupPolicy"] = policy
    for job in runtime["spec"]["template"]["spec"]["replicatedJobs"]:
        job["template"]["spec"]["template"]["spec"]["schedulerName"] = scheduler
    trainjob = {"apiVersion": "trainer.kubeflow.org/v1alpha1", "kind": "TrainJob",
                "metadata": {"name": f"deadlock-{gang}", "namespace": NAMESPACE},
                "spec": {"runtimeRef": {"name": runtime["metadata"]["name"], "kind": "TrainingRuntime"},
                         "trainer": {"numNodes": 3, "resourcesPerNode": {"requests": {"nvidia.com/gpu": 8},
                                                                         "limits": {"nvidia.com/gpu": 8}}}}}
    manifest = tmp_path / "deadlock.yaml"
    manifest.write_text(yaml.safe_dump_all([runtime, trainjob]))
    validated = kube.mpigen("validate", str(manifest), "--cluster", str(manifest))
    said = validated.stdout + validated.stderr
    assert validated.returncode == 1 and "error trainer-depends-on-gang-deadlock" in said, said
    name = trainjob["metadata"]["name"]
    try:
        kube.kubectl("apply", "--server-side", "--field-manager=mpigen-e2e", "-f", "-", stdin=json.dumps(runtime))
        done = kube.apply_when_cached("--server-side", "--field-manager=mpigen-e2e", "-f", "-",
                                      stdin=json.dumps(trainjob))
        assert done.returncode == 0, done.stderr
        pods = _held(kube, name, f"{gang} bound them, of a gang whose launcher waits for its nodes")
        jobs = [j["metadata"]["name"] for j in kube.get(
            "jobs", "-n", NAMESPACE, "-l", f"jobset.sigs.k8s.io/jobset-name={name}")["items"]]
        assert jobs == [f"{name}-node-0"], f"Jobs {jobs}: the launcher's should wait for the nodes"
        assert len(pods) == 2, f"{len(pods)} node pods, not 2 (3 nodes, the launcher runs as node 0)"
    finally:
        _delete(kube, trainjob, [runtime], [])


def test_figures() -> None:
    """Prints `A/N Trainer objects equal explain` and `A/N TrainJobs run: ...` (runs after the cases)."""
    assert RESULTS, "no TrainJob ran"
    equal = sum(e for e, _ in RESULTS.values())
    total = sum(n for _, n in RESULTS.values())
    FIGURES.append(f"{equal}/{total} Trainer objects equal explain")
    ran = sum(RUNS.values())
    FIGURES.append(f"{ran}/{len(RUNS)} TrainJobs run: Jobs created, every pod bound and Running")
    held = sum(HELD.values())
    FIGURES.append(f"{held}/{len(HELD)} TrainJobs that explain says cannot fit the nodes stay unbound")
    assert equal == total and len(RESULTS) == len(CASES) and ran == len(RUNS) and held == len(HELD)
