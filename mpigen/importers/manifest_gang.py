"""``mpigen import manifest``, the gang: ``spec.scheduling`` from the job, its pods and its file.

* A gang the operator runs (``volcano``, ``scheduler-plugins``: the pod templates name it, or
  ``--gang``): of the job's ``schedulingPolicy`` only the values without which the PodGroup the
  operator creates would be another (mpigen writes the others as the operator resolves them);
  what the operator does not pass to the PodGroup is ``import-dropped``.
* Kueue: the job's labels ``kueue.x-k8s.io/queue-name`` and ``priority-class`` (``gang: kueue``,
  which owns ``runPolicy.suspend``); beside an operator's gang they are ``import-lost``.
* kube-batch: pods that name it and their group, and its PodGroup in the file (as mpigen writes
  it beside the job).
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

from ..expand.defaults import DEFAULT_SCHEDULER_PLUGINS
from ..operator.podgroup import DEFAULT_SCHEDULER_PLUGINS_NAME
from .manifest_pods import GROUP_ANNOTATION, Finding, dropped, lost

if TYPE_CHECKING:
    from .manifest import ImportOptions

KUEUE_QUEUE = "kueue.x-k8s.io/queue-name"
KUEUE_PRIORITY = "kueue.x-k8s.io/priority-class"
SCHEDULING_KEYS = ("minAvailable", "queue", "priorityClass", "minResources", "scheduleTimeoutSeconds")
KUBE_BATCH_API = "scheduling.incubator.k8s.io/v1alpha1"


def scheduling(job: dict[str, Any], defaulted: dict[str, Any], gang: str | None, metadata: dict[str, Any],
               options: ImportOptions, findings: list[Finding]) -> dict[str, Any]:
    """``spec.scheduling``: the gang, and of the manifest's ``schedulingPolicy`` only what changes
    the PodGroup the operator creates (mpigen writes the rest as the operator resolves it)."""
    policy = dict(((defaulted["spec"].get("runPolicy") or {}).get("schedulingPolicy")) or {})
    where = ("spec", "runPolicy", "schedulingPolicy")
    if gang is None:
        labels = metadata.get("labels") or {}
        out: dict[str, Any] = {}
        if KUEUE_QUEUE in labels:  # Kueue admits the job by these labels; mpigen writes them from scheduling
            out = {"gang": "kueue", "queue": labels.pop(KUEUE_QUEUE)}
            if KUEUE_PRIORITY in labels:
                out["priorityClass"] = labels.pop(KUEUE_PRIORITY)
            if not labels:
                metadata.pop("labels")
            if "suspend" in (defaulted["spec"].get("runPolicy") or {}):
                findings.append(dropped(("spec", "runPolicy", "suspend"), "runPolicy.suspend is not imported: "
                                        "Kueue suspends the job when it is created and resumes it when it admits it"))
        why = ("Kueue admits the job by quota and no PodGroup is created" if out else
               "the pod templates name no gang scheduler (give the operator's with --gang)")
        for key in policy:
            findings.append(dropped(where + (key,), f"schedulingPolicy.{key} is not imported: {why}"))
        return out
    out = {"gang": gang}
    for label in (KUEUE_QUEUE, KUEUE_PRIORITY):
        if label in (metadata.get("labels") or {}):
            findings.append(lost(("metadata", "labels", label), f"{label} with a {gang} gang: a spec's job has one "
                                 "gang (scheduling.gang), and mpigen writes Kueue's labels for gang kueue only"))
    if gang == "scheduler-plugins" and options.scheduler_name != DEFAULT_SCHEDULER_PLUGINS:
        out["schedulerName"] = options.scheduler_name
    group = _pod_group(defaulted, gang, options)
    for key in SCHEDULING_KEYS:
        if key not in policy:
            continue
        without = copy.deepcopy(defaulted)
        del without["spec"]["runPolicy"]["schedulingPolicy"][key]
        if _pod_group(without, gang, options) != group:
            out[key] = _spec_resources(policy[key]) if key == "minResources" else policy[key]
            continue
        passed = {"volcano": ("minAvailable", "queue", "priorityClass", "minResources"),
                  "scheduler-plugins": ("minAvailable", "minResources", "scheduleTimeoutSeconds")}[gang]
        if key not in passed:
            findings.append(dropped(where + (key,), f"schedulingPolicy.{key} is not imported: mpi-operator and "
                                    f"training-operator do not pass it to {gang}'s PodGroup"))
        defaulted = without
    for key in policy:
        if key not in SCHEDULING_KEYS:
            findings.append(lost(where + (key,), f"schedulingPolicy.{key}: not a field of the spec's scheduling"))
    return out


def _pod_group(job: dict[str, Any], gang: str, options: ImportOptions) -> Any:
    from ..operator.podgroup import OperatorPanicError

    try:
        if job["kind"] == "MPIJob":
            from ..operator.podgroup import new_pod_group

            return new_pod_group(job, gang, options.priority_classes,
                                 scheduler_name=options.scheduler_name or DEFAULT_SCHEDULER_PLUGINS_NAME,
                                 version=options.operator_version)
        from ..operator.training_podgroup import podgroup

        return podgroup(job, gang, options.priority_classes or {})
    except (OperatorPanicError, KeyError, TypeError, ValueError) as exc:
        return repr(exc)


def _spec_resources(values: dict[str, Any]) -> dict[str, Any]:
    """A ResourceList as the spec's resources (``nvidia.com/gpu`` as ``gpu``)."""
    out: dict[str, Any] = {}
    for name, value in (values or {}).items():
        if name == "nvidia.com/gpu" and str(value).isdigit():
            out["gpu"] = int(str(value))
        else:
            out[name] = value if isinstance(value, str) else str(value)
    return out


