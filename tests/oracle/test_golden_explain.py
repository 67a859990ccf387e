"""`mpigen explain`'s objects for every golden manifest equal what the real operators create.

Each golden case's outputs (the base and every environment) go to the oracle of their operator
(mpi-operator v0.8.2, v0.8.0 or v0.4.0 for MPIJobs, training-operator v1.9.4 for PyTorchJobs and TFJobs),
with the gang scheduler the manifest is decorated for and the case's PriorityClasses. Every object
the operator creates -- Service, ConfigMap (hostfile), SSH Secret (redacted), PodGroup, the launcher
Job and the worker Pods; the PodGroup, Pods and Services of a training job -- must equal the one
mpigen's controller port (what ``mpigen explain --format yaml`` prints) says it creates, field for
field, once the oracle's Go zero values, owner references and status are set aside.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any, Iterator

import pytest
import yaml

from mpigen.operator import mpi_controller, training_controller
from mpigen.versions import DEFAULT_OPERATOR_VERSION, OperatorVersion
from tests.golden.cases import ROOT, discover
from tests.oracle.harness import ORACLES
from tests.oracle.trainer import EXAMPLES

pytestmark = pytest.mark.oracle

BIN = Path(__file__).resolve().parent / "bin"
MPI_ORACLES = {version: BIN / binary for version, binary in ORACLES.items()}
TRAINING_ORACLE = BIN / "training-v1.9"
MAX_PODS = 100  # the goldens are small: every object, in full
KEYS = {"MPIJob": "mpiReplicaSpecs", "PyTorchJob": "pytorchReplicaSpecs", "TFJob": "tfReplicaSpecs"}


def _normalized(obj: Any) -> Any:
    """The oracle's typed Go objects add zero values, owner references, status and timestamps."""
    if isinstance(obj, dict):
        out = {k: _normalized(v) for k, v in obj.items()
               if k not in ("creationTimestamp", "ownerReferences", "status")}
        return {k: v for k, v in out.items() if v not in ({}, [], None, "", False)
                and not (k == "targetPort" and v == 0)}
    if isinstance(obj, list):
        return [_normalized(v) for v in obj]
    if not isinstance(obj, (str, int, float, bool, type(None))):
        return str(obj)  # explain's lazy values (a TF_CONFIG, a hostfile) are their text
    return obj


def _gang(job: dict) -> tuple[str, str]:
    """The --gang-scheduling the manifest was built for (from its decorated pod templates)."""
    template = next(iter(job["spec"][KEYS[job["kind"]]].values()))["template"]
    scheduler = template["spec"].get("schedulerName")
    if scheduler == "volcano":
        return "volcano", ""
    if scheduler and scheduler != "kube-batch":
        return "scheduler-plugins", scheduler
    return "", ""


def _jobs() -> list[tuple[str, dict, str, dict[str, int]]]:
    out = []
    for case in discover():
        classes = {}
        if case.cluster:
            items = yaml.safe_load((ROOT / case.cluster).read_text())["items"]
            classes = {d["metadata"]["name"]: d["value"] for d in items}
        for env in ["base"] + case.envs:
            for doc in yaml.safe_load_all((case.folder / f"{env}.yaml").read_text()):
                if doc and doc.get("kind") in KEYS:
                    # kubectl apply puts a job without a namespace into the current one; explain says default
                    doc["metadata"].setdefault("namespace", "default")
                    out.append((f"{case.name}/{env}", doc, case.operator_version or str(DEFAULT_OPERATOR_VERSION), classes))
    return out


JOBS = _jobs()


def _classes_list(classes: dict[str, int]) -> list[dict]:
    return [{"name": n, "value": v} for n, v in sorted(classes.items())]


def _run(binary: Path, request: dict) -> dict:
    from tests.oracle.harness import build

    build(binary.name)  # go build once (the Go build cache makes it quick after the first time)
    done = subprocess.run([str(binary)], input=json.dumps(request) + "\n", capture_output=True, text=True,
                          timeout=300, check=True)
    (line,) = done.stdout.splitlines()
    return json.loads(line)


def test_the_goldens_have_jobs_of_every_operator() -> None:
    kinds = {(job["kind"], version) for _, job, version, _ in JOBS}
    assert {("MPIJob", "v0.8.2"), ("MPIJob", "v0.4.0"), ("PyTorchJob", "v0.8.2"), ("TFJob", "v0.8.2")} <= kinds
    assert {job["kind"] for _, job, _, _ in TRAINING_JOBS} == {"PyTorchJob", "TFJob"}  # each with a gang


