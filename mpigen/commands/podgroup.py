"""``mpigen podgroup``: the PodGroup the operator would create for a job.

The jobs are found as ``mpigen explain`` and ``mpigen validate`` find them
(:func:`mpigen.validation.find_jobs`): every MPIJob, PyTorchJob and TFJob of every YAML document,
the items of a ``kind: List`` included (their diagnostics point at the item's own lines), and an
mpigen spec is compiled first (``--env``: one of its environments). Each job gets validate's
verdict: what validate reports is reported, and a job with an error gets no PodGroup (exit 1).

* **MPIJob** (``kubeflow.org/v2beta1``): defaulted as the operator defaults it (``scheme.Default``
  in its sync loop), then handed to the port of ``newPodGroup`` at ``--operator-version``.
* **PyTorchJob, TFJob** (``kubeflow.org/v1``): training-operator **v1.9.4**, whatever
  ``--operator-version`` says (that option names an mpi-operator release). Defaulted with
  ``SetDefaults_*``, then handed to :mod:`mpigen.operator.training_podgroup`. A suspended job,
  or one another controller manages (``runPolicy.managedBy``), gets no PodGroup
  (``not-created``). When the operator's random map order makes minResources differ in value
  (equal priorities and a minAvailable cut), the PodGroup is printed for the document's order
  with a ``nondeterministic`` warning.

* **TrainJob** (``trainer.kubeflow.org/v1alpha1``): Kubeflow Trainer v2.3.0, on the
  TrainingRuntime or ClusterTrainingRuntime its ``runtimeRef`` names: the ``--cluster`` file's,
  else Trainer's default runtimes (:mod:`mpigen.trainer`). ``--gang`` does not apply: the
  runtime's ``podGroupPolicy`` decides between coscheduling and Volcano; a runtime without one
  gets no PodGroup, which is said in a note (``no-podgroup``), and nothing is printed for that job.

The gang scheduler (the operator's ``--gang-scheduling``) is the one the job's pod templates show,
as ``explain`` reads it (schedulerName ``volcano`` or Volcano's group annotation, scheduler-plugins'
group label); ``--gang`` overrides it. A job that shows none gets no PodGroup (``not-created``).

When the ``--cluster`` file holds Nodes, each gang is checked against them
(:mod:`mpigen.scheduler.fit`) with the pods the operator creates: a gang that cannot fit is an
error (``gang-cannot-fit``, exit 1, the PodGroups are printed all the same), one that may not fit
a warning (``gang-may-not-fit``). When it holds Volcano Queues, Kueue's queues or ElasticQuotas,
whether the queue admits each job (:mod:`mpigen.scheduler.admission`: Volcano's enqueue of its
PodGroup, the ElasticQuota of its namespace, Kueue's admission of its Workload, said also for a job
Kueue queues without a PodGroup): ``queue-cannot-admit`` (an error, exit 1, printed all the same),
``queue-may-not-admit`` (a warning), else a note (``queue-admits``).
"""

from __future__ import annotations

from typing import Any

import click

from .. import io
from ..diagnostics import EXIT_INVALID, EXIT_OK, Diagnostic, Severity, format_path, has_errors
from ..emit.yaml_emit import dump, dump_all
from ..lint.base import Context, LintOptions
from ..load.cluster import Cluster
from ..names import TRAINING_KINDS
from ..operator import mpi_controller as ctl
from ..operator import podgroup as pg
from ..operator import training_controller as tc
from ..operator import training_podgroup as tp
from ..operator.mpi_defaults import set_defaults
from ..operator.training_defaults import set_defaults as set_training_defaults
from ..scheduler.fit import gang_fit
from ..scheduler.gang import gang_of
from ..validation import Job
from ..versions import OperatorVersion
from ..explanation.verdicts import admission, gang_location, queue_location, queues_known, trainjob_fit
from . import (CLUSTER_NODES, CONFIG_DEFAULT, OPERATOR_RULES, RUNTIMES, cluster_option, config_option, env_option,
               gang_option, operator_version_option, read_configured_jobs, scheduler_name_option)

