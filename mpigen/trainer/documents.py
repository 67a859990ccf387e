"""TrainJobs of an input file and training runtimes of a cluster file, taken to the runtime
framework port with every problem as a located diagnostic: what ``mpigen explain`` and ``mpigen
podgroup`` do with a TrainJob.

* the TrainJobs (``trainer.kubeflow.org/v1alpha1``) of the loaded documents, ``kind: List``
  items included, are shape-checked (:func:`~mpigen.trainer.runtimes.trainjob_shape`:
  ``trainjob-invalid``);
* the runtime each names is looked up among the runtimes read from ``--cluster FILE``
  (:func:`cluster_runtimes`; ``unknown-runtime`` when it is not there, or when no runtime is known
  at all), and shape-checked (``runtime-invalid``, at the runtime's lines in the cluster file);
* :func:`mpigen.trainer.framework.build` runs: a webhook refusing the runtime (``runtime-invalid``)
  or the TrainJob (``trainjob-invalid``), or the framework returning an error (``not-created``),
  is reported at the field it names; a deprecated ClusterTrainingRuntime is a warning
  (``deprecated-runtime``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from ..diagnostics import Diagnostic, Severity, format_path
from ..load.document import Document
from .framework import Built, Refused, build
from .info import TrainerError
from .runtimes import describe_ref, find_runtime, is_runtime, is_trainjob, objects, runtime_shape, supported_ref, \
    trainjob_shape


@dataclass
class Source:
    """An object of a loaded file: a document, or an item of a ``kind: List`` document."""

    data: dict[str, Any]
    filename: str
    doc: Document
    prefix: tuple  # the object's path in its document

    def locate(self, path: tuple) -> tuple[int | None, int | None]:
        return self.doc.locate(self.prefix + tuple(path))

    def diagnostic(self, path: tuple, code: str, severity: Severity, message: str) -> Diagnostic:
        line, column = self.locate(path)
        return Diagnostic(self.filename, line, column, format_path(self.prefix + tuple(path)), code, severity, message)


def sources(documents: Iterable[Document], filename: str, want: Any) -> list[Source]:
    """Every object of the documents for which ``want(data)`` holds."""
    return [Source(data, filename, doc, prefix) for doc in documents
            for prefix, data in objects(doc.data) if want(data)]


def trainjob_sources(documents: Iterable[Document], filename: str) -> list[Source]:
    return sources(documents, filename, is_trainjob)


def cluster_runtimes(documents: Iterable[Document], filename: str) -> list[Source]:
    """The TrainingRuntimes and ClusterTrainingRuntimes of a cluster file (``kubectl get
    clustertrainingruntimes,trainingruntimes -A -o yaml`` prints them as a List)."""
    return sources(documents, filename, is_runtime)


@dataclass
class Explained:
    """A TrainJob, the runtime it runs on, and what Trainer builds for it."""

    job: Source
    runtime: Source
    built: Built


def _where(job: Source, runtime: Source, path: tuple) -> tuple[Source, tuple]:
    """A problem's path (``("runtime", ...)``: in the runtime) and the file it is in."""
    if path[:1] == ("runtime",):
        return runtime, path[1:]
    return job, path


def explain_trainjobs(jobs: list[Source], runtimes: list[Source] | None, priority_classes: dict[str, int] | None
                      ) -> tuple[list[Explained], list[Diagnostic]]:
    """Each TrainJob built on its runtime (``runtimes``: None when no cluster file was given)."""
    out: list[Explained] = []
    diagnostics: list[Diagnostic] = []
    for job in jobs:
        problems = trainjob_shape(job.data)
        if problems:
            diagnostics += [job.diagnostic(path, code="trainjob-invalid", severity=Severity.ERROR, message=message)
                            for path, message in problems]
            continue
        unsupported = supported_ref(job.data)
        if unsupported:
            diagnostics.append(job.diagnostic(("spec", "runtimeRef"), code="unknown-runtime", severity=Severity.ERROR,
                                              message=unsupported))
            continue
        found = None
        if runtimes is not None:
            found = next((r for r in runtimes if r.data is find_runtime(job.data, [r.data])), None)
        if found is None:
            where = ("no runtimes are known: give the cluster's with --cluster FILE (kubectl get "
                     "clustertrainingruntimes,trainingruntimes -A -o yaml)" if runtimes is None else
                     "it is not in the cluster file (a TrainingRuntime must be in the TrainJob's namespace)")
            diagnostics.append(job.diagnostic(("spec", "runtimeRef", "name"), code="unknown-runtime",
                                              severity=Severity.ERROR,
                                              message=f"{describe_ref(job.data)} is not known: {where}"))
            continue
        problems = runtime_shape(found.data)
        if problems:
            diagnostics += [found.diagnostic(path, code="runtime-invalid", severity=Severity.ERROR, message=message)
                            for path, message in problems]
            continue
        try:
            built = build(job.data, found.data, priority_classes)
        except Refused as exc:
            for path, message in exc.problems:
                source, path = _where(job, found, path)
                code = "runtime-invalid" if source is found else "trainjob-invalid"
                diagnostics.append(source.diagnostic(path, code=code, severity=Severity.ERROR,
                                                     message=f"{message}: the webhook refuses it, nothing is created"))
            continue
        except TrainerError as exc:
            source, path = _where(job, found, exc.path)
            diagnostics.append(source.diagnostic(path, code="not-created", severity=Severity.ERROR,
                                                 message=f"{exc}: Trainer creates nothing"))
            continue
        for warning in built.warnings:
            diagnostics.append(found.diagnostic(("metadata", "labels"), code="deprecated-runtime",
                                                severity=Severity.WARNING, message=warning))
        out.append(Explained(job, found, built))
    return out, diagnostics
