"""What Kueue's admission reads of a cluster: ClusterQueues, Cohorts, LocalQueues, ResourceFlavors
and Workloads, as plain values (:mod:`mpigen.load.kueue` reads them from a cluster file, in
``kueue.x-k8s.io/v1beta1`` or ``v1beta2``, the two versions Kueue v0.19.2 serves).

Amounts are Kueue's ``resources.Amount`` (``pkg/resources/amount.go``): an int64, cpu in
millicores and every other resource as ``Quantity.Value()``; a quantity too large for it is
:data:`UNLIMITED` (``math.MaxInt64``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from ...operator.quantity import Quantity
from ..nodes import Taint, bytes_shown

KUEUE_VERSION = "v0.19.2"
UNLIMITED = 2**63 - 1  # resources.Unlimited
CPU = "cpu"
NEVER = "Never"  # PreemptionPolicy / BorrowWithinCohortPolicy
MAY_STOP_SEARCH, TRY_NEXT_FLAVOR = "MayStopSearch", "TryNextFlavor"


def kueue_amount(name: str, quantity: Quantity) -> int:
    """``resources.AmountFromQuantity``: millicores for cpu, ``Value()`` for the rest, capped at
    :data:`UNLIMITED`."""
    if name == CPU:
        return UNLIMITED if quantity >= Quantity(UNLIMITED // 1000) else quantity.milli_value()
    return UNLIMITED if quantity >= Quantity(UNLIMITED) else quantity.value()


def shown(resource: str, value: int) -> str:
    """An int64 amount (cpu in millicores, the rest in units) as a quantity: cpu in cores, memory
    and ephemeral-storage as :func:`~mpigen.scheduler.nodes.bytes_shown` writes them, the rest
    as numbers; :data:`UNLIMITED` (or more) as "unlimited"."""
    if value >= UNLIMITED:
        return "unlimited"
    if resource == CPU:
        return str(Quantity(value, -3))
    if resource in ("memory", "ephemeral-storage"):
        return bytes_shown(value)
    return str(value)


def add(a: int, b: int) -> int:
    """``Amount.Add`` (saturating; unlimited absorbs)."""
    if a == UNLIMITED or b == UNLIMITED:
        return UNLIMITED
    return min(a + b, UNLIMITED)


def sub(a: int, b: int) -> int:
    """``Amount.Sub``."""
    if a == UNLIMITED and b == UNLIMITED:
        return 0
    if a == UNLIMITED:
        return UNLIMITED
    if b == UNLIMITED:
        return -(2**63)
    return max(a - b, -(2**63))


@dataclass(frozen=True)
class Quota:
    """``ResourceQuota`` of one resource in one flavor: nominalQuota, borrowingLimit, lendingLimit."""

    nominal: int
    borrowing_limit: int | None = None
    lending_limit: int | None = None


@dataclass(frozen=True)
class FlavorQuotas:
    name: str
    resources: Mapping[str, Quota]  # resource name -> its quota, in the object's order


@dataclass(frozen=True)
class ResourceGroup:
    covered: tuple[str, ...]  # coveredResources
    flavors: tuple[FlavorQuotas, ...]  # in the order the flavor assigner tries them


@dataclass(frozen=True)
class Preemption:
    """``ClusterQueuePreemption`` (every policy ``Never`` by default, as the CRD defaults it)."""

    within_cluster_queue: str = NEVER  # Never, LowerPriority, LowerOrNewerEqualPriority
    reclaim_within_cohort: str = NEVER  # Never, LowerPriority, Any
    borrow_within_cohort: str = NEVER  # Never, LowerPriority
    max_priority_threshold: int | None = None


@dataclass(frozen=True)
class ClusterQueue:
    name: str
    cohort: str = ""  # spec.cohort (v1beta1), spec.cohortName (v1beta2)
    resource_groups: tuple[ResourceGroup, ...] = ()
    namespace_selector: Mapping[str, Any] | None = None  # None: no namespace (LabelSelectorAsSelector(nil))
    preemption: Preemption = field(default_factory=Preemption)
    when_can_borrow: str = MAY_STOP_SEARCH  # flavorFungibility
    when_can_preempt: str = TRY_NEXT_FLAVOR
    preference: str | None = None
    stop_policy: str = "None"  # None, Hold, HoldAndDrain
    admission_checks: tuple[str, ...] = ()  # spec.admissionChecks and admissionChecksStrategy's
    fair_sharing: bool = False  # spec.fairSharing set (the weights matter only with fair sharing on)

    def resource_group(self, resource: str) -> ResourceGroup | None:
        """``RGByResource``."""
        return next((rg for rg in self.resource_groups if resource in rg.covered), None)

    def quotas(self) -> dict[tuple[str, str], Quota]:
        return {(f.name, r): q for rg in self.resource_groups for f in rg.flavors for r, q in f.resources.items()}


@dataclass(frozen=True)
class Cohort:
    """A ``Cohort`` object (hierarchical cohorts): its parent and the quotas it adds to its tree. A
    cohort that ClusterQueues name without an object exists all the same, without quotas."""

    name: str
    parent: str = ""  # spec.parentName
    resource_groups: tuple[ResourceGroup, ...] = ()

    def quotas(self) -> dict[tuple[str, str], Quota]:
        return {(f.name, r): q for rg in self.resource_groups for f in rg.flavors for r, q in f.resources.items()}


@dataclass(frozen=True)
class LocalQueue:
    namespace: str
    name: str
    cluster_queue: str
    stop_policy: str = "None"

    @property
    def key(self) -> str:
        return f"{self.namespace}/{self.name}"


@dataclass(frozen=True)
class ResourceFlavor:
    name: str
    node_labels: Mapping[str, str] = field(default_factory=dict)
    node_taints: tuple[Taint, ...] = ()
    tolerations: tuple[Mapping[str, Any], ...] = ()
    topology: str = ""  # spec.topologyName: Topology Aware Scheduling, not evaluated


@dataclass(frozen=True)
class WorkloadPriorityClass:
    name: str
    value: int


@dataclass(frozen=True)
class Workload:
    """A ``Workload``: the queue it waits in and, once Kueue reserved quota for it
    (``status.admission``), what it holds of its ClusterQueue, flavor by flavor."""

    namespace: str
    name: str
    queue: str = ""  # spec.queueName
    priority: int = 0  # spec.priority
    cluster_queue: str = ""  # status.admission.clusterQueue: "" while it holds no quota
    usage: Mapping[tuple[str, str], int] = field(default_factory=dict)  # (flavor, resource) -> amount
    finished: bool = False  # the Finished condition: its quota is released
    created: str = ""
    owner: tuple[str, str] = ("", "")  # the job it stands for: its controller ownerReference's (kind, name)

    @property
    def key(self) -> str:
        return f"{self.namespace}/{self.name}"

    @property
    def holds_quota(self) -> bool:
        return bool(self.cluster_queue) and not self.finished


def selector_matches(selector: Mapping[str, Any] | None, labels: Mapping[str, str]) -> bool:
    """``metav1.LabelSelectorAsSelector(selector).Matches(labels)``: None selects nothing, ``{}``
    everything."""
    if selector is None:
        return False
    for key, value in (selector.get("matchLabels") or {}).items():
        if labels.get(str(key)) != str(value):
            return False
    for expression in selector.get("matchExpressions") or []:
        key, operator = str(expression.get("key")), expression.get("operator")
        values = [str(v) for v in expression.get("values") or []]
        if operator == "In" and labels.get(key) not in values:
            return False
        if operator == "NotIn" and key in labels and labels[key] in values:
            return False
        if operator == "Exists" and key not in labels:
            return False
        if operator == "DoesNotExist" and key in labels:
            return False
    return True
