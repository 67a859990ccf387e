"""Stage 2b, check: the rules of per-role settings (``spec.roles``) and of the pod fields every role
has (init containers, sidecars, volumes mounted by name, the host network).

Same contract as :mod:`mpigen.spec.spec_rules`: each rule reads one environment's effective spec
and yields ``(path, code, severity, message)``. A TrainJob spec's roles are its runtime's
replicated jobs (:mod:`.runtime_rules`).
"""

from __future__ import annotations

from typing import Any, Iterator

from ..diagnostics import Severity, did_you_mean, format_path
from ..expand.roles import LEGACY, LEGACY_FIELDS, ROLES, roles_of
from ..names import OWN_VOLUMES, volume_name
from ..versions import OperatorVersion

Finding = tuple[tuple, str, Severity, str]

CODE_SYNC = "code-sync"


def _kind(framework: str) -> str:
    return {"mpi": "an MPIJob", "pytorch": "a PyTorchJob", "tensorflow": "a TFJob"}[framework]


def _role_names(doc: dict, spec: dict, version: OperatorVersion) -> Iterator[Finding]:
    """Every key of ``roles`` is a role of the job."""
    roles = spec.get("roles")
    framework = spec.get("framework", "mpi")
    if not isinstance(roles, dict) or spec.get("runtime") is not None or framework not in ROLES:
        return
    present = roles_of(spec)
    for name in roles:
        if name in present:
            continue
        path = ("spec", "roles", name)
        if name in ROLES[framework]:  # a TFJob's chief, ps or evaluator it does not ask for
            yield (path, "role-unknown", Severity.ERROR,
                   f"the TFJob has no {name}: add tensorflow.{name} ({{}} for the defaults) to give it one")
            continue
        hint = did_you_mean(name, ROLES[framework])
        yield (path, "role-unknown", Severity.ERROR,
               f"{_kind(framework)} has no role {name!r}: its roles are {', '.join(ROLES[framework])}"
               + (f" (did you mean {hint!r}?)" if hint else ""))


def _role_conflicts(doc: dict, spec: dict, version: OperatorVersion) -> Iterator[Finding]:
    """A role's image, resources or priorityClassName given both at ``roles.<role>`` and at the
    older ``<framework>.<role>``."""
    framework = spec.get("framework", "mpi")
    for role, settings in (spec.get("roles") or {}).items():
        block = (spec.get(framework) or {}).get(role) if (framework, role) in LEGACY else None
        if not isinstance(settings, dict) or not isinstance(block, dict):
            continue
        for field in LEGACY_FIELDS:
            if field in settings and field in block:
                yield (("spec", "roles", role, field), "role-conflict", Severity.ERROR,
                       f"the {role}'s {field} is given twice, here and at "
                       f"{_written_at(doc, (framework, role, field))}: keep one")


def _written_at(doc: dict, field: tuple[str, ...]) -> str:
    """Where the document writes ``spec.<field>``: the base, else the environments that do."""
    def holds(settings: Any) -> bool:
        for part in field:
            if not isinstance(settings, dict) or part not in settings:
                return False
            settings = settings[part]
        return True

    spec = doc.get("spec") if isinstance(doc.get("spec"), dict) else {}
    envs = spec.get("environments") if isinstance(spec.get("environments"), dict) else {}
    where = ".".join(field)
    if holds(spec) or not envs:
        return where
    return " and ".join(f"environments.{env}.{where}" for env, override in envs.items() if holds(override)) or where


def _nulls(doc: dict, spec: dict, version: OperatorVersion) -> Iterator[Finding]:
    """``null`` removes a job-wide setting from a role, but a pod cannot be without an image."""
    for role, settings in (spec.get("roles") or {}).items():
        if isinstance(settings, dict) and "image" in settings and settings["image"] is None:
            yield (("spec", "roles", role, "image"), "role-null", Severity.ERROR,
                   f"the {role}'s pods need an image: give roles.{role}.image one, or leave it out for spec.image")


def _group_marks(doc: dict, spec: dict, version: OperatorVersion) -> Iterator[Finding]:
    """Under a gang whose PodGroup mpigen names on the pods (Volcano, scheduler-plugins,
    kube-batch), the pods' labels and annotations (job-wide or a role's) do not name one: mpigen
    writes those from ``scheduling`` (a patch that sets them is ``patch-owned``). Without a gang,
    a PodGroup of the user's own may be named."""
    from .patch_rules import GANG_SCHEDULERS, GROUP_MARKS

    if (spec.get("scheduling") or {}).get("gang") not in GANG_SCHEDULERS:
        return
    for base, settings in role_places(spec):
        for kind in ("labels", "annotations"):
            values = settings.get(kind)
            for key in sorted(set(values) & set(GROUP_MARKS)) if isinstance(values, dict) else ():
                yield (base + (kind, key), "group-mark", Severity.ERROR,
                       f"{key} names {GROUP_MARKS[key]}, which mpigen writes from scheduling.gang and "
                       "scheduling.queue (and validate reads to tell the gang): set those instead")


