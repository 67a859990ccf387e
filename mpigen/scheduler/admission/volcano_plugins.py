"""The Volcano scheduler plugins that vote on a PodGroup's enqueue, ported from Volcano v1.15.1.

* **overcommit** (``pkg/scheduler/plugins/overcommit/overcommit.go``): the cluster's idle
  resources are every node's allocatable times ``overcommit-factor`` (1.2 unless the
  configuration says otherwise; below 1 it is 1.2 again), less what the Pods on the nodes
  request; what is already Inqueue (its minResources) or Running (its minResources less what it
  holds) reserves its part; a PodGroup whose minResources no longer fit what is left stays
  Pending ("resource in cluster is overused").
* **proportion** (``pkg/scheduler/plugins/proportion/proportion.go``): a queue that is not Open
  takes nothing; otherwise the PodGroup's minResources, with what the queue's jobs hold and
  reserve (less what they hold beyond their own minResources), must fit the queue's real
  capability: its ``capability`` where set, and at most the cluster's total less the other
  queues' ``guarantee`` ("queue resource quota insufficient"). Its deserved share (the queue
  order, and the note of what the gang gets) is the weighted water-filling of ``OnSessionOpen``.
* **capacity** (``pkg/scheduler/plugins/capacity/capacity.go``): the same test with the queue's
  ``deserved`` as its share; with ``enableHierarchy`` every queue is a node of the tree its
  ``parent`` fields make (``root`` at the top, unlimited), a child's real capability is its
  parent's less its siblings' guarantees (``checkHierarchicalQueue``), a PodGroup must be in a leaf
  queue, and it must fit its queue and every ancestor (``checkJobEnqueueableHierarchically``).

Amounts are compared only for the resources the PodGroup's minResources ask
(``LessEqualWithDimensionAndResourcesName``). Dynamic resource claims (the capacity plugin's DRA
quotas) are not evaluated.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .objects import OPEN, ROOT_QUEUE, PluginOption, VolcanoQueue
from .resource import (INFINITY, MAX_FLOAT, PODS, UNLIMITED_SCALAR, ZERO, Resource, exceeded_part, maximum, share,
                       shown)
from .volcano_session import INQUEUE, RUNNING, Job, Session

PERMIT, ABSTAIN, REJECT = 1, 0, -1
DEFAULT_OVERCOMMIT_FACTOR = 1.2


@dataclass(frozen=True)
class Vote:
    value: int
    proof: "Proof | None" = None


@dataclass(frozen=True)
class Proof:
    """Why a plugin turned a job down: the limit and what holds it, resource by resource."""

    plugin: str
    event: str  # the PodGroup event the plugin records
    where: str  # "queue research", "the cluster's 4 nodes"
    lines: tuple["Shortage", ...] = ()
    text: str = ""  # a whole reason, when not a shortage

    def sentence(self) -> str:
        if self.text:
            return self.text
        return (f"{self.where}: " if self.where else "") + "; ".join(s.sentence() for s in self.lines)


@dataclass(frozen=True)
class Shortage:
    """One resource over its limit."""

    name: str
    limit_text: str  # "capability 8 nvidia.com/gpu", "the cluster's 32 nvidia.com/gpu allocatable (4 nodes)"
    limit: float
    held: float
    holders: tuple[tuple[Job, float], ...]  # the jobs that hold it, with their part
    need: float
    held_word: str = "in use"
    ceiling: float | None = None  # the limit if nothing ran (when it is not ``limit``)

    def sentence(self) -> str:
        held = (f"{shown(self.name, self.held)} {self.held_word} by {len(self.holders)} PodGroup"
                f"{'s' if len(self.holders) != 1 else ''} ({', '.join(j.key for j, _ in self.holders)})"
                if self.holders else f"none {self.held_word}")
        return f"{self.limit_text}, {held}; this gang needs {shown(self.name, self.need)}"


def _holders(parts: dict[str, tuple[Job, Resource]], name: str) -> tuple[tuple[Job, float], ...]:
    return tuple((job, res.get(name)) for job, res in parts.values() if res.get(name) >= 0.1)


class Overcommit:
    """``overcommitPlugin``. Without the cluster's Nodes it is not evaluated (:attr:`unknown`)."""

    name = "overcommit"

    def __init__(self, option: PluginOption, session: Session) -> None:
        self.unknown = "" if session.nodes else "the overcommit plugin (no Nodes were read)"
        factor = option.arguments.get("overcommit-factor", DEFAULT_OVERCOMMIT_FACTOR)
        factor = float(factor) if isinstance(factor, (int, float)) and not isinstance(factor, bool) \
            else DEFAULT_OVERCOMMIT_FACTOR  # GetFloat64 leaves the default for anything else
        self.factor = DEFAULT_OVERCOMMIT_FACTOR if factor < 1.0 else factor
        self.session = session
        self.idle = session.total.clone().multi(self.factor).sub(session.used)
        self.inqueue = Resource()
        self.parts: dict[str, tuple[Job, Resource]] = {}
        for job in session.jobs:
            if job.min_resources is None:
                continue
            if job.phase == INQUEUE:
                self._hold(job, job.deduct_gated(job.min_req))
            elif job.phase == RUNNING and job.allocated_count >= job.min_member:
                self._hold(job, job.deduct_gated(job.inqueue_resource()))

    def _hold(self, job: Job, res: Resource) -> None:
        self.inqueue.add(res)
        if not res.is_empty():
            self.parts[job.key] = (job, res)

    def enqueueable(self, job: Job) -> Vote:
        if job.min_resources is None:
            return Vote(PERMIT)
        need = job.min_req
        ok, names = Resource().add(self.inqueue).add(need).fits_in(self.idle, need)
        if ok:
            return Vote(PERMIT)
        return Vote(REJECT, Proof(self.name, "resource in cluster is overused",
                                  f"the cluster's {self.session.nodes} node{'s' * (self.session.nodes != 1)}",
                                  tuple(self._shortage(n, need) for n in names)))

    def _shortage(self, name: str, need: Resource) -> Shortage:
        total, used = self.session.total.get(name), self.session.used.get(name)
        text = f"{shown(name, total)} {name} allocatable x overcommit-factor {self.factor:g}"
        if used:
            by = "their Pods" if self.session.pods_known else "the Running PodGroups"
            text += f", less {shown(name, used)} requested by {by},"
        text += f" leave {shown(name, self.idle.get(name))}"
        return Shortage(name, text, self.idle.get(name), self.inqueue.get(name), _holders(self.parts, name),
                        need.get(name), "reserved", total * self.factor)

    def enqueued(self, job: Job) -> None:
        if job.min_resources is not None:
            self._hold(job, job.deduct_gated(job.min_req))


