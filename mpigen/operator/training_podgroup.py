"""Gang-scheduling rules of training-operator v1.9.4 for PyTorchJob and TFJob (kubeflow.org/v1).

Ports, at tag **v1.9.4** of kubeflow/training-operator: the gang branch of ``ReconcileJobs``
(``pkg/controller.v1/common/job.go``: minMember, queue, priority class, scheduleTimeout, the two
``FillPodGroupSpecFunc``), ``SyncPodGroup`` (``common/scheduling.go``: name, namespace,
annotations, ownerReferences), ``CalcPGMinResources`` and ``AddResourceList``
(``common/util.go``), ``GetTotalReplicas`` (``pkg/util/k8sutil/k8sutil.go``), ``createNewPod``
and ``isCustomSchedulerSet`` (``common/pod.go``), and ``DecoratePodTemplateSpec`` of
``VolcanoControl`` / ``SchedulerPluginsControl`` (``pkg/controller.v1/control/podgroup_control.go``).
PodGroup shapes: volcano.sh/apis v1.9.0 ``scheduling/v1beta1`` and sigs.k8s.io/scheduler-plugins
v0.34.7 ``scheduling/v1alpha1`` (the versions training-operator v1.9.4 pins; v1.9.0 pinned
scheduler-plugins v0.28.9, whose PodGroup has the same fields).

The operator runs with ``--gang-scheduler-name``: ``volcano`` (any case), or any other non-empty
name, which selects scheduler-plugins with that name as the pods' schedulerName (mpigen's default:
``scheduler-plugins-scheduler``). The rules, for a job that is not suspended and not managed by
another controller (``runPolicy.managedBy``), after ``training_defaults.set_defaults``:

* minMember = ``schedulingPolicy.minAvailable``, else the sum of all replica counts (an unset
  count counts 1; int32 arithmetic). No +1, no special role. 0 (or negative) is kept, but 0 is
  not written (``omitempty``) in either PodGroup.
* Volcano queue = ``schedulingPolicy.queue``, else ``"default"`` (the job's
  ``scheduling.volcano.sh/queue-name`` annotation is NOT consulted). scheduler-plugins: no queue.
* Volcano priorityClassName = ``schedulingPolicy.priorityClass`` only (no fallback to the pod
  templates). scheduler-plugins: none.
* scheduleTimeoutSeconds (scheduler-plugins only) = ``schedulingPolicy.scheduleTimeoutSeconds``
  when set, else not written. Volcano has no such field.
* minResources = ``schedulingPolicy.minResources`` when set (even ``{}``), else
  ``CalcPGMinResources``: the replica types ordered by the value of the PriorityClass their pod
  template names (0 when unnamed or not in the cluster), highest first; pods are counted type
  by type, each adding every ``spec.containers`` entry's resources (init containers do not
  count), until minMember pods are counted (so 0 replicas, or minMember <= 0, add nothing).
  Per container: its ``requests``; its ``limits`` ONLY when ``requests`` is absent/null --
  ``requests: {}`` (a non-nil empty map) takes nothing, not even the limits. Quantities are added
  pod by pod (Go ``Add``: the sum keeps the format of the entry, which a zero entry takes from
  the addend; a name seen once keeps the text it was parsed from, as ``DeepCopy`` keeps it).
  An empty result: Volcano writes ``minResources: {}`` (a pointer), scheduler-plugins nothing.
* The PodGroup is named after the job, in its namespace, carries ALL the job's annotations
  (including, on a real cluster, ``kubectl.kubernetes.io/last-applied-configuration`` when the
  job was applied client-side) and an ownerReference to the job (omitted here, as for MPIJobs).
* Pods (``decorate_pod_template``): Volcano sets schedulerName ``volcano`` only when the
  template has none, and annotations ``scheduling.k8s.io/group-name: <job>`` and
  ``volcano.sh/task-spec: <replica type, lowercased>``; scheduler-plugins sets the schedulerName
  only when empty and the label ``scheduling.x-k8s.io/pod-group: <job>``. A different
  schedulerName is NOT overwritten (unlike mpi-operator): the operator only records a warning
  event (``isCustomSchedulerSet``), and those pods bypass the gang scheduler.

**Nondeterminism.** ``CalcPGMinResources`` builds the order by ranging over the replica specs
map (Go's iteration order is random) and sorts it by priority with ``sort.Sort`` (not stable;
in practice an insertion sort below 13 elements). Replica types with EQUAL priority therefore
come in any order, and when minMember cuts the pod count (minAvailable below the total) the
*value* of minResources depends on which type is counted first, not only the format of the sum.
:func:`min_resources_outcomes` returns every outcome; :func:`calculate_min_resources` and
:func:`podgroup` return one of them, for the order of the replica types in the document
(stable-sorted by priority), so that mpigen's output is reproducible.

**Operator bug (pods, not the PodGroup).** ``core.CalculatePodSliceSize`` returns
max(highest pod index + 1, replicas), i.e. 1 when no pod exists yet: a replica type with
``replicas: 0`` gets pod 0 created in a sync, which the next sync deletes as out of range (and so
on). minMember and minResources do not count it.

Where the Go operator would panic an :class:`OperatorPanicError` is raised.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from typing import Any

from mpigen.operator.podgroup import (
    DEFAULT_SCHEDULER_PLUGINS_NAME,
    GANG_SCHEDULER_PLUGINS,
    GANG_VOLCANO,
    SCHEDULER_PLUGINS_API_VERSION,
    SCHEDULER_PLUGINS_POD_GROUP_LABEL,
    VOLCANO_API_VERSION,
    VOLCANO_GROUP_NAME_ANNOTATION,
    OperatorPanicError,
    _emit_list,
    _parse,
)
from mpigen.operator.quantity import Quantity

__all__ = [
    "GANG_VOLCANO", "GANG_SCHEDULER_PLUGINS", "REPLICA_SPECS_KEY", "OperatorPanicError",
    "calculate_min_member", "calculate_queue", "calculate_priority_class", "calculate_min_resources",
    "min_resources_outcomes", "counted_pods", "podgroup", "decorate_pod_template", "custom_scheduler_set",
    "skipped_reason",
]

REPLICA_SPECS_KEY = {"PyTorchJob": "pytorchReplicaSpecs", "TFJob": "tfReplicaSpecs"}
DEFAULT_QUEUE = "default"
VOLCANO_TASK_SPEC_ANNOTATION = "volcano.sh/task-spec"  # volcano batch/v1alpha1 TaskSpecKey
KUBEFLOW_JOBS_CONTROLLER = "kubeflow.org/training-operator"
_GANGS = (GANG_VOLCANO, GANG_SCHEDULER_PLUGINS)
MAX_ORDERS = 40320  # 8! orders of equal-priority replica types are enumerated at most


def _check_gang(gang: str) -> None:
    if gang not in _GANGS:
        raise ValueError(f"unknown gang scheduler {gang!r}; expected one of {_GANGS}")


def _int32(n: int) -> int:
    return (n + 2**31) % 2**32 - 2**31


def _spec(job: Mapping) -> Mapping:
    return job.get("spec") or {}


def _scheduling_policy(job: Mapping) -> Mapping | None:
    return (_spec(job).get("runPolicy") or {}).get("schedulingPolicy")


def replica_specs(job: Mapping) -> Mapping:
    """The job's replica specs map (``pytorchReplicaSpecs`` / ``tfReplicaSpecs``)."""
    key = REPLICA_SPECS_KEY.get(job.get("kind"))
    if key is None:
        raise ValueError(f"not a PyTorchJob or TFJob: kind {job.get('kind')!r}")
    return _spec(job).get(key) or {}


