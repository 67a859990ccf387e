"""Will scheduler-plugins' capacity scheduling let a job's pods in? The ElasticQuota of the job's
namespace, ported from scheduler-plugins v0.33.5 ``pkg/capacityscheduling``
(``capacity_scheduling.go`` ``PreFilter``, ``SelectVictimsOnNode``, ``computePodResourceRequest``;
``elasticquota.go`` ``usedOverMaxWith``, ``aggregatedUsedOverMinWith``, ``cmp2``,
``newElasticQuotaInfo``).

An ElasticQuota (``scheduling.x-k8s.io/v1alpha1``, at most one read per namespace: the plugin keeps
the first) has ``spec.min`` and ``spec.max``. What a namespace *uses* is the requests of its Pods
bound to a node and not finished. A pod is refused in PreFilter when

* its namespace's use plus its request exceeds ``max`` in one resource (a ``max`` that lists no
  cpu, memory or ephemeral-storage gives that resource 0; an extended resource it does not list
  is not limited; no ``max``: nothing is limited), or
* the use of every namespace with an ElasticQuota plus its request exceeds the sum of their
  ``min`` (no ``min``: 0), whichever namespace it is in.

A gang's pods pass one at a time, each counted once reserved, so the gang passes only if its whole
request does. When refused, the plugin's preemption may evict: pods of lower priority in the same
namespace when the namespace is beyond its ``min`` with the request, else pods of other namespaces
that use more than their ``min``; the verdict names them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from ...operator.quantity import Quantity
from .kueue_objects import shown  # the same int64 amounts (framework.Resource's)
from .objects import ClusterPod
from .verdict import ADMITS, CANNOT_ADMIT, MAY_NOT_ADMIT, Admission

SCHEDULER = "scheduler-plugins v0.33.5 capacity scheduling"
FIXED = ("cpu", "memory", "ephemeral-storage", "pods")  # framework.Resource's own fields
UPPER, LOWER = 2**63 - 1, 0  # UpperBoundOfMax, LowerBoundOfMin
SAID = ("ElasticQuota", "the pods")  # Admission.kind, Admission.subject


@dataclass(frozen=True)
class ElasticQuota:
    namespace: str
    name: str
    min: Mapping[str, Quantity] | None = None
    max: Mapping[str, Quantity] | None = None


def _scalar(name: str) -> bool:
    return "/" in name or name.startswith(("hugepages-", "attachable-volumes-"))


def resource_of(resources: Mapping[str, Quantity]) -> dict[str, int]:
    """``framework.NewResource``: cpu in millicores, the rest as ``Value()``; names that are no
    resource of the scheduler's are left out."""
    out: dict[str, int] = {}
    for name, quantity in resources.items():
        if name == "cpu":
            out[name] = out.get(name, 0) + quantity.milli_value()
        elif name in FIXED or _scalar(name):
            out[name] = out.get(name, 0) + quantity.value()
    return out


def _bounds(resources: Mapping[str, Quantity] | None, bound: int) -> dict[str, int]:
    """``newElasticQuotaInfo``: an unset min or max is ``makeResourceListForBound``."""
    if resources is None:
        return {"cpu": bound, "memory": bound, "ephemeral-storage": bound}
    return resource_of(resources)


def _over(request: Mapping[str, int], used: Mapping[str, int], limit: Mapping[str, int], bound: int) -> list[str]:
    """``cmp2``: the resources in which request + used exceed the limit (a fixed resource the limit
    lacks is 0; a scalar one, ``bound``)."""
    over = [n for n in FIXED if request.get(n, 0) + used.get(n, 0) > limit.get(n, 0)]
    return over + [n for n, v in request.items() if n not in FIXED and v + used.get(n, 0) > limit.get(n, bound)]


def _add(total: dict[str, int], more: Mapping[str, int], times: int = 1) -> dict[str, int]:
    for name, value in more.items():
        total[name] = total.get(name, 0) + value * times
    return total


def _count(n: int, what: str) -> str:
    return f"{n} {what}{'s' * (n != 1)}"


class _Quotas:
    """``ElasticQuotaInfos`` with what each namespace uses."""

    def __init__(self, quotas: Sequence[ElasticQuota], pods: Sequence[ClusterPod]) -> None:
        self.quotas: dict[str, ElasticQuota] = {}
        for quota in quotas:
            self.quotas.setdefault(quota.namespace, quota)
        self.pods = {ns: [p for p in pods if p.namespace == ns and p.node is not None] for ns in self.quotas}

    def used(self, namespace: str, without: frozenset[str] = frozenset()) -> dict[str, int]:
        total: dict[str, int] = {}
        for pod in self.pods.get(namespace, []):
            if pod.key not in without:
                _add(total, resource_of(pod.requests))
        return total

    def over_min(self, namespace: str) -> bool:
        return bool(_over(self.used(namespace), {}, _bounds(self.quotas[namespace].min, LOWER), LOWER))

    def refusal(self, namespace: str, need: Mapping[str, int], without: frozenset[str] = frozenset()
                ) -> tuple[str, list[str]] | None:
        """PreFilter: (``max`` or ``min``, the resources over it), or None when the pods pass."""
        quota = self.quotas[namespace]
        over = _over(need, self.used(namespace, without), _bounds(quota.max, UPPER), UPPER)
        if over:
            return "max", over
        used: dict[str, int] = {}
        minimum: dict[str, int] = {}
        for ns, one in self.quotas.items():
            _add(used, self.used(ns, without))
            _add(minimum, _bounds(one.min, LOWER))
        over = _over(_add(used, need), {}, minimum, LOWER)
        return ("min", over) if over else None


