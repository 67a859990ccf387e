"""mpigen.codes: the error catalogue (docs/errors.md, carried as mpigen/data/errors.md) as data."""

from __future__ import annotations

from importlib import resources

from mpigen.codes import catalogue, code_doc
from mpigen.diagnostics import CODES
from tests.golden.cases import ROOT


def test_the_package_carries_docs_errors_md() -> None:
    carried = resources.files("mpigen").joinpath("data", "errors.md").read_text("utf-8")
    assert carried == (ROOT / "docs" / "errors.md").read_text("utf-8")


def test_every_code_has_its_meaning_and_an_example() -> None:
    assert set(catalogue()) == set(CODES)
    for code in CODES:
        doc = code_doc(code)
        assert doc.meaning and doc.example and doc.severity, code


def test_a_row_is_split_into_meaning_fix_and_example() -> None:
    doc = code_doc("role-null")
    assert doc.severity == "error"
    assert doc.meaning.startswith("A role's `image` set to `null`")
    assert doc.fix.startswith("give the role an image")
    assert doc.example.startswith("spec.yaml:14:14: error role-null")
    assert code_doc("no-such-code") is None
