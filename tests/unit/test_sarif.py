"""``mpigen validate --format sarif``: a SARIF 2.1.0 log that the published schema accepts, whose
rules describe each code from the catalogues and whose results carry the diagnostics' places.

The schema is tests/schemas/sarif-2.1.0-rtm.5.json (``scripts/fetch_sarif_schema.py``, from the
npm registry)."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from mpigen.diagnostics import Diagnostic, Severity
from mpigen.validation.engine import Coverage
from mpigen.validation.sarif import sarif_log
from tests.golden.cases import ROOT, run

SCHEMA = json.loads((ROOT / "tests" / "schemas" / "sarif-2.1.0-rtm.5.json").read_text("utf-8"))
MIXED = "tests/cases/validate/mixed.yaml"


def valid(log: dict) -> dict:
    errors = sorted(jsonschema.Draft4Validator(SCHEMA).iter_errors(log), key=str)
    assert not errors, "\n".join(f"{list(e.absolute_path)}: {e.message}" for e in errors[:10])
    return log


def test_a_report_of_errors_and_warnings_is_valid_sarif() -> None:
    code, out, err = run(["validate", MIXED, "tests/cases/lint/host-network-dns", "--format", "sarif"])
    assert code == 1 and err == ""
    log = valid(json.loads(out))
    (sarif_run,) = log["runs"]
    rules = sarif_run["tool"]["driver"]["rules"]
    results = sarif_run["results"]
    assert results and {r["level"] for r in results} >= {"error", "warning"}
    for result in results:
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
        region = result["locations"][0]["physicalLocation"]["region"]
        assert region["startLine"] >= 1 and region.get("startColumn", 1) >= 1
    uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in results}
    assert MIXED in uris and all(not u.startswith("/") for u in uris)
    assert sorted(rule["id"] for rule in rules) == sorted({r["ruleId"] for r in results})


def test_rules_are_described_from_the_catalogues() -> None:
    diagnostics = [
        Diagnostic("a.yaml", 3, 5, "spec.template.spec.dnsPolicy", "host-network-dns", Severity.WARNING, "m"),
        Diagnostic("a.yaml", 4, 1, "spec.roles.launcher.image", "role-null", Severity.ERROR, "n"),
        Diagnostic("b.yaml", None, None, "", "duplicate-job", Severity.ERROR, "o"),
        Diagnostic("/abs/c d.yaml", 1, 1, "", "kueue-ignored", Severity.INFO, "p"),
    ]
    log = valid(json.loads(sarif_log(diagnostics, ["a.yaml", "b.yaml", "/abs/c d.yaml"], Coverage())))
    rules = {rule["id"]: rule for rule in log["runs"][0]["tool"]["driver"]["rules"]}
    lint = rules["host-network-dns"]  # a lint rule: its title, explanation and fix
    assert lint["shortDescription"]["text"] == "A hostNetwork pod keeps a DNS policy that cannot resolve the job's Services."
    assert lint["help"]["text"].startswith("Fix: set dnsPolicy: ClusterFirstWithHostNet")
    assert lint["defaultConfiguration"]["level"] == "warning"
    spec = rules["role-null"]  # another code: its row of docs/errors.md
    assert spec["shortDescription"]["text"].startswith("A role's image set to null")
    assert spec["help"]["markdown"].startswith("**Fix:** give the role an image")
    assert spec["defaultConfiguration"]["level"] == "error"
    results = log["runs"][0]["results"]
    assert results[2]["locations"][0]["physicalLocation"]["region"] == {"startLine": 1}  # a whole file's
    assert results[3]["level"] == "note"
    assert results[3]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "file:///abs/c%20d.yaml"
    assert results[0]["locations"][0]["logicalLocations"] == [
        {"fullyQualifiedName": "spec.template.spec.dnsPolicy", "kind": "member"}]


def test_a_missing_file_is_a_sarif_log_too(tmp_path: Path) -> None:
    code, out, _ = run(["validate", str(tmp_path / "nope.yaml"), "--format", "sarif"])
    assert code == 2
    [result] = valid(json.loads(out))["runs"][0]["results"]
    assert result["ruleId"] == "io-error"


@pytest.mark.parametrize("bad", [{"version": "2.1.0"}, {"version": "2.1.0", "runs": [{"results": []}]}])
def test_the_schema_refuses_what_is_not_sarif(bad: dict) -> None:
    """The schema check itself can fail."""
    assert list(jsonschema.Draft4Validator(SCHEMA).iter_errors(bad))


def test_every_codes_default_level_is_a_sarif_level() -> None:
    """The catalogue's severities ("info (error with --require-schema)", "error, warning") give a level."""
    from mpigen.diagnostics import CODES
    from mpigen.validation.sarif import _rule

    levels = {code: _rule(code)["defaultConfiguration"]["level"] for code in CODES}
    assert set(levels.values()) <= {"error", "warning", "note"}, levels
    assert levels["template-file"] == "note" and levels["no-schema"] == "note"
