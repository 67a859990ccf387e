"""``mpigen validate`` as CI and pre-commit run it: upstream's examples pass, broken ones fail at
the right line with the right code, every format, exit code and input form."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import yaml

from mpigen.main import main
from tests.golden.cases import GOLDEN, ROOT, run

MIXED = "tests/cases/validate/mixed.yaml"


@pytest.fixture(scope="module")
def upstream_examples() -> list[Path]:
    """mpi-operator v0.8.2's own v2beta1 examples, from its Go module (the same cache `make schemas` uses)."""
    env = dict(os.environ, GOMODCACHE=str(ROOT / ".cache" / "gomod"), GOFLAGS="-mod=mod")
    result = subprocess.run(["go", "mod", "download", "-json", "github.com/kubeflow/mpi-operator@v0.8.2"],
                            capture_output=True, text=True, env=env, cwd=ROOT, check=False)
    assert result.returncode == 0, result.stderr
    folder = Path(json.loads(result.stdout)["Dir"]) / "examples" / "v2beta1"
    examples = sorted(folder.rglob("*.yaml"))
    assert len(examples) >= 5, examples
    return examples


@pytest.mark.network
def test_upstream_v2beta1_examples_validate(upstream_examples: list[Path]) -> None:
    nulls = 0
    for example in upstream_examples:
        code, out, err = run(["validate", str(example)])
        assert code == 0, f"{example.name}:\n{out}{err}"
        assert " error " not in out, out
        nulls += "command:\n" in example.read_text()
    assert nulls >= 1, "one of upstream's examples has a null `command:`; the API server drops it"


@pytest.mark.network
@pytest.mark.parametrize("old, new, code, line_of", [
    ("cleanPodPolicy: Running", "cleanPodPolicy: Sometimes", "mpijob-invalid", "cleanPodPolicy"),
    ("slotsPerWorker: 1", "slotsPerWorker: one", "schema", "slotsPerWorker"),
    ("ttlSecondsAfterFinished: 60", "ttlSecondAfterFinished: 60", "unknown-field", "ttlSecondAfterFinished"),
    ("replicas: 2", "replicas: 0", "mpijob-invalid", "replicas: 0"),
    ("memory: 1Gi", "memory: 1 Gi", "quantity", "memory: 1 Gi"),
])
def test_hand_broken_examples_fail_at_the_right_line(upstream_examples, tmp_path, old, new, code, line_of) -> None:
    source = next(p for p in upstream_examples if p.name == "pi.yaml").read_text()
    assert old in source
    broken = source.replace(old, new, 1)
    path = tmp_path / "pi.yaml"
    path.write_text(broken)
    line = next(i for i, text in enumerate(broken.splitlines(), 1) if line_of in text)
    status, out, err = run(["validate", str(path)])
    assert status == 1, out + err
    assert f"{path}:{line}:" in out and f" error {code} " in out, out


def test_every_problem_of_a_multi_document_file_is_reported() -> None:
    code, out, err = run(["validate", MIXED])
    assert code == 1
    found = {(int(line.split(":")[1]), line.split()[2]) for line in out.splitlines() if line.split()[1] == "error"}
    assert found == {(27, "mpijob-invalid"),  # backoffLimit: -1
                     (36, "unknown-field"),  # comand
                     (47, "quantity")}  # cpu: 1 core (globalDefault: no is the boolean false: valid)
    assert "Traceback" not in err


def test_json_junit_github_formats() -> None:
    code, out, _ = run(["validate", MIXED, "--format", "json"])
    report = json.loads(out)
    assert code == 1 and report["errors"] >= 3 and report["files"] == [MIXED]
    first = report["diagnostics"][0]
    assert set(first) == {"file", "line", "column", "path", "code", "severity", "message"}
    code, out, _ = run(["validate", MIXED, "--format", "junit"])
    suite = ET.fromstring(out)
    assert suite.tag == "testsuites" and suite.get("failures") == "1"
    assert suite.find(".//failure") is not None
    code, out, _ = run(["validate", MIXED, "--format", "github"])
    assert all(line.startswith(("::error file=", "::warning file=")) for line in out.splitlines()), out
    assert f"::error file={MIXED},line=36," in out


