"""Reporters: the same diagnostics as text, JSON, JUnit XML, GitHub Actions annotations or SARIF
2.1.0 (GitHub code scanning), and the summary: files, problems, and the objects checked and
skipped (with their kinds) in every format."""

from __future__ import annotations

from collections import Counter
from typing import Iterable

from ..diagnostics import Diagnostic, Severity, one_line
from .engine import Coverage

FORMATS = ("text", "json", "junit", "github", "sarif")


def summary(diagnostics: list[Diagnostic], files: int, coverage: Coverage) -> str:
    """The line after the report: ``3 files checked: 0 error(s), 1 warning(s); 5 object(s) checked,
    3 skipped (DaemonSet: 2, no kind: 1)``."""
    counts = Counter(d.severity for d in diagnostics)
    return (f"{files} file{'s' if files != 1 else ''} checked: {counts[Severity.ERROR]} error(s), "
            f"{counts[Severity.WARNING]} warning(s); {coverage.checked} object(s) checked, {skipped(coverage)}")


def skipped(coverage: Coverage) -> str:
    """``0 skipped``, or ``3 skipped (DaemonSet: 2, no kind: 1)``: each kind with its count, by name."""
    total = sum(coverage.skipped.values())
    return f"{total} skipped ({_kinds(coverage)})" if total else "0 skipped"


def _kinds(coverage: Coverage) -> str:
    return ", ".join(f"{one_line(kind)}: {count}" for kind, count in sorted(coverage.skipped.items()))


def render(diagnostics: list[Diagnostic], fmt: str, files: list[str], coverage: Coverage, verbose: bool = False) -> str:
    if fmt == "json":
        return _json(diagnostics, files, coverage)
    if fmt == "junit":
        return _junit(diagnostics, files, coverage)
    if fmt == "sarif":
        from .sarif import sarif_log

        return sarif_log(diagnostics, files, coverage)
    shown = [d for d in diagnostics if verbose or d.severity is not Severity.INFO]
    if fmt == "github":
        return "".join(_github(d) + "\n" for d in shown)
    return "".join(d.format() + "\n" for d in shown)


def _json(diagnostics: list[Diagnostic], files: list[str], coverage: Coverage) -> str:
    import json
    items = [{"file": d.file, "line": d.line, "column": d.column, "path": d.path, "code": d.code,
              "severity": d.severity.value, "message": d.message} for d in diagnostics]
    counts = Counter(d.severity.value for d in diagnostics)
    objects = {"checked": coverage.checked, "skipped": dict(sorted(coverage.skipped.items()))}
    return json.dumps({"files": files, "errors": counts["error"], "warnings": counts["warning"], "objects": objects,
                       "diagnostics": items}, indent=2, ensure_ascii=False) + "\n"


def _junit(diagnostics: list[Diagnostic], files: list[str], coverage: Coverage) -> str:
    # Imported here only: xml.sax.saxutils brings in urllib.request, http.client and ssl, which
    # once cost every `mpigen validate` a quarter of its start-up.
    from xml.sax.saxutils import escape, quoteattr

    by_file: dict[str, list[Diagnostic]] = {f: [] for f in files}
    for d in diagnostics:
        by_file.setdefault(d.file, []).append(d)
    failing = sum(1 for ds in by_file.values() if any(d.severity is Severity.ERROR for d in ds))
    lines = ['<?xml version="1.0" encoding="UTF-8"?>',
             f'<testsuites name="mpigen validate" tests="{len(by_file)}" failures="{failing}">',
             f'  <testsuite name="mpigen validate" tests="{len(by_file)}" failures="{failing}">',
             "    <properties>",
             f'      <property name="objects-checked" value="{coverage.checked}"/>',
             f'      <property name="objects-skipped" value="{sum(coverage.skipped.values())}"/>',
             f'      <property name="objects-skipped-kinds" value={quoteattr(_kinds(coverage))}/>',
             "    </properties>"]
    for name, found in by_file.items():
        lines.append(f"    <testcase classname=\"mpigen.validate\" name={quoteattr(name)}>")
        for d in found:
            if d.severity is Severity.INFO:
                continue
            tag = "failure" if d.severity is Severity.ERROR else "system-out"
            if tag == "failure":
                lines.append(f"      <failure type={quoteattr(d.code)} message={quoteattr(d.message)}>"
                             f"{escape(d.format())}</failure>")
            else:
                lines.append(f"      <system-out>{escape(d.format())}</system-out>")
        lines.append("    </testcase>")
    lines += ["  </testsuite>", "</testsuites>"]
    return "\n".join(lines) + "\n"


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def _github(d: Diagnostic) -> str:
    command = {Severity.ERROR: "error", Severity.WARNING: "warning"}.get(d.severity, "notice")
    props = [f"file={_escape_property(d.file)}"]
    if d.line is not None:
        props += [f"line={d.line}", f"col={d.column or 1}"]
    props.append(f"title={_escape_property(d.code)}")
    message = d.message + (f" ({d.path})" if d.path else "")
    return f"::{command} {','.join(props)}::{_escape_data(message)}"


def exit_code(diagnostics: Iterable[Diagnostic], strict: bool) -> int:
    severities = {d.severity for d in diagnostics}
    if Severity.ERROR in severities or (strict and Severity.WARNING in severities):
        return 1
    return 0
