"""mpigen.expand.roles: each role's pod settings, the job-wide ones with the role's own over them.

The merge is a JSON merge patch (maps merge, lists and values replace, null removes) but for
``resources`` (replaced whole) and ``podTemplatePatch`` (both apply, the job's first); an MPI
worker gets none of the training program's settings; the older ``mpi.launcher``,
``pytorch.master`` and ``tensorflow.<role>`` blocks are the same role settings.
"""

from __future__ import annotations

import copy

import pytest

from mpigen.expand.defaults import expand
from mpigen.expand.roles import POD_FIELDS, role_settings, roles_of

MPI = {"framework": "mpi", "image": "horovod:1", "command": ["python", "train.py"], "workers": 2}


def settings(spec: dict, role: str) -> dict:
    return expand(spec)["roles"][role]


@pytest.mark.parametrize("spec, roles", [
    (MPI, ("launcher", "worker")),
    ({**MPI, "framework": "pytorch"}, ("master", "worker")),
    ({**MPI, "framework": "tensorflow"}, ("worker",)),
    ({**MPI, "framework": "tensorflow", "tensorflow": {"evaluator": {}, "ps": {"replicas": 2}}},
     ("ps", "worker", "evaluator")),
])
def test_roles_are_the_jobs_replica_types_in_its_order(spec: dict, roles: tuple) -> None:
    assert roles_of(spec) == roles
    assert tuple(expand(spec)["roles"]) == roles


def test_maps_merge_lists_replace_null_removes() -> None:
    spec = {**MPI, "framework": "pytorch",
            "nodeSelector": {"pool": "train", "gpu": "a100"},
            "tolerations": [{"key": "a", "operator": "Exists"}],
            "securityContext": {"runAsUser": 1000, "capabilities": {"add": ["IPC_LOCK"]}},
            "labels": {"team": "vision"},
            "roles": {"worker": {"nodeSelector": {"gpu": "h100", "pool": None},
                                 "tolerations": [{"key": "b", "operator": "Exists"}],
                                 "securityContext": {"capabilities": {"add": ["SYS_PTRACE"]}},
                                 "labels": None}}}
    before = copy.deepcopy(spec)
    worker, master = settings(spec, "worker"), settings(spec, "master")
    assert worker["nodeSelector"] == {"gpu": "h100"}
    assert worker["tolerations"] == [{"key": "b", "operator": "Exists"}]
    assert worker["securityContext"] == {"runAsUser": 1000, "capabilities": {"add": ["SYS_PTRACE"]}}
    assert worker["labels"] == {}
    assert master["nodeSelector"] == {"gpu": "a100", "pool": "train"}
    assert master["tolerations"] == [{"key": "a", "operator": "Exists"}]
    assert spec == before


def test_resources_replace_whole_and_the_mpi_launcher_has_none_of_its_own() -> None:
    spec = {**MPI, "resources": {"gpu": 8, "cpu": "16"}, "roles": {"worker": {"resources": {"cpu": "4"}}}}
    assert settings(spec, "worker")["resources"] == {"cpu": "4"}
    assert settings(spec, "launcher")["resources"] == {}
    as_worker = {**MPI, "resources": {"gpu": 8}, "mpi": {"runLauncherAsWorker": True}}
    assert settings(as_worker, "launcher")["resources"] == {"gpu": 8}
    pytorch = {**MPI, "framework": "pytorch", "resources": {"gpu": 8}}
    assert settings(pytorch, "master")["resources"] == {"gpu": 8}


def test_an_mpi_worker_gets_none_of_the_programs_settings() -> None:
    spec = {**MPI, "args": ["--epochs=3"], "env": {"A": "1"}, "envFrom": [{"configMapRef": {"name": "c"}}],
            "roles": {"worker": {"env": {"B": "2"}}}}
    worker, launcher = settings(spec, "worker"), settings(spec, "launcher")
    assert (worker["command"], worker["args"], worker["envFrom"]) == (None, None, None)
    assert worker["env"] == {"B": "2"}
    assert launcher["env"] == {"A": "1"} and launcher["args"] == ["--epochs=3"]
    assert launcher["command"] == ["python", "train.py"]


def test_the_older_role_blocks_are_the_same_settings() -> None:
    older = {**MPI, "mpi": {"launcher": {"image": "launcher:1", "resources": {"cpu": "1"},
                                         "priorityClassName": "high"}}}
    newer = {**MPI, "roles": {"launcher": {"image": "launcher:1", "resources": {"cpu": "1"},
                                           "priorityClassName": "high"}}}
    assert settings(older, "launcher") == settings(newer, "launcher")
    tf = {**MPI, "framework": "tensorflow", "tensorflow": {"ps": {"replicas": 2, "image": "ps:1"}}}
    assert settings(tf, "ps")["image"] == "ps:1" and settings(tf, "worker")["image"] == "horovod:1"


def test_priority_class_defaults_and_null_removes_it() -> None:
    spec = {**MPI, "scheduling": {"gang": "volcano", "priorityClass": "high"},
            "roles": {"worker": {"priorityClassName": None}}}
    assert settings(spec, "launcher")["priorityClassName"] == "high"
    assert settings(spec, "worker")["priorityClassName"] is None
    kueue = {**MPI, "scheduling": {"gang": "kueue", "queue": "q", "priorityClass": "workload-high"}}
    assert settings(kueue, "worker")["priorityClassName"] is None  # a WorkloadPriorityClass, not the pods'


def test_patches_apply_job_wide_first_and_every_field_is_there() -> None:
    job_patch = {"spec": {"hostIPC": True}}
    own_patch = {"metadata": {"labels": {"x": "y"}}}
    spec = {**MPI, "podTemplatePatch": job_patch, "roles": {"worker": {"podTemplatePatch": own_patch}}}
    worker = role_settings(spec, "worker")
    assert worker["podTemplatePatches"] == [(("spec", "podTemplatePatch"), job_patch),
                                            (("spec", "roles", "worker", "podTemplatePatch"), own_patch)]
    assert role_settings(spec, "launcher")["podTemplatePatches"] == [(("spec", "podTemplatePatch"), job_patch)]
    assert set(worker) == (set(POD_FIELDS) - {"podTemplatePatch"}) | {"podTemplatePatches"}
