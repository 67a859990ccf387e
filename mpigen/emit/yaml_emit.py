"""The one YAML emitter: deterministic, safely quoted, byte-identical on every run and machine.

Objects are built as plain dicts whose insertion order is the order we want to read them in
(the builders put ``apiVersion``, ``kind``, ``metadata``, ``spec`` first and sort user maps), so the
emitter keeps insertion order. A string is written plain only when it is made of safe characters
and no YAML 1.1 *or* YAML 1.2 reader could take it for something else (``no``, ``on``, ``1.10``,
``0o17``, ``1e3``, ``~``...); otherwise it is double-quoted with JSON's escapes (which YAML shares)
or, for multi-line text that round-trips exactly, written as a literal block. So the text means
the same to PyYAML, Go's YAML readers and kubectl alike.

It writes plain data (mappings with string keys, lists, strings, integers, floats, booleans,
null) directly as text, in kubectl's layout (two-space indentation, lists at their key's level):
several times faster than a general YAML library's representer, and never an anchor or a tag.
"""

from __future__ import annotations

import re
from typing import Any, Iterable, Iterator

# Plain scalars that a YAML 1.2 core-schema or 1.1 reader would not read as a string.
_AMBIGUOUS = re.compile(
    r"""^(?:
        ~|null|Null|NULL|
        [yY]|yes|Yes|YES|[nN]|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF|
        [-+]?(?:0|[1-9][0-9_]*)|[-+]?0[0-9_]+|[-+]?0[oO][0-7_]+|[-+]?0[xX][0-9a-fA-F_]+|[-+]?0[bB][01_]+|
        [-+]?(?:[0-9][0-9_]*)?\.[0-9_]*(?:[eE][-+]?[0-9]+)?|[-+]?[0-9][0-9_]*[eE][-+]?[0-9]+|
        [-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)|
        [-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?|
        [0-9]{4}-[0-9]{1,2}-[0-9]{1,2}.*|
        <<|=
    )$""",
    re.VERBOSE,
)


_INDICATORS = frozenset("-?:,[]{}#&*!|>'\"%@`")
_NON_PRINTABLE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff\ud800-\udfff]")
_QUOTE_ESCAPES = re.compile("[\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff\ud800-\udfff]")
_SPACE = re.compile(r"\s")
# json.dumps(text, ensure_ascii=False) without importing json: its escapes, which YAML shares
_JSON_ESCAPES = {code: f"\\u{code:04x}" for code in range(0x20)}
_JSON_ESCAPES.update({ord('"'): '\\"', ord("\\"): "\\\\", ord("\n"): "\\n", ord("\r"): "\\r",
                      ord("\t"): "\\t", ord("\b"): "\\b", ord("\f"): "\\f"})


def _plain_ok(text: str) -> bool:
    """Whether ``text`` may stand unquoted in block context and still read back as this very string.

    Not empty, no leading or trailing space, no tab, newline or non-printable character; not
    starting with an indicator (``-x`` is fine: a dash followed by a non-space is no sequence
    entry); no ``: `` or `` #`` inside, no ``:`` at the end; not a document marker; and nothing a
    YAML 1.1 or 1.2 reader resolves to another type.
    """
    if not text or _SPACE.match(text) or text[-1].isspace() or text.endswith(":"):
        return False
    first = text[0]
    if first in _INDICATORS and not (first == "-" and len(text) > 1 and not text[1].isspace()):
        return False
    if text.startswith(("---", "...")) or ": " in text or " #" in text or "\t" in text or "\n" in text:
        return False
    return not _NON_PRINTABLE.search(text) and not _AMBIGUOUS.match(text)


def _plain_or_quoted(text: str) -> str:
    """``text`` plain when it reads back as itself, else double-quoted."""
    return text if _plain_ok(text) else _quoted(text)


_TEXTS: dict[str, str] = {}  # string -> how it is written; keys and values repeat across objects
_TEXTS_MAX = 16_384


