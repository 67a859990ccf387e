"""The commands, one module each, and the options several of them share.

Each module declares its click command (arguments, options, help) and does its work: it prints
and returns the exit code; a usage or I/O error is raised as :class:`mpigen.io.UsageError`.
:mod:`mpigen.main` imports a command's module only when that command runs (or ``--help`` lists
them all), and no command imports another.
"""

from __future__ import annotations

import functools
from typing import Any, Callable

import click

from .. import io
from ..versions import DEFAULT_OPERATOR_VERSION

Decorator = Callable[[Callable[..., Any]], Callable[..., Any]]

PRIORITY_CLASSES = "PriorityClasses of the cluster (kubectl get priorityclass -o yaml)"
CLUSTER_NODES = ("PriorityClasses of the cluster, and its Nodes (with Pods bound to them, if given), for whether "
                 "the gang fits (kubectl get priorityclasses,nodes -o yaml), and Volcano Queues and PodGroups, for "
                 "whether its queue admits it (kubectl get queues,podgroups -A -o yaml)")
RUNTIMES = ("for a TrainJob, its TrainingRuntime or ClusterTrainingRuntime (kubectl get "
            "clustertrainingruntimes,trainingruntimes -A -o yaml; default: Trainer's default runtimes)")
OPERATOR_RULES = "mpi-operator release whose rules apply"