def test_warnings_exit_0_unless_strict(tmp_path: Path) -> None:
    path = tmp_path / "cm.yaml"
    path.write_text("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\nimmutable: y\n")  # kubectl: true
    assert run(["validate", str(path)])[0] == 0
    code, out, _ = run(["validate", str(path), "--strict"])
    assert code == 1 and "warning yaml-bool" in out


def test_disable_switches_a_code_off(tmp_path: Path) -> None:
    path = tmp_path / "cm.yaml"
    path.write_text("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\nimmutable: y\n")  # kubectl: true
    code, out, _ = run(["validate", str(path), "--strict", "--disable", "yaml-bool"])
    assert code == 0 and out == ""
    (tmp_path / ".mpigen.yaml").write_text("disable: [yaml-bool]\n")
    code, out, _ = run(["validate", str(path), "--strict", "--config", str(tmp_path / ".mpigen.yaml")])
    assert code == 0 and out == ""


def test_apply_server_side_in_the_configuration_makes_an_unknown_null_field_an_error(tmp_path: Path) -> None:
    """validate, and explain with validate's verdict: a warning unless the repository says it is
    applied server-side."""
    path = tmp_path / "job.yaml"
    path.write_text((ROOT / "golden" / "pytorch-ddp" / "base.yaml").read_text().replace(
        "  runPolicy:\n", "  bogus: null\n  runPolicy:\n", 1))
    code, out, _ = run(["validate", str(path)])
    assert code == 0 and " warning unknown-null-field unknown field 'bogus' is null: " in out
    config = tmp_path / ".mpigen.yaml"
    config.write_text("apply: server-side\n")
    for command in (["validate", str(path)], ["explain", str(path)]):
        code, out, err = run([*command, "--config", str(config)])
        assert code == 1, (command, out, err)
        assert " error unknown-null-field unknown field 'bogus' is null: " in out + err


def test_folders_are_walked_and_specs_recognised(tmp_path: Path) -> None:
    (tmp_path / "nested" / ".hidden").mkdir(parents=True)
    (tmp_path / "nested" / "job.yml").write_text((ROOT / "golden/intel-mpi/base.yaml").read_text())
    (tmp_path / "nested" / ".hidden" / "bad.yaml").write_text("a: [\n")
    (tmp_path / "spec.yaml").write_text((ROOT / "specs/horovod-volcano.yaml").read_text())
    (tmp_path / "notes.txt").write_text("not yaml")
    code, out, err = run(["validate", str(tmp_path), "--strict"])
    assert code == 0, out + err
    assert "2 files checked" in err


