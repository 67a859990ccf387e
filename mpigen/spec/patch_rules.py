"""Stage 2b, check: the rules of ``podTemplatePatch``, the escape hatch (job-wide and per role).

A pod template patch is a strategic merge patch of the pod template mpigen generates for a role
(:mod:`mpigen.render.patching` applies it). These rules read the patch as written:

- it patches a pod template: its keys are ``metadata`` (``labels``, ``annotations``) and ``spec``;
- it may not set what mpigen or the operator owns: the number of pods, the scheduler and the
  gang's group under a gang scheduler, each pod's hostname and restart policy, an MPIJob's hostfile
  and SSH key mounts. Each is an error that names the spec field to use instead;
- where it sets what a field of the spec also sets, the patch wins (it is applied last, to what
  the fields generated): a warning names the field, so that one of the two can go;
- a container it names that the role's pods do not have is added to them: a warning, since a job-wide
  patch meant for one role's container (an MPI worker's) would add it to the others.

What a patch does to the pods (a merge key missing, the result not a valid pod) is reported at
the patch's lines when it is applied and when the patched job is checked.
"""

from __future__ import annotations

import functools
from typing import Any, Callable, Iterator

from ..diagnostics import Severity, did_you_mean
from ..expand.defaults import DEFAULT_SSH_PATH, gpu_resource_name
from ..expand.environments import placed_patches
from ..expand.roles import ROLES, role_settings, roles_of
from ..names import TRAINING_CONTAINER, volume_name
from ..versions import OperatorVersion

Finding = tuple[tuple, str, Severity, str]

CONTAINER_NAMES = {("mpi", "launcher"): "launcher", ("mpi", "worker"): "worker", **TRAINING_CONTAINER}
GANG_SCHEDULERS = ("volcano", "scheduler-plugins", "kube-batch")
GROUP_MARKS = {"scheduling.k8s.io/group-name": "the pods' PodGroup (Volcano, kube-batch)",
               "scheduling.x-k8s.io/pod-group": "the pods' PodGroup (scheduler-plugins)",
               "volcano.sh/task-spec": "the pods' task in Volcano's PodGroup",
               "kueue.x-k8s.io/queue-name": "the job's Kueue LocalQueue",
               "kueue.x-k8s.io/priority-class": "the job's Kueue WorkloadPriorityClass"}
OPERATOR_VOLUMES = ("ssh-auth", "mpi-job-config")  # mpi-operator v0.8.2's SSH keys and hostfile volumes
HOSTFILE_PATH = "/etc/mpi"
POD_TEMPLATE_KEYS = ("metadata", "spec")
POD_METADATA_KEYS = ("labels", "annotations")
DIRECTIVE_PREFIX = "$"

# What a patch may set that a field of the spec also sets: the pod spec's field -> the spec's
# field, and how the two are compared (a map by key, a list by name, else the whole value).
PATCHED_POD_FIELDS = {
    "nodeSelector": ("nodeSelector", "keys"), "tolerations": ("tolerations", None), "affinity": ("affinity", None),
    "topologySpreadConstraints": ("topologySpreadConstraints", None),
    "securityContext": ("podSecurityContext", None), "hostNetwork": ("hostNetwork", None),
    "dnsPolicy": ("dnsPolicy", None), "runtimeClassName": ("runtimeClassName", None),
    "serviceAccountName": ("serviceAccountName", None), "imagePullSecrets": ("imagePullSecrets", None),
    "priorityClassName": ("priorityClassName", None), "resourceClaims": ("resourceClaims", None),
    "volumes": ("volumes", "names"), "initContainers": ("initContainers", "names"),
}
CONTAINER_FIELDS = {
    "image": "image", "imagePullPolicy": "imagePullPolicy", "command": "command", "args": "args",
    "workingDir": "workingDir", "env": "env", "envFrom": "envFrom", "ports": "ports", "resources": "resources",
    "livenessProbe": "livenessProbe", "readinessProbe": "readinessProbe", "startupProbe": "startupProbe",
    "securityContext": "securityContext",
}


