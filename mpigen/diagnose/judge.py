"""Why a live job is where it is: the objects read (:class:`~.gather.Observed`) -> its phase, the
causes (diagnostics of the catalogue's codes, each at the object it comes from) and the evidence.

* **phase**: the job's own conditions (Succeeded, or Complete for a TrainJob; Failed; Suspended,
  or ``suspend`` set; Running), else Pending; a TrainJob is Running when all its pods run;
* **what the operator created** beside what mpigen's port says it creates (:mod:`.expected`):
  a missing object (``object-missing``), a PodGroup whose minMember, minResources, queue or
  priorityClassName differ (``podgroup-differs``);
* **why it is held**: Kueue's Workload not admitted (``workload-not-admitted``), a job suspended
  by its own spec (``job-suspended``), the queue's verdict (``queue-cannot-admit``...: Volcano's
  enqueue, through :func:`mpigen.scheduler.admission.podgroup_admission`) and the gang's
  (``gang-cannot-fit``...: :func:`mpigen.scheduler.fit.gang_fit`) on the live state while the
  PodGroup waits, the gang scheduler's own words (``podgroup-unschedulable``), each pod's last
  scheduling failure (``pod-unschedulable``); a failed job's condition (``job-failed``).

The answer is the phase and the first cause in that order of weight.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Mapping

from ..diagnostics import Diagnostic, Severity
from ..load.cluster import Cluster
from ..scheduler.admission import podgroup_admission
from ..scheduler.admission.verdict import ADMITS, CANNOT_ADMIT
from ..scheduler.fit import CANNOT_FIT, FITS, gang_fit
from ..versions import DEFAULT_OPERATOR_VERSION, OperatorVersion
from .evidence import (condition, conditions_text, elastic_quota_text, event_text, failed_pod_text,
                       kueue_queue_text, latest_event, mapping, meta, name_of, names, object_name, podgroup_differences,
                       podgroup_text, resource_name, said, volcano_queue_text)
from .expected import GANGS, OPERATORS, Expected, expected, gang_of_job
from .gather import QUEUE_NAME_LABEL, VOLCANO_QUEUE_ANNOTATION, Observed

PENDING, RUNNING, SUCCEEDED, FAILED, SUSPENDED = "Pending", "Running", "Succeeded", "Failed", "Suspended"
HELD = (PENDING, SUSPENDED, FAILED)
"""The phases ``mpigen diagnose`` exits 1 for."""

WEIGHT = ("not-created", "operator-crash", "trainjob-invalid", "trainingruntime-invalid", "trainjob-runtime-missing",
          "job-failed", "workload-not-admitted", "job-suspended", "queue-cannot-admit", "gang-cannot-fit",
          "object-missing", "podgroup-unschedulable", "pod-unschedulable", "queue-may-not-admit",
          "gang-may-not-fit", "podgroup-differs")
"""Which cause the answer gives first."""


@dataclass(frozen=True)
class Fact:
    """One line of evidence, and the object it comes from."""

    source: str
    text: str


@dataclass(frozen=True)
class Diagnosis:
    job: str  # mpijobs.kubeflow.org/bert -n research
    phase: str
    answer: str  # one line, in plain words
    causes: tuple[Diagnostic, ...]
    evidence: tuple[Fact, ...]


def _cause(source: str, code: str, severity: Severity, message: str) -> Diagnostic:
    return Diagnostic(source, None, None, "", code, severity, message)


def job_phase(seen: Observed, pods_running: int, pods_expected: int) -> tuple[str, dict[str, Any] | None]:
    """The job's phase, and the condition that says it."""
    job = seen.job
    failed = condition(job, "Failed", "True")
    done = condition(job, "Complete" if job.get("kind") == "TrainJob" else "Succeeded", "True")
    if failed is not None and (done is None or str(failed.get("lastTransitionTime") or "")
                               >= str(done.get("lastTransitionTime") or "")):
        return FAILED, failed
    if done is not None:
        return SUCCEEDED, done
    spec = mapping(job.get("spec"))
    suspended = condition(job, "Suspended", "True")
    if suspended is not None or spec.get("suspend") is True or mapping(spec.get("runPolicy")).get("suspend") is True:
        return SUSPENDED, suspended
    running = condition(job, "Running", "True")
    if running is not None:
        return RUNNING, running
    if job.get("kind") == "TrainJob" and pods_expected and pods_running >= pods_expected:
        return RUNNING, None
    return PENDING, None


