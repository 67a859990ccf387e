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


class Cuts:
    """Where a large file's text can be cut into pieces, found from its bytes one block at a time
    (:meth:`feed`), so that the whole text is never held: the same cuts and refusals as
    :func:`split_documents` and :func:`nesting_beyond_parser` make on the whole text.

    A block is whole lines of the text (the UTF-8 bytes after a BOM), one after the other; only
    the last may end without a newline. Every rule above is a rule about lines (a marker, a
    directive, a deep indent, a line break; a quoted string the bracket scan skips ends on its
    line), so each block is scanned alone, with the bracket depth carried from one to the next.

    The first piece is the first document alone (``split_documents(..., first=1)``). Each piece
    after it ends at the last marker that keeps it within ``target`` bytes, or is one document
    when that document alone is larger: any two pieces in a row hold more than ``target``, so
    there are fewer than ``2 * size / target + 2`` of them, and none is larger than ``target`` or
    the largest document.

    :attr:`refused` says why the text must be read whole (as a one-piece read would: nothing is
    cut); the bytes are taken as UTF-8, which the reader of each piece checks (a text that is not
    UTF-8 is reported as :func:`~mpigen.load.yaml_loader.decode` reports it whatever the cuts)."""

    def __init__(self, target: float):
        self.target = target
        self.size = 0
        """Bytes fed so far."""
        self.lines = 0
        """Newlines fed so far."""
        self.cuts: list[tuple[int, int]] = []
        """(offset of a piece after the first, newlines before it), in order."""
        self.markers = 0
        """Lines after the first that start with ``---`` (``raw.count(b"\\n---")``, marker or not)."""
        self.refused: str | None = None
        self._last: tuple[int, int] | None = None  # the last marker after the open piece's start
        self._depth = 0

    def feed(self, block: bytes, final: bool = False) -> None:
        """The next block of whole lines (``final``: the last, which may end without a newline)."""
        at, lines = self.size, self.lines
        self.size += len(block)
        self.lines += block.count(b"\n")
        self.markers += block.count(b"\n---") + (at > 0 and block.startswith(b"---"))
        if self.refused is None:
            self.refused = _refusal(block)
        if self.refused is None and (b"[" in block or b"{" in block
                                     or (self._depth and (b"]" in block or b"}" in block))):
            self._brackets(block)
        if self.refused is not None:
            return
        counted = 0
        start = 0 if block.startswith(b"---") else _next_line(block, 0)
        while start >= 0:
            after = start + 3
            if (after == len(block) and final) or (after < len(block) and block[after] in b" \t\r\n"):
                lines += block.count(b"\n", counted, start)
                counted = start
                self._marker(at + start, lines)
            start = _next_line(block, after)

    def _marker(self, offset: int, lines: int) -> None:
        opened = self.cuts[-1][0] if self.cuts else 0
        if not self.cuts:  # the first document is a piece of its own
            if offset > 0:
                self.cuts.append((offset, lines))
            return
        if offset - opened > self.target:
            if self._last is not None:
                self.cuts.append(self._last)
                opened = self._last[0]
            if offset - opened > self.target:  # one document larger than the target
                self.cuts.append((offset, lines))
                self._last = None
                return
        self._last = (offset, lines)

    def _brackets(self, block: bytes) -> None:
        """:func:`nesting_beyond_parser`'s bracket scan, carried on over this block."""
        depth = self._depth
        for match in _BYTE_BRACKETS.finditer(block):
            token = match.group()
            if token in (b"[", b"{"):
                depth += 1
                if depth > _PARSER_DEPTH:
                    self.refused = "nesting"
                    return
            elif token in (b"]", b"}"):
                depth = max(0, depth - 1)
        self._depth = depth

    def pieces(self) -> list[tuple[int, int, int]]:
        """(start, end, newlines before it) of every piece, in order: the text from 0 to
        :attr:`size` cut at :attr:`cuts`."""
        cuts = self.cuts
        if self._last is not None and self.size - cuts[-1][0] > self.target:  # the last piece too
            cuts = [*cuts, self._last]
        starts = [(0, 0), *cuts]
        ends = [offset for offset, _ in cuts] + [self.size]
        return [(start, end, lines) for (start, lines), end in zip(starts, ends)]


def _next_line(block: bytes, start: int) -> int:
    """Where the next line from ``start`` that starts with ``---`` starts; -1 when none does."""
    found = block.find(b"\n---", start)
    return found + 1 if found >= 0 else -1


def _refusal(block: bytes) -> str | None:
    """Why a text holding this block is not cut (:func:`split_documents`) or is too deep for the
    parser (:func:`nesting_beyond_parser`'s indent rule); None when the block does not say. (A
    block starts a line: its start is a line start as the text's is.)"""
    if block.startswith(b"%") or b"\n%" in block:
        return "directives"
    if b"\r" in block and block.count(b"\r") != block.count(b"\r\n"):
        return "line breaks"
    if not block.isascii() and any(b in block for b in _OTHER_BREAKS):
        return "line breaks"
    if (b"\t" in block or _DEEP_SPACES in block) and (_DEEP_FIRST_LINE_BYTES.match(block)
                                                     or _DEEP_LINE_BYTES.search(block)):
        return "nesting"  # (the run of blanks looked for first: a regex search costs ten times more)
    return None


_OTHER_BREAKS = tuple(c.encode() for c in "\x85\u2028\u2029")
_DEEP_SPACES = b" " * (_PARSER_DEPTH * 2)
_DEEP_FIRST_LINE_BYTES = re.compile(_DEEP_FIRST_LINE.pattern.encode())
_DEEP_LINE_BYTES = re.compile(_DEEP_LINE.pattern.encode())
_BYTE_BRACKETS = re.compile(_BRACKETS.pattern.encode())
