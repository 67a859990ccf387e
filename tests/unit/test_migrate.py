"""The migrations as pure functions: each old field's fate, the old operators' rules ported."""

from __future__ import annotations

import copy

import pytest

from mpigen.diagnostics import Severity
from mpigen.load.yaml_loader import load_text
from mpigen.migrate import LegacyFlags, migrate_documents, migrate_object
from mpigen.migrate import mpi_v1alpha1

TEMPLATE = {"spec": {"containers": [{"name": "main", "image": "img", "command": ["mpirun", "python", "x.py"]}]}}


def v1alpha1(**spec) -> dict:
    return {"apiVersion": "kubeflow.org/v1alpha1", "kind": "MPIJob", "metadata": {"name": "j"},
            "spec": {**spec, "template": copy.deepcopy(TEMPLATE)}}


def codes(changes) -> list[str]:
    return [c.code for c in changes]


# allocateProcessingUnits (mpi-operator v0.2.3 pkg/controllers/v1alpha1/mpi_job_controller.go)
@pytest.mark.parametrize("spec, flags, want", [
    ({"gpus": 16}, LegacyFlags(gpus_per_node=8), (2, 8)),
    ({"gpus": 4}, LegacyFlags(gpus_per_node=8), (1, 4)),  # fewer than a node: one worker with them all
    ({"gpus": 16, "gpusPerNode": 4}, LegacyFlags(gpus_per_node=8), (4, 4)),  # the spec beats the flag
    ({"gpus": 16}, LegacyFlags(), (16, 1)),  # the flag's default
    ({"processingUnits": 16, "processingUnitsPerNode": 8}, LegacyFlags(gpus_per_node=2), (2, 8)),
    ({"replicas": 3}, LegacyFlags(), (3, 0)),
    ({}, LegacyFlags(), (0, 0)),
])
def test_allocate_ports_the_old_rule(spec, flags, want) -> None:
    assert mpi_v1alpha1.allocate(spec, flags, "nvidia.com/gpu", []) == want


@pytest.mark.parametrize("spec", [{"gpus": 12, "gpusPerNode": 8}, {"gpus": 4, "processingUnits": 4},
                                  {"gpus": 8, "gpusPerNode": 0}, {"gpus": -1}])
def test_allocate_refuses_what_the_old_operator_refused(spec) -> None:
    changes: list = []
    assert mpi_v1alpha1.allocate(spec, LegacyFlags(), "nvidia.com/gpu", changes) is None
    assert codes(changes) == ["not-migratable"]


def test_assumed_gpus_per_node_is_a_warning_that_names_the_option() -> None:
    new, changes, done = migrate_object(v1alpha1(gpus=16))
    assert done and new["spec"]["mpiReplicaSpecs"]["Worker"]["replicas"] == 16
    warning = next(c for c in changes if c.path == ("spec", "gpus") and c.severity is Severity.WARNING)
    assert "--gpus-per-node" in warning.message
    _, changes, _ = migrate_object(v1alpha1(gpus=16), LegacyFlags(gpus_per_node=8))
    assert not any("--gpus-per-node" in c.message for c in changes)


def test_v1alpha1_splits_the_template_into_launcher_and_worker() -> None:
    old = v1alpha1(replicas=2, backoffLimit=3, activeDeadlineSeconds=60)
    old["spec"]["template"]["spec"]["containers"][0]["resources"] = {"limits": {"nvidia.com/gpu": 2}}
    new, changes, done = migrate_object(old)
    spec = new["spec"]
    assert spec["slotsPerWorker"] == 2  # units per worker (newConfigMap)
    assert spec["runPolicy"] == {"cleanPodPolicy": "All", "activeDeadlineSeconds": 60, "backoffLimit": 3}
    launcher = spec["mpiReplicaSpecs"]["Launcher"]
    assert launcher["restartPolicy"] == "OnFailure" and "resources" not in launcher["template"]["spec"]["containers"][0]
    worker = spec["mpiReplicaSpecs"]["Worker"]["template"]["spec"]["containers"][0]
    assert "command" not in worker and worker["resources"] == {"limits": {"nvidia.com/gpu": 2}}
    assert old["spec"]["template"]["spec"]["containers"][0]["command"], "the input is not modified"


def test_unsupported_processing_resource_type_falls_back_to_gpu() -> None:
    new, changes, _ = migrate_object(v1alpha1(processingUnits=2, processingResourceType="amd.com/gpu"))
    limits = new["spec"]["mpiReplicaSpecs"]["Worker"]["template"]["spec"]["containers"][0]["resources"]["limits"]
    assert limits == {"nvidia.com/gpu": 1}
    assert any(c.code == "lossy-migration" and c.path == ("spec", "processingResourceType") for c in changes)


def v1alpha2(**spec) -> dict:
    return {"apiVersion": "kubeflow.org/v1alpha2", "kind": "MPIJob", "metadata": {"name": "j"},
            "spec": {"mpiReplicaSpecs": {"Launcher": {"template": copy.deepcopy(TEMPLATE)},
                                         "Worker": {"replicas": 1, "template": copy.deepcopy(TEMPLATE)}}, **spec}}


@pytest.mark.parametrize("value, want", [("IntelMPI", "Intel"), ("MPICH", "MPICH"), ("OpenMPI", "OpenMPI"),
                                         ("MVAPICH", "OpenMPI")])
def test_mpi_distribution(value, want) -> None:
    new, changes, _ = migrate_object(v1alpha2(mpiDistribution=value))
    assert new["spec"]["mpiImplementation"] == want
    lossy = [c for c in changes if c.code == "lossy-migration" and c.path == ("spec", "mpiDistribution")]
    assert bool(lossy) == (value == "MVAPICH")