def _string(text: str) -> str:
    """:func:`_plain_or_quoted`, remembered for short strings (a pure function). The streaming
    writer keeps its own per-stream memory instead, so that a long stream stays bounded."""
    written = _TEXTS.get(text)
    if written is None:
        written = _plain_or_quoted(text)
        if len(_TEXTS) < _TEXTS_MAX and len(text) <= 128:
            _TEXTS[text] = written
    return written


def _quoted(text: str) -> str:
    """A double-quoted YAML scalar: JSON's escapes, which YAML shares, plus YAML's non-printables."""
    quoted = '"' + text.translate(_JSON_ESCAPES) + '"'
    return _QUOTE_ESCAPES.sub(lambda m: f"\\u{ord(m.group()):04x}", quoted)


def _literal(text: str, indent: str) -> str | None:
    """A literal block scalar (``|``) for multi-line text, when it round-trips exactly."""
    if "\r" in text or _NON_PRINTABLE.search(text) or text.startswith((" ", "\t", "\n")):
        return None
    body = text.rstrip("\n")
    trailing = len(text) - len(body)
    lines = body.split("\n")
    if any(line.endswith((" ", "\t")) or line.startswith("\t") for line in lines):
        return None
    chomp = "-" if trailing == 0 else ("" if trailing == 1 else "+")
    pad = indent or "  "
    out = "|" + chomp + "\n" + "".join((pad + line if line else "") + "\n" for line in lines)
    return out + "\n" * (trailing - 1) if trailing > 1 else out


def _scalar(value: Any) -> str:
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            raise ValueError("YAML output cannot hold NaN or infinity")
        text = repr(value)
        return text if "." in text or "e" not in text else text.replace("e", ".0e", 1)
    if isinstance(value, str):
        return _string(value)
    raise TypeError(f"cannot write {type(value).__name__} as YAML")


def _node(value: Any, indent: str, out: list[str]) -> None:
    """Append ``value`` at ``indent``; the caller has written what precedes it on the line."""
    if isinstance(value, dict):
        if not value:
            out.append(" {}\n")
            return
        out.append("\n")
        _mapping(value, indent, out)
    elif isinstance(value, list):
        if not value:
            out.append(" []\n")
            return
        out.append("\n")
        _sequence(value, indent, out)
    elif isinstance(value, str) and "\n" in value and (block := _literal(value, indent)) is not None:
        out.append(" " + block)
    else:
        out.append(" " + _scalar(value) + "\n")


def _key(key: Any) -> str:
    if not isinstance(key, str):
        raise TypeError(f"mapping keys must be strings, not {type(key).__name__}")
    return _string(key)


def _mapping(value: dict[str, Any], indent: str, out: list[str], first_prefix: str | None = None) -> None:
    for i, (key, item) in enumerate(value.items()):
        out.append((first_prefix if i == 0 and first_prefix is not None else indent) + _key(key) + ":")
        if isinstance(item, list) and item:
            out.append("\n")
            _sequence(item, indent, out)  # sequences sit at their key's indentation, as kubectl writes them
        else:
            _node(item, indent + "  ", out)


def _sequence(value: list[Any], indent: str, out: list[str]) -> None:
    for item in value:
        if isinstance(item, dict) and item:
            _mapping(item, indent + "  ", out, first_prefix=indent + "- ")
        elif isinstance(item, list) and item:
            out.append(indent + "-\n")
            _sequence(item, indent + "  ", out)
        else:
            out.append(indent + "-")
            _node(item, indent + "  ", out)


def dump(obj: Any) -> str:
    """One object as YAML text."""
    out: list[str] = []
    if isinstance(obj, dict) and obj:
        _mapping(obj, "", out)
    elif isinstance(obj, list) and obj:
        _sequence(obj, "", out)
    else:
        _node(obj, "", out)
        out[0] = out[0].lstrip(" ")
    return "".join(out)


