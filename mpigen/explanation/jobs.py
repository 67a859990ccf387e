"""What ``mpigen explain`` (and :func:`mpigen.explain`) does with a source: its jobs found and
judged as ``mpigen validate`` judges them (:func:`read_jobs`, which ``mpigen podgroup`` reads with
too), then, for each, what the operator creates (:func:`explain_jobs`).

Built from mpigen's own port of the controllers (:mod:`mpigen.operator.mpi_controller`,
:mod:`mpigen.operator.training_controller`) and of Trainer's runtime framework
(:mod:`mpigen.trainer`), never from a cluster. Pure: bytes and options in, objects, text and
diagnostics out; the caller reads the files.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Iterator

from ..diagnostics import Diagnostic, Severity, UsageError, format_path
from ..names import TRAINING_KINDS, TRAINJOB_KIND

if TYPE_CHECKING:
    from ..load.cluster import Cluster
    from ..scheduler.admission.verdict import Admission
    from ..scheduler.fit import Verdict
    from ..trainer.documents import Explained
    from ..validation import Job
    from ..versions import OperatorVersion


@dataclass
class Jobs:
    """The jobs of a source as ``mpigen explain`` and ``mpigen podgroup`` read them (:func:`read_jobs`)."""

    name: str  # how diagnostics name the source
    cluster: Cluster | None
    classes: dict[str, int] | None  # the cluster file's PriorityClasses
    jobs: list[Job]  # MPIJobs, PyTorchJobs and TFJobs without errors
    trainjobs: list[Explained]  # TrainJobs without errors, explained by Trainer's runtime framework
    diagnostics: list[Diagnostic]


def read_jobs(raw: bytes, name: str, cluster: Cluster | None, gang: str | None, scheduler_name: str,
              version: OperatorVersion, env: str | None, disabled: frozenset[str] = frozenset(),
              server_side: bool = False, beside: dict[str, bytes] | None = None) -> Jobs:
    """The source's bytes (named ``name``) read as explain and podgroup read them: the jobs with
    validate's verdict on them (:func:`mpigen.validation.find_jobs`; ``server_side``: the
    configuration's ``apply: server-side``), the TrainJobs explained. ``beside``: the files of the
    source's folder, for their training runtimes. Raises
    :class:`~mpigen.diagnostics.UsageError` for an ``env`` the spec lacks."""
    from ..lint.base import LintOptions, trainer_runtimes
    from ..load.trainer_runtimes import with_runtimes
    from ..load.yaml_loader import load_bytes
    from ..pipeline import Options
    from ..trainer.documents import Source, explain_trainjobs
    from ..validation import NoSuchEnvironment, ValidateOptions, find_jobs, run_runtimes, with_run_runtimes

    classes = None if cluster is None else cluster.priority_classes
    runtimes = cluster.runtimes if cluster is not None and cluster.runtimes.objects else None
    namespaces = cluster.namespaces if cluster is not None and cluster.namespaces else None
    lint = LintOptions(gang=gang, scheduler_name=scheduler_name, priority_classes=classes, operator_version=version,
                       trainer_runtimes=runtimes, namespaces=namespaces)
    options = ValidateOptions(lint=lint, build=Options(version, classes, runtimes, disabled),
                              disabled=disabled, server_side=server_side)
    if beside:  # the runtimes of the files beside it, as validate knows them
        options = with_run_runtimes(options, run_runtimes(beside.items()))
    try:
        jobs, diagnostics = find_jobs(load_bytes(raw, name), name, options, env)
    except NoSuchEnvironment as exc:
        raise UsageError(str(exc)) from None
    trainjobs = [Source(job.obj, name, job.locate) for job in jobs if job.obj["kind"] == TRAINJOB_KIND]
    # The runtimes of the input file (the TrainingRuntime a spec builds beside its TrainJob) too.
    known = with_runtimes(trainer_runtimes(options.lint), [rt for job in jobs for rt in job.runtimes])
    explained, found = explain_trainjobs(trainjobs, known, classes)
    return Jobs(name, cluster, classes, [job for job in jobs if job.obj["kind"] != TRAINJOB_KIND], explained,
                diagnostics + found)


@dataclass
class JobExplanation:
    """What the operator (or Kubeflow Trainer) creates for one job of the source."""

    kind: str
    """The job's kind: ``MPIJob``, ``PyTorchJob``, ``TFJob`` or ``TrainJob``."""
    name: str
    """The job's ``metadata.name``."""
    gang: str | None
    """The gang scheduler the operator runs with (``volcano``, ``scheduler-plugins``), or None."""
    fit: Verdict | None
    """Whether the gang fits the cluster's Nodes (:class:`mpigen.scheduler.fit.Verdict`: its
    ``outcome`` and ``reasons``); None without Nodes, or without a gang."""
    admission: Admission | None
    """Whether the PodGroup's Volcano queue admits it (:class:`mpigen.scheduler.admission.verdict.Admission`);
    None without queues."""
    text: str
    """What ``mpigen explain`` prints for this job (the same size for any number of workers)."""
    _stream: Callable[[], Iterator[dict[str, Any]]] = field(repr=False, compare=False)

    def objects(self) -> Iterator[dict[str, Any]]:
        """Every object the operator creates for the job, in its order (every worker Pod; for a
        TrainJob the runtime snapshot first), generated one at a time on each call: plain data,
        the hostfile and ``TF_CONFIG`` as text."""
        for obj in self._stream():
            yield _lazy_values(obj, str)

    def yaml_objects(self) -> Iterator[dict[str, Any]]:
        """:meth:`objects` ready for :func:`mpigen.emit.yaml_emit.iter_dump_all`: a hostfile is
        :class:`~mpigen.emit.yaml_emit.Lines` (the same text, never held whole)."""
        from ..emit.yaml_emit import Lines

        for obj in self._stream():
            yield _lazy_values(obj, Lines)


