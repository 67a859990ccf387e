"""The gang-scheduling plugins of Trainer v2.3.0: coscheduling (scheduler-plugins) and Volcano.

Ports ``CoScheduling.EnforcePodGroupPolicy`` and ``CoScheduling.Build``
(``pkg/runtime/framework/plugins/coscheduling/coscheduling.go``) and ``Volcano.
EnforcePodGroupPolicy`` and ``Volcano.Build`` (``plugins/volcano/volcano.go``) at tag **v2.3.0**.
The runtime's ``podGroupPolicy`` decides: ``coscheduling`` or ``volcano``, else no PodGroup. The
TrainJob has no say but its name, its PodSets' counts and its resources (and, for Volcano, the
queue annotation a runtime patch may set).

* **Pods**: coscheduling labels every pod template ``scheduling.x-k8s.io/pod-group: <job>``;
  Volcano annotates it ``scheduling.k8s.io/group-name: <job>``. Neither sets a schedulerName:
  the runtime's pod templates must name the scheduler themselves.
* **minMember**: the sum of every PodSet's count -- every replicated job, initializers and
  launcher included (one pod per replica of a replicated job is assumed: ``replicas`` is not
  counted).
* **minResources**: per PodSet, each resource of its ``SinglePodRequests`` (see
  :func:`mpigen.trainer.info.pod_requests`: requests only, so a GPU given only as a limit is not
  counted) multiplied by the count, summed over the PodSets in order (Go's ``Quantity.Mul`` and
  ``Add``: a sum keeps its first operand's format). Always written, ``{}`` when nothing is
  requested. One multiplication per PodSet and resource: the cost does not depend on the counts.
* coscheduling: ``scheduleTimeoutSeconds`` = the runtime's (CRD default 60).
* Volcano: ``queue`` = the JobSet template's annotation ``scheduling.volcano.sh/queue-name``
  (after the runtime patches' metadata) when present, even empty (the webhook refuses empty);
  ``priorityClassName`` = the ``priorityClassName`` of the LAST replicated job's pod template that
  sets one (each one set overwrites the previous); ``networkTopology`` = the runtime's
  ``mode``/``highestTierAllowed`` (CRD defaults ``hard``/1).
* Both are named after the TrainJob, in its namespace, owned by it (ownerReferences left out).
"""

from __future__ import annotations

from typing import Any

from mpigen.operator.podgroup import _emit_list
from mpigen.operator.quantity import Quantity

from .info import Info, int32, pod_spec_of

SCHEDULER_PLUGINS_API_VERSION = "scheduling.x-k8s.io/v1alpha1"
VOLCANO_API_VERSION = "scheduling.volcano.sh/v1beta1"
POD_GROUP_LABEL = "scheduling.x-k8s.io/pod-group"
VOLCANO_GROUP_ANNOTATION = "scheduling.k8s.io/group-name"
VOLCANO_QUEUE_ANNOTATION = "scheduling.volcano.sh/queue-name"


def policy_kind(info: Info) -> str | None:
    """``coscheduling``, ``volcano`` or None, from the runtime's podGroupPolicy (coscheduling is
    checked first by neither plugin: both act when both are set)."""
    return policy_kind_of(info.pod_group_policy)


def policy_kind_of(policy: Any) -> str | None:
    """``coscheduling``, ``volcano`` or None, of a runtime's ``podGroupPolicy``."""
    policy = policy if isinstance(policy, dict) else {}
    if isinstance(policy.get("coscheduling"), dict):
        return "coscheduling"
    if isinstance(policy.get("volcano"), dict):
        return "volcano"
    return None


def enforce_pod_group_policy(info: Info, trainjob: dict[str, Any]) -> None:
    """Both ``EnforcePodGroupPolicy``: the pod label / annotation naming the PodGroup."""
    policy = info.pod_group_policy or {}
    name = trainjob["metadata"]["name"]
    if isinstance(policy.get("coscheduling"), dict):
        info.pod_labels[POD_GROUP_LABEL] = name
    if isinstance(policy.get("volcano"), dict):
        info.pod_annotations[VOLCANO_GROUP_ANNOTATION] = name


def min_member(info: Info) -> int:
    """The sum of the PodSets' counts (int32 arithmetic, as Go adds them)."""
    return int32(sum(ps.count for ps in info.pod_sets))


def min_resources(info: Info) -> dict[str, Quantity]:
    """Per resource: the sum over the PodSets of ``SinglePodRequests[resource] x count``."""
    total: dict[str, Quantity] = {}
    for ps in info.pod_sets:
        for name, quantity in ps.single_pod_requests.items():
            total[name] = total.get(name, Quantity()).add(quantity.mul(ps.count))
    return total


def _meta(trainjob: dict[str, Any]) -> dict[str, Any]:
    return {"name": trainjob["metadata"]["name"], "namespace": trainjob["metadata"]["namespace"]}


def build(info: Info, trainjob: dict[str, Any]) -> list[dict[str, Any]]:
    """``CoScheduling.Build`` and ``Volcano.Build``: the PodGroup(s) for a new TrainJob."""
    policy = info.pod_group_policy or {}
    out = []
    if isinstance(policy.get("coscheduling"), dict):
        spec = {"minMember": min_member(info), "minResources": _emit_list(min_resources(info)),
                "scheduleTimeoutSeconds": policy["coscheduling"]["scheduleTimeoutSeconds"]}
        out.append({"apiVersion": SCHEDULER_PLUGINS_API_VERSION, "kind": "PodGroup", "metadata": _meta(trainjob),
                    "spec": spec})
    if isinstance(policy.get("volcano"), dict):
        volcano = policy["volcano"]
        spec = {"minMember": min_member(info), "minResources": _emit_list(min_resources(info))}
        if VOLCANO_QUEUE_ANNOTATION in info.annotations:
            spec["queue"] = info.annotations[VOLCANO_QUEUE_ANNOTATION]
        for rjob in info.jobset_spec.get("replicatedJobs") or []:
            pod = pod_spec_of(rjob)
            if pod.get("priorityClassName") is not None:
                spec["priorityClassName"] = pod["priorityClassName"]
        topology = volcano.get("networkTopology")
        if isinstance(topology, dict):
            spec["networkTopology"] = {"mode": topology.get("mode", ""),
                                       "highestTierAllowed": topology["highestTierAllowed"]}
        out.append({"apiVersion": VOLCANO_API_VERSION, "kind": "PodGroup", "metadata": _meta(trainjob), "spec": spec})
    return out
