"""mpigen.render.addons: TensorBoard's Deployment and Service beside the job.

TensorBoard mounts the volume that holds ``tensorboard.logDir`` read-only at the same path as
the training pods (subPath kept), so the path means the same in both; the objects follow the
job in apply order, carry its namespace and labels, and validate against their schemas.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema

from mpigen.diagnostics import Severity
from mpigen.emit.yaml_emit import dump_all
from mpigen.expand.defaults import TENSORBOARD_IMAGE
from mpigen.load.yaml_loader import load_text
from mpigen.pipeline import CompiledJob, Options, compile_specs
from mpigen.validation.engine import ValidateOptions, validate_bytes

ROOT = Path(__file__).resolve().parents[2]
HEAD = ("apiVersion: mpigen.dev/v1alpha1\nkind: TrainingJob\nmetadata:\n  name: board\n  namespace: ml\n"
        "  labels: {team: vision}\nspec:\n")
PYTORCH = "  framework: pytorch\n  image: pytorch/pytorch:2.3.0\n  command: [python, train.py]\n  workers: 1\n"
MPI = "  framework: mpi\n  image: horovod/horovod:0.28.1\n  command: [python, train.py]\n  workers: 1\n"
SELECTOR = {"app.kubernetes.io/instance": "board", "app.kubernetes.io/name": "tensorboard"}


def compile_text(text: str) -> CompiledJob:
    result = compile_specs(load_text(text, "board.yaml"), "board.yaml", Options())
    assert not [d for d in result.diagnostics if d.severity is Severity.ERROR], result.diagnostics
    (job,) = result.jobs
    return job


def build(body: str) -> list[dict[str, Any]]:
    return compile_text(HEAD + body).base


def validator(relative: str) -> jsonschema.Draft7Validator:
    return jsonschema.Draft7Validator(json.loads((ROOT / "schemas" / relative).read_text()))


def test_deployment_and_service_follow_the_job() -> None:
    body = PYTORCH + "  volumes:\n    - {claimName: logs, mountPath: /logs}\n  tensorboard: {logDir: /logs/run1}\n"
    job, deployment, service = build(body)
    assert job["kind"] == "PyTorchJob"
    assert (deployment["apiVersion"], deployment["kind"]) == ("apps/v1", "Deployment")
    assert (service["apiVersion"], service["kind"]) == ("v1", "Service")
    labels = {**SELECTOR, "app.kubernetes.io/managed-by": "mpigen", "team": "vision"}
    for obj in (deployment, service):
        assert obj["metadata"] == {"name": "board-tensorboard", "namespace": "ml", "labels": labels}
    assert deployment["spec"]["replicas"] == 1
    assert deployment["spec"]["selector"] == {"matchLabels": SELECTOR}
    assert deployment["spec"]["template"]["metadata"]["labels"] == labels
    (container,) = deployment["spec"]["template"]["spec"]["containers"]
    assert container["image"] == TENSORBOARD_IMAGE
    assert container["command"] == ["tensorboard", "--logdir", "/logs/run1", "--host", "0.0.0.0", "--port", "6006"]
    assert container["ports"] == [{"containerPort": 6006, "name": "http"}]
    assert container["volumeMounts"] == [{"name": "logs", "mountPath": "/logs", "readOnly": True}]
    assert deployment["spec"]["template"]["spec"]["volumes"] == [
        {"name": "logs", "persistentVolumeClaim": {"claimName": "logs", "readOnly": True}}]
    assert service["spec"] == {"type": "ClusterIP", "selector": SELECTOR,
                               "ports": [{"name": "http", "port": 6006, "targetPort": "http"}]}
    assert validator("apps/deployment_v1.json").is_valid(deployment)
    assert validator("v1/service_v1.json").is_valid(service)


def test_same_volume_same_path_subpath_kept_read_only() -> None:
    body = PYTORCH + ("  volumes:\n    - {claimName: datasets, mountPath: /data, readOnly: true}\n"
                      "    - {claimName: shared, mountPath: /data/out, subPath: team/exp1, name: out}\n"
                      "  tensorboard: {logDir: /data/out/tb/}\n")
    job, deployment, _ = build(body)
    (training_mount,) = [m for m in job["spec"]["pytorchReplicaSpecs"]["Master"]["template"]["spec"]["containers"][0]
                         ["volumeMounts"] if m["name"] == "out"]
    (board,) = deployment["spec"]["template"]["spec"]["containers"][0]["volumeMounts"]
    assert board == {**training_mount, "readOnly": True}
    assert board == {"name": "out", "mountPath": "/data/out", "readOnly": True, "subPath": "team/exp1"}
    assert deployment["spec"]["template"]["spec"]["volumes"] == [
        {"name": "out", "persistentVolumeClaim": {"claimName": "shared", "readOnly": True}}]


def test_host_path_log_dir_mounts_the_node_folder() -> None:
    body = MPI + "  volumes:\n    - {hostPath: /mnt/logs, mountPath: /logs}\n  tensorboard: {logDir: /logs}\n"
    job, deployment, _ = build(body)
    assert job["kind"] == "MPIJob"
    assert deployment["spec"]["template"]["spec"]["volumes"] == [
        {"name": "host-mnt-logs", "hostPath": {"path": "/mnt/logs"}}]
    assert deployment["spec"]["template"]["spec"]["containers"][0]["volumeMounts"] == [
        {"name": "host-mnt-logs", "mountPath": "/logs", "readOnly": True}]


def test_image_port_service_type_and_pull_secrets() -> None:
    body = PYTORCH + ("  imagePullSecrets: [registry]\n  volumes:\n    - {claimName: logs, mountPath: /logs}\n"
                      "  tensorboard: {logDir: /logs, image: 'tb:1', port: 8080, serviceType: NodePort}\n")
    _, deployment, service = build(body)
    pod = deployment["spec"]["template"]["spec"]
    assert pod["imagePullSecrets"] == [{"name": "registry"}]
    assert pod["containers"][0]["image"] == "tb:1"
    assert pod["containers"][0]["command"][-1] == "8080"
    assert pod["containers"][0]["ports"] == [{"containerPort": 8080, "name": "http"}]
    assert service["spec"]["type"] == "NodePort"
    assert service["spec"]["ports"] == [{"name": "http", "port": 8080, "targetPort": "http"}]


def test_no_tensorboard_no_extra_objects() -> None:
    assert [o["kind"] for o in build(PYTORCH)] == ["PyTorchJob"]


def test_an_environment_may_remove_tensorboard() -> None:
    body = PYTORCH + ("  volumes:\n    - {claimName: logs, mountPath: /logs}\n  tensorboard: {logDir: /logs}\n"
                      "  environments:\n    ci: {tensorboard: null}\n")
    compiled = compile_text(HEAD + body)
    assert [o["kind"] for o in compiled.base] == ["PyTorchJob", "Deployment", "Service"]
    assert [o["kind"] for o in compiled.objects("ci")] == ["PyTorchJob"]


def test_tensorboard_objects_pass_mpigen_validate() -> None:
    body = PYTORCH + "  volumes:\n    - {claimName: logs, mountPath: /logs}\n  tensorboard: {logDir: /logs}\n"
    diagnostics, _ = validate_bytes(dump_all(build(body)).encode(), "out.yaml", ValidateOptions())
    assert [d for d in diagnostics if d.severity is Severity.ERROR] == []
