"""The jobs of a file and ``mpigen validate``'s verdict on them (:func:`find_jobs`): how ``explain``
and ``podgroup`` read a file, through the layers of :mod:`.engine`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from ..diagnostics import Diagnostic, Severity, has_errors
from ..load.document import LoadResult, objects
from ..load.trainer_runtimes import is_runtime
from ..load.yaml_loader import Document
from ..names import CURRENT_API, TRAINER_API, TRAINJOB_KIND
from ..pipeline import compile_document, is_spec
from .admission import Path, admitted, prune_nulls
from .engine import Coverage, ValidateOptions, _is_trainjob, _object, _with_file_runtimes


JOB_KINDS = tuple(CURRENT_API)  # MPIJob, PyTorchJob, TFJob
FOUND_KINDS = (*JOB_KINDS, TRAINJOB_KIND)  # and Kubeflow Trainer's TrainJob (trainer.kubeflow.org/v1alpha1)


def _served(obj: dict[str, Any]) -> bool:
    """Whether an operator serves the job's apiVersion."""
    return obj.get("apiVersion") == (TRAINER_API if obj["kind"] == TRAINJOB_KIND else CURRENT_API[obj["kind"]])


class NoSuchEnvironment(Exception):
    """``--env NAME`` names no environment of a spec (a usage error)."""

    def __init__(self, env: str, job: str, environments: list[str]) -> None:
        known = ", ".join(environments) or "none"
        super().__init__(f"--env {env}: no such environment in {job} (environments: {known})")


@dataclass(slots=True)
class Job:
    """An MPIJob, PyTorchJob or TFJob of a file, as the operator receives it: compiled from an
    mpigen spec, or a manifest's object as the API server stores it (nulls dropped)."""

    obj: dict[str, Any]
    locate: Callable[[Path], tuple[int | None, int | None, Path]]
    """A path of ``obj`` -> the line and column, and the path shown, of where it was written."""
    runtimes: tuple[dict[str, Any], ...] = ()
    """A TrainJob's: the training runtimes of its file (the TrainingRuntime a spec builds beside it)."""


def find_jobs(loaded: LoadResult, filename: str, options: ValidateOptions,
              env: str | None = None) -> tuple[list[Job], list[Diagnostic]]:
    """The jobs of a file and ``mpigen validate``'s verdict on them: how ``explain`` and
    ``podgroup`` read a file, so that a job gets the same answer whichever command reads it.

    Every document is looked into as validate does: an mpigen spec is compiled (``env``: the
    environment whose objects to take); the items of a ``kind: List`` are objects of their own
    (:func:`mpigen.load.document.objects`); every MPIJob, PyTorchJob, TFJob and TrainJob goes through
    validate's layers (schema, the operator's admission rules, the lint rules). A job any of them
    reports an error on is not returned (the operator would refuse it, or it would not run);
    objects of other kinds are not looked at. Raises :class:`NoSuchEnvironment`.
    """
    diagnostics = list(loaded.diagnostics)
    jobs: list[Job] = []
    in_file = tuple(obj for doc in loaded.documents if doc.data is not None and not is_spec(doc.data)
                    for _, obj in objects(doc.data) if is_runtime(obj))
    options = _with_file_runtimes(options, list(in_file))
    for doc in loaded.documents:
        data = doc.data
        if data is None:
            continue
        if is_spec(data):
            compiled, found = compile_document(doc, filename, options.build)
            diagnostics += found
            if compiled is None:
                continue
            if env is not None and env not in compiled.environments:
                raise NoSuchEnvironment(env, compiled.name, sorted(compiled.environments))
            built = compiled.objects(env)
            beside = tuple(obj for obj in built if is_runtime(obj))
            jobs += [Job(obj, _spec_locator(doc, obj, env), beside) for obj in built
                     if obj["kind"] in JOB_KINDS or _is_trainjob(obj)]
            continue
        for prefix, obj in objects(data):
            if not isinstance(obj, dict) or obj.get("kind") not in FOUND_KINDS:
                continue
            found = _object(obj, prefix, doc, filename, options, Coverage())
            found = [d for d in found if d.code not in options.disabled]
            diagnostics += found
            if _served(obj) and not has_errors(found):
                jobs.append(Job(admitted(prune_nulls(obj))[0], _locator(doc, prefix), in_file))
    if not jobs and not has_errors(diagnostics):
        diagnostics.append(Diagnostic(filename, None, None, "", "no-mpijob", Severity.ERROR,
                                      f"no mpigen spec, no {CURRENT_API['MPIJob']} MPIJob, no "
                                      f"{CURRENT_API['PyTorchJob']} PyTorchJob or TFJob and no {TRAINER_API} "
                                      "TrainJob in this file"))
    return jobs, diagnostics


def _locator(doc: Document, prefix: Path) -> Callable[[Path], tuple[int | None, int | None, Path]]:
    def locate(path: Path) -> tuple[int | None, int | None, Path]:
        return (*doc.locate(prefix + tuple(path)), prefix + tuple(path))

    return locate


def _spec_locator(doc: Document, obj: dict[str, Any], env: str | None
                  ) -> Callable[[Path], tuple[int | None, int | None, Path]]:
    """Where the spec of ``doc`` sets what a path of ``obj``, compiled from it, holds."""
    from ..expand.environments import origin, spec_for
    from ..render.origins import spec_field

    spec = doc.data["spec"]

    def locate(path: Path) -> tuple[int | None, int | None, Path]:
        where = spec_field(obj, path, doc.data["metadata"], spec_for(spec, env))
        if where[:1] == ("spec",):
            where = ("spec",) + tuple(origin(where[1:], spec, env))
        return (*doc.locate(where), where)

    return locate
