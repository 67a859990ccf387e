"""Spec diagnostics through the whole check stage: each problem is reported once, with the most
helpful message, and a misspelt choice gets the closest allowed one (issue 14, item 6)."""

from __future__ import annotations

import pytest

from mpigen.load.yaml_loader import load_text
from mpigen.pipeline import Options, compile_specs

SPEC = """apiVersion: mpigen.dev/v1alpha1
kind: TrainingJob
metadata:
  name: {name}
spec:
  framework: mpi
  image: horovod/horovod:0.28.1
  command: [python, train.py]
  workers: 2
{extra}"""


def errors(name: str = "demo", extra: str = "") -> list[tuple[str, str, str]]:
    text = SPEC.format(name=name, extra=extra)
    result = compile_specs(load_text(text, "spec.yaml"), "spec.yaml", Options())
    return [(d.path, d.code, d.message) for d in result.diagnostics if d.severity.value == "error"]


def test_gpu_two_is_one_quantity_error():
    [(path, code, message)] = errors(extra="  resources: {gpu: two}\n")
    assert (path, code) == ("spec.resources.gpu", "quantity")
    assert message.startswith("'two' is not a Kubernetes quantity") and "whole number of GPUs" in message


def test_negative_gpu_is_one_quantity_error():
    assert [(p, c) for p, c, _ in errors(extra="  resources: {gpu: -1}\n")] == [("spec.resources.gpu", "quantity")]


def test_bad_name_is_one_hostname_error():
    [(path, code, message)] = errors(name="Bad_Name")
    assert (path, code) == ("metadata.name", "hostname")
    assert "'Bad_Name-worker-0'" in message and "lowercase letters" in message and "rename the job" in message
    assert "shorter" not in message  # the length is fine


def test_bad_name_is_one_error_whatever_the_environments():
    extra = "  environments:\n    dev: {workers: 1}\n    prod: {workers: 16}\n"
    assert [(p, c) for p, c, _ in errors(name="Bad_Name", extra=extra)] == [("metadata.name", "hostname")]


def test_a_long_name_still_says_how_long():
    [(_, code, message)] = errors(name="a" * 60)
    assert code == "hostname" and "69 characters long (at most 63)" in message and "choose a shorter name" in message


def test_a_gpu_count_the_quantity_check_accepts_keeps_the_schema_error():
    # 1.5 is a quantity, but not a whole number of GPUs: only the schema says so, and it is kept
    assert [(p, c) for p, c, _ in errors(extra="  resources: {gpu: 1.5}\n")] == [("spec.resources.gpu", "schema")]


@pytest.mark.parametrize("extra, path, close", [
    ("  scheduling: {gang: volcan}\n", "spec.scheduling.gang", "volcano"),
    ("  mpi: {implementation: openmpi}\n", "spec.mpi.implementation", "OpenMPI"),
    ("  mpi: {launcherCreationPolicy: AtStart}\n", "spec.mpi.launcherCreationPolicy", "AtStartup"),
    ("  runPolicy: {cleanPodPolicy: running}\n", "spec.runPolicy.cleanPodPolicy", "Running"),
    ("  imagePullPolicy: IfNotPresnt\n", "spec.imagePullPolicy", "IfNotPresent"),
    ("  environments:\n    prod: {scheduling: {gang: Volcano}}\n", "spec.environments.prod.scheduling.gang", "volcano"),
])
def test_a_misspelt_choice_gets_the_close_match(extra, path, close):
    [(where, code, message)] = errors(extra=extra)
    assert (where, code) == (path, "schema")
    assert f"(did you mean {close}?); choose one of: " in message


def test_a_misspelt_framework_gets_the_close_match_and_nothing_else():
    text = SPEC.format(name="demo", extra="").replace("framework: mpi", "framework: pytorh")
    result = compile_specs(load_text(text + "  mpi: {implementation: Intel}\n", "spec.yaml"), "spec.yaml", Options())
    [diagnostic] = [d for d in result.diagnostics if d.severity.value == "error"]
    assert diagnostic.code == "schema" and "(did you mean pytorch?)" in diagnostic.message


def test_a_choice_nothing_is_close_to_gets_no_guess():
    [(_, code, message)] = errors(extra="  scheduling: {gang: slurm}\n")
    assert code == "schema" and "did you mean" not in message and "choose one of: volcano" in message
