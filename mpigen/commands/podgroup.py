"""``mpigen podgroup``: the PodGroup the operator would create for an existing job manifest.

* **MPIJob** (``kubeflow.org/v2beta1``): checked as the API server and mpi-operator check it
  (schema, ``validation.go``: a job either refuses gets no PodGroup), defaulted as the operator
  defaults it (``scheme.Default`` in its sync loop), then handed to the port of ``newPodGroup``
  at ``--operator-version``.
* **PyTorchJob, TFJob** (``kubeflow.org/v1``): training-operator **v1.9.0**, whatever
  ``--operator-version`` says (that option names an mpi-operator release). Checked against the
  schema and the training-operator's validating webhook, defaulted with ``SetDefaults_*``, then
  handed to :mod:`mpigen.operator.training_podgroup`. A suspended job, or one another controller
  manages (``runPolicy.managedBy``), gets no PodGroup (``not-created``). When the operator's
  random map order makes minResources differ in value (equal priorities and a minAvailable
  cut), the PodGroup is printed for the document's order with a ``nondeterministic`` warning.

* **TrainJob** (``trainer.kubeflow.org/v1alpha1``): Kubeflow Trainer v2.3.0, on the
  TrainingRuntime or ClusterTrainingRuntime its ``runtimeRef`` names, read from ``--cluster
  FILE`` (:mod:`mpigen.trainer`). No ``--gang``: the runtime's ``podGroupPolicy`` decides between
  coscheduling and Volcano; a runtime without one gets no PodGroup, which is said in a note
  (``no-podgroup``), and nothing is printed for that job.

Jobs are found in every YAML document and in the ``items`` of a ``kind: List`` document (what
``kubectl get -o yaml`` prints); diagnostics point at the item's own lines.
"""

from __future__ import annotations

from typing import Any, Iterator

import click

from .. import io
from ..diagnostics import EXIT_INVALID, EXIT_OK, Diagnostic, Severity, format_path, has_errors
from ..emit.yaml_emit import dump, dump_all
from ..load.document import Document, LoadResult
from ..names import LEGACY_API, MPIJOB_API, TRAINING_API, TRAINING_KINDS
from ..operator import podgroup as pg
from ..operator import training_podgroup as tp
from ..operator.mpi_defaults import set_defaults
from ..operator.training_defaults import set_defaults as set_training_defaults
from ..trainer.documents import explain_trainjobs, trainjob_sources
from ..trainer.runtimes import TRAINER_API
from ..validate import checked_mpijob, checked_training_job
from ..versions import OperatorVersion
from . import (OPERATOR_RULES, PRIORITY_CLASSES, cluster_option, gang_option, operator_version_option,
               scheduler_name_option)



@click.command()
@click.argument("manifest", type=click.Path(dir_okay=False, allow_dash=True))
@gang_option("The operator's --gang-scheduling setting (MPIJob, PyTorchJob, TFJob; a TrainJob's runtime "
             "decides itself).", none=False)
@scheduler_name_option(help="scheduler-plugins scheduler name (the operator's --gang-scheduling value).")
@cluster_option(f"{PRIORITY_CLASSES}, for the minResources order; for a TrainJob, also its TrainingRuntime or "
                "ClusterTrainingRuntime (kubectl get clustertrainingruntimes,trainingruntimes -A -o yaml).")
@operator_version_option(f"{OPERATOR_RULES} (v0.4.x: Volcano minResources are not computed).")
def podgroup(manifest: str, gang: str | None, scheduler_name: str, cluster_file: str | None,
             operator_version: str) -> int:
    """Print the PodGroup the operator would create for each MPIJob, PyTorchJob, TFJob and TrainJob
    in MANIFEST (a file or -; items of a `kind: List` included).

    MPIJobs follow mpi-operator at --operator-version; PyTorchJobs and TFJobs (kubeflow.org/v1)
    always follow training-operator v1.9.0, whose --gang-scheduler-name is --gang volcano or,
    for scheduler-plugins, --scheduler-name. TrainJobs follow Kubeflow Trainer v2.3.0: the
    runtime named by their runtimeRef, from --cluster, decides (no --gang).
    """
    version = io.operator_version(operator_version)
    classes, runtimes, diagnostics = io.cluster_file(cluster_file)
    loaded, name = io.load_input(manifest)
    trainjobs = trainjob_sources(loaded.documents, name)
    if gang is None and _operator_jobs(loaded):
        raise io.UsageError("--gang is required for an MPIJob, PyTorchJob or TFJob (the operator's "
                            "--gang-scheduling); a TrainJob's runtime decides itself")
    groups, found = podgroups(loaded, name, gang or "", scheduler_name, classes, version, bool(trainjobs))
    diagnostics += found
    explained, found = explain_trainjobs(trainjobs, runtimes, classes)
    diagnostics += found
    for item in explained:
        group = item.built.podgroup
        if group is None:
            runtime = item.built.runtime
            diagnostics.append(item.job.diagnostic(
                ("spec", "runtimeRef"), code="no-podgroup", severity=Severity.INFO,
                message=f"{runtime['kind']} {runtime['metadata']['name']} has no podGroupPolicy: Trainer creates no "
                "PodGroup for this TrainJob"))
        else:
            groups.append(group)
    io.report(diagnostics)
    if has_errors(diagnostics):
        return EXIT_INVALID
    if groups:
        click.echo(dump(groups[0]) if len(groups) == 1 else dump_all(groups), nl=False)
    return EXIT_OK


