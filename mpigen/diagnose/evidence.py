"""What the objects of a live job say, in words: their conditions, a queue's state and use, a pod's
last scheduling failure (its PodScheduled condition and its latest FailedScheduling event), and
how a PodGroup differs from the one mpigen computes. Pure functions on the objects as the API
server returns them.
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping

from ..operator.podgroup import _parse
from ..operator.quantity import Quantity

SHOWN = 3
"""Names listed before ``and N more``."""


def mapping(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def meta(obj: Mapping[str, Any] | None) -> dict[str, Any]:
    return mapping((obj or {}).get("metadata"))


def name_of(obj: Mapping[str, Any] | None) -> str:
    return str(meta(obj).get("name") or "?")


def object_name(obj: Mapping[str, Any]) -> str:
    """``pods/bert-worker-0``, ``podgroups.scheduling.volcano.sh/bert``: as kubectl names it."""
    return resource_name(str(obj.get("apiVersion") or ""), str(obj.get("kind") or "?"), name_of(obj))


def resource_name(api_version: str, kind: str, name: str) -> str:
    group = api_version.split("/")[0] if "/" in api_version else ""
    plural = kind.lower() + ("es" if kind.lower().endswith("s") else "s")
    return f"{plural}.{group}/{name}" if group else f"{plural}/{name}"


def names(items: Iterable[str]) -> str:
    """``a, b, c and 4 more``."""
    items = list(items)
    shown = ", ".join(items[:SHOWN])
    return shown + (f" and {len(items) - SHOWN} more" if len(items) > SHOWN else "")


def conditions(obj: Mapping[str, Any] | None) -> list[dict[str, Any]]:
    """The status conditions, the last of each type (as the controllers keep one a type)."""
    found: dict[str, dict[str, Any]] = {}
    for condition in mapping((obj or {}).get("status")).get("conditions") or []:
        if isinstance(condition, dict) and isinstance(condition.get("type"), str):
            found[condition["type"]] = condition
    return list(found.values())


def condition(obj: Mapping[str, Any] | None, kind: str, status: str | None = None) -> dict[str, Any] | None:
    """The condition of type ``kind`` (with that status, when given)."""
    found = next((c for c in conditions(obj) if c["type"] == kind), None)
    if found is None or (status is not None and str(found.get("status")) != status):
        return None
    return found


def said(found: Mapping[str, Any]) -> str:
    """``Unschedulable=True (NotEnoughResources): 3/3 tasks in gang unschedulable``."""
    text = f"{found.get('type')}={found.get('status')}"
    if found.get("reason"):
        text += f" ({found['reason']})"
    message = str(found.get("message") or "").strip()
    return text + (f": {message}" if message else "")


def conditions_text(obj: Mapping[str, Any] | None) -> str:
    found = conditions(obj)
    return "; ".join(said(c) for c in found) if found else "no conditions"


def quantities(raw: Any) -> str:
    """``cpu=4, nvidia.com/gpu=8`` (sorted by name), or ``none``."""
    items = mapping(raw)
    return ", ".join(f"{k}={items[k]}" for k in sorted(items)) or "none"


def _quantity(value: Any) -> Quantity | str:
    try:
        return _parse(value)
    except (ValueError, TypeError):
        return str(value)


def same_quantities(left: Any, right: Any) -> bool:
    """Whether two resource lists are equal as quantities (``1000m`` is ``1``)."""
    left, right = mapping(left), mapping(right)
    return left.keys() == right.keys() and all(_quantity(left[k]) == _quantity(right[k]) for k in left)


def _stamp(event: Mapping[str, Any]) -> str:
    """When an event last happened (RFC 3339 text sorts in time order)."""
    series = mapping(event.get("series"))
    return str(series.get("lastObservedTime") or event.get("lastTimestamp") or event.get("eventTime")
               or meta(event).get("creationTimestamp") or "")


def latest_event(events: Iterable[Mapping[str, Any]], kind: str, name: str,
                 reason: str | None = None, warning: bool = False) -> Mapping[str, Any] | None:
    """The latest event about the object (``involvedObject``), of that reason or type Warning."""
    found = [e for e in events if mapping(e.get("involvedObject")).get("kind") == kind
             and mapping(e.get("involvedObject")).get("name") == name
             and (reason is None or e.get("reason") == reason) and (not warning or e.get("type") == "Warning")]
    return max(found, key=_stamp) if found else None


def event_text(event: Mapping[str, Any]) -> str:
    """``FailedScheduling (x12, last 2026-11-26T20:00:00Z): 0/4 nodes are available: ...``."""
    count = event.get("count") or mapping(event.get("series")).get("count")
    when = _stamp(event)
    detail = ", ".join(part for part in (f"x{count}" if count and count != 1 else "", f"last {when}" if when else "")
                       if part)
    return f"{event.get('reason') or '?'}" + (f" ({detail})" if detail else "") + \
        f": {str(event.get('message') or '').strip()}"


def podgroup_text(group: Mapping[str, Any]) -> str:
    """A PodGroup's spec as the gang scheduler reads it."""
    spec = mapping(group.get("spec"))
    parts = [f"minMember {spec.get('minMember') or 0}", f"minResources {quantities(spec.get('minResources'))}"]
    if group.get("apiVersion", "").startswith("scheduling.volcano.sh/"):
        parts.append(f"queue {spec.get('queue') or 'default'}")
        parts.append(f"priorityClassName {spec.get('priorityClassName') or 'none'}")
    return ", ".join(parts)


