"""``mpigen argocd``: Argo CD's settings for the training jobs, as the argocd-cm ConfigMap
(:mod:`mpigen.gitops.argocd`): a Lua health check for MPIJob, PyTorchJob, TFJob, TrainJob, JobSet
and the Volcano and scheduler-plugins PodGroups, and the ignoreDifferences of the fields
controllers change after apply."""

from __future__ import annotations

import click

from ..diagnostics import EXIT_OK


@click.command()
@click.option("-n", "--namespace", default="argocd", show_default=True, metavar="NAMESPACE",
              help="The namespace of Argo CD's argocd-cm.")
def argocd(namespace: str) -> int:
    """Print Argo CD's argocd-cm settings for the training jobs and their PodGroups.

    Health checks (resource.customizations.health.*): Progressing while a job waits for its pods
    (pending, held by a gang scheduler, queued in Kueue), Healthy when it runs or succeeded,
    Degraded when it failed, Suspended when it is suspended. ignoreDifferences
    (resource.customizations.ignoreDifferences.*): the fields a controller, webhook or the API
    server writes after Argo CD applied the job. Merge it into the live ConfigMap:

        mpigen argocd > argocd-cm.yaml
        kubectl -n argocd patch configmap argocd-cm --type merge --patch-file argocd-cm.yaml
    """
    from ..emit.yaml_emit import dump
    from ..gitops.argocd import configmap

    click.echo(dump(configmap(namespace)), nl=False)
    return EXIT_OK
