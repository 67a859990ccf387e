"""Will Kueue admit a job's Workload? Kueue v0.19.2's scheduler, ported from its code.

Kueue suspends a job that names a LocalQueue (label ``kueue.x-k8s.io/queue-name``; without it, in a
namespace that has a LocalQueue ``default``, Kueue's webhook puts that one: ``pkg/controller/
jobframework/defaults.go``) and creates a Workload of its PodSets (one per replica type); the job
runs once the Workload is admitted. Here, as ``pkg/scheduler/scheduler.go`` ``nominate`` and
``processEntry`` decide it:

* the LocalQueue must exist and not be stopped, its ClusterQueue must exist and be active (not
  stopped by ``spec.stopPolicy``, no missing ResourceFlavor: ``pkg/cache/scheduler/clusterqueue.go``
  ``updateQueueStatus``), and its ``namespaceSelector`` must select the job's namespace (a null
  selector selects none: ``ValidateAdmissibility``);
* the flavor assigner (:mod:`.kueue_flavors`) then picks, for each PodSet, a flavor per resource
  group, within the ClusterQueue's quota and what its cohort can lend (:mod:`.kueue_cohort`);
* *Fit*: admitted now (borrowing or not); *Preempt*: only evicting Workloads could make room, and
  which ones the ClusterQueue's ``preemption`` allows (``withinClusterQueue`` for its own Workloads
  of lower priority, ``reclaimWithinCohort`` for other ClusterQueues' Workloads that borrow,
  ``borrowWithinCohort``); *NoFit*: it waits, held by the numbers of the proof.

The preemption is estimated (which Workloads the policies allow, and whether evicting them all
would make room), not simulated as Kueue's preemptor does; fair sharing, admission checks,
Topology Aware Scheduling and the order among pending Workloads are not evaluated: where they can
change the answer, the verdict says "may not".
"""

from __future__ import annotations

import dataclasses
from typing import Any, Mapping, Protocol, Sequence

from ..nodes import Node as SchedulingNode
from .kueue_cohort import FR, Node, Tree, build_tree
from .kueue_flavors import (FIT, G_NO_CANDIDATES, NO_CANDIDATES, NO_FIT, POSSIBLE_PREEMPT, POSSIBLE_RECLAIM,
                            Assignment, FlavorAssigner, PodSet)
from .kueue_objects import (KUEUE_VERSION, NEVER, ClusterQueue, Cohort, LocalQueue, ResourceFlavor, Workload,
                            kueue_amount, selector_matches, shown, sub)
from .verdict import ADMITS, CANNOT_ADMIT, MAY_NOT_ADMIT, Admission

SCHEDULER = f"Kueue {KUEUE_VERSION}"
QUEUE_LABEL = "kueue.x-k8s.io/queue-name"
PRIORITY_LABEL = "kueue.x-k8s.io/priority-class"
DEFAULT_LOCAL_QUEUE = "default"


class KueueCluster(Protocol):
    """What the Kueue rules read of a cluster (:class:`mpigen.load.cluster.Cluster` is one)."""

    cluster_queues: Sequence[ClusterQueue]
    cohorts: Sequence[Cohort]
    local_queues: Sequence[LocalQueue]
    resource_flavors: Sequence[ResourceFlavor]
    workloads: Sequence[Workload]
    workload_priority_classes: Mapping[str, int]
    priority_classes: Mapping[str, int]
    default_priority: int
    namespaces: Mapping[str, Mapping[str, str]]
    nodes: Sequence[SchedulingNode]


def uses_kueue(cluster: Any) -> bool:
    """Whether the cluster file (or the live cluster) holds any of Kueue's queues."""
    return bool(getattr(cluster, "local_queues", ()) or getattr(cluster, "cluster_queues", ()))


def queue_of(job: Mapping[str, Any], cluster: KueueCluster) -> tuple[str, str | None]:
    """(the LocalQueue the job's Workload goes to, "" for none; the note when Kueue's webhook
    defaults it)."""
    meta = job.get("metadata") or {}
    name = (meta.get("labels") or {}).get(QUEUE_LABEL) or ""
    if name:
        return str(name), None
    namespace = meta.get("namespace") or "default"
    if any(lq.namespace == namespace and lq.name == DEFAULT_LOCAL_QUEUE for lq in cluster.local_queues):
        return DEFAULT_LOCAL_QUEUE, (f"the job has no label {QUEUE_LABEL}: Kueue's webhook gives it the LocalQueue "
                                     f"{DEFAULT_LOCAL_QUEUE} of namespace {namespace}")
    return "", None


