"""What the operator creates for a submitted job, from mpigen's ports of the controllers: what
``mpigen explain`` shows for the same job (:mod:`mpigen.operator.mpi_controller`,
:mod:`mpigen.operator.training_controller`, :mod:`mpigen.trainer`), with its gang
(:mod:`mpigen.scheduler.gang`). ``mpigen diagnose`` compares it with what the cluster holds.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from ..lint.base import GANG_SCHEDULER_PLUGINS, GANG_VOLCANO, Context, LintOptions
from ..load.cluster import Cluster
from ..load.trainer_runtimes import runtimes_or_defaults
from ..operator import mpi_controller as ctl
from ..operator import training_controller as tc
from ..operator.podgroup import SCHEDULER_PLUGINS_API_VERSION, VOLCANO_API_VERSION, OperatorPanicError
from ..scheduler.gang import Gang, gang_of, role_counts, trainjob_gang
from ..trainer.documents import Source, explain_trainjobs
from ..versions import DEFAULT_OPERATOR_VERSION, OperatorVersion

GANGS = {VOLCANO_API_VERSION: GANG_VOLCANO, SCHEDULER_PLUGINS_API_VERSION: GANG_SCHEDULER_PLUGINS}
"""A PodGroup's apiVersion -> the gang scheduler it is for."""

OPERATORS = {"MPIJob": "mpi-operator", "PyTorchJob": tc.OPERATOR, "TFJob": tc.OPERATOR,
             "TrainJob": "Kubeflow Trainer v2.3.0"}


@dataclass(frozen=True)
class Expected:
    """What the controller creates for the job at its first reconcile."""

    gang: str | None  # the gang scheduler: volcano, scheduler-plugins; None: no PodGroup
    objects: tuple[dict[str, Any], ...] = ()  # in the controller's order, every worker Pod included
    pods: int = 0  # the pods the job runs
    gang_pods: Gang | None = None  # the PodGroup's minMember and the pods that carry it, per role
    problem: tuple[str, str] | None = None  # (code, message): the controller creates nothing, or crashes
    notes: tuple[str, ...] = field(default=())

    @property
    def podgroup(self) -> dict[str, Any] | None:
        return next((o for o in self.objects if o.get("kind") == "PodGroup"), None)


def gang_of_job(job: Mapping[str, Any], live_podgroups: list[Mapping[str, Any]], option: str | None) -> str | None:
    """The operator's gang scheduler for ``job``: ``--gang`` (``none``: None), else the kind of the
    PodGroup the cluster holds for it, else what its pod templates show (as ``explain`` infers it)."""
    if option is not None:
        return None if option == "none" else option
    for group in live_podgroups:
        if group.get("apiVersion") in GANGS:
            return GANGS[group["apiVersion"]]
    return Context(dict(job), LintOptions()).gang


def jobset_pods(jobset: Mapping[str, Any]) -> int:
    """The pods a JobSet runs: ``replicas`` Jobs of each replicated job, of ``parallelism`` pods."""
    count = 0
    for rjob in (jobset.get("spec") or {}).get("replicatedJobs") or []:
        job_spec = (rjob.get("template") or {}).get("spec") or {}
        count += (rjob.get("replicas") or 1) * (job_spec.get("parallelism") or 1)
    return count


def expected(job: dict[str, Any], gang: str | None, cluster: Cluster | None,
             version: OperatorVersion = DEFAULT_OPERATOR_VERSION) -> Expected:
    """What the operator creates for ``job`` (as the API server holds it), on ``cluster``'s
    PriorityClasses (and, for a TrainJob, its runtimes, else Trainer's default ones)."""
    classes = cluster.priority_classes if cluster is not None and cluster.priority_classes else None
    if job.get("kind") == "TrainJob":
        return _trainjob(job, cluster, classes)
    try:
        if job.get("kind") == "MPIJob":
            objects = tuple(ctl.created_objects(job, gang, priority_classes=classes, version=version))
        else:
            objects = tuple(tc.created_objects(job, gang, priority_classes=classes))
    except ctl.NotCreated as exc:
        return Expected(gang, problem=("not-created", f"{exc}: {OPERATORS[job['kind']]} creates nothing"))
    except OperatorPanicError as exc:
        return Expected(gang, problem=("operator-crash", f"{exc}: {OPERATORS[job['kind']]} creates nothing"))
    found = gang_of(job, objects) if gang else None
    return Expected(gang if found is not None else None, objects, sum(role_counts(job).values()), found)


def _trainjob(job: dict[str, Any], cluster: Cluster | None, classes: dict[str, int] | None) -> Expected:
    runtimes = runtimes_or_defaults(cluster.runtimes if cluster is not None and cluster.runtimes.objects else None)
    name = (job.get("metadata") or {}).get("name") or "?"
    source = Source(job, f"trainjobs.trainer.kubeflow.org/{name}", lambda path: (None, None, tuple(path)))
    explained, diagnostics = explain_trainjobs([source], runtimes, classes)
    if not explained:
        problem = next((d for d in diagnostics if d.severity.value == "error"), None)
        message = f"{problem.message} ({problem.path})" if problem is not None and problem.path else \
            problem.message if problem is not None else "Trainer creates nothing"
        return Expected(None, problem=(problem.code if problem is not None else "not-created", message))
    built = explained[0].built
    objects = tuple(built.objects)
    group = next((o for o in objects if o.get("kind") == "PodGroup"), None)
    jobset = next((o for o in objects if o.get("kind") == "JobSet"), {})
    notes = tuple(d.message for d in diagnostics if d.code == "default-runtime")
    return Expected(GANGS.get(group.get("apiVersion")) if group else None, objects, jobset_pods(jobset),
                    trainjob_gang(objects), notes=notes)
