"""mpigen.render.training: PyTorchJob and TFJob (kubeflow.org/v1), complete and explicit.

The promises: PyTorch's Master is exactly one and always written; workers 0 leaves a Master
alone; TensorFlow's roles come in the order Chief, PS, Worker, Evaluator with their replicas;
the containers are named ``pytorch``/``tensorflow`` with the ports ``pytorchjob-port``/
``tfjob-port``; training-operator v1.9.4's defaulting adds nothing (``set_defaults(job) ==
job``); every object validates against its CRD schema and passes ``mpigen validate``.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from mpigen.diagnostics import Severity
from mpigen.emit.yaml_emit import dump_all
from mpigen.load.yaml_loader import load_text
from mpigen.pipeline import CompiledJob, Options, compile_specs
from mpigen.render import training
from mpigen.validation import ValidateOptions, schema_for, validate_bytes

ROOT = Path(__file__).resolve().parents[2]
RICH = sorted((ROOT / "tests" / "cases" / "specs" / "rich").glob("*.yaml"))
HEAD = "apiVersion: mpigen.dev/v1alpha1\nkind: TrainingJob\nmetadata:\n  name: demo\n  namespace: ns\nspec:\n"
PYTORCH = "  framework: pytorch\n  image: pytorch/pytorch:2.3.0\n  command: [python, train.py]\n"
TENSORFLOW = "  framework: tensorflow\n  image: tensorflow/tensorflow:2.15.0\n  command: [python, train.py]\n"


def compile_text(text: str, options: Options = Options()) -> CompiledJob:
    result = compile_specs(load_text(text, "demo.yaml"), "demo.yaml", options)
    errors = [d for d in result.diagnostics if d.severity is Severity.ERROR]
    assert not errors, errors
    (job,) = result.jobs
    return job


def build(body: str) -> dict[str, Any]:
    return compile_text(HEAD + body).base[0]


def replicas(job: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return job["spec"][training.REPLICA_SPECS[{"PyTorchJob": "pytorch", "TFJob": "tensorflow"}[job["kind"]]]]


@lru_cache(maxsize=None)
def _validator(name: str) -> jsonschema.Draft7Validator:
    return jsonschema.Draft7Validator(json.loads((ROOT / "schemas" / name).read_text()))


def schema_errors(obj: dict[str, Any]) -> list[str]:
    name = schema_for(obj["apiVersion"], obj["kind"])
    assert name, f"no schema for {obj['apiVersion']} {obj['kind']}"
    return [f"{'.'.join(map(str, e.absolute_path))}: {e.message}" for e in _validator(name).iter_errors(obj)]


def engine_errors(objects: list[dict[str, Any]]) -> list[str]:
    diagnostics, _ = validate_bytes(dump_all(objects).encode(), "out.yaml", ValidateOptions())
    return [d.format() if hasattr(d, "format") else str(d) for d in diagnostics if d.severity is Severity.ERROR]


# --- PyTorch ----------------------------------------------------------------------------------

def test_pytorch_master_is_exactly_one_and_explicit() -> None:
    job = build(PYTORCH + "  workers: 3\n")
    assert job["apiVersion"] == "kubeflow.org/v1" and job["kind"] == "PyTorchJob"
    specs = replicas(job)
    assert list(specs) == ["Master", "Worker"]
    assert specs["Master"]["replicas"] == 1 and specs["Worker"]["replicas"] == 3
    assert job["spec"]["nprocPerNode"] == "auto"
    assert job["spec"]["runPolicy"] == {"cleanPodPolicy": "Running", "suspend": False}


def test_pytorch_without_workers_is_a_master_alone() -> None:
    job = build(PYTORCH + "  workers: 0\n")
    assert list(replicas(job)) == ["Master"]
    assert replicas(job)["Master"]["replicas"] == 1


def test_pytorch_master_settings_override_the_workers() -> None:
    body = PYTORCH + ("  workers: 2\n  resources: {gpu: 4, cpu: 16}\n  priorityClassName: low\n"
                      "  pytorch:\n    port: 29500\n    master: {image: 'my/master:1', resources: {cpu: 2}, priorityClassName: high}\n")
    specs = replicas(build(body))
    master, worker = (specs[r]["template"] for r in ("Master", "Worker"))
    assert master["spec"]["containers"][0]["image"] == "my/master:1"
    assert master["spec"]["containers"][0]["resources"] == {"limits": {"cpu": "2"}, "requests": {"cpu": "2"}}
    assert master["spec"]["priorityClassName"] == "high"
    assert worker["spec"]["containers"][0]["image"] == "pytorch/pytorch:2.3.0"
    assert worker["spec"]["containers"][0]["resources"]["limits"] == {"cpu": "16", "nvidia.com/gpu": "4"}
    assert worker["spec"]["priorityClassName"] == "low"
    for template in (master, worker):
        assert template["spec"]["containers"][0]["ports"] == [{"containerPort": 29500, "name": "pytorchjob-port"}]


def test_pytorch_master_defaults_to_the_spec() -> None:
    body = PYTORCH + "  workers: 1\n  resources: {gpu: 1}\n  priorityClassName: p\n"
    specs = replicas(build(body))
    assert specs["Master"]["template"]["spec"] == specs["Worker"]["template"]["spec"]


# --- TensorFlow -------------------------------------------------------------------------------

def test_tensorflow_roles_in_order_with_their_replicas() -> None:
    body = TENSORFLOW + ("  workers: 4\n  resources: {gpu: 1}\n"
                         "  tensorflow:\n    evaluator: {}\n    ps: {replicas: 3, image: 'tf:cpu', resources: {cpu: 2}}\n"
                         "    chief: {priorityClassName: high}\n")
    job = build(body)
    assert job["kind"] == "TFJob" and job["spec"]["successPolicy"] == ""
    specs = replicas(job)
    assert [(r, s["replicas"]) for r, s in specs.items()] == [("Chief", 1), ("PS", 3), ("Worker", 4), ("Evaluator", 1)]
    ps = specs["PS"]["template"]["spec"]
    assert ps["containers"][0]["image"] == "tf:cpu"
    assert ps["containers"][0]["resources"]["limits"] == {"cpu": "2"}
    assert specs["Chief"]["template"]["spec"]["priorityClassName"] == "high"
    assert "priorityClassName" not in specs["Worker"]["template"]["spec"]
    assert specs["Evaluator"]["template"]["spec"]["containers"][0]["resources"]["limits"] == {"nvidia.com/gpu": "1"}


def test_tensorflow_chief_alone() -> None:
    specs = replicas(build(TENSORFLOW + "  workers: 0\n  tensorflow: {chief: {}}\n"))
    assert list(specs) == ["Chief"]


def test_tensorflow_without_roles_is_workers_only() -> None:
    specs = replicas(build(TENSORFLOW + "  workers: 2\n"))
    assert list(specs) == ["Worker"]


@pytest.mark.parametrize("framework, body", [("pytorch", PYTORCH), ("tensorflow", TENSORFLOW)])
def test_container_name_and_port(framework: str, body: str) -> None:
    job = build(body + "  workers: 2\n" + ("  tensorflow: {chief: {}, ps: {replicas: 1}, evaluator: {}}\n"
                                           if framework == "tensorflow" else ""))
    port = {"pytorch": {"containerPort": 23456, "name": "pytorchjob-port"},
            "tensorflow": {"containerPort": 2222, "name": "tfjob-port"}}[framework]
    for spec in replicas(job).values():
        (container,) = spec["template"]["spec"]["containers"]
        assert container["name"] == framework
        assert container["ports"] == [port]
        assert container["command"] == ["python", "train.py"]


@pytest.mark.parametrize("body, policy", [
    (PYTORCH + "  workers: 1\n", "OnFailure"),
    (TENSORFLOW + "  workers: 1\n", "Never"),  # training-operator v1.9.4's TFJob default, written out
    (PYTORCH + "  workers: 1\n  restartPolicy: ExitCode\n", "ExitCode"),
    (TENSORFLOW + "  workers: 1\n  tensorflow: {ps: {replicas: 1}}\n  restartPolicy: OnFailure\n", "OnFailure"),
])
def test_restart_policy_on_every_replica(body: str, policy: str) -> None:
    assert {s["restartPolicy"] for s in replicas(build(body)).values()} == {policy}


def test_environment_and_run_policy_on_every_pod() -> None:
    body = TENSORFLOW + ("  workers: 1\n  tensorflow: {ps: {replicas: 1}}\n"
                         "  env: {B: '2', A: {secretKeyRef: {name: s, key: k}}}\n"
                         "  runPolicy: {cleanPodPolicy: All, backoffLimit: 4, activeDeadlineSeconds: 600,"
                         " ttlSecondsAfterFinished: 60, suspend: true}\n")
    job = build(body)
    assert job["spec"]["runPolicy"] == {"cleanPodPolicy": "All", "ttlSecondsAfterFinished": 60,
                                        "activeDeadlineSeconds": 600, "backoffLimit": 4, "suspend": True}
    for spec in replicas(job).values():
        assert spec["template"]["spec"]["containers"][0]["env"] == [
            {"name": "A", "valueFrom": {"secretKeyRef": {"name": "s", "key": "k"}}}, {"name": "B", "value": "2"}]


def test_job_metadata() -> None:
    text = HEAD.replace("  namespace: ns\n", "  namespace: ns\n  labels: {b: '2', a: '1'}\n  annotations: {x: y}\n")
    job = compile_text(text + PYTORCH + "  workers: 1\n").base[0]
    assert job["metadata"] == {"name": "demo", "namespace": "ns", "labels": {"a": "1", "b": "2"},
                               "annotations": {"x": "y"}}
    for spec in replicas(job).values():
        assert spec["template"]["metadata"]["labels"] == {"a": "1", "b": "2"}


# --- the operator adds nothing; schemas; mpigen validate --------------------------------------

MATRIX = [
    PYTORCH + "  workers: 0\n",
    PYTORCH + "  workers: 2\n  resources: {gpu: 1}\n  scheduling: {gang: volcano}\n",
    PYTORCH + "  workers: 2\n  scheduling: {gang: scheduler-plugins, scheduleTimeoutSeconds: 30}\n",
    PYTORCH + "  workers: 2\n  scheduling: {gang: kueue, queue: q}\n",
    PYTORCH + "  workers: 2\n  scheduling: {gang: kube-batch}\n",
    PYTORCH + "  workers: 2\n  resources: {gpu: 1}\n  scheduling: {gpuTopology: true}\n  shmSize: 1Gi\n",
    TENSORFLOW + "  workers: 2\n  tensorflow: {chief: {}, ps: {replicas: 2}, evaluator: {}}\n",
    TENSORFLOW + "  workers: 0\n  tensorflow: {chief: {}}\n  scheduling: {gang: volcano, minAvailable: 1}\n",
    TENSORFLOW + "  workers: 3\n  tensorflow: {port: 3333, ps: {replicas: 1}}\n"
                 "  code: {git: {repository: 'https://github.com/o/r.git', secret: s}}\n",
]


def _training_objects() -> list[tuple[str, list[dict[str, Any]]]]:
    out = []
    for i, body in enumerate(MATRIX):
        out.append((f"matrix-{i}", compile_text(HEAD + body).base))
    for path in RICH:
        compiled = compile_text(path.read_text())
        for env in [None, *compiled.environments]:
            out.append((f"{path.stem}-{env or 'base'}", compiled.objects(env)))
    return out


OBJECTS = _training_objects()


@pytest.mark.parametrize("objects", [o for _, o in OBJECTS], ids=[n for n, _ in OBJECTS])
def test_training_operator_defaulting_adds_nothing(objects: list[dict[str, Any]]) -> None:
    from mpigen.operator import training_defaults

    job = objects[0]
    if job["kind"] == "MPIJob":
        from mpigen.operator.mpi_defaults import set_defaults

        assert set_defaults(job) == job
    else:
        assert training_defaults.set_defaults(job) == job


@pytest.mark.parametrize("objects", [o for _, o in OBJECTS], ids=[n for n, _ in OBJECTS])
def test_every_object_validates_against_its_schema(objects: list[dict[str, Any]]) -> None:
    for obj in objects:
        assert schema_errors(obj) == [], f"{obj['kind']} {obj['metadata']['name']}"


@pytest.mark.parametrize("objects", [o for _, o in OBJECTS], ids=[n for n, _ in OBJECTS])
def test_every_object_passes_mpigen_validate(objects: list[dict[str, Any]]) -> None:
    assert engine_errors(objects) == []


def test_scheduler_plugins_pins_an_empty_sum_that_another_order_would_fill() -> None:
    """Found by tests/random_specs.py (seed 14888): PS first and without resources, a gang of one
    pod. The spec's order sums nothing, the other gives the evaluator's cpu; scheduler-plugins'
    operator would draw one. mpigen writes the empty one explicitly (it crashed with KeyError)."""
    body = (TENSORFLOW + "  workers: 1\n"
            "  tensorflow: {ps: {replicas: 1}, evaluator: {resources: {cpu: '1'}}}\n"
            "  scheduling: {gang: scheduler-plugins, minAvailable: 1, scheduleTimeoutSeconds: 60}\n")
    result = compile_specs(load_text(HEAD + body, "demo.yaml"), "demo.yaml", Options())
    assert [d.code for d in result.diagnostics] == ["min-resources-order"]
    (job,) = result.jobs
    assert job.base[0]["spec"]["runPolicy"]["schedulingPolicy"]["minResources"] == {}
