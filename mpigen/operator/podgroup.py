"""Gang-scheduling rules of the MPI Operator, ported from Go to pure Python.

Ports ``pkg/controller/podgroup.go`` of kubeflow/mpi-operator at tag **v0.8.2** (the same
file as v0.8.0's) (``newPodGroup`` of ``VolcanoCtrl`` and ``SchedulerPluginsCtrl``,
``decoratePodTemplateSpec``, ``calculatePGMinResources``, ``calPGMinResource``,
``calculateMinAvailable``, ``calculatePriorityClassName``, ``addResources``,
``replicasOrder``), plus ``workerReplicas`` from ``pkg/controller/mpi_job_controller.go``.
The legacy line follows the same file at tag **v0.4.0** (see
``git diff v0.4.0 v0.8.0 -- pkg/controller/podgroup.go``): there the Volcano
PodGroup's minResources is only ``schedulingPolicy.minResources``, the
scheduler-plugins sum loops over replicas instead of multiplying (so a replica
type with 0 replicas adds no key, a lone quantity keeps its text and a zero
partial sum can change the format: see ``_legacy_sum``), and several inputs
crash the operator.

PodGroup shapes and JSON tags: volcano.sh/apis ``pkg/apis/scheduling/v1beta1/types.go``
(v1.7.0 for v0.4.0, v1.14.0 for v0.8.0 and v0.8.2) and sigs.k8s.io/scheduler-plugins
``apis/scheduling/v1alpha1/types.go`` (v0.25.7 / v0.33.5 / v0.34.7, the same file as v0.33.5's);
the emitted fields are the same at every pin.

Everything works on plain dicts (an MPIJob as parsed from YAML, camelCase keys)
and never mutates its inputs. Where the Go operator would panic (nil pointer
dereference, index out of range) an :class:`OperatorPanicError` (a ``ValueError``)
is raised instead of emitting a manifest the operator could never produce.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from typing import Any

from mpigen.operator.quantity import Quantity
from mpigen.versions import DEFAULT_OPERATOR_VERSION, OLDEST, OperatorVersion

GANG_VOLCANO = "volcano"
GANG_SCHEDULER_PLUGINS = "scheduler-plugins"
DEFAULT_SCHEDULER_PLUGINS_NAME = "scheduler-plugins-scheduler"

LAUNCHER = "Launcher"
WORKER = "Worker"

VOLCANO_API_VERSION = "scheduling.volcano.sh/v1beta1"
SCHEDULER_PLUGINS_API_VERSION = "scheduling.x-k8s.io/v1alpha1"
# volcanov1beta1.QueueNameAnnotationKey / KubeGroupNameAnnotationKey
VOLCANO_QUEUE_ANNOTATION = "scheduling.volcano.sh/queue-name"
VOLCANO_GROUP_NAME_ANNOTATION = "scheduling.k8s.io/group-name"
# schedv1alpha1.PodGroupLabel
SCHEDULER_PLUGINS_POD_GROUP_LABEL = "scheduling.x-k8s.io/pod-group"

_GANGS = (GANG_VOLCANO, GANG_SCHEDULER_PLUGINS)


class OperatorPanicError(ValueError):
    """The MPI Operator at the requested version would panic on this input."""


# ---------------------------------------------------------------- helpers


def _check_gang(gang: str) -> None:
    if gang not in _GANGS:
        raise ValueError(f"unknown gang scheduler {gang!r}; expected one of {_GANGS}")


def _is_legacy(version: OperatorVersion) -> bool:
    """True for releases that follow the v0.4.x rules (>= v0.4.0, < v0.5.0)."""
    if version < OLDEST:
        raise ValueError(
            f"operator version {version} predates pkg/controller/podgroup.go (v0.4.0); "
            "its PodGroup rules (v2/pkg/controller newPodGroup) are not modelled")
    return version.legacy


def _spec(job: Mapping) -> Mapping:
    return job.get("spec") or {}


def _scheduling_policy(job: Mapping) -> Mapping | None:
    """``mpiJob.Spec.RunPolicy.SchedulingPolicy``; None stands for Go's nil pointer."""
    return (_spec(job).get("runPolicy") or {}).get("schedulingPolicy")


