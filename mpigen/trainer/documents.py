"""TrainJobs of an input file and training runtimes of a cluster file, taken to the runtime
framework port with every problem as a located diagnostic: what ``mpigen explain`` and ``mpigen
podgroup`` do with a TrainJob.

* the TrainJobs (``trainer.kubeflow.org/v1alpha1``), found and judged as ``mpigen validate``
  finds and judges every job (:func:`mpigen.validation.find_jobs`), are shape-checked (:func:`~mpigen.trainer.runtimes.trainjob_shape`:
  ``trainjob-invalid``);
* the runtime each names is looked up among the runtimes of ``--cluster FILE`` (the
  :class:`~mpigen.load.cluster.Cluster`'s), else among Trainer's default runtimes, which an info
  note then says (``default-runtime``); ``trainjob-runtime-missing`` when it is not there; it is
  shape-checked (``trainingruntime-invalid``, at the runtime's lines in the cluster file);
* :func:`mpigen.trainer.framework.build` runs: a webhook refusing the runtime (``trainingruntime-invalid``)
  or the TrainJob (``trainjob-invalid``), or the framework returning an error (``not-created``),
  is reported at the field it names; a deprecated ClusterTrainingRuntime is a warning
  (``deprecated-runtime``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..diagnostics import Diagnostic, Severity, format_path
from ..load.trainer_runtimes import GIVE_CLUSTER_RUNTIMES, Runtimes
from .framework import Built, Refused, build
from .info import TrainerError
from .runtimes import describe_ref, runtime_ref, runtime_shape, trainjob_shape
from .validation import supported_runtime


Locate = Callable[[tuple], tuple[int | None, int | None, tuple]]
"""A path of an object -> the line and column, and the path shown, of where it was written."""


@dataclass
class Source:
    """An object and where it was written: a TrainJob of the input (found as ``mpigen validate``
    finds jobs, :func:`mpigen.validation.find_jobs`), or a runtime of the cluster file."""

    data: dict[str, Any]
    filename: str
    place: Locate

    def locate(self, path: tuple) -> tuple[int | None, int | None]:
        line, column, _ = self.place(path)
        return line, column

    def diagnostic(self, path: tuple, code: str, severity: Severity, message: str) -> Diagnostic:
        line, column, shown = self.place(path)
        return Diagnostic(self.filename, line, column, format_path(shown), code, severity, message)


def _nowhere(path: tuple) -> tuple[None, None, tuple]:
    return None, None, tuple(path)


def runtime_source(runtimes: Runtimes, runtime: dict[str, Any]) -> Source:
    """One of ``runtimes``, with where it was written (nowhere, for Trainer's default runtimes)."""
    key = runtimes.key_of(runtime)
    where = runtimes.where.get(key) if key is not None else None
    if where is None:
        return Source(runtime, runtimes.filename or runtimes.source, _nowhere)
    doc, prefix = where

    def place(path: tuple) -> tuple[int | None, int | None, tuple]:
        return (*doc.locate(prefix + tuple(path)), prefix + tuple(path))

    return Source(runtime, runtimes.filename, place)


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


def explain_trainjobs(jobs: list[Source], runtimes: Runtimes, priority_classes: dict[str, int] | None
                      ) -> tuple[list[Explained], list[Diagnostic]]:
    """Each TrainJob built on its runtime, one of ``runtimes`` (the cluster file's, else Trainer's
    default runtimes: :func:`mpigen.lint.base.trainer_runtimes`)."""
    out: list[Explained] = []
    diagnostics: list[Diagnostic] = []
    for job in jobs:
        problems = trainjob_shape(job.data)
        if problems:
            diagnostics += [job.diagnostic(path, code="trainjob-invalid", severity=Severity.ERROR, message=message)
                            for path, message in problems]
            continue
        unsupported = supported_runtime(job.data)
        if unsupported:
            diagnostics.append(job.diagnostic(unsupported[0], code="trainjob-invalid", severity=Severity.ERROR,
                                              message=unsupported[1]))
            continue
        _, kind, name = runtime_ref(job.data)
        runtime = runtimes.find(kind, name, (job.data.get("metadata") or {}).get("namespace"))
        if runtime is None:
            where = (f"{runtimes.source} ({GIVE_CLUSTER_RUNTIMES})" if runtimes.defaults else
                     f"{runtimes.source} (a TrainingRuntime must be in the TrainJob's namespace)")
            diagnostics.append(job.diagnostic(("spec", "runtimeRef", "name"), code="trainjob-runtime-missing",
                                              severity=Severity.ERROR,
                                              message=f"{describe_ref(job.data)} is not among {where}"))
            continue
        found = runtime_source(runtimes, runtime)  # validate's verdict said so when it is a default one
        problems = runtime_shape(found.data)
        if problems:
            diagnostics += [found.diagnostic(path, code="trainingruntime-invalid", severity=Severity.ERROR, message=message)
                            for path, message in problems]
            continue
        try:
            built = build(job.data, found.data, priority_classes)
        except Refused as exc:
            for path, message in exc.problems:
                source, path = _where(job, found, path)
                code = "trainingruntime-invalid" if source is found else "trainjob-invalid"
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
