"""``mpigen explain``: what the operator will create for a job, before anything is applied.

Built from mpigen's own port of the controllers (:mod:`mpigen.operator.mpi_controller`,
:mod:`mpigen.operator.training_controller`), never from a cluster: the PodGroup, the hostfile,
the Service, the SSH Secret, the launcher Job and the worker Pods with their scheduling fields,
and the environment the operator injects. SOURCE is an mpigen spec (compiled first) or MPIJob,
PyTorchJob or TFJob manifests (as the API server stores them), the items of a ``kind: List``
included: the jobs are found, and judged, as ``mpigen validate`` and ``mpigen podgroup`` find and
judge them (:func:`mpigen.validation.find_jobs`), so a job validate reports an error on is not
explained (exit 1). The gang scheduler is the one the job's pod templates show, unless ``--gang``
says otherwise.

A Kubeflow Trainer v2.3.0 TrainJob (``trainer.kubeflow.org/v1alpha1``) is explained by
:mod:`mpigen.trainer`'s port of Trainer's runtime framework, on the TrainingRuntime or
ClusterTrainingRuntime its ``runtimeRef`` names: the ``--cluster`` file's (``kubectl get
clustertrainingruntimes,trainingruntimes -A -o yaml``), else Trainer's default runtimes (an info
note says so): the JobSet, the PodGroup the runtime's ``podGroupPolicy`` asks for, the MPI
hostfile and SSH Secret, the runtime snapshot, how numProcPerNode was resolved and the
environment the plugins inject.

The text (:mod:`mpigen.explanation`) is for people and has the same size for any number of workers:
one worker Pod stands for all (they differ only by index) and a long hostfile shows its first and
last lines with the count of those left out. The YAML is for tools and lists every object completely; the
objects are generated one at a time and the hostfile line by line
(:func:`mpigen.emit.yaml_emit.iter_dump_all`), so memory does not grow with the worker count.

With a ``--cluster`` file that holds Nodes, the gang (the PodGroup's minMember pods) is checked
against them (:mod:`mpigen.scheduler.fit`): the text shows the verdict under the PodGroup, and a gang
that cannot fit is an error (``gang-cannot-fit``) at the job, one that may not fit a warning
(``gang-may-not-fit``). With Volcano Queues in the file, whether the PodGroup's queue admits it
(:mod:`mpigen.scheduler.admission`) is said beside it: ``queue-cannot-admit`` (an error, at the
queue the job names), ``queue-may-not-admit`` (a warning), else a note (``queue-admits``) of the
queue's share. The output is printed either way, since the operator creates those objects all the
same; an error makes the exit code 1.
"""

from __future__ import annotations

import re
from typing import Any, Iterator

import click

from .. import io
from ..diagnostics import EXIT_INVALID, EXIT_OK, Diagnostic, Severity, format_path, has_errors
from ..emit.yaml_emit import Lines, dump, iter_dump_all
from ..lint.base import Context, LintOptions
from ..names import TRAINING_KINDS
from ..operator import mpi_controller as ctl
from ..operator import training_controller as tc
from ..operator.mpi_defaults import set_defaults
from ..operator.podgroup import OperatorPanicError
from ..scheduler.fit import gang_fit
from ..scheduler.gang import gang_of
from ..trainer import mpi as trainer_mpi
from ..trainer.documents import Explained
from ..validation import Job
from ..explanation.text import render_text, render_training_text
from ..explanation.trainjob import render_trainjob_text
from . import (CLUSTER_NODES, CONFIG_DEFAULT, RUNTIMES, admission, cluster_option, config_option, env_option,
               format_option, gang_location, gang_option, operator_version_option, queue_location, read_configured_jobs,
               scheduler_name_option, trainjob_fit)

_DOMAIN = re.compile(r"^[A-Za-z0-9]([-A-Za-z0-9.]*[A-Za-z0-9])?$")
_CHUNK = 1 << 16  # characters of YAML written at a time


@click.command()
@click.argument("source", type=click.Path(dir_okay=False, allow_dash=True))
@gang_option("The operator's --gang-scheduling (default: gang in the configuration, else what the manifest's pod "
             "templates say).")
