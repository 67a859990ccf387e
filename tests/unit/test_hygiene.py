"""What every test of ``make test`` keeps to (HELPERS.md, "How we build"): its verdict never depends
on how busy the machine is, it cannot pass by skipping what exists, and a folder of cases that moves
is an error. Read from the tests' source, as test_error_catalogue reads mpigen's."""

from __future__ import annotations

import ast
import importlib.util
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# make test runs everything but the live-cluster tests (tests/e2e), which wait for a cluster by the clock
TESTS = sorted(p for p in (ROOT / "tests").rglob("*.py") if "e2e" not in p.relative_to(ROOT / "tests").parts)
CLOCKS = {"perf_counter", "monotonic", "time", "process_time"}


def _trees() -> dict[Path, ast.Module]:
    return {path: ast.parse(path.read_text("utf-8"), str(path)) for path in TESTS}


def test_the_tests_are_read() -> None:
    assert len(TESTS) >= 80 and ROOT / "tests" / "unit" / "test_hygiene.py" in TESTS


def test_an_empty_parameter_set_fails_at_collection() -> None:
    options = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["tool"]["pytest"]["ini_options"]
    assert options.get("empty_parameter_set_mark") == "fail_at_collect"


def test_no_importorskip_of_a_module_that_exists() -> None:
    """importorskip of a module that is there hides an import error of it as a skip."""
    found = []
    for path, tree in _trees().items():
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                    and node.func.attr == "importorskip" and node.args and isinstance(node.args[0], ast.Constant):
                name = node.args[0].value
                if importlib.util.find_spec(name) is not None:
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}: importorskip({name!r})")
    assert not found, found


def test_no_assertion_reads_the_clock() -> None:
    """A wall-time bound fails on a busy machine and passes a slow loop on a fast one: count the
    work instead (tests/work.py)."""
    found = []
    for path, tree in _trees().items():
        for node in ast.walk(tree):
            if not isinstance(node, ast.Assert):
                continue
            for call in ast.walk(node.test):
                if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr in CLOCKS \
                        and isinstance(call.func.value, ast.Name) and call.func.value.id == "time":
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not found, found
