"""What every migration shares: the change record, metadata and status clean-up, field moves.

A migration is a pure function ``(old object, options) -> (new object or None, changes)``; a
:class:`Change` names the *old* field (its JSON path in the input object), so the CLI can point at
the line the user wrote.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from ..diagnostics import Severity, format_path

Path = tuple[str | int, ...]
Objects = list[dict[str, Any]]
"""What a migration writes: Kubernetes objects, in apply order."""


@dataclass(frozen=True)
class Change:
    """One change made (or refused) while migrating: where in the old object, which code, what."""

    path: Path
    code: str
    severity: Severity
    message: str


@dataclass(frozen=True)
class LegacyFlags:
    """The flags of the mpi-operator v1alpha1 controller that decided what ``gpus`` and
    ``processingUnits`` meant (``cmd/mpi-operator.v1alpha1/main.go`` at v0.2.3); ``None``: the
    user did not say, the flag's default is assumed and the assumption reported."""

    gpus_per_node: int | None = None
    processing_units_per_node: int | None = None
    processing_resource_type: str | None = None


def p(path: Path) -> str:
    return format_path(path)


def moved(old: Path, new: Path, severity: Severity = Severity.INFO, note: str = "") -> Change:
    return Change(old, "migrated-field", severity, f"{p(old)} -> {p(new)}{note}")


def changed(at: Path, old: object, new: object, why: str = "") -> Change:
    """A value rewritten in place (the field keeps its name)."""
    return Change(at, "migrated-field", Severity.INFO, f"{p(at)}: {old} -> {new}{why}")


def dropped(old: Path, why: str, severity: Severity = Severity.INFO) -> Change:
    return Change(old, "dropped-field", severity, f"{p(old)} dropped: {why}")


def added(at: Path, new: Path, value: Any, why: str) -> Change:
    return Change(at, "added-field", Severity.INFO, f"{p(new)}: {_show(value)} added: {why}")


def lossy(at: Path, message: str) -> Change:
    return Change(at, "lossy-migration", Severity.WARNING, message)


def refused(at: Path, message: str) -> Change:
    return Change(at, "not-migratable", Severity.ERROR, message)


def _show(value: Any) -> str:
    return value if isinstance(value, str) else repr(value).replace("True", "true").replace("False", "false")


# Filled by the API server, never by a user: meaningless once the object changes apiVersion.
SERVER_METADATA = ("uid", "resourceVersion", "generation", "creationTimestamp", "selfLink", "managedFields",
                   "deletionTimestamp", "deletionGracePeriodSeconds")
LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration"
TOP_LEVEL = ("apiVersion", "kind", "metadata", "spec", "status")
KUBE_BATCH = ("kube-batch", "kube-batchd")


def object_shell(old: dict[str, Any], api_version: str, changes: list[Change]) -> dict[str, Any]:
    """apiVersion, kind and metadata of the new object; server-written metadata, the old
    ``last-applied-configuration``, ``status`` and unknown top-level fields are dropped."""
    new: dict[str, Any] = {"apiVersion": api_version, "kind": old["kind"]}
    changes.append(Change(("apiVersion",), "migrated-api", Severity.INFO,
                          f"{old['kind']} {old['apiVersion']} -> {api_version}"))
    meta = old.get("metadata")
    if isinstance(meta, dict):
        meta = copy.deepcopy(meta)
        for key in SERVER_METADATA:
            if key in meta:
                del meta[key]
                changes.append(dropped(("metadata", key), "written by the API server for the old object"))
        annotations = meta.get("annotations")
        if isinstance(annotations, dict) and LAST_APPLIED in annotations:
            del annotations[LAST_APPLIED]
            changes.append(dropped(("metadata", "annotations", LAST_APPLIED),
                                   "it holds the old manifest; kubectl apply writes a new one"))
            if not annotations:
                del meta["annotations"]
        new["metadata"] = meta
    elif "metadata" in old:
        new["metadata"] = copy.deepcopy(old["metadata"])
    if "status" in old:
        changes.append(dropped(("status",), "the old operator's status; the new operator writes its own"))
    for key in old:
        if key not in TOP_LEVEL:
            changes.append(dropped((key,), f"not a field of {old['kind']} {old['apiVersion']}",
                                   Severity.WARNING))
    return new


def unknown_spec_fields(spec: dict[str, Any], known: tuple[str, ...], what: str) -> list[Change]:
    """Spec fields the old API did not have: the old operator ignored them, they are dropped."""
    return [dropped(("spec", key), f"not a field of {what} (the old operator ignored it)", Severity.WARNING)
            for key in spec if key not in known]


def kube_batch_templates(replicas: dict[str, Any], base: Path, kind: str, operator: str) -> list[Change]:
    """A warning for each pod template that names the kube-batch scheduler: the name is kept (the
    pods still go to kube-batch), but no current operator creates kube-batch PodGroups."""
    out = []
    for name, spec in replicas.items():
        template = spec.get("template") if isinstance(spec, dict) else None
        pod = template.get("spec") if isinstance(template, dict) else None
        scheduler = pod.get("schedulerName") if isinstance(pod, dict) else None
        if scheduler in KUBE_BATCH:
            out.append(lossy(base + (name, "template", "spec", "schedulerName"),
                             f"schedulerName {scheduler} kept, but {operator} creates no kube-batch PodGroup "
                             f"(it supports Volcano and scheduler-plugins), so these {kind} pods form no gang; "
                             "create the PodGroup yourself, or write an mpigen spec with scheduling.gang: "
                             "kube-batch, or move to Volcano (kube-batch's successor)"))
    return out


RUN_POLICY_ORDER = ("cleanPodPolicy", "ttlSecondsAfterFinished", "activeDeadlineSeconds", "backoffLimit",
                    "schedulingPolicy", "suspend", "managedBy")
"""The field order of kubeflow's ``RunPolicy`` (training-operator v1.9.4 ``common_types.go``)."""


def ordered_run_policy(policy: dict[str, Any]) -> dict[str, Any]:
    out = {key: policy[key] for key in RUN_POLICY_ORDER if key in policy}
    out.update({key: value for key, value in policy.items() if key not in out})
    return out


def pod_spec(replica: Any) -> dict[str, Any] | None:
    """``replica.template.spec`` when it is a mapping."""
    template = replica.get("template") if isinstance(replica, dict) else None
    spec = template.get("spec") if isinstance(template, dict) else None
    return spec if isinstance(spec, dict) else None


def containers(replica: Any) -> list[Any]:
    spec = pod_spec(replica)
    value = spec.get("containers") if spec else None
    return value if isinstance(value, list) else []


def mapping(value: Any) -> dict[str, Any]:
    """``value`` if it is a mapping, else an empty one (a manifest's field may hold anything)."""
    return value if isinstance(value, dict) else {}
