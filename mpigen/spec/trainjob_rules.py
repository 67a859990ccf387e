"""Stage 2b, check: a TrainJob spec's roles, the pods' settings and the pod template patches.

A spec with ``spec.runtime`` has its runtime's replicated jobs as roles
(:mod:`mpigen.expand.trainjob_roles`); what its pods get goes through the TrainJob's fields, its
runtime patch or the TrainingRuntime copy (:mod:`mpigen.render.trainjob_pods`). These rules read
the runtime the spec names (the cluster file's, else Trainer v2.3.0's default runtimes), as
:mod:`.runtime_rules` do:

* ``role-unknown``: a key of ``roles`` that is no replicated job of the runtime (did you mean);
* ``init-container-name``: an init container or sidecar named as a container the runtime's pods
  already have;
* ``volume-undefined``: an init container or sidecar mounting a volume the pods do not have (the
  role's ``volumes``, the runtime's own, JobSet's claims, Trainer's MPI volumes, mpigen's);
* ``runtime-field``: a port Trainer's torch plugin would replace (it upserts its port 29500 in
  the trainer's ``node`` container: over a port of that number, else the first port without a
  name), or container settings for a replicated job with no training container;
* the pod template patch rules of :mod:`.patch_rules` (``patch-not-pod-template``,
  ``patch-overrides``, ``patch-adds-container``), with ``patch-owned`` for what Trainer and JobSet
  own in a TrainJob's pods: the pods' hostname and subdomain and JobSet's ``jobset.sigs.k8s.io/*``
  labels and annotations, the gang's scheduler and group marks, Trainer's ancestor label (read
  from the replicated job's template, never the pod's), the MPI plugin's SSH key and hostfile
  volumes and mounts, and of the trainer's ``node`` container what the TrainJob's fields set
  after the runtime (``trainer.image``, ``command``, ``args``, the variables of ``trainer.env``
  and those the ML plugins set, the resources of ``trainer.resourcesPerNode``): a patch's value
  there would be overwritten.
"""

from __future__ import annotations

from typing import Any, Iterator

from ..diagnostics import Severity, did_you_mean
from ..expand.defaults import DEFAULT_SSH_PATH, gpu_resource_name, runtime_ref
from ..expand.trainjob_roles import RuntimeRole, TrainerAPI, trainer_api, trainjob_role_settings
from ..load.trainer_runtimes import Runtimes
from ..names import OWN_VOLUMES
from ..trainer.info import ANCESTOR_LABEL
from .patch_rules import GROUP_MARKS, HOSTFILE_PATH, _has, _items, overlaps, owned_mounts, shape
from .role_rules import _where, undefined_mounts
from .runtime_rules import named_runtime

Finding = tuple[tuple, str, Severity, str]

JOBSET_PREFIX = "jobset.sigs.k8s.io/"
"""JobSet v0.12.0's labels and annotations on every Job and pod (``api/jobset/v1alpha2/jobset_types.go``)."""
MPI_VOLUMES = ("mpi-ssh-auth", "mpi-hostfile")
"""Trainer's MPI plugin's SSH key and hostfile volumes (``pkg/runtime/framework/plugins/mpi``)."""
TORCH_PORT = 29500
CONTAINER_SETTINGS = ("image", "command", "args", "env", "envFrom", "ports", "livenessProbe", "readinessProbe",
                      "startupProbe", "securityContext", "workingDir", "imagePullPolicy")


def check_trainjob_pods(doc: dict[str, Any], spec: dict[str, Any], runtimes: Runtimes | None) -> Iterator[Finding]:
    """Every problem of a TrainJob spec's roles and pod template patches (nothing for another spec,
    or when the runtime is not found: :func:`mpigen.spec.runtime_rules.check_runtime` says so)."""
    runtime = named_runtime(doc, spec, runtimes)
    if runtime is None:
        return
    roles = trainjob_role_settings(spec, runtime)
    ref = runtime_ref(spec.get("runtime")) or {}
    described = f"{ref.get('kind')} {ref.get('name')!r}"
    yield from _role_names(spec, roles, described)
    yield from _container_names(spec, roles, described)
    yield from undefined_mounts(spec, [(role.name, settings, _volumes_of(runtime, role)) for role, settings in roles])
    yield from _containers(spec, runtime, roles, described)
    by_name = {role.name: (role, settings) for role, settings in roles}
    places = trainjob_patches(spec, roles)
    yield from shape(places)
    owned = list(_owned(spec, runtime, places, by_name, trainer_api(spec, roles)))
    yield from owned
    # where Trainer sets a value over the patch's, the patch does not win: no patch-overrides there
    for found in overlaps(spec, places, lambda role: by_name[role][1], lambda role: by_name[role][0].main,
                          lambda role, name: name in by_name[role][0].containers):
        if not any(path[:len(found[0])] == found[0] for path, *_ in owned):
            yield found


