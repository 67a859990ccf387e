"""``mpigen migrate``: manifests of API versions no operator serves any more, rewritten as current ones.

- MPIJob ``kubeflow.org/v1alpha1`` (:mod:`.mpi_v1alpha1`), ``v1alpha2`` and ``v1``
  (:mod:`.mpi_legacy`) -> ``kubeflow.org/v2beta1`` (mpi-operator v0.8.0).
- TFJob and PyTorchJob ``kubeflow.org/v1alpha2``, ``v1beta1`` and ``v1beta2`` (:mod:`.training`)
  -> ``kubeflow.org/v1`` (training-operator v1.9.0).

Every document of the file comes out in order; one that needs no migration passes through
unchanged (with a note), ``List`` items are migrated one by one. Each change is a
:class:`~mpigen.diagnostics.Diagnostic` at the old field. The result is then checked by
mpigen's own validation (:mod:`mpigen.validate`), whose findings on migrated documents
are reported too. Pure: nothing here prints or exits.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from ..diagnostics import Diagnostic, Severity, format_path
from ..load.document import Document, LoadResult, is_list
from ..names import CURRENT_API
from . import mpi_legacy, mpi_v1alpha1, training
from .common import Change, LegacyFlags

__all__ = ["LegacyFlags", "MigrateResult", "migrate_object", "migrate_documents"]


@dataclass
class MigrateResult:
    objects: list[Any]
    """Every document of the input, migrated or passed through, in order."""
    text: str
    """The objects as ``dump_all`` writes them."""
    diagnostics: list[Diagnostic]


def migrate_object(obj: Any, flags: LegacyFlags = LegacyFlags()) -> tuple[Any, list[Change], bool]:
    """One object -> (the new object, or the old one when there is nothing to do or it cannot be
    migrated; the changes; whether it was migrated)."""
    if not isinstance(obj, dict) or not isinstance(obj.get("apiVersion"), str) or not isinstance(obj.get("kind"), str):
        return obj, [Change((), "nothing-to-migrate", Severity.INFO,
                            "not a Kubernetes object (no apiVersion and kind): passed through unchanged")], False
    kind, api = obj["kind"], obj["apiVersion"]
    new: Any = None
    if kind == "MPIJob" and api == mpi_v1alpha1.SOURCE:
        new, changes = mpi_v1alpha1.migrate(obj, flags)
    elif kind == "MPIJob" and api in mpi_legacy.FIELDS:
        new, changes = mpi_legacy.migrate(obj)
    elif training.handles(obj):
        new, changes = training.migrate(obj)
    else:
        what = "current" if CURRENT_API.get(kind) == api else "not a legacy training job"
        return obj, [Change((), "nothing-to-migrate", Severity.INFO,
                            f"{kind} {api} is {what}: passed through unchanged")], False
    if new is None:  # the reasons are errors; what would have changed does not matter any more
        return obj, [Change(c.path, c.code, c.severity, c.message + "; the document is passed through unchanged")
                     for c in changes if c.severity is Severity.ERROR], False
    return new, changes, True


def _located(doc: Document, filename: str, prefix: tuple, change: Change) -> Diagnostic:
    path = prefix + tuple(change.path)
    line, col = doc.locate(path, key=True)
    return Diagnostic(filename, line, col, format_path(path), change.code, change.severity, change.message)


def migrate_documents(loaded: LoadResult, filename: str, output_name: str | None,
                      flags: LegacyFlags = LegacyFlags(), validate: bool = True) -> MigrateResult:
    """Every document of a loaded file, migrated; the emitted text; the changes and the findings
    of validating the migrated documents: placed in ``output_name`` at their output lines (the file
    it is written to), or, with None (the output goes to stdout, which no one can open at a line),
    in the input at the same field of the document they come from, else its nearest ancestor."""
    from ..emit.yaml_emit import dump, dump_all

    diagnostics = list(loaded.diagnostics)
    objects: list[Any] = []
    migrated_docs: list[bool] = []
    for doc in loaded.documents:
        data, any_migrated = doc.data, False
        if is_list(data):
            items = []
            for i, item in enumerate(data["items"]):
                new, changes, done = migrate_object(item, flags)
                items.append(new)
                any_migrated |= done
                diagnostics += [_located(doc, filename, ("items", i), c) for c in changes]
            data = {**data, "items": items}
        else:
            data, changes, any_migrated = migrate_object(data, flags)
            diagnostics += [_located(doc, filename, (), c) for c in changes]
        objects.append(data)
        migrated_docs.append(any_migrated)
    if not loaded.documents and not loaded.diagnostics:
        diagnostics.append(Diagnostic(filename, None, None, "", "nothing-to-migrate", Severity.INFO,
                                      "the file holds no document"))
    text = dump_all(objects)
    pieces = ["---\n" + dump(obj) for obj in objects] if validate else []  # dump_all's documents, for their lines
    if validate and any(migrated_docs):
        found = _validate(text, pieces, migrated_docs, output_name or filename)
        diagnostics += found if output_name is not None else _in_input(found, text, loaded.documents, filename)
    return MigrateResult(objects, text, diagnostics)


def _validate(text: str, pieces: list[str], migrated: list[bool], output_name: str) -> list[Diagnostic]:
    """mpigen validate's errors on the migrated documents of the output (its warnings, e.g. lint
    advice that applied to the old manifest as well, are left to ``mpigen validate``)."""
    from ..load.yaml_loader import iter_text
    from ..validate import ValidateOptions, validate_items

    ranges, line = [], 1
    for piece, done in zip(pieces, migrated):
        count = piece.count("\n")
        if done:
            ranges.append((line, line + count - 1))
        line += count
    found = validate_items(iter_text(text, output_name), output_name, ValidateOptions())
    return [d for d in found if d.severity is Severity.ERROR and d.line is not None
            and any(start <= d.line <= end for start, end in ranges)]


def _in_input(found: list[Diagnostic], text: str, inputs: list[Document], filename: str) -> list[Diagnostic]:
    """Findings at output lines moved to the input document each output document came from (the
    same order), at the same field there, or its nearest ancestor the input has."""
    from ..load.yaml_loader import load_text

    outputs = load_text(text, filename).documents
    paths: dict[tuple[int, int], tuple[int, tuple]] = {}  # output (line, column) -> (document, path)
    for index, doc in enumerate(outputs):
        for mapping in (doc.positions, doc.key_positions):
            for path, position in mapping.items():
                paths.setdefault(position, (index, path))
    out = []
    for d in found:
        index, path = paths.get((d.line, d.column or 1), (None, ()))
        if index is None:  # not a position of a value: the output document holding the line
            index = max((i for i, doc in enumerate(outputs) if doc.line <= (d.line or 0)), default=0)
        if index >= len(inputs):
            continue  # pragma: no cover - one output document per input document
        line, column = inputs[index].locate(path)
        out.append(replace(d, file=filename, line=line, column=column))
    return out
