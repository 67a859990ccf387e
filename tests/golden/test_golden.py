"""Every golden case: outputs equal the committed files, and the outputs keep mpigen's promises."""

from __future__ import annotations

import json

import pytest
import yaml
from deepdiff import DeepDiff

from mpigen.operator.mpi_defaults import set_defaults
from mpigen.versions import OperatorVersion

from .cases import GOLDEN, ROOT, build_outputs, discover

CASES = discover()
IDS = [case.name for case in CASES]


def test_there_are_golden_cases() -> None:
    assert len(CASES) >= 5
    for spec in sorted((ROOT / "specs").glob("*.yaml")):
        assert (GOLDEN / spec.stem / "case.yaml").exists(), f"{spec.name} has no golden case: run make golden"


@pytest.fixture(scope="module")
def outputs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, str]]:
    return {case.name: build_outputs(case, tmp_path_factory.mktemp(case.name)) for case in CASES}


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_outputs_match_golden(case, outputs) -> None:
    got = outputs[case.name]
    want = {p.relative_to(case.folder).as_posix(): p.read_text()
            for p in sorted(case.folder.rglob("*")) if p.is_file() and p.name != "case.yaml"}
    assert sorted(got) == sorted(want), "the set of output files changed: run make golden and read the diff"
    for rel in sorted(got):
        if got[rel] != want[rel]:
            if rel.endswith(".yaml"):
                diff = DeepDiff(list(yaml.safe_load_all(want[rel])), list(yaml.safe_load_all(got[rel])))
            else:
                diff = DeepDiff(json.loads(want[rel]), json.loads(got[rel]))
            pytest.fail(f"{case.name}/{rel} differs from golden (run make golden and read the diff):\n"
                        f"{diff.pretty() if diff else 'same data, different bytes'}")


def _classes(case) -> dict[str, int]:
    if not case.cluster:
        return {}
    return {d["metadata"]["name"]: d["value"] for d in yaml.safe_load((ROOT / case.cluster).read_text())["items"]}


def objects_of(*kinds: str) -> list:
    """One parameter per object of ``kinds`` in every golden case and environment (id
    ``<case>/<env>/<kind>[-n]``): a test of a kind runs on the outputs that hold it, never passes
    on a case without it."""
    params = []
    for case in CASES:
        for env in ["base"] + case.envs:
            docs = [d for d in yaml.safe_load_all((case.folder / f"{env}.yaml").read_text()) if d]
            for i, doc in enumerate(docs):
                if doc.get("kind") in kinds:
                    same = [d for d in docs[:i] if d.get("kind") == doc["kind"]]
                    ident = f"{case.name}/{env}/{doc['kind']}" + (f"-{len(same) + 1}" if same else "")
                    params.append(pytest.param(case, env, doc, id=ident))
    return params


ALL_KINDS = ("MPIJob", "PyTorchJob", "TFJob", "PodGroup", "Deployment", "Service", "TrainJob", "TrainingRuntime")
MPIJOBS = objects_of("MPIJob")
TRAINING_JOBS = objects_of("PyTorchJob", "TFJob")
JOBS = objects_of("MPIJob", "PyTorchJob", "TFJob")
TRAINJOBS = objects_of("TrainJob")
OBJECTS = objects_of(*ALL_KINDS)


def test_goldens_cover_every_kind() -> None:
    kinds = {param.values[2]["kind"] for param in OBJECTS}
    assert set(ALL_KINDS) <= kinds, kinds
    assert len(MPIJOBS) >= 5 and len(TRAINING_JOBS) >= 5, (len(MPIJOBS), len(TRAINING_JOBS))
    # every object of every output file is some test's parameter
    total = sum(1 for case in CASES for env in ["base"] + case.envs
                for doc in yaml.safe_load_all((case.folder / f"{env}.yaml").read_text()) if doc)
    assert len(OBJECTS) == total


