"""The verdicts of the cluster on a job's gang, shared by ``mpigen explain`` and ``mpigen podgroup``
(and :func:`mpigen.explain`): whether the gang fits the ``--cluster`` file's Nodes and whether its
Volcano queue admits it, each placed where the job sets what it judges."""

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


def queue_location(job: Any) -> tuple[Any, Any, tuple]:
    """Where a job's admission verdict (``queue-cannot-admit``) is reported: the queue it names
    (``scheduling.queue`` of a spec, ``schedulingPolicy.queue`` of a manifest), else where the gang
    verdict is. ``job`` is a :class:`mpigen.validation.Job`."""
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
