"""mpigen.diagnostics: the one diagnostic type, its text form and its order."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest

from mpigen.diagnostics import (
    EXIT_INTERNAL, EXIT_INVALID, EXIT_OK, EXIT_USAGE, Diagnostic, Severity, did_you_mean, format_path, has_errors,
    one_per_problem, sort_diagnostics,
)

E, W, I = Severity.ERROR, Severity.WARNING, Severity.INFO


def D(file="f.yaml", line=1, column=1, path="", code="c", severity=E, message="m") -> Diagnostic:
    return Diagnostic(file, line, column, path, code, severity, message)


# --------------------------------------------------------------------------------------------
# format
# --------------------------------------------------------------------------------------------

@pytest.mark.parametrize(
    "diag, text",
    [
        (D("spec.yaml", 12, 5, "spec.workers.replicas", "schema", E, "must be >= 1"),
         "spec.yaml:12:5: error schema must be >= 1 (spec.workers.replicas)"),
        (D("a/b.yaml", 3, 1, "", "yaml-syntax", E, "bad"), "a/b.yaml:3:1: error yaml-syntax bad"),
        (D("x.yaml", 7, None, "metadata", "w-code", W, "careful"), "x.yaml:7:1: warning w-code careful (metadata)"),
        (D("x.yaml", 7, 0, "", "c", I, "col zero"), "x.yaml:7:1: info c col zero"),
        (D("x.yaml", None, None, "", "no-spec", E, "the file holds no mpigen spec"),
         "x.yaml: error no-spec the file holds no mpigen spec"),
        (D("x.yaml", None, None, "metadata.name", "duplicate-job", E, "two"),
         "x.yaml: error duplicate-job two (metadata.name)"),
        (D("-", 1, 2, 'metadata.annotations["a.b/c"]', "k", E, "msg: with colon (and parens)"),
         '-:1:2: error k msg: with colon (and parens) (metadata.annotations["a.b/c"])'),
    ],
)
def test_format_exact(diag, text):
    assert diag.format() == text


def test_severity_values_and_str():
    assert [s.value for s in Severity] == ["error", "warning", "info"]
    assert str(Severity.WARNING) == "warning"
    assert Severity("info") is Severity.INFO


def test_with_file_replaces_only_the_file():
    d = D("a.yaml", 4, 2, "p", "code", W, "msg")
    e = d.with_file("b.yaml")
    assert e == Diagnostic("b.yaml", 4, 2, "p", "code", W, "msg")
    assert d.file == "a.yaml"


def test_diagnostic_is_frozen_and_hashable():
    d = D()
    with pytest.raises(AttributeError):
        d.line = 2  # type: ignore[misc]
    assert len({D(), D()}) == 1


def test_has_errors():
    assert has_errors([D(severity=W), D(severity=E)])
    assert not has_errors([D(severity=W), D(severity=I)])
    assert not has_errors([])
    assert has_errors(iter([D(severity=E)]))


def test_exit_codes():
    assert (EXIT_OK, EXIT_INVALID, EXIT_USAGE, EXIT_INTERNAL) == (0, 1, 2, 3)


# --------------------------------------------------------------------------------------------
# format_path
# --------------------------------------------------------------------------------------------

@pytest.mark.parametrize(
    "path, text",
    [
        ((), ""),
        (("spec",), "spec"),
        (("spec", "volumes", 0, "claimName"), "spec.volumes[0].claimName"),
        (("a", 0, 1, "b"), "a[0][1].b"),
        ((0, "a"), "[0].a"),
        ((3,), "[3]"),
        (("metadata", "annotations", "a.b/c"), 'metadata.annotations["a.b/c"]'),
        (("metadata", "labels", "app.kubernetes.io/name"), 'metadata.labels["app.kubernetes.io/name"]'),
        (("a.b", "c"), '["a.b"].c'),
        (("x", "with space"), 'x["with space"]'),
        (("x", ""), 'x[""]'),
        (("x", "1abc"), 'x["1abc"]'),
        (("x", "123"), 'x["123"]'),
        (("x", 'q"uote'), 'x["q\\"uote"]'),
        (("x", "back\\slash"), 'x["back\\\\slash"]'),
        (("x", "snake_case", "kebab-case", "CamelCase9"), "x.snake_case.kebab-case.CamelCase9"),
        (("x", "~tilde"), 'x["~tilde"]'),
        (("spec", "environments", "prod", "workers", "replicas"), "spec.environments.prod.workers.replicas"),
    ],
)
def test_format_path(path, text):
    assert format_path(path) == text


def test_format_path_accepts_any_iterable():
    assert format_path(iter(["a", 0])) == "a[0]"
    assert format_path(["a", "b.c"]) == 'a["b.c"]'


# --------------------------------------------------------------------------------------------
# sort_diagnostics
# --------------------------------------------------------------------------------------------

def test_sort_dedupes_equal_diagnostics():
    a = D(line=2, message="x")
    assert sort_diagnostics([a, D(line=2, message="x"), a]) == [a]


def test_sort_orders_by_file_line_column_path_code_message():
    ds = [
        D("b.yaml", 1, 1),
        D("a.yaml", 10, 1),
        D("a.yaml", 2, 5),
        D("a.yaml", 2, 1, path="z"),
        D("a.yaml", 2, 1, path="a", code="y"),
        D("a.yaml", 2, 1, path="a", code="x", message="2"),
        D("a.yaml", 2, 1, path="a", code="x", message="1"),
        D("a.yaml", None, None, code="no-line"),
    ]
    expected = [ds[7], ds[6], ds[5], ds[4], ds[3], ds[2], ds[1], ds[0]]
    assert sort_diagnostics(ds) == expected
    assert sort_diagnostics(reversed(ds)) == expected
    assert sort_diagnostics(iter(ds)) == expected


def test_sort_numeric_not_lexicographic_lines():
    ds = [D(line=10), D(line=9), D(line=100)]
    assert [d.line for d in sort_diagnostics(ds)] == [9, 10, 100]


def test_sort_missing_column_counts_as_zero():
    assert sort_diagnostics([D(line=3, column=1), D(line=3, column=None)]) == [D(line=3, column=None),
                                                                              D(line=3, column=1)]


def test_sort_empty():
    assert sort_diagnostics([]) == []


# --------------------------------------------------------------------------------------------
# one problem, one diagnostic
# --------------------------------------------------------------------------------------------

def test_a_specific_error_at_the_same_place_replaces_the_schema_error():
    schema = D(path="spec.resources.gpu", code="schema", message="expected an integer")
    specific = D(path="spec.resources.gpu", code="quantity", message="'two' is not a quantity")
    other_place = D(path="spec.resources.cpu", code="schema", message="expected a string")
    assert one_per_problem([schema, specific, other_place]) == [specific, other_place]


@pytest.mark.parametrize("other", [
    D(path="spec.x", code="quantity", severity=W),  # a warning does not say what the error says
    D(path="spec.x", code="unknown-field"),  # the schema's own codes are problems of their own
    D(path="spec.x", code="missing-field"),
    D(path="spec.y", code="quantity"),  # another field
    D(file="g.yaml", path="spec.x", code="quantity"),  # another file
])
def test_the_schema_error_stays_beside(other):
    schema = D(path="spec.x", code="schema")
    assert one_per_problem([schema, other]) == [schema, other]


def test_two_schema_errors_at_one_place_both_stay():
    first, second = D(path="spec", code="schema", message="a"), D(path="spec", code="schema", message="b")
    assert one_per_problem([first, second]) == [first, second]


@pytest.mark.parametrize("word, choices, want", [
    ("volcan", ["volcano", "scheduler-plugins", "kube-batch", "kueue", "none"], "volcano"),
    ("openmpi", ["OpenMPI", "Intel", "MPICH"], "OpenMPI"),  # case aside, the choice as written
    ("pytorh", ["mpi", "pytorch", "tensorflow"], "pytorch"),
    ("Volcano", ["volcano", "none"], "volcano"),
    ("slurm", ["volcano", "scheduler-plugins", "kube-batch", "kueue", "none"], None),
    ("x", [], None),
])
def test_did_you_mean(word, choices, want):
    assert did_you_mean(word, choices) == want


_SEED_SCRIPT = textwrap.dedent(
    """
    import json
    from mpigen.diagnostics import Diagnostic, Severity, sort_diagnostics
    ds = [Diagnostic("f", 1, 1, "p", "c", s, "m") for s in Severity]
    print(json.dumps([d.severity.value for d in sort_diagnostics(ds)]))
    """
)


def test_sort_is_the_same_in_every_process():
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    orders = set()
    for seed in range(12):
        env = dict(os.environ, PYTHONHASHSEED=str(seed))
        proc = subprocess.run([sys.executable, "-c", _SEED_SCRIPT], capture_output=True, text=True,
                              env=env, cwd=root, timeout=60, check=True)
        orders.add(tuple(json.loads(proc.stdout)))
    assert len(orders) == 1, orders


def test_a_diagnostic_is_a_frozen_value_that_survives_pickling() -> None:
    """Validation workers send their diagnostics back pickled; duplicates are removed through a set."""
    import pickle

    found = Diagnostic("a.yaml", 3, 5, "spec.x", "schema", Severity.ERROR, "bad")
    assert pickle.loads(pickle.dumps(found)) == found
    assert len({found, Diagnostic("a.yaml", 3, 5, "spec.x", "schema", Severity.ERROR, "bad")}) == 1
    assert found.with_file("b.yaml") == Diagnostic("b.yaml", 3, 5, "spec.x", "schema", Severity.ERROR, "bad")
    with pytest.raises(AttributeError):
        found.line = 4  # type: ignore[misc]