@dataclass
class QueueAttr:
    """``queueAttr`` of the proportion and capacity plugins."""

    queue: VolcanoQueue
    deserved: Resource
    capability: Resource | None = None
    real_capability: Resource | None = None
    guarantee: Resource = field(default_factory=Resource)
    allocated: Resource = field(default_factory=Resource)
    request: Resource = field(default_factory=Resource)
    elastic: Resource = field(default_factory=Resource)
    inqueue: Resource = field(default_factory=Resource)
    share: float = 0.0
    limit_texts: dict[str, str] = field(default_factory=dict)  # resource -> how its real capability came about
    parts: dict[str, tuple[Job, Resource]] = field(default_factory=dict)  # what each job holds of it
    ancestors: list[str] = field(default_factory=list)
    children: list[str] = field(default_factory=list)

    def update_share(self) -> None:
        """``updateQueueAttrShare``."""
        self.share = max([share(self.allocated.get(n), self.deserved.get(n)) for n in self.deserved.names()],
                         default=0.0)

    def use(self) -> Resource:
        return self.allocated.clone().add(self.inqueue).sub(self.elastic)


def _capability(queue: VolcanoQueue) -> Resource | None:
    """``NewResource(queue.Spec.Capability)`` with unset cpu and memory unlimited, or None."""
    if not queue.capability:
        return None
    capability = Resource.of(queue.capability)
    if capability.milli_cpu <= 0:
        capability.milli_cpu = MAX_FLOAT
    if capability.memory <= 0:
        capability.memory = MAX_FLOAT
    return capability


