"""``mpigen diagnose KIND/NAME -n NAMESPACE``: why a submitted job is Pending, Suspended or Failed,
read from the live cluster (:mod:`mpigen.diagnose`).

The first line is the answer in plain words (``Pending: queue research cannot admit the gang:
...``, ``Running: 5 of 5 pods``, ``Succeeded``, ``Failed: ...``, ``Suspended: Kueue has not
admitted Workload ...``); then the causes (diagnostics of the catalogue, at the object they come
from), the evidence, and what the user may not read. ``--format json`` gives the same as one
object with the job's ``phase`` and its ``causes`` (``{code, message}``).

Exit 0 for a job running or finished, 1 for one held (Pending, Suspended) or failed, 2 for usage,
a cluster that cannot be reached, or a job that does not exist.
"""

from __future__ import annotations

import os

import click

from .. import io
from ..diagnostics import EXIT_INVALID, EXIT_OK
from . import format_option, gang_option, operator_version_option


@click.command()
@click.argument("target", metavar="KIND/NAME")
@click.option("-n", "--namespace", metavar="NAMESPACE",
              help="The job's namespace (default: the context's, else default).")
@click.option("--kube-context", "kube_context", metavar="NAME",
              help="The kubeconfig context of the cluster (default: the current context).")
@click.option("--kubeconfig", "kubeconfig", type=click.Path(dir_okay=False), metavar="PATH",
              help="The kubeconfig (default: $KUBECONFIG, else ~/.kube/config).")
@gang_option("The operator's --gang-scheduling (default: the PodGroup the cluster holds for the job, else what "
             "its pod templates say).")
@operator_version_option("mpi-operator release whose rules apply to an MPIJob.")
@format_option("text", "json", help="text for people; json: {phase, causes: [{code, message}], ...}, for tools.")
def diagnose(target: str, namespace: str | None, kube_context: str | None, kubeconfig: str | None,
             gang: str | None, operator_version: str, fmt: str) -> int:
    """Say why the job KIND/NAME (mpijob/bert, pytorchjob/x, tfjob/x, trainjob/x) is where it is, from the
    live cluster: what the operator created, its PodGroup or Workload, its queue, its pods' scheduling."""
    from ..diagnose.gather import WANTED, DiagnoseError, gather
    from ..diagnose.judge import HELD, judge
    from ..diagnose.report import json_report, text_report
    from ..diagnose.target import parse_target
    from ..kube import KubeError
    from ..kube.live import open_live

    try:
        kind, name = parse_target(target)
    except ValueError as exc:
        raise io.UsageError(str(exc)) from None
    version = io.operator_version(operator_version)
    try:
        with open_live(kubeconfig, kube_context, os.environ, WANTED + (kind.resource,)) as live:
            where = namespace or live.namespace or "default"
            seen = gather(live, kind, where, name, gang, version)
    except (KubeError, DiagnoseError) as exc:
        raise io.UsageError(str(exc)) from None
    diagnosis = judge(seen, version)
    unread = [d.message for d in seen.diagnostics if d.code == "cluster-forbidden"] + [str(r) for r in seen.unread]
    io.report([d for d in seen.diagnostics if d.code != "cluster-forbidden"], notes=False)
    if fmt == "json":
        click.echo(json_report(diagnosis, unread, kind.kind, name, where, seen.context), nl=False)
    else:
        click.echo(text_report(diagnosis, unread), nl=False)
    return EXIT_INVALID if diagnosis.phase in HELD else EXIT_OK
