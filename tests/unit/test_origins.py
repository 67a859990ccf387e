"""mpigen.render.origins: the spec field behind each field of a built object, where build reports
what validate finds on it."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator

import pytest

from mpigen.expand.environments import environment_names, spec_for
from mpigen.load.yaml_loader import load_text
from mpigen.pipeline import Options, compile_specs
from mpigen.render.origins import spec_field

ROOT = Path(__file__).resolve().parents[2]
RICH = {p.stem: p for p in sorted((ROOT / "tests" / "cases" / "specs" / "rich").glob("*.yaml"))}


def _built(name: str, env: str | None = None) -> tuple[dict[str, Any], dict[str, Any], list[dict[str, Any]]]:
    text = RICH[name].read_text()
    loaded = load_text(text, name)
    result = compile_specs(loaded, name, Options())
    assert result.ok, [d.format() for d in result.diagnostics]
    data = loaded.documents[0].data
    return data["metadata"], spec_for(data["spec"], env), result.jobs[0].objects(env)


def _leaves(value: Any, path: tuple = ()) -> Iterator[tuple]:
    yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _leaves(item, path + (key,))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _leaves(item, path + (i,))


def _holds(data: Any, path: tuple) -> bool:
    for part in path:
        try:
            data = data[part]
        except (KeyError, IndexError, TypeError):
            return False
    return True


@pytest.mark.parametrize("name", sorted(RICH))
def test_every_field_of_every_built_object_has_a_spec_field(name: str) -> None:
    text = RICH[name].read_text()
    for env in [None, *environment_names(load_text(text, name).documents[0].data["spec"])]:
        metadata, spec, objects = _built(name, env)
        for obj in objects:
            for path in _leaves(obj):
                field = spec_field(obj, path, metadata, spec)
                assert field[:1] in (("spec",), ("metadata",)), (obj["kind"], path, field)
                assert _holds({"metadata": metadata, "spec": spec}, field), (obj["kind"], path, field)


def _mpijob(name: str) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    metadata, spec, objects = _built(name)
    return metadata, spec, objects[0]


L = ("spec", "mpiReplicaSpecs", "Launcher", "template")
W = ("spec", "mpiReplicaSpecs", "Worker", "template")


@pytest.mark.parametrize("path, expected", [
    (L + ("spec", "containers", 0, "command"), ("spec", "command")),
    (W + ("spec", "containers", 0, "command"), ("spec",)),  # sshd: the spec sets no mpi section
    (W + ("spec", "containers", 0, "resources", "limits", "aliyun.com/gpu"), ("spec", "resources", "gpu")),
    (W + ("spec", "containers", 0, "resources", "limits", "cpu"), ("spec", "resources", "cpu")),
    (W + ("spec", "containers", 0, "volumeMounts", 0, "mountPath"), ("spec", "volumes", 0)),
    (W + ("spec", "containers", 0, "volumeMounts", 1), ("spec", "code")),
    (W + ("spec", "containers", 0, "volumeMounts", 2, "name"), ("spec", "shmSize")),
    (W + ("spec", "volumes", 0, "persistentVolumeClaim", "claimName"), ("spec", "volumes", 0)),
    (W + ("spec", "initContainers", 0, "args", 0), ("spec", "code")),
    (W + ("spec", "hostNetwork"), ("spec", "scheduling", "gpuTopology")),
    (W + ("metadata", "labels", "gpu-topology"), ("spec", "scheduling", "gpuTopology")),
    (W + ("metadata", "annotations", "scheduling.k8s.io/group-name"), ("spec", "scheduling", "gang")),
    (W + ("spec", "schedulerName"), ("spec", "scheduling", "gang")),
    (W + ("spec", "securityContext", "fsGroup"), ("spec", "code", "git", "secret")),
    (W + ("spec", "containers", 0, "workingDir"), ("spec", "code", "mountPath")),
    (("spec", "mpiReplicaSpecs", "Worker", "replicas"), ("spec", "workers")),
    (("spec", "slotsPerWorker"), ("spec", "resources", "gpu")),
    (("spec", "sshAuthMountPath"), ("spec",)),
    (("spec", "runPolicy", "schedulingPolicy", "minAvailable"), ("spec", "scheduling", "gang")),  # not set
    (("spec", "runPolicy", "schedulingPolicy", "minResources", "cpu"), ("spec", "scheduling", "gang")),
    (("spec", "runPolicy", "cleanPodPolicy"), ("spec",)),
    (("metadata", "name"), ("metadata", "name")),
])
def test_mpijob_fields(path: tuple, expected: tuple) -> None:
    metadata, spec, job = _mpijob("mpi")
    assert _holds(job, path), path
    assert spec_field(job, path, metadata, spec) == expected


def test_roles_of_their_own() -> None:
    metadata, spec, objects = _built("tensorflow")
    job = objects[0]
    ps = ("spec", "tfReplicaSpecs", "PS")
    evaluator = ("spec", "tfReplicaSpecs", "Evaluator", "template", "spec")
    assert spec_field(job, ps + ("replicas",), metadata, spec) == ("spec", "tensorflow", "ps", "replicas")
    assert spec_field(job, ps + ("template", "spec", "containers", 0, "image"), metadata, spec) == \
        ("spec", "tensorflow", "ps", "image")
    assert spec_field(job, ps + ("template", "spec", "containers", 0, "resources", "limits", "memory"),
                      metadata, spec) == ("spec", "tensorflow", "ps", "resources", "memory")
    # The Chief inherits the workers' image and resources: the spec's own fields.
    chief = ("spec", "tfReplicaSpecs", "Chief", "template", "spec", "containers", 0)
    assert spec_field(job, chief + ("image",), metadata, spec) == ("spec", "image")
    assert spec_field(job, chief + ("resources", "limits", "nvidia.com/gpu"), metadata, spec) == \
        ("spec", "resources", "gpu")
    assert spec_field(job, chief + ("ports", 0, "containerPort"), metadata, spec) == ("spec", "tensorflow")
    assert spec_field(job, evaluator + ("priorityClassName",), metadata, spec) == \
        ("spec", "tensorflow", "evaluator", "priorityClassName")
    assert spec_field(job, ("spec", "tfReplicaSpecs", "Worker", "template", "spec", "priorityClassName"),
                      metadata, spec) == ("spec", "scheduling", "priorityClass")
    assert spec_field(job, ("spec", "tfReplicaSpecs", "Worker", "template", "metadata", "labels", "team"),
                      metadata, spec) == ("metadata", "labels", "team")
    assert spec_field(job, ("spec", "tfReplicaSpecs", "Worker", "restartPolicy"), metadata, spec) == \
        ("spec", "restartPolicy")
    group = next(o for o in objects if o["kind"] == "PodGroup")
    assert spec_field(group, ("spec", "minMember"), metadata, spec) == ("spec", "scheduling", "gang")
    assert spec_field(group, ("spec", "queue"), metadata, spec) == ("spec", "scheduling", "queue")
    board = next(o for o in objects if o["kind"] == "Deployment")
    assert spec_field(board, ("spec", "template", "spec", "volumes", 0), metadata, spec) == \
        ("spec", "tensorboard", "logDir")


def test_env_names_and_pytorch_master() -> None:
    metadata, spec, objects = _built("pytorch")
    job = objects[0]
    container = ("spec", "pytorchReplicaSpecs", "Master", "template", "spec", "containers", 0)
    env = job["spec"]["pytorchReplicaSpecs"]["Master"]["template"]["spec"]["containers"][0]["env"]
    for i, var in enumerate(env):
        assert spec_field(job, container + ("env", i, "value"), metadata, spec) == ("spec", "env", var["name"])
    assert spec_field(job, container + ("ports", 0, "name"), metadata, spec)[:2] == ("spec", "pytorch")