def _replica_specs(job: Mapping) -> Mapping:
    return _spec(job).get("mpiReplicaSpecs") or {}


def _pod_spec(replica: Mapping) -> Mapping:
    return (replica.get("template") or {}).get("spec") or {}


def _json_float_text(f: float) -> str:
    """encoding/json's text for a float64: what the operator's Quantity.UnmarshalJSON
    parses when a manifest holds an unquoted non-integer number (``cpu: 0.5``)."""
    if not math.isfinite(f):
        raise ValueError(f"not a quantity: {f!r}")
    if f != 0 and (abs(f) < 1e-6 or abs(f) >= 1e21):  # Go's 'e' format, e-07 -> e-7
        return re.sub(r"e-0(\d)$", r"e-\1", repr(f))
    from decimal import Decimal  # here only: a float in a quantity is rare

    return format(Decimal(repr(f)).normalize(), "f")  # Go's 'f' format, shortest digits


def _parse(raw: Any) -> Quantity:
    if isinstance(raw, Quantity):
        return raw
    if isinstance(raw, float):
        raw = _json_float_text(raw)
    return Quantity.parse(raw)  # QuantityError (a ValueError) for anything else


def _parse_list(resource_list: Mapping) -> dict[str, Quantity]:
    return {name: _parse(value) for name, value in resource_list.items()}


def _emit_list(resource_list: Mapping[str, Quantity]) -> dict[str, str]:
    return {name: str(resource_list[name]) for name in sorted(resource_list)}


def _worker_replicas(job: Mapping) -> int:
    """``workerReplicas`` (pkg/controller/mpi_job_controller.go)."""
    worker = _replica_specs(job).get(WORKER)
    if worker is not None and worker.get("replicas") is not None:
        return worker["replicas"]
    return 0


# ------------------------------------------------------------ public API


def calculate_min_available(job: Mapping) -> int:
    """``calculateMinAvailable``: schedulingPolicy.minAvailable, else Worker replicas + 1."""
    sp = _scheduling_policy(job)
    if sp is not None and sp.get("minAvailable") is not None:
        return sp["minAvailable"]
    return _worker_replicas(job) + 1


def calculate_priority_class_name(job: Mapping) -> str:
    """``calculatePriorityClassName`` (same rule at v0.4.0 and v0.8.x).

    schedulingPolicy.priorityClass, else the Launcher template's
    priorityClassName, else the Worker's, else "".
    """
    sp = _scheduling_policy(job)
    if sp is not None and sp.get("priorityClass"):
        return sp["priorityClass"]
    specs = _replica_specs(job)
    for rtype in (LAUNCHER, WORKER):
        replica = specs.get(rtype)
        if replica is not None and _pod_spec(replica).get("priorityClassName"):
            return _pod_spec(replica)["priorityClassName"]
    return ""


def add_resources(min_resources: Mapping[str, Quantity] | None, resources: Mapping | None,
                  replicas: int) -> dict[str, Quantity] | None:
    """``addResources`` (v0.8.x), returning a new dict instead of mutating a map.

    ``resources`` is a container's ``resources`` (``requests``/``limits`` of raw
    values). Requests are taken first, then limits for names missing from
    requests; each is multiplied by ``replicas`` and added (Go ``Add``: the sum
    keeps the format of the quantity already in ``min_resources``). Go returns
    early on a nil map (we return None) and when ``resources`` equals the zero
    ``ResourceRequirements`` (no requests, limits or claims): nothing is added,
    which is also what happens when requests and limits are present but empty.
    """
    if min_resources is None:
        return None
    result = dict(min_resources)
    for name, raw in _merged_requests(resources).items():
        quantity = _parse(raw).mul(replicas)
        result[name] = quantity if name not in result else result[name].add(quantity)
    return result


