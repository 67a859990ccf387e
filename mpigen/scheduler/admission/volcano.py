"""Will Volcano enqueue a job's PodGroup? Volcano v1.15.1's enqueue decision, ported from its code.

A PodGroup is created Pending; the scheduler's ``enqueue`` action (``pkg/scheduler/actions/
enqueue/enqueue.go``) moves it to Inqueue, and only then are its pods scheduled. Here:

* **The queue must exist and be Open.** Volcano's admission webhook refuses a PodGroup whose queue
  does not exist or is not Open (``pkg/webhooks/admission/podgroups/validate``: "can only submit
  PodGroup to queue with state `Open`"), so the operator cannot create it; a PodGroup in the
  ``default`` queue goes to the queue its namespace's annotation ``scheduling.volcano.sh/
  queue-name`` names (``.../podgroups/mutate``). The scheduler creates the ``root`` and
  ``default`` queues itself.
* **No minResources, no question**: enqueue admits such a PodGroup at once; without the
  ``enqueue`` action the allocate action moves every PodGroup to Inqueue itself (``allocate.go``).
* **The plugins vote** (``Session.JobEnqueueable``, ``framework/session_plugins.go``): tier by
  tier, a plugin that rejects ends it (no), a tier in which one permits ends it (yes). The
  plugins ported are overcommit, proportion and capacity (:mod:`.volcano_plugins`); sla,
  resourcequota and extender also vote and are not evaluated: where they could change the
  answer, the verdict says "may not".
* **The order** (``Execute``): queues in the queue order (their ``priority``, then their share),
  each one's Pending PodGroups in the job order (priority, then creation time); the PodGroup
  judged is the newest. Those enqueued before it in the same session take their part first.

The verdict (:class:`~.verdict.Admission`): *cannot admit* when the current state turns it down
(a proof: the queue's or the cluster's limit, what holds it and what the gang needs), *may not
admit* when the Pending PodGroups ahead of it would, or when a plugin mpigen does not evaluate
could, else *admits* with the queue's share. Volcano never evicts pods for a PodGroup that is not
enqueued (the preempt and reclaim actions skip Pending jobs), which the refusal says when only
lower-priority PodGroups hold the room.
"""

from __future__ import annotations

from functools import cmp_to_key
from typing import Any, Mapping, Sequence

from ...operator.podgroup import _parse_list
from .objects import DEFAULT_QUEUE, DEFAULT_VOLCANO_CONF, OPEN, VOLCANO_VERSION, VolcanoConf
from .resource import Resource
from .verdict import ADMITS, CANNOT_ADMIT, MAY_NOT_ADMIT, Admission
from .volcano_plugins import PERMIT, REJECT, Overcommit, Proof, QueueQuota, Vote
from .volcano_session import LATEST, PENDING, Job, Session, VolcanoCluster, open_session, pods_request, \
    priority_of, queues_of

SCHEDULER = f"Volcano {VOLCANO_VERSION}"
QUEUE_ANNOTATION = "scheduling.volcano.sh/queue-name"
PORTED = {"overcommit": Overcommit, "proportion": QueueQuota, "capacity": QueueQuota}
NOT_EVALUATED = {  # plugins with a JobEnqueueableFn mpigen does not port
    "sla": "the sla plugin (it admits a job that has waited past its sla-waiting-time)",
    "resourcequota": "the resourcequota plugin (the namespace's ResourceQuota)",
    "extender": "the extender plugin (an HTTP scheduler extender)",
}
NO_PREEMPTION = ("Volcano evicts nothing for a PodGroup that is not enqueued (the preempt and reclaim actions "
                 "skip Pending jobs)")


