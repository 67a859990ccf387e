"""`mpigen validate` says what it did not check: objects checked and skipped, with their kinds, in
every format; `--strict` does not fail on a skip, `--require-schema` does."""

from __future__ import annotations

import json
import os
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from mpigen.main import main
from mpigen.validate import Coverage, ValidateOptions, validate_bytes, validate_files

ROOT = Path(__file__).resolve().parents[2]

SKIPPED = """\
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent}
---
apiVersion: v1
kind: ReplicationController
metadata: {name: rc}
---
just: data
---
kind: Widget
---
apiVersion: v1
kind: ConfigMap
metadata: {name: cm}
data: {a: b}
---
---
apiVersion: v1
kind: List
items:
- {apiVersion: apps/v1, kind: DaemonSet, metadata: {name: d2}}
- {apiVersion: v1, kind: Secret, metadata: {name: s}}
"""
SKIPPED_KINDS = {"DaemonSet": 2, "ReplicationController": 1, "Widget": 1, "no kind": 1}
SUMMARY = ("1 file checked: 0 error(s), 0 warning(s); 2 object(s) checked, "
           "5 skipped (DaemonSet: 2, ReplicationController: 1, Widget: 1, no kind: 1)")


def _coverage(text: str, options: ValidateOptions | None = None) -> Coverage:
    coverage = Coverage()
    validate_bytes(text.encode(), "f.yaml", options or ValidateOptions(), coverage=coverage)
    return coverage


def test_objects_are_counted_checked_or_skipped_by_kind() -> None:
    coverage = _coverage(SKIPPED)
    assert (coverage.checked, dict(coverage.skipped)) == (2, SKIPPED_KINDS)  # the empty document is no object


def test_specs_lint_only_kinds_and_switched_off_notes_count_as_before() -> None:
    spec = (ROOT / "specs/pytorch-ddp.yaml").read_text()
    legacy = "apiVersion: kubeflow.org/v1alpha2\nkind: MPIJob\nmetadata: {name: old}\nspec: {}\n"  # lint rules only
    assert _coverage(f"{spec}---\n{legacy}") == Coverage(checked=2)
    quiet = ValidateOptions(disabled=frozenset({"no-schema", "not-an-object"}))
    assert dict(_coverage(SKIPPED, quiet).skipped) == SKIPPED_KINDS


def test_workers_count_what_one_process_counts(monkeypatch, tmp_path: Path) -> None:
    from mpigen.validate import parallel

    monkeypatch.setattr(parallel, "MIN_WORK_PER_PROCESS", 1e-9)  # every core, whatever the work
    files = {f"f{i}.yaml": SKIPPED.encode() for i in range(6)}
    alone, together, one_file = Coverage(), Coverage(), Coverage()
    validate_files(files, ValidateOptions(), workers=1, coverage=alone)
    validate_files(files, ValidateOptions(), workers=2, coverage=together)
    validate_files({"big.yaml": ("---\n".join([SKIPPED] * 6)).encode()}, ValidateOptions(), workers=2,
                   coverage=one_file)
    assert alone == together == one_file == Coverage(12, {k: 6 * n for k, n in SKIPPED_KINDS.items()})


def _validate(args: list[str], path: Path, capsys) -> tuple[int, str, str]:
    code = main(["validate", *args, str(path)])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def skipped(tmp_path: Path) -> Path:
    path = tmp_path / "skipped.yaml"
    path.write_text(SKIPPED)
    return path


@pytest.mark.parametrize("args", [[], ["--strict"], ["--format", "github"]])
def test_text_and_github_end_with_the_counts_and_a_skip_does_not_fail(args: list[str], skipped: Path,
                                                                        capsys) -> None:
    code, out, err = _validate(args, skipped, capsys)
    assert code == 0 and out == ""  # notes are shown with -v only
    assert err.splitlines()[-1].replace(str(skipped), "f") == SUMMARY


def test_verbose_lists_each_skipped_object(skipped: Path, capsys) -> None:
    _, out, _ = _validate(["-v"], skipped, capsys)
    notes = [line.split(": ", 1)[1] for line in out.splitlines()]
    assert sorted(note.split()[1] for note in notes) == ["no-schema"] * 3 + ["not-an-object"] * 2
    assert all(note.startswith("info ") for note in notes)


def test_require_schema_makes_every_skip_an_error(skipped: Path, capsys) -> None:
    code, out, err = _validate(["--require-schema"], skipped, capsys)
    assert code == 1
    assert len([line for line in out.splitlines() if " error no-schema " in line or " error not-an-object " in line]) == 5
    assert err.splitlines()[-1].startswith("1 file checked: 5 error(s), 0 warning(s); 2 object(s) checked, 5 skipped")


def test_require_schema_fails_even_when_the_notes_are_switched_off(skipped: Path, capsys) -> None:
    code, out, _ = _validate(["--require-schema", "--disable", "no-schema", "--disable", "not-an-object"], skipped,
                             capsys)
    assert (code, out) == (1, "")


def test_require_schema_passes_when_everything_is_checked(capsys) -> None:
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        code, _, err = _validate(["--require-schema"], Path("specs"), capsys)
    finally:
        os.chdir(cwd)
    assert code == 0, err
    assert err.splitlines()[-1].endswith(" object(s) checked, 0 skipped")


def test_json_counts_objects(skipped: Path, capsys) -> None:
    code, out, err = _validate(["--format", "json"], skipped, capsys)
    assert (code, err) == (0, "")
    assert json.loads(out)["objects"] == {"checked": 2, "skipped": SKIPPED_KINDS}


def test_junit_counts_objects(skipped: Path, capsys) -> None:
    code, out, err = _validate(["--format", "junit"], skipped, capsys)
    assert (code, err) == (0, "")
    properties = {p.get("name"): p.get("value") for p in ET.fromstring(out).iter("property")}
    assert properties == {"objects-checked": "2", "objects-skipped": "5",
                          "objects-skipped-kinds": "DaemonSet: 2, ReplicationController: 1, Widget: 1, no kind: 1"}
