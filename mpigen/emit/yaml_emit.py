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

import json
import re
from typing import Any, Iterable

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


def _quoted(text: str) -> str:
    """A double-quoted YAML scalar: JSON's escapes, which YAML shares, plus YAML's non-printables."""
    quoted = json.dumps(text, ensure_ascii=False)
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
        return value if _plain_ok(value) else _quoted(value)
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
    return key if _plain_ok(key) else _quoted(key)


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
