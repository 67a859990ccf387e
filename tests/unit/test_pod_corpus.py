"""The pod-rules corpus (tests/cases/pod_rules/, see tests/pod_corpus.py): ``mpigen validate``
reports each Pod's one problem in the job carrying the same template, with the rule's code, at the
field, in the API server's words, and nothing else as an error."""

from __future__ import annotations

import pytest

from mpigen.lint.base import load_rules
from tests.pod_corpus import Case, cases, errors, expected_path, summary, template

CASES = cases()


def test_the_corpus_covers_every_pod_rule() -> None:
    pod_codes = {rule.code for rule in load_rules() if rule.code.startswith("pod-")}
    assert len(pod_codes) >= 9
    assert {case.header["code"] for case in CASES} == pod_codes
    assert len(CASES) >= 150


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.path.stem)
def test_the_pod_and_the_job_carry_one_template(case: Case) -> None:
    assert {"what", "code", "message", "path", "go"} <= set(case.header), case.header
    pod = case.pod
    assert (pod["apiVersion"], pod["kind"]) == ("v1", "Pod")
    assert pod["metadata"]["name"] == case.path.stem and "namespace" not in pod["metadata"]
    assert case.job["metadata"]["name"] == case.path.stem
    _, job_template = template(case.job)
    assert job_template.get("metadata", {}) == {k: v for k, v in pod["metadata"].items() if k != "name"}
    if "operator" in case.header:  # the Pod holds what mpi-operator adds to the template, too
        assert case.job["kind"] == "MPIJob" and job_template["spec"] != pod["spec"]
    else:
        assert job_template["spec"] == pod["spec"]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.path.stem)
def test_validate_reports_the_problem_at_its_field(case: Case) -> None:
    found = errors(case)
    assert found, f"{case.path.name}: no error"
    assert {(d.code, d.path) for d in found} == {(case.header["code"], expected_path(case))}, \
        "\n".join(d.format() for d in found)
    assert any(case.header["message"] in d.message for d in found), "\n".join(d.message for d in found)


def test_validate_catches_every_pod_error_of_the_corpus() -> None:
    line = summary(CASES)
    assert line == f"validate catches {len(CASES)}/{len(CASES)} pod errors the API server refuses at pod creation", line
