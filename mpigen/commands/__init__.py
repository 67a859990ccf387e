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
