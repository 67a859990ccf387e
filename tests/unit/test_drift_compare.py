"""mpigen.drift.compare: drift between the trees on disk and what the specs compile to."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
import yaml

from mpigen.drift import compare
from mpigen.drift.compare import (CHANGED, CONFLICT, EXTRA, FORMATTING, MISSING, NOT_A_FOLDER, OWNERSHIP,
                                  UNPARSABLE, FieldChange, check_jobs, check_tree, field_changes, orphan_drift,
                                  orphan_trees)
from mpigen.emit.writer import OWNED_LIST, write_tree
from mpigen.load.yaml_loader import load_text
from mpigen.pipeline import CompiledJob, Options, compile_specs
from mpigen.render.kustomize import kustomize_files

SPEC = """\
apiVersion: mpigen.dev/v1alpha1
kind: TrainingJob
metadata:
  name: demo
spec:
  framework: mpi
  image: example/train:1
  command: [python, train.py]
  workers: {workers}
  resources: {{gpu: 1}}
  environments:
{environments}
"""
PROD = "    prod: {workers: 16}"


def compiled(workers: int = 2, environments: str = PROD) -> CompiledJob:
    text = SPEC.format(workers=workers, environments=environments or "    {}")
    result = compile_specs(load_text(text, "demo.yaml"), "demo.yaml", Options())
    assert result.ok, [d.format() for d in result.diagnostics]
    (job,) = result.jobs
    return job


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """A tree written from the spec with 2 workers and a prod environment."""
    write_tree(tmp_path, "demo", kustomize_files(compiled()))
    return tmp_path


def drift_of(root: Path, job: CompiledJob | None = None) -> dict[str, compare.FileDrift]:
    (result,) = check_jobs([job or compiled()], root)
    assert result.job == "demo" and result.tree == root / "demo"
    return {d.path: d for d in result.drift}


def tree_bytes(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_in_step(root: Path) -> None:
    (result,) = check_jobs([compiled()], root)
    assert result.in_step and result.fixable
    assert result.drift == []
    assert result.files == kustomize_files(compiled())  # what --fix would write
    assert result.source == "demo.yaml"


def test_changed_field_is_reported_with_its_path(root: Path) -> None:
    drift = drift_of(root, compiled(workers=3))
    base = drift["base/mpijob.yaml"]
    assert base.kind == CHANGED
    lines = base.lines()
    assert "spec.mpiReplicaSpecs.Worker.replicas: 2 -> 3" in lines
    assert 'spec.mpiReplicaSpecs.Launcher.template.spec.containers[0].command[3]: "2" -> "3"' in lines
    assert "differs from the spec in 2 fields" in base.describe()
    # prod sets its own worker count: its patch changes only where the base moved under it
    assert set(drift) <= {"base/mpijob.yaml", "overlays/prod/mpijob-patch.yaml"}


def test_changed_patch_is_compared_by_target_path(root: Path) -> None:
    drift = drift_of(root, compiled(environments="    prod: {workers: 32}"))
    assert set(drift) == {"overlays/prod/mpijob-patch.yaml"}
    lines = drift["overlays/prod/mpijob-patch.yaml"].lines()
    assert "/spec/mpiReplicaSpecs/Worker/replicas value: 16 -> 32" in lines
    assert '/spec/mpiReplicaSpecs/Launcher/template/spec/containers/0/command/3 value: "16" -> "32"' in lines
    assert len(lines) == 2  # no shifted indices reported as changes


def test_missing_file(root: Path) -> None:
    (root / "demo/overlays/prod/kustomization.yaml").unlink()
    drift = drift_of(root)
    assert {p: d.kind for p, d in drift.items()} == {"overlays/prod/kustomization.yaml": MISSING}
    assert drift["overlays/prod/kustomization.yaml"].describe().startswith("missing")


def test_missing_tree(tmp_path: Path) -> None:
    drift = drift_of(tmp_path)
    assert set(drift) == set(kustomize_files(compiled()))
    assert {d.kind for d in drift.values()} == {MISSING}


def test_new_environment_is_missing_files(tmp_path: Path) -> None:
    write_tree(tmp_path, "demo", kustomize_files(compiled(environments="")))
    drift = drift_of(tmp_path)
    assert {p: d.kind for p, d in drift.items()} == {
        "overlays/prod/kustomization.yaml": MISSING, "overlays/prod/mpijob-patch.yaml": MISSING}


def test_extra_owned_file(root: Path) -> None:
    drift = drift_of(root, compiled(environments=""))  # prod removed from the spec
    assert {p: d.kind for p, d in drift.items()} == {
        "overlays/prod/kustomization.yaml": EXTRA, "overlays/prod/mpijob-patch.yaml": EXTRA}
    assert "--fix deletes it" in drift["overlays/prod/kustomization.yaml"].describe()


def test_foreign_files_are_never_drift_and_never_touched(root: Path) -> None:
    (root / "demo/README.md").write_text("# our notes\n")
    (root / "demo/overlays/prod/extra-patch.yaml").write_text("- op: add\n  path: /x\n  value: 1\n")
    (root / "demo/overlays/staging").mkdir()
    (root / "demo/overlays/staging/kustomization.yaml").write_text("resources: [../../base]\n")
    (root / "notes.txt").write_text("beside the trees\n")
    before = tree_bytes(root)
    stats = {p: (root / p).stat().st_mtime_ns for p in before}
    assert drift_of(root) == {}
    assert tree_bytes(root) == before
    assert {p: (root / p).stat().st_mtime_ns for p in before} == stats


def test_check_never_writes_even_when_drifted(root: Path) -> None:
    before = tree_bytes(root)
    assert drift_of(root, compiled(workers=5))
    assert tree_bytes(root) == before
    assert [e.name for e in root.iterdir()] == ["demo"]  # no staging folder either


def test_formatting_only_difference(root: Path) -> None:
    path = root / "demo/base/mpijob.yaml"
    data = yaml.safe_load(path.read_text())
    path.write_text("# edited by hand\n" + json.dumps(data, indent=4, sort_keys=True) + "\n")  # JSON is YAML
    drift = drift_of(root)
    assert {p: d.kind for p, d in drift.items()} == {"base/mpijob.yaml": FORMATTING}
    assert drift["base/mpijob.yaml"].changes == ()
    assert "formatting differs" in drift["base/mpijob.yaml"].describe()


def test_comment_only_difference_is_formatting(root: Path) -> None:
    path = root / "demo/base/kustomization.yaml"
    path.write_text(path.read_text().replace("# Generated", "# generated"))
    assert {p: d.kind for p, d in drift_of(root).items()} == {"base/kustomization.yaml": FORMATTING}


def test_string_and_number_are_not_the_same_data(root: Path) -> None:
    path = root / "demo/base/mpijob.yaml"
    path.write_text(path.read_text().replace("slotsPerWorker: 1", 'slotsPerWorker: "1"'))
    drift = drift_of(root)
    assert drift["base/mpijob.yaml"].kind == CHANGED
    assert drift["base/mpijob.yaml"].lines() == ['spec.slotsPerWorker: "1" -> 1']


def test_unparsable_file(root: Path) -> None:
    (root / "demo/base/mpijob.yaml").write_text("spec: [unclosed\n")
    drift = drift_of(root)
    assert drift["base/mpijob.yaml"].kind == UNPARSABLE
    assert "not readable as YAML" in drift["base/mpijob.yaml"].describe()


def test_unsafe_yaml_on_disk_is_never_executed(root: Path, tmp_path: Path) -> None:
    marker = tmp_path / "pwned"
    (root / "demo/base/mpijob.yaml").write_text(
        f"!!python/object/apply:os.system ['touch {marker}']\n")
    assert drift_of(root)["base/mpijob.yaml"].kind == UNPARSABLE
    assert not marker.exists()


def test_folder_where_a_file_should_be(root: Path) -> None:
    path = root / "demo/base/mpijob.yaml"
    path.unlink()
    path.mkdir()
    drift = drift_of(root)
    assert drift["base/mpijob.yaml"].kind == UNPARSABLE


def test_generated_path_taken_by_a_file_mpigen_did_not_write(root: Path) -> None:
    owned = json.loads((root / "demo" / OWNED_LIST).read_text())
    owned["files"].remove("base/mpijob.yaml")
    (root / "demo" / OWNED_LIST).write_text(json.dumps(owned))
    (result,) = check_jobs([compiled()], root)
    assert {d.path: d.kind for d in result.drift} == {"base/mpijob.yaml": CONFLICT}
    assert not result.fixable
    assert "not written by mpigen" in result.drift[0].describe()


def test_lost_ownership_list_makes_every_file_a_conflict(root: Path) -> None:
    (root / "demo" / OWNED_LIST).unlink()
    drift = drift_of(root)
    assert set(drift) == set(kustomize_files(compiled()))
    assert {d.kind for d in drift.values()} == {CONFLICT}


def test_stale_entry_in_the_ownership_list(root: Path) -> None:
    owned = json.loads((root / "demo" / OWNED_LIST).read_text())
    owned["files"].append("overlays/old/kustomization.yaml")
    (root / "demo" / OWNED_LIST).write_text(json.dumps(owned))
    drift = drift_of(root)
    assert {p: d.kind for p, d in drift.items()} == {OWNED_LIST: OWNERSHIP}
    assert "overlays/old/kustomization.yaml" in drift[OWNED_LIST].describe()


def test_ownership_list_layout_is_not_drift(root: Path) -> None:
    owned = json.loads((root / "demo" / OWNED_LIST).read_text())
    (root / "demo" / OWNED_LIST).write_text(json.dumps(owned))  # one line instead of indented
    assert drift_of(root) == {}


def test_tree_that_is_a_file(tmp_path: Path) -> None:
    (tmp_path / "demo").write_text("not a folder\n")
    (result,) = check_jobs([compiled()], tmp_path)
    assert [(d.path, d.kind) for d in result.drift] == [("", NOT_A_FOLDER)]
    assert not result.fixable


def test_check_tree_takes_plain_files(tmp_path: Path) -> None:
    files = {"base/kustomization.yaml": "resources: [a.yaml]\n", "base/a.yaml": "kind: A\nn: 1\n"}
    write_tree(tmp_path, "job", files)
    assert check_tree(tmp_path, "job", files).in_step
    changed = check_tree(tmp_path, "job", dict(files, **{"base/a.yaml": "kind: A\nn: 2\n"}))
    assert [(d.path, d.kind, d.lines()) for d in changed.drift] == [("base/a.yaml", CHANGED, ["n: 1 -> 2"])]


def test_every_job_is_checked_in_order(tmp_path: Path) -> None:
    first = compiled()
    second = compile_specs(load_text(SPEC.format(workers=1, environments="    {}").replace("name: demo", "name: other"),
                                     "other.yaml"), "other.yaml", Options()).jobs[0]
    write_tree(tmp_path, "demo", kustomize_files(first))
    results = check_jobs([second, first], tmp_path)
    assert [(r.job, r.in_step) for r in results] == [("other", False), ("demo", True)]


def test_field_changes_formats() -> None:
    old = {"a": {"b": 1, "gone": "x"}, "list": [1, 2, 3], "metadata": {"annotations": {"a.b/c": "x"}}}
    new = {"a": {"b": 2, "new": {"k": True}}, "list": [1, 2], "metadata": {"annotations": {"a.b/c": None}}}
    assert [c.format() for c in field_changes(old, new)] == [
        "a.b: 1 -> 2",
        'a.gone: "x" -> (absent)',
        'a.new: (absent) -> {"k": true}',
        "list[2]: 3 -> (absent)",
        'metadata.annotations["a.b/c"]: "x" -> null',
    ]


def test_field_changes_sorts_indices_numerically() -> None:
    old = list(range(12))
    new = [v + 100 if v in (2, 10) else v for v in old]
    assert [c.path for c in field_changes(old, new)] == ["[2]", "[10]"]


def test_long_values_are_shortened() -> None:
    (change,) = field_changes({"a": "x" * 500}, {"a": "y"})
    assert len(change.format()) < 200 and change.format().endswith('-> "y"')
    assert "..." in change.format()


def test_whole_document_replaced() -> None:
    assert [c.format() for c in field_changes([], {"a": 1})] == ['(document): [] -> {"a": 1}']


def test_a_rewritten_file_lists_a_bounded_number_of_changes(tmp_path: Path) -> None:
    files = {"a.yaml": "".join(f"k{i}: 1\n" for i in range(200))}
    write_tree(tmp_path, "job", files)
    (tmp_path / "job/a.yaml").write_text("".join(f"k{i}: 2\n" for i in range(200)))
    (drift,) = check_tree(tmp_path, "job", files).drift
    assert len(drift.changes) == compare.MAX_CHANGES
    assert drift.more == 200 - compare.MAX_CHANGES
    assert drift.lines()[-1] == f"... and {200 - compare.MAX_CHANGES} more"
    assert "200 fields" in drift.describe()


def test_field_change_repr_of_absent() -> None:
    assert FieldChange("x", new=1).format() == "x: (absent) -> 1"


def test_orphan_trees(tmp_path: Path) -> None:
    write_tree(tmp_path, "demo", {"a.yaml": "a: 1\n"})
    write_tree(tmp_path, "gone", {"a.yaml": "a: 1\n"})
    (tmp_path / "handmade").mkdir()  # no ownership list: not mpigen's
    (tmp_path / "file.yaml").write_text("a: 1\n")
    os.symlink(tmp_path / "gone", tmp_path / "link")
    assert orphan_trees(tmp_path, ["demo"]) == ["gone"]
    assert orphan_trees(tmp_path, ["demo", "gone"]) == []
    assert orphan_trees(tmp_path / "missing", ["demo"]) == []


def test_orphan_drift_is_one_drifted_tree_per_orphan(tmp_path: Path) -> None:
    write_tree(tmp_path, "demo", {"a.yaml": "a: 1\n"})
    write_tree(tmp_path, "gone", {"a.yaml": "a: 1\n"})
    (result,) = orphan_drift(tmp_path, ["demo"])
    assert (result.job, result.tree, result.in_step, result.orphan, result.fixable) == (
        "gone", tmp_path / "gone", False, True, True)
    assert [(d.path, d.kind) for d in result.drift] == [("", "orphan")]
    assert "which no spec defines any more" in result.drift[0].describe()
    assert orphan_drift(tmp_path, ["demo", "gone"]) == []
