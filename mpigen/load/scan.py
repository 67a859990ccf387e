"""Scans of a YAML text before it is parsed: whether it nests deeper than the parser survives,
and where a large file can be cut into pieces that parse as they did in the whole.

Plain text work (``str.find``, a few regular expressions): nothing here reads YAML.
"""

from __future__ import annotations

import math
import re

from .document import Position


_PARSER_DEPTH = 5_000
"""Nesting at which the scan below refuses a file before the C composer sees it: PyYAML's
composer recurses once per level and crashes the interpreter somewhere past 20,000 levels."""


def nesting_beyond_parser(text: str) -> Position | None:
    """Where flow brackets or indentation nest past :data:`_PARSER_DEPTH`, if they do.

    Conservative and cheap: a file with fewer brackets than the limit is not scanned at all, and
    brackets inside quotes are skipped (a false alarm needs thousands of unmatched brackets).
    """
    deep_indent = _DEEP_FIRST_LINE.match(text) or _DEEP_LINE.search(text)
    if deep_indent:  # (a newline and the run: four times faster than ^ in MULTILINE mode)
        start = deep_indent.start() + (text[deep_indent.start()] == "\n")
        return (text.count("\n", 0, start) + 1, 1)
    if text.count("[") + text.count("{") < _PARSER_DEPTH:
        return None
    depth = 0
    for match in _BRACKETS.finditer(text):
        token = match.group()
        if token in "[{":
            depth += 1
            if depth > _PARSER_DEPTH:
                pos = match.start()
                return (text.count("\n", 0, pos) + 1, pos - (text.rfind("\n", 0, pos) + 1) + 1)
        elif token in "]}":
            depth = max(0, depth - 1)
    return None


_DEEP_FIRST_LINE = re.compile(rf"[ \t]{{{_PARSER_DEPTH * 2}}}")
_DEEP_LINE = re.compile(rf"\n[ \t]{{{_PARSER_DEPTH * 2}}}")
_BRACKETS = re.compile(r"""[\[\]{}]|"(?:[^"\\\n]|\\.)*"|'(?:[^'\n]|'')*'""")


def split_documents(text: str, parts: int, first: int = 0) -> list[tuple[int, str]]:
    """``text`` cut at document markers into about ``parts`` pieces: (lines before it, piece);
    with ``first``, a piece of its own before them ends at the first marker from that offset
    (``first=1``: the first document alone).

    A line that starts with ``---`` always begins a new document (YAML allows it nowhere else at
    column 0), so each piece parses as the same documents did in the whole. A file with
    directives (``%YAML``, ``%TAG``) is not cut: they would not carry over. Read a piece with
    ``iter_text(piece, filename, lines)`` and every line number comes out as in the whole file.
    """
    if parts < 2 or text.startswith("%") or "\n%" in text or not breaks_are_newlines(text):
        return [(0, text)]
    target = len(text) / parts
    cuts: list[int] = []
    start = _marker_from(text, first) if first else None
    if start is not None:
        cuts.append(start)
        target = (len(text) - start) / parts
    start = _marker_from(text, (start or 0) + target)
    while start is not None:  # the first marker at or after each target (str.find, not a regex scan)
        cuts.append(start)
        start = _marker_from(text, start + target)
    pieces, line, previous = [], 0, 0
    for cut in cuts + [len(text)]:
        piece = text[previous:cut]
        pieces.append((line, piece))
        line += piece.count("\n")
        previous = cut
    return [p for p in pieces if p[1]]


def breaks_are_newlines(text: str) -> bool:
    """Whether YAML's line breaks in ``text`` are its newlines: no lone CR and, in non-ASCII text
    (``isascii`` is free), no NEL, LINE or PARAGRAPH SEPARATOR, all of which libyaml counts as
    a line. Only then does counting newlines give each piece the line libyaml would."""
    if "\r" in text and text.count("\r") != text.count("\r\n"):
        return False
    return text.isascii() or not any(c in text for c in "\x85\u2028\u2029")


def _marker_from(text: str, position: float) -> int | None:
    """Where the first line ``---`` (alone, or followed by a space, tab or line break) that
    starts at or after ``position`` starts; None when there is none."""
    at = max(0, math.ceil(position) - 1)  # the newline before it
    while True:
        at = text.find("\n---", at)
        if at < 0:
            return None
        after = at + 4
        if after == len(text) or text[after] in " \t\r\n":
            return at + 1
        at += 1
