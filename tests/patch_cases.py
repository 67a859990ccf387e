"""The strategic-merge-patch cases of tests/cases/patch/ (see tests/unit/test_patch.py), shared
by the unit tests and the comparison with kubectl (tests/integration/test_patch_kubectl.py)."""

from __future__ import annotations

import json
from pathlib import Path

import yaml

CASES = Path(__file__).resolve().parent / "cases" / "patch"
KEYS = {"name", "upstream", "type", "strategies", "original", "patch", "expected", "problems", "origins", "kubectl"}


def load_cases() -> list[dict]:
    """Every case, with an ``id`` (file, index, name)."""
    cases = []
    for path in sorted(CASES.glob("*.yaml")):
        for i, doc in enumerate(yaml.safe_load_all(path.read_text(encoding="utf-8"))):
            doc["id"] = f"{path.stem}:{i}:{doc['name']}"
            cases.append(doc)
    return cases


def strategies_of(case: dict) -> dict | None:
    """The types of the case's own strategies file, or None (Kubernetes')."""
    if "strategies" not in case:
        return None
    return json.loads((CASES / f"{case['strategies']}.strategies.json").read_text(encoding="utf-8"))["types"]


def canonical(value) -> str:
    """JSON text in which 1, 1.0 and true differ, as Go's decoded values do; key order aside."""
    return json.dumps(value, sort_keys=True, indent=1)
