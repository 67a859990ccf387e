"""What Volcano's scheduler knows when it opens a session, ported from Volcano v1.15.1: the jobs
(PodGroups with their tasks), the queues and the cluster's resources.

* ``pkg/scheduler/cache/cache.go`` ``Snapshot``: a job is a PodGroup with the Pods that name it
  (annotation ``scheduling.k8s.io/group-name``); a job whose queue does not exist is left out; the
  scheduler creates the ``root`` and ``default`` queues when they are missing
  (``newDefaultAndRootQueue``); a job's priority is its PriorityClass's value, else the
  globalDefault class's, else 0.
* ``pkg/scheduler/framework/session.go`` ``openSession``: the total is the sum of every node's
  allocatable.
* ``pkg/scheduler/api/helpers.go`` ``getTaskStatus`` and ``AllocatedStatus``: a Pod bound to a node
  (Bound, Running) holds its requests; a Running or Pending Pod being deleted is Releasing and
  holds nothing in its job; an unbound Pending Pod is Pending.
* ``pkg/scheduler/api/job_info.go``: ``GetElasticResources`` (what a job holds beyond its
  minResources), ``DeductSchGatedResources`` (scheduling-gated Pods do not count), and
  ``pkg/scheduler/plugins/util/util.go`` ``GetInqueueResource`` (what an Inqueue or Running job
  still reserves: its minResources less what it holds).

When the cluster file holds PodGroups but no Pods, what a job holds is not known: a Running
PodGroup whose ``status.running`` reaches its minMember is taken to hold its minResources (what
the queue rules count for it in any case, see :class:`Job`), and the others nothing, so that a
refusal computed from it stays a proof.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Protocol, Sequence

from ...operator.quantity import Quantity
from ..nodes import Node
from .objects import DEFAULT_QUEUE, ROOT_QUEUE, ClusterPod, VolcanoConf, VolcanoPodGroup, VolcanoQueue
from .resource import CPU, MEMORY, PODS, Resource, exceeded_part, is_scalar_resource_name

INQUEUE, RUNNING, PENDING = "Inqueue", "Running", "Pending"
LATEST = "~"  # the creation time of the job being judged: after every timestamp (it is created now)


class VolcanoCluster(Protocol):
    """What the Volcano rules read of a cluster (:class:`mpigen.load.cluster.Cluster` is one)."""

    nodes: Sequence[Node]
    pods: Sequence[ClusterPod]
    queues: Sequence[VolcanoQueue]
    podgroups: Sequence[VolcanoPodGroup]
    priority_classes: Mapping[str, int]
    default_priority: int
    namespace_annotations: Mapping[str, Mapping[str, str]]
    volcano_conf: VolcanoConf | None


@dataclass
class Job:
    """``api.JobInfo``: a PodGroup and what its Pods hold."""

    key: str  # namespace/name
    queue: str
    phase: str
    min_member: int
    min_resources: Mapping[str, Quantity] | None
    priority: int
    created: str
    allocated: Resource = field(default_factory=Resource)  # requests of its tasks in an allocated status
    allocated_count: int = 0
    pending: Resource = field(default_factory=Resource)  # requests of its Pending tasks
    gated: Resource = field(default_factory=Resource)  # requests of its scheduling-gated Pending tasks
    candidate: bool = False  # the job being judged

    @property
    def min_req(self) -> Resource:
        """``GetMinResources``."""
        return Resource.of(self.min_resources)

    @property
    def request(self) -> Resource:
        return self.allocated.clone().add(self.pending)

    @property
    def elastic(self) -> Resource:
        """``GetElasticResources``."""
        return exceeded_part(self.allocated, self.min_req)

    def deduct_gated(self, res: Resource) -> Resource:
        """``DeductSchGatedResources``."""
        if self.gated.is_empty():
            return res
        out = res.clone()
        out.milli_cpu = max(out.milli_cpu - self.gated.milli_cpu, 0.0)
        out.memory = max(out.memory - self.gated.memory, 0.0)
        for name, value in (res.scalars or {}).items():
            if name in (self.gated.scalars or {}):
                out.scalars[name] = max(value - self.gated.scalars[name], 0.0)  # type: ignore[index]
        return out

    def inqueue_resource(self) -> Resource:
        """``GetInqueueResource(job, job.Allocated)``: what the job reserves beyond what it holds."""
        minimum, held = self.min_req, self.allocated
        out = Resource()
        for name in self.min_resources or {}:
            if name == CPU:
                out.milli_cpu = max(minimum.milli_cpu - held.milli_cpu, 0.0)
            elif name == MEMORY:
                out.memory = max(minimum.memory - held.memory, 0.0)
            elif name == PODS or (not name.startswith("count/") and is_scalar_resource_name(name)):
                reserved = (minimum.scalars or {}).get(name, 0.0)
                if name not in (held.scalars or {}):
                    out.add_scalar(name, reserved)
                elif reserved - held.scalars[name] > 0:  # type: ignore[index]
                    out.add_scalar(name, reserved - held.scalars[name])  # type: ignore[index]
        return out


@dataclass
class Session:
    """The snapshot a scheduling session opens on."""

    queues: dict[str, VolcanoQueue]
    jobs: list[Job]  # the candidate last
    total: Resource  # every node's allocatable
    used: Resource  # what the Pods on the nodes request
    nodes: int
    pods_known: bool  # whether the cluster file holds Pods

    @property
    def candidate(self) -> Job:
        return self.jobs[-1]


def priority_of(cluster: VolcanoCluster, class_name: str) -> int:
    """The job's priority as the cache's Snapshot gives it."""
    return cluster.priority_classes.get(class_name, cluster.default_priority) if class_name \
        else cluster.default_priority


def queues_of(cluster: VolcanoCluster) -> dict[str, VolcanoQueue]:
    """The cluster's queues, with the ``root`` and ``default`` queues the scheduler creates."""
    queues = {q.name: q for q in cluster.queues}
    queues.setdefault(ROOT_QUEUE, VolcanoQueue(ROOT_QUEUE))
    queues.setdefault(DEFAULT_QUEUE, VolcanoQueue(DEFAULT_QUEUE, parent=ROOT_QUEUE))
    return queues


