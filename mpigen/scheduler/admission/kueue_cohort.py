"""Kueue's quota tree: ClusterQueues and the Cohorts above them, with what each holds, ported from
Kueue v0.19.2 ``pkg/cache/scheduler/resource_node.go`` (``resourceNode``, ``available``,
``potentialAvailable``, ``LocalAvailable``, ``updateCohortResourceNode``, ``accumulateFromChild``),
``clusterqueue_snapshot.go`` / ``cohort_snapshot.go`` (``BorrowingWith``) and
``pkg/scheduler/preemption/classical/hierarchical_preemption.go``
(``FindHeightOfLowestSubtreeThatFits``, ``getNodeHeight``).

Every node has quotas per (flavor, resource); its *subtree quota* is its own nominal quota plus
what its children put in it (a child's subtree quota less what its ``lendingLimit`` keeps back);
its *usage* is, for a ClusterQueue, what its admitted Workloads hold, and for a Cohort, what its
children use beyond what they keep back. A ClusterQueue can use its local quota and what its
parent has available, up to its ``borrowingLimit`` beyond its nominal quota. Cohorts exist when a
ClusterQueue or a Cohort names them, with or without a Cohort object (hierarchical cohorts: a
Cohort's ``spec.parentName``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterator, Sequence

from .kueue_objects import ClusterQueue, Cohort, Quota, Workload, add, sub

FR = tuple[str, str]  # (flavor, resource)


@dataclass(eq=False)
class Node:
    """A ClusterQueue or a Cohort of the tree (``resourceNode`` with its place in the hierarchy)."""

    name: str
    is_cohort: bool
    quotas: dict[FR, Quota] = field(default_factory=dict)
    subtree: dict[FR, int] = field(default_factory=dict)
    usage: dict[FR, int] = field(default_factory=dict)
    parent: Node | None = None
    cohorts: list[Node] = field(default_factory=list)  # child cohorts
    queues: list[Node] = field(default_factory=list)  # child ClusterQueues

    def local_quota(self, fr: FR) -> int:
        """``localQuota``: what the lendingLimit keeps back from the parent (0 without one)."""
        limit = self.quotas[fr].lending_limit if fr in self.quotas else None
        return max(0, sub(self.subtree.get(fr, 0), limit)) if limit is not None else 0

    def local_available(self, fr: FR) -> int:
        return max(0, sub(self.local_quota(fr), self.usage.get(fr, 0)))

    def available(self, fr: FR) -> int:
        """``available``: what can still be used here, local quota and the parent's up to the borrowing limit."""
        if self.parent is None:
            return sub(self.subtree.get(fr, 0), self.usage.get(fr, 0))
        parent = self.parent.available(fr)
        limit = self.quotas[fr].borrowing_limit if fr in self.quotas else None
        if limit is not None:
            local = self.local_quota(fr)
            stored = sub(self.subtree.get(fr, 0), local)
            used = max(0, sub(self.usage.get(fr, 0), local))
            parent = min(add(sub(stored, used), limit), parent)
        return add(self.local_available(fr), parent)

    def potential_available(self, fr: FR) -> int:
        """``potentialAvailable``: the most that could be used here were nothing else running."""
        if self.parent is None:
            return self.subtree.get(fr, 0)
        most = add(self.local_quota(fr), self.parent.potential_available(fr))
        limit = self.quotas[fr].borrowing_limit if fr in self.quotas else None
        if limit is not None:
            most = min(add(self.subtree.get(fr, 0), limit), most)
        return most

    def borrowing_with(self, fr: FR, value: int) -> bool:
        """``BorrowingWith``: using ``value`` more would take it beyond its nominal (a ClusterQueue)
        or subtree (a Cohort) quota."""
        mine = self.subtree.get(fr, 0) if self.is_cohort else (self.quotas[fr].nominal if fr in self.quotas else 0)
        return mine < add(self.usage.get(fr, 0), value)

    def ancestors(self) -> Iterator[Node]:
        """``PathParentToRoot``."""
        node = self.parent
        while node is not None:
            yield node
            node = node.parent

    def root(self) -> Node:
        node = self
        while node.parent is not None:
            node = node.parent
        return node

    def height(self) -> int:
        """``getNodeHeight`` of a Cohort."""
        return max([min(len(self.cohorts) + len(self.queues), 1)] + [c.height() + 1 for c in self.cohorts])

    def subtree_queues(self) -> list[Node]:
        return self.queues + [q for c in self.cohorts for q in c.subtree_queues()]


