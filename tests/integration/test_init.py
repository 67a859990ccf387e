"""``mpigen init``: a GitOps repository in one command, whose first spec builds, validates and is
checked in step once its tree is written (the hooks under the real pre-commit are in
test_precommit.py)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from mpigen.commands.init import HOOKS, files
from mpigen.config import load_config
from mpigen.load.yaml_loader import load_text
from mpigen.main import cli
from mpigen.pipeline import Options, compile_specs
from mpigen.spec.schema import SPEC_SCHEMA, schema_diagnostics
from tests.golden.cases import ROOT

WRITTEN = [".mpigen.yaml", "specs/train.yaml", ".pre-commit-config.yaml"]


def run(args: list[str], cwd: Path) -> tuple[int, str, str]:
    old = os.getcwd()
    os.chdir(cwd)
    try:
        result = CliRunner().invoke(cli, args, catch_exceptions=False)
    finally:
        os.chdir(old)
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    (tmp_path / ".git").mkdir()  # stops the configuration search here
    return tmp_path


def tree(root: Path) -> list[str]:
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file() and ".git" not in p.parts)


def test_init_writes_the_configuration_a_first_spec_and_the_hooks(repo: Path) -> None:
    code, out, err = run(["init"], repo)
    assert code == 0, err
    assert out.splitlines()[:3] == [f"wrote {rel}" for rel in WRITTEN]
    assert "mpigen check --fix" in out and "pre-commit install" in out
    assert tree(repo) == sorted(WRITTEN)
    config = load_config(start=repo)
    assert (config.path, config.specs, config.output) == (repo / ".mpigen.yaml", ("specs/*.yaml",), "deploy")
    hooks = yaml.safe_load((repo / ".pre-commit-config.yaml").read_text())
    assert [(r["repo"], [h["id"] for h in r["hooks"]]) for r in hooks["repos"]] == [
        ("local", ["mpigen-validate", "mpigen-check"])]


def test_the_first_spec_is_commented_and_builds_validates_and_checks_clean(repo: Path) -> None:
    assert run(["init"], repo)[0] == 0
    text = (repo / "specs/train.yaml").read_text()
    assert sum(1 for line in text.splitlines() if line.lstrip().startswith("#")) >= 10  # it explains itself
    loaded = load_text(text, "specs/train.yaml")
    assert not loaded.diagnostics
    [doc] = loaded.documents
    assert schema_diagnostics(doc.data, doc, "specs/train.yaml", SPEC_SCHEMA) == []  # the data the schema accepts
    assert doc.data["metadata"] == {"name": "train"}
    assert (doc.data["spec"]["workers"], doc.data["spec"]["environments"]) == (2, {"prod": {"workers": 4}})
    result = compile_specs(loaded, "specs/train.yaml", Options())
    assert result.diagnostics == [] and [job.name for job in result.jobs] == ["train"]

    code, out, err = run(["build", "specs/train.yaml"], repo)
    assert code == 0 and err == "" and "kind: MPIJob" in out
    code, out, err = run(["validate", "--strict", "specs"], repo)
    assert code == 0, out + err
    code, out, _ = run(["check"], repo)
    assert code == 1 and "deploy/train/base/mpijob.yaml: missing" in out  # no tree yet: init says to run --fix
    code, out, err = run(["check", "--fix"], repo)
    assert code == 0, err
    assert run(["check"], repo)[:2] == (0, "1 tree in step\n")
    code, out, err = run(["validate", "--strict", "deploy"], repo)
    assert code == 0, out + err


def test_init_into_a_new_folder_with_a_name(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    code, out, err = run(["init", "ml/jobs", "--name", "bert-base"], tmp_path)
    assert code == 0, err
    root = tmp_path / "ml/jobs"
    assert tree(root) == [".mpigen.yaml", ".pre-commit-config.yaml", "specs/bert-base.yaml"]
    assert "name: bert-base" in (root / "specs/bert-base.yaml").read_text()
    assert run(["check", "--fix"], root)[0] == 0
    assert (root / "deploy/bert-base/base/mpijob.yaml").is_file()


def test_init_refuses_to_overwrite_unless_forced(repo: Path) -> None:
    (repo / ".pre-commit-config.yaml").write_text("repos: []\n")
    code, out, err = run(["init"], repo)
    assert code == 2
    assert err == "mpigen: .pre-commit-config.yaml: already there; nothing written (--force overwrites)\n"
    assert tree(repo) == [".pre-commit-config.yaml"]  # nothing else written either
    assert (repo / ".pre-commit-config.yaml").read_text() == "repos: []\n"
    code, out, err = run(["init", "--force"], repo)
    assert code == 0, err
    assert tree(repo) == sorted(WRITTEN)
    assert "mpigen-check" in (repo / ".pre-commit-config.yaml").read_text()


@pytest.mark.parametrize("name, message", [
    ("Train_1", "--name 'Train_1': a job name contains 'T' and '_'"),
    ("1job", "--name '1job': a job name starts with '1', not a letter"),
    ("j" * 55, "at most 54 characters"),
])
def test_init_refuses_a_job_name_the_operator_would_refuse(repo: Path, name: str, message: str) -> None:
    code, _, err = run(["init", "--name", name], repo)
    assert code == 2 and message in err, err
    assert tree(repo) == []


def test_the_local_hooks_are_the_hooks_mpigen_ships() -> None:
    """init's repo: local hooks say what .pre-commit-hooks.yaml says (but for language: system)."""
    shipped = {hook["id"]: hook for hook in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())}
    written = yaml.safe_load(files("train")[".pre-commit-config.yaml"])["repos"][0]["hooks"]
    assert [hook["id"] for hook in written] == list(shipped) == [hook["id"] for hook in HOOKS]
    for hook in written:
        assert hook.pop("language") == "system"
        ours = {k: v for k, v in shipped[hook["id"]].items() if k not in ("language", "description")}
        assert hook == ours


def test_help_points_at_the_spec_format_its_schema_and_init(repo: Path) -> None:
    code, out, _ = run(["--help"], repo)
    assert code == 0
    flat = " ".join(out.split())
    assert "init Set up DIR" in flat
    assert 'Specs (apiVersion mpigen.dev/v1alpha1, kind TrainingJob) are described in the README ("The spec")' in flat
    schema = next(line.strip() for line in out.splitlines() if line.strip().endswith("trainingjob_v1alpha1.json"))
    assert Path(schema).is_file() and Path(schema).name == "trainingjob_v1alpha1.json"
    assert "mpigen init writes .mpigen.yaml, a first spec with comments and .pre-commit-config.yaml" in flat


def test_the_readme_shows_the_hooks_init_writes() -> None:
    import re

    readme = (ROOT / "README.md").read_text()
    blocks = [yaml.safe_load(b) for b in re.findall(r"```yaml\n(repos:.*?)```", readme, re.S)]
    local = [b for b in blocks if b["repos"][0]["repo"] == "local"]
    assert local == [yaml.safe_load(files("train")[".pre-commit-config.yaml"])]
    assert any(b["repos"][0]["repo"].startswith("https://") for b in blocks)
    assert "mpigen-check` passes no file names: it runs `mpigen check`, which\nreads `specs` and `output` from " \
           "`.mpigen.yaml`" in readme