@scheduler_name_option(default=None, help="scheduler-plugins scheduler name [default: schedulerName in the "
                       "configuration, else scheduler-plugins-scheduler].")
@cluster_option(f"{CLUSTER_NODES}; {RUNTIMES}.")
@operator_version_option("mpi-operator release whose rules apply [default: operatorVersion in the configuration, "
                         "else v0.8.2].", default=None)
@click.option("--cluster-domain", default="", metavar="D",
              help="The operator's --cluster-domain (MPIJob hostfile) or CUSTOM_CLUSTER_DOMAIN (TFJob TF_CONFIG).")
@env_option("For a spec: the environment to explain (default: the base).")
@config_option(f"{CONFIG_DEFAULT}: its gang, schedulerName, operatorVersion, cluster and disable, as validate "
               "reads them.", exists=True)
@format_option("text", "yaml",
               help="text for people (the same size for any number of workers); yaml: every object, for tools.")
def explain(source: str, gang: str | None, scheduler_name: str | None, cluster_input: io.ClusterInput,
            operator_version: str | None, cluster_domain: str, env: str | None, fmt: str,
            config_file: str | None) -> int:
    """Show what the operator will create for SOURCE: an mpigen spec, or MPIJob, PyTorchJob, TFJob or
    TrainJob manifests (or -)."""
    if cluster_domain and not _DOMAIN.match(cluster_domain):
        raise io.UsageError(f"--cluster-domain {cluster_domain!r}: not a DNS domain")
    read, gang, scheduler_name, version = read_configured_jobs(source, gang, scheduler_name, cluster_input,
                                                               operator_version, env, config_file)
    cluster, classes, name, jobs, explained, diagnostics = (read.cluster, read.classes, read.name, read.jobs,
                                                            read.trainjobs, read.diagnostics)
    io.report(diagnostics)
    if has_errors(diagnostics):
        return EXIT_INVALID

    def operator_objects(item: Job, limit: int | None) -> Any:
        """(gang, the objects the controller creates, one at a time; at most ``limit`` worker Pods)."""
        job_gang = gang if gang is not None else Context(item.obj, LintOptions()).gang
        job_gang = None if job_gang == "none" else job_gang
        if item.obj.get("kind") in TRAINING_KINDS:  # training-operator v1.9.4
            return job_gang, tc.created_objects(item.obj, job_gang, scheduler_name=scheduler_name,
                                                priority_classes=classes, cluster_domain=cluster_domain,
                                                max_pods=limit)
        # The ConfigMap's hostfile is a lazy Hostfile; NotCreated or OperatorPanicError comes before
        # the first object (so max_workers=0 tells, before any output, whether anything is created).
        return job_gang, ctl.created_objects(item.obj, job_gang, scheduler_name=scheduler_name,
                                             priority_classes=classes, version=version,
                                             cluster_domain=cluster_domain, max_workers=limit, lazy=True)

    texts, problems, fits = [], [], []
    for item in jobs:  # every job's problems before any output; text shows one Pod per replica type
        training = item.obj.get("kind") in TRAINING_KINDS
        try:
            job_gang, created = operator_objects(item, 1 if training or fmt == "text" else 0)
            created = list(created)
        except (ctl.NotCreated, OperatorPanicError) as exc:
            crash = isinstance(exc, OperatorPanicError)
            line, col, path = item.locate(_cause(item.obj, exc))
            problems.append(Diagnostic(name, line, col, format_path(path), "operator-crash" if crash else "not-created",
                                       Severity.ERROR, f"{exc}: nothing is created"))
            continue
        verdict = admitted = None
        if cluster is not None and (cluster.nodes or cluster.queues) and job_gang:
            sample = created if training or fmt == "text" else list(operator_objects(item, 1)[1])
            gang_pods = gang_of(item.obj, sample)
            if gang_pods is not None and cluster.nodes:
                verdict = gang_fit(gang_pods.roles, gang_pods.min_member, cluster.nodes, cluster.bound_pods,
                                   cluster.origin)
                line, col, path = gang_location(item.locate)
                found = verdict.diagnostic(name, line, col, format_path(path))
                fits += [found] if found is not None else []
            if gang_pods is not None:
                group = next((o for o in sample if o.get("kind") == "PodGroup"), None)
                admitted, found_admission = admission(group, gang_pods.roles, cluster, name, queue_location(item))
                fits += found_admission
        if fmt == "text" and training:
            texts.append(render_training_text(tc.prepared(item.obj), created, job_gang, verdict, admitted))
        elif fmt == "text":
            texts.append(render_text(set_defaults(item.obj, version), created, job_gang, version, verdict, admitted))
    verdicts = []
    for trainjob in explained:  # the gang of a TrainJob: the replicated jobs of its JobSet
        verdict, admitted, found_verdicts = trainjob_fit(trainjob, cluster)
        verdicts.append((verdict, admitted))
        fits += found_verdicts
    io.report(problems + fits)
    if problems:
        return EXIT_INVALID
    done = EXIT_INVALID if has_errors(fits) else EXIT_OK  # the objects are created all the same
    if fmt == "text":
        texts += [render_trainjob_text(item, verdict, admitted) for item, (verdict, admitted) in zip(explained, verdicts)]
        click.echo("\n".join(texts), nl=False)
        return done
    batch: list[str] = []
    size = 0
    streams = [for_yaml(operator_objects(item, None)[1]) for item in jobs] + \
        [trainjob_objects(item) for item in explained]
    for stream in streams:  # YAML: streamed, every object complete
        for chunk in iter_dump_all(stream, shared=True):
            batch.append(chunk)
            size += len(chunk)
            if size >= _CHUNK:
                click.echo("".join(batch), nl=False)
                batch.clear()
                size = 0
    click.echo("".join(batch), nl=False)
    return done


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


