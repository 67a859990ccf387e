"""What ``mpigen validate`` reads and says of files that are not manifests: ``--exclude`` (and the
configuration's ``exclude``), a Helm template said once as not checked, an empty file as a note."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from mpigen.main import main
from mpigen.validation.discover import discover, excluded
from tests.golden.cases import ROOT

HELM = """apiVersion: kubeflow.org/v2beta1
kind: MPIJob
metadata:
  name: {{ .Release.Name }}
  labels:
    {{- include "chart.labels" . | nindent 4 }}
"""
ARGO = """apiVersion: v1
kind: ConfigMap
metadata: {name: steps}
data:
  command: "train --lr {{inputs.parameters.lr}}"
"""


def _run(argv: list[str], cwd: Path, capsys) -> tuple[int, str, str]:
    here = os.getcwd()
    os.chdir(cwd)
    try:
        code = main(argv)
    finally:
        os.chdir(here)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("path, pattern, expected", [
    ("charts/x/templates/job.yaml", "charts/*/templates", True),
    ("./charts/x/templates/job.yaml", "charts", True),
    ("charts/x/templates/job.yaml", "charts/", True),
    ("a/b/job.tpl.yaml", "*.tpl.yaml", True),
    ("a/b/job.yaml", "job.yaml", True),
    ("a/b/job.yaml", "b", True),
    ("a/b/job.yaml", "c", False),
    ("a/b/job.yaml", "jo", False),
    ("a/bb/job.yaml", "b", False),
])
def test_an_exclude_glob_matches_a_tail_or_a_folder(path: str, pattern: str, expected: bool) -> None:
    assert excluded(path, [pattern]) is expected


def test_excluded_files_are_left_out_whether_found_or_named(tmp_path: Path) -> None:
    (tmp_path / "charts" / "x" / "templates").mkdir(parents=True)
    (tmp_path / "jobs").mkdir()
    for name in ("charts/x/templates/job.yaml", "jobs/a.yaml", "jobs/b.yaml"):
        (tmp_path / name).write_text("{}\n")
    found = discover([str(tmp_path)], ["charts/*/templates"])
    assert [Path(f).relative_to(tmp_path).as_posix() for f in found] == ["jobs/a.yaml", "jobs/b.yaml"]
    assert discover([str(tmp_path / "jobs" / "a.yaml"), str(tmp_path / "jobs")], ["a.yaml"]) == [
        str(tmp_path / "jobs" / "b.yaml")]


def test_a_helm_template_is_said_once_as_not_checked(tmp_path: Path, capsys) -> None:
    (tmp_path / "job.yaml").write_text(HELM)
    code, out, err = _run(["validate", "-v", "job.yaml"], tmp_path, capsys)
    assert code == 0
    assert out.splitlines() == ["job.yaml:4:9: info template-file a Helm or other Go template ({{ ... }}), not YAML a "
                                "cluster reads: not checked; check what it renders (helm template CHART | mpigen "
                                "validate -), or leave it out with --exclude"]
    assert err.strip().endswith("0 object(s) checked, 1 skipped (template: 1)")
    assert _run(["validate", "--require-schema", "job.yaml"], tmp_path, capsys)[0] == 1


def test_template_actions_in_strings_are_checked_as_yaml(tmp_path: Path, capsys) -> None:
    (tmp_path / "argo.yaml").write_text(ARGO)
    code, out, err = _run(["validate", "-v", "argo.yaml"], tmp_path, capsys)
    assert code == 0 and "template-file" not in out and "1 object(s) checked" in err


def test_broken_yaml_without_template_actions_is_a_yaml_error(tmp_path: Path, capsys) -> None:
    (tmp_path / "bad.yaml").write_text("a: [1, 2\n")
    code, out, _ = _run(["validate", "bad.yaml"], tmp_path, capsys)
    assert code == 1 and " error yaml-" in out


@pytest.mark.parametrize("text", ["", "# a comment only\n", "---\n---\n"])
def test_an_empty_file_is_a_note(tmp_path: Path, capsys, text: str) -> None:
    (tmp_path / "empty.yaml").write_text(text)
    code, out, _ = _run(["validate", "empty.yaml"], tmp_path, capsys)
    assert (code, out) == (0, "")
    code, out, _ = _run(["validate", "-v", "empty.yaml"], tmp_path, capsys)
    assert out == ("empty.yaml: info empty-file the file holds no YAML document (it is empty or only comments): "
                   "nothing to check\n")


def test_the_configurations_exclude_and_the_option_add_up(tmp_path: Path, capsys) -> None:
    (tmp_path / "chart").mkdir()
    (tmp_path / "chart" / "job.yaml").write_text(HELM)
    (tmp_path / "other.yaml").write_text(HELM)
    (tmp_path / ".mpigen.yaml").write_text("exclude: [chart]\n")
    code, _, err = _run(["validate", "."], tmp_path, capsys)
    assert "1 file checked" in err
    code, _, err = _run(["validate", ".", "--exclude", "other.yaml"], tmp_path, capsys)
    assert "0 files checked" in err


def test_mpigens_own_trees_pass_require_schema(tmp_path: Path, capsys) -> None:
    """The trees mpigen writes (kustomizations, JSON patches of the overlays, the jobs) are all
    known kinds: --require-schema passes every golden tree and one check --fix wrote."""
    trees = sorted(str(p) for p in (ROOT / "golden").glob("*/tree"))
    assert len(trees) >= 10
    code, out, err = _run(["validate", "--require-schema", *trees], ROOT, capsys)
    assert code == 0 and out == "", out
    assert "0 skipped" in err
    (tmp_path / ".git").mkdir()
    spec = tmp_path / "spec.yaml"
    spec.write_bytes((ROOT / "specs" / "scheduler-plugins-envs.yaml").read_bytes())
    assert _run(["check", "spec.yaml", "-o", "deploy", "--fix"], tmp_path, capsys)[0] == 0
    assert any((tmp_path / "deploy").rglob("*-patch.yaml"))
    code, out, _ = _run(["validate", "--require-schema", "deploy"], tmp_path, capsys)
    assert (code, out) == (0, "")


def test_a_kustomization_is_checked_as_kustomize_reads_it(tmp_path: Path, capsys) -> None:
    (tmp_path / "kustomization.yaml").write_text("apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\n"
                                                 "resource: [job.yaml]\nnamePrefix: 3\n")
    code, out, _ = _run(["validate", "kustomization.yaml"], tmp_path, capsys)
    assert code == 1
    assert [line.split()[2] for line in out.splitlines()] == ["unknown-field", "schema"]  # no missing name
    assert "unknown field 'resource' (did you mean 'resources'?)" in out


def test_a_json_patch_file_is_checked_by_rfc_6902(tmp_path: Path, capsys) -> None:
    (tmp_path / "patch.yaml").write_text("- op: replace\n  path: spec/x\n- op: ad\n  path: /a\n  value: 1\n"
                                         "- op: move\n  path: /b\n- {op: remove, path: /c}\n")
    code, out, err = _run(["validate", "patch.yaml"], tmp_path, capsys)
    assert code == 1 and "1 object(s) checked" in err
    assert [line.split(" (")[-1] for line in out.splitlines()] == ["[0])", "[0].path)", "[1].op)", "[2])"]
    assert "unknown JSON patch operation 'ad' (did you mean add?)" in out