def _merged_requests(resources: Mapping | None) -> dict[str, Any]:
    """``addResources``' ``merged``: the requests, then the limits of names without a request."""
    if not resources:
        return {}
    merged: dict[str, Any] = dict(resources.get("requests") or {})
    for name, limit in (resources.get("limits") or {}).items():
        if name not in merged:
            merged[name] = limit
    return merged


def _sort_replicas_order(order: list[dict]) -> list[dict]:
    """``sort.Sort(sort.Reverse(replicasOrder))``: highest priority first.

    Go's sort.Sort on fewer than 13 elements is an insertion sort, which keeps
    equal elements in input order; Python's ``sorted(reverse=True)`` does too.
    """
    return sorted(order, key=lambda rp: rp["priority"], reverse=True)


def _replicas_order(job: Mapping, priority_classes: Mapping[str, int]) -> list[dict]:
    specs = _replica_specs(job)
    # Go ranges over a map (random order); mpigen fixes Launcher, Worker, then others.
    rtypes = [t for t in (LAUNCHER, WORKER) if t in specs]
    rtypes += sorted(t for t in specs if t not in (LAUNCHER, WORKER))
    order = []
    for rtype in rtypes:
        replica = specs[rtype]
        if replica is None:
            raise OperatorPanicError(
                f"mpiReplicaSpecs.{rtype} is null: calPGMinResource dereferences it "
                "(nil pointer dereference, the operator would crash)")
        pc_name = _pod_spec(replica).get("priorityClassName") or ""
        order.append({
            "replicaType": rtype,
            "priority": priority_classes.get(pc_name, 0) if pc_name else 0,
            "replicas": replica.get("replicas"),
            "containers": _pod_spec(replica).get("containers") or [],
        })
    return _sort_replicas_order(order)


def _replicas_at(order: list[dict], i: int) -> int:
    if i >= len(order):
        raise OperatorPanicError(
            f"calPGMinResource reads order[{i}] but the job has {len(order)} replica type(s) "
            "(index out of range, the operator would crash)")
    if order[i]["replicas"] is None:
        raise OperatorPanicError(
            f"mpiReplicaSpecs.{order[i]['replicaType']}.replicas is unset: calPGMinResource "
            "dereferences it (nil pointer dereference, the operator would crash); "
            "apply set_defaults first")
    return order[i]["replicas"]


def min_resources_counts(min_member: int | None, job: Mapping, priority_classes: Mapping[str, int],
                         legacy: bool = False) -> dict[str, int] | None:
    """The count ``calPGMinResource`` multiplies each replica type's containers by: its replicas,
    or minMember - 1 for the type the gang cuts; types without replicas are left out. None when it
    finds no worker to cut (and computes nothing)."""
    order = _counted_order(min_member, job, priority_classes, legacy)
    if order is None:
        return None
    return {rp["replicaType"]: rp["replicas"] for rp in order if rp["replicas"] is not None}


def _counted_order(min_member: int | None, job: Mapping, priority_classes: Mapping[str, int],
                   legacy: bool) -> list[dict] | None:
    order = _replicas_order(job, priority_classes)
    if legacy:  # v0.4.0: *order[0].Replicas + *order[1].Replicas, only when minMember != nil
        over = min_member is not None and _replicas_at(order, 0) + _replicas_at(order, 1) > min_member
    else:
        replicas = _replicas_at(order, 0)
        if len(order) > 1:  # "When using runLauncherAsWorker, there may be no worker."
            replicas += _replicas_at(order, 1)
        over = min_member is not None and replicas > min_member
    if over:
        if order[0]["priority"] == _priority_at(order, 1):
            # Equal priorities: the workers are treated as the lower priority.
            w_index = next((i for i, rp in enumerate(order) if rp["replicaType"] == WORKER), -1)
            if w_index == -1:
                return None  # klog "Couldn't find the worker replicas"
            order[w_index]["replicas"] = min_member - 1
        else:
            order[1]["replicas"] = min_member - 1  # the second entry, whichever type it is
    return order


