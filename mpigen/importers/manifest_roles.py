"""``mpigen import manifest``, the roles: each role's fields said once, and the patch for the rest.

:func:`factor` writes a field job-wide where every role that takes it from the job has the same
value, and per role (``roles.<role>``) where they differ (the spec's required ``image`` and
``command``: the value most roles have job-wide, the others per role). The exceptions follow how
a role's settings combine (:mod:`mpigen.expand.roles`): ``resources`` are the workers' job-wide,
and a role whose own differ (an MPI launcher has none unless it runs ranks) names its own; the
pods' ``priorityClassName`` defaults to the gang's ``scheduling.priorityClass``, so a role
without one says ``null``; an MPI worker takes none of the program's settings (``command``,
``args``, ``env``, ``envFrom``), which are the launcher's.

:func:`generated_templates` renders the pod templates those fields give, before any patch and
before the gang's decoration, and :func:`patches` makes, for each role, the strategic merge patch
from that template to the manifest's: ``podTemplatePatch`` job-wide when every role needs the
same one, else per role.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from ..diagnostics import Severity
from ..expand.roles import PROGRAM_FIELDS, REPLICA_TYPES
from ..patch.diff import PatchDiffError, create_patch, equal
from ..versions import OperatorVersion
from .manifest_pods import Finding

if TYPE_CHECKING:
    from .manifest import Role

REQUIRED = ("image", "command")
SPECIAL = ("name", "resources", "priorityClassName")
MPI_CONTAINERS = {"launcher": "launcher", "worker": "worker"}


def factor(spec: dict[str, Any], framework: str, roles: list[Role]) -> dict[str, Any]:
    """The job-wide fields and ``roles`` of the spec, from each role's fields (see the module)."""
    out: dict[str, Any] = {}
    own: dict[str, dict[str, Any]] = {role.name: {} for role in roles}
    if framework == "mpi":
        for role in roles:
            name = role.fields.get("name")
            if name and name != MPI_CONTAINERS[role.name]:
                role.fields["containerName"] = name
    names: list[str] = []
    for role in roles:
        names += [k for k in role.fields if k not in names and k not in SPECIAL]
    for field in names:
        takers = [r for r in roles if not (framework == "mpi" and r.name == "worker" and field in PROGRAM_FIELDS)]
        values = [r.fields.get(field) for r in takers]
        if field in REQUIRED and takers:
            common = _most_common(values)
            out[field] = common
            for role, value in zip(takers, values):
                if not equal(value, common):
                    own[role.name][field] = value
        elif takers and all(equal(v, values[0]) for v in values):
            if values[0] is not None:
                out[field] = values[0]
        else:
            for role, value in zip(takers, values):
                if value is not None:
                    own[role.name][field] = value
        for role in roles:
            if role not in takers and role.fields.get(field) is not None:
                own[role.name][field] = role.fields[field]
    _resources(spec, framework, roles, out, own)
    _priority_classes(spec, roles, out, own)
    out["roles"] = {name: settings for name, settings in own.items() if settings}
    return out


def _most_common(values: list[Any]) -> Any:
    """The value most roles have (the first role's of those tied)."""
    counts = Counter(repr(v) for v in values)
    best = max(counts.values())
    return next(v for v in values if counts[repr(v)] == best)


def _resources(spec: dict[str, Any], framework: str, roles: list[Role], out: dict[str, Any],
               own: dict[str, dict[str, Any]]) -> None:
    """The workers' resources job-wide; a role whose resources differ from what it would take
    from the job names its own (``{}``: none, the patch gives them when they cannot be said)."""
    # An MPIJob without workers: none job-wide (they would be the absent workers' GPUs, mpigen's slots)
    fallback = None if framework == "mpi" or not roles else roles[0]
    worker = next((r for r in roles if r.name == "worker"), fallback)
    job_wide = worker.fields.get("resources") if worker else None
    if job_wide:
        out["resources"] = job_wide
    launcher_ranks = bool((spec.get("mpi") or {}).get("runLauncherAsWorker"))
    for role in roles:
        if role is worker:
            continue
        default = {} if framework == "mpi" and role.name == "launcher" and not launcher_ranks else (job_wide or {})
        wanted = role.fields.get("resources")
        wanted = {} if wanted is None else wanted
        if not equal(wanted, default):
            own[role.name]["resources"] = wanted