def kube_batch_group(job: dict[str, Any], replicas: dict[str, Any], beside: tuple[dict[str, Any], ...]
                     ) -> dict[str, Any] | None:
    """kube-batch's PodGroup of the job, when its pods all name kube-batch and that group (as mpigen
    writes them, a spec's ``gang: kube-batch``) and the file holds the PodGroup."""
    meta = job.get("metadata") or {}
    for replica in replicas.values():
        template = replica.get("template") or {}
        if (template.get("spec") or {}).get("schedulerName") != "kube-batch" or \
                ((template.get("metadata") or {}).get("annotations") or {}).get(GROUP_ANNOTATION) != meta.get("name"):
            return None
    return next((obj for obj in beside if obj.get("apiVersion") == KUBE_BATCH_API and obj.get("kind") == "PodGroup"
                 and (obj.get("metadata") or {}).get("name") == meta.get("name")
                 and (obj.get("metadata") or {}).get("namespace") == meta.get("namespace")), None)


def kube_batch(group: dict[str, Any], replicas: dict[str, Any]) -> dict[str, Any]:
    """``scheduling`` of a kube-batch gang, from its PodGroup (minMember: every pod by default)."""
    spec = group.get("spec") or {}
    out: dict[str, Any] = {"gang": "kube-batch"}
    if spec.get("queue"):
        out["queue"] = spec["queue"]
    if spec.get("priorityClassName"):
        out["priorityClass"] = spec["priorityClassName"]
    pods = sum(r.get("replicas", 1) for r in replicas.values())
    if spec.get("minMember", pods) != pods:
        out["minAvailable"] = spec["minMember"]
    return out


def scheduler_name_of(replicas: dict[str, Any]) -> str:
    """The scheduler-plugins scheduler the pod templates name (one for all), else the default."""
    names = {((r.get("template") or {}).get("spec") or {}).get("schedulerName") for r in replicas.values()
             if isinstance(r, dict)}
    names.discard(None)
    return names.pop() if len(names) == 1 else DEFAULT_SCHEDULER_PLUGINS_NAME