def _count(n: int, what: str) -> str:
    return f"{n} {what}{'s' * (n != 1)}"


def _basis(cluster: KueueCluster) -> str:
    origin = getattr(cluster, "origin", None)
    where = origin.name if origin is not None else "the cluster file"
    return (f"{SCHEDULER}'s default configuration (fair sharing off); {where}'s "
            f"{_count(len(cluster.cluster_queues), 'ClusterQueue')}, {_count(len(cluster.local_queues), 'LocalQueue')}, "
            f"{_count(len(cluster.resource_flavors), 'ResourceFlavor')} and {_count(len(cluster.workloads), 'Workload')}")


def job_priority(job: Mapping[str, Any], cluster: KueueCluster) -> tuple[int | None, str]:
    """The Workload's priority (``pkg/util/priority``): its WorkloadPriorityClass's value, else
    its pods' PriorityClass's, else the globalDefault class's, else 0; None when the class is not
    in the file. And where it comes from."""
    labels = (job.get("metadata") or {}).get("labels") or {}
    if labels.get(PRIORITY_LABEL):
        name = str(labels[PRIORITY_LABEL])
        value = cluster.workload_priority_classes.get(name)
        return value, f"WorkloadPriorityClass {name}"
    for name in _pod_priority_classes(job):
        return cluster.priority_classes.get(name), f"PriorityClass {name}"
    return cluster.default_priority, "the default priority"


def _pod_priority_classes(job: Mapping[str, Any]) -> list[str]:
    """The pods' PriorityClasses, the launcher's (or master's) first, as the integrations'
    ``PriorityClass()`` takes them."""
    spec = job.get("spec") or {}
    out = []
    for key, replicas in spec.items():
        if not key.endswith("ReplicaSpecs") or not isinstance(replicas, dict):
            continue
        for role in sorted(replicas, key=lambda r: (r not in ("Launcher", "Master", "Chief"), r)):
            template = (replicas[role] or {}).get("template") or {}
            name = (template.get("spec") or {}).get("priorityClassName")
            if name:
                out.append(str(name))
    return out


class _Preemption:
    """Which admitted Workloads the ClusterQueue's preemption policies let Kueue evict
    (``pkg/scheduler/preemption/classical``: a superset of the targets its preemptor finds)."""

    def __init__(self, cq: ClusterQueue, node: Node, tree: Tree, workloads: Sequence[Workload],
                 priority: int | None) -> None:
        self.cq, self.node, self.tree, self.priority = cq, node, tree, priority
        self.workloads = [w for w in workloads if w.holds_quota]
        self.found: dict[FR, list[Workload]] = {}

    def _lower(self, workload: Workload, policy: str) -> bool:
        if policy == NEVER:
            return False
        if policy == "Any":
            return True
        return self.priority is None or workload.priority < self.priority

    def candidates(self, fr: FR) -> list[Workload]:
        same = [w for w in self.workloads if w.cluster_queue == self.cq.name and w.usage.get(fr, 0) > 0
                and self._lower(w, self.cq.preemption.within_cluster_queue)]
        others: list[Workload] = []
        if self.node.parent is not None:
            queues = {q.name: q for q in self.node.root().subtree_queues() if q.name != self.cq.name}
            policy = self.cq.preemption.reclaim_within_cohort
            borrow_policy = self.cq.preemption.borrow_within_cohort
            for w in self.workloads:
                queue = queues.get(w.cluster_queue)
                if queue is None or w.usage.get(fr, 0) <= 0:
                    continue
                if (queue.borrowing_with(fr, 0) and self._lower(w, policy)) or self._lower(w, borrow_policy):
                    others.append(w)
        return same + others

    def __call__(self, fr: FR, value: int) -> tuple[str, int]:
        candidates = self.candidates(fr)
        freed = sum(w.usage.get(fr, 0) for w in candidates)
        if not candidates or value > self.node.available(fr) + freed:
            return NO_CANDIDATES, 0
        self.found[fr] = candidates
        reclaim = any(w.cluster_queue != self.cq.name for w in candidates)
        return (POSSIBLE_RECLAIM if reclaim else POSSIBLE_PREEMPT), 0