def _pod_spec(replica: Mapping) -> Mapping:
    return (replica.get("template") or {}).get("spec") or {}


def _replica(specs: Mapping, rtype: str) -> Mapping:
    replica = specs[rtype]
    if not isinstance(replica, Mapping):
        raise OperatorPanicError(f"replica spec {rtype} is null: the operator dereferences it "
                                 "(nil pointer dereference, the operator would crash)")
    return replica


# ------------------------------------------------------------ public API


def skipped_reason(job: Mapping) -> str | None:
    """Why the operator creates no PodGroup (nor pods) for this job now, or None.

    ``ReconcileJobs`` deletes the PodGroup of a suspended job (``runPolicy.suspend: true``) and
    Reconcile skips a job whose ``runPolicy.managedBy`` names another controller.
    """
    run_policy = _spec(job).get("runPolicy") or {}
    managed_by = run_policy.get("managedBy")
    if managed_by is not None and managed_by != KUBEFLOW_JOBS_CONTROLLER:
        return f"runPolicy.managedBy is {managed_by!r}: training-operator leaves the job to that controller"
    if run_policy.get("suspend") is True:
        return "runPolicy.suspend is true: the operator creates no PodGroup and no pods until it is resumed"
    return None


def calculate_min_member(job: Mapping) -> int:
    """schedulingPolicy.minAvailable, else ``GetTotalReplicas`` (unset replicas count 1)."""
    sp = _scheduling_policy(job)
    if sp is not None and sp.get("minAvailable") is not None:
        return sp["minAvailable"]
    specs = replica_specs(job)
    return _int32(sum(1 if _replica(specs, t).get("replicas") is None else _replica(specs, t)["replicas"]
                      for t in specs))