def patches(spec: dict) -> list[tuple[tuple, dict, tuple[str, ...]]]:
    """(where, patch, the roles it applies to) of every pod template patch of the spec."""
    if spec.get("runtime") is not None or spec.get("framework", "mpi") not in ROLES:
        return []
    roles = roles_of(spec)
    return [(where, patch, roles if own is None else (own,)) for where, patch, own in placed_patches(spec)
            if own is None or own in roles]


def container_name(framework: str, role: str) -> str:
    """The name of a role's training container."""
    return CONTAINER_NAMES.get((framework, role)) or CONTAINER_NAMES[framework]


def _shape(doc: dict, spec: dict, version: OperatorVersion) -> Iterator[Finding]:
    yield from shape(patches(spec))


def shape(places: list[tuple[tuple, dict, tuple[str, ...]]]) -> Iterator[Finding]:
    """A pod template patch has a pod template's keys (``places``: see :func:`patches`)."""
    for where, patch, _ in places:
        for key in patch:
            if key in POD_TEMPLATE_KEYS or key.startswith(DIRECTIVE_PREFIX) or key == "replicas":
                continue
            hint = (f"; {key} is a field of the pod's spec: write it under spec" if key in _pod_spec_fields() else
                    _did_you_mean(key, POD_TEMPLATE_KEYS))
            yield (where + (key,), "patch-not-pod-template", Severity.ERROR,
                   f"podTemplatePatch patches a pod template, whose fields are metadata and spec: {key!r} is not "
                   f"one{hint}")
        metadata = patch.get("metadata")
        for key in metadata if isinstance(metadata, dict) else ():
            if key not in POD_METADATA_KEYS and not key.startswith(DIRECTIVE_PREFIX):
                yield (where + ("metadata", key), "patch-not-pod-template", Severity.ERROR,
                       f"the operator names each pod itself: a pod template patch's metadata takes labels and "
                       f"annotations, not {key!r}")


def _pod_spec_fields() -> set[str]:
    from ..patch.strategies import kubernetes_types

    return set(kubernetes_types()["io.k8s.api.core.v1.PodSpec"]["fields"])


def _did_you_mean(word: str, choices: tuple[str, ...]) -> str:
    hint = did_you_mean(word, choices)
    return f" (did you mean {hint!r}?)" if hint else ""


def _owned(doc: dict, spec: dict, version: OperatorVersion) -> Iterator[Finding]:
    """What the spec's fields, mpigen or the operator decide may not be patched."""
    framework = spec.get("framework", "mpi")
    gang = (spec.get("scheduling") or {}).get("gang", "none")
    ssh_path = ((spec.get("mpi") or {}).get("sshAuthMountPath") or DEFAULT_SSH_PATH).rstrip("/")
    for where, patch, _ in patches(spec):
        pod = patch.get("spec") if isinstance(patch.get("spec"), dict) else {}
        for path in (("replicas",), ("spec", "replicas")):
            if _has(patch, path):
                yield (where + path, "patch-owned", Severity.ERROR,
                       "a pod template patch cannot set the number of pods: set spec.workers"
                       + (" (and tensorflow.ps.replicas)" if framework == "tensorflow" else ""))
        if "schedulerName" in pod and gang in GANG_SCHEDULERS:
            yield (where + ("spec", "schedulerName"), "patch-owned", Severity.ERROR,
                   f"with scheduling.gang {gang} the pods run on the gang's scheduler, which mpigen writes: set "
                   "scheduling.gang (and scheduling.schedulerName for scheduler-plugins) instead")
        for kind in ("labels", "annotations"):
            values = (patch.get("metadata") or {}).get(kind) if isinstance(patch.get("metadata"), dict) else None
            for key in values if isinstance(values, dict) else ():
                if key in GROUP_MARKS and gang in GANG_SCHEDULERS:
                    yield (where + ("metadata", kind, key), "patch-owned", Severity.ERROR,
                           f"{key} names {GROUP_MARKS[key]}, which mpigen writes from scheduling.gang and "
                           "scheduling.queue: set those instead")
        for key, what in (("hostname", "hostname"), ("subdomain", "subdomain")):
            if key in pod:
                yield (where + ("spec", key), "patch-owned", Severity.ERROR,
                       f"the operator sets each pod's {what} (<job>-<role>-<index> on the job's Service), which "
                       "the pods find each other by: remove it")
        if "restartPolicy" in pod:
            instead = ("set spec.restartPolicy" if framework != "mpi" else
                       "an MPIJob's launcher restarts OnFailure and its workers Never; use runPolicy.backoffLimit")
            yield (where + ("spec", "restartPolicy"), "patch-owned", Severity.ERROR,
                   f"the operator sets the pods' restart policy from the replica type's: {instead}")
        if framework == "mpi":
            yield from _operator_mounts(where, pod, ssh_path)