@pytest.mark.parametrize("name,job,version,classes", [j for j in JOBS if j[1]["kind"] == "MPIJob"],
                         ids=[j[0] for j in JOBS if j[1]["kind"] == "MPIJob"])
def test_explain_equals_the_mpi_operator(name: str, job: dict, version: str, classes: dict[str, int], go: str) -> None:
    gang, scheduler = _gang(job)
    response = _run(MPI_ORACLES[version], {"id": name, "mpijob": job, "priorityClasses": _classes_list(classes),
                                           "gang": gang, "schedulerName": scheduler, "maxPods": MAX_PODS})
    assert response["error"] == "", response["error"]
    mine = list(mpi_controller.created_objects(job, gang or None, scheduler_name=scheduler or "scheduler-plugins",
                                               priority_classes=classes, version=OperatorVersion.parse(version),
                                               max_workers=MAX_PODS))
    key = lambda o: (o["kind"], o["metadata"]["name"])  # noqa: E731
    assert [key(o) for o in mine] == [key(o) for o in response["objects"]]
    for theirs, ours in zip(response["objects"], mine):
        assert _normalized(ours) == _normalized(theirs), key(ours)


# The training oracle runs with a gang scheduler: the jobs without one (kube-batch, none) are not
# its cases (rather than cases that skip).
TRAINING_JOBS = [j for j in JOBS if j[1]["kind"] != "MPIJob" and _gang(j[1])[0]]


@pytest.mark.parametrize("name,job,version,classes", TRAINING_JOBS, ids=[j[0] for j in TRAINING_JOBS])
def test_explain_equals_the_training_operator(name: str, job: dict, version: str, classes: dict[str, int],
                                             go: str) -> None:
    gang, scheduler = _gang(job)
    response = _run(TRAINING_ORACLE, {"id": name, "job": job, "priorityClasses": _classes_list(classes),
                                      "gang": gang, "schedulerName": scheduler, "maxPods": MAX_PODS})
    assert response["error"] == "", response["error"]
    mine = list(training_controller.created_objects(job, gang, scheduler_name=scheduler or None,
                                                    priority_classes=classes, max_pods=MAX_PODS))
    groups = [o for o in mine if o["kind"] == "PodGroup"]
    assert [_normalized(g) for g in groups] == [_normalized(response["podgroup"])]
    key = lambda o: (o["kind"], o["metadata"]["name"])  # noqa: E731
    theirs = {key(o): o for o in response["objects"]}
    ours = {key(o): o for o in mine if o["kind"] in ("Pod", "Service")}
    assert sorted(ours) == sorted(theirs)
    for k, obj in ours.items():
        if k[0] == "Pod":
            for init in theirs[k]["spec"].get("initContainers") or []:  # the oracle parses no flags
                if init["name"] == "init-pytorch" and "image" not in init:
                    init["image"] = training_controller.INIT_CONTAINER_IMAGE
                    init["command"][2] = init["command"][2].replace(
                        "$(seq 0)", f"$(seq {training_controller.INIT_CONTAINER_MAX_TRIES})")
        assert _normalized(obj) == _normalized(theirs[k]), k


# ------------------------------------------------------------------ the goldens' schedulingPolicy

# The golden jobs write out the PodGroup the operator would create (runPolicy.schedulingPolicy).
# That it is the one the operator creates is asked of the real operator, not of mpigen's port that
# wrote it: the PodGroup the oracle creates from the job as written, and from the job stripped of
# what mpigen resolved (minResources, the priority class), must carry the schedulingPolicy's values.
GANG_JOBS = [j for j in JOBS if _gang(j[1])[0]]
RESOLVED = {False: ("minResources",), True: ("minResources", "priorityClass")}  # by "is an MPIJob"


def _quantities(resources: dict | None) -> dict:
    from mpigen.operator.quantity import Quantity

    return {name: Quantity.parse(str(value)) for name, value in (resources or {}).items()}


def _oracle_podgroup(name: str, job: dict, version: str, classes: dict[str, int]) -> dict:
    gang, scheduler = _gang(job)
    request = {"id": name, "priorityClasses": _classes_list(classes), "gang": gang, "schedulerName": scheduler,
               "maxPods": 1}
    if job["kind"] == "MPIJob":
        response = _run(MPI_ORACLES[version], {**request, "mpijob": job})
        assert response["error"] == "", response["error"]
        [group] = [o for o in response["objects"] if o["kind"] == "PodGroup"]
    else:
        response = _run(TRAINING_ORACLE, {**request, "job": job})
        assert response["error"] == "", response["error"]
        group = response["podgroup"]
    return group["spec"]