def calculate_queue(job: Mapping, gang: str) -> str | None:
    """Volcano: schedulingPolicy.queue, else ``"default"``. scheduler-plugins: None (no queue)."""
    _check_gang(gang)
    if gang != GANG_VOLCANO:
        return None
    sp = _scheduling_policy(job)
    return (sp or {}).get("queue") or DEFAULT_QUEUE


def calculate_priority_class(job: Mapping) -> str | None:
    """schedulingPolicy.priorityClass, else None (never the pod templates')."""
    return (_scheduling_policy(job) or {}).get("priorityClass") or None


def _with_format(q: Quantity, fmt: str) -> Quantity:
    return q if q.format == fmt and q._s is None else Quantity(q._u, q._e, fmt)


def _add_pods(result: dict[str, Quantity], addends: dict[str, list[Quantity]], pods: int) -> None:
    """``pods`` times, ``AddResourceList`` of every container: in closed form, per name.

    The value is the entry plus ``pods`` x the per-pod sum. The format is the entry's unless an
    addition finds the running sum at zero (a new entry is that case too), then the addend's:
    the last such step decides. The steps are (pod p, addend j) in order; the running sum before
    step (p, j) is S0 + p*T + prefix(j), an arithmetic progression in p, solved for zero.
    """
    for name, adds in addends.items():
        if len(adds) == 1 and pods == 1 and name not in result:
            result[name] = adds[0]  # DeepCopy: keeps the text it was parsed from
            continue
        s0 = result.get(name)
        total = adds[0]
        for q in adds[1:]:
            total = total.add(q)
        # Exact values as integers in one unit (10**e for the smallest exponent e among them)
        *steps, t, start = _in_one_unit([*adds, total, s0 if s0 is not None else Quantity(0)])
        last = None  # (p, j) of the last addition onto a zero sum
        prefix = 0
        for j, step in enumerate(steps):
            c = start + prefix
            if t == 0:
                p = pods - 1 if c == 0 else None
            else:
                p, rest = divmod(-c, t)
                p = p if rest == 0 and 0 <= p < pods else None
            if p is not None and (last is None or (p, j) > last):
                last = (p, j)
            prefix += step
        value = (s0 if s0 is not None else Quantity(0)).add(total.mul(pods))
        fmt = adds[last[1]].format if last is not None else s0.format
        result[name] = _with_format(value, fmt)


def _in_one_unit(quantities: list[Quantity]) -> list[int]:
    """The exact values as integers counting 10**e, e the smallest exponent among them."""
    low = min(q._e for q in quantities)
    return [q._u * 10 ** (q._e - low) for q in quantities]


