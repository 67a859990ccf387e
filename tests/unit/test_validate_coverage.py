"""`mpigen validate` says what it did not check: objects checked and skipped, with their kinds, in
every format; `--strict` does not fail on a skip, `--require-schema` does."""

from __future__ import annotations

import json
import os
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from mpigen.main import main
from mpigen.validation import Coverage, ValidateOptions, validate_bytes, validate_files

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
    from mpigen.validation import parallel

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


OTHER_GROUPS = """\
apiVersion: scheduling.k8s.io/v1alpha9
kind: PodGroup
metadata: {name: a}
spec: {minMember: 2}
---
apiVersion: example.com/v1
kind: Service
metadata: {name: a}
spec: {ports: [{port: 99999999}]}
---
apiVersion: scheduling.k8s.io/v1alpha1
kind: PodGroup
metadata: {name: a}
---
apiVersion: scheduling.k8s.io/v1beta1
kind: PodGroup
metadata: {name: a, namespace: research}
spec: {schedulingPolicy: {gang: {minCount: 2}}}
"""


def test_a_kind_is_checked_only_in_its_own_group_and_version(tmp_path: Path, capsys) -> None:
    """A PodGroup of a version mpigen has no schema for is not Volcano's PodGroup, nor is a CRD's
    Service the core one: skipped, so --require-schema fails (scheduling.k8s.io/v1alpha1 has no
    PodGroup: Kubernetes 1.35 serves its Workload only). scheduling.k8s.io/v1beta1's is checked."""
    coverage = _coverage(OTHER_GROUPS)
    assert (coverage.checked, dict(coverage.skipped)) == (1, {"PodGroup": 2, "Service": 1})
    path = tmp_path / "groups.yaml"
    path.write_text(OTHER_GROUPS)
    code, out, _ = _validate(["--require-schema"], path, capsys)
    assert code == 1
    assert [line.split(": ", 1)[1] for line in out.splitlines()] == [
        "error no-schema mpigen has no schema for scheduling.k8s.io/v1alpha9 PodGroup: not checked",
        "error no-schema mpigen has no schema for example.com/v1 Service: not checked",
        "error no-schema mpigen has no schema for scheduling.k8s.io/v1alpha1 PodGroup: not checked"]


GANG_OBJECTS = ROOT / "tests" / "cases" / "schemas" / "valid" / "kubernetes-gang-scheduling.yaml"


def test_kubernetes_own_gang_objects_are_checked_in_every_version_1_35_to_1_37(capsys) -> None:
    """scheduling.k8s.io Workload (v1alpha1, v1alpha2, v1alpha3, v1beta1) and PodGroup (v1alpha2 on)."""
    coverage = _coverage(GANG_OBJECTS.read_text())
    assert (coverage.checked, dict(coverage.skipped)) == (7, {})
    code, out, err = _validate(["--require-schema"], GANG_OBJECTS, capsys)
    assert (code, out) == (0, ""), out + err


def test_a_recursive_definition_is_checked_at_any_depth() -> None:
    """The int32 of a composite template three levels down, inside the schema's one recursive
    definition (the decoder's format check follows it), and its unknown field."""
    text = """\
apiVersion: scheduling.k8s.io/v1beta1
kind: Workload
metadata: {name: w, namespace: research}
spec:
  compositePodGroupTemplates:
  - name: a
    schedulingPolicy: {gang: {minGroupCount: 1}}
    compositePodGroupTemplates:
    - name: b
      schedulingPolicy: {gang: {minGroupCount: 1}}
      compositePodGroupTemplates:
      - name: c
        priority: 3000000000
        bogus: 1
        schedulingPolicy: {gang: {minGroupCount: 1}}
        podGroupTemplates: [{name: d, schedulingPolicy: {gang: {minCount: 1}}}]
"""
    found, _ = validate_bytes(text.encode(), "w.yaml", ValidateOptions())
    where = "spec.compositePodGroupTemplates[0].compositePodGroupTemplates[0].compositePodGroupTemplates[0]"
    assert sorted((d.code, d.path) for d in found) == [("schema", where + ".priority"),
                                                       ("unknown-field", where + ".bogus")]
