"""``mpigen podgroup``: the PodGroup the operator would create for an existing MPIJob.

The MPIJob is checked as the API server and the operator check it (schema, ``validation.go``: a
job either refuses gets no PodGroup), defaulted as the operator defaults it (``scheme.Default``
in its sync loop), then handed to the port of ``newPodGroup``.
"""

from __future__ import annotations

from typing import Any

from .diagnostics import Diagnostic, Severity, format_path
from .load.yaml_loader import Document, LoadResult
from .operator import podgroup as pg
from .operator.mpi_defaults import set_defaults
from .operator.versions import format_version
from .validate.engine import MPIJOB_API, checked_mpijob

LEGACY_MPIJOB_APIS = ("kubeflow.org/v1alpha1", "kubeflow.org/v1alpha2", "kubeflow.org/v1")


def podgroups(loaded: LoadResult, filename: str, gang: str, scheduler_name: str,
              priority_classes: dict[str, int] | None, version: tuple[int, int, int]
              ) -> tuple[list[dict[str, Any]], list[Diagnostic]]:
    """One PodGroup per MPIJob document in ``loaded``."""
    diagnostics = list(loaded.diagnostics)
    groups: list[dict[str, Any]] = []

    def report(doc: Document, path: tuple, code: str, message: str) -> None:
        line, col = doc.locate(path)
        diagnostics.append(Diagnostic(filename, line, col, format_path(path), code, Severity.ERROR, message))

    for doc in loaded.documents:
        data = doc.data
        if not isinstance(data, dict) or data.get("kind") != "MPIJob":
            continue
        if data.get("apiVersion") in LEGACY_MPIJOB_APIS:
            report(doc, ("apiVersion",), "legacy-api-version",
                   f"{data['apiVersion']} MPIJobs are no longer served; convert it to {MPIJOB_API} "
                   "(mpigen migrate) first")
            continue
        if data.get("apiVersion") != MPIJOB_API:
            report(doc, ("apiVersion",), "unknown-api", f"unknown MPIJob apiVersion {data.get('apiVersion')!r}")
            continue
        job, problems = checked_mpijob(doc, filename, version)
        diagnostics += problems
        if job is None:
            continue
        try:
            group = pg.new_pod_group(set_defaults(job, version), gang, priority_classes or {},
                                     scheduler_name=scheduler_name, version=format_version(version))
        except pg.OperatorPanicError as exc:
            report(doc, ("spec",), "operator-crash", str(exc))
            continue
        groups.append(group)
    if not groups and not any(d.severity is Severity.ERROR for d in diagnostics):
        diagnostics.append(Diagnostic(filename, None, None, "", "no-mpijob", Severity.ERROR,
                                      f"no {MPIJOB_API} MPIJob in this file"))
    return groups, diagnostics
