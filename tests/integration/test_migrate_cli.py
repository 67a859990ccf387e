"""``mpigen migrate`` through the real command line, on the cases of ``tests/cases/migrate/``.

Each folder holds ``input.yaml`` (an old manifest: the classic upstream examples name their
source in a comment), ``expected.yaml`` (stdout, reviewed), ``expected.stderr`` (the change
report) and optionally ``case.yaml`` (``args``: extra options, ``exit``: the exit code, default 0).
Every migrated result must pass ``mpigen validate`` itself, run as a separate command.
Set ``MPIGEN_REGENERATE=1`` to rewrite the expected files (then review the diff).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tests.golden.cases import ROOT, run

CASES = ROOT / "tests" / "cases" / "migrate"
NAMES = sorted(p.name for p in CASES.iterdir() if (p / "input.yaml").is_file())


def _case(name: str) -> tuple[list[str], int]:
    config = CASES / name / "case.yaml"
    data = yaml.safe_load(config.read_text()) if config.is_file() else {}
    return [str(a) for a in data.get("args", [])], int(data.get("exit", 0))


def test_the_cases_are_found() -> None:
    assert {"horovod-v1alpha2", "tfjob-kube-batch-v1beta1", "tensorflow-benchmarks-v1alpha1",
            "mpijob-v1-training-operator", "pytorch-mnist-v1beta2", "tfjob-v1alpha1-not-migratable"} <= set(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_case(name: str, tmp_path: Path) -> None:
    args, want_exit = _case(name)
    source = f"tests/cases/migrate/{name}/input.yaml"
    code, out, err = run(["migrate", source, *args])
    folder = CASES / name
    if os.environ.get("MPIGEN_REGENERATE"):
        (folder / "expected.yaml").write_text(out)
        (folder / "expected.stderr").write_text(err)
    assert code == want_exit, err
    assert out == (folder / "expected.yaml").read_text()
    assert err == (folder / "expected.stderr").read_text()
    if want_exit == 0:  # the result passes mpigen validate, run as its own command
        result = tmp_path / "migrated.yaml"
        result.write_text(out)
        code, report, summary = run(["validate", str(result)])
        assert code == 0, report + summary
        assert " error " not in report


def test_acceptance_fixtures_become_current_apis() -> None:
    """Issue 5's done-when: the Horovod v1alpha2 MPIJob and the kube-batch TFJob v1beta1 migrate."""
    horovod = yaml.safe_load((CASES / "horovod-v1alpha2" / "expected.yaml").read_text())
    assert horovod["apiVersion"] == "kubeflow.org/v2beta1"
    assert horovod["spec"]["runPolicy"] == {"cleanPodPolicy": "Running"} and "cleanPodPolicy" not in {
        k for k in horovod["spec"] if k != "runPolicy"}
    tfjob = yaml.safe_load((CASES / "tfjob-kube-batch-v1beta1" / "expected.yaml").read_text())
    assert tfjob["apiVersion"] == "kubeflow.org/v1"
    assert all(r["template"]["spec"]["schedulerName"] == "kube-batch" for r in tfjob["spec"]["tfReplicaSpecs"].values())
    assert "scheduling.gang: kube-batch" in (CASES / "tfjob-kube-batch-v1beta1" / "expected.stderr").read_text()


def test_stdin_and_output_file(tmp_path: Path) -> None:
    source = CASES / "horovod-v1alpha2" / "input.yaml"
    target = tmp_path / "out.yaml"
    proc = subprocess.run([sys.executable, "-m", "mpigen", "migrate", "-", "-o", str(target)],
                          input=source.read_bytes(), capture_output=True, cwd=ROOT, check=False)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == b""
    assert target.read_text() == (CASES / "horovod-v1alpha2" / "expected.yaml").read_text()
    assert b"<stdin>:9:3: info migrated-field spec.cleanPodPolicy -> spec.runPolicy.cleanPodPolicy" in proc.stderr


def test_stdin_to_stdout_names_stdin_never_stdout() -> None:
    """The result's own errors are placed at the input (stdout is no file to open at a line)."""
    source = CASES / "invalid-result" / "input.yaml"
    proc = subprocess.run([sys.executable, "-m", "mpigen", "migrate", "-"], input=source.read_bytes(),
                          capture_output=True, cwd=ROOT, check=False)
    assert proc.returncode == 1, proc.stderr
    err = proc.stderr.decode()
    assert "<stdout>" not in err
    assert ("<stdin>:16:17: error mpijob-invalid the operator rejects this MPIJob: Invalid value: 0: must be greater "
            "than or equal to 1 (spec.mpiReplicaSpecs.Worker.replicas)") in err.splitlines()


@pytest.mark.parametrize("args, message", [
    (["migrate", "tests/cases/migrate/does-not-exist.yaml"], "cannot read"),
    (["migrate", "tests/cases/migrate"], "is a directory"),
    (["migrate", "tests/cases/migrate/horovod-v1alpha2/input.yaml", "--gpus-per-node", "-1"], "-1"),
])
def test_usage_and_io_errors_exit_2(args: list[str], message: str) -> None:
    code, out, err = run(args)
    assert code == 2, err
    assert out == ""
    assert message in err


def test_bad_yaml_exits_1_without_a_traceback(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("apiVersion: [kubeflow.org/v1alpha2\n")
    code, out, err = run(["migrate", str(bad)])
    assert code == 1
    assert "yaml-syntax" in err and "Traceback" not in err


@pytest.mark.parametrize("resources", ["{limits: null}", "null", "x"])
def test_v1alpha1_gpus_with_odd_container_resources_migrate(tmp_path: Path, resources: str) -> None:
    """migrate reads unchecked manifests: a null or non-map resources is replaced, never a crash."""
    source = tmp_path / "old.yaml"
    source.write_text("apiVersion: kubeflow.org/v1alpha1\nkind: MPIJob\nmetadata: {name: m}\nspec:\n  gpus: 2\n"
                      f"  template: {{spec: {{containers: [{{name: c, image: i, resources: {resources}}}]}}}}\n")
    code, out, err = run(["migrate", str(source)])
    assert code == 0, err
    worker = yaml.safe_load(out)["spec"]["mpiReplicaSpecs"]["Worker"]
    assert worker["template"]["spec"]["containers"][0]["resources"]["limits"] == {"nvidia.com/gpu": 1}