def explain_jobs(read: Jobs, gang: str | None, scheduler_name: str, version: OperatorVersion,
                 cluster_domain: str = "") -> tuple[list[JobExplanation], list[Diagnostic]]:
    """What the operator creates for each job of ``read`` (MPIJobs, PyTorchJobs and TFJobs first,
    then TrainJobs), and the diagnostics: a job the controller would create nothing for
    (``not-created``) or crash on (``operator-crash``), and the cluster's verdicts on the gangs
    (``gang-*``, ``queue-*``). When a job is not created, nothing is explained (an empty list).
    ``gang``: the operator's ``--gang-scheduling``; None: what each job's pod templates say."""
    from ..explanation.text import render_text, render_training_text
    from ..explanation.trainjob import render_trainjob_text
    from ..lint.base import Context, LintOptions
    from ..operator import mpi_controller as ctl
    from ..operator import training_controller as tc
    from ..operator.mpi_defaults import set_defaults
    from ..operator.podgroup import OperatorPanicError
    from ..scheduler.fit import gang_fit
    from ..scheduler.gang import gang_of
    from .verdicts import admission, gang_location, queue_location, queues_known, trainjob_fit

    cluster, name = read.cluster, read.name

    def operator_objects(item: Job, job_gang: str | None, limit: int | None) -> Iterator[dict[str, Any]]:
        """The objects the controller creates, one at a time; at most ``limit`` worker Pods."""
        if item.obj.get("kind") in TRAINING_KINDS:  # training-operator v1.9.4
            return tc.created_objects(item.obj, job_gang, scheduler_name=scheduler_name,
                                      priority_classes=read.classes, cluster_domain=cluster_domain, max_pods=limit)
        # The ConfigMap's hostfile is a lazy Hostfile; NotCreated or OperatorPanicError comes before
        # the first object.
        return ctl.created_objects(item.obj, job_gang, scheduler_name=scheduler_name, priority_classes=read.classes,
                                   version=version, cluster_domain=cluster_domain, max_workers=limit, lazy=True)

    out: list[JobExplanation] = []
    problems: list[Diagnostic] = []
    fits: list[Diagnostic] = []
    for item in read.jobs:  # every job's problems first; the text shows one Pod per replica type
        job_gang = gang if gang is not None else Context(item.obj, LintOptions()).gang
        job_gang = None if job_gang == "none" else job_gang
        try:
            created = list(operator_objects(item, job_gang, 1))
        except (ctl.NotCreated, OperatorPanicError) as exc:
            crash = isinstance(exc, OperatorPanicError)
            line, col, path = item.locate(_cause(item.obj, exc))
            problems.append(Diagnostic(name, line, col, format_path(path), "operator-crash" if crash else "not-created",
                                       Severity.ERROR, f"{exc}: nothing is created"))
            continue
        verdict = admitted = None
        if cluster is not None and (cluster.nodes and job_gang or queues_known(cluster)):
            gang_pods = gang_of(item.obj, created) if job_gang else None
            if gang_pods is not None and cluster.nodes:
                verdict = gang_fit(gang_pods.roles, gang_pods.min_member, cluster.nodes, cluster.bound_pods,
                                   cluster.origin)
                line, col, path = gang_location(item.locate)
                found = verdict.diagnostic(name, line, col, format_path(path))
                fits += [found] if found is not None else []
            if gang_pods is not None or not job_gang:
                admitted, found_admission = admission(item.obj, created, gang_pods.roles if gang_pods else None,
                                                      cluster, name, queue_location(item))
                fits += found_admission
        if item.obj.get("kind") in TRAINING_KINDS:
            text = render_training_text(tc.prepared(item.obj), created, job_gang, verdict, admitted)
        else:
            text = render_text(set_defaults(item.obj, version), created, job_gang, version, verdict, admitted)
        out.append(JobExplanation(item.obj["kind"], item.obj["metadata"]["name"], job_gang, verdict, admitted, text,
                                  lambda item=item, job_gang=job_gang: operator_objects(item, job_gang, None)))
    for trainjob in read.trainjobs:  # the gang of a TrainJob: the replicated jobs of its JobSet
        verdict, admitted, found_verdicts = trainjob_fit(trainjob, cluster)
        fits += found_verdicts
        group = next((o for o in trainjob.built.objects if o.get("kind") == "PodGroup"), None)
        out.append(JobExplanation(TRAINJOB_KIND, trainjob.job.data["metadata"]["name"], _podgroup_gang(group),
                                  verdict, admitted, render_trainjob_text(trainjob, verdict, admitted),
                                  lambda trainjob=trainjob: _trainjob_objects(trainjob)))
    if problems:
        return [], problems + fits
    return out, fits