def _container_addends(containers: list) -> dict[str, list[Quantity]]:
    """Per resource name, what one pod adds, container by container (``AddResourceList``)."""
    addends: dict[str, list[Quantity]] = {}
    for container in containers:
        resources = (container or {}).get("resources") or {}
        requests = resources.get("requests")
        chosen = requests if isinstance(requests, Mapping) else (resources.get("limits") or {})
        for name, raw in chosen.items():
            addends.setdefault(name, []).append(_parse(raw))
    return addends


def _entries(job: Mapping, priority_classes: Mapping[str, int]) -> list[dict]:
    specs = replica_specs(job)
    out = []
    for rtype in specs:
        replica = _replica(specs, rtype)
        pc = _pod_spec(replica).get("priorityClassName") or ""
        out.append({"replicaType": rtype, "priority": priority_classes.get(pc, 0) if pc else 0,
                    "replicas": replica.get("replicas"),
                    "containers": _pod_spec(replica).get("containers") or []})
    return sorted(out, key=lambda e: e["priority"], reverse=True)  # stable: document order in ties


def _sum_in_order(order: list[dict], min_member: int) -> dict[str, Quantity]:
    result: dict[str, Quantity] = {}
    count = 0
    for entry in order:
        if entry["replicas"] is None:
            continue
        pods = max(0, min(entry["replicas"], min_member - count))
        if pods:
            count += pods
            _add_pods(result, _container_addends(entry["containers"]), pods)
    return result


def counted_pods(job: Mapping, min_member: int, priority_classes: Mapping[str, int]) -> dict[str, int]:
    """Per replica type, how many of its pods ``CalcPGMinResources`` adds up for minResources (for
    the document's order of equal-priority types, as :func:`calculate_min_resources`): none once
    minMember pods are counted. An unset ``replicas`` counts 1, as the defaulted job has it."""
    counted: dict[str, int] = {}
    count = 0
    for entry in _entries(job, priority_classes or {}):
        replicas = 1 if entry["replicas"] is None else entry["replicas"]
        pods = max(0, min(replicas, min_member - count))
        count += pods
        counted[entry["replicaType"]] = pods
    return counted


def _orders(order: list[dict]) -> list[list[dict]]:
    """Every order Go can produce: the equal-priority groups of ``order`` in any order."""
    groups = [list(g) for _, g in itertools.groupby(order, key=lambda e: e["priority"])]
    count = 1
    for g in groups:
        for i in range(2, len(g) + 1):
            count *= i
    if count > MAX_ORDERS:
        raise ValueError(f"{count} orders of equal-priority replica types: too many to enumerate")
    return [list(itertools.chain.from_iterable(p))
            for p in itertools.product(*(itertools.permutations(g) for g in groups))]


def _explicit(job: Mapping) -> dict[str, Quantity] | None:
    sp = _scheduling_policy(job)
    if sp is not None and sp.get("minResources") is not None:
        return {name: _parse(raw) for name, raw in sp["minResources"].items()}
    return None


def calculate_min_resources(job: Mapping, min_member: int,
                            priority_classes: Mapping[str, int]) -> dict[str, Quantity] | None:
    """schedulingPolicy.minResources, else ``CalcPGMinResources`` for the document's order of
    equal-priority replica types (one of :func:`min_resources_outcomes`). Never None in Go
    (always a list, possibly empty); None is not returned either, the type allows for callers."""
    explicit = _explicit(job)
    if explicit is not None:
        return explicit
    return _sum_in_order(_entries(job, priority_classes or {}), min_member)


def min_resources_outcomes(job: Mapping, min_member: int,
                           priority_classes: Mapping[str, int]) -> list[dict[str, Quantity]]:
    """Every minResources the operator can compute for this job (distinct as written, i.e. by
    exact string), :func:`calculate_min_resources`'s first. More than one only with equal
    priorities; they differ by value when minMember cuts the pods, else at most by format."""
    explicit = _explicit(job)
    if explicit is not None:
        return [explicit]
    outcomes: list[dict[str, Quantity]] = []
    seen: set = set()
    for order in _orders(_entries(job, priority_classes or {})):
        result = _sum_in_order(order, min_member)
        key = tuple(sorted((k, str(v)) for k, v in result.items()))
        if key not in seen:
            seen.add(key)
            outcomes.append(result)
    return outcomes