class _Voters:
    """The configuration's plugins that vote on enqueue, opened on one session."""

    def __init__(self, conf: VolcanoConf, session: Session) -> None:
        self.session = session
        self.tiers: list[list[Any]] = []  # a plugin object, or the name of one not evaluated
        self.ordering: Any = None  # the first plugin with a queue order (proportion, capacity)
        self.job_order = any(p.name == "priority" and p.job_order for tier in conf.tiers for p in tier)
        for tier in conf.tiers:
            voters: list[Any] = []
            for option in tier:
                if option.name in PORTED:
                    plugin = PORTED[option.name](option, session)
                    if self.ordering is None and isinstance(plugin, QueueQuota) and option.queue_order:
                        self.ordering = plugin
                    if option.job_enqueued:
                        voters.append(getattr(plugin, "unknown", "") or plugin)
                elif option.name in NOT_EVALUATED and option.job_enqueued:
                    voters.append(NOT_EVALUATED[option.name])
            self.tiers.append(voters)

    def vote(self, job: Job) -> tuple[bool, Proof | None, list[str]]:
        """``JobEnqueueable``: (enqueued, the proof of a refusal, the plugins not evaluated that
        could have changed the answer, described). A plugin not evaluated is taken to abstain; one
        could turn a refusal into an admission only from an earlier tier (a tier ends at the first
        refusal), and an admission into a refusal from its tier or an earlier one."""
        earlier: list[str] = []
        for voters in self.tiers:
            found = False
            unknown = [v for v in voters if isinstance(v, str)]
            for voter in voters:
                if isinstance(voter, str):
                    continue
                result: Vote = voter.enqueueable(job)
                if result.value == REJECT:
                    return False, result.proof, earlier
                found = found or result.value == PERMIT
            if found:
                return True, None, earlier + unknown
            earlier += unknown
        return True, None, earlier

    def enqueued(self, job: Job) -> None:
        for voters in self.tiers:
            for voter in voters:
                if not isinstance(voter, str):
                    voter.enqueued(job)

    def queue_order(self, left: str, right: str) -> int:
        """``Session.QueueOrderFn``: the ordering plugin's, else creation time, then name (the UID)."""
        if self.ordering is not None and (found := self.ordering.queue_order(left, right)):
            return found
        lq, rq = self.session.queues[left], self.session.queues[right]
        return -1 if (lq.created, left) < (rq.created, right) else 1 if (lq.created, left) > (rq.created, right) else 0

    def job_key(self, job: Job) -> tuple[Any, ...]:
        return (-job.priority if self.job_order else 0, job.created, job.key)


def _verdict(outcome: str, queue: str, basis: str, *reasons: str) -> Admission:
    return Admission(outcome, SCHEDULER, queue, tuple(reasons), basis)


def _basis(cluster: VolcanoCluster, conf: VolcanoConf) -> str:
    def count(n: int, what: str) -> str:
        return f"{n} {what}{'s' * (n != 1)}"

    queues = count(len(cluster.queues), "Queue")
    if cluster.pods:
        held = f"{queues}, {count(len(cluster.podgroups), 'PodGroup')} and {count(len(cluster.pods), 'Pod')}"
    elif cluster.podgroups:
        held = (f"{queues} and {count(len(cluster.podgroups), 'PodGroup')}, no Pods: a Running PodGroup counts as "
                "holding its minResources")
    else:
        held = f"{queues}, no PodGroups or Pods: nothing else is taken to run"
    origin = getattr(cluster, "origin", None)  # a live cluster's context, or the cluster file
    return f"{conf.source}; {origin.name if origin is not None else 'the cluster file'}'s {held}"


def _said(proof: Proof) -> str:
    """The proof's sentence, with the plugin and the event it records on the PodGroup."""
    return proof.sentence() + (f" ({proof.plugin} plugin: {proof.event})" if proof.event else f" ({proof.plugin} plugin)")


def _refusal(proof: Proof, job: Job) -> str:
    """A refusal's sentence, with what could make room."""
    text = _said(proof)
    if not proof.lines:
        return text
    if any(s.need > (s.limit if s.ceiling is None else s.ceiling) for s in proof.lines):
        return text + ", so the PodGroup stays Pending however little else runs"
    lower = {j.key for s in proof.lines for j, _ in s.holders if j.priority < job.priority}
    enough = all(s.ceiling is None and s.need + sum(part for j, part in s.holders if j.key not in lower) <= s.limit
                 for s in proof.lines)
    if lower and enough:
        names = ", ".join(sorted(lower))
        return (text + f": only the lower-priority PodGroups {names} hold the room it lacks, and {NO_PREEMPTION}, "
                "so it waits until they finish")
    return text + f": it waits until enough of what holds the room finishes ({NO_PREEMPTION})"


