"""``mpigen migrate``: manifests of API versions no operator serves any more, rewritten as current ones.

- MPIJob ``kubeflow.org/v1alpha1`` (:mod:`.mpi_v1alpha1`), ``v1alpha2`` and ``v1``
  (:mod:`.mpi_legacy`) -> ``kubeflow.org/v2beta1`` (mpi-operator v0.8.2).
- TFJob and PyTorchJob ``kubeflow.org/v1alpha2``, ``v1beta1`` and ``v1beta2`` (:mod:`.training`)
  -> ``kubeflow.org/v1`` (training-operator v1.9.4).
- With ``to="trainjob"`` (:mod:`.trainjob`): MPIJob ``kubeflow.org/v2beta1`` and PyTorchJob
  ``kubeflow.org/v1`` -> a Kubeflow Trainer v2.3.0 TrainJob, with a TrainingRuntime before it when
  the old pod templates need one (one input document may give two).

Every document of the file comes out in order; one that needs no migration passes through
unchanged (with a note), ``List`` items are migrated one by one. Each change is a
:class:`~mpigen.diagnostics.Diagnostic` at the old field. The result is then checked by
mpigen's own validation (:mod:`mpigen.validation`), whose errors on every document of it are
reported too: migrated, or passed through because it needed nothing (a job already at the current
version that does not validate is no migrated manifest either); not on one that could not be
migrated, whose errors say why. Pure: nothing here prints or exits.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from ..diagnostics import Diagnostic, Severity, format_path
from ..load.document import Document, LoadResult, is_list
from ..names import CURRENT_API
from ..operator.podgroup import DEFAULT_SCHEDULER_PLUGINS_NAME
from . import mpi_legacy, mpi_v1alpha1, training, trainjob
from .trainjob import gang as trainjob_gang
from .common import Change, LegacyFlags

if TYPE_CHECKING:
    from ..load.trainer_runtimes import Runtimes

__all__ = ["LegacyFlags", "MigrateResult", "TrainJobOptions", "migrate_object", "migrate_to_trainjob",
           "migrate_documents"]


@dataclass(frozen=True)
class TrainJobOptions:
    """``--to trainjob``: the old operator's gang scheduler (None: what the pod templates show) and
    its scheduler-plugins scheduler name."""

    gang: str | None = None
    scheduler_name: str = DEFAULT_SCHEDULER_PLUGINS_NAME


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


def migrate_to_trainjob(obj: Any, options: TrainJobOptions
                        ) -> tuple[list[Any], list[Change], bool, list[dict[tuple, tuple]]]:
    """One object -> (the objects it becomes: [TrainingRuntime,] TrainJob, or the old object when
    there is nothing to do or it cannot be migrated; the changes; whether it was migrated; for
    each object, where its parts come from: :func:`.trainjob.migrated`)."""
    if not isinstance(obj, dict) or not isinstance(obj.get("apiVersion"), str) or not isinstance(obj.get("kind"), str):
        return [obj], [Change((), "nothing-to-migrate", Severity.INFO,
                              "not a Kubernetes object (no apiVersion and kind): passed through unchanged")], False, [{}]
    if not trainjob.handles(obj):
        return [obj], [Change((), "nothing-to-migrate", Severity.INFO,
                              f"{obj['kind']} {obj['apiVersion']} is not an MPIJob or PyTorchJob: passed through "
                              "unchanged")], False, [{}]
    objects, changes, origins = trainjob.migrated(obj, options.gang, options.scheduler_name)
    if objects is None:
        return [obj], [Change(c.path, c.code, c.severity, c.message + "; the document is passed through unchanged")
                       for c in changes if c.severity is Severity.ERROR], False, [{}]
    changes += trainjob_gang.compare_gang(obj, objects, options.gang, options.scheduler_name)
    return objects, changes, True, origins


def _located(doc: Document, filename: str, prefix: tuple, change: Change) -> Diagnostic:
    path = prefix + tuple(change.path)
    line, col = doc.locate(path, key=True)
    return Diagnostic(filename, line, col, format_path(path), change.code, change.severity, change.message)


def migrate_documents(loaded: LoadResult, filename: str, output_name: str | None,
                      flags: LegacyFlags = LegacyFlags(), validate: bool = True,
                      to_trainjob: TrainJobOptions | None = None) -> MigrateResult:
    """Every document of a loaded file, migrated (to TrainJobs with ``to_trainjob``); the emitted
    text; the changes and the findings of validating the migrated documents: placed in
    ``output_name`` at their output lines (the file it is written to), or, with None (the output
    goes to stdout, which no one can open at a line), in the input document they come from, at
    the field they were made of (most often the same field), else its nearest ancestor."""
    from ..emit.yaml_emit import dump, dump_all

    def convert(obj: Any) -> tuple[list[Any], list[Change], bool, list[dict[tuple, tuple]]]:
        if to_trainjob is not None:
            return migrate_to_trainjob(obj, to_trainjob)
        new, changes, done = migrate_object(obj, flags)
        return [new], changes, done, [{}]

    diagnostics = list(loaded.diagnostics)
    objects: list[Any] = []
    checked_docs: list[bool] = []  # migrated, or passed through as needing nothing: validated
    sources: list[list[_Source]] = []  # for each output document, where its parts come from
    for index, doc in enumerate(loaded.documents):
        if is_list(doc.data):
            items, checked, parts = [], True, []
            for i, item in enumerate(doc.data["items"]):
                new, changes, done, origins = convert(item)
                parts += [_Source(("items", len(items) + j), index, ("items", i), origin)
                          for j, origin in enumerate(origins)]
                items += new
                checked &= done or not _refused(changes)
                diagnostics += [_located(doc, filename, ("items", i), c) for c in changes]
            outputs, found = [{**doc.data, "items": items}], [parts]
        else:
            outputs, changes, done, origins = convert(doc.data)
            checked = done or not _refused(changes)
            diagnostics += [_located(doc, filename, (), c) for c in changes]
            found = [[_Source((), index, (), origin)] for origin in origins]
        objects += outputs
        checked_docs += [checked] * len(outputs)
        sources += found
    if not loaded.documents and not loaded.diagnostics:
        diagnostics.append(Diagnostic(filename, None, None, "", "nothing-to-migrate", Severity.INFO,
                                      "the file holds no document"))
    text = dump_all(objects)
    pieces = ["---\n" + dump(obj) for obj in objects] if validate else []  # dump_all's documents, for their lines
    if validate and any(checked_docs):
        found = _validate(text, pieces, checked_docs, output_name or filename, objects)
        diagnostics += (found if output_name is not None
                        else _in_input(found, text, loaded.documents, filename, sources))
    return MigrateResult(objects, text, diagnostics)


def _refused(changes: list[Change]) -> bool:
    """Whether a document could not be migrated (its errors say why; it is passed through)."""
    return any(change.severity is Severity.ERROR for change in changes)


def _runtimes_beside(objects: list[Any]) -> Runtimes | None:
    """Trainer's default runtimes and the TrainingRuntimes of the output, which its TrainJobs name
    (None when the output has none: the defaults stand in as they do for ``mpigen validate``)."""
    from ..load.trainer_runtimes import default_runtimes, is_runtime, runtimes_from

    items = [item for obj in objects for item in (obj["items"] if is_list(obj) else [obj])]
    beside = [item for item in items if is_runtime(item)]
    if not beside:
        return None
    defaults = default_runtimes()
    return runtimes_from([*defaults.objects.values(), *beside],
                         f"{defaults.source} and the TrainingRuntimes written beside the TrainJobs")


def _validate(text: str, pieces: list[str], checked: list[bool], output_name: str,
              objects: list[Any]) -> list[Diagnostic]:
    """mpigen validate's errors on the ``checked`` documents of the output (its warnings, e.g. lint
    advice that applied to the old manifest as well, are left to ``mpigen validate``); a TrainJob
    is checked against the TrainingRuntime written beside it."""
    from ..lint.base import LintOptions
    from ..load.yaml_loader import iter_text
    from ..validation import ValidateOptions, validate_items

    ranges, line = [], 1
    for piece, done in zip(pieces, checked):
        count = piece.count("\n")
        if done:
            ranges.append((line, line + count - 1))
        line += count
    options = ValidateOptions(lint=LintOptions(trainer_runtimes=_runtimes_beside(objects)))
    found = validate_items(iter_text(text, output_name), output_name, options)
    return [d for d in found if d.severity is Severity.ERROR and d.line is not None
            and any(start <= d.line <= end for start, end in ranges)]


@dataclass(frozen=True)
class _Source:
    """Where a migrated object (at ``output`` in its output document) comes from: the input
    document ``document``, at ``input`` in it; ``origins`` maps paths of the object (prefixes) to
    the old paths they were made of (:func:`.trainjob.migrated`)."""

    output: tuple
    document: int
    input: tuple
    origins: dict[tuple, tuple]

    def old_path(self, path: tuple) -> tuple | None:
        """The input path of ``path`` (a path in the output document), or None when it is not in
        this object."""
        if path[:len(self.output)] != self.output:
            return None
        rest = path[len(self.output):]
        for size in range(len(rest), 0, -1):
            if rest[:size] in self.origins:
                return self.input + tuple(self.origins[rest[:size]]) + rest[size:]
        return self.input + rest


def _in_input(found: list[Diagnostic], text: str, inputs: list[Document], filename: str,
              sources: list[list[_Source]]) -> list[Diagnostic]:
    """Findings at output lines moved to the input document each output document came from
    (``sources``), at the field the output's was made of (the same field, for most), or its
    nearest ancestor the input has."""
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
        if index >= len(sources):
            continue  # pragma: no cover - every output document comes from an input document
        source = next((s for s in sources[index] if s.old_path(path) is not None), None)
        if source is None:  # a List's own fields
            source = _Source((), sources[index][0].document, (), {}) if sources[index] else None
        if source is None:
            continue  # pragma: no cover - an empty List has no findings of its items
        old = source.old_path(path) or ()
        line, column = inputs[source.document].locate(old)
        if old != path:  # a field of the new object made of another of the old one: name both
            d = replace(d, path=format_path(old), message=f"{d.message} (in the output: {d.path})")
        out.append(replace(d, file=filename, line=line, column=column))
    return out
