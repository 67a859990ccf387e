"""``mpigen validate --format sarif``: the diagnostics as a SARIF 2.1.0 log, as GitHub code
scanning (``github/codeql-action/upload-sarif``) and other SARIF viewers read it.

One run of the tool ``mpigen``; its rules are the codes the report holds, described from the lint
rule catalogue (docs/rules.md: title, explanation, fix) or, for the other codes, from the error
catalogue (docs/errors.md: what it means, the fix). A result has its level (error, warning, note
for an info), the message with the JSON path, and its place: the file (a relative path as given,
an absolute one as a ``file://`` URI) and, when the diagnostic has one, the line and column, which
count Unicode code points from 1 as mpigen's do (``columnKind``). A problem of a whole file is
placed at its first line. The objects checked and skipped are the run's properties.
"""

from __future__ import annotations

import json
from pathlib import PurePosixPath, PureWindowsPath
from typing import Any
from urllib.parse import quote

from .. import __version__
from ..codes import code_doc
from ..diagnostics import Diagnostic, Severity
from .engine import Coverage

SARIF_SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
LEVELS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}


def sarif_log(diagnostics: list[Diagnostic], files: list[str], coverage: Coverage) -> str:
    codes = sorted({d.code for d in diagnostics})
    index = {code: i for i, code in enumerate(codes)}
    run: dict[str, Any] = {
        "tool": {"driver": {"name": "mpigen", "version": __version__, "semanticVersion": __version__,
                            "rules": [_rule(code) for code in codes]}},
        "columnKind": "unicodeCodePoints",
        "artifacts": [{"location": {"uri": _uri(f)}} for f in files],
        "results": [_result(d, index[d.code]) for d in diagnostics],
        "properties": {"objectsChecked": coverage.checked, "objectsSkipped": dict(sorted(coverage.skipped.items()))},
    }
    log = {"$schema": SARIF_SCHEMA, "version": "2.1.0", "runs": [run]}
    return json.dumps(log, indent=2, ensure_ascii=False) + "\n"


def _rule(code: str) -> dict[str, Any]:
    """A rule descriptor: the lint rule's catalogue entry, else the error catalogue's row."""
    from ..lint.catalogue import plain
    from ..lint.runner import rules

    rule = next((r for r in rules() if r.code == code), None)
    descriptor: dict[str, Any] = {"id": code, "name": code}
    if rule is not None:
        descriptor |= {
            "shortDescription": {"text": plain(rule.title)},
            "fullDescription": {"text": plain(rule.explanation)},
            "help": {"text": f"Fix: {plain(rule.fix)}", "markdown": f"**Fix:** {rule.fix.replace('``', '`')}"},
            "defaultConfiguration": {"level": LEVELS[rule.severity]},
            "properties": {"kinds": list(rule.kinds)},
        }
        return descriptor
    doc = code_doc(code)
    if doc is None:  # a code from outside mpigen (kubeconform's, merged by --kubeconform)
        return descriptor
    descriptor["shortDescription"] = {"text": _first_sentence(_unmarked(doc.meaning))}
    descriptor["fullDescription"] = {"text": _unmarked(doc.meaning), "markdown": doc.meaning}
    if doc.fix:
        descriptor["help"] = {"text": f"Fix: {_unmarked(doc.fix)}", "markdown": f"**Fix:** {doc.fix}"}
    severity = doc.severity.split()[0].strip(",")  # "info (error with --require-schema)": its first
    descriptor["defaultConfiguration"] = {"level": {"info": "note"}.get(severity, severity)}
    return descriptor


def _result(d: Diagnostic, rule_index: int) -> dict[str, Any]:
    region = {"startLine": d.line, "startColumn": d.column or 1} if d.line is not None else {"startLine": 1}
    location: dict[str, Any] = {"physicalLocation": {"artifactLocation": {"uri": _uri(d.file)}, "region": region}}
    if d.path:
        location["logicalLocations"] = [{"fullyQualifiedName": d.path, "kind": "member"}]
    message = d.message + (f" ({d.path})" if d.path else "")
    return {"ruleId": d.code, "ruleIndex": rule_index, "level": LEVELS[d.severity], "message": {"text": message},
            "locations": [location]}


def _uri(name: str) -> str:
    """A file as a URI reference: a relative path stays relative (the repository's root is the
    base GitHub resolves it against), an absolute one is a file URI; stdin is ``stdin``."""
    if name in ("", "-", "<stdin>"):
        return "stdin"
    path = PureWindowsPath(name) if "\\" in name and ":" in name[:3] else PurePosixPath(name)
    if path.is_absolute():
        return path.as_uri()
    return quote(path.as_posix().removeprefix("./"))


def _unmarked(markdown: str) -> str:
    """Markdown as plain text: backquotes and emphasis marks dropped."""
    return markdown.replace("`", "").replace("**", "")


def _first_sentence(text: str) -> str:
    head, dot, _ = text.partition(". ")
    return head + (dot.strip() if dot else "")
