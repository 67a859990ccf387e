"""mpigen.record: value classes that behave as the dataclasses they replaced."""

from __future__ import annotations

import copy
import pickle

import pytest

from mpigen.diagnostics import Diagnostic, Severity
from mpigen.pipeline import CompiledJob, CompileResult, Options


def _diagnostic(**changes) -> Diagnostic:
    fields = dict(file="a.yaml", line=3, column=5, path="spec.x", code="schema", severity=Severity.ERROR,
                  message="bad")
    fields.update(changes)
    return Diagnostic(**fields)


def test_equality_and_hash_follow_the_fields_in_order() -> None:
    assert _diagnostic() == _diagnostic()
    assert hash(_diagnostic()) == hash(_diagnostic())
    assert _diagnostic() != _diagnostic(column=6)
    assert len({_diagnostic(), _diagnostic(), _diagnostic(message="other")}) == 2
    assert _diagnostic() != ("a.yaml", 3, 5, "spec.x", "schema", Severity.ERROR, "bad")


def test_ordering_is_the_tuple_of_fields() -> None:
    assert _diagnostic(file="a") < _diagnostic(file="b")
    assert _diagnostic(line=2) < _diagnostic(line=3) <= _diagnostic(line=3)
    assert _diagnostic(line=4) > _diagnostic(line=3) >= _diagnostic(line=3)
    with pytest.raises(TypeError):
        _ = _diagnostic() < ("a.yaml",)


def test_frozen_records_refuse_assignment_mutable_ones_allow_it() -> None:
    d = _diagnostic()
    with pytest.raises(AttributeError):
        d.line = 4  # type: ignore[misc]
    with pytest.raises(AttributeError):
        del d.line
    job = CompiledJob("j", "s.yaml", [])
    job.name = "k"
    assert job == CompiledJob("k", "s.yaml", [], {})
    with pytest.raises(TypeError):
        hash(job)


def test_pickle_copy_and_repr() -> None:
    d = _diagnostic()
    assert pickle.loads(pickle.dumps(d)) == d  # what forked validation workers send back
    assert copy.deepcopy(d) == d and copy.copy(d) == d
    assert repr(Options((0, 8, 0), None)) == "Options(operator_version=(0, 8, 0), priority_classes=None)"
    result = CompileResult([CompiledJob("j", "s.yaml", [{"kind": "MPIJob"}])], [d])
    assert pickle.loads(pickle.dumps(result)) == result
    assert d.with_file("b.yaml") == _diagnostic(file="b.yaml")
