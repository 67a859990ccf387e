"""Golden cases, discovered from folders.

Each folder ``golden/<case>/`` holds ``case.yaml`` (which spec, which options) and the outputs:
``base.yaml`` and ``<env>.yaml`` (what ``mpigen build`` prints) and ``tree/`` (what
``mpigen build -o`` writes). ``make golden`` rewrites the outputs and creates a case for every
spec in ``specs/`` that has none; the tests compare and print a semantic difference.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

import yaml
from click.testing import CliRunner

from mpigen.main import cli

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "golden"
SPECS = ROOT / "specs"


@dataclass
class Case:
    name: str
    spec: str  # relative to ROOT
    cluster: str | None = None
    operator_version: str | None = None
    envs: list[str] = field(default_factory=list)

    @property
    def folder(self) -> Path:
        return GOLDEN / self.name

    def options(self) -> list[str]:
        args = []
        if self.cluster:
            args += ["--cluster", self.cluster]
        if self.operator_version:
            args += ["--operator-version", self.operator_version]
        return args


def discover() -> list[Case]:
    cases = []
    for path in sorted(GOLDEN.glob("*/case.yaml")):
        data = yaml.safe_load(path.read_text()) or {}
        case = Case(path.parent.name, data["spec"], data.get("cluster"), data.get("operatorVersion"))
        spec = yaml.safe_load((ROOT / case.spec).read_text())
        case.envs = sorted((spec.get("spec") or {}).get("environments") or {})
        cases.append(case)
    return cases


def run(args: list[str]) -> tuple[int, str, str]:
    """The CLI in-process, from the repository root: exit code, stdout, stderr."""
    runner = CliRunner()
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        result = runner.invoke(cli, args, catch_exceptions=False)
    finally:
        os.chdir(cwd)
    return result.exit_code, result.stdout, result.stderr


def build_outputs(case: Case, tree_dir: Path) -> dict[str, str]:
    """Relative golden path -> content, everything the case produces."""
    outputs: dict[str, str] = {}
    for env in [None] + case.envs:
        args = ["build", case.spec, *case.options()] + (["--env", env] if env else [])
        code, out, err = run(args)
        assert code == 0, f"mpigen {' '.join(args)} failed:\n{err}"
        outputs[f"{env or 'base'}.yaml"] = out
    code, out, err = run(["build", case.spec, *case.options(), "-o", str(tree_dir)])
    assert code == 0, err
    for path in sorted(tree_dir.rglob("*")):
        if path.is_file():
            outputs["tree/" + path.relative_to(tree_dir).as_posix()] = path.read_text()
    return outputs
