"""mpigen.load.scan: where a large YAML text is cut into pieces that parse as in the whole."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mpigen.load.scan import split_documents


def test_split_documents_cuts_only_at_markers_and_keeps_every_line() -> None:
    text = "a: 1\n---\nb: |\n  --- not a marker\n---\nc: 3\n---\nd: 4\n"
    pieces = split_documents(text, 2)
    assert "".join(piece for _, piece in pieces) == text
    assert len(pieces) == 2
    for lines, piece in pieces:
        assert text.splitlines()[lines] == piece.splitlines()[0]
    assert split_documents("%YAML 1.1\n---\na: 1\n---\nb: 2\n", 2) == [(0, "%YAML 1.1\n---\na: 1\n---\nb: 2\n")]


def _cuts_with_a_regex(text: str, parts: int) -> list[int]:
    """Where split_documents cut as it was first written (a regex over the whole text)."""
    import re

    if parts < 2 or text.startswith("%") or "\n%" in text:
        return []
    starts = [m.start() + 1 for m in re.finditer(r"\n---(?=[ \t\r\n]|$)", text)]
    target = len(text) / parts
    cuts, next_cut = [], target
    for start in starts:
        if start >= next_cut:
            cuts.append(start)
            next_cut = start + target
    return cuts


@given(st.lists(st.sampled_from(["---", "--- x", "---x", "----", "a: 1", " ---", "- a", "", "--- |", "%", "\t",
                                 "---\t", "b: ---", "# ---"]), max_size=40).map("\n".join),
       st.booleans(), st.integers(min_value=0, max_value=12))
@settings(max_examples=400, deadline=None)
def test_split_documents_cuts_where_the_regex_did(text: str, newline: bool, parts: int) -> None:
    text += "\n" if newline else ""
    pieces = split_documents(text, parts)
    assert "".join(piece for _, piece in pieces) == text
    offsets = [sum(len(p) for _, p in pieces[:i]) for i in range(len(pieces))]
    assert [lines for lines, _ in pieces] == [text.count("\n", 0, at) for at in offsets]
    assert offsets[1:] == _cuts_with_a_regex(text, parts)


@pytest.mark.parametrize("odd", ["\u2028", "\x85", "\u2029", "\r"])
def test_a_file_with_other_line_breaks_is_not_cut(odd: str) -> None:
    """libyaml counts these as lines too; a piece's line offset counts newlines only."""
    text = f"a: 'x{odd}y'\n" + "".join(f"---\nb{i}: 1\n" for i in range(20))
    assert split_documents(text, 4) == [(0, text)]
    crlf = "".join(f"---\r\nb{i}: 1\r\n" for i in range(20))
    assert len(split_documents(crlf, 4)) == 4  # CRLF is one break, as libyaml counts it


@pytest.mark.parametrize("start", ["", "---\n"])
def test_split_documents_can_give_the_first_document_a_piece_of_its_own(start: str) -> None:
    docs = [f"a: {i}\nb: [{i}]\n" for i in range(40)]
    text = start + "---\n".join(docs)
    pieces = split_documents(text, 4, first=1)
    assert pieces[0] == (0, start + docs[0])
    assert 4 <= len(pieces) - 1 <= 5
    assert "".join(piece for _, piece in pieces) == text
    assert all(line == text[:text.index(piece)].count("\n") for line, piece in pieces[1:])
    assert all(piece.startswith("---\n") for _, piece in pieces[1:])