def enqueue_verdict(podgroup: Mapping[str, Any], roles: Sequence[Any] | None,
                    cluster: VolcanoCluster) -> Admission | None:
    """Whether Volcano enqueues ``podgroup`` (a ``scheduling.volcano.sh/v1beta1`` PodGroup as the
    operator creates it; ``roles``: its gang's pods, :class:`mpigen.scheduler.fit.Role`) in
    ``cluster``; None when the cluster file holds no Queues (nothing is known of them)."""
    if not cluster.queues:
        return None
    conf = cluster.volcano_conf or DEFAULT_VOLCANO_CONF
    basis = _basis(cluster, conf)
    meta, spec = podgroup.get("metadata") or {}, podgroup.get("spec") or {}
    namespace = meta.get("namespace") or "default"
    name = spec.get("queue") or DEFAULT_QUEUE
    notes = []
    annotated = (cluster.namespace_annotations.get(namespace) or {}).get(QUEUE_ANNOTATION)
    if name == DEFAULT_QUEUE and annotated:
        notes.append(f"the namespace {namespace}'s annotation {QUEUE_ANNOTATION} puts the PodGroup in queue "
                     f"{annotated} (Volcano's PodGroup webhook)")
        name = annotated
    queues = queues_of(cluster)
    if name not in queues:
        known = ", ".join(sorted(queues))
        return _verdict(CANNOT_ADMIT, name, basis, *notes,
                        f"queue {name} does not exist (the queues: {known}): Volcano's PodGroup webhook refuses the "
                        "PodGroup (\"unable to find queue\"), so the operator cannot create it, and the scheduler "
                        "ignores a PodGroup whose queue it does not know")
    queue = queues[name]
    if queue.state != OPEN:
        return _verdict(CANNOT_ADMIT, name, basis, *notes,
                        f"queue {name} is {queue.state}: Volcano's PodGroup webhook refuses a PodGroup in a queue "
                        f"that is not Open (\"can only submit PodGroup to queue with state `Open`\"), and the "
                        "enqueue action turns one down")
    if "enqueue" not in conf.actions:
        return _verdict(ADMITS, name, basis, *notes, "the configuration has no enqueue action: the allocate action "
                        "moves every PodGroup to Inqueue itself")
    if spec.get("minResources") is None:
        return _verdict(ADMITS, name, basis, *notes, "the PodGroup has no minResources: the enqueue action admits it "
                        "without asking the plugins")
    minimum = _parse_list(spec["minResources"])
    key = f"{namespace}/{meta.get('name') or '?'}"
    pods = pods_request(roles) if roles else Resource.of(minimum)

    def candidate() -> Job:
        return Job(key, name, PENDING, spec.get("minMember") or 0, minimum,
                   priority_of(cluster, spec.get("priorityClassName") or ""), LATEST)

    alone = _Voters(conf, open_session(cluster, candidate(), pods))
    job = alone.session.candidate
    admitted, proof, unknown = alone.vote(job)
    uncertain = list(dict.fromkeys(unknown))
    if not admitted:
        assert proof is not None
        if uncertain:
            return _verdict(MAY_NOT_ADMIT, name, basis, *notes, _refusal(proof, job),
                            f"unless {' or '.join(uncertain)}, which vote first and mpigen does not evaluate, admit it")
        return _verdict(CANNOT_ADMIT, name, basis, *notes, _refusal(proof, job))

    ahead, proof = _in_order(conf, cluster, candidate(), pods)
    if proof is not None:
        holding = {j.key for line in proof.lines for j, _ in line.holders}
        names = ", ".join(j.key for j in ahead if j.key in holding) or ", ".join(j.key for j in ahead)
        return _verdict(MAY_NOT_ADMIT, name, basis, *notes,
                        f"the Pending PodGroups {names} come before it in the enqueue order (queue priority and "
                        f"share, then job priority and age) and would be enqueued first; then {_said(proof)}")
    share = alone.ordering.share_note(job) if alone.ordering is not None else f"queue {name}"
    if uncertain:
        return _verdict(MAY_NOT_ADMIT, name, basis, *notes, share,
                        f"{' and '.join(uncertain)} also vote{'s' * (len(uncertain) == 1)}, which mpigen does not "
                        "evaluate")
    return _verdict(ADMITS, name, basis, *notes, share)


def _in_order(conf: VolcanoConf, cluster: VolcanoCluster, job: Job, pods: Resource) -> tuple[list[Job], Proof | None]:
    """``Execute`` up to the candidate: (the jobs enqueued before it, the proof if it is then
    turned down)."""
    voters = _Voters(conf, open_session(cluster, job, pods))
    session = voters.session
    pending: dict[str, list[Job]] = {}
    for one in session.jobs:
        if one.phase == PENDING:
            pending.setdefault(one.queue, []).append(one)
    ahead: list[Job] = []
    for queue in sorted(pending, key=cmp_to_key(voters.queue_order)):
        for one in sorted(pending[queue], key=voters.job_key):
            if one.candidate:
                admitted, proof, _ = voters.vote(one)
                return ahead, None if admitted else proof
            if one.min_resources is None or voters.vote(one)[0]:
                voters.enqueued(one)
                ahead.append(one)
    return ahead, None