def podgroup_differences(live: Mapping[str, Any], computed: Mapping[str, Any], namespace_queue: str | None
                         ) -> list[str]:
    """How the PodGroup the cluster holds differs from the one mpigen computes for the job: its
    minMember, minResources, queue and priorityClassName (the queue ``default`` is the
    namespace's queue, where its annotation names one: Volcano's PodGroup webhook sets it)."""
    have, want = mapping(live.get("spec")), mapping(computed.get("spec"))
    out = []
    if (have.get("minMember") or 0) != (want.get("minMember") or 0):
        out.append(f"minMember {have.get('minMember') or 0}, mpigen computes {want.get('minMember') or 0}")
    if not same_quantities(have.get("minResources"), want.get("minResources")):
        out.append(f"minResources {quantities(have.get('minResources'))}, mpigen computes "
                   f"{quantities(want.get('minResources'))}")
    if live.get("apiVersion", "").startswith("scheduling.volcano.sh/"):
        queue = want.get("queue") or "default"
        if queue == "default" and namespace_queue:
            queue = namespace_queue
        if (have.get("queue") or "default") != queue:
            out.append(f"queue {have.get('queue') or 'default'}, mpigen computes {queue}")
        if (have.get("priorityClassName") or "") != (want.get("priorityClassName") or ""):
            out.append(f"priorityClassName {have.get('priorityClassName') or 'none'}, mpigen computes "
                       f"{want.get('priorityClassName') or 'none'}")
    return out


def volcano_queue_text(queue: Mapping[str, Any]) -> str:
    """A Volcano Queue's state, limits and use."""
    spec, status = mapping(queue.get("spec")), mapping(queue.get("status"))
    parts = [f"state {status.get('state') or 'Open'}", f"capability {quantities(spec.get('capability'))}"]
    if spec.get("deserved"):
        parts.append(f"deserved {quantities(spec.get('deserved'))}")
    if mapping(spec.get("guarantee")).get("resource"):
        parts.append(f"guarantee {quantities(spec['guarantee']['resource'])}")
    parts.append(f"allocated {quantities(status.get('allocated'))}")
    counts = [f"{status[k]} {k}" for k in ("pending", "inqueue", "running", "unknown", "completed") if status.get(k)]
    parts.append("PodGroups: " + (", ".join(counts) if counts else "none"))
    return "; ".join(parts)


def kueue_queue_text(queue: Mapping[str, Any]) -> str:
    """A Kueue LocalQueue's or ClusterQueue's workloads, use and conditions."""
    spec, status = mapping(queue.get("spec")), mapping(queue.get("status"))
    parts = []
    if queue.get("kind") == "LocalQueue":
        parts.append(f"clusterQueue {spec.get('clusterQueue') or '?'}")
    else:
        if spec.get("cohort") or spec.get("cohortName"):
            parts.append(f"cohort {spec.get('cohort') or spec.get('cohortName')}")
        for group in spec.get("resourceGroups") or []:
            for flavor in mapping(group).get("flavors") or []:
                quotas = ", ".join(f"{mapping(r).get('name')}={mapping(r).get('nominalQuota')}"
                                   for r in mapping(flavor).get("resources") or [])
                parts.append(f"flavor {mapping(flavor).get('name')} nominal quota {quotas or 'none'}")
    parts.append(f"{status.get('pendingWorkloads') or 0} pending, {status.get('admittedWorkloads') or 0} admitted "
                 "Workloads")
    for usage in status.get("flavorsUsage") or status.get("flavorUsage") or []:
        used = ", ".join(f"{mapping(r).get('name')}={mapping(r).get('total')}"
                         + (f" (borrowed {mapping(r)['borrowed']})" if mapping(r).get("borrowed") not in (None, "0", 0)
                            else "")
                         for r in mapping(usage).get("resources") or [])
        parts.append(f"flavor {mapping(usage).get('name')} in use {used or 'none'}")
    found = conditions(queue)
    if found:
        parts.append("; ".join(said(c) for c in found))
    return "; ".join(parts)


def elastic_quota_text(quota: Mapping[str, Any]) -> str:
    spec, status = mapping(quota.get("spec")), mapping(quota.get("status"))
    return (f"min {quantities(spec.get('min'))}; max {quantities(spec.get('max'))}; "
            f"used {quantities(status.get('used'))}")


def failed_pod_text(pod: Mapping[str, Any]) -> str:
    """How a pod's containers ended, when one ended in failure: ``container launcher terminated:
    Error, exit code 1``; "" otherwise."""
    status = mapping(pod.get("status"))
    ended = []
    for container in (status.get("initContainerStatuses") or []) + (status.get("containerStatuses") or []):
        state = mapping(mapping(container).get("state")).get("terminated") or \
            mapping(mapping(container).get("lastState")).get("terminated")
        if isinstance(state, dict) and state.get("exitCode") not in (None, 0):
            message = str(state.get("message") or "").strip()
            ended.append(f"container {mapping(container).get('name')} terminated: {state.get('reason') or '?'}, "
                         f"exit code {state.get('exitCode')}" + (f": {message}" if message else ""))
    if not ended:
        return ""
    return f"phase {status.get('phase') or '?'}; " + "; ".join(ended)