def _running(pod: Mapping[str, Any]) -> bool:
    return mapping(pod.get("status")).get("phase") == "Running" and not meta(pod).get("deletionTimestamp")


def judge(seen: Observed, version: OperatorVersion = DEFAULT_OPERATOR_VERSION) -> Diagnosis:
    """The phase, causes and evidence of the job ``seen``."""
    job_source = resource_name(str(seen.job.get("apiVersion") or seen.kind.api_version), seen.kind.kind, seen.name)
    gang = gang_of_job(seen.job, seen.podgroups, seen.gang_option)
    plan = expected(seen.job, gang, seen.cluster, version)
    pods = [p for p in seen.pods or [] if not meta(p).get("deletionTimestamp")]
    running = sum(1 for p in pods if _running(p))
    phase, said_by = job_phase(seen, running, plan.pods)
    causes: list[Diagnostic] = []
    short: dict[Diagnostic, str] = {}  # a cause -> what the answer says of it
    facts: list[Fact] = [Fact(job_source, conditions_text(seen.job))]

    def cause(source: str, code: str, severity: Severity, message: str, answer: str | None = None) -> None:
        found = _cause(source, code, severity, message)
        causes.append(found)
        short[found] = answer or message

    if plan.problem is not None:
        cause(job_source, plan.problem[0], Severity.ERROR, plan.problem[1])
    if phase == FAILED:
        text = said(said_by or {"type": "Failed", "status": "True"})
        cause(job_source, "job-failed", Severity.ERROR, f"the job failed: {text}",
              f"{said_by.get('reason') or 'failed'}: {said_by.get('message') or ''}".rstrip(": ") if said_by else None)
    finished = phase in (SUCCEEDED, FAILED)
    live_group = _live_podgroup(seen, plan)
    waiting = live_group is None or _podgroup_waits(live_group)

    if not finished:
        _created(seen, plan, live_group, job_source, facts, cause)
    _podgroup(seen, plan, live_group, finished, facts, cause)
    if seen.queue is not None:
        facts.append(Fact(object_name(seen.queue), volcano_queue_text(seen.queue)))
    if phase == SUSPENDED:
        _suspended(seen, job_source, cause)
    _kueue(seen, facts)
    if phase == PENDING:
        _verdicts(seen, plan, live_group if live_group is not None else plan.podgroup, waiting, facts, cause)
        _pods(seen, pods, facts, cause)
    if phase == FAILED:
        facts += [Fact(object_name(p), text) for p in seen.pods or [] if (text := failed_pod_text(p))]
    _events(seen, job_source, live_group, facts)
    if seen.pods is not None:
        scheduled = sum(1 for p in pods if mapping(p.get("spec")).get("nodeName"))
        facts.append(Fact("pods", f"{running} of {plan.pods} pods running, {scheduled} bound to a node "
                                  f"({len(pods)} exist)"))

    causes.sort(key=lambda d: WEIGHT.index(d.code) if d.code in WEIGHT else len(WEIGHT))
    return Diagnosis(f"{job_source} -n {seen.namespace}", phase, _answer(phase, said_by, causes, short, running,
                                                                          plan.pods),
                     tuple(causes), tuple(facts))


