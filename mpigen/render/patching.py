"""The spec's pod template patches, applied to the pod templates mpigen generates.

``podTemplatePatch`` (job-wide, then ``roles.<role>.podTemplatePatch``) is a strategic merge patch
of a pod template, applied as ``kubectl patch`` and kustomize apply one (:mod:`mpigen.patch`), to
each role's generated pod template before the operator's rules run: what the job says after this
stage (its pods, mpirun's ``-np`` and slots, the gang's minResources and decoration) is what the
patched pods need. What a patch may not set, and a patch that sets what a field of the spec also
sets, are the check stage's (:mod:`mpigen.spec.patch_rules`).
"""

from __future__ import annotations

from typing import Any

from ..diagnostics import Severity
from ..operator.quantity import Quantity, QuantityError

Finding = tuple[tuple, str, Severity, str]


def patched_template(template: dict[str, Any], view: dict[str, Any]) -> tuple[dict[str, Any], list[Finding]]:
    """``template`` with the patches of a role's view of the spec applied in order, and the
    problems found applying them, at the patch's place in the spec."""
    patches = view.get("podTemplatePatches") or []
    if not patches:
        return template, []
    from ..patch import apply_pod_template_patch

    findings: list[Finding] = []
    for where, patch in patches:
        template, problems = apply_pod_template_patch(template, patch)
        findings += [(where + tuple(p.path), p.code, Severity.ERROR, p.message) for p in problems]
    return template, findings


def containers_of(template: Any) -> list[dict[str, Any]] | None:
    """A pod template's containers, or None when a patch left it without a list of mappings
    there (the job's schema check then says where; nothing that reads the containers runs)."""
    pod = template.get("spec") if isinstance(template, dict) else None
    containers = pod.get("containers") if isinstance(pod, dict) else None
    if not isinstance(containers, list) or not all(isinstance(c, dict) for c in containers):
        return None
    return containers


def first_container_findings(template: dict[str, Any], view: dict[str, Any], name: str) -> list[Finding]:
    """An MPIJob's pod whose first container, after the patches, is not its training container
    ``name``: mpi-operator sets up the first container of each pod (the hostfile and SSH mounts,
    its variables, sshd on a worker). A strategic merge patch puts the containers it adds before
    the template's, as ``kubectl patch`` does, unless ``$setElementOrder/containers`` says the order.
    A pod left with no container, or no list of them, is the schema check's to say."""
    containers = containers_of(template)
    if not containers or containers[0].get("name") == name or not any(c.get("name") == name for c in containers):
        return []
    where, listed = next(((path, patch["spec"]["containers"]) for path, patch in reversed(
        view.get("podTemplatePatches") or []) if "containers" in (patch.get("spec") or {})), (None, None))
    if where is None:
        return []
    first = f"after the patch the pod's first container is {containers[0].get('name')!r}, not {name!r}: " \
            "mpi-operator sets up the first container (its hostfile, SSH keys and variables); "
    if isinstance(listed, list) and {"$patch": "replace"} in listed:
        fix = f"the patch's list replaces the pod's (`$patch: replace`): put {name!r} first in it"
    else:
        others = [c.get("name") for c in containers if c.get("name") != name]
        order = ", ".join(f"{{name: {n}}}" for n in [name, *others])
        fix = ("a patch puts the containers it adds first, as kubectl patch does: add "
               f"`$setElementOrder/containers: [{order}]` to the patch's spec")
    return [(where + ("spec", "containers"), "patch-container-order", Severity.ERROR, first + fix)]


def main_gpus(template: dict[str, Any], gpu_resource: str) -> int:
    """The GPUs the training container (the operator's ``containers[0]``) of a pod template asks
    for: its limit, else its request (rounded up, as ``Quantity.Value`` does); 0 when none, or
    when a patch wrote something else there (the schema check says what)."""
    containers = containers_of(template)
    resources = containers[0].get("resources") if containers else None
    for kind in ("limits", "requests"):
        values = resources.get(kind) if isinstance(resources, dict) else None
        value = values.get(gpu_resource) if isinstance(values, dict) else None
        if value is None:
            continue
        try:
            count = Quantity.parse(str(value)).value()
        except (QuantityError, OverflowError):
            return 0
        return max(count, 0)
    return 0