def _operator_mounts(where: tuple, pod: dict, ssh_path: str) -> Iterator[Finding]:
    instead = ("the operator mounts the SSH keys at mpi.sshAuthMountPath and the hostfile at /etc/mpi itself: set "
               "mpi.sshAuthMountPath instead")
    yield from owned_mounts(where, pod, OPERATOR_VOLUMES, ssh_path, "the operator", instead)


def owned_mounts(where: tuple, pod: dict, volumes: tuple[str, ...], ssh_path: str, owner: str,
                 instead: str) -> Iterator[Finding]:
    """A patch's volume named as one of ``volumes``, or a mount of one or at the SSH keys' or the
    hostfile's path: what ``owner`` (the operator, Trainer) mounts itself."""
    for i, volume in _items(pod.get("volumes")):
        if volume.get("name") in volumes:
            yield (where + ("spec", "volumes", i, "name"), "patch-owned", Severity.ERROR,
                   f"volume {volume['name']!r} is {owner}'s: {instead}")
    for field in ("containers", "initContainers"):
        for i, item in _items(pod.get(field)):
            for j, mount in _items(item.get("volumeMounts")):
                path = mount.get("mountPath")
                if mount.get("name") in volumes or (
                        isinstance(path, str) and path.rstrip("/") in (ssh_path, HOSTFILE_PATH)):
                    yield (where + ("spec", field, i, "volumeMounts", j), "patch-owned", Severity.ERROR,
                           f"this mount is where {owner} mounts its own: {instead}")


def _items(value: Any) -> list[tuple[int, dict]]:
    return [(i, item) for i, item in enumerate(value) if isinstance(item, dict)] if isinstance(value, list) else []


def _has(data: Any, path: tuple) -> bool:
    for part in path:
        if not isinstance(data, dict) or part not in data:
            return False
        data = data[part]
    return True


def _overlaps(doc: dict, spec: dict, version: OperatorVersion) -> Iterator[Finding]:
    """A patch that sets what a field of the spec sets too, and a container no role's pods have:
    one warning per place in the patch, naming every role it is true of."""
    framework = spec.get("framework", "mpi")
    settings = functools.cache(lambda role: role_settings(spec, role))
    yield from overlaps(spec, patches(spec), settings,
                        lambda role: settings(role).get("containerName") or container_name(framework, role))


def overlaps(spec: dict, places: list[tuple[tuple, dict, tuple[str, ...]]], settings_of: Callable[[str], dict],
             main_of: Callable[[str], str | None], has: Callable[[str, str], bool] = lambda role, name: False
             ) -> Iterator[Finding]:
    """The patch-overrides and patch-adds-container warnings of ``places`` (see :func:`patches`):
    ``settings_of(role)``, a role's settings; ``main_of(role)``, its training container's name;
    ``has(role, name)``, whether its pods have another container of that name already (a runtime's)."""
    found: dict[tuple, list[str]] = {}  # (path, what, field or main container, "sets"|"removes"|code) -> roles
    for where, patch, roles in places:
        for role in roles:
            for key in _role_overlaps(spec, where, patch, role, settings_of(role), main_of(role), has):
                found.setdefault(key, []).append(role)
    for (path, what, other, code), roles in found.items():
        who = " and ".join(roles)
        if code in ("sets", "removes"):
            yield (path, "patch-overrides", Severity.WARNING,
                   f"the patch {code} the {who} pods' {what}, which {other} sets{' too' if code == 'sets' else ''}: "
                   "the patch is applied last and wins; say it in one place")
        else:
            yield (path, "patch-adds-container", Severity.WARNING,
                   f"the {who} pods have no container named {what!r} (their training container is {other}): the "
                   "patch adds one to them"
                   + ("; a patch for one role's container belongs under roles.<role>.podTemplatePatch"
                      if path[:2] == ("spec", "podTemplatePatch") else ""))