def dump_all(objs: Iterable[Any]) -> str:
    """Several objects as a multi-document stream, each document introduced by ``---``."""
    return "".join("---\n" + dump(obj) for obj in objs)


# ------------------------------------------------------------------ streaming


class Lines:
    """Multi-line text given lazily, for :func:`iter_dump_all`: the lines of ``source`` (any
    re-iterable of strings without line breaks), each followed by a newline.

    Written as a literal block, byte for byte as :func:`dump` writes the same text held as one
    string, without ever holding it: each line must be non-empty, start with no tab (the first
    with no space either), end with no space or tab, and hold no line break or non-printable
    character; a line that does not raises ``ValueError`` (the block would not read back as the
    text). No line at all is the empty string.
    """

    __slots__ = ("source",)

    def __init__(self, source: Iterable[str]) -> None:
        self.source = source


_CACHE_LIMIT = 1024  # distinct strings and keys remembered by a stream (then it starts over)
_SHARED_LIMIT = 512  # mappings and lists seen, and texts remembered (then it starts over)


class _Stream:
    """:func:`_mapping`, :func:`_sequence` and :func:`_node` again, writing the same text, with
    the formatting of strings and keys remembered (per-index objects repeat most of them) and
    :class:`Lines` left in ``out`` for the caller to expand. With ``shared``, the text of a
    mapping or list met again (the very same object, at the same place) is reused."""

    def __init__(self, shared: bool) -> None:
        self.scalars: dict[str, str] = {}
        self.keys: dict[str, str] = {}
        self.shared = shared
        self.texts: dict[tuple[int, str, str | None], tuple[Any, str]] = {}  # id, indent, prefix -> (node, text)
        self.seen: set[tuple[int, str, str | None]] = set()  # written once: remembered when met again
        self.pending = 0  # Lines values left in out so far (a text holding one is not remembered)

    def scalar(self, value: Any) -> str:
        if type(value) is not str:
            return _scalar(value)
        text = self.scalars.get(value)
        if text is None:
            if len(self.scalars) >= _CACHE_LIMIT:
                self.scalars.clear()
            text = self.scalars[value] = _plain_or_quoted(value)
        return text

    def key(self, key: Any) -> str:
        text = self.keys.get(key) if type(key) is str else None
        if text is None:
            text = _plain_or_quoted(key) if type(key) is str else _key(key)
            if len(self.keys) >= _CACHE_LIMIT:
                self.keys.clear()
            self.keys[key] = text
        return text

    def reuse(self, value: Any, indent: str, prefix: str | None, out: list[Any]) -> bool:
        """Write the remembered text of ``value`` at this place; False when there is none."""
        hit = self.texts.get((id(value), indent, prefix)) if self.shared else None
        if hit is None or hit[0] is not value:
            return False
        out.append(hit[1])
        return True

    def remember(self, value: Any, indent: str, prefix: str | None, out: list[Any], start: int, pending: int) -> None:
        if not self.shared or self.pending != pending:
            return
        key = (id(value), indent, prefix)
        if key not in self.seen:  # (an id reused by another object only costs one remembered text)
            if len(self.seen) >= _SHARED_LIMIT:
                self.seen.clear()
            self.seen.add(key)
            return
        if len(self.texts) >= _SHARED_LIMIT:
            self.texts.clear()
        text = "".join(out[start:])
        del out[start:]
        out.append(text)
        self.texts[key] = (value, text)  # holds value: its id is not reused while remembered

    def node(self, value: Any, indent: str, out: list[Any]) -> None:
        if isinstance(value, dict):
            if not value:
                out.append(" {}\n")
                return
            out.append("\n")
            self.mapping(value, indent, out)
        elif isinstance(value, list):
            if not value:
                out.append(" []\n")
                return
            out.append("\n")
            self.sequence(value, indent, out)
        elif isinstance(value, Lines):
            out.append((value, indent or "  "))
            self.pending += 1
        elif isinstance(value, str) and "\n" in value and (block := _literal(value, indent)) is not None:
            out.append(" " + block)
        else:
            out.append(" " + self.scalar(value) + "\n")

    def mapping(self, value: dict[str, Any], indent: str, out: list[Any], first_prefix: str | None = None,
                keep: bool = True) -> None:
        if keep and self.reuse(value, indent, first_prefix, out):
            return
        start, pending = len(out), self.pending
        keys, scalars = self.keys, self.scalars
        for i, (key, item) in enumerate(value.items()):
            head = (first_prefix if i == 0 and first_prefix is not None else indent) + (
                keys.get(key) or self.key(key)) + ":"
            if type(item) is str and "\n" not in item:  # the common case, as node() writes it
                out.append(head + " " + (scalars.get(item) or self.scalar(item)) + "\n")
            elif isinstance(item, list) and item:
                out.append(head + "\n")
                self.sequence(item, indent, out)
            else:
                out.append(head)
                self.node(item, indent + "  ", out)
        if keep:
            self.remember(value, indent, first_prefix, out, start, pending)

    def sequence(self, value: list[Any], indent: str, out: list[Any], keep: bool = True) -> None:
        if keep and self.reuse(value, indent, None, out):
            return
        start, pending = len(out), self.pending
        for item in value:
            if isinstance(item, dict) and item:
                self.mapping(item, indent + "  ", out, first_prefix=indent + "- ")
            elif isinstance(item, list) and item:
                out.append(indent + "-\n")
                self.sequence(item, indent + "  ", out)
            else:
                out.append(indent + "-")
                self.node(item, indent + "  ", out)
        if keep:
            self.remember(value, indent, None, out, start, pending)


