"""Stage 1, load: YAML text -> plain data, with the line and column of every key and value.

The text is decoded (:func:`decode`), checked for nesting the parser would not survive
(:mod:`mpigen.load.scan`), composed by PyYAML's C parser with the safe loader
(:mod:`mpigen.load.resolve`) and each document's node graph built into plain data
(:mod:`mpigen.load.builder`: only plain data, no duplicate key, no alias bomb). Every problem is
a Diagnostic with a position; nothing here raises for bad input.

Scalars follow YAML 1.1 as PyYAML and Kubernetes' own YAML reader resolve them (so ``on`` is a
boolean), except that timestamps stay strings, as they do when Kubernetes converts YAML to JSON.
"""

from __future__ import annotations

import re
from typing import Any, Iterator

import yaml

from ..diagnostics import Diagnostic, Severity
from .builder import MAX_DEPTH, MAX_NODES, _Builder, _diag, _locator, _Problem  # noqa: F401 (MAX_NODES: the limits)
from .document import Document, LoadResult, Path, Position  # noqa: F401 (the loader's result types)
from .json_reader import read_json
from .pause import FREEZE_FROM, collector_paused
from .resolve import _Loader, kubectl_reads  # noqa: F401 (kubectl_reads: for the stages that check what kubectl sends)
from .scan import nesting_beyond_parser

MAX_BYTES = 64 * 1024 * 1024
"""A file larger than this is refused (a clear limit rather than an exhausted machine)."""
MAX_JSON_BYTES = 4 * 1024 * 1024 * 1024
"""The limit for a JSON text (``kubectl get nodes,pods -A -o json`` of 5,000 nodes and 150,000 pods
is about 1.5 GB): the JSON reader needs no node per value, and no alias multiplies what it reads.
Read as YAML (:func:`compose_text`), such a text is held to :data:`MAX_BYTES`."""
_JSON_START = re.compile(rb"(?:\xef\xbb\xbf)?[ \t\r\n]*[{\[]")


def decode(raw: bytes, filename: str) -> tuple[str | None, list[Diagnostic]]:
    """Bytes -> text: UTF-8 (a BOM is accepted and dropped); anything else is an error."""
    refused = too_large(len(raw), raw, filename)
    if refused is not None:
        return None, [refused]
    body = raw[3:] if raw.startswith(b"\xef\xbb\xbf") else raw
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as exc:
        return None, [not_utf8(body, exc, filename)]
    return text, []


def too_large(size: int, head: bytes, filename: str) -> Diagnostic | None:
    """Whether :func:`decode` refuses a text of ``size`` bytes that starts with ``head`` (all of
    it, or enough to hold its first character beside blanks and a BOM) as too large."""
    limit = MAX_JSON_BYTES if size > MAX_BYTES and _JSON_START.match(head) else MAX_BYTES
    if size <= limit:
        return None
    return _diag(filename, "file-too-large", f"file is {size} bytes; mpigen reads at most {limit} bytes")


def not_utf8(body: bytes, exc: UnicodeDecodeError, filename: str, offset: int = 0) -> Diagnostic:
    """Where ``body`` (a text's bytes after a BOM, or a piece of them that starts a line, with
    ``offset`` lines before it) stops being UTF-8, as :func:`decode` reports it."""
    line = body[: exc.start].count(b"\n") + 1 + offset
    line_start = body.rfind(b"\n", 0, exc.start) + 1
    col = len(body[line_start: exc.start].decode("utf-8", errors="replace")) + 1
    return Diagnostic(filename, line, col, "", "yaml-encoding", Severity.ERROR,
                      f"file is not UTF-8 (byte 0x{body[exc.start]:02x}); save it as UTF-8")


def load_bytes(raw: bytes, filename: str) -> LoadResult:
    text, diags = decode(raw, filename)
    if text is None:
        return LoadResult([], diags)
    return load_text(text, filename)


def load_text(text: str, filename: str) -> LoadResult:
    """Parse every document of ``text``; documents before a syntax error are kept."""
    documents: list[Document] = []
    diagnostics: list[Diagnostic] = []
    for item in iter_text(text, filename):
        if isinstance(item, Document):
            documents.append(item)
        else:
            diagnostics.append(item)
    return LoadResult(documents, diagnostics)


def iter_text(text: str, filename: str, offset: int = 0, checked: bool = False,
              ending: list[tuple[int, bool]] | None = None) -> Iterator[Document | Diagnostic]:
    """The documents of ``text`` one at a time, with the diagnostics of each before it.

    For a piece of a large file: ``offset`` is the count of lines before it (added to every
    line), ``checked`` says that the nesting of the whole file was checked, and ``ending``
    receives (documents read, whether an error stopped the stream) when the stream is done.

    A stream: a caller that handles each document and lets it go keeps memory bounded by the
    largest document, not by the file (a 10,000-document file is fine).

    A JSON text is read as JSON (:mod:`mpigen.load.json_reader`) when that gives what the YAML
    reader (:func:`compose_text`) gives, at the speed of the standard library's C scanner.
    """
    if len(text) <= MAX_JSON_BYTES:
        document = read_json(text, offset, lambda: _reference(text, filename, offset))
        if document is not None:
            yield document
            if ending is not None:
                ending.append((1, False))
            return
    yield from compose_text(text, filename, offset, checked, ending)


