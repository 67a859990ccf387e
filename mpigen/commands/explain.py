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
(``gang-may-not-fit``). With Volcano Queues, Kueue's queues or ElasticQuotas in the cluster read,
whether the job's queue admits it (:mod:`mpigen.scheduler.admission`: Volcano's enqueue for its
PodGroup, Kueue's admission of its Workload, capacity scheduling's ElasticQuota) is said beside
it: ``queue-cannot-admit`` (an error, at the queue the job names), ``queue-may-not-admit`` (a
warning), else a note (``queue-admits``) of the queue's share or the flavors Kueue assigns. The
output is printed either way, since the operator creates those objects all the same; an error makes
the exit code 1.
"""

from __future__ import annotations

import click

from .. import io
from ..diagnostics import EXIT_INVALID, EXIT_OK, has_errors
from . import (CLUSTER_NODES, CONFIG_DEFAULT, RUNTIMES, cluster_option, config_option, env_option, format_option,
               gang_option, operator_version_option, scheduler_name_option)

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
    from ..api import explain as explain_source

    config = io.load_config(config_file)
    version, cluster_input = io.configured(config, operator_version, cluster_input)
    cluster, diagnostics = io.load_cluster(cluster_input)
    result = explain_source(io.api_input(source), env=env,
                            gang=gang or config.gang, scheduler_name=scheduler_name or config.scheduler_name,
                            cluster=cluster, operator_version=version, cluster_domain=cluster_domain,
                            disable=config.disable, server_side=config.server_side)
    io.report(diagnostics + result.input_diagnostics)
    if has_errors(diagnostics + result.input_diagnostics):
        return EXIT_INVALID
    io.report(result.operator_diagnostics)
    if not result.jobs:
        return EXIT_INVALID
    done = EXIT_OK if result.ok else EXIT_INVALID  # the objects are created all the same
    if fmt == "text":
        click.echo(result.text, nl=False)
        return done
    batch: list[str] = []
    size = 0
    for chunk in result.yaml_chunks():  # streamed, every object complete
        batch.append(chunk)
        size += len(chunk)
        if size >= _CHUNK:
            click.echo("".join(batch), nl=False)
            batch.clear()
            size = 0
    click.echo("".join(batch), nl=False)
    return done
