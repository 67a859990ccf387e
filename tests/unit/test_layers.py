"""The layer contract of mpigen/ ([tool.importlinter] in pyproject.toml, README.md "Layers"),
checked with import-linter, the way `lint-imports` checks it.

A second test plants imports that break each contract in a copy of the package and expects
every contract to be reported broken, so that a contract that no longer matches the layout
cannot pass by checking nothing.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CONFIG = ROOT / "pyproject.toml"


def _lint_imports(package_parent: Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    """`lint-imports` with the repository's contracts, on the mpigen package found in ``package_parent``."""
    env = dict(os.environ, PYTHONPATH=str(package_parent))
    return subprocess.run([sys.executable, "-c", "from importlinter.cli import lint_imports_command; "
                           "lint_imports_command()", "--config", str(CONFIG), "--no-cache", "--no-logo"],
                          capture_output=True, text=True, cwd=cwd, env=env, check=False)


def _contracts() -> list[str]:
    return [c["name"] for c in tomllib.loads(CONFIG.read_text())["tool"]["importlinter"]["contracts"]]


def test_every_contract_is_kept(tmp_path: Path) -> None:
    done = _lint_imports(ROOT, tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    for name in _contracts():
        assert f"{name} KEPT" in " ".join(done.stdout.split()), done.stdout


BREAKS = {
    # a stage importing a command, and the kernel importing a stage (layers)
    "load/document.py": "from ..commands import build  # noqa\n",
    "diagnostics.py": "from .load import document  # noqa\n",
    # one command importing another (independence)
    "commands/rules.py": "from . import build  # noqa\n",
    # a stage printing through click (forbidden)
    "expand/environments.py": "import click  # noqa\n",
    # a command reaching into the validate stage's engine (protected)
    "commands/podgroup.py": "from ..validation.engine import validate_items  # noqa\n",
    # a stage talking to a server itself (forbidden: only mpigen.kube does)
    "scheduler/nodes.py": "import urllib3  # noqa\n",
}


def test_a_broken_layer_is_reported(tmp_path: Path) -> None:
    copy = tmp_path / "src"
    shutil.copytree(ROOT / "mpigen", copy / "mpigen", ignore=shutil.ignore_patterns("__pycache__"))
    for module, line in BREAKS.items():
        path = copy / "mpigen" / module
        path.write_text(path.read_text() + line)
    done = _lint_imports(copy, tmp_path)
    assert done.returncode == 1, done.stdout + done.stderr
    report = " ".join(done.stdout.split())
    for name in _contracts():
        assert f"{name} BROKEN" in report, done.stdout
    assert "mpigen.load is not allowed to import mpigen.commands" in report
    assert "mpigen.diagnostics is not allowed to import mpigen.load" in report
