"""Kueue's objects and scheduler-plugins' ElasticQuotas in a cluster file.

Kueue v0.19.2 serves ``kueue.x-k8s.io/v1beta1`` and ``v1beta2`` (the stored version); both are read:

* **ClusterQueues** (``kubectl get clusterqueues -o yaml``): ``resourceGroups`` (covered resources,
  flavors in order, each resource's ``nominalQuota``, ``borrowingLimit``, ``lendingLimit``), the
  cohort (``spec.cohort`` in v1beta1, ``spec.cohortName`` in v1beta2), ``namespaceSelector`` (null:
  no namespace), ``preemption``, ``flavorFungibility``, ``stopPolicy``, admission checks
  (``admissionChecks`` and ``admissionChecksStrategy``) and ``fairSharing``;
* **Cohorts** (hierarchical cohorts): ``spec.parentName`` and ``resourceGroups``;
* **LocalQueues**: ``spec.clusterQueue`` and ``stopPolicy``;
* **ResourceFlavors**: ``nodeLabels``, ``nodeTaints``, ``tolerations``, ``topologyName``;
* **WorkloadPriorityClasses**: ``value``;
* **Workloads** (``kubectl get workloads -A -o yaml``): ``spec.queueName``, ``spec.priority`` and,
  while Kueue reserves quota for it (``status.admission`` with the ``QuotaReserved`` condition, not
  ``Finished``), the ``resourceUsage`` of each ``podSetAssignment`` on its flavors;
* **ElasticQuotas** (``scheduling.x-k8s.io/v1alpha1``, ``kubectl get elasticquotas -A -o yaml``):
  ``spec.min`` and ``spec.max``.

Each reader reports a malformed object at its line and leaves it out.
"""

from __future__ import annotations

from typing import Any, Callable

from ..operator.quantity import Quantity
from ..scheduler.admission.elasticquota import ElasticQuota
from ..scheduler.admission.kueue_objects import (ClusterQueue, Cohort, FlavorQuotas, LocalQueue, Preemption, Quota,
                                                 ResourceFlavor, ResourceGroup, Workload, WorkloadPriorityClass,
                                                 kueue_amount)
from ..scheduler.nodes import Taint

KUEUE_APIS = ("kueue.x-k8s.io/v1beta1", "kueue.x-k8s.io/v1beta2")
KINDS = ("ClusterQueue", "Cohort", "LocalQueue", "ResourceFlavor", "Workload", "WorkloadPriorityClass")
ELASTIC_QUOTA_API = "scheduling.x-k8s.io/v1alpha1"

Report = Callable[..., None]  # (path, message)
Quantities = Callable[[str, Any, tuple], "dict[str, Quantity] | None"]  # (what, raw, path)


class _Malformed(Exception):
    """(the path, the message)."""


def is_kueue(obj: dict[str, Any]) -> bool:
    return obj.get("apiVersion") in KUEUE_APIS and obj.get("kind") in KINDS


def is_elastic_quota(obj: dict[str, Any]) -> bool:
    return obj.get("apiVersion") == ELASTIC_QUOTA_API and obj.get("kind") == "ElasticQuota"


def _mapping(value: Any, at: tuple, what: str) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise _Malformed(at, f"{what} is not a mapping")
    return value


def _list(value: Any, at: tuple, what: str) -> list[Any]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise _Malformed(at, f"{what} is not a list")
    return value


def _text(value: Any, at: tuple, what: str, default: str = "") -> str:
    if value is None:
        return default
    if not isinstance(value, str):
        raise _Malformed(at, f"{what} {value!r} is not a string")
    return value