def podgroup(job: Mapping, gang: str, priority_classes: Mapping[str, int],
             scheduler_name: str | None = None) -> dict:
    """The PodGroup ``SyncPodGroup`` creates for ``job`` (apply ``set_defaults`` first).

    As Go's ``json.Marshal`` writes it, minus ownerReferences, ``status`` and
    ``creationTimestamp`` (as mpigen's MPIJob PodGroups): metadata name, namespace (when set) and
    the job's annotations (when any); spec fields in declaration order, ``omitempty`` applied.
    ``scheduler_name`` does not appear in a PodGroup (accepted for symmetry).
    """
    _check_gang(gang)
    meta = job.get("metadata") or {}
    metadata: dict[str, Any] = {k: meta[k] for k in ("name", "namespace") if meta.get(k)}
    if meta.get("annotations"):
        metadata["annotations"] = dict(meta["annotations"])
    min_member = calculate_min_member(job)
    min_resources = calculate_min_resources(job, min_member, priority_classes)
    spec: dict[str, Any] = {}
    if min_member != 0:
        spec["minMember"] = min_member
    if gang == GANG_VOLCANO:
        spec["queue"] = calculate_queue(job, gang)
        priority_class = calculate_priority_class(job)
        if priority_class:
            spec["priorityClassName"] = priority_class
        spec["minResources"] = _emit_list(min_resources)  # *ResourceList, never nil: {} is written
        api_version = VOLCANO_API_VERSION
    else:
        if min_resources:
            spec["minResources"] = _emit_list(min_resources)
        sp = _scheduling_policy(job)
        if sp is not None and sp.get("scheduleTimeoutSeconds") is not None:
            spec["scheduleTimeoutSeconds"] = sp["scheduleTimeoutSeconds"]
        api_version = SCHEDULER_PLUGINS_API_VERSION
    return {"apiVersion": api_version, "kind": "PodGroup", "metadata": metadata, "spec": spec}


def decorate_pod_template(template: dict, job_name: str, replica_type: str, gang: str,
                          scheduler_name: str | None = None) -> dict:
    """``DecoratePodTemplateSpec`` on a copy (copy on write: unchanged parts are shared).

    A schedulerName already set is kept (see :func:`custom_scheduler_set`).
    """
    _check_gang(gang)
    pts = dict(template or {})
    spec = pts["spec"] = dict(pts.get("spec") or {})
    metadata = pts["metadata"] = dict(pts.get("metadata") or {})
    if gang == GANG_VOLCANO:
        if not spec.get("schedulerName"):
            spec["schedulerName"] = GANG_VOLCANO
        annotations = metadata["annotations"] = dict(metadata.get("annotations") or {})
        annotations[VOLCANO_GROUP_NAME_ANNOTATION] = job_name
        annotations[VOLCANO_TASK_SPEC_ANNOTATION] = replica_type.lower()
    else:
        if not spec.get("schedulerName"):
            spec["schedulerName"] = scheduler_name or DEFAULT_SCHEDULER_PLUGINS_NAME
        labels = metadata["labels"] = dict(metadata.get("labels") or {})
        labels[SCHEDULER_PLUGINS_POD_GROUP_LABEL] = job_name
    return pts


def custom_scheduler_set(job: Mapping, gang_scheduler_name: str) -> list[str]:
    """``isCustomSchedulerSet``: the replica types whose template names a schedulerName other than
    the gang scheduler's (``volcano`` or the scheduler-plugins name). Their pods keep it."""
    specs = replica_specs(job)
    return [t for t in specs if isinstance(specs[t], Mapping)
            and _pod_spec(specs[t]).get("schedulerName")
            and _pod_spec(specs[t])["schedulerName"] != gang_scheduler_name]