def cluster_option(help: str) -> Decorator:
    """``--cluster FILE``, or the live cluster (``--kube-context``, ``--kubeconfig``): the command
    gets one ``cluster_input`` (:class:`mpigen.io.ClusterInput`)."""

    def decorate(command: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(command)
        def with_cluster_input(*args: Any, cluster_file: str | None, kube_context: str | None,
                               kubeconfig: str | None, **kwargs: Any) -> Any:
            return command(*args, cluster_input=io.ClusterInput(cluster_file, kube_context, kubeconfig), **kwargs)

        for option in (
            click.option("--kubeconfig", "kubeconfig", type=click.Path(dir_okay=False), metavar="PATH",
                         help="Read the cluster live with this kubeconfig (default: $KUBECONFIG, else "
                              "~/.kube/config, when --kube-context is given)."),
            click.option("--kube-context", "kube_context", metavar="NAME",
                         help="Read the same objects live from the cluster of this kubeconfig context "
                              "(list only; see docs/cluster.md for the ClusterRole). Not with --cluster. "
                              "Needs the kube extra: pip install 'mpigen[kube]'."),
            click.option("--cluster", "cluster_file", type=click.Path(dir_okay=False, allow_dash=True),
                         metavar="FILE", help=help),
        ):
            with_cluster_input = option(with_cluster_input)
        return with_cluster_input

    return decorate


def operator_version_option(help: str | None = None, default: str | None = str(DEFAULT_OPERATOR_VERSION)) -> Decorator:
    return click.option("--operator-version", "operator_version", default=default,
                        show_default=default is not None, metavar="V", help=help)


GANGS = ("volcano", "scheduler-plugins", "none")
"""The operator's --gang-scheduling as ``--gang`` names it (``none``: off, as a spec's ``gang: kueue``
or ``gang: kube-batch`` expects: those gangs are not the operator's)."""


def gang_option(help: str, none: bool = True, required: bool = False) -> Decorator:
    choices = list(GANGS) if none else [g for g in GANGS if g != "none"]
    if none:
        help += " none: the operator runs without one, as specs with gang kueue or kube-batch expect."
    return click.option("--gang", type=click.Choice(choices), required=required, help=help)


DEFAULT_SCHEDULER_NAME = "scheduler-plugins-scheduler"


def scheduler_name_option(default: str | None = DEFAULT_SCHEDULER_NAME,
                          help: str = "scheduler-plugins scheduler name.") -> Decorator:
    return click.option("--scheduler-name", default=default, show_default=default is not None, metavar="N",
                        help=help)


def env_option(help: str) -> Decorator:
    return click.option("--env", "env", metavar="NAME", help=help)


def format_option(*choices: str, help: str | None = None) -> Decorator:
    """``--format``, the first of ``choices`` by default."""
    return click.option("--format", "fmt", type=click.Choice(list(choices)), default=choices[0], show_default=True,
                        help=help)


CONFIG_DEFAULT = "Configuration file (default: the nearest .mpigen.yaml or pyproject.toml [tool.mpigen])"


def config_option(help: str, exists: bool = False) -> Decorator:
    return click.option("--config", "config_file", type=click.Path(dir_okay=False, exists=exists), metavar="FILE",
                        help=help)


def gang_location(locate: Callable[[tuple], tuple[Any, Any, tuple]]) -> tuple[Any, Any, tuple]:
    """Where a job's gang verdict (``gang-cannot-fit``) is reported: for a job compiled from a spec,
    the spec field that sets the gang's size or kind (``scheduling.minAvailable``, else
    ``scheduling.gang``); for a manifest, the job itself. ``locate`` is the job's
    (:class:`mpigen.validate.Job`)."""
    line, col, shown = locate(("spec", "runPolicy", "schedulingPolicy", "minAvailable"))
    if tuple(shown[:2]) == ("spec", "scheduling"):
        return line, col, shown
    return locate(())


def queue_location(job: Any) -> tuple[Any, Any, tuple]:
    """Where a job's admission verdict (``queue-cannot-admit``) is reported: the queue it names
    (``scheduling.queue`` of a spec, ``schedulingPolicy.queue`` of a manifest), else where the gang
    verdict is. ``job`` is a :class:`mpigen.validate.Job`."""
    policy = ((job.obj.get("spec") or {}).get("runPolicy") or {}).get("schedulingPolicy") or {}
    if policy.get("queue"):
        return job.locate(("spec", "runPolicy", "schedulingPolicy", "queue"))
    return gang_location(job.locate)


def admission(group: Any, roles: Any, cluster: Any, filename: str,
              where: tuple[Any, Any, tuple]) -> tuple[Any, list[Any]]:
    """Whether the queue of ``group`` (the PodGroup the operator creates, ``roles`` its gang's
    pods) admits it, on the ``--cluster`` file: (the verdict, its diagnostic at ``where``), or
    (None, []) when the file holds no queues or the PodGroup has none."""
    from ..diagnostics import format_path
    from ..scheduler.admission import podgroup_admission

    if cluster is None or group is None:
        return None, []
    verdict = podgroup_admission(group, roles, cluster)
    if verdict is None:
        return None, []
    line, col, shown = where
    return verdict, [verdict.diagnostic(filename, line, col, format_path(shown))]


def trainjob_fit(item: Any, cluster: Any) -> tuple[Any, Any, list[Any]]:
    """A TrainJob's gang against the cluster's Nodes (``--cluster`` with Nodes) and its queue:
    (the fit verdict, the admission verdict, their diagnostics at ``spec.trainer.numNodes``:
    ``gang-cannot-fit`` / ``gang-may-not-fit``, ``queue-*``); None for a verdict the file says
    nothing of. ``item`` is an explained TrainJob (:class:`mpigen.trainer.documents.Explained`)."""
    from ..diagnostics import format_path
    from ..scheduler.fit import gang_fit
    from ..scheduler.gang import trainjob_gang

    if cluster is None:
        return None, None, []
    found = trainjob_gang(item.built.objects)
    if found is None:
        return None, None, []
    where = item.job.place(("spec", "trainer", "numNodes"))
    verdict, diagnostics = None, []
    if cluster.nodes:
        verdict = gang_fit(found.roles, found.min_member, cluster.nodes, cluster.bound_pods, cluster.origin)
        line, col, shown = where
        diagnostics += [d for d in [verdict.diagnostic(item.job.filename, line, col, format_path(shown))] if d]
    group = next((o for o in item.built.objects if o.get("kind") == "PodGroup"), None)
    admitted, found_diagnostics = admission(group, found.roles, cluster, item.job.filename, where)
    return verdict, admitted, diagnostics + found_diagnostics


def read_configured_jobs(source: str, gang: str | None, scheduler_name: str | None, cluster_input: io.ClusterInput,
                         operator_version: str | None, env: str | None, config_file: str | None
                         ) -> tuple[Any, str | None, str, Any]:
    """explain's and podgroup's input, read with the configuration as validate reads it: the
    options given, else the configuration's gang, schedulerName, operatorVersion and cluster, and
    its disable and apply (so that their verdict on a job is validate's). Returns (the jobs read
    (:func:`mpigen.io.read_jobs`), the gang, the scheduler name, the operator version)."""
    config = io.load_config(config_file)
    version, cluster_input = io.configured(config, operator_version, cluster_input)
    gang = gang or config.gang
    scheduler_name = scheduler_name or config.scheduler_name or DEFAULT_SCHEDULER_NAME
    return (io.read_jobs(source, gang, scheduler_name, cluster_input, version, env, config.disable,
                         config.server_side), gang, scheduler_name, version)
