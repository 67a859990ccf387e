"""The error catalogue (docs/errors.md) as data: each diagnostic code's severity, what it means,
how to fix it and a real message, for ``mpigen rules CODE`` and the SARIF report's rule metadata.

docs/errors.md is the one source; the package carries it as ``mpigen/data/errors.md`` (a link
to it in a checkout, a copy in a built wheel). Its rows read ``| `code` | severity | what it
means. **Fix:** ... | `an example message` |`` (a lint rule's code links to docs/rules.md).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from importlib import resources

_CODE = re.compile(r"^\[?`(?P<code>[a-z0-9]+(?:-[a-z0-9]+)*)`(?:\]\([^)]*\))?$")
_CELL = re.compile(r"(?<!\\)\|")  # a cell border: a | not written \|
_FIX = "**Fix:**"


@dataclass(frozen=True, slots=True)
class CodeDoc:
    code: str
    severity: str  # as the catalogue writes it: "error", "warning", "error, warning"...
    meaning: str  # Markdown
    fix: str  # Markdown; empty when the row gives none
    example: str  # a message as mpigen printed it, without its backquotes


@functools.cache
def catalogue() -> dict[str, CodeDoc]:
    """Every code of the catalogue, in its order."""
    text = resources.files("mpigen").joinpath("data", "errors.md").read_text("utf-8")
    out: dict[str, CodeDoc] = {}
    for line in text.splitlines():
        cells = [c.strip().replace("\\|", "|") for c in _CELL.split(line.strip())]
        if len(cells) != 6 or cells[0] or cells[-1]:  # | code | severity | meaning and fix | example |
            continue
        match = _CODE.match(cells[1])
        if match is None:
            continue
        meaning, _, fix = cells[3].partition(_FIX)
        out[match["code"]] = CodeDoc(match["code"], cells[2], meaning.strip(), fix.strip(), cells[4].strip("`"))
    return out


def code_doc(code: str) -> CodeDoc | None:
    return catalogue().get(code)