def _priority(pod: ClusterPod, classes: Mapping[str, int], default: int) -> int:
    if pod.priority is not None:
        return pod.priority
    return classes.get(pod.priority_class or "", default) if pod.priority_class else default


def elastic_quota_verdict(namespace: str, roles: Sequence[Any], priority: int, cluster: Any) -> Admission | None:
    """Whether capacity scheduling lets the pods of ``roles`` (every pod the gang needs) into
    ``namespace``; ``priority`` their priority. None when the namespace has no ElasticQuota."""
    infos = _Quotas(getattr(cluster, "elastic_quotas", ()), cluster.pods)
    if namespace not in infos.quotas:
        return None
    quota = infos.quotas[namespace]
    origin = getattr(cluster, "origin", None)
    where = origin.name if origin is not None else "the cluster file"
    held = sum(len(pods) for pods in infos.pods.values())
    basis = (f"{SCHEDULER}, assuming the scheduler the pods name enables the CapacityScheduling plugin; {where}'s "
             f"{_count(len(infos.quotas), 'ElasticQuota')} and the {_count(held, 'bound Pod')} of their namespaces")
    need: dict[str, int] = {}
    for role in roles:
        _add(need, resource_of(role.shape.requests), role.count)
    queue = f"{namespace}/{quota.name}"
    refused = infos.refusal(namespace, need)
    if refused is None:
        return Admission(ADMITS, SCHEDULER, queue, (_share(infos, namespace, need),), basis, *SAID)
    proof = _proof(infos, namespace, need, *refused)
    own_over_min = bool(_over(need, infos.used(namespace), _bounds(quota.min, LOWER), LOWER))
    classes, default = cluster.priority_classes, cluster.default_priority
    if own_over_min:
        victims = [p for p in infos.pods[namespace] if _priority(p, classes, default) < priority]
    else:
        victims = [p for ns in infos.quotas if ns != namespace and infos.over_min(ns) for p in infos.pods[ns]]
    if victims and infos.refusal(namespace, need, frozenset(p.key for p in victims)) is None:
        names = ", ".join(p.key for p in victims[:8]) + (", ..." if len(victims) > 8 else "")
        which = "lower-priority Pods of its namespace" if own_over_min else "Pods of namespaces beyond their min"
        return Admission(MAY_NOT_ADMIT, SCHEDULER, queue, (
            proof, f"only preemption could make room: the plugin may evict {which} ({names})"), basis, *SAID)
    return Admission(CANNOT_ADMIT, SCHEDULER, queue, (
        proof + ", and no preemption the plugin allows would make room: the pods stay Pending until enough of "
        "what uses the quota finishes",), basis, *SAID)


def _proof(infos: _Quotas, namespace: str, need: Mapping[str, int], which: str, over: list[str]) -> str:
    quota = infos.quotas[namespace]
    parts = []
    for name in over:
        if which == "max":
            used = infos.used(namespace)
            limit = _bounds(quota.max, UPPER).get(name)
            told = (f"max {shown(name, limit)} {name}" if limit is not None
                    else f"max lists no {name} (the plugin takes 0)")
            parts.append(f"ElasticQuota {namespace}/{quota.name}: {told}, {shown(name, used.get(name, 0))} in use by "
                         f"{_count(len(infos.pods[namespace]), 'Pod')}; this job's pods need {shown(name, need.get(name, 0))}")
        else:
            used = sum(infos.used(ns).get(name, 0) for ns in infos.quotas)
            total = sum(_bounds(q.min, LOWER).get(name, 0) for q in infos.quotas.values())
            parts.append(f"the min of the {_count(len(infos.quotas), 'ElasticQuota')} adds up to {shown(name, total)} {name}, "
                         f"{shown(name, used)} in use; this job's pods need {shown(name, need.get(name, 0))}")
    event = "is more than Max" if which == "max" else "total ElasticQuota used is more than min"
    return "; ".join(parts) + f" (capacity scheduling PreFilter: \"{event}\")"


def _share(infos: _Quotas, namespace: str, need: Mapping[str, int]) -> str:
    quota = infos.quotas[namespace]
    used = infos.used(namespace)
    parts = [f"{shown(n, used.get(n, 0) + v)} of max {shown(n, _bounds(quota.max, UPPER).get(n, UPPER))} {n}"
             for n, v in sorted(need.items()) if v and n != "pods"]
    return f"ElasticQuota {namespace}/{quota.name} lets the pods in: with them the namespace uses " + ", ".join(parts)