def test_the_goldens_have_gangs_of_every_operator_and_scheduler() -> None:
    """Both gangs of mpi-operator (v0.8.0 and v0.4.0 among them), both of training-operator."""
    seen = {(job["kind"], _gang(job)[0]) for _, job, _, _ in GANG_JOBS}
    assert {("MPIJob", "volcano"), ("MPIJob", "scheduler-plugins"), ("PyTorchJob", "volcano"),
            ("TFJob", "scheduler-plugins")} <= seen, seen


@pytest.mark.parametrize("name,job,version,classes", GANG_JOBS, ids=[j[0] for j in GANG_JOBS])
def test_golden_scheduling_policy_is_what_the_real_operator_creates(name: str, job: dict, version: str,
                                                                    classes: dict[str, int], go: str) -> None:
    """minAvailable, minResources (as quantities), queue, priority class and timeout of the golden's
    schedulingPolicy are the real operator's PodGroup's, with them written and without what mpigen
    resolved (it was checked with mpigen's own podgroup port, the code that wrote it)."""
    gang, _ = _gang(job)
    policy = job["spec"]["runPolicy"]["schedulingPolicy"]
    spec = _oracle_podgroup(name, job, version, classes)
    assert spec.get("minMember", 0) == policy["minAvailable"]
    assert _quantities(spec.get("minResources")) == _quantities(policy.get("minResources"))
    if gang == "volcano":
        assert spec.get("queue") == policy.get("queue")
        assert spec.get("priorityClassName") == policy.get("priorityClass")
    else:
        assert spec.get("scheduleTimeoutSeconds") == policy.get("scheduleTimeoutSeconds")
    # What mpigen resolved (minResources; an MPIJob's priority class, which mpi-operator otherwise
    # takes from the pod templates) is what the operator computes without it.
    implicit = json.loads(json.dumps(job))
    for key in RESOLVED[job["kind"] == "MPIJob"]:
        implicit["spec"]["runPolicy"]["schedulingPolicy"].pop(key, None)
    again = _oracle_podgroup(name, implicit, version, classes)
    assert again.get("minMember", 0) == spec.get("minMember", 0)
    assert _quantities(again.get("minResources")) == _quantities(spec.get("minResources"))
    assert again.get("priorityClassName") == spec.get("priorityClassName")


# ------------------------------------------------------------------ TrainJob (Kubeflow Trainer v2.3.0)

TRAINER_ORACLE = BIN / "trainer-v2.3"


def _golden_trainjobs() -> list[tuple[str, dict, dict, list[dict]]]:
    """(name, TrainJob, runtime, PriorityClasses) of every golden TrainJob: its runtime is the
    TrainingRuntime written beside it, else the case's cluster file's, else Trainer v2.3.0's default
    runtime of that name (as ``mpigen build`` took it)."""
    from mpigen.load.document import objects
    from mpigen.load.trainer_runtimes import default_runtimes, runtimes_from, with_runtimes
    from mpigen.names import TRAINER_API, TRAINJOB_KIND
    from mpigen.trainer.runtimes import runtime_ref

    out = []
    for case in discover():
        cluster = [o for doc in yaml.safe_load_all((ROOT / case.cluster).read_text()) for _, o in objects(doc)] \
            if case.cluster else []
        given = runtimes_from(cluster, case.cluster or "")
        base = given if given.objects else default_runtimes()
        classes = [{"name": o["metadata"]["name"], "value": o["value"]} for o in cluster
                   if isinstance(o, dict) and o.get("kind") == "PriorityClass"]
        for env in ["base"] + case.envs:
            docs = [d for d in yaml.safe_load_all((case.folder / f"{env}.yaml").read_text()) if d]
            runtimes = with_runtimes(base, docs)
            for doc in docs:
                if not (isinstance(doc, dict) and doc.get("apiVersion") == TRAINER_API and doc.get("kind") == TRAINJOB_KIND):
                    continue
                _, kind, name = runtime_ref(doc)
                runtime = runtimes.find(kind, name, (doc.get("metadata") or {}).get("namespace"))
                assert runtime is not None, f"{case.name}/{env}: the runtime of the golden TrainJob is not known"
                out.append((f"{case.name}/{env}", doc, runtime, classes))
    return out