def _answer(phase: str, said_by: dict[str, Any] | None, causes: list[Diagnostic], short: dict[Diagnostic, str],
            running: int, total: int) -> str:
    if phase == RUNNING:
        return f"Running: {running} of {total} pods"
    if phase == SUCCEEDED:
        return SUCCEEDED
    if causes:
        return f"{phase}: {short[causes[0]]}"
    if phase == SUSPENDED:
        return f"{SUSPENDED}: {said(said_by)}" if said_by else SUSPENDED
    return f"{PENDING}: {running} of {total} pods running; no cause found in what could be read"


def _live_podgroup(seen: Observed, plan: Expected) -> dict[str, Any] | None:
    """The PodGroup the cluster holds for the job: of the gang scheduler mpigen expects, else any."""
    want = (plan.podgroup or {}).get("apiVersion")
    return next((g for g in seen.podgroups if g.get("apiVersion") == want), seen.podgroups[0] if seen.podgroups
                else None)


def _podgroup_waits(group: Mapping[str, Any]) -> bool:
    """Whether the gang scheduler has not admitted the PodGroup yet (Volcano: Pending, not Inqueue)."""
    phase = mapping(group.get("status")).get("phase") or "Pending"
    if GANGS.get(group.get("apiVersion")) == "volcano":
        return phase == "Pending"
    return phase in ("Pending", "PreScheduling", "Scheduling")


def _namespace_queue(seen: Observed) -> str | None:
    if seen.cluster is None:
        return None
    return (seen.cluster.namespace_annotations.get(seen.namespace) or {}).get(VOLCANO_QUEUE_ANNOTATION)


def _created(seen: Observed, plan: Expected, live_group: dict[str, Any] | None, job_source: str,
             facts: list[Fact], cause: Any) -> None:
    """What the operator created beside what mpigen says it creates."""
    operator = OPERATORS[seen.kind.kind]
    holds_pods = (GANGS.get((live_group or {}).get("apiVersion")) == "volcano" and seen.kind.kind != "MPIJob"
                  and seen.kind.kind != "TrainJob" and live_group is not None and _podgroup_waits(live_group))
    missing = []
    for obj in plan.objects:
        key = (str(obj.get("kind")), name_of(obj))
        if obj.get("kind") == "PodGroup" or key not in seen.created or seen.created[key] is not None:
            continue
        missing.append(object_name(obj))
    group = plan.podgroup
    if group is not None and ("PodGroup", name_of(group)) in seen.created and live_group is None:
        missing.insert(0, object_name(group))
    pods_wanted = [name_of(o) for o in plan.objects if o.get("kind") == "Pod"]
    present = {name_of(p) for p in seen.pods or []}
    lacking = [n for n in pods_wanted if n not in present] if seen.pods is not None else []
    if missing:
        cause(job_source, "object-missing", Severity.ERROR,
              f"{operator} creates {names(missing)} for this job (as mpigen explain computes it) and the cluster has "
              f"no such object: look at the operator's log and the job's events",
              f"{names(missing)} {'does' if len(missing) == 1 else 'do'} not exist")
    if lacking and holds_pods:
        phase = mapping(live_group.get("status")).get("phase") or "Pending"
        facts.append(Fact(job_source, f"{operator} creates the pods ({names(lacking)}) once Volcano enqueues the "
                                      f"PodGroup (Inqueue): it is {phase}"))
    elif lacking:
        cause(job_source, "object-missing", Severity.ERROR,
              f"{operator} creates the pods {names(lacking)} ({len(lacking)} of {len(pods_wanted)}) for this job and "
              "the cluster has none of them", f"{len(lacking)} of {len(pods_wanted)} pods do not exist")
    found = sum(1 for obj in seen.created.values() if obj is not None)
    text = f"{operator} creates {_created_summary(plan)} (as mpigen explain computes it)"
    if seen.created:
        text += f"; of those read back (not the ConfigMaps and Secrets), {found} of {len(seen.created)} exist"
    if pods_wanted and seen.pods is not None:
        text += f", and {len(pods_wanted) - len(lacking)} of the {len(pods_wanted)} Pods"
    facts.append(Fact(job_source, text))


