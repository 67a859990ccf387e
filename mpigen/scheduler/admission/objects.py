"""What the admission rules read of a cluster: its Pods, Volcano's Queues and PodGroups and the
Volcano scheduler's configuration, as plain values (:mod:`mpigen.load.cluster` reads them from a
cluster file).

The default configuration (:data:`DEFAULT_VOLCANO_CONF`) is the one Volcano v1.15.1's Helm chart
installs (``installer/helm/chart/volcano/config/volcano-scheduler.conf``): actions ``enqueue,
allocate, backfill``; tier 1 ``priority``, ``gang``, ``conformance``; tier 2 ``overcommit``,
``drf``, ``predicates``, ``proportion``, ``nodeorder``, ``binpack``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from ...operator.quantity import Quantity

VOLCANO_VERSION = "v1.15.1"
OPEN = "Open"  # scheduling.volcano.sh/v1beta1 QueueStateOpen
DEFAULT_QUEUE = "default"  # the queue a PodGroup without one gets (the CRD's default), created by the scheduler
ROOT_QUEUE = "root"  # the root of the queue hierarchy, created by the scheduler (cache.go newDefaultAndRootQueue)


@dataclass(frozen=True)
class ClusterPod:
    """A Pod of the cluster file that is not finished (its phase is neither Succeeded nor Failed)."""

    namespace: str
    name: str
    node: str | None  # spec.nodeName: bound when set
    phase: str
    requests: Mapping[str, Quantity]  # as kube-scheduler counts them (nodes.pod_requests)
    group: str | None = None  # the Volcano PodGroup it belongs to (annotation scheduling.k8s.io/group-name)
    priority: int | None = None  # spec.priority, which the API server's Priority admission sets
    priority_class: str | None = None
    deleting: bool = False  # metadata.deletionTimestamp set
    gated: bool = False  # scheduling gates other than Volcano's own queue-allocation gate alone

    @property
    def key(self) -> str:
        return f"{self.namespace}/{self.name}"


@dataclass(frozen=True)
class VolcanoQueue:
    """A ``scheduling.volcano.sh/v1beta1`` Queue: its quota and state."""

    name: str
    capability: Mapping[str, Quantity] = field(default_factory=dict)
    deserved: Mapping[str, Quantity] = field(default_factory=dict)
    guarantee: Mapping[str, Quantity] = field(default_factory=dict)  # spec.guarantee.resource
    state: str = OPEN  # status.state; the queue controller opens a queue without one (state/factory.go)
    parent: str = ""  # spec.parent: the hierarchy the capacity plugin reads ("" = root)
    weight: int = 1
    priority: int = 0
    created: str = ""  # metadata.creationTimestamp (RFC 3339, so it sorts as text)


@dataclass(frozen=True)
class VolcanoPodGroup:
    """A ``scheduling.volcano.sh/v1beta1`` PodGroup: what it holds of its queue."""

    namespace: str
    name: str
    queue: str = DEFAULT_QUEUE
    phase: str = "Pending"  # status.phase ("" reads as Pending, as JobInfo.IsPending does)
    min_member: int = 0
    min_resources: Mapping[str, Quantity] | None = None  # None: unset (a best-effort job)
    priority_class: str = ""
    created: str = ""
    running: int = 0  # status.running

    @property
    def key(self) -> str:
        return f"{self.namespace}/{self.name}"


@dataclass(frozen=True)
class PluginOption:
    """One plugin of a tier of the Volcano scheduler's configuration (``conf.PluginOption``)."""

    name: str
    arguments: Mapping[str, Any] = field(default_factory=dict)
    job_enqueued: bool = True  # enableJobEnqueued (defaults.go: true when unset)
    queue_order: bool = True  # enableQueueOrder
    job_order: bool = True  # enableJobOrder
    hierarchy: bool = False  # enableHierarchy (drf and capacity)


@dataclass(frozen=True)
class VolcanoConf:
    """The Volcano scheduler's configuration (``volcano-scheduler.conf``)."""

    actions: tuple[str, ...]
    tiers: tuple[tuple[PluginOption, ...], ...]
    source: str  # where it comes from, as said in messages

    def plugin(self, name: str) -> PluginOption | None:
        return next((p for tier in self.tiers for p in tier if p.name == name), None)


DEFAULT_VOLCANO_CONF = VolcanoConf(
    ("enqueue", "allocate", "backfill"),
    ((PluginOption("priority"), PluginOption("gang"), PluginOption("conformance")),
     (PluginOption("overcommit"), PluginOption("drf"), PluginOption("predicates"), PluginOption("proportion"),
      PluginOption("nodeorder"), PluginOption("binpack"))),
    f"Volcano {VOLCANO_VERSION}'s default scheduler configuration")
