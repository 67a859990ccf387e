"""The verdicts of the cluster on a job's gang, shared by ``mpigen explain`` and ``mpigen podgroup``
(and :func:`mpigen.explain`): whether the gang fits the cluster's Nodes and whether its queue
(Volcano's, Kueue's, the namespace's ElasticQuota) admits it, each placed where the job sets what
it judges."""

from __future__ import annotations

from typing import Any, Callable


def gang_location(locate: Callable[[tuple], tuple[Any, Any, tuple]]) -> tuple[Any, Any, tuple]:
    """Where a job's gang verdict (``gang-cannot-fit``) is reported: for a job compiled from a spec,
    the spec field that sets the gang's size or kind (``scheduling.minAvailable``, else
    ``scheduling.gang``); for a manifest, the job itself. ``locate`` is the job's
    (:class:`mpigen.validation.Job`)."""
    line, col, shown = locate(("spec", "runPolicy", "schedulingPolicy", "minAvailable"))
    if tuple(shown[:2]) == ("spec", "scheduling"):
        return line, col, shown
    return locate(())


KUEUE_QUEUE_LABEL = "kueue.x-k8s.io/queue-name"


def queue_location(job: Any) -> tuple[Any, Any, tuple]:
    """Where a job's admission verdict (``queue-cannot-admit``) is reported: the queue it names
    (``scheduling.queue`` of a spec; the label ``kueue.x-k8s.io/queue-name`` or
    ``schedulingPolicy.queue`` of a manifest), else where the gang verdict is. ``job`` is a
    :class:`mpigen.validation.Job`."""
    labels = (job.obj.get("metadata") or {}).get("labels") or {}
    if labels.get(KUEUE_QUEUE_LABEL):
        return job.locate(("metadata", "labels", KUEUE_QUEUE_LABEL))
    policy = ((job.obj.get("spec") or {}).get("runPolicy") or {}).get("schedulingPolicy") or {}
    if policy.get("queue"):
        return job.locate(("spec", "runPolicy", "schedulingPolicy", "queue"))
    return gang_location(job.locate)


def queues_known(cluster: Any) -> bool:
    """Whether the cluster read holds any queue or quota an admission verdict reads (Volcano's
    Queues, Kueue's LocalQueues or ClusterQueues, ElasticQuotas)."""
    return cluster is not None and bool(cluster.queues or cluster.local_queues or cluster.cluster_queues
                                        or cluster.elastic_quotas)


def admission(job: Any, objects: Any, roles: Any, cluster: Any, filename: str,
              where: tuple[Any, Any, tuple]) -> tuple[Any, list[Any]]:
    """Whether the queue in charge of ``job`` admits it (Volcano's for its PodGroup, Kueue's
    LocalQueue, the namespace's ElasticQuota: :func:`mpigen.scheduler.admission.job_admission`), on
    the cluster read (``--cluster`` or live): (the verdict, its diagnostic at ``where``), or (None,
    []) when the cluster says nothing of its queue. ``objects``: what the operator creates (one pod
    per role); ``roles``: the gang's pods, if it has a PodGroup."""
    from ..diagnostics import format_path
    from ..scheduler.admission import job_admission

    if cluster is None:
        return None, []
    verdict = job_admission(job, list(objects), cluster, roles)
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
    where = item.job.place(("spec", "trainer", "numNodes"))
    if found is None:  # no PodGroup: Kueue's verdict, or the ElasticQuota's, at the queue label if any
        labels = item.built.trainjob["metadata"].get("labels") or {}
        queue_at = item.job.place(("metadata", "labels", KUEUE_QUEUE_LABEL)) if labels.get(KUEUE_QUEUE_LABEL) \
            else where
        admitted, found_diagnostics = admission(item.built.trainjob, item.built.objects, None, cluster,
                                                item.job.filename, queue_at)
        return None, admitted, found_diagnostics
    verdict, diagnostics = None, []
    if cluster.nodes:
        verdict = gang_fit(found.roles, found.min_member, cluster.nodes, cluster.bound_pods, cluster.origin)
        line, col, shown = where
        diagnostics += [d for d in [verdict.diagnostic(item.job.filename, line, col, format_path(shown))] if d]
    admitted, found_diagnostics = admission(item.built.trainjob, item.built.objects, found.roles, cluster,
                                            item.job.filename, where)
    return verdict, admitted, diagnostics + found_diagnostics
