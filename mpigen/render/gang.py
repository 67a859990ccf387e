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
from ..operator.quantity import Quantity
from ..versions import OperatorVersion

Finding = tuple[tuple, str, Severity, str]


INT64_MAX = 2**63 - 1
_INT64_MAX = Quantity(INT64_MAX)


def _overflow_findings(min_resources: dict[str, Any]) -> list[Finding]:
    """A gang sum beyond what a Kubernetes quantity holds: the API server stores a binary-suffixed
    value above 2^63-1 as 9223372036854775807 (ParseQuantity's cap), so the PodGroup would not say
    what was computed."""
    out = []
    for name, q in sorted(min_resources.items()):
        if (q.neg() if q.sign() < 0 else q) > _INT64_MAX:  # exact, without importing fractions
            out.append((("spec", "resources"), "quantity-overflow", Severity.WARNING,
                        f"the gang's minResources {name} is {q}, more than a Kubernetes quantity holds "
                        f"({INT64_MAX}): the API server may store another value; check the resources"))
    return out


def _explicit_policy(scheduling: dict[str, Any]) -> dict[str, Any]:
    """The schedulingPolicy fields the user set; minResources as Kubernetes resource names
    (``gpu`` is ``aliyun.com/gpu`` under ACK GPU topology, as in the pods)."""
    from ..expand.defaults import ACK_GPU_RESOURCE, GPU_RESOURCE, resource_list

    explicit = {key: scheduling[key] for key in ("minAvailable", "queue", "priorityClass", "minResources",
                                                 "scheduleTimeoutSeconds") if key in scheduling}
    if "minResources" in explicit:
        gpu = ACK_GPU_RESOURCE if scheduling.get("gpuTopology") else GPU_RESOURCE
        explicit["minResources"] = resource_list(explicit["minResources"], gpu)
    return explicit


def apply_gang(job: dict[str, Any], scheduling: dict[str, Any], priority_classes: dict[str, int] | None,
               version: OperatorVersion) -> tuple[dict[str, Any], list[Finding]]:
    """A copy of ``job`` with an explicit schedulingPolicy and decorated pod templates."""
    gang = scheduling.get("gang", "none")
    if gang == "none":
        return job, []
    findings: list[Finding] = []
    scheduler_name = scheduling.get("schedulerName", podgroup.DEFAULT_SCHEDULER_PLUGINS_NAME)
    explicit = _explicit_policy(scheduling)

    spec = dict(job["spec"])
    run_policy = dict(spec["runPolicy"])
    run_policy["schedulingPolicy"] = explicit
    spec["runPolicy"] = run_policy
    job = dict(job, spec=spec)

    known = priority_classes or {}
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
        min_resources = podgroup.calculate_min_resources(min_member, job, known, version=version, gang=gang)
    except podgroup.OperatorPanicError as exc:
        return job, [(("spec", "scheduling", "gang"), "operator-crash", Severity.ERROR, str(exc))]
    if min_resources is not None:
        resolved["minResources"] = {name: str(q) for name, q in sorted(min_resources.items())}
        findings.extend(_overflow_findings(min_resources))
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
    names = {(r["template"].get("spec") or {}).get("priorityClassName") for r in replicas.values()}
    if len(names) > 1:
        return [(("spec", "priorityClassName"), "priority-order", Severity.WARNING,
                 "the launcher and the workers carry different PriorityClasses and minAvailable leaves pods "
                 "out of the gang: minResources depends on the classes' values; pass --cluster with the "
                 "cluster's PriorityClasses (mpigen assumed priority 0 for both)")]
    return []


def _sorted_metadata(template: dict[str, Any]) -> dict[str, Any]:
    metadata = dict(template.get("metadata") or {})
    for key in ("labels", "annotations"):
        if key in metadata:
            metadata[key] = dict(sorted(metadata[key].items()))
    return dict(template, metadata=metadata)


def apply_training_gang(job: dict[str, Any], scheduling: dict[str, Any],
                        priority_classes: dict[str, int] | None) -> tuple[dict[str, Any], list[Finding]]:
    """A PyTorchJob or TFJob with an explicit schedulingPolicy and decorated pod templates.

    training-operator v1.9.4's rules (:mod:`mpigen.operator.training_podgroup`): minAvailable =
    every replica; Volcano's queue is ``default`` unless set (the queue annotation is not read);
    the PodGroup's priorityClass comes only from schedulingPolicy; scheduleTimeoutSeconds only
    when set. With equal PriorityClasses and a gang smaller than the job the operator's
    minResources depends on Go's random map order: the explicit value mpigen writes removes the
    chance, and a warning says which order it took.
    """
    from ..operator import training_podgroup as tp

    gang = scheduling["gang"]
    scheduler_name = scheduling.get("schedulerName", podgroup.DEFAULT_SCHEDULER_PLUGINS_NAME)
    explicit = _explicit_policy(scheduling)
    spec = dict(job["spec"])
    run_policy = dict(spec["runPolicy"], schedulingPolicy=explicit)
    spec["runPolicy"] = run_policy
    job = dict(job, spec=spec)

    known = priority_classes or {}
    findings: list[Finding] = []
    min_member = tp.calculate_min_member(job)
    resolved: dict[str, Any] = {"minAvailable": min_member}
    if gang == podgroup.GANG_VOLCANO:
        resolved["queue"] = tp.calculate_queue(job, gang)
    elif "queue" in explicit:
        resolved["queue"] = explicit["queue"]
    if "priorityClass" in explicit:
        resolved["priorityClass"] = explicit["priorityClass"]
    try:
        outcomes = tp.min_resources_outcomes(job, min_member, known)
    except tp.OperatorPanicError as exc:
        return job, [(("spec", "scheduling", "gang"), "operator-crash", Severity.ERROR, str(exc))]
    chosen = outcomes[0]
    values = [o for i, o in enumerate(outcomes) if not any(_same_value(o, p) for p in outcomes[:i])]
    random_order = len(values) > 1 and "minResources" not in explicit
    # scheduler-plugins leaves an empty sum out of the PodGroup, but when another order gives a
    # non-empty one the empty value must still be written, or the operator draws one itself.
    if chosen or gang == podgroup.GANG_VOLCANO or random_order:
        resolved["minResources"] = {name: str(q) for name, q in sorted(chosen.items())}
        findings.extend(_overflow_findings(chosen))
    if random_order:
        findings.append((("spec", "scheduling", "minAvailable"), "min-resources-order", Severity.WARNING,
                         "replica types with equal PriorityClass values and a gang smaller than the job: "
                         "training-operator sums their pods in Go's random map order, so its minResources "
                         f"could be any of {len(values)} values; mpigen wrote the one of the spec's order "
                         f"({resolved['minResources']}) explicitly, which the operator then uses as it is"))
    if "scheduleTimeoutSeconds" in explicit:
        resolved["scheduleTimeoutSeconds"] = explicit["scheduleTimeoutSeconds"]
    run_policy["schedulingPolicy"] = resolved

    key = tp.REPLICA_SPECS_KEY[job["kind"]]
    replicas = dict(spec[key])
    for rtype, replica in replicas.items():
        template = tp.decorate_pod_template(replica["template"], job["metadata"]["name"], rtype, gang,
                                            scheduler_name=scheduler_name)
        replicas[rtype] = dict(replica, template=_sorted_metadata(template))
    spec[key] = replicas
    return job, findings


