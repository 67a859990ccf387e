"""Per-role settings: what each replica type's pods get, the job-wide settings with the role's own over them.

A role is a replica type of the framework: ``launcher`` and ``worker`` (MPI), ``master`` and
``worker`` (PyTorch), ``chief``, ``ps``, ``worker`` and ``evaluator`` (TensorFlow). Its settings
are ``spec.roles.<role>`` (and, for the roles that had them first, ``mpi.launcher``,
``pytorch.master`` and ``tensorflow.<ps|chief|evaluator>``: ``image``, ``resources`` and
``priorityClassName`` there mean the same and may not be given twice).

How a role's settings combine with the job-wide ones (a JSON merge patch, as environments do):
mappings merge key by key (``env``, ``nodeSelector``, ``labels``, ``securityContext`` ...), lists
and values replace, ``null`` removes. Two exceptions:

- ``resources`` replace whole: a launcher that asks for ``{cpu: 1}`` does not also get the
  workers' GPUs. An MPI launcher has no resources unless it names its own (or runs ranks,
  ``mpi.runLauncherAsWorker``, and then has the workers'); every other role has the job's.
- ``podTemplatePatch`` does not merge: the job-wide patch is applied to every role's pod template,
  then the role's own.

The training program's settings (``command``, ``args``, ``env``, ``envFrom``) are the MPI
launcher's only: the workers run sshd, and mpirun starts the ranks (OpenMPI forwards ``env`` with
``-x``). An MPI worker gets only what ``roles.worker`` gives it.
"""

from __future__ import annotations

from typing import Any

from .environments import merge, placed_patches

ROLES = {"mpi": ("launcher", "worker"), "pytorch": ("master", "worker"),
         "tensorflow": ("chief", "ps", "worker", "evaluator")}
"""The roles of each framework, in the order the job lists its replica types."""

REPLICA_TYPES = {"launcher": "Launcher", "worker": "Worker", "master": "Master", "chief": "Chief", "ps": "PS",
                 "evaluator": "Evaluator"}
"""A role's replica type, as the operator names it (``mpiReplicaSpecs``, ``pytorchReplicaSpecs``...)."""

POD_FIELDS = (
    "image", "containerName", "command", "args", "env", "envFrom", "resources", "priorityClassName", "imagePullPolicy",
    "imagePullSecrets", "serviceAccountName", "workingDir", "labels", "annotations", "nodeSelector", "tolerations",
    "affinity", "topologySpreadConstraints", "securityContext", "podSecurityContext", "hostNetwork", "dnsPolicy",
    "runtimeClassName", "ports", "livenessProbe", "readinessProbe", "startupProbe", "resourceClaims", "volumes",
    "initContainers", "sidecars", "podTemplatePatch",
)
"""The settings of a role's pods: each is job-wide at ``spec.<field>`` and per role at ``spec.roles.<role>.<field>``."""

PROGRAM_FIELDS = ("command", "args", "env", "envFrom")
"""What the training program gets: on an MPI job, the launcher's only."""

LEGACY = {("mpi", "launcher"), ("pytorch", "master"), ("tensorflow", "ps"), ("tensorflow", "chief"),
          ("tensorflow", "evaluator")}
"""The roles whose image, resources and priorityClassName may also be written at ``<framework>.<role>``."""
LEGACY_FIELDS = ("image", "resources", "priorityClassName")

SORTED_MAPS = ("env", "labels", "annotations", "nodeSelector")


def roles_of(spec: dict[str, Any]) -> tuple[str, ...]:
    """The roles the spec's job has, in the job's order (a TensorFlow chief, parameter servers or
    evaluator only when ``tensorflow`` asks for them; the workers always, even when there are none)."""
    framework = spec.get("framework", "mpi")
    if framework != "tensorflow":
        return ROLES.get(framework, ())
    tf = spec.get("tensorflow") or {}
    return tuple(r for r in ROLES["tensorflow"] if r == "worker" or r in tf)