def trainjob_patches(spec: dict[str, Any], roles: list[tuple[RuntimeRole, dict[str, Any]]]
                     ) -> list[tuple[tuple, dict, tuple[str, ...]]]:
    """(where, patch, the roles it applies to) of every pod template patch: the job-wide ones apply
    to every replicated job that trains."""
    from ..expand.environments import placed_patches

    trains = tuple(role.name for role, _ in roles if role.trains)
    names = [role.name for role, _ in roles]
    return [(where, patch, trains if own is None else (own,)) for where, patch, own in placed_patches(spec)
            if own is None or own in names]


def _role_names(spec: dict[str, Any], roles: list[tuple[RuntimeRole, dict[str, Any]]],
                described: str) -> Iterator[Finding]:
    names = [role.name for role, _ in roles]
    given = spec.get("roles")
    for name in given if isinstance(given, dict) else ():
        if name in names:
            continue
        hint = did_you_mean(name, names) or ("node" if name in ("worker", "master") and "node" in names else None)
        yield (("spec", "roles", name), "role-unknown", Severity.ERROR,
               f"{described} has no replicated job {name!r}: a TrainJob's roles are its runtime's replicated jobs, "
               f"{', '.join(names) or 'none'}" + (f" (did you mean {hint!r}?)" if hint else ""))


def _container_names(spec: dict[str, Any], roles: list[tuple[RuntimeRole, dict[str, Any]]],
                     described: str) -> Iterator[Finding]:
    """An init container or sidecar named as one of the runtime's containers of the same pods."""
    said: set[tuple] = set()
    for role, settings in roles:
        taken = set(role.containers) | set(role.init_containers)
        for field in ("sidecars", "initContainers"):
            for i, item in enumerate(settings[field] or []):
                name = item.get("name") if isinstance(item, dict) else None
                path = _where(spec, role.name, field) + (i, "name")
                if name in taken and path not in said:
                    said.add(path)
                    yield (path, "init-container-name", Severity.ERROR,
                           f"the pods of {role.name} in {described} already have a container named {name!r}: every "
                           "container of a pod needs a name of its own")


def _volumes_of(runtime: dict[str, Any], role: RuntimeRole) -> set[str]:
    """The volumes a role's pods have besides its ``volumes``: the runtime's own, JobSet's volume
    claims, Trainer's MPI volumes (an MPI runtime), mpigen's own (code sync, /dev/shm)."""
    spec = runtime.get("spec") or {}
    claims = {((t or {}).get("metadata") or {}).get("name") for policy in
              ((spec.get("template") or {}).get("spec") or {}).get("volumeClaimPolicies") or []
              if isinstance(policy, dict) for t in policy.get("templates") or [] if isinstance(t, dict)}
    mpi = set(MPI_VOLUMES) if isinstance((spec.get("mlPolicy") or {}).get("mpi"), dict) else set()
    return set(role.volumes) | {c for c in claims if isinstance(c, str)} | mpi | set(OWN_VOLUMES)


def _containers(spec: dict[str, Any], runtime: dict[str, Any], roles: list[tuple[RuntimeRole, dict[str, Any]]],
                described: str) -> Iterator[Finding]:
    torch = isinstance(((runtime.get("spec") or {}).get("mlPolicy") or {}).get("torch"), dict)
    for role, settings in roles:
        own = (spec.get("roles") or {}).get(role.name)
        if role.main is None:
            for field in CONTAINER_SETTINGS:
                if isinstance(own, dict) and own.get(field):
                    yield (("spec", "roles", role.name, field), "runtime-field", Severity.ERROR,
                           f"the pods of {role.name} in {described} have no container named node"
                           + (f" or {role.ancestor}" if role.ancestor else "") + f": its {field} has no container to go to")
            continue
        if not (torch and role.trainer):
            continue
        for i, port in enumerate(settings["ports"] or []):
            if not isinstance(port, dict):
                continue
            if port.get("containerPort") == TORCH_PORT or not port.get("name"):
                yield (_where(spec, role.name, "ports") + (i,), "runtime-field", Severity.ERROR,
                       f"Trainer's torch plugin upserts its port {TORCH_PORT} into the node container, over the port "
                       f"of that number or else the first port without a name: "
                       + ("use another port" if port.get("containerPort") == TORCH_PORT else "name this port"))