def podsets_of(roles: Sequence[Any]) -> list[PodSet]:
    """The Workload's PodSets from the job's roles (:class:`mpigen.scheduler.fit.Role`): one per
    replica type, its pods' requests as Kueue counts them."""
    out = []
    for role in roles:
        requests = {name: kueue_amount(name, q) for name, q in role.shape.requests.items()}
        out.append(PodSet(role.name, role.count, role.shape, {n: v for n, v in requests.items() if v}))
    return out


def _verdict(outcome: str, queue: str, basis: str, *reasons: str) -> Admission:
    return Admission(outcome, SCHEDULER, queue, tuple(r for r in reasons if r), basis, "LocalQueue", "the Workload")


def kueue_verdict(job: Mapping[str, Any], roles: Sequence[Any], cluster: KueueCluster) -> Admission | None:
    """Whether Kueue admits the Workload of ``job`` (a manifest as built; ``roles`` its pods, every
    replica) in ``cluster``; None when the job names no LocalQueue or the cluster holds no Kueue
    queues. The job's own Workload, if the cluster already has it (its controller owner is the
    job), is left out: the verdict is on the job as Kueue would judge it anew."""
    if not uses_kueue(cluster):
        return None
    name, note = queue_of(job, cluster)
    if not name:
        return None
    namespace = (job.get("metadata") or {}).get("namespace") or "default"
    own = (str(job.get("kind")), str((job.get("metadata") or {}).get("name")))
    if dataclasses.is_dataclass(cluster) and any(w.namespace == namespace and w.owner == own
                                                 for w in cluster.workloads):
        # the job's own Workload, when it is already submitted: judged as if anew, beside the others
        cluster = dataclasses.replace(cluster, workloads=tuple(  # type: ignore[type-var]
            w for w in cluster.workloads if not (w.namespace == namespace and w.owner == own)))
    basis = _basis(cluster)
    shown_queue = f"{namespace}/{name}"
    local = next((lq for lq in cluster.local_queues if lq.namespace == namespace and lq.name == name), None)
    if local is None:
        known = ", ".join(sorted(lq.name for lq in cluster.local_queues if lq.namespace == namespace)) or "none"
        return _verdict(CANNOT_ADMIT, shown_queue, basis, note or "",
                        f"LocalQueue {shown_queue} does not exist (the LocalQueues of namespace {namespace}: {known}): "
                        "Kueue keeps the job suspended and its Workload pending (\"LocalQueue "
                        f"{name} doesn't exist\")")
    if local.stop_policy not in ("", "None"):
        return _verdict(CANNOT_ADMIT, shown_queue, basis, note or "",
                        f"LocalQueue {shown_queue} is stopped (spec.stopPolicy {local.stop_policy}): Kueue admits "
                        "none of its Workloads")
    queues = {cq.name: cq for cq in cluster.cluster_queues}
    cq = queues.get(local.cluster_queue)
    if cq is None:
        return _verdict(CANNOT_ADMIT, shown_queue, basis, note or "",
                        f"ClusterQueue {local.cluster_queue} of LocalQueue {shown_queue} does not exist: the Workload "
                        f"stays pending (\"ClusterQueue {local.cluster_queue} not found\")")
    problems = _inactive(cq, cluster)
    if problems:
        return _verdict(CANNOT_ADMIT, shown_queue, basis, note or "",
                        f"ClusterQueue {cq.name} is inactive: it {' and '.join(problems)}, so Kueue admits none of its "
                        "Workloads")
    labels = cluster.namespaces.get(namespace)
    if cq.namespace_selector is None or (labels is not None and not selector_matches(cq.namespace_selector, labels)):
        selector = "null (no namespace)" if cq.namespace_selector is None else dict(cq.namespace_selector)
        return _verdict(CANNOT_ADMIT, shown_queue, basis, note or "",
                        f"ClusterQueue {cq.name}'s namespaceSelector {selector} does not select namespace "
                        f"{namespace}: the Workload stays pending (\"workload namespace doesn't match ClusterQueue "
                        "selector\")")
    uncertain = []
    if labels is None and cq.namespace_selector:
        uncertain.append(f"whether ClusterQueue {cq.name}'s namespaceSelector selects namespace {namespace} "
                         "(the Namespaces are not listed)")
    if not cluster.resource_flavors:
        uncertain.append("the ResourceFlavors (none listed: taken to exist, without labels or taints)")
    tree = build_tree(cluster.cluster_queues, cluster.cohorts, cluster.workloads)
    node = tree.queues[cq.name]
    if tree.cycle and _in_cycle(node):
        return _verdict(MAY_NOT_ADMIT, shown_queue, basis, note or "",
                        f"the cohorts {', '.join(tree.cycle)} form a cycle of parents: Kueue does not admit "
                        "through such a cohort")
    podsets = podsets_of(roles)
    priority, priority_source = job_priority(job, cluster)
    flavors = {f.name: f for f in cluster.resource_flavors} or \
        {f.name: ResourceFlavor(f.name) for rg in cq.resource_groups for f in rg.flavors}
    oracle = _Preemption(cq, node, tree, cluster.workloads, priority)
    assignment = FlavorAssigner(cq, node, flavors, oracle).assign(podsets)
    policies = (cq.preemption.within_cluster_queue, cq.preemption.reclaim_within_cohort,
                cq.preemption.borrow_within_cohort)
    unknown = priority_source if priority is None and any(p not in (NEVER, "Any") for p in policies) else ""
    return _decide(assignment, cq, node, oracle, cluster, shown_queue, basis, note, uncertain, unknown)


