"""The CI templates run as a CI runner would run them: the GitHub Action (``action.yml``) and the
GitLab CI template (``ci/gitlab/mpigen.gitlab-ci.yml``), their shell steps executed as written in a
scratch repository, with mpigen installed by their own install step (``pip install`` of this
checkout into a fresh virtualenv, so packaging is tested too). Steps that call other actions
(``actions/setup-python``, ``github/codeql-action/upload-sarif``) are not run; what they are given
is checked instead (the SARIF file exists and is valid).

The ``${{ ... }}`` expressions the Action uses are evaluated here for the few forms it has
(inputs, ``github.action_path``, a step's outputs, ``always()``, ``==`` and ``&&``); one the
evaluator does not know fails the test, so a new form is noticed."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

from tests.golden.cases import ROOT

ACTION = yaml.safe_load((ROOT / "action.yml").read_text("utf-8"))
GITLAB = yaml.safe_load((ROOT / "ci" / "gitlab" / "mpigen.gitlab-ci.yml").read_text("utf-8"))
SARIF_SCHEMA = json.loads((ROOT / "tests" / "schemas" / "sarif-2.1.0-rtm.5.json").read_text("utf-8"))
EXPRESSION = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")
pytestmark = pytest.mark.network  # pip installs the checkout's dependencies
BAD_JOB = """apiVersion: kubeflow.org/v2beta1
kind: MPIJob
metadata: {name: bad}
spec:
  slotsPerWorker: 1
  mpiReplicaSpecs:
    Launcher:
      replicas: 2
      template: {spec: {containers: [{name: launcher, image: x:1, command: [mpirun, -np, "1", hostname]}]}}
"""


@pytest.fixture(scope="module")
def venv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh virtualenv in which the Action's own install step installed this checkout."""
    folder = tmp_path_factory.mktemp("ci-venv")
    subprocess.run([sys.executable, "-m", "venv", str(folder)], check=True)
    step = next(s for s in ACTION["runs"]["steps"] if s.get("name") == "Install mpigen")
    result = _bash(step["run"], {**_env(folder), "ACTION_PATH": str(ROOT)}, folder)
    assert result.returncode == 0, result.stderr[-3000:]
    return folder


def _env(venv: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("VIRTUAL_ENV", "PYTHON", "MPIGEN"))}
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    return env


def _bash(script: str, env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    """A step's script as the runners run it: bash -e (GitHub: ``bash --noprofile --norc -eo
    pipefail``; GitLab's bash alike)."""
    return subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=600, check=False)