def open_session(cluster: VolcanoCluster, candidate: Job, candidate_pods: Resource) -> Session:
    """The session's jobs, queues and resources, with ``candidate`` (its Pending pods' requests
    ``candidate_pods``) as the newest job; the PodGroup of the same name in the file, if any, is
    taken for the candidate's own and left out, and so are its Pods: the job is judged as if
    submitted now."""
    queues = queues_of(cluster)
    node_names = {n.name for n in cluster.nodes}
    total, used = Resource(), Resource()
    for node in cluster.nodes:
        total.add(Resource.of(node.allocatable))
    by_group: dict[tuple[str, str], list[ClusterPod]] = {}
    for pod in cluster.pods:
        if pod.node in node_names and f"{pod.namespace}/{pod.group}" != candidate.key:
            used.add(Resource.of(pod.requests))
        if pod.group:
            by_group.setdefault((pod.namespace, pod.group), []).append(pod)
    jobs = []
    pods_known = bool(cluster.pods)
    for group in cluster.podgroups:
        if group.key == candidate.key or group.queue not in queues:
            continue
        job = Job(group.key, group.queue, group.phase, group.min_member, group.min_resources,
                  priority_of(cluster, group.priority_class), group.created)
        for pod in by_group.get((group.namespace, group.name), []):
            request = Resource.of(pod.requests)
            if pod.deleting:
                continue  # Releasing
            if pod.node is not None:
                job.allocated.add(request)
                job.allocated_count += 1
            elif pod.phase == PENDING:
                job.pending.add(request)
                if pod.gated:
                    job.gated.add(request)
        if not pods_known and group.phase == RUNNING and group.min_resources is not None \
                and group.running >= group.min_member:
            job.allocated, job.allocated_count = Resource.of(group.min_resources), group.running
            used.add(job.allocated)
        jobs.append(job)
    candidate.pending = candidate_pods
    candidate.candidate = True
    return Session(queues, jobs + [candidate], total, used, len(cluster.nodes), pods_known)


def pods_request(roles: Sequence[Any]) -> Resource:
    """The requests of a gang's pods (:class:`mpigen.scheduler.fit.Role`: a count and one pod's shape)."""
    out = Resource()
    for role in roles:
        out.add(Resource.of(role.shape.requests).multi(role.count))
    return out