def _in_cycle(node: Node) -> bool:
    seen: set[str] = set()
    current = node.parent
    while current is not None:
        if current.name in seen:
            return True
        seen.add(current.name)
        current = current.parent
    return False


def _inactive(cq: ClusterQueue, cluster: KueueCluster) -> list[str]:
    """``inactiveReason``, for what mpigen reads."""
    out = []
    if cq.stop_policy not in ("", "None"):
        out.append(f"is stopped (spec.stopPolicy {cq.stop_policy})")
    if cluster.resource_flavors:
        known = {f.name for f in cluster.resource_flavors}
        missing = sorted({f.name for rg in cq.resource_groups for f in rg.flavors} - known)
        if missing:
            out.append(f"references missing ResourceFlavor(s): {', '.join(missing)}")
    return out


def _holders(cluster: KueueCluster, cq: str, fr: FR) -> list[Workload]:
    return [w for w in cluster.workloads if w.holds_quota and w.cluster_queue == cq and w.usage.get(fr, 0) > 0]


def _proof(cq: ClusterQueue, node: Node, fr: FR, value: int, cluster: KueueCluster) -> str:
    """``ClusterQueue team-a: nominalQuota 8 nvidia.com/gpu on flavor a100, 8 in use by 1 Workload
    (ns/w), cohort ai can lend 0; this job needs 16``."""
    flavor, resource = fr
    quota = cq.quotas().get(fr)
    nominal = quota.nominal if quota is not None else 0
    used = node.usage.get(fr, 0)
    holders = _holders(cluster, cq.name, fr)
    held = f"{shown(resource, used)} in use by {_count(len(holders), 'Workload')}"
    if holders:
        held += f" ({', '.join(w.key for w in holders[:5])}{', ...' if len(holders) > 5 else ''})"
    limits = ""
    if quota is not None and quota.borrowing_limit is not None:
        limits += f", borrowingLimit {shown(resource, quota.borrowing_limit)}"
    if quota is not None and quota.lending_limit is not None:
        limits += f", lendingLimit {shown(resource, quota.lending_limit)}"
    if node.parent is None:
        cohort = "no cohort to borrow from"
    else:
        own = max(0, sub(nominal, used))
        lend = max(0, sub(max(0, node.available(fr)), own))
        most = node.potential_available(fr)
        cohort = (f"cohort {node.parent.name} can lend {shown(resource, lend)} now "
                  f"(at most {shown(resource, sub(most, nominal)) if most > nominal else '0'})")
    return (f"ClusterQueue {cq.name}: nominalQuota {shown(resource, nominal)} {resource} on flavor {flavor}{limits}, "
            f"{held}, {cohort}; this job needs {shown(resource, value)}")