def _podgroup_gang(group: dict[str, Any] | None) -> str | None:
    """The gang scheduler of a TrainJob's PodGroup (by its API group), or None without one."""
    if group is None:
        return None
    return "volcano" if group["apiVersion"].startswith("scheduling.volcano.sh/") else "scheduler-plugins"


def _cause(job: dict[str, Any], exc: Exception) -> tuple:
    """The manifest field that makes the controller create nothing (or crash)."""
    message = str(exc)
    if "managedBy" in message:
        return ("spec", "runPolicy", "managedBy")
    if "rdzvConf" in message:
        return ("spec", "elasticPolicy", "rdzvConf")
    replicas = job["spec"].get("mpiReplicaSpecs") or {}
    if "PriorityClass" in message:  # v0.4 scheduler-plugins: the first pod priorityClassName looked up
        for role in ("Launcher", "Worker", *sorted(r for r in replicas if r not in ("Launcher", "Worker"))):
            template = (replicas.get(role) or {}).get("template") or {}
            if (template.get("spec") or {}).get("priorityClassName"):
                return ("spec", "mpiReplicaSpecs", role, "template", "spec", "priorityClassName")
    for role in replicas:
        if f"mpiReplicaSpecs.{role}.replicas" in message:
            return ("spec", "mpiReplicaSpecs", role, "replicas")
        if f"mpiReplicaSpecs.{role}" in message:
            return ("spec", "mpiReplicaSpecs", role)
    return ("spec",)


def _lazy_values(obj: dict[str, Any], text: Callable[[Any], Any]) -> dict[str, Any]:
    """``obj`` with the values the controllers' ports keep lazy (a hostfile, a TFJob Pod's
    ``TF_CONFIG``) given as ``text`` makes them: ``str`` for data, or
    :class:`~mpigen.emit.yaml_emit.Lines` for the emitter (a hostfile only: it is never held whole)."""
    from ..operator import mpi_controller as ctl
    from ..operator import training_controller as tc
    from ..trainer import mpi as trainer_mpi

    data = obj.get("data") if obj.get("kind") == "ConfigMap" else None
    if data and isinstance(data.get("hostfile"), (ctl.Hostfile, trainer_mpi.Hostfile)):
        obj = dict(obj, data=dict(data, hostfile=text(data["hostfile"])))
    if obj.get("kind") == "Pod" and obj["metadata"].get("labels", {}).get(tc.OPERATOR_NAME_LABEL) == \
            tc.CONTROLLER_NAMES["TFJob"] and any(isinstance(e.get("value"), tc.TFConfig)
                                                 for c in obj["spec"]["containers"] for e in c.get("env") or []):
        containers = [dict(c, env=[dict(e, value=str(e["value"])) if isinstance(e.get("value"), tc.TFConfig)
                                   else e for e in c["env"]]) if c.get("env") else c
                      for c in obj["spec"]["containers"]]
        obj = dict(obj, spec=dict(obj["spec"], containers=containers))
    return obj


def _sorted_keys(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _sorted_keys(value[k]) for k in sorted(value)}
    if isinstance(value, list):
        return [_sorted_keys(v) for v in value]
    return value


def _trainjob_objects(item: Explained) -> Iterator[dict[str, Any]]:
    """What Trainer applies for a new TrainJob, in its order: the runtime snapshot (its YAML with
    the keys sorted, as Go writes it), then the PodGroup, the SSH Secret, the hostfile ConfigMap
    and the JobSet."""
    from ..emit.yaml_emit import dump

    snapshot = item.built.snapshot
    yield dict(snapshot, data={"runtime": dump(_sorted_keys(snapshot["data"]["runtime"]))})
    yield from item.built.objects
