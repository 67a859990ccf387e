"""The dependencies pyproject.toml declares are the ones mpigen/ imports (docs/development.md,
"Dependencies", says what each is for): none declared and unused, none imported and undeclared. The
extras other than ``test`` are mpigen's too (the README's "Install" says what each brings); only
``mpigen/kube`` may import what an extra brings: every other command runs on a plain install."""

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


PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
EXTRA_USERS = {"kube": "mpigen/kube"}  # the only folder of mpigen/ that imports what each extra brings


def _names(requirements: list[str]) -> set[str]:
    return {_canonical(re.split(r"[<>=!~\[;\s]", requirement, maxsplit=1)[0]) for requirement in requirements}


def _declared(extras: bool = True) -> set[str]:
    """The distributions every install has, and with ``extras`` those of mpigen's extras too."""
    names = _names(PROJECT["dependencies"])
    if extras:
        for extra, requirements in PROJECT["optional-dependencies"].items():
            if extra != "test":
                names |= _names(requirements)
    return names


def _imported(outside: str | None = None) -> set[str]:
    """Top-level names of the modules mpigen/ imports, anywhere in a module (inside functions too);
    with ``outside``, those imported by the modules that are not under that folder."""
    names: set[str] = set()
    for path in (ROOT / "mpigen").rglob("*.py"):
        if outside and path.is_relative_to(ROOT / outside):
            continue
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
    assert {"yaml", "click", "jsonschema_rs", "deepdiff", "ryml"} <= _imported()


def test_every_extra_is_used_by_its_folder_only() -> None:
    """A plain install runs every command but the live options: what mpigen imports outside
    mpigen/kube is among the dependencies every install has."""
    assert set(PROJECT["optional-dependencies"]) == {"test", *EXTRA_USERS}
    for folder in EXTRA_USERS.values():
        undeclared = {module: dists for module, dists in _distributions(_imported(outside=folder)).items()
                      if not dists & _declared(extras=False)}
        assert undeclared == {}, f"imported outside {folder}, and only an extra installs it"


def test_the_test_extra_brings_every_other_extra() -> None:
    """make test sets up everything: the test extra names each of mpigen's extras."""
    assert {f"mpigen[{extra}]" for extra in EXTRA_USERS} <= set(PROJECT["optional-dependencies"]["test"])
