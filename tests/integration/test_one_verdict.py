"""The same job, the same answer: ``mpigen validate``, ``explain`` and ``podgroup`` find the jobs
of a file in one way (documents, ``kind: List`` items, mpigen specs compiled) and judge each as
validate does, so that an error validate reports is reported, at the same line, by explain and
podgroup, which then print nothing (exit 1). Both infer the gang scheduler from the pod templates
as explain always did; ``--gang`` only overrides it.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml

from tests.golden.cases import ROOT, run

# Every manifest of the lint cases, the validate cases and the goldens that holds a job.
CORPUS = sorted(p for p in [*(ROOT / "tests" / "cases" / "lint").rglob("*.yaml"),
                            *(ROOT / "tests" / "cases" / "validate").glob("*.yaml"),
                            *(ROOT / "golden").glob("*/*.yaml")]
                if p.name != "case.yaml" and re.search(r"^kind: (MPIJob|PyTorchJob|TFJob|List)$", p.read_text(), re.M))
LINE = re.compile(r"^(?P<file>[^:]+):(?P<line>\d+):(?P<col>\d+): (?P<sev>error|warning|info) (?P<code>[a-z0-9-]+) ")
# What the controllers' ports add: a job validate accepts that the operator creates nothing for.
OPERATOR_CODES = {"not-created", "operator-crash", "nondeterministic"}
GANG = re.compile(r"^# options: .*\"gang\": \"([a-z-]+)\"", re.M)


def _errors(err: str) -> set[tuple[int, str]]:
    return {(int(m["line"]), m["code"]) for m in map(LINE.match, err.splitlines()) if m and m["sev"] == "error"}


def _validate_errors(path: Path, gang: list[str]) -> set[tuple[int, str]]:
    code, out, _ = run(["validate", str(path), "--format", "json", "--config", str(ROOT / "pyproject.toml"), *gang])
    return {(d["line"], d["code"]) for d in json.loads(out)["diagnostics"] if d["severity"] == "error"}


def test_the_corpus_has_jobs_with_and_without_errors() -> None:
    bad = [p for p in CORPUS if p.name.startswith("bad")]
    assert len(CORPUS) > 80 and len(bad) > 30, (len(CORPUS), len(bad))


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: str(p.relative_to(ROOT)))
def test_explain_and_podgroup_report_what_validate_reports(path: Path) -> None:
    rel = path.relative_to(ROOT)
    option = GANG.search(path.read_text())
    gang = ["--gang", option[1]] if option else []
    # podgroup needs a gang: the case's, else Volcano (a job that shows none gets no PodGroup);
    # validate is told the same (the operator's --gang-scheduling)
    pgang = gang if gang and gang[1] != "none" else ["--gang", "volcano"]
    for name, args, told in (("explain", gang, gang), ("podgroup", pgang, pgang)):
        want = _validate_errors(rel, told)
        code, out, err = run([name, str(rel), *args])
        got = {(line, c) for line, c in _errors(err) if c not in OPERATOR_CODES}
        assert got == want, f"mpigen {name} {rel}: {sorted(got)} != validate's {sorted(want)}\n{err}"
        if want:
            assert code == 1 and out == "", f"mpigen {name} {rel}"

def _mpijob(min_available: int | None = None, scheduler: str | None = "volcano") -> dict:
    def template(name: str, command: list[str]) -> dict:
        spec = {"containers": [{"name": name, "image": "mpioperator/mpi-pi:openmpi", "command": command}]}
        if scheduler:
            spec["schedulerName"] = scheduler
        return {"metadata": {"annotations": {"sidecar.istio.io/inject": "false"}}, "spec": spec}

    policy = {"minAvailable": min_available} if min_available is not None else {}
    return {"apiVersion": "kubeflow.org/v2beta1", "kind": "MPIJob", "metadata": {"name": "pi"},
            "spec": {"slotsPerWorker": 1, "runPolicy": {"cleanPodPolicy": "Running", "schedulingPolicy": policy},
                     "mpiReplicaSpecs": {
                         "Launcher": {"replicas": 1, "template": template("launcher", ["mpirun", "-np", "4", "pi"])},
                         "Worker": {"replicas": 4, "template": template("worker", ["/usr/sbin/sshd", "-De"])}}}}


def test_min_available_beyond_the_pods_is_an_error_for_all_three(tmp_path: Path) -> None:
    """The issue's case: minAvailable 10 for a 5-pod job printed a PodGroup without comment."""
    path = tmp_path / "pi.yaml"
    path.write_text(yaml.safe_dump(_mpijob(min_available=10), sort_keys=False))
    line = next(i for i, text in enumerate(path.read_text().splitlines(), 1) if "minAvailable: 10" in text)
    for command in (["validate", str(path)], ["explain", str(path)], ["podgroup", str(path)]):
        code, out, err = run(command)
        report = out if command[0] == "validate" else err  # validate's report is its output
        assert code == 1, (command, err)
        assert f"pi.yaml:{line}:21: error min-available-too-large schedulingPolicy.minAvailable is 10 but the job " \
               "has only 5 pods" in report, (command, report)
        if command[0] != "validate":
            assert out == "", command