VERDICTS = ("gang-cannot-fit", "queue-cannot-admit")
"""Errors of the cluster's verdict on a job: the PodGroup is printed all the same (the operator creates it)."""



@click.command()
@click.argument("source", type=click.Path(dir_okay=False, allow_dash=True))
@gang_option("The operator's --gang-scheduling (default: gang in the configuration, else what each job's pod "
             "templates say).", none=False)
@scheduler_name_option(default=None, help="scheduler-plugins scheduler name (the operator's --gang-scheduling "
                       "value) [default: schedulerName in the configuration, else scheduler-plugins-scheduler].")
@cluster_option(f"{CLUSTER_NODES}; the PriorityClasses order minResources; {RUNTIMES}.")
@operator_version_option(f"{OPERATOR_RULES} (v0.4.x: Volcano minResources are not computed) [default: "
                         "operatorVersion in the configuration, else v0.8.2].", default=None)
@env_option("For a spec: the environment whose jobs to take (default: the base).")
@config_option(f"{CONFIG_DEFAULT}: its gang, schedulerName, operatorVersion, cluster and disable, as validate "
               "reads them.", exists=True)
def podgroup(source: str, gang: str | None, scheduler_name: str | None, cluster_input: io.ClusterInput,
             operator_version: str | None, env: str | None, config_file: str | None) -> int:
    """Print the PodGroup the operator would create for each MPIJob, PyTorchJob, TFJob and TrainJob of
    SOURCE: manifests (items of a `kind: List` included) or an mpigen spec, compiled first (a file or -).

    MPIJobs follow mpi-operator at --operator-version; PyTorchJobs and TFJobs (kubeflow.org/v1)
    always follow training-operator v1.9.4, whose --gang-scheduler-name is --gang volcano or,
    for scheduler-plugins, --scheduler-name. The gang scheduler is the one each job's pod
    templates show, unless --gang says otherwise. TrainJobs follow Kubeflow Trainer v2.3.0: the
    runtime their runtimeRef names (from --cluster, else Trainer's defaults) decides (not --gang).
    """
    read, gang, scheduler_name, version = read_configured_jobs(source, gang, scheduler_name, cluster_input,
                                                               operator_version, env, config_file)
    cluster, classes, name, jobs, explained, diagnostics = (read.cluster, read.classes, read.name, read.jobs,
                                                            read.trainjobs, read.diagnostics)
    groups: list[dict[str, Any]] = []
    if not has_errors(diagnostics):
        groups, found = podgroups(jobs, name, gang, scheduler_name, classes, version, cluster)
        diagnostics += found
        for item in explained:
            group = item.built.podgroup
            if group is None:
                runtime = item.built.runtime
                diagnostics.append(item.job.diagnostic(
                    ("spec", "runtimeRef"), code="no-podgroup", severity=Severity.INFO,
                    message=f"{runtime['kind']} {runtime['metadata']['name']} has no podGroupPolicy: Trainer creates "
                    "no PodGroup for this TrainJob"))
            else:
                groups.append(group)
                diagnostics.extend(trainjob_fit(item, cluster)[2])
    io.report(diagnostics)
    if has_errors(d for d in diagnostics if d.code not in VERDICTS):
        return EXIT_INVALID
    if groups:
        click.echo(dump(groups[0]) if len(groups) == 1 else dump_all(groups), nl=False)
    return EXIT_INVALID if has_errors(diagnostics) else EXIT_OK  # a gang that cannot fit is still created


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