def _decide(assignment: Assignment, cq: ClusterQueue, node: Node, oracle: _Preemption, cluster: KueueCluster,
            queue: str, basis: str, note: str | None, uncertain: list[str], unknown_priority: str) -> Admission:
    mode = assignment.mode()
    message = assignment.message()
    if mode == NO_FIT:
        proofs = [_proof(cq, node, fr, value, cluster) for fr, (value, _) in assignment.fit_values.items()]
        never = any(value > node.potential_available(fr) for fr, (value, _) in assignment.fit_values.items())
        tail = (", so the Workload stays pending however little else runs" if never
                else ": the Workload stays pending until enough of what holds the quota finishes")
        reasons = [*(p + tail for p in proofs[:1]), *proofs[1:], f"Kueue: \"{message}\""]
        outcome = MAY_NOT_ADMIT if uncertain else CANNOT_ADMIT
        return _verdict(outcome, queue, basis, note or "", *reasons, *(f"not known: {u}" for u in uncertain))
    if mode != FIT:
        targets = {w.key: w for ws in oracle.found.values() for w in ws}
        no_candidates = all(fa.preemption == G_NO_CANDIDATES for ps in assignment.podsets
                            for fa in ps.flavors.values() if fa.mode != FIT)
        proofs = [_proof(cq, node, fr, value, cluster) for fr, (value, _) in assignment.fit_values.items()
                  if fr in oracle.found or no_candidates]
        if no_candidates or not targets:
            policy = (f"preemption.withinClusterQueue {cq.preemption.within_cluster_queue}, reclaimWithinCohort "
                      f"{cq.preemption.reclaim_within_cohort}, borrowWithinCohort {cq.preemption.borrow_within_cohort}")
            outcome = MAY_NOT_ADMIT if uncertain or unknown_priority else CANNOT_ADMIT
            return _verdict(outcome, queue, basis, note or "", *proofs,
                            f"no admitted Workload that Kueue may preempt ({policy}) would make room, so the Workload "
                            "stays pending until enough of what holds the quota finishes",
                            f"Kueue: \"{message}\"", *(f"not known: {u}" for u in uncertain),
                            f"not known: the value of the {unknown_priority}" if unknown_priority else "")
        names = ", ".join(f"{w.key} (priority {w.priority}, ClusterQueue {w.cluster_queue})"
                          for w in sorted(targets.values(), key=lambda w: (w.priority, w.key)))
        return _verdict(MAY_NOT_ADMIT, queue, basis, note or "", *proofs,
                        f"only preemption could make room: Kueue would evict some of {names} "
                        "(the ClusterQueue's preemption policies allow it), then admit the Workload",
                        f"Kueue: \"{message}\"", *(f"not known: {u}" for u in uncertain))
    share = _share(assignment, cq, node)
    later = []
    if cq.admission_checks:
        later.append(f"the admission checks {', '.join(cq.admission_checks)} of ClusterQueue {cq.name} must then pass "
                     "(mpigen does not evaluate them)")
    ahead = _pending_ahead(cluster, cq, oracle.priority)
    if ahead:
        later.append(f"the pending Workloads {', '.join(w.key for w in ahead[:5])} of ClusterQueue {cq.name} come "
                     "before it (priority, then age) and may take the quota first")
    later += [f"not known: {u}" for u in uncertain]
    return _verdict(MAY_NOT_ADMIT if later else ADMITS, queue, basis, note or "", share, *later)


def _pending_ahead(cluster: KueueCluster, cq: ClusterQueue, priority: int | None) -> list[Workload]:
    queues = {(lq.namespace, lq.name): lq.cluster_queue for lq in cluster.local_queues}
    return [w for w in cluster.workloads if not w.cluster_queue and not w.finished
            and queues.get((w.namespace, w.queue)) == cq.name and (priority is None or w.priority >= priority)]


def _share(assignment: Assignment, cq: ClusterQueue, node: Node) -> str:
    """Which flavor each PodSet gets, and whether it borrows."""
    parts = []
    for ps in assignment.podsets:
        by_flavor: dict[str, list[str]] = {}
        for resource, fa in sorted(ps.flavors.items()):
            by_flavor.setdefault(fa.flavor, []).append(resource)
        flavors = "; ".join(f"flavor {f} for {', '.join(rs)}" for f, rs in by_flavor.items()) or "requests nothing"
        parts.append(f"{ps.name} ({ps.count}): {flavors}")
    borrowed = []
    for (flavor, resource), value in sorted(assignment.usage.items()):
        quota = cq.quotas().get((flavor, resource))
        nominal = quota.nominal if quota is not None else 0
        over = sub(node.usage.get((flavor, resource), 0) + value, nominal)
        if over > 0:
            borrowed.append(f"{shown(resource, over)} {resource} of flavor {flavor}")
    where = (f"borrowing {', '.join(borrowed)} from cohort {node.parent.name}"
             if borrowed and node.parent is not None else "within its nominal quota")
    return f"ClusterQueue {cq.name} admits it now, {where}: " + "; ".join(parts)
