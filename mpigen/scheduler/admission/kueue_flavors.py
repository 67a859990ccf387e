"""Kueue's flavor assignment, ported from Kueue v0.19.2 ``pkg/scheduler/flavorassigner/
flavorassigner.go`` (``assignFlavors``, ``findFlavorForPodSets``, ``checkFlavorForPodSets``,
``fitsResourceQuota``, ``isPreferred``, ``shouldTryNextFlavor``, ``flavorSelector``), with the
default feature gates (FlavorFungibility on; TopologyAwareScheduling and workload slices not
evaluated).

A Workload is a list of PodSets (one per replica type: a count and a pod). PodSet by PodSet, each
resource it requests goes to the ClusterQueue's resource group that covers it, whose flavors are
tried in order: a flavor must match (its ``nodeTaints`` tolerated, its ``nodeLabels`` not contradicted
by the pod's nodeSelector or required node affinity on the flavor's own label keys), then every
resource of the group must fit its quota. A resource *fits* when the PodSet's total (plus what
earlier PodSets took of the same flavor) is within what the ClusterQueue has available (its unused
nominal quota, and what its cohort can lend up to the borrowing limit); it *borrows* when it goes
beyond the nominal quota (the height of the cohort subtree it borrows from); it needs
*preemption* when only evicting Workloads could make room, and it does *not fit* when the value
exceeds what the ClusterQueue could ever get (``potentialAvailable``). The flavor fungibility of
the ClusterQueue (``whenCanBorrow``, ``whenCanPreempt``, ``preference``) decides whether the next
flavor is tried.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

from ..nodes import PodShape, Taint, _term_matches, tolerates
from ..nodes import Node as SchedulingNode
from .kueue_cohort import FR, Node, lowest_subtree_that_fits
from .kueue_objects import NEVER, TRY_NEXT_FLAVOR, ClusterQueue, ResourceFlavor, add, shown, sub

NO_FIT, PREEMPT, FIT = 0, 1, 3  # FlavorAssignmentMode (DeferredFit, 2, is TAS's)
# preemptionMode
G_NO_FIT, G_NO_CANDIDATES, G_PREEMPT, G_RECLAIM, G_FIT = range(5)
MODE_NAMES = {NO_FIT: "NoFit", PREEMPT: "Preempt", FIT: "Fit"}
NO_CANDIDATES, POSSIBLE_PREEMPT, POSSIBLE_RECLAIM = "NoCandidates", "Preempt", "Reclaim"  # PreemptionPossibility
PODS = "pods"

Oracle = Callable[[FR, int], tuple[str, int]]
"""``SimulatePreemption``: (the PreemptionPossibility, the borrowing height after the preemptions)."""


@dataclass(frozen=True)
class PodSet:
    """A PodSet of the Workload: ``count`` pods of one shape."""

    name: str
    count: int
    shape: PodShape
    requests: Mapping[str, int]  # per pod, as Kueue's amounts (cpu in millicores)

    def total(self) -> dict[str, int]:
        return {name: value * self.count for name, value in self.requests.items()}


@dataclass(frozen=True)
class Granular:
    """``granularMode``."""

    preemption: int
    borrowing: int

    def flavor_mode(self) -> int:
        return {G_NO_FIT: NO_FIT, G_FIT: FIT}.get(self.preemption, PREEMPT)


WORST, BEST = Granular(G_NO_FIT, 2**63), Granular(G_FIT, 0)


@dataclass
class FlavorAssignment:
    flavor: str
    mode: int
    borrow: int
    preemption: int = G_FIT  # the granular mode: G_NO_CANDIDATES when no Workload may be preempted


@dataclass
class PodSetAssignment:
    name: str
    count: int
    flavors: dict[str, FlavorAssignment] = field(default_factory=dict)  # resource -> flavor
    reasons: list[str] = field(default_factory=list)
    error: str = ""
    requests: dict[str, int] = field(default_factory=dict)  # the PodSet's totals

    def mode(self) -> int:
        """``PodSetAssignment.RepresentativeMode``."""
        if not self.reasons and not self.error:
            return FIT
        if self.error or not self.flavors:
            return NO_FIT
        return min(f.mode for f in self.flavors.values())

    def message(self) -> str:
        return self.error or ", ".join(sorted(self.reasons))


@dataclass
class Assignment:
    podsets: list[PodSetAssignment] = field(default_factory=list)
    borrowing: int = 0
    usage: dict[FR, int] = field(default_factory=dict)
    fit_values: dict[FR, tuple[int, int]] = field(default_factory=dict)  # fr -> (value asked, available) that failed

    def mode(self) -> int:
        """``Assignment.RepresentativeMode``."""
        if not self.podsets:
            return NO_FIT
        return min(p.mode() for p in self.podsets)

    def message(self) -> str:
        """``Assignment.Message``."""
        out = []
        for ps in self.podsets:
            if ps.mode() == FIT and not ps.reasons and not ps.error:
                continue
            if ps.error:
                return f"failed to assign flavors to pod set {ps.name}: {ps.error}"
            out.append(f"couldn't assign flavors to pod set {ps.name}: {ps.message()}")
        return "; ".join(out)


def is_preferred(a: Granular, b: Granular, cq: ClusterQueue) -> bool:
    """``isPreferred``: whether ``a`` is better than ``b``."""
    if a.preemption == G_NO_FIT:
        return False
    if b.preemption == G_NO_FIT:
        return True
    if (a.preemption == G_NO_CANDIDATES) != (b.preemption == G_NO_CANDIDATES):
        return a.preemption != G_NO_CANDIDATES
    if cq.preference == "PreemptionOverBorrowing":
        if a.borrowing != b.borrowing:
            return a.borrowing < b.borrowing
        return a.preemption > b.preemption
    if a.preemption != b.preemption:
        return a.preemption > b.preemption
    return a.borrowing < b.borrowing


def should_try_next_flavor(mode: Granular, cq: ClusterQueue) -> bool:
    """``shouldTryNextFlavor``."""
    if mode.preemption in (G_NO_FIT, G_NO_CANDIDATES):
        return True
    if mode.preemption in (G_PREEMPT, G_RECLAIM) and cq.when_can_preempt == TRY_NEXT_FLAVOR:
        return True
    return mode.borrowing != 0 and cq.when_can_borrow == TRY_NEXT_FLAVOR


def flavor_mismatch(flavor: ResourceFlavor, shape: PodShape) -> str | None:
    """``checkFlavorForPodSets`` for one PodSet: why the flavor does not match it, or None."""
    tolerations = tuple(shape.tolerations) + tuple(flavor.tolerations)
    for taint in flavor.node_taints:
        if taint.effect in ("NoSchedule", "NoExecute") and not any(tolerates(t, taint) for t in tolerations):
            return f"untolerated taint {_taint_text(taint)} in flavor {flavor.name}"
    keys = set(flavor.node_labels)
    node = SchedulingNode(flavor.name, dict(flavor.node_labels), (), False, {})
    selector = {k: v for k, v in shape.node_selector.items() if k in keys}
    if any(flavor.node_labels.get(k) != v for k, v in selector.items()):
        return f"flavor {flavor.name} doesn't match node affinity"
    terms = _flavor_terms(shape.node_affinity, keys)
    if terms and not any(_term_matches(t, node) for t in terms):
        return f"flavor {flavor.name} doesn't match node affinity"
    return None


def _taint_text(taint: Taint) -> str:
    """A ``corev1.Taint`` as Go's ``%s`` prints the struct: ``{instance spot NoSchedule <nil>}``."""
    return f"{{{taint.key} {taint.value} {taint.effect} <nil>}}"