class QueueQuota:
    """``proportionPlugin`` (``name`` proportion) and ``capacityPlugin`` (capacity, optionally
    with ``enableHierarchy``)."""

    def __init__(self, option: PluginOption, session: Session) -> None:
        self.name = option.name
        self.hierarchy = option.name == "capacity" and option.hierarchy
        self.session = session
        self.attrs: dict[str, QueueAttr] = {}
        self.broken = ""  # why the hierarchy cannot be built (every PodGroup is then turned down)
        self.total_guarantee = Resource()
        for queue in session.queues.values():
            if queue.guarantee:
                self.total_guarantee.add(Resource.of(queue.guarantee))
        if self.hierarchy:
            self._build_hierarchy()
        else:
            self._build_flat()

    # -- the queues' attributes at the session's opening

    def _new_attr(self, queue: VolcanoQueue) -> QueueAttr:
        deserved = Resource.of(queue.deserved) if self.name == "capacity" else Resource()
        return QueueAttr(queue, deserved, guarantee=Resource.of(queue.guarantee) if queue.guarantee else Resource())

    @staticmethod
    def _account(attr: QueueAttr, job: Job) -> None:
        """Add ``job``'s tasks and reservations to ``attr``, and record what the job holds of it."""
        inqueue = Resource()
        if job.min_resources is not None and (job.phase == INQUEUE or (
                job.phase == RUNNING and job.allocated_count >= job.min_member)):
            inqueue = job.deduct_gated(job.inqueue_resource())
        attr.allocated.add(job.allocated)
        attr.request.add(job.request)
        attr.inqueue.add(inqueue)
        attr.elastic.add(job.elastic)
        held = job.allocated.clone().add(inqueue).sub(job.elastic)
        if not held.is_empty():
            attr.parts[job.key] = (job, held)

    def _build_flat(self) -> None:
        """``OnSessionOpen`` of proportion, ``buildQueueAttrs`` of capacity: the queues with jobs."""
        for job in self.session.jobs:
            attr = self.attrs.get(job.queue)
            if attr is None:
                queue = self.session.queues[job.queue]
                attr = self.attrs[job.queue] = self._new_attr(queue)
                attr.capability = _capability(queue)
                real, texts = self._cluster_bound(attr.guarantee)
                if attr.capability is not None:
                    for name in self._names(real):
                        if name in self._names(attr.capability) and attr.capability.get(name) < real.get(name):
                            texts[name] = f"capability {shown(name, attr.capability.get(name))} {name}"
                    real.min_dimension(attr.capability, INFINITY)
                attr.real_capability, attr.limit_texts = real, texts
            self._account(attr, job)
        if self.name == "proportion" and self.session.nodes:
            self._water_fill()
        else:
            for attr in self.attrs.values():
                attr.deserved.min_dimension(attr.real_capability, INFINITY)  # type: ignore[arg-type]
                attr.deserved = maximum(attr.deserved, attr.guarantee)
                attr.update_share()

    @staticmethod
    def _names(*resources: Resource) -> list[str]:
        names = ["cpu", "memory"]
        for r in resources:
            names += [n for n in r.scalars or {} if n not in names]
        return names

    def _cluster_bound(self, guarantee: Resource) -> tuple[Resource, dict[str, str]]:
        """``ExceededPart(total, totalGuarantee).Add(guarantee)``, and how to say it; unlimited
        when the cluster file has no Nodes (only the queue's capability is then known)."""
        total, nodes = self.session.total, self.session.nodes
        if not nodes:
            names = {n for job in self.session.jobs for n in job.min_req.scalars or {}}
            names |= {n for q in self.session.queues.values() for n in Resource.of(q.capability).scalars or {}}
            return Resource(MAX_FLOAT, MAX_FLOAT, {n: MAX_FLOAT for n in sorted(names)}), {}
        real = exceeded_part(total, self.total_guarantee).add(guarantee)
        texts = {}
        for name in self._names(real, total):
            others = self.total_guarantee.get(name) - guarantee.get(name)
            text = f"the cluster's {shown(name, total.get(name))} {name} allocatable ({nodes} node{'s' * (nodes != 1)})"
            if others > 0:
                text += f" less {shown(name, others)} guaranteed to other queues"
            texts[name] = text
        return real, texts

    def _water_fill(self) -> None:
        """The deserved loop of proportion's ``OnSessionOpen``."""
        remaining = self.session.total.clone()
        meet: set[str] = set()
        attrs = sorted(self.attrs.values(), key=lambda a: a.queue.name)
        while True:
            total_weight = sum(a.queue.weight for a in attrs if a.queue.name not in meet)
            if total_weight == 0:
                break
            old_remaining = remaining.clone()
            increased, decreased = Resource(), Resource()
            for attr in attrs:
                if attr.queue.name in meet:
                    continue
                old = attr.deserved.clone()
                attr.deserved.add(remaining.clone().multi(attr.queue.weight / total_weight))
                if attr.real_capability is not None:
                    attr.deserved.min_dimension(attr.real_capability, INFINITY)
                attr.deserved.min_dimension(attr.request, ZERO)
                attr.deserved = maximum(attr.deserved, attr.guarantee)
                attr.update_share()
                if attr.request.less_equal(attr.deserved, ZERO) or attr.deserved.same(old):
                    meet.add(attr.queue.name)
                more, less = attr.deserved.diff(old, ZERO)
                increased.add(more)
                decreased.add(less)
            remaining = exceeded_part(remaining.clone().add(decreased), increased)
            if remaining.is_empty() or remaining.same(old_remaining):
                break

    def _build_hierarchy(self) -> None:
        """``buildHierarchicalQueueAttrs``: every queue, its ancestors, the jobs' use added up the tree."""
        queues = self.session.queues
        for queue in queues.values():
            self.attrs[queue.name] = self._new_attr(queue)
            self.attrs[queue.name].capability = Resource.of(queue.capability) if queue.capability else Resource()
        for queue in queues.values():
            path, seen, name = [], {queue.name}, queue.name
            while name != ROOT_QUEUE:
                parent = queues[name].parent or ROOT_QUEUE
                if parent not in queues:
                    self.broken = f"queue {name}'s parent {parent} does not exist"
                    return
                if parent in seen:
                    self.broken = f"the queues' parents make a cycle through queue {parent}"
                    return
                seen.add(parent)
                path.insert(0, parent)
                name = parent
            self.attrs[queue.name].ancestors = path
            if path:
                self.attrs[path[-1]].children.append(queue.name)
        for job in self.session.jobs:
            attr = self.attrs[job.queue]
            if attr.children and not job.candidate:
                self.broken = f"PodGroup {job.key} is in queue {job.queue}, which is not a leaf of the hierarchy"
                return
            for name in [job.queue, *attr.ancestors]:  # the deltas go to every ancestor too
                self._account(self.attrs[name], job)
        root = self.attrs[ROOT_QUEUE]
        if root.capability is None or root.capability.is_empty():
            unlimited = Resource(MAX_FLOAT, MAX_FLOAT)
            for name in self.session.total.scalars or {}:
                unlimited.add_scalar(name, UNLIMITED_SCALAR)
            root.capability = unlimited
        root.real_capability = root.capability
        self._check_hierarchy(root)
        for attr in self.attrs.values():
            attr.update_share()

    def _check_hierarchy(self, attr: QueueAttr) -> None:
        """``checkHierarchicalQueue``: children's capability defaults and real capability."""
        total_guarantee, total_deserved = Resource(), Resource()
        children = [self.attrs[c] for c in attr.children]
        for child in children:
            child.deserved = maximum(child.deserved, child.guarantee)
            total_deserved.add(child.deserved)
            total_guarantee.add(child.guarantee)
            assert child.capability is not None and attr.capability is not None
            if child.capability.milli_cpu <= 0:
                child.capability.milli_cpu = attr.capability.milli_cpu
            if child.capability.memory <= 0:
                child.capability.memory = attr.capability.memory
            if attr.capability.scalars is not None:
                if child.capability.scalars is None:
                    child.capability.scalars = {}
                for name, value in attr.capability.scalars.items():
                    child.capability.scalars.setdefault(name, value)
        if attr.queue.name == ROOT_QUEUE:
            attr.guarantee, attr.deserved = total_guarantee, total_deserved
        for child in children:
            real = exceeded_part(attr.real_capability, total_guarantee).add(child.guarantee)
            texts = {}
            for name in self._names(real):
                own = Resource.of(child.queue.capability)
                if name in own.names() and own.get(name) < real.get(name):
                    texts[name] = f"capability {shown(name, own.get(name))} {name}"
                else:
                    less = " less its siblings' guarantees" if not total_guarantee.is_empty() else ""
                    bound = min(real.get(name), child.capability.get(name))  # type: ignore[union-attr]
                    texts[name] = f"at most {shown(name, bound)} {name} (its parent {attr.queue.name}'s{less})"
            real.min_dimension(child.capability, INFINITY)  # type: ignore[arg-type]
            child.real_capability, child.limit_texts = real, texts
        for child in children:
            self._check_hierarchy(child)

    # -- the votes

    def _share_order(self, left: QueueAttr, right: QueueAttr) -> int:
        """Proportion: the lower share first; capacity (``compareShareWithDeserved``): then a queue
        with a deserved before a best-effort one."""
        if left.share != right.share:
            return -1 if left.share < right.share else 1
        if self.name != "capacity" or left.deserved.is_empty() == right.deserved.is_empty():
            return 0
        return 1 if left.deserved.is_empty() else -1

    def queue_order(self, left: str, right: str) -> int:
        """The plugin's ``QueueOrderFn`` (negative: ``left`` first): the higher ``priority``, then
        by share; with the hierarchy, a leaf before an inner queue, and two leaves by their
        ancestors where their paths part (``getQueueLevel``)."""
        queues = self.session.queues
        if queues[left].priority != queues[right].priority:
            return queues[right].priority - queues[left].priority
        lattr, rattr = self.attrs.get(left), self.attrs.get(right)
        if lattr is None or rattr is None:
            return 0
        if not self.hierarchy:
            return self._share_order(lattr, rattr)
        lleaf, rleaf = not lattr.children, not rattr.children
        if lleaf != rleaf:
            return -1 if lleaf else 1
        if not lleaf:
            return self._share_order(lattr, rattr)
        level = 0
        for i in range(min(len(lattr.ancestors), len(rattr.ancestors))):
            if lattr.ancestors[i] != rattr.ancestors[i]:
                break
            level = i
        lside = lattr.ancestors[level + 1] if level + 1 < len(lattr.ancestors) else left
        rside = rattr.ancestors[level + 1] if level + 1 < len(rattr.ancestors) else right
        return self._share_order(self.attrs[lside], self.attrs[rside])

    def enqueueable(self, job: Job) -> Vote:
        if self.broken:
            return Vote(REJECT, Proof(self.name, "", "", text=f"the {self.name} plugin turns every PodGroup down: "
                                      f"{self.broken} (capacity.go buildHierarchicalQueueAttrs)"))
        queue = self.session.queues[job.queue]
        if self.hierarchy and self.attrs[job.queue].children:
            return Vote(REJECT, Proof(self.name, "", "", text=f"queue {job.queue} is not a leaf of the queue "
                                      "hierarchy: the capacity plugin enqueues PodGroups of leaf queues only"))
        if queue.state != OPEN:
            return Vote(REJECT, Proof(self.name, "", "", text=f"queue {queue.name} is {queue.state}"))
        attr = self.attrs[job.queue]
        if attr.real_capability is None or job.min_resources is None:
            return Vote(PERMIT)
        need = job.min_req
        chain = [job.queue, *reversed(attr.ancestors)] if self.hierarchy else [job.queue]
        for name in chain:
            other = self.attrs[name]
            ok, names = need.clone().add(other.allocated).add(other.inqueue).sub(other.elastic) \
                .fits_in(other.real_capability, need)
            if not ok:
                where = f"its ancestor queue {name}" if name != job.queue else ""
                return Vote(REJECT, Proof(self.name, "queue resource quota insufficient", where,
                                          tuple(self._shortage(other, n, need) for n in names)))
        held = job.deduct_gated(need)
        for name in chain:
            self.attrs[name].inqueue.add(held)
            self.attrs[name].parts[job.key] = (job, held)
        return Vote(PERMIT)

    def _shortage(self, attr: QueueAttr, name: str, need: Resource) -> Shortage:
        limit = attr.real_capability.get(name) if attr.real_capability is not None else 0.0
        text = attr.limit_texts.get(name, "")
        if not text or (limit == 0 and not self.session.total.get(name)):
            text = f"no node of the cluster has {name} allocatable"
        return Shortage(name, text, limit, attr.use().get(name), _holders(attr.parts, name), need.get(name))

    def enqueued(self, job: Job) -> None:  # the proportion and capacity plugins have no JobEnqueuedFn
        return None

    def share_note(self, job: Job) -> str:
        """What the gang gets of its queue: its minResources against the queue's limit, and the
        queue's deserved share."""
        attr = self.attrs[job.queue]
        need = job.min_req
        parts = []
        for name in need.names():
            if name == PODS:
                continue
            limit = attr.real_capability.get(name) if attr.real_capability is not None else MAX_FLOAT
            held = attr.use().get(name) - (need.get(name) if job.key in attr.parts else 0.0)
            how = attr.limit_texts.get(name, "")
            source = "capability" if how.startswith("capability") else "its parent's" if "its parent" in how \
                else "the cluster's, less others' guarantees" if "guaranteed" in how else "the cluster's"
            parts.append(f"{shown(name, need.get(name))} of {shown(name, limit)} {name} ({source}; "
                         f"{shown(name, max(held, 0.0))} in use)")
        deserved = ", ".join(f"{n}={shown(n, attr.deserved.get(n))}" for n in attr.deserved.names() if n != PODS)
        if self.name == "proportion" and not self.session.nodes:
            return "this gang needs " + ", ".join(parts) + "; its deserved share is not known (no Nodes in the file)"
        if self.name == "proportion":
            weights = sum(a.queue.weight for a in self.attrs.values())
            share_text = (f"its deserved share, weight {attr.queue.weight} of {weights} among the "
                          f"{len(self.attrs)} queue{'s' * (len(self.attrs) != 1)} with PodGroups")
        else:
            share_text = "its deserved share (spec.deserved)"
        return ("this gang needs " + ", ".join(parts)
                + (f"; {share_text}: {deserved}" if deserved else f"; {share_text}: nothing"))
