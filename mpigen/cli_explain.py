"""``mpigen explain``: the click layer over :mod:`mpigen.explain`."""

from __future__ import annotations

from typing import Any

import click

from .cli import Fail, _cluster, _load, _report, _usage, _version_option
from .diagnostics import EXIT_INVALID, Diagnostic, Severity, has_errors


@click.command()
@click.argument("source", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--gang", type=click.Choice(["volcano", "scheduler-plugins", "none"]),
              help="The operator's --gang-scheduling (default: what the manifest's pod templates say).")
@click.option("--scheduler-name", default="scheduler-plugins-scheduler", show_default=True, metavar="N",
              help="scheduler-plugins scheduler name.")
@click.option("--cluster", "cluster_file", type=click.Path(dir_okay=False, allow_dash=True), metavar="FILE",
              help="PriorityClasses of the cluster (kubectl get priorityclass -o yaml).")
@click.option("--operator-version", default="v0.8.0", show_default=True, metavar="V")
@click.option("--cluster-domain", default="", metavar="D", help="The operator's --cluster-domain (hostfile names).")
@click.option("--env", "env", metavar="NAME", help="For a spec: the environment to explain (default: the base).")
@click.option("--format", "fmt", type=click.Choice(["text", "yaml"]), default="text", show_default=True,
              help="text for people; yaml: every object, for tools.")
def explain(source: str, gang: str | None, scheduler_name: str, cluster_file: str | None, operator_version: str,
            cluster_domain: str, env: str | None, fmt: str) -> None:
    """Show what the operator will create for SOURCE: an mpigen spec or an MPIJob manifest (or -)."""
    from .emit.yaml_emit import dump_all
    from .explain import explain_job, render_text
    from .lint.base import Context, LintOptions
    from .operator.mpi_controller import NotCreated
    from .operator.mpi_defaults import set_defaults
    from .operator.podgroup import OperatorPanicError
    from .operator.versions import format_version
    from .pipeline import Options, compile_specs, is_spec
    from .validate.engine import MPIJOB_API

    version = _version_option(operator_version)
    classes, diagnostics = _cluster(cluster_file)
    loaded, name = _load(source)
    diagnostics += loaded.diagnostics
    jobs = []
    sources: dict[int, Any] = {}  # id(job) -> the document it came from (for positions)
    if any(is_spec(doc.data) for doc in loaded.documents):
        result = compile_specs(loaded, name, Options(version, classes))
        diagnostics += result.diagnostics
        for job in result.jobs:
            if env is not None and env not in job.environments:
                _usage(f"--env {env}: no such environment in {job.name}")
            jobs += [o for o in job.objects(env) if o.get("kind") == "MPIJob"]
    else:
        from .validate.engine import checked_mpijob

        for doc in loaded.documents:
            if isinstance(doc.data, dict) and doc.data.get("apiVersion") == MPIJOB_API and doc.data.get("kind") == "MPIJob":
                job, problems = checked_mpijob(doc, name, version)
                diagnostics += problems
                if job is not None:
                    jobs.append(job)
                    sources[id(job)] = doc
        if not jobs and not has_errors(diagnostics):
            diagnostics.append(Diagnostic(name, None, None, "", "no-mpijob", Severity.ERROR,
                                          f"no mpigen spec and no {MPIJOB_API} MPIJob in this file"))
    _report(diagnostics)
    if has_errors(diagnostics):
        raise Fail(EXIT_INVALID)
    texts, objects = [], []
    for job in jobs:
        job_gang = gang if gang is not None else Context(job, LintOptions()).gang
        job_gang = None if job_gang == "none" else job_gang
        source_doc = sources.get(id(job))
        try:
            # Text shows one worker Pod (they differ only by index); YAML lists every one.
            created = explain_job(job, job_gang, scheduler_name, classes, format_version(version), cluster_domain,
                                  max_workers=None if fmt == "yaml" else 1)
        except (NotCreated, OperatorPanicError) as exc:
            crash = isinstance(exc, OperatorPanicError)
            path = ("spec", "runPolicy", "managedBy") if "managedBy" in str(exc) else ("spec",)
            line, col = source_doc.locate(path) if source_doc is not None else (None, None)
            _report([Diagnostic(name, line, col, ".".join(path), "operator-crash" if crash else "not-created",
                                Severity.ERROR, f"{exc}: nothing is created")])
            raise Fail(EXIT_INVALID)
        objects += created
        texts.append(render_text(set_defaults(job, version), created, job_gang, format_version(version)))
    click.echo(dump_all(objects) if fmt == "yaml" else "\n".join(texts), nl=False)