def _reference(text: str, filename: str, offset: int) -> Document:
    """The YAML reader's one document of a text the JSON reader read."""
    return next((item for item in compose_text(text, filename, offset) if isinstance(item, Document)),
                Document(None, 0, offset + 1))


def compose_text(text: str, filename: str, offset: int = 0, checked: bool = False,
                 ending: list[tuple[int, bool]] | None = None) -> Iterator[Document | Diagnostic]:
    """The documents of ``text`` as PyYAML's composer and :mod:`mpigen.load.builder` read them
    (:func:`iter_text`'s arguments)."""
    if len(text) > MAX_BYTES:
        yield _diag(filename, "file-too-large", f"file has {len(text)} characters; mpigen reads at most {MAX_BYTES}")
        if ending is not None:
            ending.append((0, True))
        return
    too_deep = None if checked else nesting_beyond_parser(text)
    if too_deep is not None:
        line, col = too_deep
        yield Diagnostic(filename, line + offset, col, "", "yaml-too-deep", Severity.ERROR,
                         f"YAML nesting is deeper than {MAX_DEPTH} levels")
        if ending is not None:
            ending.append((0, True))
        return
    anchors = "&" in text
    merges = "<<" in text
    count, stopped = 0, True
    large = len(text) >= FREEZE_FROM
    try:
        nodes = yaml.compose_all(text, Loader=_Loader)
        while True:
            with collector_paused(freeze=large):  # composed and built with no collection
                node = next(nodes, _END)
                if node is _END:
                    break
                items = [] if node is None else _built(node, count, filename, offset, anchors, merges)
            count += 1
            yield from items
        stopped = False
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        message = exc.problem or "invalid YAML"
        if exc.context:
            message = f"{exc.context}: {message}" if "while" not in exc.context else f"{message} ({exc.context})"
        tab = _tab_at(text, mark)
        if tab is not None:
            mark = tab
            message = f"a tab: YAML indents with spaces only; replace the tab with spaces ({message.strip()})"
        yield _diag(filename, "yaml-syntax", message.strip(), mark, offset=offset)
    except yaml.reader.ReaderError as exc:  # a control character, which YAML does not allow
        line = text.count("\n", 0, exc.position) + 1 + offset
        col = exc.position - (text.rfind("\n", 0, exc.position) + 1) + 1
        yield Diagnostic(filename, line, col, "", "yaml-syntax", Severity.ERROR,
                         f"character {exc.character!r} is not allowed in YAML")
    except yaml.YAMLError as exc:
        yield _diag(filename, "yaml-syntax", str(exc).strip())
    except RecursionError:
        yield _diag(filename, "yaml-too-deep", f"YAML nesting is deeper than {MAX_DEPTH} levels")
    if ending is not None:
        ending.append((count, stopped))


_END = object()


def _built(node: yaml.Node, index: int, filename: str, offset: int, anchors: bool,
           merges: bool) -> list[Document | Diagnostic]:
    """One composed document built: its diagnostics, then the document unless a problem stopped it."""
    builder = _Builder(filename, record=False, offset=offset)
    builder.merges = merges
    try:
        if anchors:  # without anchors there are no aliases: the size is the text's
            builder.check_size(node)
        data = builder.build(node, ())
    except _Problem as problem:
        return [_diag(filename, problem.code, problem.message, problem.mark, problem.path, offset=offset)]
    except RecursionError:
        return [_diag(filename, "yaml-too-deep", f"YAML nesting is deeper than {MAX_DEPTH} levels",
                      node.start_mark, offset=offset)]
    return [*builder.diagnostics, Document(data, index, node.start_mark.line + 1 + offset, None, None, builder.plain,
                                           builder.has_nulls, _locator(node, filename, merges, offset))]


def _tab_at(text: str, mark: Any) -> Any:
    """The mark of the tab a syntax error comes from, if it comes from one: the character at the
    error, or a tab in the indentation of its line (PyYAML says "found character that cannot
    start any token" and the like, never "tab")."""
    if mark is None or not isinstance(getattr(mark, "index", None), int):
        return None
    if mark.index < len(text) and text[mark.index] == "\t":
        return mark
    start = text.rfind("\n", 0, mark.index) + 1
    indent = len(text[start:]) - len(text[start:].lstrip(" \t"))
    where = text.find("\t", start, start + indent)
    if where < 0:
        return None
    return yaml.Mark(mark.name, where, mark.line, where - start, None, None)