def legacy_settings(spec: dict[str, Any], framework: str, role: str) -> dict[str, Any]:
    """``<framework>.<role>``'s image, resources and priorityClassName, where that block exists."""
    if (framework, role) not in LEGACY:
        return {}
    block = (spec.get(framework) or {}).get(role) or {}
    return {k: block[k] for k in LEGACY_FIELDS if k in block}


def own_settings(spec: dict[str, Any], role: str) -> dict[str, Any]:
    """What the spec says of ``role`` itself: ``roles.<role>`` over the legacy block."""
    framework = spec.get("framework", "mpi")
    own = dict(legacy_settings(spec, framework, role))
    own.update((spec.get("roles") or {}).get(role) or {})
    return own


def role_settings(spec: dict[str, Any], role: str) -> dict[str, Any]:
    """The effective settings of ``role``'s pods: every field of :data:`POD_FIELDS` (None where
    neither the job nor the role sets it; ``podTemplatePatch`` as ``podTemplatePatches``, the list
    of patches to apply in order). Of an expanded spec, whose ``priorityClassName`` is the pods'
    default (``scheduling.priorityClass``), or of a spec as written."""
    framework = spec.get("framework", "mpi")
    mpi_worker = framework == "mpi" and role == "worker"
    inherit = [k for k in POD_FIELDS if not (mpi_worker and k in PROGRAM_FIELDS)]
    return merged_settings(spec, own_settings(spec, role), inherit, _default_resources(spec, role),
                           spec.get("priorityClassName"), patches_of(spec, role))


def merged_settings(spec: dict[str, Any], own: dict[str, Any], inherit: list[str] | tuple[str, ...],
                    default_resources: dict[str, Any], pods_priority: str | None,
                    patches: list[tuple[tuple[str, ...], dict[str, Any]]]) -> dict[str, Any]:
    """A role's settings: the job-wide fields of ``inherit`` with the role's ``own`` merged over
    them (a JSON merge patch), ``resources`` the role's own else ``default_resources``,
    ``priorityClassName`` the role's own else ``pods_priority``, and ``patches`` (see
    :func:`patches_of`) as ``podTemplatePatches``."""
    inherited = {k: spec[k] for k in inherit if k in spec and k not in ("resources", "podTemplatePatch")}
    merged = merge(inherited, {k: v for k, v in own.items() if k not in ("resources", "podTemplatePatch")})
    settings: dict[str, Any] = {k: merged.get(k) for k in POD_FIELDS if k != "podTemplatePatch"}
    if "resources" in own:  # the role's own replace the job's whole; null: none
        settings["resources"] = own["resources"] or {}
    else:
        settings["resources"] = default_resources
    if "priorityClassName" not in own:
        settings["priorityClassName"] = pods_priority
    for key in SORTED_MAPS:
        settings[key] = dict(sorted((settings[key] or {}).items()))
    settings["volumes"] = list(settings["volumes"] or [])
    settings["podTemplatePatches"] = patches
    return settings


def patches_of(spec: dict[str, Any], role: str, job_wide: bool = True) -> list[tuple[tuple[str, ...], dict[str, Any]]]:
    """The pod template patches of ``role``'s pods, in the order they apply (see
    :func:`.environments.patch_places`): (where in the document the patch is, the patch)
    (``job_wide``: whether the job-wide ones apply to the role)."""
    return [(where, patch) for where, patch, own in placed_patches(spec) if own == role or (own is None and job_wide)]


def _default_resources(spec: dict[str, Any], role: str) -> dict[str, Any]:
    """A role's resources when it names none: the job's; an MPI launcher's, none, unless it runs
    ranks (``mpi.runLauncherAsWorker``): then what a worker gets."""
    if spec.get("framework", "mpi") == "mpi" and role == "launcher":
        if not (spec.get("mpi") or {}).get("runLauncherAsWorker"):
            return {}
        worker = own_settings(spec, "worker")
        if "resources" in worker:
            return worker["resources"] or {}
    return spec.get("resources") or {}


def role_view(spec: dict[str, Any], role: str) -> dict[str, Any]:
    """The expanded spec as ``role``'s pods see it: its settings in place of the job-wide ones."""
    return {**spec, **spec["roles"][role]}
