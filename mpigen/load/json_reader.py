"""Stage 1, load: a JSON text read as JSON, as kubectl reads what ``kubectl get -o json`` prints.

JSON is YAML's flow style, so the YAML reader (:mod:`mpigen.load.yaml_loader`) reads such a file
too, but at the pace of PyYAML's composer (1-2 MB/s) and with a node and two marks for every
value. The standard library's C scanner reads it at the speed of the machine. The two must give
the same document, so :func:`read_json` answers only when the YAML reader would give the same data
and no diagnostic, and leaves the text to the YAML reader otherwise (``None``):

* numbers as YAML 1.1 reads them: a float needs a dot, and an exponent a sign (``1e5`` and
  ``1.5e3`` are strings to PyYAML; ``NaN`` and ``Infinity`` too); one that overflows is the YAML
  reader's error to report;
* what YAML reads otherwise than JSON, or not at all: a tab, an escaped UTF-16 surrogate, a
  character YAML does not allow (DEL, C1 controls), NEL (a line break to YAML, folded to a space
  inside a quoted string), white space between a key and its colon, a key longer than libyaml's
  limit on an implicit key; and a duplicate key, or nesting beyond
  :data:`~mpigen.load.builder.MAX_DEPTH`, which the YAML reader reports.

What the YAML reader records beside the data comes when first asked: the text of each number,
boolean and null (``Document.plain``), from the data itself when each number's text is the one
Python prints for it; the position of one path (``Document.locate``), found in the text (only
the containers on the way are scanned, each once); every position (``Document.positions``), the
positions of a text with line breaks YAML counts and JSON does not (a lone CR, LINE and PARAGRAPH
SEPARATOR), and ``plain`` in the other case, from the YAML reader run on the text then
(``reference``).
"""

from __future__ import annotations

import functools
import re
from typing import Any, Callable

from .builder import MAX_DEPTH
from .document import Document, Path, Position
from .pause import FREEZE_FROM, collector_paused
from .scan import breaks_are_newlines

_WHITE = re.compile(r"[ \t\n\r]*")
_SPACE_BEFORE_COLON = re.compile(r'"[ \t\r\n]+:')


@functools.cache
def _not_yaml() -> re.Pattern[str]:
    """Characters YAML does not allow (libyaml's reader refuses them), and the line breaks it allows
    beside newlines: NEL, which inside a quoted string folds to a space, and LINE and PARAGRAPH
    SEPARATOR, which a quoted value keeps but which end a quoted key's line (a key of U+2028 is a
    YAML syntax error). (Compiled when a non-ASCII JSON text is first read: a class up to U+10FFFF
    takes ``re`` milliseconds, a third of PyYAML's import.)"""
    return re.compile("[^\x09\x0a\x0d\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")

_YAML11_FLOAT = re.compile(r"-?[0-9]+\.[0-9]*(?:[eE][-+][0-9]+)?")
_NEGATIVE_ZERO = re.compile(r"[:\[,][ \t\n\r]*-0(?![0-9.eE])")
"""-0, which reads as 0: its text is not the one Python prints for its value."""
_SIMPLE_KEY = 1000
"""libyaml takes a flow mapping's key for an implicit key only when its ':' comes within 1024
characters of the key's start; a longer key (with some room) is left to the YAML reader."""


class _Other(Exception):
    """The YAML reader may read the text otherwise: it reads it."""


def _float(text: str, exact: list[bool]) -> Any:
    """A JSON number with a fraction or an exponent, as YAML 1.1 reads it; ``exact`` becomes False
    when its text is not the one Python prints for it (``1.50``)."""
    if not _YAML11_FLOAT.fullmatch(text):
        return text  # 1e5, 1.5e3: strings in YAML 1.1
    value = float(text)
    if value in (_INF, -_INF):
        raise _Other  # 1.0e+999: the YAML reader's yaml-value error
    if exact[0] and repr(value) != text:
        exact[0] = False
    return value


_INF = float("inf")


class _Shape:
    """What :func:`read_json` checks of the data, gathered over its parts: the count of keys of every
    mapping, the depth of the deepest non-empty container, the names of the keys (their longest is
    measured once: a cluster's millions of mappings repeat a few thousand names), and whether any
    value is null."""

    def __init__(self) -> None:
        self.keys, self.deepest, self.nulls = 0, -1, False
        self.names: set[str] = set()

    @property
    def longest(self) -> int:
        return max(map(len, self.names), default=0)

    def add(self, value: Any, depth: int = 0) -> None:
        """``value``, at ``depth`` in the document (the root at 0): a walk of its containers, level by
        level, at C speed for their members."""
        if value is None:
            self.nulls = True
        if value.__class__ is not dict and value.__class__ is not list:
            return
        keys, deepest, nulls, names = self.keys, self.deepest, self.nulls, self.names
        level = [value]
        while level:
            below: list[Any] = []
            for value in level:
                if not value:
                    continue
                if value.__class__ is dict:
                    keys += len(value)
                    names.update(value)
                    value = value.values()
                deepest = depth
                if not nulls and None in value:
                    nulls = True
                below += [item for item in value if item.__class__ is dict or item.__class__ is list]
            level, depth = below, depth + 1
        self.keys, self.deepest, self.nulls = keys, max(self.deepest, deepest), nulls