def _explain_yaml(tmp_path: Path, job: dict, runtime: dict, classes: list[dict]) -> list[dict]:
    job_file, cluster_file = tmp_path / "trainjob.yaml", tmp_path / "cluster.yaml"
    job_file.write_text(yaml.safe_dump(job))
    cluster = [runtime] + [{"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass",
                            "metadata": {"name": c["name"]}, "value": c["value"]} for c in classes]
    cluster_file.write_text(yaml.safe_dump({"apiVersion": "v1", "kind": "List", "items": cluster}))
    done = subprocess.run([sys.executable, "-m", "mpigen", "explain", str(job_file), "--cluster", str(cluster_file),
                           "--format", "yaml"], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    return [d for d in yaml.safe_load_all(done.stdout) if d]


GOLDEN_TRAINJOBS = _golden_trainjobs()


def test_the_goldens_have_trainjobs() -> None:
    """The TrainJob goldens (specs/trainjob-*.yaml): on a copy with coscheduling, on a copy with
    Volcano, and on a default runtime as it is."""
    assert len(GOLDEN_TRAINJOBS) >= 6
    kinds = {runtime["kind"] for _, _, runtime, _ in GOLDEN_TRAINJOBS}
    assert kinds == {"TrainingRuntime", "ClusterTrainingRuntime"}
    policies = {next(iter(runtime["spec"].get("podGroupPolicy") or {"none": 0})) for _, _, runtime, _ in GOLDEN_TRAINJOBS}
    assert policies == {"coscheduling", "volcano", "none"}


@pytest.mark.parametrize("name,job,runtime,classes", GOLDEN_TRAINJOBS, ids=[c[0] for c in GOLDEN_TRAINJOBS])
def test_explain_equals_the_trainer_framework(tmp_path: Path, name: str, job: dict, runtime: dict,
                                             classes: list[dict], go: str) -> None:
    """``mpigen explain --format yaml`` of a golden TrainJob lists exactly the objects Trainer v2.3.0
    builds: the runtime snapshot (its YAML read back), the PodGroup, the SSH Secret, the hostfile and
    the JobSet."""
    _explain_equals_the_framework(tmp_path, name, job, runtime, classes)


@pytest.mark.parametrize("example", EXAMPLES)
def test_explain_of_examples_equals_the_trainer_framework(tmp_path: Path, example: str, go: str) -> None:
    """The same for TrainJobs on the upstream default runtimes (read from the oracle's module cache).
    Without go it fails as every oracle test does (it was skipped)."""
    from tests.oracle import trainer

    case = trainer.example_case(example)
    _explain_equals_the_framework(tmp_path, example, case["trainJob"], case["runtime"], case["priorityClasses"])


def _explain_equals_the_framework(tmp_path: Path, name: str, job: dict, runtime: dict, classes: list[dict]) -> None:
    from tests.oracle import trainer
    from tests.oracle.harness import build

    build(TRAINER_ORACLE.name)
    done = subprocess.run([str(TRAINER_ORACLE), *trainer.oracle_args()], timeout=300, check=True, text=True,
                          capture_output=True,
                          input=json.dumps({"id": name, "trainJob": job, "runtime": runtime,
                                            "priorityClasses": classes}) + "\n")
    (line,) = done.stdout.splitlines()
    response = json.loads(line)
    assert response["error"] == "", response["error"]
    mine = _explain_yaml(tmp_path, job, runtime, classes)
    theirs = dict(_by_name(response["objects"] + [response["snapshot"]]))
    ours = dict(_by_name(mine))
    assert sorted(ours) == sorted(theirs)
    for name in ours:
        assert ours[name] == theirs[name], name


def _by_name(objects: list[dict]) -> Iterator[tuple[tuple[str, str], Any]]:
    """((kind, name), object to compare) -- the snapshot's YAML read back and, as the oracle's fake
    client clears it, without TypeMeta (see test_differential's snapshot-typemeta)."""
    from tests.oracle import trainer

    for obj in objects:
        name = (obj.get("kind", "ConfigMap"), obj["metadata"]["name"])
        if name[1].endswith("-runtime-snapshot"):
            runtime = yaml.safe_load(obj["data"]["runtime"])
            runtime.pop("apiVersion", None)
            runtime.pop("kind", None)
            obj = {k: v for k, v in obj.items() if k not in ("apiVersion", "kind")} | {"data": {"runtime": runtime}}
        yield name, trainer.normalized(obj)
