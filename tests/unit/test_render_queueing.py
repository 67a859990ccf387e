"""Queueing and gang scheduling of the training jobs: Kueue, kube-batch, and Volcano /
scheduler-plugins for PyTorchJob and TFJob (mpigen.render.gang).

- Kueue: the LocalQueue and WorkloadPriorityClass are labels of the job only; no suspend, no
  schedulingPolicy, and scheduling.priorityClass does not reach the pods.
- kube-batch: a PodGroup scheduling.incubator.k8s.io/v1alpha1 beside the job, minMember every
  pod (an MPIJob's launcher included); pods name kube-batch and their group.
- Volcano / scheduler-plugins on training jobs: the explicit schedulingPolicy is what
  training-operator computes from the manifest (``training_podgroup.podgroup``), and what it
  computes from the manifest without the values mpigen resolved (by value for quantities).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from mpigen.diagnostics import Severity
from mpigen.load.yaml_loader import load_text
from mpigen.operator.quantity import Quantity
from mpigen.pipeline import Options, compile_specs
from mpigen.render import gang

ROOT = Path(__file__).resolve().parents[2]
HEAD = ("apiVersion: mpigen.dev/v1alpha1\nkind: TrainingJob\nmetadata:\n  name: q\n  namespace: ml\n"
        "  labels: {team: a}\nspec:\n")
MPI = "  framework: mpi\n  image: horovod/horovod:0.28.1\n  command: [python, train.py]\n"
PYTORCH = "  framework: pytorch\n  image: pytorch/pytorch:2.3.0\n  command: [python, train.py]\n"
TENSORFLOW = "  framework: tensorflow\n  image: tensorflow/tensorflow:2.15.0\n  command: [python, train.py]\n"
KEYS = ("mpiReplicaSpecs", "pytorchReplicaSpecs", "tfReplicaSpecs")


def compile_body(body: str, options: Options = Options()):
    result = compile_specs(load_text(HEAD + body, "q.yaml"), "q.yaml", options)
    assert not [d for d in result.diagnostics if d.severity is Severity.ERROR], result.diagnostics
    return result


def build(body: str, options: Options = Options()) -> list[dict[str, Any]]:
    return compile_body(body, options).jobs[0].base


def templates(job: dict[str, Any]) -> dict[str, dict[str, Any]]:
    (key,) = [k for k in KEYS if k in job["spec"]]
    return {r: s["template"] for r, s in job["spec"][key].items()}


# --- Kueue ------------------------------------------------------------------------------------

@pytest.mark.parametrize("framework", [MPI, PYTORCH, TENSORFLOW])
def test_kueue_labels_the_job_only(framework: str) -> None:
    body = framework + ("  workers: 2\n  priorityClassName: pods-class\n"
                        "  scheduling: {gang: kueue, queue: team-a, priorityClass: batch-high}\n"
                        "  runPolicy: {suspend: true, backoffLimit: 2}\n")
    (job,) = build(body)  # no PodGroup, nothing else
    assert job["metadata"]["labels"] == {"kueue.x-k8s.io/priority-class": "batch-high",
                                         "kueue.x-k8s.io/queue-name": "team-a", "team": "a"}
    assert list(job["metadata"]) == ["name", "namespace", "labels"]
    assert "suspend" not in job["spec"]["runPolicy"]
    assert job["spec"]["runPolicy"]["backoffLimit"] == 2
    assert "schedulingPolicy" not in job["spec"]["runPolicy"]
    for template in templates(job).values():
        assert not any(k.startswith("kueue.x-k8s.io") for k in template["metadata"].get("labels", {}))
        assert template["spec"]["priorityClassName"] == "pods-class"
        assert "schedulerName" not in template["spec"]


@pytest.mark.parametrize("framework", [MPI, PYTORCH, TENSORFLOW])
def test_kueue_priority_class_is_not_the_pods_priority_class(framework: str) -> None:
    (job,) = build(framework + "  workers: 1\n  scheduling: {gang: kueue, queue: lq, priorityClass: wpc}\n")
    for template in templates(job).values():
        assert "priorityClassName" not in template["spec"]


def test_kueue_without_priority_class_has_only_the_queue_label() -> None:
    (job,) = build(PYTORCH + "  workers: 1\n  scheduling: {gang: kueue, queue: lq}\n")
    assert job["metadata"]["labels"] == {"kueue.x-k8s.io/queue-name": "lq", "team": "a"}


def test_an_environment_can_switch_to_kueue() -> None:
    body = PYTORCH + ("  workers: 1\n  scheduling: {gang: volcano, queue: research}\n"
                      "  environments:\n    shared: {scheduling: {gang: kueue, queue: lq}}\n")
    compiled = compile_body(body).jobs[0]
    (base,), (shared,) = compiled.base, compiled.objects("shared")
    assert "schedulingPolicy" in base["spec"]["runPolicy"] and base["spec"]["runPolicy"]["suspend"] is False
    assert "schedulingPolicy" not in shared["spec"]["runPolicy"] and "suspend" not in shared["spec"]["runPolicy"]
    for template in templates(shared).values():
        assert "schedulerName" not in template["spec"]
        assert "scheduling.k8s.io/group-name" not in template["metadata"]["annotations"]


def test_apply_kueue_directly() -> None:
    job = {"apiVersion": "kubeflow.org/v1", "kind": "PyTorchJob",
           "metadata": {"annotations": {"a": "b"}, "name": "j", "labels": {"z": "1"}}, "spec": {}}
    out = gang.apply_kueue(job, {"queue": "lq"})
    assert out["metadata"] == {"name": "j", "labels": {"kueue.x-k8s.io/queue-name": "lq", "z": "1"},
                               "annotations": {"a": "b"}}
    assert job["metadata"]["labels"] == {"z": "1"}, "the input is not modified"


# --- kube-batch -------------------------------------------------------------------------------

def _pod_group_validator() -> jsonschema.Draft7Validator:
    schema = ROOT / "schemas" / "scheduling.incubator.k8s.io" / "podgroup_v1alpha1.json"
    return jsonschema.Draft7Validator(json.loads(schema.read_text()))


@pytest.mark.parametrize("body, min_member", [
    (MPI + "  workers: 3\n", 4),  # the launcher counts
    (MPI + "  workers: 0\n  mpi: {runLauncherAsWorker: true}\n", 1),
    (PYTORCH + "  workers: 3\n", 4),
    (PYTORCH + "  workers: 0\n", 1),
    (TENSORFLOW + "  workers: 3\n  tensorflow: {chief: {}, ps: {replicas: 2}, evaluator: {}}\n", 7),
    (TENSORFLOW + "  workers: 3\n", 3),
])
def test_kube_batch_pod_group_counts_every_pod(body: str, min_member: int) -> None:
    job, group = build(body + "  scheduling: {gang: kube-batch, queue: batch, priorityClass: high}\n")
    assert group == {"apiVersion": "scheduling.incubator.k8s.io/v1alpha1", "kind": "PodGroup",
                     "metadata": {"name": "q", "namespace": "ml", "labels": {"team": "a"}},
                     "spec": {"minMember": min_member, "queue": "batch", "priorityClassName": "high"}}
    assert _pod_group_validator().is_valid(group)
    assert "schedulingPolicy" not in job["spec"]["runPolicy"]
    for template in templates(job).values():
        assert template["spec"]["schedulerName"] == "kube-batch"
        assert template["metadata"]["annotations"]["scheduling.k8s.io/group-name"] == "q"
        assert template["spec"]["priorityClassName"] == "high"


def test_kube_batch_explicit_min_available_and_no_queue() -> None:
    _, group = build(PYTORCH + "  workers: 5\n  scheduling: {gang: kube-batch, minAvailable: 2}\n")
    assert group["spec"] == {"minMember": 2}


def test_kube_batch_min_member_follows_the_environment() -> None:
    body = MPI + "  workers: 2\n  scheduling: {gang: kube-batch}\n  environments:\n    big: {workers: 31}\n"
    compiled = compile_body(body).jobs[0]
    assert compiled.base[1]["spec"]["minMember"] == 3
    assert compiled.objects("big")[1]["spec"]["minMember"] == 32


# --- Volcano and scheduler-plugins on training jobs -------------------------------------------

POLICY_KEYS = {"minMember": "minAvailable", "queue": "queue", "priorityClassName": "priorityClass",
               "minResources": "minResources", "scheduleTimeoutSeconds": "scheduleTimeoutSeconds"}


def _by_value(policy: dict[str, Any]) -> dict[str, Any]:
    out = dict(policy)
    if "minResources" in out:
        out["minResources"] = {k: Quantity.parse(v).canonical() for k, v in out["minResources"].items()}
    return out


def _policy_from_pod_group(group: dict[str, Any]) -> dict[str, Any]:
    return {POLICY_KEYS[k]: v for k, v in group["spec"].items()}


def _without(job: dict[str, Any], keys: set[str]) -> dict[str, Any]:
    run_policy = dict(job["spec"]["runPolicy"])
    run_policy["schedulingPolicy"] = {k: v for k, v in run_policy["schedulingPolicy"].items() if k not in keys}
    return dict(job, spec=dict(job["spec"], runPolicy=run_policy))


CLASSES = {"high": 1000, "low": 10}
GANG_CASES = [
    ("volcano", PYTORCH + "  workers: 3\n  resources: {cpu: 2, memory: 1.5Gi}\n"
                "  pytorch: {master: {resources: {cpu: 500m}}}\n", set()),
    ("volcano", PYTORCH + "  workers: 3\n  resources: {cpu: 2}\n  pytorch: {master: {resources: {cpu: 1}}}\n"
                "  scheduling: {minAvailable: 2}\n", {"minAvailable"}),
    ("volcano", PYTORCH + "  workers: 2\n  resources: {cpu: 2}\n  priorityClassName: low\n"
                "  pytorch: {master: {priorityClassName: high, resources: {cpu: 1}}}\n"
                "  scheduling: {minAvailable: 2, queue: research, priorityClass: high}\n",
     {"minAvailable", "queue", "priorityClass"}),
    ("volcano", PYTORCH + "  workers: 1\n  scheduling: {minResources: {cpu: 1500m, memory: 1024Mi}}\n",
     {"minResources"}),
    ("volcano", TENSORFLOW + "  workers: 2\n", set()),
    ("volcano", TENSORFLOW + "  workers: 2\n  resources: {gpu: 1}\n"
                "  tensorflow: {chief: {}, ps: {replicas: 2, resources: {cpu: 1}}, evaluator: {}}\n", set()),
    ("scheduler-plugins", TENSORFLOW + "  workers: 2\n  resources: {cpu: 2}\n"
                          "  tensorflow: {ps: {replicas: 2, resources: {memory: 1Gi}}, chief: {}}\n"
                          "  scheduling: {scheduleTimeoutSeconds: 10}\n", {"scheduleTimeoutSeconds"}),
    ("scheduler-plugins", PYTORCH + "  workers: 2\n", set()),
    ("scheduler-plugins", PYTORCH + "  workers: 4\n  resources: {gpu: 1}\n  scheduling: {minAvailable: 3}\n",
     {"minAvailable"}),
]


def _scheduling(gang_name: str, body: str) -> str:
    if "  scheduling: {" in body:
        return body.replace("  scheduling: {", f"  scheduling: {{gang: {gang_name}, ")
    return body + f"  scheduling: {{gang: {gang_name}}}\n"


@pytest.mark.parametrize("gang_name, body, given", GANG_CASES)
@pytest.mark.parametrize("with_cluster", [False, True], ids=["no-cluster", "cluster"])
def test_scheduling_policy_is_what_the_operator_computes(gang_name: str, body: str, given: set[str],
                                                         with_cluster: bool) -> None:
    from mpigen.operator import training_podgroup as tp
    from mpigen.operator.training_defaults import set_defaults

    classes = CLASSES if with_cluster else {}
    options = Options(priority_classes=CLASSES) if with_cluster else Options()
    (job,) = build(_scheduling(gang_name, body), options)
    policy = job["spec"]["runPolicy"]["schedulingPolicy"]
    group = tp.podgroup(set_defaults(job), gang_name, classes)
    assert policy == _policy_from_pod_group(group)  # exactly, formats included
    # Without what mpigen resolved (not what the user gave), the operator computes the same values.
    resolved = {"minResources", "queue"} - given
    stripped = tp.podgroup(set_defaults(_without(job, resolved)), gang_name, classes)
    assert _by_value(_policy_from_pod_group(stripped)) == _by_value(policy)
    for rtype, template in templates(job).items():
        if gang_name == "volcano":
            assert template["spec"]["schedulerName"] == "volcano"
            assert template["metadata"]["annotations"]["scheduling.k8s.io/group-name"] == "q"
            assert template["metadata"]["annotations"]["volcano.sh/task-spec"] == rtype.lower()
        else:
            assert template["spec"]["schedulerName"] == "scheduler-plugins-scheduler"
            assert template["metadata"]["labels"]["scheduling.x-k8s.io/pod-group"] == "q"
        for key in ("labels", "annotations"):
            names = list(template["metadata"].get(key, {}))
            assert names == sorted(names)


def test_volcano_queue_defaults_to_default_not_the_annotation() -> None:
    text = HEAD.replace("  labels: {team: a}\n", "  annotations: {scheduling.volcano.sh/queue-name: annotated}\n")
    result = compile_specs(load_text(text + PYTORCH + "  workers: 1\n  scheduling: {gang: volcano}\n", "q.yaml"),
                           "q.yaml", Options())
    (job,) = result.jobs[0].base
    assert job["spec"]["runPolicy"]["schedulingPolicy"]["queue"] == "default"


def test_volcano_training_minresources_empty_is_written() -> None:
    (job,) = build(PYTORCH + "  workers: 1\n  scheduling: {gang: volcano}\n")
    assert job["spec"]["runPolicy"]["schedulingPolicy"] == {"minAvailable": 2, "queue": "default", "minResources": {}}


def test_min_resources_order_warning_and_the_document_order_value() -> None:
    body = PYTORCH + ("  workers: 3\n  resources: {cpu: 2}\n  pytorch: {master: {resources: {cpu: 1}}}\n"
                      "  scheduling: {gang: volcano, minAvailable: 2}\n")
    result = compile_body(body)
    (warning,) = [d for d in result.diagnostics if d.code == "min-resources-order"]
    assert warning.severity is Severity.WARNING and warning.path == "spec.scheduling.minAvailable"
    (job,) = result.jobs[0].base
    assert job["spec"]["runPolicy"]["schedulingPolicy"]["minResources"] == {"cpu": "3"}  # Master, then a Worker
    # With the classes known and different, the order is fixed: no warning.
    ordered = body.replace("  workers: 3\n", "  workers: 3\n  priorityClassName: high\n").replace(
        "master: {", "master: {priorityClassName: low, ")
    result = compile_body(ordered, Options(priority_classes=CLASSES))
    assert not [d for d in result.diagnostics if d.code == "min-resources-order"]
    assert result.jobs[0].base[0]["spec"]["runPolicy"]["schedulingPolicy"]["minResources"] == {"cpu": "4"}
    # An explicit minResources: nothing to choose.
    explicit = body.replace("minAvailable: 2}", "minAvailable: 2, minResources: {cpu: 3}}")
    assert not [d for d in compile_body(explicit).diagnostics if d.code == "min-resources-order"]
    # The whole job in the gang: every order gives the same value.
    whole = body.replace(", minAvailable: 2", "")
    assert not [d for d in compile_body(whole).diagnostics if d.code == "min-resources-order"]


def test_a_gang_sum_beyond_a_quantity_is_a_warning() -> None:
    from mpigen.load.yaml_loader import load_text
    from mpigen.pipeline import Options, compile_specs

    text = ("apiVersion: mpigen.dev/v1alpha1\nkind: TrainingJob\nmetadata: {name: big}\nspec:\n  framework: mpi\n"
            "  image: i\n  command: [x]\n  workers: 2\n  resources: {memory: 4607Pi}\n  scheduling: {gang: volcano}\n")
    result = compile_specs(load_text(text, "big.yaml"), "big.yaml", Options())
    # validate's lint, on the built MPIJob, reads the capped value the API server stores
    assert [(d.code, d.severity.value) for d in result.diagnostics] == [("quantity-overflow", "warning"),
                                                                       ("min-resources-mismatch", "warning")]
    assert result.jobs  # a warning: the job is still built