def _block_lines(lines: Lines, pad: str, lead: str) -> Iterator[str]:
    """A :class:`Lines` value as :func:`_node` writes the joined text: ``|`` and its lines."""
    first = True
    batch: list[str] = []
    for line in lines.source:
        if (not line or line[0] == "\t" or (first and line[0] == " ") or line[-1] in " \t" or "\n" in line
                or _NON_PRINTABLE.search(line)):
            raise ValueError(f"cannot write {line!r} as a line of a literal block")
        if first:
            batch.append(lead + "|\n")
            first = False
        batch.append(pad + line + "\n")
        if len(batch) >= 1024:
            yield "".join(batch)
            batch.clear()
    if first:
        batch.append(lead + '""\n')  # no line: the empty string
    yield "".join(batch)


def iter_dump_all(objs: Iterable[Any], shared: bool = False) -> Iterator[str]:
    """:func:`dump_all`, in pieces: yields the text of one document after another (and of a
    :class:`Lines` value a batch of lines at a time), so that neither the objects, which ``objs``
    may generate one by one, nor the text is ever held whole. ``"".join(iter_dump_all(objs))``
    is ``dump_all(objs)`` (with each :class:`Lines` value given as its text).

    ``shared``: the objects share parts (the same dict or list object in many of them, as
    per-index objects built from one template do), written once and then repeated from memory;
    no part may change after its object has been yielded.
    """
    stream = _Stream(shared)
    for obj in objs:
        out: list[Any] = ["---\n"]
        if isinstance(obj, dict) and obj:
            stream.mapping(obj, "", out, keep=False)  # a document itself is not remembered
        elif isinstance(obj, list) and obj:
            stream.sequence(obj, "", out, keep=False)
        else:
            stream.node(obj, "", out)
            if isinstance(out[1], str):
                out[1] = out[1].lstrip(" ")
        text: list[str] = []
        for i, piece in enumerate(out):
            if isinstance(piece, str):
                text.append(piece)
                continue
            yield "".join(text)
            text.clear()
            yield from _block_lines(piece[0], piece[1], "" if i == 1 else " ")
        if text:
            yield "".join(text)