def _priority_classes(spec: dict[str, Any], roles: list[Role], out: dict[str, Any],
                      own: dict[str, dict[str, Any]]) -> None:
    """The pods' PriorityClass: the gang's ``priorityClass`` unless said otherwise."""
    scheduling = spec.get("scheduling") or {}
    default = scheduling.get("priorityClass") if scheduling.get("gang") != "kueue" else None
    values = [r.fields.get("priorityClassName") for r in roles]
    if values and all(v == values[0] for v in values):
        if values[0] == default:
            return
        if values[0] is not None:
            out["priorityClassName"] = values[0]
            return
    for role, value in zip(roles, values):
        if value != default:
            own[role.name]["priorityClassName"] = value


def generated_templates(metadata: dict[str, Any], spec: dict[str, Any], version: OperatorVersion
                        ) -> dict[str, dict[str, Any]]:
    """The pod template of each role mpigen generates for ``spec`` (no patch applied), before the
    gang's decoration."""
    from ..expand.defaults import expand

    expanded = expand(spec)
    if spec["framework"] == "mpi":
        from ..render.mpijob import render_mpijob

        job, _ = render_mpijob(metadata, expanded, version)
        replicas = job["spec"]["mpiReplicaSpecs"]
    else:
        from ..render.training import REPLICA_SPECS, render_training_job

        job, _ = render_training_job(metadata, expanded)
        replicas = job["spec"][REPLICA_SPECS[spec["framework"]]]
    return {role: replicas[REPLICA_TYPES[role]]["template"] for role in expanded["roles"]
            if REPLICA_TYPES[role] in replicas}


def patches(roles: list[Role], generated: dict[str, dict[str, Any]], every_role: tuple[str, ...]
            ) -> tuple[list[Finding], dict[str, Any], dict[str, dict[str, Any]]]:
    """(what no patch can carry; the job-wide patch; each role's patch), from the templates the
    fields generate to the manifest's. ``every_role``: the roles of the spec's job, those it has
    no pods of too (an MPIJob's workers when there are none), to which a job-wide patch applies."""
    findings: list[Finding] = []
    made: dict[str, dict[str, Any]] = {}
    for role in roles:
        if role.name not in generated:
            findings.append((role.path, "import-lost", Severity.ERROR, f"the {role.rtype} pods: the spec makes "
                             "none (their replicas)"))
            continue
        for key in ("labels", "annotations"):  # none and an empty map are the same to Kubernetes
            if key in generated[role.name].get("metadata", {}) and key not in role.template["metadata"]:
                role.template["metadata"][key] = {}
        try:
            made[role.name] = create_patch(generated[role.name], role.template)
        except PatchDiffError as exc:
            findings.append((role.path, "import-lost", Severity.ERROR, f"the {role.rtype} pod template: {exc}"))
    common = _common(list(made.values())) if made and set(made) == set(every_role) else {}
    if common:  # job-wide, and each role's own from what it makes
        from ..patch import apply_pod_template_patch

        for role in roles:
            if role.name in made:
                start, problems = apply_pod_template_patch(generated[role.name], common)
                try:
                    made[role.name] = create_patch(start, role.template) if not problems else None
                except PatchDiffError:
                    made[role.name] = None
        if any(p is None for p in made.values()):  # cannot happen: a common part applies where the whole did
            return findings, {}, {}
    return findings, common, {name: patch for name, patch in made.items() if patch}


_ABSENT = object()


def _common(values: list[dict[str, Any]]) -> dict[str, Any]:
    """What every patch of ``values`` says alike: the keys with equal values, and within mappings
    (not a directive, nor a list, whose items and order go together) the same again."""
    first, others = values[0], values[1:]
    out: dict[str, Any] = {}
    for key, value in first.items():
        theirs = [other.get(key, _ABSENT) for other in others]
        if all(v is not _ABSENT and equal(v, value) for v in theirs) and not _directive_of_list(key, values):
            out[key] = value
        elif isinstance(value, dict) and not key.startswith("$") and all(isinstance(v, dict) for v in theirs):
            sub = _common([value, *theirs])
            if sub:
                out[key] = sub
    return out


def _directive_of_list(key: str, values: list[dict[str, Any]]) -> bool:
    """``$setElementOrder/<list>`` or ``$deleteFromPrimitiveList/<list>`` whose list differs."""
    if not key.startswith("$") or "/" not in key:
        return False
    name = key.partition("/")[2]
    return not all(equal(v.get(name, _ABSENT), values[0].get(name, _ABSENT)) for v in values)