def podgroups(jobs: list[Job], filename: str, gang: str | None, scheduler_name: str,
              priority_classes: dict[str, int] | None, version: OperatorVersion, cluster: Cluster | None = None
              ) -> tuple[list[dict[str, Any]], list[Diagnostic]]:
    """One PodGroup per job (checked: see :func:`mpigen.validation.find_jobs`), under ``gang``,
    else the gang scheduler its pod templates show, and whether each gang fits the ``cluster``'s
    Nodes and its queue admits it, when the cluster file holds them."""
    diagnostics: list[Diagnostic] = []
    groups: list[dict[str, Any]] = []
    pcs = priority_classes or {}

    def report(job: Job, path: tuple, code: str, message: str, severity: Severity = Severity.ERROR) -> None:
        line, col, shown = job.locate(path)
        diagnostics.append(Diagnostic(filename, line, col, format_path(shown), code, severity, message))

    def fit(job: Job, job_gang: str | None) -> None:
        """The gang against the cluster's Nodes and the job against its queue, from the pods the
        operator creates (one per role); without a gang, only Kueue's or an ElasticQuota's verdict."""
        if cluster is None or not (cluster.nodes and job_gang or queues_known(cluster)):
            return
        obj = job.obj
        if obj["kind"] == "MPIJob":
            objects = ctl.created_objects(obj, job_gang, scheduler_name=scheduler_name, priority_classes=pcs,
                                          version=version, max_workers=1, lazy=True)
        else:
            objects = tc.created_objects(obj, job_gang, scheduler_name=scheduler_name, priority_classes=pcs,
                                         max_pods=1)
        try:
            created = list(objects)
        except (ctl.NotCreated, pg.OperatorPanicError):  # suspended or refused: no pods to place
            return
        found = gang_of(obj, created) if job_gang else None
        if found is not None and cluster.nodes:
            line, col, shown = gang_location(job.locate)
            verdict = gang_fit(found.roles, found.min_member, cluster.nodes, cluster.bound_pods,
                               cluster.origin)
            diagnostics.extend(d for d in [verdict.diagnostic(filename, line, col, format_path(shown))] if d is not None)
        if found is not None or not job_gang:
            diagnostics.extend(admission(obj, created, found.roles if found else None, cluster, filename,
                                         queue_location(job))[1])

    for job in jobs:
        obj = job.obj
        context = Context(obj, LintOptions(gang=gang))
        job_gang = context.gang
        if job_gang is None:
            kube_batch = any((t.get("spec") or {}).get("schedulerName") == "kube-batch"
                             for _, _, t in context.pod_templates() if isinstance(t.get("spec"), dict))
            why = ("the configuration says the operator runs without gang scheduling (gang: none)" if gang == "none"
                   else "its pods are gang-scheduled by kube-batch, whose PodGroup no operator creates (mpigen "
                   "build writes it beside the job)" if kube_batch else
                   "its pod templates name neither Volcano (schedulerName volcano, annotation "
                   "scheduling.k8s.io/group-name) nor a scheduler-plugins PodGroup (label "
                   "scheduling.x-k8s.io/pod-group)")
            report(job, ("spec",), "not-created",
                   f"the {obj['kind']} {obj['metadata']['name']} is not gang-scheduled by the operator: {why}, so "
                   "the operator creates no PodGroup; give --gang to say how the operator runs")
            fit(job, None)  # a job Kueue queues: its Workload's verdict all the same
            continue
        try:
            if obj["kind"] in TRAINING_KINDS:
                group, reason, warning = _training_podgroup(obj, job_gang, scheduler_name, pcs)
                if reason:
                    report(job, ("spec", "runPolicy"), "not-created", reason)
                    continue
                if warning:
                    report(job, ("spec", "runPolicy"), "nondeterministic", warning, Severity.WARNING)
            else:
                group = pg.new_pod_group(set_defaults(obj, version), job_gang, pcs, scheduler_name=scheduler_name,
                                         version=version)
        except pg.OperatorPanicError as exc:
            report(job, ("spec",), "operator-crash", str(exc))
            continue
        groups.append(group)
        fit(job, job_gang)
    return groups, diagnostics
