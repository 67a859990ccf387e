"""The wheel holds every package of mpigen/ and the schemas (a pre-commit install uses the wheel)."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_every_package_folder_is_listed_in_pyproject() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    listed = set(config["packages"])
    found = {".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "mpigen").rglob("__init__.py")}
    assert found <= listed, f"add to [tool.setuptools] packages: {sorted(found - listed)}"
    assert config["package-dir"]["mpigen._schemas"] == "schemas"
    assert (ROOT / "schemas" / "__init__.py").is_file()


def test_generated_package_data_is_shipped() -> None:
    """mpigen/data/ (Trainer's default runtimes, written by `make schemas`) is package data: the
    loader reads it with importlib.resources from the installed package."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert "data/**/*.json" in config["package-data"]["mpigen"]
    assert list((ROOT / "mpigen" / "data").rglob("*.json"))
    assert not list((ROOT / "mpigen" / "data").rglob("__init__.py")), "a data folder, not a package"