def _role_overlaps(spec: dict, where: tuple, patch: dict, role: str, settings: dict, main: str | None,
                   has: Callable[[str, str], bool]) -> Iterator[tuple]:
    """(path, what, the spec field or the training container, what the patch does: "sets" or
    "removes" (patch-overrides), or "patch-adds-container") for one role the patch applies to."""
    field_of = _field_of(spec, role)
    pod = patch.get("spec") if isinstance(patch.get("spec"), dict) else {}
    for key, (field, compare) in PATCHED_POD_FIELDS.items():
        set_by = [f for f in ((field, "sidecars") if field == "initContainers" else (field,)) if settings.get(f)]
        if key in pod and set_by and _overlap(pod[key], [settings[f] for f in set_by], compare):
            yield where + ("spec", key), key, field_of(set_by[0]), _verb(pod[key])
    metadata = patch.get("metadata") if isinstance(patch.get("metadata"), dict) else {}
    for kind in ("labels", "annotations"):
        if kind in metadata and settings[kind] and _overlap(metadata[kind], [settings[kind]], "keys"):
            yield where + ("metadata", kind), kind, field_of(kind), _verb(metadata[kind])
    gpu = gpu_resource_name(spec)
    for i, item in _items(pod.get("containers")):
        path = where + ("spec", "containers", i)
        if item.get("name") != main:
            if isinstance(item.get("name"), str) and item.get("$patch") != "delete" and not has(role, item["name"]):
                yield path, item["name"], repr(main), "patch-adds-container"
            continue
        for key, field in CONTAINER_FIELDS.items():
            if key not in item or not settings.get(field):
                continue
            if key == "resources":
                generated = _resource_names(settings["resources"], gpu)
                overlap = isinstance(item[key], dict) and any(
                    isinstance(item[key].get(k), dict) and set(item[key][k]) & generated for k in ("limits", "requests"))
            else:
                overlap = _overlap(item[key], [settings[field]], "names" if key == "env" else None)
            if overlap or item[key] is None:
                yield path + (key,), f"{key} of container {main!r}", field_of(field), _verb(item[key])


def _field_of(spec: dict, role: str) -> Any:
    own = (spec.get("roles") or {}).get(role)

    def field_of(field: str) -> str:
        return f"roles.{role}.{field}" if isinstance(own, dict) and field in own else f"spec.{field}"
    return field_of


def _verb(patched: Any) -> str:
    """What a patch's value does to the field the spec set: a null removes it."""
    return "removes" if patched is None else "sets"


def _overlap(patched: Any, generated: list[Any], compare: str | None) -> bool:
    """Whether the patch's value reaches what the spec generated: a key both set, an item both
    name (env by name, volumes by name), or the whole value (a null removes it whole)."""
    if patched is None:
        return True
    if compare == "keys":
        return isinstance(patched, dict) and any(isinstance(g, dict) and set(patched) & set(g) for g in generated)
    if compare == "names":
        names = {_name(g) for values in generated for g in (values.items() if isinstance(values, dict) else values or [])}
        return any(isinstance(item, dict) and item.get("name") in names for item in patched or []) \
            if isinstance(patched, list) else False
    return True


def _name(item: Any) -> Any:
    if isinstance(item, tuple):  # an env mapping's (name, value)
        return item[0]
    return volume_name(item) if isinstance(item, dict) and "name" not in item else (item or {}).get("name")


def _resource_names(resources: dict, gpu: str) -> set[str]:
    return {gpu if name == "gpu" else name for name in resources or {}}


PATCH_RULES = (_shape, _owned, _overlaps)
