"""The command line as a user meets it: exit codes, messages with positions, no tracebacks."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from mpigen.main import main
from tests.golden.cases import ROOT, run

CASES = ROOT / "tests" / "cases" / "specs"
INVALID = sorted((CASES / "invalid").glob("*.yaml"))
VALID = sorted((CASES / "valid").glob("*.yaml"))
LINE = re.compile(r"^(?P<file>[^:]+):(?P<line>\d+):(?P<col>\d+): (?P<sev>error|warning|info) (?P<code>[a-z0-9-]+) ")


def test_the_spec_cases_are_found() -> None:
    """The cases are read from folders: one that moves or empties is caught here, not skipped."""
    assert len(INVALID) >= 38 and len(VALID) >= 6, (len(INVALID), len(VALID))


def _expectations(path: Path) -> tuple[set[tuple[int, int, str]], list[str]]:
    text = path.read_text()
    expect = {(int(m[1]), int(m[2]), m[3]) for m in re.finditer(r"^# expect: (\d+):(\d+) (\S+)$", text, re.M)}
    options = re.search(r"^# options: (.*)$", text, re.M)
    return expect, options[1].split() if options else []


@pytest.mark.parametrize("path", INVALID, ids=[p.stem for p in INVALID])
def test_invalid_spec_is_reported_at_the_right_place(path: Path) -> None:
    expect, options = _expectations(path)
    assert expect, f"{path.name} declares no '# expect: LINE:COL CODE'"
    code, out, err = run(["build", str(path.relative_to(ROOT)), *options])
    assert code == 1, err
    assert out == ""
    assert "Traceback" not in err
    errors = set()
    for line in err.splitlines():
        match = LINE.match(line)
        assert match, f"not a diagnostic line: {line!r}"
        assert match["file"] == str(path.relative_to(ROOT))
        if match["sev"] == "error":
            errors.add((int(match["line"]), int(match["col"]), match["code"]))
    assert errors == expect, err


def test_object_tags_are_never_executed(tmp_path: Path) -> None:
    marker = Path("/tmp/mpigen-pwned")
    marker.unlink(missing_ok=True)
    run(["build", "tests/cases/specs/invalid/object-tag.yaml"])
    assert not marker.exists()


@pytest.mark.parametrize("path", VALID, ids=[p.stem for p in VALID])
def test_valid_spec_builds(path: Path) -> None:
    code, out, err = run(["build", str(path.relative_to(ROOT))])
    assert code == 0, err
    docs = [d for d in yaml.safe_load_all(out) if d]
    assert [d["kind"] for d in docs] == ["MPIJob"]


def test_ten_thousand_workers_compile_to_exact_sums() -> None:
    code, out, err = run(["build", "tests/cases/specs/valid/ten-thousand-workers.yaml"])
    assert code == 0, err
    job = yaml.safe_load(out)
    policy = job["spec"]["runPolicy"]["schedulingPolicy"]
    assert policy["minAvailable"] == 10001
    assert policy["minResources"] == {"cpu": "960k", "memory": "10000Ti", "nvidia.com/gpu": "80k"}
    command = job["spec"]["mpiReplicaSpecs"]["Launcher"]["template"]["spec"]["containers"][0]["command"]
    assert command[command.index("-np") + 1] == "80000"


def test_launcher_as_worker_counts_the_launcher() -> None:
    code, out, err = run(["build", "tests/cases/specs/valid/launcher-as-worker.yaml"])
    assert code == 0, err
    job = yaml.safe_load(out)
    spec = job["spec"]
    assert "Worker" not in spec["mpiReplicaSpecs"]
    assert spec["runLauncherAsWorker"] is True
    launcher = spec["mpiReplicaSpecs"]["Launcher"]["template"]["spec"]["containers"][0]
    assert launcher["command"][:3] == ["mpirun", "-np", "4"]
    assert launcher["resources"]["limits"]["nvidia.com/gpu"] == "4"


def test_stdin_is_read_with_dash() -> None:
    spec = (CASES / "valid" / "minimal.yaml").read_bytes()
    result = subprocess.run([sys.executable, "-m", "mpigen", "build", "-"], input=spec, capture_output=True,
                            cwd=ROOT, check=False)
    assert result.returncode == 0, result.stderr
    assert yaml.safe_load(result.stdout)["metadata"]["name"] == "minimal"


@pytest.mark.parametrize("args, message", [
    (["build", "does/not/exist.yaml"], "cannot read"),
    (["build", "specs"], "is a directory"),
    (["build", "specs/scheduler-plugins-envs.yaml", "--env", "staging"], "no such environment"),
    (["build", "specs/horovod-volcano.yaml", "--operator-version", "banana"], "not an operator version"),
    (["build", "specs/horovod-volcano.yaml", "--operator-version", "v0.3.0"], "not supported"),
    (["build", "specs/scheduler-plugins-envs.yaml", "--env", "dev", "-o", "x"], "do not go together"),
    (["build", "specs/horovod-volcano.yaml", "--bogus"], "No such option"),
    (["podgroup", "specs/horovod-volcano.yaml", "--env", "prod"], "no such environment"),
    (["explain", "specs/horovod-volcano.yaml", "--env", "prod"], "no such environment"),
])
def test_usage_and_io_errors_exit_2(args: list[str], message: str) -> None:
    code = main(args)
    assert code == 2
    result = subprocess.run([sys.executable, "-m", "mpigen", *args], capture_output=True, text=True, cwd=ROOT,
                            check=False)
    assert result.returncode == 2
    assert message in result.stderr
    assert "Traceback" not in result.stderr


def test_unreadable_file_exits_2(tmp_path: Path, monkeypatch, capsys) -> None:
    path = tmp_path / "spec.yaml"
    path.write_text("a: 1\n")

    def denied(name, *args, **kwargs):  # tests may run as root, who reads every file: simulate the refusal
        raise PermissionError(13, "Permission denied", str(name))

    from mpigen.load import files

    monkeypatch.setattr(files, "open", denied, raising=False)  # the module reads inputs with open()
    assert main(["build", str(path)]) == 2
    assert "cannot read: Permission denied" in capsys.readouterr().err


def test_internal_error_exits_3_without_traceback(monkeypatch, capsys) -> None:
    from mpigen import pipeline

    def boom(*args, **kwargs):
        raise RuntimeError("synthetic bug")

    monkeypatch.setattr(pipeline, "compile_specs", boom)  # what mpigen.build (and so the command) calls
    assert main(["build", "specs/horovod-volcano.yaml"]) == 3
    err = capsys.readouterr().err
    assert "internal error: RuntimeError: synthetic bug" in err
    assert "Traceback" not in err


def test_warnings_do_not_fail_the_build() -> None:
    code, out, err = run(["build", "specs/priority-order.yaml"])
    assert code == 0
    assert "warning priority-order" in err
    code, out, err = run(["build", "specs/priority-order.yaml", "--cluster", "specs/cluster/priorityclasses.yaml"])
    assert code == 0 and "priority-order" not in err


def test_cluster_file_changes_min_resources() -> None:
    _, without, _ = run(["build", "specs/priority-order.yaml"])
    _, with_cluster, _ = run(["build", "specs/priority-order.yaml", "--cluster", "specs/cluster/priorityclasses.yaml"])
    policy = lambda text: yaml.safe_load(text)["spec"]["runPolicy"]["schedulingPolicy"]["minResources"]
    assert policy(without) == {"cpu": "66", "memory": "516Gi", "nvidia.com/gpu": "16"}
    # launcher-low < gpu-training: the launcher is the lower entry and is counted minAvailable-1 = 4 times.
    assert policy(with_cluster) == {"cpu": "136", "memory": "1040Gi", "nvidia.com/gpu": "32"}
