"""The dependencies pyproject.toml declares are the ones mpigen/ imports (README.md, "Dependencies",
says what each is for): none declared and unused, none imported and undeclared."""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _declared() -> set[str]:
    requirements = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    return {_canonical(re.split(r"[<>=!~\[;\s]", requirement, maxsplit=1)[0]) for requirement in requirements}


def _imported() -> set[str]:
    """Top-level names of the modules mpigen/ imports, anywhere in a module (inside functions too)."""
    names: set[str] = set()
    for path in (ROOT / "mpigen").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Import):
                names |= {alias.name.partition(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.add(node.module.partition(".")[0])
    return names - set(sys.stdlib_module_names) - {"mpigen", "__future__"}


def _distributions(modules: set[str]) -> dict[str, set[str]]:
    """Module -> the installed distributions that provide it."""
    provided = packages_distributions()
    return {module: {_canonical(d) for d in provided.get(module, [])} for module in modules}


def test_every_declared_dependency_is_imported() -> None:
    used = set().union(*_distributions(_imported()).values())
    assert sorted(_declared() - used) == [], "declared in pyproject.toml, imported nowhere in mpigen/"


def test_every_imported_package_is_declared() -> None:
    declared = _declared()
    undeclared = {module: dists for module, dists in _distributions(_imported()).items() if not dists & declared}
    assert undeclared == {}, "imported by mpigen/, not in [project] dependencies"


def test_the_scan_sees_the_imports() -> None:
    """What the two tests above rest on: lazy imports inside functions are found too."""
    assert {"yaml", "click", "jsonschema", "jsonschema_rs", "deepdiff"} <= _imported()
