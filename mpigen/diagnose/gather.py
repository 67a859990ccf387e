"""What ``mpigen diagnose`` reads of the live cluster (through :mod:`mpigen.kube`, get and list only):

* the job (``get``); it must exist;
* the whole cluster as ``--kube-context`` reads it (Nodes, Pods, PriorityClasses, runtimes,
  Volcano's Queues, PodGroups and configuration...), for the gang and queue verdicts;
* in the job's namespace: its Pods (``list`` by the operator's label), the objects the operator
  creates for it by name (Services, the launcher Job, the PodGroup of either gang scheduler, a
  TrainJob's JobSet), the Kueue Workload it owns and the Events;
* its queue: the Volcano Queue, or Kueue's LocalQueue and ClusterQueue, and scheduler-plugins'
  ElasticQuotas of the namespace.

A request the user may not make is kept (:attr:`Observed.unread`) and the rest is read; only the
job itself is needed (:class:`DiagnoseError` without it).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, TypeVar

from ..diagnostics import Diagnostic
from ..kube.live import Live, Refused
from ..kube.resources import Resource
from ..load.cluster import Cluster
from ..operator.mpi_controller import JOB_NAME_LABEL  # the operators' label on a job's pods (training-operator's too)
from ..operator.podgroup import SCHEDULER_PLUGINS_API_VERSION, VOLCANO_API_VERSION, VOLCANO_QUEUE_ANNOTATION
from ..render.gang import KUEUE_QUEUE_LABEL as QUEUE_NAME_LABEL
from ..versions import DEFAULT_OPERATOR_VERSION, OperatorVersion
from .expected import GANGS, expected, gang_of_job
from .target import JobKind

PODS = Resource("", "pods", "Pod")
SERVICES = Resource("", "services", "Service")
EVENTS = Resource("", "events", "Event")
BATCH_JOBS = Resource("batch", "jobs", "Job")
VOLCANO_PODGROUPS = Resource("scheduling.volcano.sh", "podgroups", "PodGroup")
PLUGINS_PODGROUPS = Resource("scheduling.x-k8s.io", "podgroups", "PodGroup")
VOLCANO_QUEUES = Resource("scheduling.volcano.sh", "queues", "Queue")
JOBSETS = Resource("jobset.x-k8s.io", "jobsets", "JobSet")
WORKLOADS = Resource("kueue.x-k8s.io", "workloads", "Workload")
LOCAL_QUEUES = Resource("kueue.x-k8s.io", "localqueues", "LocalQueue")
CLUSTER_QUEUES = Resource("kueue.x-k8s.io", "clusterqueues", "ClusterQueue")
ELASTIC_QUOTAS = Resource("scheduling.x-k8s.io", "elasticquotas", "ElasticQuota")
WANTED = (PODS, SERVICES, EVENTS, BATCH_JOBS, VOLCANO_PODGROUPS, PLUGINS_PODGROUPS, VOLCANO_QUEUES, JOBSETS,
          WORKLOADS, LOCAL_QUEUES, CLUSTER_QUEUES, ELASTIC_QUOTAS)
"""Besides the job's own resource and what ``--kube-context`` lists."""

BY_KIND = {("v1", "Service"): SERVICES, ("batch/v1", "Job"): BATCH_JOBS,
           (VOLCANO_API_VERSION, "PodGroup"): VOLCANO_PODGROUPS,
           (SCHEDULER_PLUGINS_API_VERSION, "PodGroup"): PLUGINS_PODGROUPS,
           ("jobset.x-k8s.io/v1alpha2", "JobSet"): JOBSETS}
"""The objects an operator creates that diagnose reads back by name (not the ConfigMaps, nor the
Secrets, which a reader of jobs need not be allowed to see)."""

JOBSET_NAME_LABEL = "jobset.sigs.k8s.io/jobset-name"  # JobSet's label on a TrainJob's pods


class DiagnoseError(Exception):
    """The job cannot be read: it does not exist, the cluster does not serve its kind, or the user
    may not get it."""


@dataclass
class Observed:
    """What the cluster holds of one job. ``created``: the objects the operator creates, read back
    by (kind, name), None when it does not exist (a key is missing when it could not be read)."""

    kind: JobKind
    namespace: str
    name: str
    context: str
    job: dict[str, Any]
    cluster: Cluster | None = None
    pods: list[dict[str, Any]] | None = None  # None: not read
    created: dict[tuple[str, str], dict[str, Any] | None] = field(default_factory=dict)
    podgroups: list[dict[str, Any]] = field(default_factory=list)  # the job's PodGroups, of either gang scheduler
    workload: dict[str, Any] | None = None
    queue: dict[str, Any] | None = None  # the Volcano Queue of the PodGroup
    local_queue: dict[str, Any] | None = None
    cluster_queue: dict[str, Any] | None = None
    elastic_quotas: list[dict[str, Any]] = field(default_factory=list)
    events: list[dict[str, Any]] | None = None  # None: not read
    unread: list[Refused] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)  # what reading the cluster said
    gang_option: str | None = None  # --gang


T = TypeVar("T")


def _meta(obj: dict[str, Any] | None) -> dict[str, Any]:
    meta = (obj or {}).get("metadata")
    return meta if isinstance(meta, dict) else {}