def _owned(spec: dict[str, Any], runtime: dict[str, Any], places: list[tuple[tuple, dict, tuple[str, ...]]],
           by_name: dict[str, tuple[RuntimeRole, dict[str, Any]]], api: TrainerAPI) -> Iterator[Finding]:
    """What Trainer, JobSet or the spec's gang own in a TrainJob's pods may not be patched."""
    gang = (spec.get("scheduling") or {}).get("gang")
    mpi = ((runtime.get("spec") or {}).get("mlPolicy") or {}).get("mpi")
    for where, patch, roles in places:
        pod = patch.get("spec") if isinstance(patch.get("spec"), dict) else {}
        for path in (("replicas",), ("spec", "replicas")):
            if _has(patch, path):
                yield (where + path, "patch-owned", Severity.ERROR,
                       "a pod template patch cannot set the number of pods: set spec.workers")
        if "schedulerName" in pod and gang in ("volcano", "scheduler-plugins"):
            yield (where + ("spec", "schedulerName"), "patch-owned", Severity.ERROR,
                   f"with scheduling.gang {gang} the pods run on the gang's scheduler, which mpigen writes into the "
                   "runtime: set scheduling.gang (and scheduling.schedulerName for scheduler-plugins) instead")
        yield from _owned_marks(where, patch)
        for key in ("hostname", "subdomain"):
            if key in pod:
                yield (where + ("spec", key), "patch-owned", Severity.ERROR,
                       f"JobSet sets each pod's {key} (<job>-<replicated job>-<index>-<index> on the TrainJob's "
                       "subdomain), which the pods find each other by: remove it")
        if isinstance(mpi, dict):
            yield from _mpi_mounts(where, pod, (mpi.get("sshAuthMountPath") or DEFAULT_SSH_PATH).rstrip("/"))
        for i, item in _items(pod.get("containers")):
            for role in roles:
                found = list(_trainer_set(spec, where + ("spec", "containers", i), item, *by_name[role], api))
                if found:
                    yield from found
                    break


def _owned_marks(where: tuple, patch: dict) -> Iterator[Finding]:
    metadata = patch.get("metadata") if isinstance(patch.get("metadata"), dict) else {}
    for kind in ("labels", "annotations"):
        values = metadata.get(kind)
        for key in values if isinstance(values, dict) else ():
            path = where + ("metadata", kind, key)
            if key in GROUP_MARKS:
                yield (path, "patch-owned", Severity.ERROR,
                       f"{key} names {GROUP_MARKS[key]}, which mpigen and Trainer write from scheduling.gang and "
                       "scheduling.queue: set those instead")
            elif isinstance(key, str) and key.startswith(JOBSET_PREFIX):
                yield (path, "patch-owned", Severity.ERROR,
                       f"JobSet writes {key} on every pod of the TrainJob itself: remove it")
            elif key == ANCESTOR_LABEL:
                yield (path, "patch-owned", Severity.ERROR,
                       f"Trainer reads {ANCESTOR_LABEL} from the runtime's replicated job template, not from its "
                       "pods: it says which job is the trainer and cannot be patched")


def _mpi_mounts(where: tuple, pod: dict, ssh_path: str) -> Iterator[Finding]:
    instead = (f"its MPI plugin mounts the SSH keys at the runtime's sshAuthMountPath ({ssh_path}) and the "
               f"hostfile at {HOSTFILE_PATH} itself")
    yield from owned_mounts(where, pod, MPI_VOLUMES, ssh_path, "Trainer", instead)


def _trainer_set(spec: dict[str, Any], path: tuple, item: dict, role: RuntimeRole, settings: dict[str, Any],
                 api: TrainerAPI) -> Iterator[Finding]:
    """What a patch of ``role``'s training container sets that the TrainJob's fields set after the
    runtime, so over the patch."""
    if item.get("name") != role.main or not role.reached:
        return
    if role.trainer:
        for key in ("image", "command", "args"):  # each when the TrainJob sets it (else the runtime's stays)
            if key in item and (api.args if key == "args" else getattr(api, key) is not None):
                yield (path + (key,), "patch-owned", Severity.ERROR,
                       f"Trainer sets the {key} of the trainer's node container from trainer.{key}, over the "
                       f"runtime's: set {'.'.join(_where(spec, role.name, key))} instead")
    from ..trainer.mpi import RESERVED_ENV as MPI_ENV
    from ..trainer.torch import RESERVED_ENV as TORCH_ENV

    plugins = (TORCH_ENV + MPI_ENV) if role.trainer else ()
    for j, var in _items(item.get("env")):
        name = var.get("name")
        if name in api.env:
            yield (path + ("env", j), "patch-owned", Severity.ERROR,
                   f"Trainer sets {name} in the node container from trainer.env, over the runtime's: set it in "
                   f"{'.'.join(_where(spec, role.name, 'env'))} instead")
        elif name in plugins:
            yield (path + ("env", j), "patch-owned", Severity.ERROR,
                   f"Trainer's ML plugin sets {name} in the trainer's node container itself: remove it")
    resources = item.get("resources") if isinstance(item.get("resources"), dict) else {}
    if api.resources is not None and resources:
        gpu = gpu_resource_name(spec)
        names = {gpu if n == "gpu" else n for n in api.resources}
        for kind in ("limits", "requests"):
            for name in resources.get(kind) or {} if isinstance(resources.get(kind), dict) else {}:
                if name in names:
                    yield (path + ("resources", kind, name), "patch-owned", Severity.ERROR,
                           f"Trainer merges trainer.resourcesPerNode into the node container's resources, over the "
                           f"runtime's: its {name} would replace the patch's; set "
                           f"{'.'.join(_where(spec, role.name, 'resources'))} instead")
