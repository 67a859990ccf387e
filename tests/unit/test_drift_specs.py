"""`mpigen check` on every core: specs compiled and trees compared by workers give what one process gives."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import mpigen.validation
from mpigen.drift.compare import ABSENT, CHANGED, MISSING
from mpigen.drift.specs import check_specs
from mpigen.main import main
from mpigen.pipeline import Options
from mpigen.validation import parallel

SPEC = """apiVersion: mpigen.dev/v1alpha1
kind: TrainingJob
metadata: {name: job-NUMBER}
spec:
  framework: mpi
  image: horovod/horovod:0.28.1
  command: [python, train.py]
  workers: WORKERS
  scheduling: {gang: volcano}
"""
SPECS = 30


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """30 specs and their trees, then: job-3's worker count changed in its spec, a field added to
    job-7's kustomization (the spec gives it no such field), one of job-11's files deleted."""
    monkeypatch.setenv("MPIGEN_CACHE_DIR", str(tmp_path / "cache"))
    (tmp_path / "specs").mkdir()
    for number in range(SPECS):
        (tmp_path / "specs" / f"job-{number:02d}.yaml").write_text(
            SPEC.replace("NUMBER", str(number)).replace("WORKERS", str(2 + number % 5)))
    (tmp_path / ".mpigen.yaml").write_text("specs: [specs/*.yaml]\noutput: deploy\n")
    monkeypatch.chdir(tmp_path)
    assert main(["check", "--fix", "--no-cache"]) == 0
    (tmp_path / "specs" / "job-03.yaml").write_text(SPEC.replace("NUMBER", "3").replace("WORKERS", "9"))
    base = tmp_path / "deploy" / "job-7" / "base" / "kustomization.yaml"
    base.write_text(base.read_text() + "namePrefix: old-\n")
    next((tmp_path / "deploy" / "job-11").rglob("*.yaml")).unlink()
    return tmp_path


def _forks(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    forks: list[int] = []
    real_fork = os.fork

    def fork() -> int:
        forks.append(1)
        return real_fork()

    monkeypatch.setattr(parallel.os, "fork", fork)
    return forks


def _specs(repo: Path) -> list[tuple[str, bytes]]:
    return [(f"specs/{path.name}", path.read_bytes()) for path in sorted((repo / "specs").iterdir())]


def test_specs_in_processes_give_what_one_process_gives(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from mpigen.versions import DEFAULT_OPERATOR_VERSION

    options = Options(DEFAULT_OPERATOR_VERSION)
    one = check_specs(_specs(repo), options, repo / "deploy", workers=1)
    forks = _forks(monkeypatch)
    monkeypatch.setattr(parallel, "MIN_WORK_PER_PROCESS", 1e-9)  # every core, whatever the work
    shared = check_specs(_specs(repo), options, repo / "deploy", workers=2)
    assert forks == [1]  # the workers did part of it
    assert shared == one
    drifted = {job.job: job.drift for spec in shared for job in spec.jobs if job.drift}
    assert sorted(drifted) == ["job-11", "job-3", "job-7"]
    assert [d.kind for d in drifted["job-11"]] == [MISSING]
    (removed,) = [change for d in drifted["job-7"] if d.kind == CHANGED for change in d.changes]
    assert removed.path == "namePrefix" and removed.new is ABSENT  # still the one ABSENT after the trip back


def test_check_on_every_core_reports_as_one_process_does(repo: Path, monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    (repo / "specs" / "job-20.yaml").write_text(SPEC.replace("NUMBER", "20").replace("WORKERS", "-1"))
    monkeypatch.setattr(mpigen.validation, "cores", lambda: 1)
    assert main(["check", "--no-cache"]) == 1
    alone = capsys.readouterr()
    (repo / "specs" / "job-20.yaml").write_text(SPEC.replace("NUMBER", "20").replace("WORKERS", "2"))
    assert main(["check", "--no-cache"]) == 1
    alone_drift = capsys.readouterr()

    forks = _forks(monkeypatch)
    monkeypatch.setattr(mpigen.validation, "cores", lambda: 2)
    monkeypatch.setattr(parallel, "MIN_WORK_PER_PROCESS", 1e-9)
    (repo / "specs" / "job-20.yaml").write_text(SPEC.replace("NUMBER", "20").replace("WORKERS", "-1"))
    assert main(["check", "--no-cache"]) == 1
    assert capsys.readouterr() == alone
    assert "specs/job-20.yaml" in alone.err and "drifted" not in alone.out  # the error, and no drift
    (repo / "specs" / "job-20.yaml").write_text(SPEC.replace("NUMBER", "20").replace("WORKERS", "2"))
    assert main(["check", "--no-cache"]) == 1
    assert capsys.readouterr() == alone_drift
    assert len(forks) == 2
    assert "namePrefix: \"old-\" -> (absent)" in alone_drift.out
    assert "3 of 30 trees drifted" in alone_drift.out
