"""mpigen build runs the API server's Pod rules on what it builds: a spec value the schema lets
through but a Pod may not hold fails the build (found by tests/fuzz: build wrote pods the API
server refuses), at the spec field the value came from, naming the field of the built object. The other rules that port the
API server's validation (object metadata, Service, Deployment...) run the same way."""

from __future__ import annotations

import pytest

from mpigen.diagnostics import Severity
from mpigen.load.yaml_loader import load_text
from mpigen.pipeline import Options, compile_specs

HEAD = ("apiVersion: mpigen.dev/v1alpha1\nkind: TrainingJob\nmetadata: {name: demo}\nspec:\n"
        "  framework: mpi\n  image: horovod/horovod:0.28.1\n  command: [python, train.py]\n  workers: 2\n")


@pytest.mark.parametrize("extra,code,words,path,column", [
    ('  serviceAccountName: " "\n', "pod-spec", "template.spec.serviceAccountName", "spec.serviceAccountName", 23),
    ("  tolerations: [{effect: NoSchedule}]\n", "pod-scheduling", "operator must be Exists", "spec.tolerations[0]",
     17),
    ("  nodeSelector: {team: ML research}\n", "pod-scheduling", "template.spec.nodeSelector.team",
     "spec.nodeSelector.team", 24),
])
def test_build_refuses_pods_the_api_server_refuses(extra: str, code: str, words: str, path: str, column: int) -> None:
    result = compile_specs(load_text(HEAD + extra, "demo.yaml"), "demo.yaml", Options())
    errors = [d for d in result.diagnostics if d.severity is Severity.ERROR]
    assert not result.jobs
    # One error, for both pod templates, at the spec's value.
    (error,) = errors
    assert (error.code, error.path, error.line, error.column) == (code, path, 9, column), error.format()
    assert words in error.message and "Launcher" in error.message and "Worker" in error.message, error.message


def test_a_valid_spec_builds_without_pod_findings() -> None:
    result = compile_specs(load_text(HEAD, "demo.yaml"), "demo.yaml", Options())
    assert result.jobs and not [d for d in result.diagnostics if d.code.startswith("pod-")]


def test_build_refuses_objects_the_api_server_refuses() -> None:
    """Annotations of more than 256 KiB: the spec's schema has no limit, the API server has."""
    spec = HEAD.replace("metadata: {name: demo}", "metadata: {name: demo, annotations: {notes: " + "x" * 262144 + "}}")
    result = compile_specs(load_text(spec, "demo.yaml"), "demo.yaml", Options())
    errors = [d for d in result.diagnostics if d.severity is Severity.ERROR]
    assert not result.jobs
    assert {d.code for d in errors} == {"object-meta"}
    assert all("the built MPIJob demo at metadata.annotations would be refused by the API server: Too long" in d.message for d in errors)
