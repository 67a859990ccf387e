"""The training-operator v1.9.4 test cases ported as data (tests/cases/upstream_training/)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

CASE_DIR = Path(__file__).resolve().parent / "cases" / "upstream_training"


def cases(go_test: str) -> list:
    """The cases of one Go test function, as pytest parameters named as upstream names them."""
    for path in sorted(CASE_DIR.glob("*.yaml")):
        doc = yaml.safe_load(path.read_text())
        if doc["go_test"] == go_test:
            return [pytest.param(c, id=c["name"]) for c in doc["cases"]]
    raise AssertionError(f"no case file for {go_test}")