def _cal_pg_min_resource(min_member: int | None, job: Mapping,
                         priority_classes: Mapping[str, int],
                         legacy: bool) -> dict[str, Quantity] | None:
    """``calPGMinResource`` (v0.8.x); with ``legacy``, the v0.4.0 inline version."""
    order = _counted_order(min_member, job, priority_classes, legacy)
    if order is None:
        return None
    if legacy:
        return _legacy_sum(order)
    min_resources: dict[str, Quantity] = {}
    for rp in order:
        if rp["replicas"] is None:
            continue
        for container in rp["containers"]:
            min_resources = add_resources(min_resources, container.get("resources"), rp["replicas"])
    return min_resources


def _legacy_sum(order: list[dict]) -> dict[str, Quantity]:
    """v0.4.0's sum: ``for rp in order { for i < replicas { for c in containers { addResources } } }``.

    Its ``addResources`` stores the first quantity of a name with ``DeepCopy``, which keeps the
    text it was parsed from (``0356Ki``, ``09m``, ``1e+21`` are written as given when a single
    container of a single replica requests the name); every later ``Add`` clears that text and
    keeps the sum's format, except that a zero sum takes the addend's format. So a name requested
    more than once ends with the format of the addend that follows the LAST zero partial sum (the
    empty sum before the first addend counts). The addends of one replica type repeat a fixed
    pattern ``replicas`` times, so the partial sums before its i-th entry are an arithmetic
    progression ``B + c_i + m*T`` (m = 0..replicas-1; ``B`` the sum before the type, ``c_i`` the
    pattern's prefix sum, ``T`` its total): each has no zero, a zero for every m (T = 0) or
    exactly one (m = -(B + c_i) / T). That is O(containers) per name, whatever the replica count,
    and gives exactly what the loop gives. A replica count of 0 (or less) adds nothing.
    """
    blocks: dict[str, list[tuple[int, list[Quantity]]]] = {}
    for rp in order:
        if rp["replicas"] is None or rp["replicas"] <= 0:
            continue
        pattern: dict[str, list[Quantity]] = {}
        for container in rp["containers"]:
            for name, raw in _merged_requests(container.get("resources")).items():
                pattern.setdefault(name, []).append(_parse(raw))
        for name, addends in pattern.items():
            blocks.setdefault(name, []).append((rp["replicas"], addends))
    return {name: _repeated_sum(name_blocks) for name, name_blocks in blocks.items()}


def _repeated_sum(blocks: list[tuple[int, list[Quantity]]]) -> Quantity:
    """The Quantity Go's loop ends with for one name; ``blocks``: (replicas, addends) per type."""
    if len(blocks) == 1 and blocks[0][0] == 1 and len(blocks[0][1]) == 1:
        return blocks[0][1][0]  # DeepCopy: the parsed Quantity, cached text included
    total = Quantity()
    last = blocks[0][1][0]  # the addend after the last zero partial sum
    for replicas, addends in blocks:
        before, partial = [], total
        for q in addends:
            before.append(partial)
            partial = partial.add(q)
        step = partial.sub(total)  # T: what one replica adds
        best: tuple[int, int] | None = None  # the last (m, i) whose partial sum is zero
        for i, start in enumerate(before):
            m = _last_zero(start, step, replicas)
            if m is not None and (best is None or (m, i) > best):
                best = (m, i)
        if best is not None:
            last = addends[best[1]]
        total = total.add(step.mul(replicas))
    # `last` holds the format: a nonzero receiver keeps its own. (If `last` is zero, the sum after
    # it is zero too, so it is the final addend and the sum is 0; the expression keeps its format.)
    return last.add(total.sub(last))