@pytest.mark.parametrize("case, env, job", TRAINJOBS)
def test_trainer_builds_every_trainjob(case, env, job) -> None:
    """Each golden TrainJob runs on the runtime it names -- the TrainingRuntime written beside it,
    else a default runtime of Trainer v2.3.0 -- and Trainer's runtime framework (mpigen's port)
    builds its JobSet, with the spec's nodes, and its PodGroup when the spec asks for a gang."""
    from mpigen.load.trainer_runtimes import default_runtimes, with_runtimes
    from mpigen.trainer.framework import build
    from mpigen.trainer.runtimes import runtime_ref

    docs = [d for d in yaml.safe_load_all((case.folder / f"{env}.yaml").read_text()) if d]
    runtimes = with_runtimes(default_runtimes(), docs)
    _, kind, name = runtime_ref(job)
    runtime = runtimes.find(kind, name, job["metadata"].get("namespace"))
    assert runtime is not None, f"{env}: {kind} {name} is neither beside the TrainJob nor a default runtime"
    built = build(job, runtime, _classes(case))
    from mpigen.expand.environments import spec_for

    effective = spec_for(yaml.safe_load((ROOT / case.spec).read_text())["spec"], None if env == "base" else env)
    pods = sum(ps.count for ps in built.info.pod_sets)
    assert pods == effective["workers"] + 1, env  # PyTorch: workers + the Master; MPI: + the launcher
    gang = (effective.get("scheduling") or {}).get("gang")
    assert (built.podgroup is not None) == (gang in ("volcano", "scheduler-plugins")), env


@pytest.mark.parametrize("case, env, obj", OBJECTS)
def test_every_object_validates_against_its_schema(case, env, obj) -> None:
    """Each output object against the schema of its kind (CRDs and Kubernetes' OpenAPI, in schemas/)."""
    import jsonschema

    group, _, version = obj["apiVersion"].rpartition("/")
    path = ROOT / "schemas" / (group or version) / f"{obj['kind'].lower()}_{version}.json"
    validator = jsonschema.Draft7Validator(json.loads(path.read_text()))
    errors = [f"{'.'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(obj)]
    assert not errors, "\n".join(errors)


@pytest.mark.parametrize("case, env, job", TRAINING_JOBS)
def test_training_operator_defaulting_adds_nothing(case, env, job) -> None:
    """Everything training-operator v1.9.4's defaulting would fill is already written out."""
    from mpigen.operator.training_defaults import set_defaults as set_training_defaults

    assert set_training_defaults(job) == job, f"{env}: defaulting changed the {job['kind']}"


@pytest.mark.parametrize("case, env, job", MPIJOBS)
def test_operator_defaulting_adds_nothing(case, env, job) -> None:
    """Everything mpi-operator's defaulting would fill is already written out."""
    version = OperatorVersion.parse(case.operator_version or "v0.8.2")
    assert set_defaults(job, version) == job, f"{env}: defaulting changed the job"


# That the schedulingPolicy of each golden job is the PodGroup the operator creates is asked of
# the real operators (tests/oracle/test_golden_explain.py), not of mpigen's port that wrote it.


@pytest.mark.parametrize("case, env, job", MPIJOBS)
def test_mpirun_np_is_workers_times_slots(case, env, job) -> None:
    from mpigen.lint.rules.slots_np_mismatch import find_np

    spec = job["spec"]
    workers = spec["mpiReplicaSpecs"].get("Worker", {}).get("replicas", 0)
    hosts = workers + (1 if spec.get("runLauncherAsWorker") else 0)
    container = spec["mpiReplicaSpecs"]["Launcher"]["template"]["spec"]["containers"][0]
    field, launch = find_np(container)  # mpigen's mpirun line, or the user's own with its -np
    assert int(launch.count) == hosts * spec["slotsPerWorker"], (env, field, launch)
    if launch.tool == "horovodrun":
        assert launch.hosts == "hostfile:/etc/mpi/hostfile", (env, launch)


@pytest.mark.parametrize("case, env, job", JOBS)
def test_pod_templates_opt_out_of_istio(case, env, job) -> None:
    keys = {"MPIJob": "mpiReplicaSpecs", "PyTorchJob": "pytorchReplicaSpecs", "TFJob": "tfReplicaSpecs"}
    for role, replica in job["spec"][keys[job["kind"]]].items():
        assert replica["template"]["metadata"]["annotations"]["sidecar.istio.io/inject"] == "false", (env, role)
