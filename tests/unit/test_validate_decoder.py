"""What the API server refuses beyond the rules of each kind: its decoder (an int32 field's
3000000000, base64 that does not decode, a Quantity that does not parse), kubectl's YAML 1.1
reader (an unquoted ``y`` is a boolean), and training-operator's validating webhook. Each was a
manifest the API server refused and ``mpigen validate`` passed (tests/e2e/test_validate_server.py)."""

from __future__ import annotations

import pytest

from mpigen.diagnostics import Severity
from mpigen.validation.engine import ValidateOptions, validate_bytes

DEPLOYMENT = """apiVersion: apps/v1
kind: Deployment
metadata: {name: tensorboard}
spec:
  replicas: REPLICAS
  selector: {matchLabels: {app: tb}}
  template:
    metadata: {labels: {app: tb}}
    spec:
      containers:
      - name: tensorboard
        image: tensorflow/tensorflow:2.16.1
        resources: {limits: {memory: MEMORY}}
"""

PYTORCHJOB = """apiVersion: kubeflow.org/v1
kind: PyTorchJob
metadata: {name: ddp}
spec:
  pytorchReplicaSpecs:
    Master:
      replicas: MASTERS
      template:
        metadata: {annotations: {sidecar.istio.io/inject: "false"}}
        spec:
          containers:
          - name: CONTAINER
            image: pytorch/pytorch:2.3.1-cuda12.1-cudnn8-runtime
            ports: [{name: pytorchjob-port, containerPort: 23456}]
"""


def errors(text: str) -> list[tuple[str, str, str]]:
    found, _ = validate_bytes(text.encode(), "m.yaml", ValidateOptions())
    return [(d.code, d.path, d.message) for d in found if d.severity is Severity.ERROR]


def deployment(replicas: str = "1", memory: str = "1Gi") -> str:
    return DEPLOYMENT.replace("REPLICAS", replicas).replace("MEMORY", memory)


@pytest.mark.parametrize("replicas, refused", [("2147483647", False), ("2147483648", True), ("-2147483649", True)])
def test_an_int32_field_holds_an_int32(replicas: str, refused: bool) -> None:
    found = errors(deployment(replicas=replicas))
    assert bool(found) is refused, found
    if refused:
        assert [(c, p) for c, p, _ in found] == [("schema", "spec.replicas")]
        assert "int32" in found[0][2]


@pytest.mark.parametrize("memory, refused", [("16Gi", False), ("1e100", False), ('"1.5.5"', True), ("16GB", True)])
def test_a_quantity_of_a_built_in_kind_parses(memory: str, refused: bool) -> None:
    found = errors(deployment(memory=memory))
    assert bool(found) is refused, found
    if refused:
        assert [(c, p) for c, p, _ in found] == [("quantity", "spec.template.spec.containers[0].resources.limits.memory")]


def test_secret_data_is_base64_and_never_printed() -> None:
    text = "apiVersion: v1\nkind: Secret\nmetadata: {name: s}\ndata: {password: hunter2!}\n"
    found = errors(text)
    assert [(c, p) for c, p, _ in found] == [("schema", "data.password")]
    assert "hunter2" not in found[0][2]
    assert errors(text.replace("hunter2!", "aHVudGVyMiE=")) == []


@pytest.mark.parametrize("value, refused", [("y", True), ("N", True), ('"y"', False), ("yes-please", False)])
def test_kubectl_reads_an_unquoted_y_as_a_boolean(value: str, refused: bool) -> None:
    found = errors(f"apiVersion: v1\nkind: ConfigMap\nmetadata: {{name: c}}\ndata:\n  answer: {value}\n")
    assert bool(found) is refused, found
    if refused:
        assert found[0][:2] == ("schema", "data.answer") and f'write "{value}" in quotes' in found[0][2]


def test_the_training_operator_webhook_refusals_are_errors() -> None:
    found = errors(PYTORCHJOB.replace("MASTERS", "2").replace("CONTAINER", "pytorch"))
    assert [(c, p) for c, p, _ in found] == [("training-job-invalid", "spec.pytorchReplicaSpecs.Master.replicas")]
    assert errors(PYTORCHJOB.replace("MASTERS", "1").replace("CONTAINER", "pytorch")) == []


