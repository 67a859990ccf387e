"""mpigen.names: the naming rules the spec checks, the defaults and the renderers share."""

from __future__ import annotations

import pytest

from mpigen.names import job_name_problem, is_ssh_url, log_volume, repository_folder, rsync_folder, volume_name


# --- volumes ---------------------------------------------------------------------------------

@pytest.mark.parametrize("volume, name", [
    ({"claimName": "data", "mountPath": "/d"}, "data"),
    ({"claimName": "Team_Data.v2", "mountPath": "/d"}, "team-data-v2"),
    ({"claimName": "9lives", "mountPath": "/d"}, "pvc-9lives"),
    ({"hostPath": "/mnt/cache", "mountPath": "/d"}, "host-mnt-cache"),
    ({"hostPath": "/", "mountPath": "/d"}, "host"),
    ({"hostPath": "/mnt/cache", "mountPath": "/d", "name": "scratch"}, "scratch"),
    ({"claimName": "x" * 80, "mountPath": "/d"}, "x" * 63),
])
def test_volume_name_is_a_dns_label(volume: dict, name: str) -> None:
    assert volume_name(volume) == name
    assert len(name) <= 63


# --- code sync --------------------------------------------------------------------------------

@pytest.mark.parametrize("repository, folder", [
    ("https://github.com/org/repo.git", "repo"),
    ("https://github.com/org/repo", "repo"),
    ("https://github.com/org/repo/", "repo"),
    ("https://git.example.com:8443/org/tools.git", "tools"),
    ("git@github.com:org/ssh-repo.git", "ssh-repo"),
    ("ssh://git@example.com:2222/org/deep/path.git", "path"),
])
def test_repository_folder(repository: str, folder: str) -> None:
    assert repository_folder(repository) == folder


@pytest.mark.parametrize("repository, ssh", [
    ("git@github.com:org/repo.git", True), ("ssh://git@example.com/org/repo.git", True),
    ("https://github.com/org/repo.git", False), ("http://example.com/repo.git", False),
])
def test_is_ssh_url(repository: str, ssh: bool) -> None:
    assert is_ssh_url(repository) is ssh


@pytest.mark.parametrize("source, folder", [
    ("10.0.0.5::code/bert", "bert"), ("10.0.0.5::code/bert/", None), ("10.0.0.5::code", None),
    ("rsync://h/code/bert", "bert"), ("rsync://h/code", None), ("host:/srv/code/bert", "bert"),
    ("/mnt/code/bert", "bert"), ("/mnt/code/bert/", None),
])
def test_rsync_folder_is_what_rsync_creates(source: str, folder: str | None) -> None:
    assert rsync_folder(source) == folder


# --- TensorBoard ------------------------------------------------------------------------------

@pytest.mark.parametrize("log_dir, want", [
    ("/data", "/data"), ("/data/x", "/data"), ("/data/out", "/data/out"), ("/data/out/y", "/data/out"),
    ("/data/outside", "/data"), ("/data/./out/../out/z", "/data/out"), ("/elsewhere", None),
])
def test_log_volume_is_the_deepest_mount_holding_the_log_dir(log_dir: str, want: str | None) -> None:
    spec = {"tensorboard": {"logDir": log_dir},
            "volumes": [{"claimName": "a", "mountPath": "/data"}, {"claimName": "b", "mountPath": "/data/out/"}]}
    volume = log_volume(spec)
    assert (None if volume is None else volume["mountPath"].rstrip("/")) == want


# --- job names ----------------------------------------------------------------------------------

@pytest.mark.parametrize("name, problem", [
    ("train", None), ("a", None), ("a-1-b", None), ("resnet50", None),
    ("", "is empty"),
    ("Train", "contains 'T'"),
    ("my_job.v2", "contains '_' and '.'"),
    ("ab\u00e9", "contains '\u00e9'"),
    ("1x", "starts with '1', not a letter"),
    ("-x", "starts with '-', not a letter"),
    ("x-", "ends with '-'"),
    ("_Ab-", "contains '_' and 'A', ends with '-'"),
])
def test_job_name_problem_says_which_characters(name: str, problem: str | None) -> None:
    assert job_name_problem(name) == problem
