"""The cluster file (``--cluster``): the PriorityClasses the operator would look up.

Accepted as ``kubectl get priorityclass -o yaml`` prints them (a ``List``), as a
``PriorityClassList``, or as separate documents. Other objects are ignored with a warning.
"""

from __future__ import annotations

from typing import Any

from ..diagnostics import Diagnostic, Severity, format_path
from .document import Document

INT32_MIN, INT32_MAX = -(2**31), 2**31 - 1


def priority_classes(documents: list[Document], filename: str) -> tuple[dict[str, int], list[Diagnostic]]:
    """name -> value of every PriorityClass in the documents."""
    found: dict[str, int] = {}
    diagnostics: list[Diagnostic] = []

    def report(doc: Document, path: tuple, message: str, severity: Severity = Severity.ERROR) -> None:
        line, col = doc.locate(path)
        diagnostics.append(Diagnostic(filename, line, col, format_path(path), "cluster", severity, message))

    def visit(doc: Document, obj: Any, path: tuple) -> None:
        if not isinstance(obj, dict):
            report(doc, path, "expected a Kubernetes object (a mapping with apiVersion and kind)")
            return
        kind = obj.get("kind")
        if isinstance(kind, str) and kind.endswith("List") and isinstance(obj.get("items"), list):
            for i, item in enumerate(obj["items"]):
                visit(doc, item, path + ("items", i))
            return
        api = str(obj.get("apiVersion", ""))
        if kind != "PriorityClass" or not api.startswith("scheduling.k8s.io/"):
            report(doc, path, f"ignored {api or '?'} {kind or '?'}: only scheduling.k8s.io PriorityClass "
                   "objects are read from a cluster file", Severity.WARNING)
            return
        name = (obj.get("metadata") or {}).get("name") if isinstance(obj.get("metadata"), dict) else None
        if not isinstance(name, str) or not name:
            report(doc, path + ("metadata",), "PriorityClass without metadata.name")
            return
        value = obj.get("value")
        if isinstance(value, bool) or not isinstance(value, int) or not INT32_MIN <= value <= INT32_MAX:
            report(doc, path + ("value",), f"PriorityClass {name!r} needs an integer value (int32)")
            return
        if name in found and found[name] != value:
            report(doc, path + ("metadata", "name"), f"PriorityClass {name!r} is defined twice with different values")
        found[name] = value

    for doc in documents:
        if doc.data is not None:
            visit(doc, doc.data, ())
    return dict(sorted(found.items())), diagnostics
