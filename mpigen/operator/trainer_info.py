"""What Kubeflow Trainer v2.3.0 reads from a TrainJob and its runtime before it validates or builds
anything: the runtime reference with its defaults, and the runtime's JobSet template with the
TrainJob's ``runtimePatches`` and ``trainer.resourcesPerNode`` merged in (``runtime.Info``).

Ported from ``pkg/runtime/core/trainingruntime.go`` (``newRuntimeInfo``, lines 141-249, and
``mergeRuntimePatches``, lines 251-290) and ``pkg/runtime/runtime.go`` (``Info``, ``PodSet``,
``WithPodSet``, lines 36-155). The TrainJob webhook computes this same ``Info`` before its plugins'
``Validate`` run (``ValidateObjects``, ``trainingruntime.go`` line 315): a check that reads the
runtime reads the merged template, not the runtime as written.

``runtimePatches`` are merged as a strategic merge patch of ``JobSetSpec`` (apimachinery's
``strategicpatch``): maps merge key by key, lists with a patch merge key (replicated jobs,
containers, init containers, env, volumes by name; volume mounts by mountPath) merge item by item
and an item the original lacks is added (before the original's items, as ``StrategicMergePatch``
orders them), other lists are replaced. A patch may only carry the fields of
``JobSetSpecPatch`` (``trainjob_types.go``), which the schema enforces, so the merge keys below
cover every list it can hold. The replicated jobs then go back to the runtime's order (a stable
sort on their index in the runtime, 0 for an added one).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from ..names import CLUSTER_TRAINING_RUNTIME_KIND

TRAINER_GROUP = "trainer.kubeflow.org"
ANCESTOR_LABEL = "trainer.kubeflow.org/trainjob-ancestor-step"
ANCESTOR_TRAINER = "trainer"
DATASET_INITIALIZER = "dataset-initializer"
MODEL_INITIALIZER = "model-initializer"
NODE = "node"
LAUNCHER = "launcher"
WEBHOOK_VALIDATION_LABEL = "trainer.kubeflow.org/webhook-validation"
SUPPORT_LABEL = "trainer.kubeflow.org/support"

POD_SPEC = ("template", "spec", "template", "spec")
"""Where a replicated job holds its pod spec."""

_MERGE_KEYS: dict[tuple[str, ...], str] = {
    ("replicatedJobs",): "name",
    ("replicatedJobs", *POD_SPEC, "containers"): "name",
    ("replicatedJobs", *POD_SPEC, "initContainers"): "name",
    ("replicatedJobs", *POD_SPEC, "containers", "env"): "name",
    ("replicatedJobs", *POD_SPEC, "initContainers", "env"): "name",
    ("replicatedJobs", *POD_SPEC, "containers", "volumeMounts"): "mountPath",
    ("replicatedJobs", *POD_SPEC, "initContainers", "volumeMounts"): "mountPath",
    ("replicatedJobs", *POD_SPEC, "volumes"): "name",
    ("replicatedJobs", *POD_SPEC, "imagePullSecrets"): "name",
    ("replicatedJobs", *POD_SPEC, "schedulingGates"): "name",
}


def mapping(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def items(value: Any) -> list[dict[str, Any]]:
    return [item for item in value if isinstance(item, dict)] if isinstance(value, list) else []


def runtime_ref(job: dict[str, Any]) -> tuple[str, str, str]:
    """(apiGroup, kind, name) of ``spec.runtimeRef`` with the CRD's defaults
    (``trainer.kubeflow.org``, ``ClusterTrainingRuntime``; ``trainjob_types.go`` RuntimeRef)."""
    ref = mapping(mapping(job.get("spec")).get("runtimeRef"))
    group, kind, name = ref.get("apiGroup", TRAINER_GROUP), ref.get("kind", CLUSTER_TRAINING_RUNTIME_KIND), ref.get("name")
    return (group if isinstance(group, str) else "", kind if isinstance(kind, str) else "",
            name if isinstance(name, str) else "")


def _merge(original: Any, patch: Any, path: tuple[str, ...]) -> Any:
    if isinstance(original, dict) and isinstance(patch, dict):
        out = dict(original)
        for key, value in patch.items():
            out[key] = _merge(original[key], value, path + (key,)) if key in original else copy.deepcopy(value)
        return out
    key = _MERGE_KEYS.get(path)
    if key is not None and isinstance(original, list) and isinstance(patch, list):
        merged = [dict(item) if isinstance(item, dict) else item for item in original]
        added = []
        for item in patch:
            at = next((i for i, old in enumerate(merged) if isinstance(old, dict) and isinstance(item, dict)
                       and key in item and old.get(key) == item[key]), None)
            if at is None:
                added.append(copy.deepcopy(item))
            else:
                merged[at] = _merge(merged[at], item, path)
        return added + merged
    return copy.deepcopy(patch)


def merged_spec(runtime: dict[str, Any], job: dict[str, Any]) -> dict[str, Any]:
    """The runtime's ``spec.template.spec`` with the TrainJob's runtime patches merged in."""
    spec = copy.deepcopy(mapping(mapping(mapping(runtime.get("spec")).get("template")).get("spec")))
    order = {job_["name"]: i for i, job_ in enumerate(items(spec.get("replicatedJobs"))) if isinstance(job_.get("name"), str)}
    for patch in items(mapping(job.get("spec")).get("runtimePatches")):
        template_patch = mapping(mapping(patch.get("trainingRuntimeSpec")).get("template")).get("spec")
        if isinstance(template_patch, dict):
            spec = _merge(spec, template_patch, ())
    if isinstance(spec.get("replicatedJobs"), list):
        spec["replicatedJobs"] = sorted(spec["replicatedJobs"],
                                        key=lambda j: order.get(j["name"], 0) if isinstance(j, dict)
                                        and isinstance(j.get("name"), str) else 0)
    return spec


def merge_resources(base: dict[str, Any], override: dict[str, Any]) -> dict[str, Any]:
    """``MergeResourceRequirements`` (``pkg/util/trainingruntime``): limits and requests merge name by
    name, claims by name."""
    out = copy.deepcopy(base)
    for part in ("limits", "requests"):
        if isinstance(override.get(part), dict):
            out[part] = {**mapping(out.get(part)), **override[part]}
    if isinstance(override.get("claims"), list):
        out["claims"] = _merge_claims(items(out.get("claims")), items(override["claims"]))
    return out


def _merge_claims(base: list[dict[str, Any]], override: list[dict[str, Any]]) -> list[dict[str, Any]]:
    merged = [dict(c) for c in base]
    added = []
    for claim in override:
        at = next((i for i, old in enumerate(merged) if old.get("name") == claim.get("name")), None)
        if at is None:
            added.append(dict(claim))
        else:
            merged[at] = {**merged[at], **claim}
    return added + merged


@dataclass(slots=True)
class PodSet:
    """One replicated job's pods (``runtime.PodSet``): its name, ancestor label, pod spec (with
    ``resourcesPerNode`` merged into the ``node`` container where Trainer merges it) and index."""

    name: str
    ancestor: str | None
    pod_spec: dict[str, Any]
    index: int

    def container_names(self, init: bool = False) -> list[str]:
        return [c.get("name") for c in items(self.pod_spec.get("initContainers" if init else "containers"))]


@dataclass(slots=True)
class RuntimeInfo:
    """``runtime.Info`` as far as validation reads it."""

    annotations: dict[str, Any]
    ml_policy: dict[str, Any] | None
    pod_group_policy: dict[str, Any] | None
    spec: dict[str, Any]
    pod_sets: list[PodSet] = field(default_factory=list)

    def pod_set(self, name: str) -> PodSet | None:
        return next((ps for ps in self.pod_sets if ps.name == name), None)


def runtime_info(runtime: dict[str, Any], job: dict[str, Any]) -> RuntimeInfo:
    """``newRuntimeInfo`` for a TrainJob and the runtime it names (both as the API server stores them)."""
    runtime_spec = mapping(runtime.get("spec"))
    job_spec = mapping(job.get("spec"))
    template_meta = mapping(mapping(runtime_spec.get("template")).get("metadata"))
    annotations = dict(mapping(template_meta.get("annotations")))
    for patch in items(job_spec.get("runtimePatches")):
        meta = mapping(mapping(mapping(patch.get("trainingRuntimeSpec")).get("template")).get("metadata"))
        annotations.update(mapping(meta.get("annotations")))
    ml_policy = runtime_spec.get("mlPolicy") if isinstance(runtime_spec.get("mlPolicy"), dict) else None
    spec = merged_spec(runtime, job)
    resources = mapping(job_spec.get("trainer")).get("resourcesPerNode")
    mpi = mapping(mapping(ml_policy).get("mpi")) if ml_policy is not None else {}
    launcher_as_node = ml_policy is not None and "mpi" in ml_policy and mpi.get("runLauncherAsNode", False) is True
    info = RuntimeInfo(annotations, ml_policy, mapping(runtime_spec.get("podGroupPolicy")) or None, spec)
    for index, rjob in enumerate(items(spec.get("replicatedJobs"))):
        labels = mapping(mapping(mapping(rjob.get("template")).get("metadata")).get("labels"))
        ancestor = labels.get(ANCESTOR_LABEL) if isinstance(labels.get(ANCESTOR_LABEL), str) else None
        pod_spec = copy.deepcopy(mapping(mapping(mapping(mapping(rjob.get("template")).get("spec")).get("template"))
                                         .get("spec")))
        name = rjob.get("name") if isinstance(rjob.get("name"), str) else ""
        # trainingruntime.go lines 199-237: resourcesPerNode goes to the first container named node of
        # the trainer-ancestor job (with an mlPolicy) and, with MPI runLauncherAsNode, of the job named node.
        if isinstance(resources, dict) and ((ancestor == ANCESTOR_TRAINER and ml_policy is not None)
                                            or (launcher_as_node and name == NODE)):
            for container in items(pod_spec.get("containers")):
                if container.get("name") == NODE:
                    container["resources"] = merge_resources(mapping(container.get("resources")), resources)
                    break
        info.pod_sets.append(PodSet(name, ancestor, pod_spec, index))
    return info
