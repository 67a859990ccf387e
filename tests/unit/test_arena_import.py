"""mpigen.importers.arena: arena command lines -> specs (pure), flag syntax as pflag reads it."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from mpigen.diagnostics import Severity
from mpigen.importers.arena import ArenaUsageError, import_arena, split_command_line
from mpigen.importers.arena_flags import FLAGS, flags_markdown, parse_duration_seconds, parse_int

ROOT = Path(__file__).resolve().parents[2]
CASES = sorted(p for p in (ROOT / "tests" / "cases" / "arena").iterdir() if p.is_dir())
BASE = ["arena", "submit"]


def _spec(*argv: str) -> dict:
    spec, diagnostics = import_arena(list(argv))
    assert [d for d in diagnostics if d.severity is Severity.ERROR] == [], diagnostics
    return spec["spec"] if "spec" in spec else spec


def _codes(*argv: str) -> list[tuple[str, str]]:
    return [(d.code, d.path) for d in import_arena(list(argv))[1] if d.severity is Severity.ERROR]


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_guide_command_imports_as_reviewed(case: Path) -> None:
    text = (case / "command.txt").read_text()
    assert text.startswith("# Source: "), "each case names the guide it comes from"
    spec, diagnostics = import_arena(split_command_line(text))
    errors = sorted({d.code for d in diagnostics if d.severity is Severity.ERROR})
    if (case / "expected-errors.txt").exists():
        assert errors == (case / "expected-errors.txt").read_text().split()
    else:
        assert errors == [], diagnostics
        assert spec == yaml.safe_load((case / "expected.yaml").read_text())


def test_flag_syntax_as_pflag_reads_it() -> None:
    spec = _spec("submit", "mpi", "--name", "j", "--image=i", "-e", "A=1", "-eB=2", "-e=C=x=y", "--gpus", "2",
                 "--gang=false", "--workers=0x3", "mpirun", "python", "t.py")
    assert spec["env"] == {"A": "1", "B": "2", "C": "x=y"}
    assert spec["resources"] == {"gpu": 2} and spec["workers"] == 3 and "scheduling" not in spec
    assert spec["command"] == ["sh", "-c", "mpirun python t.py"]
    # flags after the command, `--` ending the flags, global flags before `submit`, the shell
    spec = _spec("arena", "-n", "team", "--loglevel", "debug", "submit", "pytorchjob", "python x.py", "--name", "j",
                 "--image", "i", "--shell", "bash", "--", "--name", "k")
    assert spec["command"] == ["bash", "-c", "python x.py --name k"]
    assert import_arena(["submit", "pytorch", "--name=j", "--image=i", "-n=ns", "c"])[0]["metadata"] == {
        "name": "j", "namespace": "ns"}


def test_every_unknown_or_unsupported_flag_is_reported_at_once() -> None:
    assert _codes("submit", "tf", "--name=j", "--image=i", "--cpu=1", "--bogus", "--rdma", "--config-file=a:/b",
                  "--worker-selector", "a=b", "python x") == [
        ("arena-flag", "--cpu"), ("arena-flag", "--bogus"), ("arena-unsupported", "--rdma"),
        ("arena-unsupported", "--config-file"), ("arena-unsupported", "--worker-selector")]
    # defaults given explicitly are no problem
    assert _codes("submit", "tf", "--name=j", "--image=i", "--rdma=false", "--success-policy=ChiefWorker",
                  "--worker-cpu=1", "--worker-cpu-limit=1", "x") == []


def test_required_flags_and_command() -> None:
    assert _codes("submit", "mpi") == [("arena-required", "--name"), ("arena-required", "--image"),
                                       ("arena-required", "command")]
    assert _codes("submit", "tf", "--name=j", "--worker-image=w", "x") == []
    assert _codes("submit", "mpi", "--name=Bad_Name", "--image=i", "x") == [("arena-value", "--name")]
    assert _codes("submit", "mpi", "--name=j", "--image=i", "--gpus=two", "cmd") == [("arena-value", "--gpus")]
    assert _codes("submit", "mpi", "--name=j", "--image") == [("arena-value", "--image"),
                                                              ("arena-required", "--image"),
                                                              ("arena-required", "command")]


def test_usage_errors() -> None:
    for argv in ([], ["arena", "list"], ["submit"], ["submit", "nonsense"]):
        with pytest.raises(ArenaUsageError):
            import_arena(argv)
    assert _codes("submit", "horovodjob", "--name=j") == [("arena-kind", "")]


def test_pytorch_workers_count_the_master() -> None:
    base = ["submit", "pytorch", "--name=j", "--image=i"]
    assert _spec(*base, "x")["workers"] == 0
    assert _spec(*base, "--workers=4", "x")["workers"] == 3
    assert _codes(*base, "--workers=0", "x") == [("arena-value", "--workers")]


def test_tensorflow_roles() -> None:
    base = ["submit", "tf", "--name=j", "--image=i"]
    standalone = _spec(*base, "x")
    assert standalone["workers"] == 0 and standalone["tensorflow"] == {"chief": {"resources": {}}}
    spec = _spec(*base, "--workers=3", "--ps=2", "--ps-cpu=2", "--ps-gpus=1", "--gpus=1", "--evaluator",
                 "--evaluator-memory=1Gi", "--worker-port=3000", "--ps-port=3000", "x")
    assert spec["workers"] == 3 and spec["image"] == "i"
    assert spec["tensorflow"] == {"port": 3000, "ps": {"replicas": 2, "image": "i", "resources": {"gpu": 1, "cpu": "2"}},
                                  "evaluator": {"resources": {"gpu": 1, "memory": "1Gi"}}}
    assert _codes(*base, "--workers=0", "x") == [("arena-value", "--workers")]
    assert _codes(*base, "--workers=2", "--worker-port=1", "--ps-port=2", "--ps=1", "x") == [
        ("arena-unsupported", "--worker-port")]


def test_tolerations() -> None:
    base = ["submit", "mpi", "--name=j", "--image=i"]
    spec = _spec(*base, "--toleration", "k=v:NoSchedule,Equal", "--toleration=all", "--toleration=ignored", "mpirun x")
    assert spec["tolerations"] == [{"key": "k", "operator": "Equal", "value": "v", "effect": "NoSchedule"},
                                   {"operator": "Exists"}]
    _, diagnostics = import_arena([*base, "--toleration", "gpu", "mpirun x"])
    assert [d.code for d in diagnostics] == ["arena-differs"]
    assert _codes(*base, "--toleration", "k=v:Never,Equal", "mpirun x") == [("arena-value", "--toleration")]


def test_volumes_tensorboard_and_code() -> None:
    base = ["submit", "pytorch", "--name=j", "--image=i"]
    spec = _spec(*base, "-d", "logs:/logs", "--data-dir", "/mnt/a", "--data-dir=/mnt/b:/b", "--tensorboard",
                 "--logdir", "/logs/run1", "--sync-mode=rsync", "--sync-source=10.0.0.5::code", "--working-dir=/w", "x")
    assert spec["volumes"] == [{"claimName": "logs", "mountPath": "/logs"},
                               {"hostPath": "/mnt/a", "mountPath": "/mnt/a", "name": "training-data-0"},
                               {"hostPath": "/mnt/b", "mountPath": "/b", "name": "training-data-1"}]
    assert spec["tensorboard"] == {"logDir": "/logs/run1", "serviceType": "NodePort"}
    assert spec["code"] == {"mountPath": "/w/code", "rsync": {"source": "10.0.0.5::code"}}
    # a claim name of one character is refused by arena too (util.validateVPCName)
    assert sorted(_codes(*base, "-d", "x", "--data=ab:/b", "--data=ab:/c", "--data=a:/d", "--data-dir=rel",
                         "--sync-mode=hdfs", "x")) == [
        ("arena-value", "--data"), ("arena-value", "--data"), ("arena-value", "--data"),
        ("arena-value", "--data-dir"), ("arena-value", "--sync-mode")]
    spec = _spec(*base, "--sync-mode=git", "--sync-source=https://g/r.git", "-e", "GIT_SYNC_BRANCH=dev",
                 "-e", "GIT_SYNC_DEPTH=3", "-e", "OTHER=1", "x")
    assert spec["code"]["git"] == {"repository": "https://g/r.git", "revision": "dev", "depth": 3}
    assert spec["env"] == {"OTHER": "1"}


def test_run_policy_and_scheduling() -> None:
    spec = _spec("submit", "pytorch", "--name=j", "--image=i", "--retry=3", "--running-timeout=1h30m",
                 "--ttl-after-finished=90s", "--clean-task-policy=None", "--gang", "--queue", "--label", "a=b",
                 "--annotation=c=d", "--priority=high", "--share-memory=", "x")
    assert spec["runPolicy"] == {"cleanPodPolicy": "None", "backoffLimit": 3, "activeDeadlineSeconds": 5400,
                                 "ttlSecondsAfterFinished": 90}
    assert spec["scheduling"] == {"gang": "scheduler-plugins", "schedulerName": "default-scheduler"}
    assert spec["annotations"] == {"c": "d", "scheduling.x-k8s.io/suspend": "true"}
    assert spec["priorityClassName"] == "high" and "shmSize" not in spec
    full = import_arena(["submit", "mpi", "--name=j", "--image=i", "--label=a=b", "--gputopology", "mpirun x"])[0]
    assert full["metadata"]["labels"] == {"a": "b"}
    assert full["spec"]["scheduling"] == {"gpuTopology": True} and "shmSize" not in full["spec"]
    assert full["spec"]["runPolicy"]["cleanPodPolicy"] == "All"


def test_queue_is_explained_as_arena_means_it() -> None:
    """arena's --queue is Kube-Queue's suspend switch, not a queue name: the import says so."""
    argv = ["submit", "pytorch", "--name=j", "--image=i"]
    spec, diagnostics = import_arena([*argv, "--queue", "x"])
    assert spec["metadata"]["annotations"] == {"scheduling.x-k8s.io/suspend": "true"}
    [note] = diagnostics
    assert (note.code, note.severity, note.path) == ("arena-queue", Severity.WARNING, "--queue")
    assert note.message.startswith("arena's --queue is not a queue name: it is Kube-Queue's switch, which creates "
                                   'the job suspended (annotation scheduling.x-k8s.io/suspend: "true")')
    assert "set spec.scheduling.queue" in note.message
    [error] = import_arena([*argv, "--queue=research", "x"])[1]
    assert (error.code, error.severity, error.path) == ("arena-value", Severity.ERROR, "--queue")
    assert error.message.startswith("--queue 'research': arena's --queue is not a queue name")
    assert "a Kueue LocalQueue named 'research', drop --queue and set spec.scheduling.queue" in error.message
    assert import_arena([*argv, "--queue=false", "x"])[1] == []


def test_mpi_command_without_mpirun_runs_under_mpigens_mpirun() -> None:
    spec, diagnostics = import_arena(["submit", "mpi", "--name=j", "--image=i", "python train.py"])
    assert "mpi" not in spec["spec"] and [d.code for d in diagnostics] == ["arena-differs"]
    assert _spec("submit", "mpi", "--name=j", "--image=i", "horovodrun -np 2 python t.py")["mpi"] == {"mpirun": False}


def test_value_parsers_follow_go() -> None:
    assert parse_duration_seconds("2h22m") == 8520 and parse_duration_seconds("1.9s") == 1
    assert parse_duration_seconds("0") == 0
    for bad in ("", "5", "1d", "h"):
        with pytest.raises(ValueError):
            parse_duration_seconds(bad)
    assert (parse_int("010"), parse_int("0x10"), parse_int("-7")) == (8, 16, -7)


def test_split_command_line_reads_a_pasted_guide_command() -> None:
    assert split_command_line("# note\n$ arena submit mpi \\\n  --name=a \\\n  'mpirun x'\n") == [
        "arena", "submit", "mpi", "--name=a", "mpirun x"]


def test_docs_flag_table_is_generated_from_the_flag_table() -> None:
    text = (ROOT / "docs" / "arena.md").read_text()
    begin, end = "<!-- flags:begin (mpigen import arena --flags-table) -->\n", "<!-- flags:end -->"
    assert text[text.index(begin) + len(begin):text.index(end)] == flags_markdown()
    assert len({f.name for f in FLAGS}) == len(FLAGS)