@pytest.fixture
def repo(tmp_path: Path, venv: Path) -> Path:
    """A scratch repository: a spec, its tree written by mpigen, the configuration that names them."""
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    (tmp_path / "specs").mkdir()
    shutil.copy(ROOT / "specs" / "scheduler-plugins-envs.yaml", tmp_path / "specs" / "resnet.yaml")
    (tmp_path / ".mpigen.yaml").write_text('specs: ["specs/*.yaml"]\noutput: deploy\n')
    result = subprocess.run(["mpigen", "check", "--fix"], cwd=tmp_path, env=_env(venv), capture_output=True,
                            text=True, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    return tmp_path


class Workflow:
    """One run of the Action's steps: its inputs, the steps' outputs, the files it wrote."""

    def __init__(self, venv: Path, repo: Path, inputs: dict[str, str]) -> None:
        self.venv, self.repo = venv, repo
        self.inputs = {name: spec.get("default", "") for name, spec in ACTION["inputs"].items()} | inputs
        self.outputs: dict[str, dict[str, str]] = {}
        self.temp = repo.parent / f"{repo.name}-runner-temp"
        self.temp.mkdir(exist_ok=True)
        self.ran: list[str] = []
        self.given: dict[str, dict[str, str]] = {}  # what the steps that call actions were given

    def value(self, expression: str) -> Any:
        expression = expression.strip()
        if " && " in expression:
            return all(self.value(part) for part in expression.split(" && "))
        for op in (" == ", " != "):
            if op in expression:
                left, right = (self.value(part) for part in expression.split(op))
                return (left == right) if op == " == " else (left != right)
        if expression == "always()":
            return True
        if expression.startswith("'") and expression.endswith("'"):
            return expression[1:-1]
        if expression.startswith("inputs."):
            return self.inputs[expression.removeprefix("inputs.")]
        if expression == "github.action_path":
            return str(ROOT)
        match = re.fullmatch(r"steps\.([\w-]+)\.outputs\.([\w-]+)", expression)
        if match:
            return self.outputs.get(match[1], {}).get(match[2], "")
        raise AssertionError(f"the test's evaluator does not know ${{{{ {expression} }}}}")

    def text(self, template: str) -> str:
        return EXPRESSION.sub(lambda m: str(self.value(m[1])), template)

    def run(self) -> int:
        """The steps in order, as a runner runs them: a failed step stops the job (``if:``
        conditions with always() still run); the job's exit code."""
        failed = 0
        for step in ACTION["runs"]["steps"]:
            condition = step.get("if")
            if condition is not None:
                if failed and "always()" not in condition:
                    continue
                if not self.value(EXPRESSION.fullmatch(condition.strip())[1]
                                  if EXPRESSION.fullmatch(condition.strip()) else condition):
                    continue
            elif failed:
                continue
            if "uses" in step:
                self.given[step["uses"]] = {k: self.text(str(v)) for k, v in (step.get("with") or {}).items()}
                continue
            if step.get("name") == "Install mpigen":
                continue  # done once for the module (the venv fixture ran it)
            output = self.temp / f"output-{len(self.ran)}"
            output.write_text("")
            env = _env(self.venv) | {k: self.text(str(v)) for k, v in (step.get("env") or {}).items()}
            env |= {"GITHUB_OUTPUT": str(output), "RUNNER_TEMP": str(self.temp)}
            result = _bash(step["run"], env, self.repo)
            self.ran.append(step["name"])
            if "id" in step:
                self.outputs[step["id"]] = dict(line.split("=", 1) for line in output.read_text().splitlines())
            if result.returncode != 0:
                failed = result.returncode
        return failed


def _sarif(path: Path) -> dict:
    log = json.loads(path.read_text("utf-8"))
    assert not list(jsonschema.Draft4Validator(SARIF_SCHEMA).iter_errors(log))
    return log


def test_the_action_passes_a_clean_repository_and_hands_sarif_to_code_scanning(venv: Path, repo: Path) -> None:
    flow = Workflow(venv, repo, {})
    assert flow.run() == 0
    assert flow.ran == ["mpigen validate", "mpigen check", "The verdict of mpigen validate"]
    upload = flow.given["github/codeql-action/upload-sarif@v3"]
    assert upload["category"] == "mpigen"
    log = _sarif(Path(upload["sarif_file"]))
    assert log["runs"][0]["results"] == []


def test_the_action_fails_on_an_error_after_uploading_it(venv: Path, repo: Path) -> None:
    (repo / "jobs").mkdir()
    (repo / "jobs" / "bad.yaml").write_text(BAD_JOB)
    flow = Workflow(venv, repo, {"paths": "jobs specs"})
    assert flow.run() == 1
    assert flow.ran == ["mpigen validate", "mpigen check", "The verdict of mpigen validate"]
    results = _sarif(Path(flow.given["github/codeql-action/upload-sarif@v3"]["sarif_file"]))["runs"][0]["results"]
    assert any(r["level"] == "error" and r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
               == "jobs/bad.yaml" for r in results)


def test_the_action_fails_on_drift_and_can_leave_check_out(venv: Path, repo: Path) -> None:
    spec = repo / "specs" / "resnet.yaml"
    spec.write_text(spec.read_text().replace("workers: 2", "workers: 3", 1))
    assert Workflow(venv, repo, {}).run() == 1
    flow = Workflow(venv, repo, {"check": "false", "upload-sarif": "false"})
    assert flow.run() == 0 and "mpigen check" not in flow.ran
    assert "github/codeql-action/upload-sarif@v3" not in flow.given


def _gitlab(venv: Path, repo: Path, variables: dict[str, str]) -> subprocess.CompletedProcess[str]:
    job = GITLAB["mpigen"]
    env = _env(venv) | {k: str(v) for k, v in job["variables"].items()} | variables
    return _bash("\n".join(job["script"]), env, repo)


def test_the_gitlab_template_reports_junit_and_sarif_and_fails_on_errors(venv: Path, repo: Path) -> None:
    source = {"MPIGEN_SOURCE": str(ROOT)}  # the template installs it: here, this checkout
    result = _gitlab(venv, repo, source)
    assert result.returncode == 0, result.stdout + result.stderr
    for artifact in [GITLAB["mpigen"]["artifacts"]["reports"]["junit"], *GITLAB["mpigen"]["artifacts"]["paths"]]:
        assert (repo / artifact).is_file()
    assert ET.parse(repo / "mpigen-junit.xml").getroot().get("failures") == "0"
    _sarif(repo / "mpigen.sarif")
    (repo / "bad.yaml").write_text(BAD_JOB)
    result = _gitlab(venv, repo, source)
    assert result.returncode == 1 and "bad.yaml" in result.stdout
    assert ET.parse(repo / "mpigen-junit.xml").getroot().get("failures") == "1"
    (repo / "bad.yaml").unlink()
    spec = repo / "specs" / "resnet.yaml"
    spec.write_text(spec.read_text().replace("workers: 2", "workers: 3", 1))
    assert _gitlab(venv, repo, source).returncode == 1  # drift
    assert _gitlab(venv, repo, source | {"MPIGEN_CHECK": "false"}).returncode == 0
