"""Gang scheduling, written out: the PodGroup decisions the operator makes at run time.

The user's explicit ``scheduling`` fields go into ``runPolicy.schedulingPolicy`` first; then
mpigen asks its port of the operator (``mpigen.operator.podgroup``) what the PodGroup would
get and writes every resolved value back, so that the manifest says what will happen:

- Volcano: minAvailable, queue, priorityClass, minResources (computed only from v0.5.0; before,
  only an explicit value reaches the PodGroup); scheduleTimeoutSeconds is never passed.
- scheduler-plugins: minAvailable, minResources, scheduleTimeoutSeconds (0 when unset, as the
  operator sends it); queue and priorityClass are not passed to the PodGroup.

Because the resolved values are explicit, the operator computes the same PodGroup from the
manifest as from the short spec, whatever the worker count an overlay sets.
"""

from __future__ import annotations

from typing import Any

from ..diagnostics import Severity
from ..operator import podgroup
from ..operator.versions import format_version

Finding = tuple[tuple, str, Severity, str]


def apply_gang(job: dict[str, Any], scheduling: dict[str, Any], priority_classes: dict[str, int] | None,
               version: tuple[int, int, int]) -> tuple[dict[str, Any], list[Finding]]:
    """A copy of ``job`` with an explicit schedulingPolicy and decorated pod templates."""
    gang = scheduling.get("gang", "none")
    if gang == "none":
        return job, []
    findings: list[Finding] = []
    scheduler_name = scheduling.get("schedulerName", podgroup.DEFAULT_SCHEDULER_PLUGINS_NAME)
    explicit: dict[str, Any] = {}
    for key in ("minAvailable", "queue", "priorityClass", "minResources", "scheduleTimeoutSeconds"):
        if key in scheduling:
            explicit[key] = scheduling[key]
    if "minResources" in explicit:
        from ..expand.defaults import resource_list

        explicit["minResources"] = resource_list(explicit["minResources"])

    spec = dict(job["spec"])
    run_policy = dict(spec["runPolicy"])
    run_policy["schedulingPolicy"] = explicit
    spec["runPolicy"] = run_policy
    job = dict(job, spec=spec)

    known = priority_classes or {}
    version_text = format_version(version)
    min_member = podgroup.calculate_min_available(job)
    resolved: dict[str, Any] = {"minAvailable": min_member}
    if gang == podgroup.GANG_VOLCANO:
        queue = explicit.get("queue") or (job["metadata"].get("annotations") or {}).get(
            "scheduling.volcano.sh/queue-name", "")
        if queue:
            resolved["queue"] = queue
        priority = podgroup.calculate_priority_class_name(job)
        if priority:
            resolved["priorityClass"] = priority
        if "scheduleTimeoutSeconds" in explicit:
            resolved["scheduleTimeoutSeconds"] = explicit["scheduleTimeoutSeconds"]
    else:
        for key in ("queue", "priorityClass"):
            if key in explicit:
                resolved[key] = explicit[key]
    # Up to v0.4.x Volcano gets only an explicit minResources; the port knows each version's rule.
    try:
        min_resources = podgroup.calculate_min_resources(min_member, job, known, version=version_text, gang=gang)
    except podgroup.OperatorPanicError as exc:
        return job, [(("spec", "scheduling", "gang"), "operator-crash", Severity.ERROR, str(exc))]
    if min_resources is not None:
        resolved["minResources"] = {name: str(q) for name, q in sorted(min_resources.items())}
    if gang == podgroup.GANG_SCHEDULER_PLUGINS:  # unset: the operator sends 0 (spec_rules warns)
        resolved["scheduleTimeoutSeconds"] = explicit.get("scheduleTimeoutSeconds", 0)
    run_policy["schedulingPolicy"] = resolved

    replicas = dict(spec["mpiReplicaSpecs"])
    for role, replica in replicas.items():
        template = podgroup.decorate_pod_template(replica["template"], job["metadata"]["name"], gang,
                                                  scheduler_name=scheduler_name)
        replicas[role] = dict(replica, template=template)
    spec["mpiReplicaSpecs"] = replicas
    findings.extend(_order_findings(job, known, priority_classes is not None, min_member))
    return job, findings


def _order_findings(job: dict[str, Any], known: dict[str, int], have_cluster: bool,
                    min_member: int) -> list[Finding]:
    """Warn when minResources depends on PriorityClass values mpigen was not told."""
    replicas = job["spec"]["mpiReplicaSpecs"]
    total = sum(r.get("replicas", 0) for r in replicas.values())
    if total <= min_member or have_cluster:
        return []
    names = {r["template"]["spec"].get("priorityClassName") for r in replicas.values()}
    if len(names) > 1:
        return [(("spec", "priorityClassName"), "priority-order", Severity.WARNING,
                 "the launcher and the workers carry different PriorityClasses and minAvailable leaves pods "
                 "out of the gang: minResources depends on the classes' values; pass --cluster with the "
                 "cluster's PriorityClasses (mpigen assumed priority 0 for both)")]
    return []
