"""mpigen.io.display_path: a path as the user reads it in a diagnostic or a summary."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from mpigen.io import display_path


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "repo" / "specs").mkdir(parents=True)
    (tmp_path / "repo-other").mkdir()
    monkeypatch.chdir(tmp_path / "repo" / "specs")
    return tmp_path / "repo"


def test_under_the_working_directory_it_is_relative(repo: Path):
    assert display_path(repo / "specs" / "a.yaml") == "a.yaml"
    assert display_path("a.yaml") == "a.yaml"
    assert display_path(str(repo / "specs" / "sub" / ".." / "a.yaml")) == "a.yaml"  # normalized
    assert display_path(repo / "specs") == "."


def test_beside_it_under_the_configuration_s_folder_it_is_relative_too(repo: Path):
    assert display_path(repo / "deploy", base=repo) == os.path.join("..", "deploy")
    assert display_path(repo / "deploy") == str(repo / "deploy")  # no base: absolute


def test_a_folder_whose_name_only_starts_alike_is_not_under_it(repo: Path):
    """repo-other is not under repo: its path is absolute, not ../../repo-other."""
    assert display_path(repo.parent / "repo-other" / "x.yaml", base=repo) == str(repo.parent / "repo-other" / "x.yaml")
