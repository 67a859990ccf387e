"""The verdicts of mpigen's ports on a live job, as ``explain --kube-context`` computes them for the
job submitted anew: whether its gang fits the nodes (:func:`mpigen.scheduler.fit.gang_fit`) and
whether the queue in charge admits it (:func:`mpigen.scheduler.admission.job_admission`: Kueue's
LocalQueue, Volcano's Queue, the namespace's ElasticQuota).

The job is left out of the cluster it is judged on: its own Pods (the requests they hold on their
nodes, and in their namespace's ElasticQuota), as :func:`without_own_pods` does; its own PodGroup
and Workload the ports leave out themselves. A job Kueue holds is judged as Kueue would admit it,
suspend cleared (:func:`resumed`); a job that is not suspended is past Kueue (admitted, or not
Kueue's), so the next gate is judged: Volcano's Queue or the ElasticQuota (:func:`past_kueue`).
"""

from __future__ import annotations

import copy
from dataclasses import replace
from typing import Any, Mapping

from ..load.cluster import Cluster
from ..operator.podgroup import SCHEDULER_PLUGINS_API_VERSION, VOLCANO_API_VERSION
from ..scheduler.admission import Admission
from ..scheduler.admission.verdict import CODES
from .evidence import resource_name

KUEUE = "LocalQueue"  # the Admission.kind of Kueue's verdicts
SOURCES = {KUEUE: ("kueue.x-k8s.io/v1beta1", "LocalQueue"),
           "ElasticQuota": (SCHEDULER_PLUGINS_API_VERSION, "ElasticQuota"),
           "queue": (VOLCANO_API_VERSION, "Queue")}
"""An :attr:`Admission.kind` -> the object that decides (its apiVersion and kind)."""


def without_own_pods(cluster: Cluster, namespace: str, own: set[str]) -> Cluster:
    """The cluster as if the job's own pods (``own``: their names in ``namespace``) did not exist:
    not bound to their nodes, not in their namespace's use."""
    nodes = {n.name: n for n in cluster.nodes}
    removed = 0
    for pod in cluster.pods:
        if pod.namespace != namespace or pod.name not in own or pod.node not in nodes:
            continue
        node = nodes[pod.node]
        left = dict(node.requested)
        for resource, quantity in pod.requests.items():
            if resource in left:
                left[resource] = left[resource].sub(quantity)
        nodes[pod.node] = replace(node, requested=left, pods=max(node.pods - 1, 0))
        removed += 1
    others = tuple(p for p in cluster.pods if p.namespace != namespace or p.name not in own)
    return replace(cluster, nodes=tuple(nodes[n.name] for n in cluster.nodes), bound_pods=cluster.bound_pods - removed,
                   pods=others)


def past_kueue(cluster: Cluster) -> Cluster:
    """The cluster without Kueue's queues, so that :func:`job_admission` judges the gate after
    Kueue's: a job that is not suspended is no longer Kueue's to hold."""
    return replace(cluster, local_queues=(), cluster_queues=())


def resumed(job: Mapping[str, Any]) -> dict[str, Any]:
    """The job as Kueue resumes it once admitted (``runPolicy.suspend``, or a TrainJob's
    ``spec.suspend``, false): what the operator then creates is what the Workload stands for."""
    out = copy.deepcopy(dict(job))
    spec = out.get("spec") if isinstance(out.get("spec"), dict) else {}
    policy = spec.get("runPolicy")
    if isinstance(policy, dict) and policy.get("suspend"):
        policy["suspend"] = False
    if spec.get("suspend"):
        spec["suspend"] = False
    return out


def admission_source(verdict: Admission) -> str:
    """The object that decides, as kubectl names it: ``localqueues.kueue.x-k8s.io/team-a``,
    ``queues.scheduling.volcano.sh/research``, ``elasticquotas.scheduling.x-k8s.io/gpus``."""
    api_version, kind = SOURCES.get(verdict.kind, SOURCES["queue"])
    return resource_name(api_version, kind, verdict.queue.rsplit("/", 1)[-1])


def admission_cause(verdict: Admission) -> tuple[str, Any, str, str]:
    """(code, severity, message, what the answer says) of a verdict that holds the job."""
    code, severity = CODES[verdict.outcome]
    return code, severity, verdict.message(), f"{verdict.headline}: " + "; and ".join(verdict.reasons)