def role_places(spec: dict) -> list[tuple[tuple, dict]]:
    """(path, settings) of each place that sets pod fields: the spec itself, then each role's."""
    places: list[tuple[tuple, dict]] = [(("spec",), spec)]
    roles = spec.get("roles")
    if isinstance(roles, dict):
        places += [(("spec", "roles", name), settings) for name, settings in roles.items() if isinstance(settings, dict)]
    return places


def _containers(doc: dict, spec: dict, version: OperatorVersion) -> Iterator[Finding]:
    """Init containers and sidecars: a name of their own in the pod, a sidecar keeps running."""
    reserved = {CODE_SYNC} if spec.get("code") else set()
    for base, settings in role_places(spec):
        seen: dict[str, tuple] = {}
        for field in ("sidecars", "initContainers"):
            items = settings.get(field)
            for i, item in enumerate(items if isinstance(items, list) else []):
                if not isinstance(item, dict):
                    continue
                path = base + (field, i)
                name = item.get("name")
                if field == "sidecars" and item.get("restartPolicy", "Always") != "Always":
                    yield (path + ("restartPolicy",), "sidecar", Severity.ERROR,
                           "a sidecar keeps running beside the training container (restartPolicy Always, which "
                           "mpigen writes); an init container that runs to completion belongs in initContainers")
                if not isinstance(name, str):
                    continue
                if name in reserved:
                    yield (path + ("name",), "init-container-name", Severity.ERROR,
                           f"{name!r} is the name of code sync's init container (spec.code): choose another")
                elif name in seen:
                    yield (path + ("name",), "init-container-name", Severity.ERROR,
                           f"{name!r} is also the name of {format_path(seen[name])}: every "
                           "container of a pod needs a name of its own")
                seen.setdefault(name, path)


def _mounts(doc: dict, spec: dict, version: OperatorVersion) -> Iterator[Finding]:
    """What an init container or a sidecar mounts by name is a volume of the pod: one of the
    role's ``volumes`` (a volume without ``mountPath`` is only defined, for them), or mpigen's own."""
    from ..expand.roles import role_settings

    if spec.get("runtime") is not None or spec.get("framework", "mpi") not in ROLES:
        return
    yield from undefined_mounts(spec, [(role, role_settings(spec, role), set(OWN_VOLUMES))
                                       for role in roles_of(spec)])


def undefined_mounts(spec: dict, roles: list[tuple[str, dict, set[str]]]) -> Iterator[Finding]:
    """``volume-undefined``: ``roles`` are (role, its settings, the volumes its pods have besides
    its ``volumes``)."""
    said: set[tuple] = set()
    for role, settings, known in roles:
        names = {volume_name(v) for v in settings["volumes"] if isinstance(v, dict)} | known
        for field in ("sidecars", "initContainers"):
            where = _where(spec, role, field)
            for i, item in enumerate(settings[field] or []):
                mounts = item.get("volumeMounts") if isinstance(item, dict) else None
                for j, mount in enumerate(mounts if isinstance(mounts, list) else []):
                    name = mount.get("name") if isinstance(mount, dict) else None
                    path = where + (i, "volumeMounts", j, "name")
                    if not isinstance(name, str) or name in names or path in said:
                        continue
                    said.add(path)
                    yield (path, "volume-undefined", Severity.ERROR,
                           f"volume {name!r} is mounted here but the {role}'s pods do not define it: add it to "
                           f"{format_path(_where(spec, role, 'volumes'))} (without a mountPath, it is not mounted "
                           "into the training container)")


def _where(spec: dict, role: str, field: str) -> tuple:
    """Where ``field`` of a role's settings is written: the role's own, else the job's."""
    own = (spec.get("roles") or {}).get(role)
    if isinstance(own, dict) and field in own:
        return ("spec", "roles", role, field)
    return ("spec", field)


def _host_network(doc: dict, spec: dict, version: OperatorVersion) -> Iterator[Finding]:
    """An MPI job's workers on the host network: their sshd needs the node's SSH port."""
    from .feature_rules import SSH_PORT_HINT, ssh_port_chosen

    if spec.get("framework", "mpi") != "mpi" or spec.get("runtime") is not None or ssh_port_chosen(spec):
        return
    from ..expand.roles import role_settings

    if role_settings(spec, "worker")["hostNetwork"]:  # the workers', job-wide or their own
        yield (_where(spec, "worker", "hostNetwork"), "host-network-ssh", Severity.WARNING,
               "on the host network the MPI workers' sshd needs the node's port 22, which the node's own "
               "sshd usually holds; " + SSH_PORT_HINT)


ROLE_RULES = (_role_names, _role_conflicts, _nulls, _group_marks, _containers, _mounts, _host_network)
