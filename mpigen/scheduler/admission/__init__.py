"""Will a queue admit the job? Ports of the schedulers' admission rules, beside
:mod:`mpigen.scheduler.fit`'s question whether the gang fits the nodes.

* :mod:`.objects`: what the Volcano rules read of a cluster (Pods, Volcano Queues, PodGroups and
  the scheduler's configuration), as :mod:`mpigen.load.cluster` reads them from a cluster file.
* :mod:`.resource`: Volcano's resource arithmetic.
* :mod:`.volcano_session`, :mod:`.volcano_plugins`, :mod:`.volcano`: Volcano's enqueue decision.
* :mod:`.kueue_objects`, :mod:`.kueue_cohort`, :mod:`.kueue_flavors`, :mod:`.kueue`: Kueue's
  admission (ClusterQueues, cohorts, flavor assignment, preemption).
* :mod:`.elasticquota`: scheduler-plugins' capacity scheduling (ElasticQuota min and max).
* :mod:`.verdict`: the verdict and its diagnostic (``queue-cannot-admit``, ``queue-may-not-admit``,
  ``queue-admits``).

:func:`job_admission` is the one entry point: it picks the rules from the job and the cluster.
Pure functions on plain data.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from ..gang import job_roles
from .elasticquota import elastic_quota_verdict
from .kueue import kueue_verdict, queue_of, uses_kueue
from .verdict import Admission
from .volcano import enqueue_verdict
from .volcano_session import VolcanoCluster

VOLCANO_PODGROUP = "scheduling.volcano.sh/v1beta1"
SCHEDULER_PLUGINS_PODGROUP = "scheduling.x-k8s.io/v1alpha1"
NOT_CAPACITY = ("", "default-scheduler", "volcano", "kube-batch")  # schedulers that run no capacity scheduling


def podgroup_admission(podgroup: Mapping[str, Any], roles: Sequence[Any] | None,
                       cluster: VolcanoCluster) -> Admission | None:
    """Whether Volcano enqueues ``podgroup`` (as the operator creates it); None for other PodGroups
    or when the cluster says nothing of the queues."""
    if podgroup.get("apiVersion") == VOLCANO_PODGROUP:
        return enqueue_verdict(podgroup, roles, cluster)
    return None


def _pod_specs(objects: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    out = []
    for obj in objects:
        kind, spec = obj.get("kind"), obj.get("spec") or {}
        if kind == "Pod":
            out.append(spec)
        elif kind == "Job":
            out.append((spec.get("template") or {}).get("spec") or {})
        elif kind == "JobSet":
            out += [((r.get("template") or {}).get("spec") or {}).get("template", {}).get("spec") or {}
                    for r in spec.get("replicatedJobs") or []]
    return out


def _priority(specs: Sequence[Mapping[str, Any]], cluster: Any) -> int:
    for spec in specs:
        if spec.get("priorityClassName"):
            return cluster.priority_classes.get(spec["priorityClassName"], cluster.default_priority)
    return cluster.default_priority


def job_admission(job: Mapping[str, Any], objects: Sequence[Mapping[str, Any]], cluster: Any,
                  roles: Sequence[Any] | None = None) -> Admission | None:
    """Whether the scheduler in charge lets ``job`` (a manifest as built) in, on ``cluster`` (a
    :class:`mpigen.load.cluster.Cluster`, from a file or live); ``objects``: what the operator
    creates for it (at least one pod per role; the PodGroup if any); ``roles``: the gang's pods
    (:class:`mpigen.scheduler.fit.Role`), else every pod of ``objects``' roles
    (:func:`mpigen.scheduler.gang.job_roles`).

    * **Kueue** when the job names a LocalQueue (label ``kueue.x-k8s.io/queue-name``, or the
      namespace's LocalQueue ``default``) and the cluster holds Kueue's queues;
    * else **Volcano** for a Volcano PodGroup;
    * else **capacity scheduling** when the pods go to a scheduler other than the default one,
      Volcano or kube-batch (scheduler-plugins') in a namespace with an ElasticQuota.

    None when none applies or the cluster says nothing of it.
    """
    group = next((o for o in objects if o.get("kind") == "PodGroup"), None)
    if uses_kueue(cluster) and queue_of(job, cluster)[0]:
        return kueue_verdict(job, job_roles(job, objects), cluster)
    if group is not None and group.get("apiVersion") == VOLCANO_PODGROUP:
        return enqueue_verdict(group, roles, cluster)
    specs = _pod_specs(objects)
    schedulers = {str(s.get("schedulerName") or "") for s in specs}
    if getattr(cluster, "elastic_quotas", ()) and specs and not schedulers & set(NOT_CAPACITY):
        namespace = (job.get("metadata") or {}).get("namespace") or "default"
        return elastic_quota_verdict(namespace, roles if roles is not None else job_roles(job, objects),
                                     _priority(specs, cluster), cluster)
    return None


__all__ = ["Admission", "job_admission", "kueue_verdict", "podgroup_admission"]
