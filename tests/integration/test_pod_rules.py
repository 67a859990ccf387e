"""``mpigen validate`` on jobs and Deployments whose pods the API server refuses (issue 12): each
problem is reported once, at its line, with the API server's words.

Cases are ``tests/cases/validate/pod-rules-*.yaml``; a line ending in ``# error: CODE: TEXT``
must carry an error of that code whose message contains TEXT, and no other line an error.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.golden.cases import ROOT, run

CASES = sorted((ROOT / "tests" / "cases" / "validate").glob("pod-rules-*.yaml"))
MARK = re.compile(r"#\s*error:\s*(?P<code>[a-z0-9-]+):\s*(?P<text>.+?)\s*$")


def marks(path: Path) -> dict[int, tuple[str, str]]:
    found = {}
    for number, line in enumerate(path.read_text("utf-8").splitlines(), 1):
        match = MARK.search(line)
        if match and not line.lstrip().startswith("#"):
            found[number] = (match["code"], match["text"])
    return found


def test_the_cases_cover_the_issue_and_every_kind() -> None:
    assert {p.stem for p in CASES} >= {"pod-rules-mpijob", "pod-rules-pytorchjob", "pod-rules-tfjob",
                                       "pod-rules-deployment"}
    issue = marks(ROOT / "tests" / "cases" / "validate" / "pod-rules-mpijob.yaml")
    assert sorted(code for code, _ in issue.values()) == ["pod-containers", "pod-ports", "pod-resources",
                                                          "pod-volumes"]


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_each_problem_is_reported_once_at_its_line(path: Path) -> None:
    expected = marks(path)
    assert expected, f"{path.name}: no '# error:' mark"
    code, out, err = run(["validate", str(path.relative_to(ROOT)), "--format", "json"])
    assert code == 1, out + err
    errors = [d for d in json.loads(out)["diagnostics"] if d["severity"] == "error"]
    by_line: dict[int, list[dict]] = {}
    for diagnostic in errors:
        by_line.setdefault(diagnostic["line"], []).append(diagnostic)
    assert sorted(by_line) == sorted(expected), "\n".join(f"{d['line']}: {d['code']} {d['message']}" for d in errors)
    for line, (mark_code, text) in expected.items():
        assert len(by_line[line]) == 1, by_line[line]
        diagnostic = by_line[line][0]
        assert diagnostic["code"] == mark_code and text in diagnostic["message"], diagnostic
        text_of_line = path.read_text("utf-8").splitlines()[line - 1]
        assert text_of_line[diagnostic["column"] - 1:].strip(), diagnostic  # the column is on the field


def test_a_field_the_schema_reports_missing_is_reported_once(tmp_path: Path) -> None:
    """The CRD's schema requires a container's and a mount's name: its missing-field is the one
    diagnostic, not also the pod rules' "Required value" for the same key."""
    source = (ROOT / "tests" / "cases" / "validate" / "pod-rules-mpijob.yaml").read_text("utf-8")
    broken = source.replace("          - name: worker  # error", "          - imagePullPolicy: Always  # error", 1)
    broken = broken.replace("            - name: dataset  # error", "            - readOnly: true  # error", 1)
    assert broken.count("imagePullPolicy: Always") == 1 and broken.count("readOnly: true") == 1
    path = tmp_path / "job.yaml"
    path.write_text(broken)
    code, out, err = run(["validate", str(path), "--format", "json"])
    errors = [(d["code"], d["path"]) for d in json.loads(out)["diagnostics"] if d["severity"] == "error"]
    worker = "spec.mpiReplicaSpecs.Worker.template.spec.containers"
    assert ("missing-field", f"{worker}[1]") in errors and ("missing-field", f"{worker}[0].volumeMounts[0]") in errors
    assert not [e for e in errors if e[1] in (f"{worker}[1].name", f"{worker}[0].volumeMounts[0].name")], errors