def _space_before_colon(text: str) -> bool:
    """Whether white space may stand between a key and its colon (the YAML reader's error when it
    is a line break). One search of the pattern: on kubectl's JSON of 500 nodes (158 MB) it takes
    0.14 s, where first looking for a space or a line break right before a colon (``" :" in
    text``, ``"\\n:" in text``) took 0.41 s."""
    return _SPACE_BEFORE_COLON.search(text) is not None


def _keys_in_text(text: str) -> int:
    """At least the count of keys in a JSON text with no space before a colon: each key ends with
    an unescaped quote and a colon. Inside strings a quote is escaped, so a ``":`` there follows an
    odd run of backslashes; those of one backslash are not counted (more are, which only
    overcounts)."""
    if "\\" not in text:
        return text.count('":')
    return text.count('":') - text.count('\\":') + text.count('\\\\":')


def _no_duplicates(text: str) -> bool:
    import json

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        out = dict(items)
        if len(out) != len(items):
            raise _Other
        return out

    try:
        json.loads(text, object_pairs_hook=pairs, parse_float=str, parse_constant=str)
    except _Other:
        return False
    return True


def read_json(text: str, offset: int, reference: Callable[[], Document],
              keep_item: Callable[[Any], Any] | None = None) -> Document | None:
    """The one document of ``text`` read as JSON, when it is a JSON object or array that the YAML
    reader reads as the same data with no diagnostic; None otherwise. ``offset``: lines before the
    text; ``reference``: the YAML reader's document of the same text, for what is asked of the
    document that JSON does not tell. ``keep_item``: when the text is an object, each item of its
    ``items`` array is given to it as soon as it is read, and what it returns is kept in the item's
    place (the cluster reader keeps of each Node and Pod only what it reads, so that a cluster's
    objects are not all held at once); the checks are those of the whole items."""
    start = _WHITE.match(text).end()  # type: ignore[union-attr]
    if start == len(text) or text[start] not in "{[":
        return None
    if "\t" in text or "\x7f" in text or (not text.isascii() and _not_yaml().search(text)) \
            or ("\\" in text and "\\u" in text and ("\\ud" in text or "\\uD" in text)) or _space_before_colon(text):
        return None  # (one-character tests first: they cost next to nothing)
    import json  # here: a spec or manifest in YAML (what mpigen build reads) does without it

    exact = [True]
    decoder = json.JSONDecoder(parse_float=lambda literal: _float(literal, exact), parse_constant=str)
    shape = _Shape()
    try:
        with collector_paused(freeze=len(text) >= FREEZE_FROM):  # (mpigen.load.pause)
            if keep_item is not None and text[start] == "{":
                data = _object_with_items(text, start, decoder, keep_item, shape)
            else:
                data = decoder.decode(text)
                shape.add(data)
    except (ValueError, RecursionError, _Other):
        return None
    if shape.deepest >= MAX_DEPTH - 1 or shape.longest * (6 if "\\u" in text else 2) + 2 >= _SIMPLE_KEY:
        return None
    if shape.keys != _keys_in_text(text) and not _no_duplicates(text):
        return None
    before = text[:start]  # white space: YAML counts CR LF, a lone LF and a lone CR as a line each
    line = offset + 1 + before.count("\n") + before.count("\r") - before.count("\r\n")
    memo: list[Document] = []

    def slow() -> Document:
        if not memo:
            memo.append(reference())
        return memo[0]

    def positions() -> tuple[dict[Path, Position], dict[Path, Position]]:
        return slow().positions, slow().key_positions

    def plain() -> dict[Path, str]:
        return _plain(data) if exact[0] and not ("-0" in text and _NEGATIVE_ZERO.search(text)) else slow().plain

    finder = _Finder(text, start, offset).locate if breaks_are_newlines(text) else None
    return Document(data, 0, line, has_nulls=shape.nulls, locator=positions, plain_of=plain, finder=finder)


