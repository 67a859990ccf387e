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

Jobs are found in every YAML document and in the ``items`` of a ``kind: List`` document (what
``kubectl get -o yaml`` prints); diagnostics point at the item's own lines.

When the ``--cluster`` file holds Nodes, each gang is checked against them
(:mod:`mpigen.scheduler.fit`) with the pods the operator creates: a gang that cannot fit is an
error (``gang-cannot-fit``, exit 1, the PodGroups are printed all the same), one that may not fit
a warning (``gang-may-not-fit``).
"""

from __future__ import annotations

from typing import Any, Iterator

import click

from .. import io
from ..diagnostics import EXIT_INVALID, EXIT_OK, Diagnostic, Severity, format_path, has_errors
from ..emit.yaml_emit import dump, dump_all
from ..load.document import Document, LoadResult
from ..names import LEGACY_API, MPIJOB_API, TRAINING_API, TRAINING_KINDS
from ..load.cluster import Cluster
from ..operator import mpi_controller as ctl
from ..operator import podgroup as pg
from ..operator import training_controller as tc
from ..operator import training_podgroup as tp
from ..operator.mpi_defaults import set_defaults
from ..operator.training_defaults import set_defaults as set_training_defaults
from ..scheduler.fit import gang_fit
from ..scheduler.gang import gang_of
from ..validate import checked_mpijob, checked_training_job
from ..versions import OperatorVersion
from . import (CLUSTER_NODES, OPERATOR_RULES, cluster_option, gang_option, operator_version_option,
               scheduler_name_option)



@click.command()
@click.argument("manifest", type=click.Path(dir_okay=False, allow_dash=True))
@gang_option("The operator's --gang-scheduling setting.", none=False, required=True)
@scheduler_name_option(help="scheduler-plugins scheduler name (the operator's --gang-scheduling value).")
@cluster_option(f"{CLUSTER_NODES}; the PriorityClasses order minResources.")
@operator_version_option(f"{OPERATOR_RULES} (v0.4.x: Volcano minResources are not computed).")
def podgroup(manifest: str, gang: str, scheduler_name: str, cluster_file: str | None, operator_version: str) -> int:
    """Print the PodGroup the operator would create for each MPIJob, PyTorchJob and TFJob in MANIFEST
    (a file or -; items of a `kind: List` included).

    MPIJobs follow mpi-operator at --operator-version; PyTorchJobs and TFJobs (kubeflow.org/v1)
    always follow training-operator v1.9.0, whose --gang-scheduler-name is --gang volcano or,
    for scheduler-plugins, --scheduler-name.
    """
    version = io.operator_version(operator_version)
    cluster, diagnostics = io.load_cluster(cluster_file)
    loaded, name = io.load_input(manifest)
    groups, found = podgroups(loaded, name, gang, scheduler_name, None if cluster is None else cluster.priority_classes,
                              version, cluster)
    diagnostics += found
    io.report(diagnostics)
    if has_errors(d for d in diagnostics if d.code != "gang-cannot-fit"):
        return EXIT_INVALID
    click.echo(dump(groups[0]) if len(groups) == 1 else dump_all(groups), nl=False)
    return EXIT_INVALID if has_errors(diagnostics) else EXIT_OK  # a gang that cannot fit is still created


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
              priority_classes: dict[str, int] | None, version: OperatorVersion, cluster: Cluster | None = None
              ) -> tuple[list[dict[str, Any]], list[Diagnostic]]:
    """One PodGroup per MPIJob, PyTorchJob and TFJob document (or List item) in ``loaded``, and
    whether each gang fits the ``cluster``'s Nodes when it has some."""
    diagnostics = list(loaded.diagnostics)
    groups: list[dict[str, Any]] = []
    pcs = priority_classes or {}

    def report(doc: Document, path: tuple, code: str, message: str, severity: Severity = Severity.ERROR) -> None:
        line, col = doc.locate(path)
        diagnostics.append(Diagnostic(filename, line, col, format_path(path), code, severity, message))

    def fit(doc: Document, job: dict[str, Any]) -> None:
        """The gang against the cluster's Nodes, from the pods the operator creates (one per role)."""
        if cluster is None or not cluster.nodes:
            return
        if job["kind"] == "MPIJob":
            objects = ctl.created_objects(job, gang, scheduler_name=scheduler_name, priority_classes=pcs,
                                          version=version, max_workers=1, lazy=True)
        else:
            objects = tc.created_objects(job, gang, scheduler_name=scheduler_name, priority_classes=pcs, max_pods=1)
        try:
            found = gang_of(job, list(objects))
        except (ctl.NotCreated, pg.OperatorPanicError):  # suspended or refused: no pods to place
            return
        if found is not None:
            line, col = doc.locate(())
            verdict = gang_fit(found.roles, found.min_member, cluster.nodes, cluster.bound_pods)
            diagnostics.extend(d for d in [verdict.diagnostic(filename, line, col, "")] if d is not None)

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
            fit(doc, job)
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
        fit(doc, job)
    if not groups and not any(d.severity is Severity.ERROR for d in diagnostics):
        diagnostics.append(Diagnostic(filename, None, None, "", "no-mpijob", Severity.ERROR,
                                      f"no {MPIJOB_API} MPIJob and no {TRAINING_API} PyTorchJob or TFJob in this file"))
    return groups, diagnostics