def test_stdin_and_missing_paths() -> None:
    text = (ROOT / "golden/horovod-volcano/base.yaml").read_bytes()
    result = subprocess.run([sys.executable, "-m", "mpigen", "validate", "-"], input=text, capture_output=True,
                            cwd=ROOT, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    assert main(["validate", "no/such/path.yaml"]) == 2


@pytest.mark.parametrize("path", sorted(p for p in GOLDEN.glob("*/*.yaml") if p.name != "case.yaml"),
                         ids=lambda p: p.relative_to(GOLDEN).as_posix())
def test_golden_outputs_pass_strict_validation(path: Path) -> None:
    code, out, err = run(["validate", "--strict", str(path)])
    assert code == 0, out + err


def test_kubeconform_findings_are_merged_at_their_line(tmp_path: Path) -> None:
    kubeconform = ROOT / "bin" / "kubeconform"
    assert kubeconform.is_file(), "`make tools` installs kubeconform into ./bin"
    path = tmp_path / "job.yaml"
    text = (ROOT / "golden/horovod-volcano/base.yaml").read_text().replace("slotsPerWorker: 1", "slotsPerWorker: one")
    path.write_text(text)
    env = dict(os.environ, PATH=f"{kubeconform.parent}{os.pathsep}{os.environ['PATH']}")
    result = subprocess.run([sys.executable, "-m", "mpigen", "validate", "--kubeconform", "--format", "json",
                             str(path)], capture_output=True, text=True, cwd=ROOT, env=env, check=False)
    assert result.returncode == 1
    found = json.loads(result.stdout)["diagnostics"]
    line = text.splitlines().index("  slotsPerWorker: one") + 1
    assert {(d["line"], d["code"]) for d in found} >= {(line, "schema")}
    # The same finding from kubeconform is merged away, not reported twice.
    assert sum(1 for d in found if d["line"] == line) == 1
    # A problem only kubeconform sees would be reported with code kubeconform: force one by disabling ours.
    result = subprocess.run([sys.executable, "-m", "mpigen", "validate", "--kubeconform", "--disable", "schema",
                             str(path)], capture_output=True, text=True, cwd=ROOT, env=env, check=False)
    assert result.returncode == 1 and f"{path}:{line}:" in result.stdout and " kubeconform " in result.stdout


def test_kubeconform_missing_is_a_clear_usage_error(tmp_path: Path) -> None:
    env = dict(os.environ, PATH=str(Path(sys.executable).parent))
    result = subprocess.run([sys.executable, "-m", "mpigen", "validate", "--kubeconform",
                             str(ROOT / "golden/horovod-volcano/base.yaml")], capture_output=True, text=True,
                            cwd=tmp_path, env=env, check=False)
    assert result.returncode == 2 and "kubeconform is not installed" in result.stderr


def test_istio_sidecar_is_a_warning_only_where_the_cluster_file_says_the_namespace_injects(tmp_path: Path) -> None:
    """One finding per job; a note (shown with -v, exit 0 under --strict) unless the cluster file
    gives the job's Namespace: a warning where it has Istio injection, nothing where it has not."""
    job = ROOT / "tests/cases/lint/istio-sidecar/bad-job-metadata.yaml"  # Master and Worker without it
    code, out, _ = run(["validate", "--strict", "--format", "json", str(job)])
    found = [d for d in json.loads(out)["diagnostics"] if d["code"] == "istio-sidecar"]
    assert code == 0 and [d["severity"] for d in found] == ["info"], out
    for labels, want, exit_code in (("{istio-injection: enabled}", ["warning"], 1), ("{}", [], 0)):
        cluster = tmp_path / "cluster.yaml"
        cluster.write_text(f"apiVersion: v1\nkind: Namespace\nmetadata: {{name: default, labels: {labels}}}\n")
        code, out, err = run(["validate", "--strict", "--format", "json", "--cluster", str(cluster), str(job)])
        found = [d for d in json.loads(out)["diagnostics"] if d["code"] == "istio-sidecar"]
        assert code == exit_code and [d["severity"] for d in found] == want, out + err


def test_disable_refuses_a_code_mpigen_does_not_have(tmp_path: Path) -> None:
    """--disable no-such-rule (and disable: in .mpigen.yaml) were accepted in silence."""
    code, out, err = run(["validate", MIXED, "--disable", "no-such-rule", "--disable", "istio-sidcar"])
    assert code == 2 and out == ""
    assert err == ("mpigen: --disable: unknown code 'istio-sidcar' (did you mean 'istio-sidecar'?); unknown code "
                   "'no-such-rule' (`mpigen rules` lists the lint rules, docs/errors.md every code)\n")
    (tmp_path / ".git").mkdir()
    (tmp_path / ".mpigen.yaml").write_text("disable: [yaml-bol]\n")
    done = subprocess.run([sys.executable, "-m", "mpigen", "validate", str(ROOT / MIXED)], cwd=tmp_path,
                          capture_output=True, text=True)
    assert done.returncode == 2
    assert "disable: unknown code 'yaml-bol' (did you mean 'yaml-bool'?)" in done.stderr, done.stderr