def lowest_subtree_that_fits(queue: Node, fr: FR, value: int) -> tuple[int, bool]:
    """``FindHeightOfLowestSubtreeThatFits``: (how high in the cohort tree the value must borrow,
    0 when it fits the nominal quota; whether that subtree is smaller than the whole tree)."""
    if not queue.borrowing_with(fr, value) or queue.parent is None:
        return 0, queue.parent is not None
    remaining = sub(value, queue.local_available(fr))
    for node in queue.ancestors():
        if not node.borrowing_with(fr, remaining):
            return node.height(), node.parent is not None
        remaining = sub(remaining, node.local_available(fr))
    assert queue.parent is not None
    return queue.parent.root().height(), False


@dataclass
class Tree:
    """The ClusterQueues and Cohorts with their quotas and usage, as a scheduling cycle's snapshot."""

    queues: dict[str, Node]
    cohorts: dict[str, Node]
    cycle: tuple[str, ...] = ()  # the Cohorts of a parent cycle, if any (Kueue then admits nothing in it)


def build_tree(cluster_queues: Sequence[ClusterQueue], cohorts: Sequence[Cohort],
               workloads: Sequence[Workload]) -> Tree:
    """The snapshot of the quota tree (``updateCohortTreeResources`` on every root)."""
    objects = {c.name: c for c in cohorts}
    nodes: dict[str, Node] = {}

    def cohort(name: str) -> Node:
        if name not in nodes:
            obj = objects.get(name)
            nodes[name] = Node(name, True, dict(obj.quotas()) if obj else {})
        return nodes[name]

    for obj in cohorts:
        node = cohort(obj.name)
        if obj.parent:
            node.parent = cohort(obj.parent)
            node.parent.cohorts.append(node)
    queues: dict[str, Node] = {}
    for cq in cluster_queues:
        node = Node(cq.name, False, cq.quotas())
        if cq.cohort:
            node.parent = cohort(cq.cohort)
            node.parent.queues.append(node)
        queues[cq.name] = node
    for workload in workloads:
        if workload.holds_quota and workload.cluster_queue in queues:
            usage = queues[workload.cluster_queue].usage
            for fr, value in workload.usage.items():
                usage[fr] = add(usage.get(fr, 0), value)
    cycle = _cycle(nodes)
    roots = [n for n in nodes.values() if n.parent is None]
    for root in roots:
        _update(root)
    for node in queues.values():
        if node.parent is None:
            node.subtree = {fr: q.nominal for fr, q in node.quotas.items()}
    return Tree(queues, nodes, cycle)


def _cycle(cohorts: dict[str, Node]) -> tuple[str, ...]:
    for start in cohorts.values():
        seen: list[str] = []
        node: Node | None = start
        while node is not None:
            if node.name in seen:
                return tuple(seen[seen.index(node.name):])
            seen.append(node.name)
            node = node.parent
    return ()


def _update(cohort: Node) -> None:
    """``updateCohortResourceNode``."""
    cohort.subtree = {fr: q.nominal for fr, q in cohort.quotas.items()}
    cohort.usage = {}
    for child in cohort.cohorts:
        _update(child)
        _accumulate(cohort, child)
    for child in cohort.queues:
        child.subtree = {fr: q.nominal for fr, q in child.quotas.items()}
        _accumulate(cohort, child)


def _accumulate(parent: Node, child: Node) -> None:
    """``accumulateFromChild``."""
    for fr, quota in child.subtree.items():
        parent.subtree[fr] = add(parent.subtree.get(fr, 0), sub(quota, child.local_quota(fr)))
    for fr, used in child.usage.items():
        parent.usage[fr] = add(parent.usage.get(fr, 0), max(0, sub(used, child.local_quota(fr))))
