"""The content-hash cache of `mpigen check`: faster when nothing changed, never wrong when something did."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from mpigen.drift import cache as drift_cache
from mpigen.main import main

SPEC = """apiVersion: mpigen.dev/v1alpha1
kind: TrainingJob
metadata: {name: demo}
spec:
  framework: mpi
  image: horovod/horovod:0.28.1
  command: [python, train.py]
  workers: WORKERS
  scheduling: {gang: scheduler-plugins}
"""


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("MPIGEN_CACHE_DIR", str(tmp_path / "cache"))
    (tmp_path / "specs").mkdir()
    (tmp_path / "specs" / "demo.yaml").write_text(SPEC.replace("WORKERS", "2"))
    (tmp_path / ".mpigen.yaml").write_text("specs: [specs/*.yaml]\noutput: deploy\n")
    (tmp_path / "deploy").mkdir()
    monkeypatch.chdir(tmp_path)
    assert main(["check", "--fix"]) == 0
    return tmp_path


def _age_everything(repo: Path) -> None:
    """Push every mtime and the cache's well into the past so the stat shortcut applies."""
    old = 1_000_000_000
    for path in (repo / "deploy").rglob("*"):
        os.utime(path, (old, old))


def _compiles(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    import mpigen.pipeline

    calls: list[str] = []
    real = mpigen.pipeline.compile_specs
    monkeypatch.setattr(mpigen.pipeline, "compile_specs", lambda loaded, name, options: calls.append(name) or
                        real(loaded, name, options))
    return calls


def test_nothing_changed_compiles_nothing_and_repeats_warnings(repo, monkeypatch, capsys) -> None:
    assert main(["check"]) == 0  # fills the cache
    capsys.readouterr()
    calls = _compiles(monkeypatch)
    assert main(["check"]) == 0
    out = capsys.readouterr()
    assert calls == []
    assert "1 tree in step" in out.out
    assert "schedule-timeout-zero" in out.err  # the spec's warning, replayed from the cache


def test_a_spec_change_is_compiled_and_reported(repo, monkeypatch, capsys) -> None:
    assert main(["check"]) == 0
    (repo / "specs" / "demo.yaml").write_text(SPEC.replace("WORKERS", "3"))
    calls = _compiles(monkeypatch)
    assert main(["check"]) == 1
    assert calls == ["specs/demo.yaml"]
    assert "Worker.replicas: 2 -> 3" in capsys.readouterr().out


def test_a_tree_edit_that_keeps_size_and_mtime_is_still_found(repo, capsys) -> None:
    assert main(["check"]) == 0
    _age_everything(repo)
    assert main(["check"]) == 0
    target = repo / "deploy" / "demo" / "base" / "mpijob.yaml"
    stat = target.stat()
    text = target.read_text()
    assert "replicas: 2" in text
    target.write_text(text.replace("replicas: 2", "replicas: 7"))  # same size
    os.utime(target, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # and the old mtime: only ctime moves
    assert target.stat().st_size == stat.st_size and target.stat().st_mtime_ns == stat.st_mtime_ns
    capsys.readouterr()
    assert main(["check"]) == 1
    assert "mpijob.yaml" in capsys.readouterr().out


def _hashed(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The sizes of what the cache hashes from now on (spec inputs and tree files alike)."""
    sizes: list[int] = []
    real = drift_cache._sha
    monkeypatch.setattr(drift_cache, "_sha", lambda data: sizes.append(len(data)) or real(data))
    return sizes


def test_tree_files_read_once_are_not_read_again(repo, monkeypatch) -> None:
    """Trees written just before the cache (a check --fix) are read and hashed by the next check,
    which records their stat and writes the cache again; once that write is well after them, a
    check reads none of them (and writes nothing)."""
    assert main(["check"]) == 0  # fills the cache
    [cache] = (repo / "cache").glob("check-*.json")
    trees = [p for p in (repo / "deploy").rglob("*") if p.is_file()]
    os.utime(cache, ns=(0, 0))  # as if the trees had been written after the cache: all must be read
    hashed = _hashed(monkeypatch)
    assert main(["check"]) == 0
    assert len(hashed) == 3 + len(trees)  # the cache's key and salt, the spec, and every tree file
    assert cache.stat().st_mtime_ns != 0  # written again, with their stat
    later = max(p.stat().st_ctime_ns for p in trees) + 10_000_000_000
    os.utime(cache, ns=(later, later))  # that write was ten seconds after the trees
    hashed.clear()
    assert main(["check"]) == 0
    assert len(hashed) == 3  # the key, the salt and the spec only
    assert cache.stat().st_mtime_ns == later  # nothing to write


def test_a_new_mpigen_invalidates_the_cache(repo, monkeypatch) -> None:
    assert main(["check"]) == 0
    drift_cache.code_hash.cache_clear()
    monkeypatch.setattr(drift_cache, "code_hash", lambda: "another mpigen")
    calls = _compiles(monkeypatch)
    assert main(["check"]) == 0
    assert calls == ["specs/demo.yaml"]


def test_options_are_part_of_the_key(repo, monkeypatch) -> None:
    assert main(["check"]) == 0
    calls = _compiles(monkeypatch)
    assert main(["check", "--operator-version", "v0.6.0"]) == 0
    assert calls == ["specs/demo.yaml"]


def test_a_corrupt_or_missing_cache_is_ignored(repo, monkeypatch) -> None:
    assert main(["check"]) == 0
    for path in (repo / "cache").glob("check-*.json"):
        path.write_text("{not json")
    calls = _compiles(monkeypatch)
    assert main(["check"]) == 0
    assert calls == ["specs/demo.yaml"]
    data = json.loads(next((repo / "cache").glob("check-*.json")).read_text())
    assert "specs/demo.yaml" in data["specs"]


def test_no_cache_flag(repo, monkeypatch) -> None:
    assert main(["check"]) == 0
    calls = _compiles(monkeypatch)
    assert main(["check", "--no-cache"]) == 0
    assert calls == ["specs/demo.yaml"]
