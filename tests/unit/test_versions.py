"""mpigen.versions: one operator-version type, parsed where a version enters."""

from __future__ import annotations

import pickle

import pytest

from mpigen.versions import DEFAULT_OPERATOR_VERSION, FEATURES, OperatorVersion


@pytest.mark.parametrize("text, version", [
    ("v0.8.2", (0, 8, 2)), ("v0.8.0", (0, 8, 0)), ("0.8", (0, 8, 0)), ("v0.8", (0, 8, 0)), (" v0.5.1 ", (0, 5, 1)), ("v0.4.x", (0, 4, 0)),
    ("0.4.x", (0, 4, 0)), ("v1.0.0", (1, 0, 0)),
])
def test_parse(text: str, version: tuple[int, int, int]) -> None:
    assert OperatorVersion.parse(text) == OperatorVersion(*version)


@pytest.mark.parametrize("text, message", [
    ("banana", "'banana' is not an operator version such as v0.8.2"), ("v0.8.0.1", "not an operator version"),
    ("v0", "not an operator version"), ("vx.4", "not an operator version"),
    ("v0.3.0", "mpi-operator v0.3.0 is not supported: mpigen ports the rules of v0.4.0 and later"),
])
def test_refused(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        OperatorVersion.parse(text)


def test_written_ordered_and_compared_as_releases() -> None:
    assert str(DEFAULT_OPERATOR_VERSION) == "v0.8.2"
    assert str(OperatorVersion.parse("0.8")) == "v0.8.0"  # a minor release alone is its .0, as v0.4.x is v0.4.0
    assert not OperatorVersion.parse("v0.8.0").has("launcher podReplacementPolicy: Failed")
    assert OperatorVersion(0, 4, 9) < OperatorVersion(0, 5, 0) < OperatorVersion(0, 10, 0)
    assert OperatorVersion(0, 4, 1).legacy and not OperatorVersion(0, 5, 0).legacy
    assert not OperatorVersion(0, 4, 0).has("launcherCreationPolicy") and DEFAULT_OPERATOR_VERSION.has("launcherCreationPolicy")
    assert all(DEFAULT_OPERATOR_VERSION.has(feature) for feature in FEATURES)
    assert pickle.loads(pickle.dumps(DEFAULT_OPERATOR_VERSION)) == DEFAULT_OPERATOR_VERSION  # sent to validation workers
    assert len({OperatorVersion.parse("v0.8.0"), OperatorVersion.parse("0.8")}) == 1