def _created_summary(plan: Expected) -> str:
    shown: dict[str, int] = {}
    for obj in plan.objects:
        label = str(obj.get("kind"))
        shown[label] = shown.get(label, 0) + 1
    return ", ".join(f"{n} {k}{'s' * (n != 1)}" for k, n in shown.items()) or "nothing"


def _podgroup(seen: Observed, plan: Expected, live: dict[str, Any] | None, finished: bool, facts: list[Fact],
              cause: Any) -> None:
    if live is None:
        return
    source = object_name(live)
    status = mapping(live.get("status"))
    facts.append(Fact(source, f"phase {status.get('phase') or 'Pending'}; {podgroup_text(live)}; "
                              f"{conditions_text(live)}"))
    computed = plan.podgroup
    if computed is not None and computed.get("apiVersion") == live.get("apiVersion"):
        differences = podgroup_differences(live, computed, _namespace_queue(seen))
        if differences:
            cause(source, "podgroup-differs", Severity.WARNING,
                  f"the PodGroup differs from the one mpigen computes for the job: {'; '.join(differences)}")
        else:
            facts.append(Fact(source, "as mpigen computes it for the job"))
    if finished:
        return
    held = condition(live, "Unschedulable", "True")
    if held is not None and _podgroup_waits(live):
        cause(source, "podgroup-unschedulable", Severity.ERROR, f"the gang scheduler holds the PodGroup: {said(held)}")


def _suspended(seen: Observed, job_source: str, cause: Any) -> None:
    """Why a suspended job is: Kueue's Workload, or the job's own spec."""
    workload = seen.workload
    labelled = (meta(seen.job).get("labels") or {}).get(QUEUE_NAME_LABEL)
    if workload is not None:
        admitted = condition(workload, "Admitted", "True")
        if admitted is None:
            why = condition(workload, "QuotaReserved", "False") or condition(workload, "Admitted") \
                or condition(workload, "Evicted", "True")
            reason = said(why) if why is not None else "no condition yet"
            cause(object_name(workload), "workload-not-admitted", Severity.ERROR,
                  f"Kueue has not admitted Workload {name_of(workload)} (queue "
                  f"{mapping(workload.get('spec')).get('queueName') or '?'}): {reason}; the job stays suspended until "
                  "it does", f"Kueue has not admitted Workload {name_of(workload)} ({reason})")
        return
    if labelled:
        cause(job_source, "workload-not-admitted", Severity.ERROR,
              f"the job names the Kueue queue {labelled} ({QUEUE_NAME_LABEL}) and there is no Workload for it: "
              f"Kueue has not taken the job (is Kueue's integration for {seen.kind.kind} enabled?)",
              f"Kueue has no Workload for the job (queue {labelled})")
        return
    cause(job_source, "job-suspended", Severity.WARNING,
          "the job is suspended by its own spec (suspend: true): the operator runs no pods until it is false",
          "the job's spec says suspend: true")


def _kueue(seen: Observed, facts: list[Fact]) -> None:
    if seen.workload is not None:
        spec = mapping(seen.workload.get("spec"))
        facts.append(Fact(object_name(seen.workload), f"queue {spec.get('queueName') or '?'}; "
                                                      f"{conditions_text(seen.workload)}"))
    for queue in (seen.local_queue, seen.cluster_queue):
        if queue is not None:
            facts.append(Fact(object_name(queue), kueue_queue_text(queue)))


def _without_own_pods(cluster: Cluster, namespace: str, own: set[str]) -> tuple[Cluster, int]:
    """The cluster as if the job's own pods were not bound (they are judged as the gang)."""
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
    return replace(cluster, nodes=tuple(nodes[n.name] for n in cluster.nodes),
                   bound_pods=cluster.bound_pods - removed), removed