def _same_value(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return a.keys() == b.keys() and all(a[k].cmp(b[k]) == 0 for k in a)


KUBE_BATCH_SCHEDULER = "kube-batch"
KUBE_BATCH_API_VERSION = "scheduling.incubator.k8s.io/v1alpha1"
GROUP_NAME_ANNOTATION = "scheduling.k8s.io/group-name"
KUEUE_QUEUE_LABEL = "kueue.x-k8s.io/queue-name"
KUEUE_PRIORITY_LABEL = "kueue.x-k8s.io/priority-class"


def _replica_specs_key(job: dict[str, Any]) -> str:
    return {"MPIJob": "mpiReplicaSpecs", "PyTorchJob": "pytorchReplicaSpecs", "TFJob": "tfReplicaSpecs"}[job["kind"]]


def _all_pods(job: dict[str, Any]) -> int:
    return sum(r.get("replicas", 1) for r in job["spec"][_replica_specs_key(job)].values())


def apply_kube_batch(job: dict[str, Any], scheduling: dict[str, Any]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """kube-batch, the legacy gang scheduler: pods name it and their group; mpigen writes the PodGroup.

    No current operator creates kube-batch's PodGroup (``scheduling.incubator.k8s.io/v1alpha1``,
    kube-batch v0.5.0), so mpigen emits it beside the job: minMember = scheduling.minAvailable,
    else every pod of the job (an MPIJob's launcher included); the queue and priorityClass when
    given. Pods get schedulerName ``kube-batch`` and the annotation
    ``scheduling.k8s.io/group-name: <job>``; the operator runs without --gang-scheduling and
    copies the templates as they are.
    """
    name = job["metadata"]["name"]
    spec = dict(job["spec"])
    key = _replica_specs_key(job)
    replicas = dict(spec[key])
    for rtype, replica in replicas.items():
        template = dict(replica["template"])
        metadata = dict(template.get("metadata") or {})  # a patch may delete it
        metadata["annotations"] = dict(sorted({**metadata.get("annotations", {}), GROUP_NAME_ANNOTATION: name}.items()))
        pod = dict(template.get("spec") or {})
        pod = {"schedulerName": KUBE_BATCH_SCHEDULER, **pod}
        replicas[rtype] = dict(replica, template=dict(template, metadata=metadata, spec=pod))
    spec[key] = replicas
    job = dict(job, spec=spec)
    meta: dict[str, Any] = {"name": name}
    if job["metadata"].get("namespace"):
        meta["namespace"] = job["metadata"]["namespace"]
    if job["metadata"].get("labels"):
        meta["labels"] = dict(job["metadata"]["labels"])
    group_spec: dict[str, Any] = {"minMember": scheduling.get("minAvailable", _all_pods(job))}
    if scheduling.get("queue"):
        group_spec["queue"] = scheduling["queue"]
    if scheduling.get("priorityClass"):
        group_spec["priorityClassName"] = scheduling["priorityClass"]
    group = {"apiVersion": KUBE_BATCH_API_VERSION, "kind": "PodGroup", "metadata": meta, "spec": group_spec}
    return job, [group]


def apply_kueue(job: dict[str, Any], scheduling: dict[str, Any]) -> dict[str, Any]:
    """Kueue: the job carries its LocalQueue (and WorkloadPriorityClass) as labels; no PodGroup.

    Kueue's webhook suspends the job at creation and resumes it when the workload is admitted,
    so ``runPolicy.suspend`` is left to Kueue (not written).
    """
    metadata = dict(job["metadata"])
    labels = dict(metadata.get("labels") or {})
    labels[KUEUE_QUEUE_LABEL] = scheduling["queue"]
    if scheduling.get("priorityClass"):
        labels[KUEUE_PRIORITY_LABEL] = scheduling["priorityClass"]
    metadata["labels"] = dict(sorted(labels.items()))
    ordered = {}
    for k in ("name", "namespace", "labels", "annotations"):
        if k in metadata:
            ordered[k] = metadata[k]
    return dict(job, metadata=ordered)