def test_v1alpha2_run_policy_precedence() -> None:
    new, changes, _ = migrate_object(v1alpha2(backoffLimit=1, cleanPodPolicy="All",
                                              runPolicy={"backoffLimit": 2, "cleanPodPolicy": "Running"}))
    assert new["spec"]["runPolicy"] == {"cleanPodPolicy": "All", "backoffLimit": 2}


def test_v1_run_policy_precedence_is_training_operators() -> None:
    old = v1alpha2(cleanPodPolicy="All", runPolicy={"cleanPodPolicy": "Running"})
    old["apiVersion"] = "kubeflow.org/v1"
    new, changes, _ = migrate_object(old)
    assert new["spec"]["runPolicy"] == {"cleanPodPolicy": "Running"}
    assert any(c.severity is Severity.WARNING and c.path == ("spec", "cleanPodPolicy") for c in changes)


def test_worker_sleep_is_removed_other_commands_are_kept() -> None:
    old = v1alpha2()
    old["spec"]["mpiReplicaSpecs"]["Worker"]["template"]["spec"]["containers"][0]["command"] = ["/bin/sleep", "365d"]
    new, _, _ = migrate_object(old)
    assert "command" not in new["spec"]["mpiReplicaSpecs"]["Worker"]["template"]["spec"]["containers"][0]
    new, _, _ = migrate_object(v1alpha2())
    assert new["spec"]["mpiReplicaSpecs"]["Worker"]["template"]["spec"]["containers"][0]["command"]


def test_training_jobs() -> None:
    tf = {"apiVersion": "kubeflow.org/v1beta2", "kind": "TFJob", "metadata": {"name": "t"},
          "spec": {"backoffLimit": 2, "tfReplicaSpecs": {"Worker": {"replicas": 1, "template": TEMPLATE}}}}
    new, changes, done = migrate_object(tf)
    assert new["spec"] == {"runPolicy": {"cleanPodPolicy": "Running", "backoffLimit": 2},
                           "tfReplicaSpecs": {"Worker": {"replicas": 1, "template": TEMPLATE}}}
    torch = {"apiVersion": "kubeflow.org/v1beta1", "kind": "PyTorchJob", "metadata": {"name": "t"},
             "spec": {"backoffLimit": 2, "pytorchReplicaSpecs": {"Master": {"template": TEMPLATE}}}}
    new, changes, done = migrate_object(torch)
    # v1beta1 had no backoffLimit: the old operator ignored it, and PyTorchJob's default was None already
    assert new["spec"] == {"pytorchReplicaSpecs": {"Master": {"template": TEMPLATE}}}
    assert [c for c in changes if c.code == "dropped-field"][0].severity is Severity.WARNING


def test_current_and_other_objects_pass_through() -> None:
    for obj in ({"apiVersion": "kubeflow.org/v2beta1", "kind": "MPIJob"}, {"apiVersion": "v1", "kind": "ConfigMap"},
                ["not", "an", "object"]):
        new, changes, done = migrate_object(obj)
        assert new is obj and not done and codes(changes) == ["nothing-to-migrate"]


def test_documents_keep_their_order_and_changes_their_lines() -> None:
    text = ("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n---\n"
            "apiVersion: kubeflow.org/v1beta1\nkind: TFJob\nmetadata: {name: t}\nspec:\n"
            "  ttlSecondsAfterFinished: 5\n  tfReplicaSpecs:\n    Worker:\n      template:\n        spec:\n"
            "          containers: [{name: tensorflow, image: tf}]\n")
    result = migrate_documents(load_text(text, "f.yaml"), "f.yaml", None)
    assert [o["kind"] for o in result.objects] == ["ConfigMap", "TFJob"]
    assert result.text.count("---\n") == 2
    moved = next(d for d in result.diagnostics if d.path == "spec.ttlSecondsAfterFinished")
    assert (moved.line, moved.column, moved.code) == (9, 3, "migrated-field")
    assert not [d for d in result.diagnostics if d.severity is Severity.ERROR]


def test_a_result_the_operator_rejects_is_an_error_at_its_output_line() -> None:
    old = v1alpha2()
    old["spec"]["mpiReplicaSpecs"]["Worker"]["replicas"] = 0
    from mpigen.emit.yaml_emit import dump

    result = migrate_documents(load_text(dump(old), "f.yaml"), "f.yaml", "out.yaml")
    errors = [d for d in result.diagnostics if d.severity is Severity.ERROR]
    assert [(d.file, d.code) for d in errors] == [("out.yaml", "mpijob-invalid")]
    assert result.text.splitlines()[errors[0].line - 1].strip() == "replicas: 0"


def test_a_result_written_to_stdout_is_reported_at_the_input() -> None:
    """stdout is no file to open at a line: the error goes to the same field of the input document
    it came from (``<stdin>`` when the input was read from there)."""
    from mpigen.emit.yaml_emit import dump_all

    old = v1alpha2()
    old["spec"]["mpiReplicaSpecs"]["Worker"]["replicas"] = 0
    text = dump_all([{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}}, old])
    result = migrate_documents(load_text(text, "<stdin>"), "<stdin>", None)
    errors = [d for d in result.diagnostics if d.severity is Severity.ERROR]
    assert [(d.file, d.code, d.path) for d in errors] == [
        ("<stdin>", "mpijob-invalid", "spec.mpiReplicaSpecs.Worker.replicas")]
    assert text.splitlines()[errors[0].line - 1].strip() == "replicas: 0"  # the input's line
