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
        # a TrainingRuntime written beside a TrainJob is a runtime of the cluster: --cluster gives it
        cluster = ["--cluster", str(result)] if "kind: TrainingRuntime" in out else []
        code, report, summary = run(["validate", str(result), *cluster])
        assert code == 0, report + summary
        assert " error " not in report


TRAINJOB = [n for n in NAMES if "trainjob" in _case(n)[0]]


def test_the_trainjob_cases_are_found() -> None:
    assert {"trainjob-mpi-pi", "trainjob-mpi-tensorflow-benchmarks", "trainjob-pytorch-simple",
            "trainjob-pytorch-mnist", "trainjob-refused"} <= set(TRAINJOB)


@pytest.mark.parametrize("name", [n for n in TRAINJOB if _case(n)[1] == 0])
def test_trainjob_cases_explain_to_the_same_gang(name: str, tmp_path: Path) -> None:
    """Issue 13's done-when: migrate's output explains to the same gang as the original. The
    report says so, and mpigen podgroup of the output prints the PodGroup of the input."""
    args, _ = _case(name)
    source = f"tests/cases/migrate/{name}/input.yaml"
    err = (CASES / name / "expected.stderr").read_text()
    gang = [line for line in err.splitlines() if " trainjob-gang " in line]
    assert len(gang) == 1 and " info trainjob-gang " in gang[0], gang
    gang_args = args[args.index("--gang"):args.index("--gang") + 2] if "--gang" in args else []
    code, before, _ = run(["podgroup", source, *gang_args])
    result = tmp_path / "migrated.yaml"
    result.write_text((CASES / name / "expected.yaml").read_text())
    cluster = ["--cluster", str(result)] if "kind: TrainingRuntime" in result.read_text() else []
    code_after, after, _ = run(["podgroup", str(result), *cluster])
    if "no gang before or after" in gang[0]:
        assert code == 1 and after == "", (before, after)
        return
    old, new = yaml.safe_load(before)["spec"], yaml.safe_load(after)["spec"]
    assert code == 0 and code_after == 0
    assert old["minMember"] == new["minMember"]
    assert old.get("queue", "default" if "queue" in new else None) == new.get("queue", "default" if "queue" in old
                                                                                else None)
    assert old.get("priorityClassName") == new.get("priorityClassName")
    assert {k: v for k, v in (old.get("minResources") or {}).items() if v not in ("0", 0)} == (
        new.get("minResources") or {})


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


def test_trainjob_result_errors_are_placed_at_the_input(tmp_path: Path) -> None:
    """--to trainjob writes two documents for one MPIJob; a finding on the TrainJob (its name is no
    DNS-1035 label) is placed at the input document it came from, on stdout and with -o alike."""
    source = tmp_path / "old.yaml"
    text = (CASES / "trainjob-mpi-pi" / "input.yaml").read_text().replace("name: pi\n", "name: 1.pi\n")
    source.write_text("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n---\n" + text)
    line = text.count("\n", 0, text.index("name: 1.pi")) + 5
    code, out, err = run(["migrate", str(source), "--to", "trainjob"])
    assert code == 1
    assert f"{source}:{line}:9: error schema metadata.name must match RFC 1035" in err, err
    target = tmp_path / "new.yaml"
    code, out, err = run(["migrate", str(source), "--to", "trainjob", "-o", str(target)])
    found = [x for x in err.splitlines() if " error schema " in x]
    assert code == 1 and len(found) == 1 and found[0].startswith(f"{target}:")
    assert target.read_text().splitlines()[int(found[0].split(":")[1]) - 1].strip() == "name: 1.pi"


def test_gang_is_only_for_trainjob() -> None:
    code, out, err = run(["migrate", "tests/cases/migrate/horovod-v1alpha2/input.yaml", "--gang", "volcano"])
    assert code == 2 and "--gang is for --to trainjob" in err


def test_trainjob_findings_in_a_list_are_placed_at_the_item_they_come_from(tmp_path: Path) -> None:
    """A List's MPIJob item becomes two items (TrainingRuntime, TrainJob): a finding on the third
    output item is placed at the second input item; one on a field made of another old field
    (spec.trainer.command, from the launcher's command) at that old field, naming both."""
    source = tmp_path / "list.yaml"
    source.write_text(
        "apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: ConfigMap, metadata: {name: c}}\n"
        "- apiVersion: kubeflow.org/v2beta1\n  kind: MPIJob\n  metadata: {name: 1.pi}\n  spec:\n"
        "    mpiReplicaSpecs:\n      Launcher:\n        template:\n          spec:\n"
        "            containers: [{name: l, image: i, command: mpirun}]\n"
        "      Worker: {replicas: 1, template: {spec: {containers: [{name: w, image: i}]}}}\n")
    code, out, err = run(["migrate", str(source), "--to", "trainjob"])
    assert code == 1
    lines = err.splitlines()
    assert (f"{source}:7:20: error schema metadata.name must match RFC 1035 DNS label format (the CRD's validation "
            "rule: self.metadata.name.matches('^[a-z]([-a-z0-9]*[a-z0-9])?$')) (in the output: items[2].metadata.name) "
            "(items[1].metadata.name)") in lines, err
    assert (f"{source}:13:55: error schema expected a list, got a string \"mpirun\" (in the output: "
            "items[2].spec.trainer.command) (items[1].spec.mpiReplicaSpecs.Launcher.template.spec.containers[0]"
            ".command)") in lines, err