def _last_zero(start: Quantity, step: Quantity, replicas: int) -> int | None:
    """The largest m in [0, replicas) with start + m*step == 0, or None."""
    if step.is_zero():
        return replicas - 1 if start.is_zero() else None
    if start.is_zero():
        return 0
    if start.sign() == step.sign():
        return None
    m = -start.as_fraction() / step.as_fraction()  # > 0 here
    return int(m) if m.denominator == 1 and m < replicas else None


def _priority_at(order: list[dict], i: int) -> int:
    if i >= len(order):
        raise OperatorPanicError(
            f"calPGMinResource compares order[0] with order[{i}] but the job has "
            f"{len(order)} replica type(s) (index out of range, the operator would crash)")
    return order[i]["priority"]


def calculate_min_resources(min_member: int | None, job: Mapping,
                            priority_classes: Mapping[str, int] | None = None,
                            version: OperatorVersion = DEFAULT_OPERATOR_VERSION, *,
                            gang: str = GANG_SCHEDULER_PLUGINS) -> dict[str, Quantity] | None:
    """``calculatePGMinResources`` + ``calPGMinResource``.

    * explicit ``schedulingPolicy.minResources`` (even ``{}``) is returned parsed;
    * None when ``min_member`` is 0;
    * otherwise replica types are ordered by the value of their template's
      PriorityClass (names absent from ``priority_classes`` count as 0),
      highest first. If Launcher + Worker replicas exceed ``min_member``:
      with equal priorities the Worker count becomes ``min_member - 1``,
      otherwise the second (lower priority) entry does, whichever type it is.
      Then every ``spec.containers`` entry (not initContainers) adds its
      requests (limits for names without a request) times its replica count.
      ``min_member`` None (Go's nil pointer) means no cut.

    Deliberate mpigen choice: Go builds the order by ranging over the
    mpiReplicaSpecs map, whose iteration order is random, so with EQUAL
    priorities the Launcher or the Worker may come first. This only matters
    for the format of a sum whose operands have different formats (a sum keeps
    the format of its first operand). mpigen always puts the Launcher first,
    then the Worker (then any other key, sorted), and sorts stably.

    ``gang`` matters only for v0.4.x: there Volcano returns schedulingPolicy's
    minResources (or None) and never computes a sum.
    """
    _check_gang(gang)
    legacy = _is_legacy(version)
    sp = _scheduling_policy(job)
    if legacy and gang == GANG_VOLCANO:
        if sp is not None and sp.get("minResources") is not None:
            return _parse_list(sp["minResources"])
        return None
    if sp is not None and sp.get("minResources") is not None:
        return _parse_list(sp["minResources"])
    if min_member is not None and min_member == 0:
        return None
    if legacy and gang == GANG_SCHEDULER_PLUGINS and any(
            _pod_spec(r).get("priorityClassName") for r in _replica_specs(job).values() if isinstance(r, Mapping)):
        # v0.4.0's server.go builds SchedulerPluginsCtrl without a PriorityClassLister (fixed upstream
        # after v0.4.0, fda0532 / #561): the first priorityClassName looked up dereferences nil.
        raise OperatorPanicError(
            "mpi-operator v0.4.x crashes on this job: with scheduler-plugins it looks up the pods' "
            "PriorityClass through a lister it never set (nil pointer dereference; fixed in v0.5.0)")
    return _cal_pg_min_resource(min_member, job, priority_classes or {}, legacy)