def _integer(value: Any, at: tuple, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _Malformed(at, f"{what} {value!r} is not an integer")
    return value


def _quantity(name: str, value: Any, at: tuple, what: str) -> int:
    try:
        return kueue_amount(name, Quantity.parse(value if not isinstance(value, float) else repr(value)))
    except (ValueError, TypeError):
        raise _Malformed(at, f"{what}: {value!r} is not a quantity") from None


def _resource_groups(raw: Any, at: tuple, what: str) -> tuple[ResourceGroup, ...]:
    groups = []
    for i, group in enumerate(_list(raw, at, f"{what}: resourceGroups")):
        here = at + (i,)
        group = _mapping(group, here, f"{what}: resourceGroups[{i}]")
        covered = tuple(str(r) for r in _list(group.get("coveredResources"), here + ("coveredResources",),
                                              f"{what}: coveredResources"))
        flavors = []
        for j, flavor in enumerate(_list(group.get("flavors"), here + ("flavors",), f"{what}: flavors")):
            fat = here + ("flavors", j)
            flavor = _mapping(flavor, fat, f"{what}: flavors[{j}]")
            name = _text(flavor.get("name"), fat + ("name",), f"{what}: flavor name")
            quotas = {}
            for k, res in enumerate(_list(flavor.get("resources"), fat + ("resources",), f"{what}: resources")):
                rat = fat + ("resources", k)
                res = _mapping(res, rat, f"{what}: resources[{k}]")
                rname = _text(res.get("name"), rat + ("name",), f"{what}: resource name")
                limits = [None if res.get(key) is None else _quantity(rname, res[key], rat + (key,), f"{what}: {key}")
                          for key in ("borrowingLimit", "lendingLimit")]
                quotas[rname] = Quota(_quantity(rname, res.get("nominalQuota", 0), rat + ("nominalQuota",),
                                                f"{what}: nominalQuota"), *limits)
            flavors.append(FlavorQuotas(name, quotas))
        groups.append(ResourceGroup(covered, tuple(flavors)))
    return tuple(groups)


def _conditions(status: dict[str, Any]) -> dict[str, str]:
    out = {}
    for cond in status.get("conditions") or []:
        if isinstance(cond, dict) and isinstance(cond.get("type"), str):
            out[cond["type"]] = str(cond.get("status"))
    return out


def read_kueue(obj: dict[str, Any], name: str, path: tuple, report: Report) -> Any:
    """The Kueue object, or None (reported) when a field the admission rules read is malformed."""
    kind = obj["kind"]
    meta = obj.get("metadata") if isinstance(obj.get("metadata"), dict) else {}
    namespace = str(meta.get("namespace") or "default")
    spec_at, status_at = path + ("spec",), path + ("status",)
    what = f"{kind} {name!r}" if kind in ("ClusterQueue", "Cohort", "ResourceFlavor", "WorkloadPriorityClass") \
        else f"{kind} {namespace}/{name}"
    try:
        spec = _mapping(obj.get("spec"), spec_at, f"{what}: spec")
        status = _mapping(obj.get("status"), status_at, f"{what}: status")
        if kind == "ClusterQueue":
            return _cluster_queue(obj, name, spec, spec_at, what)
        if kind == "Cohort":
            return Cohort(name, _text(spec.get("parentName"), spec_at + ("parentName",), f"{what}: spec.parentName"),
                          _resource_groups(spec.get("resourceGroups"), spec_at + ("resourceGroups",), what))
        if kind == "LocalQueue":
            return LocalQueue(namespace, name,
                              _text(spec.get("clusterQueue"), spec_at + ("clusterQueue",), f"{what}: spec.clusterQueue"),
                              _text(spec.get("stopPolicy"), spec_at + ("stopPolicy",), f"{what}: spec.stopPolicy",
                                    "None"))
        if kind == "ResourceFlavor":
            return _flavor(name, spec, spec_at, what)
        if kind == "WorkloadPriorityClass":
            return WorkloadPriorityClass(name, _integer(obj.get("value", 0), path + ("value",), f"{what}: value"))
        return _workload(obj, namespace, name, spec, status, spec_at, status_at, what)
    except _Malformed as bad:
        report(*bad.args)
        return None


def _cluster_queue(obj: dict[str, Any], name: str, spec: dict[str, Any], at: tuple, what: str) -> ClusterQueue:
    v1beta1 = obj["apiVersion"].endswith("v1beta1")
    cohort_key = "cohort" if v1beta1 else "cohortName"
    preemption = _mapping(spec.get("preemption"), at + ("preemption",), f"{what}: spec.preemption")
    borrow = _mapping(preemption.get("borrowWithinCohort"), at + ("preemption", "borrowWithinCohort"),
                      f"{what}: spec.preemption.borrowWithinCohort")
    threshold = borrow.get("maxPriorityThreshold")
    fungibility = _mapping(spec.get("flavorFungibility"), at + ("flavorFungibility",), f"{what}: flavorFungibility")
    checks = [str(c) for c in _list(spec.get("admissionChecks"), at + ("admissionChecks",), f"{what}: admissionChecks")]
    strategy = _mapping(spec.get("admissionChecksStrategy"), at + ("admissionChecksStrategy",), what)
    for rule in _list(strategy.get("admissionChecks"), at + ("admissionChecksStrategy", "admissionChecks"), what):
        if isinstance(rule, dict) and rule.get("name"):
            checks.append(str(rule["name"]))
    selector = spec.get("namespaceSelector")
    if selector is not None and not isinstance(selector, dict):
        raise _Malformed(at + ("namespaceSelector",), f"{what}: spec.namespaceSelector is not a label selector")
    return ClusterQueue(
        name, _text(spec.get(cohort_key), at + (cohort_key,), f"{what}: spec.{cohort_key}"),
        _resource_groups(spec.get("resourceGroups"), at + ("resourceGroups",), what), selector,
        Preemption(_text(preemption.get("withinClusterQueue"), at, what, "Never"),
                   _text(preemption.get("reclaimWithinCohort"), at, what, "Never"),
                   _text(borrow.get("policy"), at, what, "Never"),
                   None if threshold is None else _integer(threshold, at, f"{what}: maxPriorityThreshold")),
        _text(fungibility.get("whenCanBorrow"), at, what, "MayStopSearch"),
        _text(fungibility.get("whenCanPreempt"), at, what, "TryNextFlavor"),
        fungibility.get("preference") if isinstance(fungibility.get("preference"), str) else None,
        _text(spec.get("stopPolicy"), at + ("stopPolicy",), f"{what}: spec.stopPolicy", "None"), tuple(checks),
        spec.get("fairSharing") is not None)


def _flavor(name: str, spec: dict[str, Any], at: tuple, what: str) -> ResourceFlavor:
    labels = _mapping(spec.get("nodeLabels"), at + ("nodeLabels",), f"{what}: spec.nodeLabels")
    taints = []
    for i, taint in enumerate(_list(spec.get("nodeTaints"), at + ("nodeTaints",), f"{what}: spec.nodeTaints")):
        if not isinstance(taint, dict) or not isinstance(taint.get("key"), str) or \
                not isinstance(taint.get("effect"), str):
            raise _Malformed(at + ("nodeTaints", i), f"{what}: a taint needs a key and an effect")
        taints.append(Taint(taint["key"], str(taint.get("value") or ""), taint["effect"]))
    tolerations = tuple(t for t in _list(spec.get("tolerations"), at + ("tolerations",), f"{what}: spec.tolerations")
                        if isinstance(t, dict))
    return ResourceFlavor(name, {str(k): str(v) for k, v in labels.items()}, tuple(taints), tolerations,
                          _text(spec.get("topologyName"), at + ("topologyName",), what))


def _workload(obj: dict[str, Any], namespace: str, name: str, spec: dict[str, Any], status: dict[str, Any],
              at: tuple, status_at: tuple, what: str) -> Workload:
    conditions = _conditions(status)
    admission = _mapping(status.get("admission"), status_at + ("admission",), f"{what}: status.admission")
    reserved = bool(admission) and conditions.get("QuotaReserved", "True") == "True"
    usage: dict[tuple[str, str], int] = {}
    if reserved:
        psas = _list(admission.get("podSetAssignments"), status_at + ("admission", "podSetAssignments"), what)
        for i, psa in enumerate(psas):
            pat = status_at + ("admission", "podSetAssignments", i)
            psa = _mapping(psa, pat, f"{what}: podSetAssignments[{i}]")
            flavors = _mapping(psa.get("flavors"), pat + ("flavors",), f"{what}: flavors")
            for resource, value in _mapping(psa.get("resourceUsage"), pat + ("resourceUsage",), what).items():
                flavor = flavors.get(resource)
                if flavor is None:
                    continue
                fr = (str(flavor), str(resource))
                usage[fr] = usage.get(fr, 0) + _quantity(resource, value, pat + ("resourceUsage", resource),
                                                         f"{what}: resourceUsage")
    priority = spec.get("priority")
    meta = obj.get("metadata") if isinstance(obj.get("metadata"), dict) else {}
    created = meta.get("creationTimestamp")
    owner = next(((str(o.get("kind")), str(o.get("name"))) for o in meta.get("ownerReferences") or []
                  if isinstance(o, dict) and o.get("controller") is True), ("", ""))
    return Workload(namespace, name, _text(spec.get("queueName"), at + ("queueName",), f"{what}: spec.queueName"),
                    0 if priority is None else _integer(priority, at + ("priority",), f"{what}: spec.priority"),
                    str(admission.get("clusterQueue") or "") if reserved else "", usage,
                    conditions.get("Finished") == "True", "" if created is None else str(created), owner)


def read_elastic_quota(obj: dict[str, Any], name: str, path: tuple, quantities: Quantities) -> ElasticQuota | None:
    meta = obj.get("metadata") if isinstance(obj.get("metadata"), dict) else {}
    namespace = str(meta.get("namespace") or "default")
    spec = obj.get("spec") if isinstance(obj.get("spec"), dict) else {}
    lists = []
    for key in ("min", "max"):
        if spec.get(key) is None:
            lists.append(None)
            continue
        found = quantities(f"ElasticQuota {namespace}/{name} spec.{key}", spec[key], path + ("spec", key))
        if found is None:
            return None
        lists.append(found)
    return ElasticQuota(namespace, name, *lists)