def _verdicts(seen: Observed, plan: Expected, group: dict[str, Any] | None, waiting: bool, facts: list[Fact],
              cause: Any) -> None:
    """The gang and queue verdicts on the live state, while the PodGroup waits."""
    cluster, gang = seen.cluster, plan.gang_pods
    if cluster is None or gang is None or not waiting:
        return
    own = {name_of(p) for p in seen.pods or []}
    if cluster.nodes:
        alone, _ = _without_own_pods(cluster, seen.namespace, own)
        verdict = gang_fit(gang.roles, gang.min_member, alone.nodes, alone.bound_pods, cluster.origin)
        if verdict.outcome == FITS:
            facts.append(Fact("nodes", verdict.message()))
        else:
            cause("nodes", "gang-cannot-fit" if verdict.outcome == CANNOT_FIT else "gang-may-not-fit",
                  Severity.ERROR if verdict.outcome == CANNOT_FIT else Severity.WARNING, verdict.message(),
                  f"the gang {verdict.outcome} {verdict.where}: " + "; and ".join(verdict.reasons))
    if group is None:
        return
    admitted = podgroup_admission(group, gang.roles, cluster)
    if admitted is None:
        return
    volcano = GANGS.get(group.get("apiVersion")) == "volcano"
    source = resource_name(str(group.get("apiVersion")), "Queue", admitted.queue) if volcano else object_name(group)
    if admitted.outcome == ADMITS:
        facts.append(Fact(source, admitted.message()))
        return
    cannot = admitted.outcome == CANNOT_ADMIT
    cause(source, "queue-cannot-admit" if cannot else "queue-may-not-admit",
          Severity.ERROR if cannot else Severity.WARNING, admitted.message(),
          f"{admitted.headline}: " + "; and ".join(admitted.reasons))


def _pods(seen: Observed, pods: list[dict[str, Any]], facts: list[Fact], cause: Any) -> None:
    """Each pod not bound to a node: its PodScheduled condition and latest FailedScheduling event,
    pods that say the same in one line."""
    said_of: dict[str, list[str]] = {}
    for pod in pods:
        if mapping(pod.get("spec")).get("nodeName"):
            continue
        name = name_of(pod)
        held = condition(pod, "PodScheduled", "False")
        event = latest_event(seen.events or [], "Pod", name, "FailedScheduling")
        parts = ([f"PodScheduled={held.get('status')} ({held.get('reason') or '?'}): "
                  f"{str(held.get('message') or '').strip()}"] if held is not None else [])
        if event is not None:
            parts.append(f"latest event {event_text(event)}")
        if parts:
            said_of.setdefault("; ".join(parts), []).append(name)
    for text, who in said_of.items():
        source = f"pods/{who[0]}" if len(who) == 1 else f"pods/{who[0]} (and {len(who) - 1} more)"
        cause(source, "pod-unschedulable", Severity.ERROR,
              f"{'pod ' + who[0] if len(who) == 1 else 'pods ' + names(who)} not scheduled: {text}",
              f"{'pod ' + who[0] if len(who) == 1 else f'{len(who)} pods'} not scheduled: {text}")
    for quota in seen.elastic_quotas:
        facts.append(Fact(object_name(quota), elastic_quota_text(quota)))


def _events(seen: Observed, job_source: str, group: dict[str, Any] | None, facts: list[Fact]) -> None:
    """The latest Warning event of the job, its PodGroup and its Workload."""
    if not seen.events:
        return
    subjects = [(seen.kind.kind, seen.name, job_source)]
    if group is not None:
        subjects.append(("PodGroup", name_of(group), object_name(group)))
    if seen.workload is not None:
        subjects.append(("Workload", name_of(seen.workload), object_name(seen.workload)))
    for kind, name, source in subjects:
        event = latest_event(seen.events, kind, name, warning=True)
        if event is not None:
            facts.append(Fact(source, f"latest Warning event {event_text(event)}"))
