"""Stage 4, render: what each replicated job's pods get from a TrainJob spec, and which way it goes.

A TrainJob's pods are its runtime's, one role per replicated job (:mod:`mpigen.expand.trainjob_roles`).
Each setting of a role reaches its pods by the first of three ways that can say it, as Kubeflow
Trainer v2.3.0's code lets it (``pkg/apis/trainer/v1alpha1/trainjob_types.go``; ``newRuntimeInfo``
and ``mergeRuntimePatches`` in ``pkg/runtime/core/trainingruntime.go``; the jobset plugin's
``Build`` and ``Builder`` in ``pkg/runtime/framework/plugins/jobset``):

1. **The TrainJob's own fields** (:class:`~mpigen.expand.trainjob_roles.TrainerAPI`): ``trainer.image``, ``command`` and
   ``args`` set the ``node`` container of the trainer job (label ``trainer.kubeflow.org/
   trainjob-ancestor-step: trainer``); ``trainer.env`` is upserted into it and, with the MPI
   policy's ``runLauncherAsNode``, into the ``node`` job's too: it holds the variables every one
   of those jobs has alike; ``trainer.resourcesPerNode`` is merged into the same containers, so it
   is written when their resources are the same -- and none uses a DRA claim, since the merge
   writes back a container's limits and requests only and drops its claims --, with the limits
   and requests their pod template patches set on those containers alike (requests unlike the
   limits: the merge is the patch's; :func:`~mpigen.expand.trainjob_roles.patched_resources`);
   ``initializer.dataset.env`` / ``initializer.model.env`` are upserted into an initializer's
   container (when the webhook accepts them: the job and container named after the initializer,
   mounting the volume ``initializer``).
2. **The runtime patch** (:func:`patch_template`, one ``runtimePatches`` entry): a strategic merge
   patch of the JobSet template whose pod template takes ``metadata`` (labels, annotations) and
   the fields of a ``PodSpecPatch`` -- ``affinity``, ``imagePullSecrets``, ``nodeSelector``,
   ``securityContext``, ``serviceAccountName``, ``tolerations``, ``volumes`` -- and, of a
   container the runtime has (``ContainerPatch``), ``volumeMounts`` and ``securityContext``; its
   ``env`` is refused for the ``node`` and initializer containers, and a ``ContainerPatch`` has
   no image, so a container the patch added would have none.
3. **The TrainingRuntime copy** written beside the TrainJob (:func:`mpigen.render.trainjob.runtime_copy`)
   for all the rest, what only a runtime's pod templates say: ``hostNetwork`` (and the
   ``dnsPolicy`` it needs), ``dnsPolicy``, ``runtimeClassName``, ``topologySpreadConstraints``,
   ``resourceClaims``, ``priorityClassName``; of the training container its ``image``,
   ``command`` and ``args`` where Trainer's trainer API does not set them, the ``env`` and
   ``resources`` the TrainJob's fields do not give, ``envFrom``, ``ports``, the probes,
   ``imagePullPolicy``, ``workingDir``; init containers and sidecars (after the runtime's own);
   and the role's pod template patches (``podTemplatePatch``, the job-wide one then the role's).

Trainer applies the runtime patch over the runtime, so over the copy. For a pod template patch to
win over the fields, as it does for the other kinds, a part of the runtime patch that a pod
template patch of the role also sets -- the same pod field, the containers, the labels or the
annotations -- is written into the copy instead, before the patch (:attr:`RolePods.moved`).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from ..expand.trainjob_roles import (INITIALIZER_KEYS, RuntimeRole, TrainerAPI, trainer_api, trainjob_role_settings,
                                     without_patched_resources)
from .pods import ISTIO_INJECT, PROBES, container_mounts, env_var, init_containers, pod_volumes, resources

COPY_POD_FIELDS = ("runtimeClassName", "topologySpreadConstraints", "resourceClaims")
COPY_CONTAINER_FIELDS = ("envFrom", "ports", *PROBES)

Reason = tuple[tuple, str]
"""(the spec field, what the copy says for it and why: "<what> can only be said by ...")."""


@dataclass
class RolePods:
    """One replicated job: what the runtime patch and the copy say of its pods."""

    role: RuntimeRole
    settings: dict[str, Any]
    view: dict[str, Any]  # the expanded spec as the role's pods see it
    patch: dict[str, Any] = field(default_factory=dict)  # the runtime patch's pod template
    pod: dict[str, Any] = field(default_factory=dict)  # the copy's pod fields
    container: dict[str, Any] = field(default_factory=dict)  # the copy's training container fields
    env: list[dict[str, Any]] = field(default_factory=list)  # variables the copy upserts
    resources: dict[str, Any] = field(default_factory=dict)  # merged into the copy's container, per name
    init: list[dict[str, Any]] = field(default_factory=list)  # appended to the copy's init containers
    moved: dict[str, Any] = field(default_factory=dict)  # the runtime patch's part a pod template patch also sets
    reasons: list[Reason] = field(default_factory=list)

    @property
    def patches(self) -> list[tuple[tuple, dict[str, Any]]]:
        return self.settings["podTemplatePatches"]


def plan(metadata: dict[str, Any], spec: dict[str, Any], runtime: dict[str, Any]) -> tuple[TrainerAPI, list[RolePods]]:
    """The TrainJob's fields and each replicated job's pods (see the module's docstring)."""
    roles = trainjob_role_settings(spec, runtime)
    api = trainer_api(spec, roles)
    out = []
    for role, settings in roles:
        if api.patched and role.reached:  # said by trainer.resourcesPerNode
            settings["podTemplatePatches"] = without_patched_resources(settings["podTemplatePatches"])
        view = {**spec, **settings}
        if not role.trains:
            view.update(code=None, shmSize=None)
        pods = RolePods(role, settings, view, patch=patch_template(metadata, role, view))
        _copy_parts(pods, spec, api)
        _move_overlaps(pods)
        out.append(pods)
    return api, out


def patch_template(metadata: dict[str, Any], role: RuntimeRole, view: dict[str, Any]) -> dict[str, Any]:
    """The runtime patch's pod template of one replicated job: the pods' labels (the job's and the
    role's; an initializer's own only) and annotations (``sidecar.istio.io/inject: "false"`` on
    the pods that train, as for every mpigen job), then the ``PodSpecPatch`` fields."""
    meta: dict[str, Any] = {}
    labels = {**((metadata.get("labels") or {}) if role.trains else {}), **view["labels"]}
    annotations = {ISTIO_INJECT: "false", **view["annotations"]} if role.trains else dict(view["annotations"])
    if labels:
        meta["labels"] = dict(sorted(labels.items()))
    if annotations:
        meta["annotations"] = dict(sorted(annotations.items()))
    plain = {**view, "code": None}  # code sync lives in the copy
    pod: dict[str, Any] = {}
    if view.get("affinity"):
        pod["affinity"] = copy.deepcopy(view["affinity"])
    container: dict[str, Any] = {}
    mounts = container_mounts(plain)
    if role.main and mounts:
        container["volumeMounts"] = [dict(m) for m in mounts]
    if role.main and view.get("securityContext"):
        container["securityContext"] = copy.deepcopy(view["securityContext"])
    if container:
        pod["containers"] = [{"name": role.main, **container}]
    if view.get("imagePullSecrets"):
        pod["imagePullSecrets"] = [{"name": n} for n in view["imagePullSecrets"]]
    if view.get("nodeSelector"):
        pod["nodeSelector"] = dict(sorted(view["nodeSelector"].items()))
    if view.get("podSecurityContext"):
        pod["securityContext"] = copy.deepcopy(view["podSecurityContext"])
    if view.get("serviceAccountName"):
        pod["serviceAccountName"] = view["serviceAccountName"]
    if view.get("tolerations"):
        pod["tolerations"] = [dict(t) for t in view["tolerations"]]
    volumes = pod_volumes(plain)
    if volumes:
        pod["volumes"] = copy.deepcopy(volumes)
    template: dict[str, Any] = {}
    if meta:
        template["metadata"] = meta
    if pod:
        template["spec"] = pod
    return template


def where(spec: dict[str, Any], role: RuntimeRole, key: str) -> tuple:
    """The spec field that gives ``role`` its ``key``: its own, else the job's."""
    own = (spec.get("roles") or {}).get(role.name)
    return ("spec", "roles", role.name, key) if isinstance(own, dict) and key in own else ("spec", key)


def _copy_parts(pods: RolePods, spec: dict[str, Any], api: TrainerAPI) -> None:
    """What only the copy can say of a role's pods, and why."""
    role, view = pods.role, pods.view

    def reason(key: str, what: str, why: str = "", place: tuple | None = None) -> None:
        path = place or where(spec, role, key)
        mine = path[:3] == ("spec", "roles", role.name)
        text = what.format(pods=f"the {role.name} pods'" if mine else "the pods'",
                           container=f"the {role.name} training container's" if mine else "the training container's",
                           nodes=f"the {role.name} pods'" if mine else "the nodes'")
        pods.reasons.append((path, f"{text} can only be said by a runtime's pod templates" + (f" ({why})" if why else "")))

    if view.get("priorityClassName"):
        pods.pod["priorityClassName"] = view["priorityClassName"]
        place = where(spec, role, "priorityClassName")
        if len(place) == 2 and spec["scheduling"].get("priorityClass") == view["priorityClassName"]:
            place = ("spec", "scheduling", "priorityClass")
        reason("priorityClassName", "{pods} priorityClassName", place=place)
    if view.get("hostNetwork"):
        pods.pod["hostNetwork"] = True
        pods.pod["dnsPolicy"] = view.get("dnsPolicy") or "ClusterFirstWithHostNet"
        reason("hostNetwork", "{pods} hostNetwork (and its dnsPolicy)", "a runtime patch has no hostNetwork")
    elif view.get("dnsPolicy"):
        pods.pod["dnsPolicy"] = view["dnsPolicy"]
        reason("dnsPolicy", "{pods} dnsPolicy", "a runtime patch has no dnsPolicy")
    for key in COPY_POD_FIELDS:
        if view.get(key):
            pods.pod[key] = copy.deepcopy(view[key])
            reason(key, "{pods} " + key, f"a runtime patch has no {key}")
    pods.init = init_containers(view)
    for key, what in (("sidecars", "sidecars"), ("initContainers", "init containers")):
        if view.get(key):
            reason(key, "{pods} " + what, "a runtime patch's init container has no image")
    for place, _ in pods.patches:
        pods.reasons.append((place, f"the pod template patch is applied to the pod template of {role.name} in the "
                                    "copy: only a runtime's pod templates can take it"))
    if role.main is None:
        return
    for key in ("image", "command", "args"):
        given = getattr(api, key) if role.trainer else None
        if view.get(key) and view[key] != given:
            pods.container[key] = copy.deepcopy(view[key])
            reason(key, "{container} " + key, "Trainer's trainer API sets only the trainer job's node container")
    for key in COPY_CONTAINER_FIELDS:
        if view.get(key):
            pods.container[key] = copy.deepcopy(view[key])
            reason(key, "{container} " + key,
                   "a runtime patch's container takes only env, volumeMounts and securityContext")
    for key in ("imagePullPolicy", "workingDir"):
        if view.get(key):
            pods.container[key] = view[key]
            if key == "imagePullPolicy" or not spec.get("code") or where(spec, role, key)[1] == "roles":
                reason(key, "{nodes} " + key)
    _env(pods, api, reason)
    claims = view.get("resourceClaims")
    if (view["resources"] or claims) and not (role.reached and api.resources is not None):
        pods.resources = resources(spec, view["resources"], claims)
        if not role.reached:
            why = "trainer.resourcesPerNode sizes only the trainer's node containers"
        elif claims:
            why = "Trainer merges trainer.resourcesPerNode into a container and writes back its limits and requests " \
                  "only, without its claims"
        else:
            why = "trainer.resourcesPerNode would give the node containers of every job it reaches the same"
        reason("resourceClaims" if claims and (role.reached or not view["resources"]) else "resources",
               "{container} resources", why)


def _env(pods: RolePods, api: TrainerAPI, reason: Any) -> None:
    """The variables the TrainJob's fields do not give the role's training container."""
    role, view = pods.role, pods.view
    if role.reached:
        given = api.env
        why = ("trainer.env gives every node container it reaches the same variables, and Trainer's webhook refuses "
               "a runtime patch's env for a node container")
    elif role.initializer_api:
        given = api.initializer.get(INITIALIZER_KEYS[role.name], {})
        why = ""
    else:
        given = {}
        why = ("trainer.env reaches only the trainer's node containers, and Trainer's webhook refuses a runtime "
               f"patch's env for the {role.main} container")
    pods.env = [env_var(k, v) for k, v in view["env"].items() if k not in given or given[k] != v]
    if pods.env:
        reason("env", "{container} env", why)


def touched(patch: dict[str, Any]) -> tuple[set[str], set[str]]:
    """The pod spec fields and the metadata fields (labels, annotations) a pod template patch sets:
    its keys, a directive's field (``$setElementOrder/containers``: containers) and, for
    ``$patch``, every field."""
    every = {"*"}
    if "$patch" in patch:
        return every, every
    spec = patch.get("spec") if isinstance(patch.get("spec"), dict) else {}
    metadata = patch.get("metadata") if isinstance(patch.get("metadata"), dict) else {}
    found = []
    for part in (spec, metadata):
        keys: set[str] = set()
        for key in part:
            if key == "$patch" or key == "$retainKeys":
                keys |= every
            else:
                keys.add(key.partition("/")[2] if key.startswith("$") else key)
        found.append(keys)
    return found[0], found[1]


def _move_overlaps(pods: RolePods) -> None:
    """The parts of the runtime patch that a pod template patch of the role also sets go into the
    copy, before the pod template patch (see the module's docstring)."""
    spec_keys: set[str] = set()
    meta_keys: set[str] = set()
    for _, patch in pods.patches:
        found_spec, found_meta = touched(patch)
        spec_keys |= found_spec
        meta_keys |= found_meta
    moved: dict[str, Any] = {}
    for part, keys in (("spec", spec_keys), ("metadata", meta_keys)):
        values = pods.patch.get(part) or {}
        taken = {k: v for k, v in values.items() if "*" in keys or k in keys}
        if not taken:
            continue
        moved[part] = taken
        rest = {k: v for k, v in values.items() if k not in taken}
        if rest:
            pods.patch[part] = rest
        else:
            del pods.patch[part]
    pods.moved = moved
