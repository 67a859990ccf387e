"""The server-agreement corpus (tests/server_corpus.py: tests/cases/apiserver/, the golden objects
and their seeded mutations), without a cluster: the files parse and say what is broken and what
the API server answers, validate's verdict on every case is the one it states, the corpus covers
every code whose problem the API server refuses, and every documented gap of
tests/e2e/test_validate_server.py is pinned (validate's verdict on it is the one the gap states).
The end-to-end test asks the API server itself."""

from __future__ import annotations

import fnmatch
import re

import pytest
import yaml

from mpigen.lint.base import load_rules
from tests.e2e.test_validate_server import GAPS, MISSED, POD_PREFIX, STRICTER, gap
from tests.pod_corpus import cases as pod_cases
from tests.server_corpus import (CORPUS, ROOT, SEED, SERVER_VERDICTS, Case, cases, file_name, files, golden_objects,
                                 mutations, validate_errors)

CASES = cases()
FILES = files()
CODES = set(re.findall(r"^\| \[?`([a-z0-9-]+)`", (ROOT / "docs" / "errors.md").read_text("utf-8"), re.M))
# The codes whose problem the API server refuses too (each needs a file the API server refuses):
# the schema layer's, the admission checks the API server runs (training-operator's webhook), the
# rules that port the API server's validation, and those whose problem a webhook or the CRD refuses.
SERVER_CODES = {"schema", "unknown-field", "missing-field", "quantity", "yaml-syntax", "legacy-api-version",
                "training-job-invalid", "zero-replicas", "container-name", "hostname", "object-meta",
                "deployment-spec", "service-spec", "config-data", "priority-class-spec"}
SCHEMA_VIOLATIONS = ("type", "enum", "required", "unknown-field", "minimum", "maximum", "max-length", "pattern",
                     "quantity", "int32", "int64", "base64")


def refuses(case: Case) -> bool:
    return bool(validate_errors(case))


@pytest.mark.parametrize("case", FILES, ids=lambda c: c.name)
def test_a_file_says_what_is_broken_and_what_the_api_server_answers(case: Case) -> None:
    assert case.what and case.server in SERVER_VERDICTS, case
    assert bool(case.apiserver) == (case.server == "refuses"), "the refusal's text, for a refusal only"
    assert case.code is None or case.code in CODES, f"{case.code}: not a code of docs/errors.md"
    if not (case.code or "").startswith("yaml-"):  # the YAML cases are broken YAML on purpose
        documents = [d for d in yaml.safe_load_all(case.text) if d is not None]
        assert len(documents) == 1 and isinstance(documents[0], dict), "one manifest per file"
        assert "namespace" not in (documents[0].get("metadata") or {}), "the test chooses the namespace"


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_validate_gives_the_verdict_the_case_states(case: Case) -> None:
    found = validate_errors(case)
    if case.code is None:
        assert not found, "\n".join(d.format() for d in found)
    else:
        assert case.code in {d.code for d in found}, "\n".join(d.format() for d in found) or "no error"


def test_files_disagree_with_the_api_server_only_where_a_gap_is_documented() -> None:
    for case in FILES:
        if refuses(case) != (case.server == "refuses"):
            found = gap(case.name)
            assert found, f"{case.name}: validate and the API server disagree, and GAPS does not say why"
            assert found[1][0] == (MISSED if case.server == "refuses" else STRICTER), case.name


@pytest.mark.parametrize("pattern", sorted(GAPS))
def test_every_documented_gap_is_pinned(pattern: str) -> None:
    """validate's verdict on every case a gap covers is the one the gap states (a fix that closes
    the gap fails this test: then remove the gap), and the API server's, for a file, as well."""
    way, reason = GAPS[pattern]
    assert way in (STRICTER, MISSED) and reason
    if pattern.startswith(POD_PREFIX):
        names = {f"{POD_PREFIX}{c.path.stem}" for c in pod_cases()}
        assert fnmatch.filter(names, pattern), f"{pattern}: no pod case"
        return
    covered = [c for c in CASES if fnmatch.fnmatchcase(c.name, pattern)]
    assert covered, f"{pattern}: no case"
    for case in covered:
        assert refuses(case) == (way == STRICTER), f"{case.name}: validate's verdict is not the gap's ({way})"
        if case.server is not None:
            assert case.server == ("accepts" if way == STRICTER else "refuses"), case.name


def test_the_corpus_covers_every_code_whose_problem_the_api_server_refuses() -> None:
    refused = {c.code for c in FILES if c.server == "refuses" and c.code}
    pod_codes = {rule.code for rule in load_rules() if rule.code.startswith("pod-")}
    assert len(pod_codes) >= 9
    assert SERVER_CODES | pod_codes <= refused, sorted(SERVER_CODES | pod_codes - refused)
    for violation in SCHEMA_VIOLATIONS:
        assert any(c.name.startswith(f"schema-{violation}") for c in FILES), f"no schema-{violation}-* file"
    for kind in ("MPIJob", "PyTorchJob", "TFJob", "Deployment", "Service", "ConfigMap", "Secret", "PriorityClass",
                 "PodGroup", "Queue"):
        assert any(f"kind: {kind}\n" in c.text and c.code is None and c.server == "accepts" for c in FILES), \
            f"no valid {kind} (a control)"
    assert len(FILES) >= 100


def test_the_mutations_are_seeded_and_cover_every_golden_object() -> None:
    first, again, other = mutations(SEED), mutations(SEED), mutations(SEED + 1)
    assert [(c.name, c.text) for c in first] == [(c.name, c.text) for c in again]
    assert [c.name for c in first] != [c.name for c in other]
    names = [c.name for c in first]
    assert len(set(names)) == len(names)
    for name, _ in golden_objects():
        assert sum(n.startswith(f"{name}/") for n in names) >= 4, name
    ops = {n.split("#", 1)[1].split("/", 1)[1].split("@")[0] for n in names}
    assert ops == {"drop-required", "wrong-type", "bad-name", "invalid-enum", "negative-replicas", "unknown-field",
                   "bad-label", "bad-quantity", "int32-overflow"}


def test_every_case_has_its_own_file_name() -> None:
    names = [case.path.name if case.path else file_name(case) for case in CASES]
    assert len(set(names)) == len(names)
    assert all(path.suffix == ".yaml" for path in CORPUS.iterdir() if path.name != "README.md")