def _flavor_terms(terms: Sequence[Mapping[str, Any]] | None, keys: set[str]) -> list[dict[str, Any]]:
    """``flavorSelector``: the required terms reduced to the flavor's label keys; a term left
    without an expression drops them all."""
    out = []
    for term in terms or ():
        kept = [e for e in term.get("matchExpressions") or [] if isinstance(e, Mapping) and e.get("key") in keys]
        if not kept:
            return []
        out.append({"matchExpressions": kept})
    return out


class FlavorAssigner:
    """``FlavorAssigner`` on one ClusterQueue of the quota tree."""

    def __init__(self, cq: ClusterQueue, node: Node, flavors: Mapping[str, ResourceFlavor], oracle: Oracle,
                 fair_sharing: bool = False) -> None:
        self.cq, self.node, self.flavors, self.oracle, self.fair_sharing = cq, node, flavors, oracle, fair_sharing

    def assign(self, podsets: Sequence[PodSet]) -> Assignment:
        """``assignFlavors``."""
        assignment = Assignment()
        for podset in podsets:
            requests = podset.total()
            if self.cq.resource_group(PODS) is not None:
                requests[PODS] = podset.count
            psa = PodSetAssignment(podset.name, podset.count, requests=dict(requests))
            status_reasons: list[str] = []
            failed = False
            for name in sorted(requests):
                if self.cq.resource_group(name) is None and requests[name] == 0:
                    continue
                if name in psa.flavors:
                    continue
                flavors, reasons, error = self._find_flavor(podset, requests, name, assignment.usage, assignment)
                if error or (not flavors and requests):
                    psa.flavors, psa.error = {}, error
                    status_reasons = reasons
                    failed = True
                    break
                psa.flavors.update(flavors)
                status_reasons += reasons
            psa.flavors = {r: f for r, f in psa.flavors.items() if r in requests}
            psa.reasons = status_reasons
            assignment.podsets.append(psa)
            for resource, fa in psa.flavors.items():
                assignment.borrowing = max(assignment.borrowing, fa.borrow)
                fr = (fa.flavor, resource)
                assignment.usage[fr] = add(assignment.usage.get(fr, 0), requests.get(resource, 0))
            if failed:
                return assignment
        return assignment

    def _find_flavor(self, podset: PodSet, requests: Mapping[str, int], name: str, usage: Mapping[FR, int],
                     assignment: Assignment) -> tuple[dict[str, FlavorAssignment], list[str], str]:
        """``findFlavorForPodSets``: (the flavors of the resource group's resources, the reasons, an error)."""
        group = self.cq.resource_group(name)
        if group is None:
            return {}, [f"resource {name} unavailable in ClusterQueue"], ""
        covered = {r: v for r, v in requests.items() if r in group.covered}
        reasons: list[str] = []
        best: dict[str, FlavorAssignment] = {}
        best_mode = WORST
        for quotas in group.flavors:
            flavor = self.flavors.get(quotas.name)
            if flavor is None:
                reasons.append(f"flavor {quotas.name} not found")
                continue
            mismatch = flavor_mismatch(flavor, podset.shape)
            if mismatch is not None:
                reasons.append(mismatch)
                continue
            found: dict[str, FlavorAssignment] = {}
            mode = BEST
            for resource in sorted(covered):
                fr = (quotas.name, resource)
                preemption, borrow, why = self._fits(fr, usage.get(fr, 0), covered[resource], assignment)
                reasons += why
                one = Granular(preemption, borrow)
                if is_preferred(mode, one, self.cq):
                    mode = one
                if mode.preemption == G_NO_FIT:
                    continue
                found[resource] = FlavorAssignment(quotas.name, one.flavor_mode(), borrow, preemption)
            if not should_try_next_flavor(mode, self.cq):
                best, best_mode = found, mode
                break
            if is_preferred(mode, best_mode, self.cq):
                best, best_mode = found, mode
        if best_mode.preemption == G_FIT:
            return best, [], ""
        return best, reasons, ""

    def _fits(self, fr: FR, assumed: int, request: int, assignment: Assignment) -> tuple[int, int, list[str]]:
        """``fitsResourceQuota``: (the preemption mode, the borrowing height, the reasons)."""
        flavor, resource = fr
        most = self.node.potential_available(fr)
        value = add(assumed, request)
        if value > most:
            assignment.fit_values[fr] = (value, most)
            return G_NO_FIT, 0, [f"insufficient quota for {resource} in flavor {flavor}, previously considered "
                                 f"podsets requests ({shown(resource, assumed)}) + current podset request "
                                 f"({shown(resource, request)}) > maximum capacity ({shown(resource, most)})"]
        borrow, reclaim_in_hierarchy = lowest_subtree_that_fits(self.node, fr, value)
        available = max(0, self.node.available(fr))
        if value <= available:
            return G_FIT, borrow, []
        assignment.fit_values[fr] = (value, available)
        why = [f"insufficient unused quota for {resource} in flavor {flavor}, {shown(resource, sub(value, available))} "
               "more needed"]
        quota = self.cq.quotas().get(fr)
        nominal = quota.nominal if quota is not None else 0
        if nominal >= value or reclaim_in_hierarchy or self._preempt_while_borrowing():
            possibility, after = self.oracle(fr, value)
            return {NO_CANDIDATES: G_NO_CANDIDATES, POSSIBLE_PREEMPT: G_PREEMPT,
                    POSSIBLE_RECLAIM: G_RECLAIM}[possibility], after, why
        return G_NO_FIT, borrow, why

    def _preempt_while_borrowing(self) -> bool:
        """``canPreemptWhileBorrowing``."""
        return self.cq.preemption.borrow_within_cohort != NEVER or \
            (self.fair_sharing and self.cq.preemption.reclaim_within_cohort != NEVER)