def test_a_list_is_read_by_explain_as_by_podgroup_and_validate(tmp_path: Path) -> None:
    """explain said no-mpijob for a kind: List that podgroup and validate read."""
    path = tmp_path / "list.yaml"
    path.write_text(yaml.safe_dump({"apiVersion": "v1", "kind": "List", "items": [_mpijob()]}, sort_keys=False))
    code, out, err = run(["explain", str(path)])
    assert code == 0, err
    assert out.startswith("MPIJob default/pi (mpi-operator v0.8.2, gang scheduler: volcano)\n"), out
    code, out, err = run(["podgroup", str(path)])
    assert code == 0, err
    assert yaml.safe_load(out)["spec"]["minMember"] == 5
    typed = tmp_path / "typed.yaml"  # what the API returns for a collection: MPIJobList
    typed.write_text(path.read_text().replace("kind: List", "kind: MPIJobList"))
    assert run(["explain", str(typed)])[0] == 0 and run(["podgroup", str(typed)])[0] == 0


@pytest.mark.parametrize("golden, kind", [("horovod-volcano/base.yaml", "scheduling.volcano.sh/v1beta1"),
                                          ("scheduler-plugins-envs/prod.yaml", "scheduling.x-k8s.io/v1alpha1"),
                                          ("pytorch-ddp/base.yaml", "scheduling.volcano.sh/v1beta1")])
def test_podgroup_infers_the_gang_as_explain_does(golden: str, kind: str) -> None:
    code, out, err = run(["podgroup", f"golden/{golden}", "--cluster", "specs/cluster/priorityclasses.yaml"])
    assert code == 0, err
    assert yaml.safe_load(out)["apiVersion"] == kind
    gang = "volcano" if "volcano" in kind else "scheduler-plugins"
    assert run(["podgroup", f"golden/{golden}", "--gang", gang, "--cluster",
                "specs/cluster/priorityclasses.yaml"])[1] == out


def test_gang_overrides_what_the_templates_show(tmp_path: Path) -> None:
    path = tmp_path / "pi.yaml"
    path.write_text(yaml.safe_dump(_mpijob(scheduler=None), sort_keys=False))
    code, out, err = run(["podgroup", str(path)])
    assert code == 1 and out == ""
    assert re.search(r"^.*pi\.yaml:\d+:\d+: error not-created the MPIJob pi is not gang-scheduled by the operator: "
                     r"its pod templates name neither Volcano", err, re.M), err
    code, out, err = run(["podgroup", "golden/kube-batch-tfjob/base.yaml"])
    assert code == 1 and "not gang-scheduled by the operator: its pods are gang-scheduled by kube-batch" in err, err
    code, out, err = run(["podgroup", str(path), "--gang", "scheduler-plugins"])
    assert code == 0, err
    assert yaml.safe_load(out)["apiVersion"] == "scheduling.x-k8s.io/v1alpha1"


CLUSTER = ["--cluster", "specs/cluster/priorityclasses.yaml"]