def new_pod_group(job: Mapping, gang: str,
                  priority_classes: Mapping[str, int] | None = None, *,
                  scheduler_name: str = DEFAULT_SCHEDULER_PLUGINS_NAME,
                  version: OperatorVersion = DEFAULT_OPERATOR_VERSION) -> dict | None:
    """``VolcanoCtrl.newPodGroup`` / ``SchedulerPluginsCtrl.newPodGroup``.

    Returns the PodGroup as Go's ``json.Marshal`` would write it, minus
    ownerReferences and the empty ``status``/``creationTimestamp`` noise:
    struct fields in declaration order, map keys sorted, ``omitempty`` applied
    (an empty Volcano ``*ResourceList`` is still written as ``{}``).
    ``scheduler_name`` does not appear in a PodGroup; it is accepted for
    symmetry with :func:`decorate_pod_template`. Returns None for a None job,
    as Go returns nil.
    """
    _check_gang(gang)
    legacy = _is_legacy(version)
    if job is None:
        return None
    pcs = priority_classes or {}
    meta = job.get("metadata") or {}
    min_member = calculate_min_available(job)
    sp = _scheduling_policy(job)
    metadata = {k: meta[k] for k in ("name", "namespace") if meta.get(k)}
    spec: dict[str, Any] = {}
    if min_member != 0:
        spec["minMember"] = min_member
    min_resources = calculate_min_resources(min_member, job, pcs, version, gang=gang)

    if gang == GANG_VOLCANO:
        queue = (meta.get("annotations") or {}).get(VOLCANO_QUEUE_ANNOTATION, "")
        if sp is not None and sp.get("queue"):
            queue = sp["queue"]
        if queue:
            spec["queue"] = queue
        priority_class_name = calculate_priority_class_name(job)
        if priority_class_name:
            spec["priorityClassName"] = priority_class_name
        if min_resources is not None:  # *ResourceList: only nil is omitted
            spec["minResources"] = _emit_list(min_resources)
        api_version = VOLCANO_API_VERSION
    else:
        if min_resources is None and legacy:
            raise OperatorPanicError(
                "v0.4.x SchedulerPluginsCtrl.newPodGroup dereferences the nil minResources "
                "returned when minMember is 0 (or no Worker is found): the operator would crash")
        if min_resources:  # plain map with omitempty: {} and nil are omitted
            spec["minResources"] = _emit_list(min_resources)
        timeout = 0
        if sp is not None and sp.get("scheduleTimeoutSeconds") is not None:
            timeout = sp["scheduleTimeoutSeconds"]
        spec["scheduleTimeoutSeconds"] = timeout  # *int32: 0 is still written
        api_version = SCHEDULER_PLUGINS_API_VERSION
    return {"apiVersion": api_version, "kind": "PodGroup", "metadata": metadata, "spec": spec}


def decorate_pod_template(template: Mapping, job_name: str, gang: str,
                          scheduler_name: str = DEFAULT_SCHEDULER_PLUGINS_NAME) -> dict:
    """``decoratePodTemplateSpec`` of both controllers, on a copy.

    Volcano: schedulerName ``volcano`` and annotation
    ``scheduling.k8s.io/group-name: <job>``. scheduler-plugins: schedulerName
    ``scheduler_name`` (the operator's ``--gang-scheduling`` value) and label
    ``scheduling.x-k8s.io/pod-group: <job>``. Any other schedulerName is
    overwritten (Go only logs a warning). The template is not modified; the result shares
    every part it does not change.
    """
    _check_gang(gang)
    pts = dict(template or {})  # copy on write: only what changes is new, the rest is shared
    spec = pts["spec"] = dict(pts.get("spec") or {})
    metadata = pts["metadata"] = dict(pts.get("metadata") or {})
    if gang == GANG_VOLCANO:
        spec["schedulerName"] = GANG_VOLCANO
        annotations = metadata["annotations"] = dict(metadata.get("annotations") or {})
        annotations[VOLCANO_GROUP_NAME_ANNOTATION] = job_name
    else:
        spec["schedulerName"] = scheduler_name
        labels = metadata["labels"] = dict(metadata.get("labels") or {})
        labels[SCHEDULER_PLUGINS_POD_GROUP_LABEL] = job_name
    return pts
