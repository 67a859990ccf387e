"""Bounded fuzzing of the whole build pipeline: mutated specs never crash it.

Every mutation of a valid spec either compiles or yields diagnostics with a position; nothing
raises. (`make fuzz`, a longer run, comes with the hostile-input work.)
"""

from __future__ import annotations

import copy

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mpigen.diagnostics import Severity
from mpigen.load.yaml_loader import load_text
from mpigen.pipeline import Options, compile_specs
from mpigen.render.kustomize import kustomize_files
from tests.golden.cases import ROOT

BASES = [yaml.safe_load(p.read_text()) for p in sorted((ROOT / "specs").glob("*.yaml"))]
VALUES = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-(2**70), max_value=2**70), st.floats(allow_nan=False),
    st.text(max_size=12), st.sampled_from(["16Gi", "500m", "-1", "1e400", "0.5", "volcano", "OpenMPI", "1.10"]),
    st.lists(st.text(max_size=5), max_size=3), st.dictionaries(st.text(max_size=5), st.integers(), max_size=2),
)


def _paths(obj, path=()):
    yield path
    if isinstance(obj, dict):
        for key, value in obj.items():
            yield from _paths(value, path + (key,))
    elif isinstance(obj, list):
        for i, value in enumerate(obj):
            yield from _paths(value, path + (i,))


@st.composite
def mutated_specs(draw):
    doc = copy.deepcopy(draw(st.sampled_from(BASES)))
    for _ in range(draw(st.integers(min_value=1, max_value=4))):
        paths = [p for p in _paths(doc) if p]
        path = draw(st.sampled_from(paths))
        parent = doc
        for key in path[:-1]:
            parent = parent[key]
        action = draw(st.sampled_from(["set", "delete", "add"]))
        if action == "set" or not isinstance(parent, dict):
            parent[path[-1]] = draw(VALUES)
        elif action == "delete":
            del parent[path[-1]]
        else:
            parent[draw(st.text(min_size=1, max_size=8))] = draw(VALUES)
    return yaml.safe_dump(doc, allow_unicode=True)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_specs())
def test_mutated_specs_never_crash(text: str) -> None:
    result = compile_specs(load_text(text, "spec.yaml"), "spec.yaml", Options())
    for diagnostic in result.diagnostics:
        assert diagnostic.file == "spec.yaml"
        if diagnostic.severity is Severity.ERROR:
            assert diagnostic.line is not None or diagnostic.code in ("no-spec", "duplicate-job")
    if result.ok:
        for job in result.jobs:
            kustomize_files(job)
