"""``mpigen explain``: the click layer over :mod:`mpigen.explain`."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable

import click

from .cli import Fail, _cluster, _load, _report, _usage, _version_option
from .diagnostics import EXIT_INVALID, Diagnostic, Severity, format_path, has_errors

TRAINING_KINDS = ("PyTorchJob", "TFJob")
TRAINING_API = "kubeflow.org/v1"
_DOMAIN = re.compile(r"^[A-Za-z0-9]([-A-Za-z0-9.]*[A-Za-z0-9])?$")
_CHUNK = 1 << 16  # characters of YAML written at a time


@dataclass
class _Job:
    job: dict[str, Any]
    locate: Callable[[tuple], tuple[int | None, int | None, tuple]]  # manifest path -> line, col, path shown


@click.command()
@click.argument("source", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--gang", type=click.Choice(["volcano", "scheduler-plugins", "none"]),
              help="The operator's --gang-scheduling (default: what the manifest's pod templates say).")
@click.option("--scheduler-name", default="scheduler-plugins-scheduler", show_default=True, metavar="N",
              help="scheduler-plugins scheduler name.")
@click.option("--cluster", "cluster_file", type=click.Path(dir_okay=False, allow_dash=True), metavar="FILE",
              help="PriorityClasses of the cluster (kubectl get priorityclass -o yaml).")
@click.option("--operator-version", default="v0.8.0", show_default=True, metavar="V")
@click.option("--cluster-domain", default="", metavar="D",
              help="The operator's --cluster-domain (MPIJob hostfile) or CUSTOM_CLUSTER_DOMAIN (TFJob TF_CONFIG).")
@click.option("--env", "env", metavar="NAME", help="For a spec: the environment to explain (default: the base).")
@click.option("--format", "fmt", type=click.Choice(["text", "yaml"]), default="text", show_default=True,
              help="text for people (the same size for any number of workers); yaml: every object, for tools.")
def explain(source: str, gang: str | None, scheduler_name: str, cluster_file: str | None, operator_version: str,
            cluster_domain: str, env: str | None, fmt: str) -> None:
    """Show what the operator will create for SOURCE: an mpigen spec, or MPIJob, PyTorchJob or TFJob
    manifests (or -)."""
    from .emit.yaml_emit import iter_dump_all
    from .explain import explain_job, explain_training_job, for_yaml, render_text, render_training_text
    from .lint.base import Context, LintOptions
    from .operator.mpi_controller import NotCreated
    from .operator.mpi_defaults import set_defaults
    from .operator.podgroup import OperatorPanicError
    from .operator.training_controller import prepared
    from .operator.versions import format_version

    if cluster_domain and not _DOMAIN.match(cluster_domain):
        _usage(f"--cluster-domain {cluster_domain!r}: not a DNS domain")
    version = _version_option(operator_version)
    classes, diagnostics = _cluster(cluster_file)
    loaded, name = _load(source)
    diagnostics += loaded.diagnostics
    jobs = _jobs(loaded, name, version, classes, env, diagnostics)
    _report(diagnostics)
    if has_errors(diagnostics):
        raise Fail(EXIT_INVALID)

    def run(item: _Job, limit: int | None) -> Any:
        job_gang = gang if gang is not None else Context(item.job, LintOptions()).gang
        job_gang = None if job_gang == "none" else job_gang
        if item.job.get("kind") in TRAINING_KINDS:
            return job_gang, explain_training_job(item.job, job_gang, scheduler_name, classes, cluster_domain,
                                                  max_pods=limit)
        return job_gang, explain_job(item.job, job_gang, scheduler_name, classes, format_version(version),
                                     cluster_domain, max_workers=limit)

    texts, problems = [], []
    for item in jobs:  # every job's problems before any output; text shows one Pod per replica type
        training = item.job.get("kind") in TRAINING_KINDS
        try:
            job_gang, created = run(item, 1 if training or fmt == "text" else 0)
            created = list(created)
        except (NotCreated, OperatorPanicError) as exc:
            crash = isinstance(exc, OperatorPanicError)
            line, col, path = item.locate(_cause(item.job, exc))
            problems.append(Diagnostic(name, line, col, format_path(path), "operator-crash" if crash else "not-created",
                                       Severity.ERROR, f"{exc}: nothing is created"))
            continue
        if fmt == "text" and training:
            texts.append(render_training_text(prepared(item.job), created, job_gang))
        elif fmt == "text":
            texts.append(render_text(set_defaults(item.job, version), created, job_gang, format_version(version)))
    _report(problems)
    if problems:
        raise Fail(EXIT_INVALID)
    if fmt == "text":
        click.echo("\n".join(texts), nl=False)
        return
    batch: list[str] = []
    size = 0
    for item in jobs:  # YAML: streamed, every object complete
        for chunk in iter_dump_all(for_yaml(run(item, None)[1]), shared=True):
            batch.append(chunk)
            size += len(chunk)
            if size >= _CHUNK:
                click.echo("".join(batch), nl=False)
                batch.clear()
                size = 0
    click.echo("".join(batch), nl=False)


def _jobs(loaded: Any, name: str, version: tuple[int, int, int], classes: dict[str, int] | None, env: str | None,
          diagnostics: list[Diagnostic]) -> list[_Job]:
    """The jobs of a spec file (compiled) or of a manifest (as the API server stores them)."""
    from .expand.environments import origin, spec_for
    from .pipeline import Options, compile_specs, is_spec
    from .validate.engine import MPIJOB_API, checked_mpijob, checked_training_job

    jobs: list[_Job] = []
    if any(is_spec(doc.data) for doc in loaded.documents):
        result = compile_specs(loaded, name, Options(version, classes))
        diagnostics += result.diagnostics
        docs = {doc.data["metadata"]["name"]: doc for doc in loaded.documents
                if is_spec(doc.data) and isinstance(doc.data.get("metadata"), dict)
                and isinstance(doc.data["metadata"].get("name"), str)}  # else compile_specs reported it
        for compiled in result.jobs:
            if env is not None and env not in compiled.environments:
                _usage(f"--env {env}: no such environment in {compiled.name}")
            doc = docs[compiled.name]
            spec = doc.data["spec"]

            def locate(path: tuple, doc: Any = doc, spec: dict[str, Any] = spec) -> tuple[Any, Any, tuple]:
                where = _spec_path(path, spec_for(spec, env))
                where = ("spec",) + tuple(origin(where[1:], spec, env))
                line, col = doc.locate(where)
                return line, col, where

            jobs += [_Job(o, locate) for o in compiled.objects(env) if o.get("kind") in ("MPIJob", *TRAINING_KINDS)]
        return jobs
    for doc in loaded.documents:
        if not isinstance(doc.data, dict):
            continue
        kind = (doc.data.get("apiVersion"), doc.data.get("kind"))
        if kind == (MPIJOB_API, "MPIJob"):
            job, problems = checked_mpijob(doc, name, version)
        elif kind[0] == TRAINING_API and kind[1] in TRAINING_KINDS:
            job, problems = checked_training_job(doc, name)
        else:
            continue
        diagnostics += problems
        if job is not None:
            jobs.append(_Job(job, lambda path, doc=doc: (*doc.locate(path), path)))
    if not jobs and not has_errors(diagnostics):
        diagnostics.append(Diagnostic(name, None, None, "", "no-mpijob", Severity.ERROR,
                                      f"no mpigen spec and no {MPIJOB_API} MPIJob or {TRAINING_API} PyTorchJob or "
                                      "TFJob in this file"))
    return jobs


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


def _spec_path(path: tuple, spec: dict[str, Any]) -> tuple:
    """Where an mpigen spec sets what ``path`` of the MPIJob it compiles to holds."""
    scheduling = spec.get("scheduling") if isinstance(spec.get("scheduling"), dict) else {}
    launcher = ((spec.get("mpi") or {}).get("launcher") or {}) if isinstance(spec.get("mpi"), dict) else {}
    if path[-1:] == ("priorityClassName",) and path[:2] == ("spec", "mpiReplicaSpecs"):
        places = [(("spec", "priorityClassName"), spec.get("priorityClassName")),
                  (("spec", "scheduling", "priorityClass"), scheduling.get("priorityClass"))]
        if path[2] == "Launcher":
            places.insert(0, (("spec", "mpi", "launcher", "priorityClassName"), launcher.get("priorityClassName")))
        for where, value in places:
            if value:
                return where
    if path[:2] == ("spec", "mpiReplicaSpecs"):
        return ("spec", "mpi", "launcher") if path[2:3] == ("Launcher",) else ("spec", "workers")
    if path[:2] == ("spec", "runPolicy"):
        return path
    return ("spec", "scheduling", "gang") if "gang" in scheduling else ("spec",)