@pytest.mark.parametrize("spec, env, cluster", [("horovod-volcano", None, []), ("scheduler-plugins-envs", "prod", []),
                                                ("priority-order", None, CLUSTER), ("tensorflow-ps", None, [])])
def test_podgroup_of_a_spec_is_the_podgroup_of_what_build_prints(spec: str, env: str | None, cluster: list[str],
                                                                 tmp_path: Path) -> None:
    envs = ["--env", env] if env else []
    code, built, err = run(["build", f"specs/{spec}.yaml", *envs, *cluster])
    assert code == 0, err
    manifest = tmp_path / "built.yaml"
    manifest.write_text(built)
    code, want, err = run(["podgroup", str(manifest), *cluster])
    assert code == 0, err
    code, got, err = run(["podgroup", f"specs/{spec}.yaml", *envs, *cluster])
    assert code == 0, err
    assert got == want


def test_podgroup_of_a_spec_reports_build_errors_at_the_spec(tmp_path: Path) -> None:
    code, out, err = run(["podgroup", "tests/cases/specs/invalid/mpirun-np-mismatch.yaml"])
    assert code == 1 and out == ""
    assert err.startswith("tests/cases/specs/invalid/mpirun-np-mismatch.yaml:11:12: error slots-np-mismatch "), err
    code, out, err = run(["podgroup", "specs/horovod-volcano.yaml", "--env", "nope"])
    assert code == 2 and "--env nope: no such environment in tensorflow-benchmarks (environments: none)" in err


@pytest.mark.parametrize("kind, api, code", [
    ("MPIJob", "kubeflow.org/v9", "legacy-api-version"), ("PyTorchJob", "kubeflow.org/v2", "legacy-api-version"),
    ("MPIJob", "kubeflow/v2beta1", "unknown-api"), ("TFJob", "kubeflow.org.io/v1", "unknown-api")])
def test_a_job_of_an_unknown_api_version_is_one_error_for_all_three(kind: str, api: str, code: str,
                                                                     tmp_path: Path) -> None:
    """validate accepted an MPIJob of an apiVersion no operator serves, which podgroup refused. One
    mistake is one error: legacy-api-version for a version of kubeflow.org (the group's versions are
    that rule's), unknown-api for another group; it was both for kubeflow.org/v9."""
    path = tmp_path / "v9.yaml"
    path.write_text(f"apiVersion: {api}\nkind: {kind}\nmetadata: {{name: x}}\nspec: {{}}\n")
    served = {"MPIJob": "kubeflow.org/v2beta1", "PyTorchJob": "kubeflow.org/v1", "TFJob": "kubeflow.org/v1"}[kind]
    message = (f"no operator serves {kind} as {api}: the API server rejects it (no matches for kind); write apiVersion: "
               f"{served}" if code == "legacy-api-version" else
               f"unknown {kind} apiVersion '{api}': no operator serves it (the API server rejects it: no matches for "
               f"kind); write apiVersion: {served}")
    for command in ("validate", "explain", "podgroup"):
        exit_code, out, err = run([command, str(path), "--gang", "volcano"])
        report = out if command == "validate" else err
        assert exit_code == 1, (command, report)
        errors = [line for line in report.splitlines() if " error " in line]
        assert errors == [f"{path}:1:13: error {code} {message} (apiVersion)"], (command, report)


@pytest.mark.parametrize("kind, api", [("MPIJob", "kubeflow.org/v2beta1"), ("TFJob", "kubeflow.org/v1")])
def test_a_job_without_spec_is_an_error_for_all_three(kind: str, api: str, tmp_path: Path) -> None:
    """validate accepted a job without a spec, which podgroup and explain refused."""
    path = tmp_path / "nospec.yaml"
    path.write_text(f"apiVersion: {api}\nkind: {kind}\nmetadata: {{name: x}}\n")
    for command in ("validate", "explain", "podgroup"):
        code, out, err = run([command, str(path), "--gang", "volcano"])
        report = out if command == "validate" else err
        assert code == 1, (command, report)
        assert report.startswith(f"{path}:1:1: error missing-field missing required field 'spec': the operator "
                                 f"creates nothing for a {kind} without one\n"), (command, report)