def test_a_webhook_refusal_a_rule_reports_is_reported_once() -> None:
    found = errors(PYTORCHJOB.replace("MASTERS", "1").replace("CONTAINER", "trainer"))
    assert [(c, p) for c, p, _ in found] == [("container-name", "spec.pytorchReplicaSpecs.Master.template.spec.containers")]


def test_two_chiefs_of_a_tfjob() -> None:
    replica = ("    {role}:\n      replicas: 1\n      template:\n        metadata: {{annotations: "
               "{{sidecar.istio.io/inject: \"false\"}}}}\n        spec:\n          containers:\n"
               "          - {{name: tensorflow, image: tensorflow/tensorflow:2.16.1}}\n")
    text = ("apiVersion: kubeflow.org/v1\nkind: TFJob\nmetadata: {name: tf}\nspec:\n  tfReplicaSpecs:\n"
            + replica.format(role="Chief") + replica.format(role="Master"))
    assert [(c, p) for c, p, _ in errors(text)] == [("training-job-invalid", "spec.tfReplicaSpecs")]


NULLS = """apiVersion: kubeflow.org/v1
kind: PyTorchJob
metadata: {name: ddp, creationTimestamp: null}
spec:
  bogus: null
  runPolicy: {cleanPodPolicy: null, typo: {deeper: null}}
  pytorchReplicaSpecs:
    Master:
      replicas: 1
      template:
        metadata:
          creationTimestamp: null
          annotations: {sidecar.istio.io/inject: "false"}
        spec:
          containers:
          - name: pytorch
            image: pytorch/pytorch:2.3.1-cuda12.1-cudnn8-runtime
            imagePullPolicy: null
            imagePullPolicyy: null
            ports: [{name: pytorchjob-port, containerPort: 23456}]
"""


def test_an_unknown_field_whose_value_is_null_is_reported_at_its_key() -> None:
    """Client-side kubectl apply drops it; kubectl create and server-side apply refuse the object.
    A null in a field the schema knows (metadata.creationTimestamp, cleanPodPolicy,
    imagePullPolicy) is what the server drops too; a null under an unknown field that is not null
    is that field's problem (unknown-field)."""
    found, _ = validate_bytes(NULLS.encode(), "m.yaml", ValidateOptions())
    nulls = [(d.line, d.column, d.path, d.severity) for d in found if d.code == "unknown-null-field"]
    assert nulls == [
        (5, 3, "spec.bogus", Severity.WARNING),
        (12, 11, "spec.pytorchReplicaSpecs.Master.template.metadata.creationTimestamp", Severity.WARNING),
        (19, 13, "spec.pytorchReplicaSpecs.Master.template.spec.containers[0].imagePullPolicyy", Severity.WARNING)]
    assert [(d.code, d.path) for d in found if d.code != "unknown-null-field"] == [
        ("unknown-field", "spec.runPolicy.typo")]
    message = next(d.message for d in found if d.path.endswith("imagePullPolicyy"))
    assert message == ("unknown field 'imagePullPolicyy' (did you mean 'imagePullPolicy'?) is null: client-side "
                       "`kubectl apply` drops it, but `kubectl create` and server-side apply (`kubectl apply "
                       "--server-side`, GitOps tools that apply server-side) refuse the object (\"unknown field\", "
                       "\"field not declared in schema\"); remove it")


def test_an_unknown_null_field_is_an_error_where_the_repository_is_applied_server_side() -> None:
    found, _ = validate_bytes(NULLS.encode(), "m.yaml", ValidateOptions(server_side=True))
    nulls = [d for d in found if d.code == "unknown-null-field"]
    assert len(nulls) == 3 and {d.severity for d in nulls} == {Severity.ERROR}
    assert "this repository is applied server-side (apply: server-side), which refuses the object" in nulls[0].message


def test_a_null_in_a_free_form_field_or_a_map_is_no_unknown_field() -> None:
    """A Deployment's template metadata is ObjectMeta (creationTimestamp known); labels are a map."""
    text = deployment().replace("metadata: {labels: {app: tb}}",
                                "metadata: {labels: {app: tb, other: null}, creationTimestamp: null}")
    found, _ = validate_bytes(text.encode(), "d.yaml", ValidateOptions())
    assert not [d for d in found if d.code == "unknown-null-field"]
