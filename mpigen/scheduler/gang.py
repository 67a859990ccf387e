"""The gang of a job, read from the objects the operator creates for it (the controllers' ports
in :mod:`mpigen.operator`): the PodGroup's ``minMember`` and, per role, one pod that carries the
group (the annotation ``scheduling.k8s.io/group-name`` of Volcano and kube-batch, or the label
``scheduling.x-k8s.io/pod-group`` of scheduler-plugins) with the number of such pods. An MPIJob's
launcher is in the gang when its Job's pod template carries the group, as mpi-operator decorates it.
A TrainJob's roles are the replicated jobs of the JobSet Trainer builds (:func:`trainjob_gang`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Mapping

from ..operator.mpi_controller import JOB_ROLE_LABEL
from ..operator.training_controller import REPLICA_TYPE_LABEL
from ..operator.training_defaults import FRAMEWORKS
from .fit import Role
from .nodes import pod_shape

GROUP_ANNOTATION = "scheduling.k8s.io/group-name"
GROUP_LABEL = "scheduling.x-k8s.io/pod-group"


@dataclass(frozen=True)
class Gang:
    group: str  # the PodGroup's name
    min_member: int
    roles: tuple[Role, ...]


def role_counts(job: Mapping[str, Any]) -> dict[str, int]:
    """Pods per role (the replica type, lower case) of a checked job."""
    if job.get("kind") == "MPIJob":
        worker = job["spec"]["mpiReplicaSpecs"].get("Worker") or {}
        return {"launcher": 1, "worker": worker.get("replicas") or 0}
    specs = job["spec"].get(FRAMEWORKS[job["kind"]]["key"]) or {}
    return {rtype.lower(): 1 if (spec or {}).get("replicas") is None else spec["replicas"]
            for rtype, spec in specs.items()}


def _in_group(meta: Mapping[str, Any], group: str) -> bool:
    return ((meta.get("annotations") or {}).get(GROUP_ANNOTATION) == group
            or (meta.get("labels") or {}).get(GROUP_LABEL) == group)


def gang_of(job: Mapping[str, Any], objects: Iterable[Mapping[str, Any]]) -> Gang | None:
    """The gang of ``job`` from the objects the operator creates for it (one pod per role is
    enough), or None when it creates no PodGroup."""
    group: Mapping[str, Any] | None = None
    pods: dict[str, Mapping[str, Any]] = {}  # role -> a pod (metadata and spec) of it
    for obj in objects:
        kind = obj.get("kind")
        if kind == "PodGroup" and group is None:
            group = obj
        elif kind in ("Pod", "Job"):
            pod = obj["spec"]["template"] if kind == "Job" else obj
            labels = pod["metadata"].get("labels") or {}
            role = labels.get(REPLICA_TYPE_LABEL) or labels.get(JOB_ROLE_LABEL)
            if role:
                pods.setdefault(role, pod)
    if group is None:
        return None
    name = group["metadata"]["name"]
    counts = role_counts(job)
    roles = tuple(Role(role, counts.get(role, 1), pod_shape(pod["spec"])) for role, pod in pods.items()
                  if _in_group(pod["metadata"], name))
    return Gang(name, group["spec"].get("minMember") or 0, roles)


def trainjob_gang(objects: Iterable[Mapping[str, Any]]) -> Gang | None:
    """The gang of a TrainJob from what Trainer creates for it (:mod:`mpigen.trainer`): the
    PodGroup, and one role per replicated job of the JobSet whose pods carry the group, of
    ``replicas`` x ``parallelism`` pods (JobSet creates ``replicas`` Jobs of the template, each of
    ``parallelism`` pods, both 1 when unset). None without a PodGroup."""
    group = next((o for o in objects if o.get("kind") == "PodGroup"), None)
    jobset = next((o for o in objects if o.get("kind") == "JobSet"), None)
    if group is None or jobset is None:
        return None
    name = group["metadata"]["name"]
    roles = []
    for rjob in jobset["spec"].get("replicatedJobs") or []:
        job_spec = rjob["template"]["spec"]
        pod = job_spec["template"]
        if _in_group(pod.get("metadata") or {}, name):
            count = (rjob.get("replicas") or 1) * (job_spec.get("parallelism") or 1)
            roles.append(Role(rjob["name"], count, pod_shape(pod.get("spec") or {})))
    return Gang(name, group["spec"].get("minMember") or 0, tuple(roles))


def job_roles(job: Mapping[str, Any], objects: Iterable[Mapping[str, Any]]) -> tuple[Role, ...]:
    """Every pod of ``job`` by role, whether a PodGroup gangs them or not (what Kueue's Workload
    counts: one PodSet per replica type), from the objects the operator creates for it (one pod per
    role is enough); for a TrainJob, the replicated jobs of its JobSet."""
    objects = list(objects)
    jobset = next((o for o in objects if o.get("kind") == "JobSet"), None)
    if jobset is not None:
        roles = []
        for rjob in jobset["spec"].get("replicatedJobs") or []:
            job_spec = rjob["template"]["spec"]
            count = (rjob.get("replicas") or 1) * (job_spec.get("parallelism") or 1)
            roles.append(Role(rjob["name"], count, pod_shape(job_spec["template"].get("spec") or {})))
        return tuple(roles)
    pods: dict[str, Mapping[str, Any]] = {}
    for obj in objects:
        if obj.get("kind") in ("Pod", "Job"):
            pod = obj["spec"]["template"] if obj.get("kind") == "Job" else obj
            labels = pod["metadata"].get("labels") or {}
            role = labels.get(REPLICA_TYPE_LABEL) or labels.get(JOB_ROLE_LABEL)
            if role:
                pods.setdefault(role, pod)
    counts = role_counts(job)  # in the integrations' PodSet order: an MPIJob's launcher first
    order = list(counts)
    return tuple(Role(role, counts.get(role, 1), pod_shape(pod["spec"]))
                 for role, pod in sorted(pods.items(), key=lambda item: order.index(item[0]) if item[0] in order
                                         else len(order)))