def _object_with_items(text: str, start: int, decoder: Any, keep_item: Callable[[Any], Any], shape: _Shape) -> Any:
    """``decoder.decode(text)`` of a text whose value is an object (at ``start``), each item of its
    ``items`` array, once decoded by the C scanner and added to ``shape``, replaced by what
    ``keep_item`` returns for it; the rest added to ``shape`` too. ValueError where the decoder would
    raise one."""
    import json

    scan, scanstring, white = json.scanner.make_scanner(decoder), json.decoder.scanstring, _WHITE

    def skip(i: int) -> int:  # past white space
        return white.match(text, i).end()  # type: ignore[union-attr]

    def expect(i: int, what: str) -> int:  # past ``what`` and the white space after it
        if text[i:i + 1] != what:
            raise ValueError(f"{what!r} expected at {i}")
        return skip(i + 1)

    def value_at(i: int) -> tuple[Any, int]:
        try:
            value, end = scan(text, i)
        except StopIteration:
            raise ValueError(f"a value expected at {i}") from None
        return value, skip(end)

    result: dict[str, Any] = {}
    i = skip(start + 1)
    while text[i:i + 1] != "}":
        if result:  # a member before this one
            i = expect(i, ",")
        if text[i:i + 1] != '"':
            raise ValueError(f"a key expected at {i}")
        key, i = scanstring(text, i + 1)
        i = expect(skip(i), ":")
        if key == "items" and text[i:i + 1] == "[":
            kept: list[Any] = []
            i = skip(i + 1)
            while text[i:i + 1] != "]":
                if kept:
                    i = expect(i, ",")
                item, i = value_at(i)
                shape.add(item, 2)
                kept.append(keep_item(item))
            if kept:
                shape.deepest = max(shape.deepest, 1)  # the array itself, a non-empty container
            value, i = kept, skip(i + 1)
        else:
            value, i = value_at(i)
            shape.add(value, 1)
        result[key] = value
    if skip(i + 1) != len(text):
        raise ValueError("extra data after the object")
    shape.keys += len(result)
    shape.names.update(result)
    if result:
        shape.deepest = max(shape.deepest, 0)
    return result


def _plain(data: Any) -> dict[Path, str]:
    """The text of every number, boolean and null of ``data`` (each number's text being the one
    Python prints for it), by path, in the order of the text."""
    out: dict[Path, str] = {}
    stack: list[tuple[Path, Any]] = [((), data)]
    while stack:
        path, value = stack.pop()
        members = value.items() if value.__class__ is dict else enumerate(value)
        below = []
        for key, item in members:
            if item.__class__ is dict or item.__class__ is list:
                below.append((path + (key,), item))
            elif item is None:
                out[path + (key,)] = "null"
            elif item is True or item is False:
                out[path + (key,)] = "true" if item else "false"
            elif item.__class__ is int:
                out[path + (key,)] = str(item)
            elif item.__class__ is float:
                out[path + (key,)] = repr(item)
        stack += reversed(below)
    return out


class _Finder:
    """Positions of paths in a JSON text: the members of each container on the way to a path are
    found once (each value skipped by the C scanner) and kept for the next path."""

    def __init__(self, text: str, start: int, offset: int):
        self.text, self.start, self.offset = text, start, offset
        self.members: dict[int, dict[Any, tuple[int | None, int]]] = {}  # container -> part -> (key, value)
        import json

        self.scan, self.scanstring = json.scanner.make_scanner(json.JSONDecoder()), json.decoder.scanstring

    def _members(self, at: int) -> dict[Any, tuple[int | None, int]]:
        found = self.members.get(at)
        if found is not None:
            return found
        text, white, found = self.text, _WHITE, {}
        close = "}" if text[at] == "{" else "]"
        i = white.match(text, at + 1).end()  # type: ignore[union-attr]
        index = 0
        while text[i] != close:
            if close == "}":
                key, end = self.scanstring(text, i + 1)
                value = white.match(text, white.match(text, end).end() + 1).end()  # type: ignore[union-attr]
                found[key] = (i, value)
            else:
                value = i
                found[index] = (None, value)
                index += 1
            end = self.scan(text, value)[1]
            i = white.match(text, end).end()  # type: ignore[union-attr]
            if text[i] == ",":
                i = white.match(text, i + 1).end()  # type: ignore[union-attr]
        self.members[at] = found
        return found

    def _position(self, index: int) -> Position:
        text = self.text
        return (self.offset + 1 + text.count("\n", 0, index), index - (text.rfind("\n", 0, index) + 1) + 1)

    def locate(self, path: Path, key: bool) -> Position:
        """Where ``path`` stands (its key's position with ``key``), or its nearest ancestor's: as
        :meth:`Document.locate` answers from the positions."""
        at, key_at = self.start, None
        for part in path:
            if self.text[at] not in "{[" or (part.__class__ is int) != (self.text[at] == "["):
                break
            member = self._members(at).get(part)
            if member is None:
                break
            key_at, at = member
        return self._position(key_at if key and key_at is not None else at)