def for_yaml(objects: Iterator[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """``objects`` ready for :func:`mpigen.emit.yaml_emit.iter_dump_all`: a lazy hostfile becomes
    :class:`~mpigen.emit.yaml_emit.Lines` (the same text, never held whole)."""
    for obj in objects:
        data = obj.get("data") if obj.get("kind") == "ConfigMap" else None
        if data and isinstance(data.get("hostfile"), ctl.Hostfile):
            obj = dict(obj, data=dict(data, hostfile=Lines(data["hostfile"])))
        if obj.get("kind") == "Pod" and obj["metadata"].get("labels", {}).get(tc.OPERATOR_NAME_LABEL) == \
                tc.CONTROLLER_NAMES["TFJob"] and any(isinstance(e.get("value"), tc.TFConfig)
                                            for c in obj["spec"]["containers"] for e in c.get("env") or []):
            containers = [dict(c, env=[dict(e, value=str(e["value"])) if isinstance(e.get("value"), tc.TFConfig)
                                       else e for e in c["env"]]) if c.get("env") else c
                          for c in obj["spec"]["containers"]]
            obj = dict(obj, spec=dict(obj["spec"], containers=containers))
        yield obj


def _sorted_keys(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _sorted_keys(value[k]) for k in sorted(value)}
    if isinstance(value, list):
        return [_sorted_keys(v) for v in value]
    return value


def trainjob_objects(item: Explained) -> Iterator[dict[str, Any]]:
    """What Trainer applies for a new TrainJob, in its order: the runtime snapshot (its YAML with
    the keys sorted, as Go writes it), then the PodGroup, the SSH Secret, the hostfile ConfigMap
    (as :class:`~mpigen.emit.yaml_emit.Lines`) and the JobSet."""
    snapshot = item.built.snapshot
    runtime = snapshot["data"]["runtime"]
    yield dict(snapshot, data={"runtime": dump(_sorted_keys(runtime))})
    for obj in item.built.objects:
        data = obj.get("data") if obj["kind"] == "ConfigMap" else None
        if data and isinstance(data.get("hostfile"), trainer_mpi.Hostfile):
            obj = dict(obj, data=dict(data, hostfile=Lines(data["hostfile"])))
        yield obj