def _owned_by(obj: dict[str, Any], job: dict[str, Any]) -> bool:
    uid = _meta(job).get("uid")
    for owner in _meta(obj).get("ownerReferences") or []:
        if not isinstance(owner, dict):
            continue
        if uid and owner.get("uid") == uid:
            return True
        if not uid and owner.get("kind") == job.get("kind") and owner.get("name") == _meta(job).get("name"):
            return True
    return False


def gather(live: Live, kind: JobKind, namespace: str, name: str, gang_option: str | None = None,
           version: OperatorVersion = DEFAULT_OPERATOR_VERSION) -> Observed:
    """Everything :mod:`.judge` reads of the job ``name`` of ``kind`` in ``namespace`` (the objects
    the operator creates, at ``version`` for an MPIJob, read back by name)."""
    if not live.serves(kind.resource):
        raise DiagnoseError(f"the cluster of context {live.context} does not serve {kind.plural}.{kind.group}: "
                            f"no {kind.kind} can exist there")
    try:
        job = live.get(kind.resource, namespace, name)
    except Refused as exc:
        raise DiagnoseError(f"cannot read the job: {exc}") from None
    if job is None:
        raise DiagnoseError(f"{kind.plural}.{kind.group} {name!r} not found in namespace {namespace} "
                            f"(context {live.context})")
    if job.get("apiVersion") != kind.api_version:
        raise DiagnoseError(f"the cluster of context {live.context} serves {kind.plural}.{kind.group} as "
                            f"{job.get('apiVersion')}: mpigen's rules are for {kind.api_version}")
    seen = Observed(kind, namespace, name, live.context, job, gang_option=gang_option)

    def attempt(read: Callable[[], T], otherwise: T) -> T:
        try:
            return read()
        except Refused as exc:
            seen.unread.append(exc)
            return otherwise

    seen.cluster, seen.diagnostics = live.cluster()
    for resource in (VOLCANO_PODGROUPS, PLUGINS_PODGROUPS):
        group = attempt(lambda: live.get(resource, namespace, name), None)
        if group is not None:
            seen.podgroups.append(group)
    plan = expected(job, gang_of_job(job, seen.podgroups, gang_option), seen.cluster, version)
    label = JOBSET_NAME_LABEL if kind.kind == "TrainJob" else JOB_NAME_LABEL
    seen.pods = attempt(lambda: live.list(PODS, namespace, f"{label}={name}"), None)
    for obj in plan.objects:
        resource = BY_KIND.get((obj.get("apiVersion"), obj.get("kind")))
        key = (str(obj.get("kind")), str(_meta(obj).get("name")))
        if resource is None or key in seen.created:
            continue
        if resource.kind == "PodGroup" and key[1] == name:
            found = next((g for g in seen.podgroups if g.get("apiVersion") == obj.get("apiVersion")), None)
            if not any(r.verb == "get" and r.resource == resource.qualified for r in seen.unread):
                seen.created[key] = found
            continue
        try:
            seen.created[key] = live.get(resource, namespace, key[1])
        except Refused as exc:
            seen.unread.append(exc)
    _queues(live, seen, plan.podgroup, attempt)
    seen.events = attempt(lambda: live.list(EVENTS, namespace), None)
    return seen


def _queues(live: Live, seen: Observed, planned: dict[str, Any] | None, attempt: Callable[..., Any]) -> None:
    """The job's queue: Kueue's Workload, LocalQueue and ClusterQueue; the Volcano Queue of its
    PodGroup; the namespace's ElasticQuotas under scheduler-plugins."""
    namespace = seen.namespace
    workloads = attempt(lambda: live.list(WORKLOADS, namespace), [])
    seen.workload = next((w for w in workloads if _owned_by(w, seen.job)), None)
    local = ((seen.workload or {}).get("spec") or {}).get("queueName") or \
        (_meta(seen.job).get("labels") or {}).get(QUEUE_NAME_LABEL)
    if local:
        seen.local_queue = attempt(lambda: live.get(LOCAL_QUEUES, namespace, local), None)
    admission = ((seen.workload or {}).get("status") or {}).get("admission") or {}
    cluster_queue = admission.get("clusterQueue") or ((seen.local_queue or {}).get("spec") or {}).get("clusterQueue")
    if cluster_queue:
        seen.cluster_queue = attempt(lambda: live.get(CLUSTER_QUEUES, "", cluster_queue), None)
    group = next((g for g in seen.podgroups if GANGS.get(g.get("apiVersion")) == "volcano"), None)
    if group is None and planned is not None and GANGS.get(planned.get("apiVersion")) == "volcano":
        group = planned
    if group is not None:
        queue = (group.get("spec") or {}).get("queue") or "default"
        if queue == "default" and seen.cluster is not None:  # the namespace's queue (Volcano's PodGroup webhook)
            queue = (seen.cluster.namespace_annotations.get(namespace) or {}).get(VOLCANO_QUEUE_ANNOTATION) or queue
        seen.queue = attempt(lambda: live.get(VOLCANO_QUEUES, "", queue), None)
    if any(GANGS.get(g.get("apiVersion")) == "scheduler-plugins" for g in seen.podgroups) or \
            (planned is not None and GANGS.get(planned.get("apiVersion")) == "scheduler-plugins"):
        seen.elastic_quotas = attempt(lambda: live.list(ELASTIC_QUOTAS, namespace), [])