def _operator_jobs(loaded: LoadResult) -> bool:
    """Whether the file holds a job of mpi-operator or training-operator (which need --gang)."""
    return any(isinstance(doc.data, dict) and (doc.data.get("kind") == "MPIJob" or (
        doc.data.get("kind") in TRAINING_KINDS and doc.data.get("apiVersion") == TRAINING_API))
        for doc in documents(loaded))


def _strip(mapping: dict, prefix: tuple) -> dict:
    n = len(prefix)
    return {path[n:]: value for path, value in mapping.items() if path[:n] == prefix}


def documents(loaded: LoadResult) -> Iterator[Document]:
    """Every document, and for a ``kind: List`` document each of its ``items`` as a document of
    its own (its positions re-rooted at the item, so that diagnostics keep their lines)."""
    for doc in loaded.documents:
        data = doc.data
        if isinstance(data, dict) and data.get("kind") == "List" and isinstance(data.get("items"), list):
            for i, item in enumerate(data["items"]):
                prefix = ("items", i)
                line, _ = doc.locate(prefix)
                yield Document(item, doc.index, line if line is not None else doc.line,
                               _strip(doc.positions, prefix), _strip(doc.key_positions, prefix),
                               _strip(doc.plain, prefix))
        else:
            yield doc


def _training_podgroup(job: dict[str, Any], gang: str, scheduler_name: str,
                       priority_classes: dict[str, int]) -> tuple[dict[str, Any] | None, str | None, str | None]:
    """(PodGroup, not-created reason, nondeterminism warning) for a checked PyTorchJob/TFJob."""
    defaulted = set_training_defaults(job)
    reason = tp.skipped_reason(defaulted)
    if reason:
        return None, reason, None
    group = tp.podgroup(defaulted, gang, priority_classes, scheduler_name)
    try:
        outcomes = tp.min_resources_outcomes(defaulted, tp.calculate_min_member(defaulted), priority_classes)
    except ValueError:  # too many equal-priority replica types to enumerate their orders
        outcomes = []
    by_value = {tuple(sorted((k, v.as_fraction()) for k, v in o.items())) for o in outcomes}
    warning = None
    if len(by_value) > 1:
        shown = " or ".join(str(pg._emit_list(o)) for o in outcomes[:4])
        warning = (f"training-operator orders replica types of equal priority at random, and minAvailable cuts the "
                   f"pod count: minResources is {shown} from one sync to another (printed: the first). Set "
                   f"schedulingPolicy.minResources, or PriorityClasses that order the replica types")
    return group, None, warning


def podgroups(loaded: LoadResult, filename: str, gang: str, scheduler_name: str,
              priority_classes: dict[str, int] | None, version: OperatorVersion, trainjobs: bool = False
              ) -> tuple[list[dict[str, Any]], list[Diagnostic]]:
    """One PodGroup per MPIJob, PyTorchJob and TFJob document (or List item) in ``loaded``."""
    diagnostics = list(loaded.diagnostics)
    groups: list[dict[str, Any]] = []
    pcs = priority_classes or {}

    def report(doc: Document, path: tuple, code: str, message: str, severity: Severity = Severity.ERROR) -> None:
        line, col = doc.locate(path)
        diagnostics.append(Diagnostic(filename, line, col, format_path(path), code, severity, message))

    for doc in documents(loaded):
        data = doc.data
        if not isinstance(data, dict):
            continue
        if data.get("kind") in TRAINING_KINDS and data.get("apiVersion") == TRAINING_API:
            job, problems = checked_training_job(doc, filename)
            diagnostics += problems
            if job is None:
                continue
            try:
                group, reason, warning = _training_podgroup(job, gang, scheduler_name, pcs)
            except pg.OperatorPanicError as exc:
                report(doc, ("spec",), "operator-crash", str(exc))
                continue
            if reason:
                report(doc, ("spec", "runPolicy"), "not-created", reason)
                continue
            if warning:
                report(doc, ("spec", "runPolicy"), "nondeterministic", warning, Severity.WARNING)
            groups.append(group)
            continue
        if data.get("kind") != "MPIJob":
            continue
        if data.get("apiVersion") in LEGACY_API["MPIJob"]:
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
            group = pg.new_pod_group(set_defaults(job, version), gang, pcs,
                                     scheduler_name=scheduler_name, version=version)
        except pg.OperatorPanicError as exc:
            report(doc, ("spec",), "operator-crash", str(exc))
            continue
        groups.append(group)
    if not groups and not trainjobs and not any(d.severity is Severity.ERROR for d in diagnostics):
        diagnostics.append(Diagnostic(filename, None, None, "", "no-mpijob", Severity.ERROR,
                                      f"no {MPIJOB_API} MPIJob, no {TRAINING_API} PyTorchJob or TFJob and no "
                                      f"{TRAINER_API} TrainJob in this file"))
    return groups, diagnostics
