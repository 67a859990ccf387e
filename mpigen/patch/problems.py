"""What a pod-template patch gets wrong, as data: no diagnostic type, no positions (the caller
knows the file and turns :attr:`PatchProblem.path` into a line)."""

from __future__ import annotations

from dataclasses import dataclass

CODES = {
    "patch-merge-key": "an item of a list merged by key (containers by name, volumeMounts by mountPath...) "
                       "without that key, or with a key that is not a string or a number",
    "patch-directive": "a `$patch`, `$retainKeys`, `$setElementOrder/<field>` or `$deleteFromPrimitiveList/<field>` "
                       "directive of an unknown value or of the wrong type",
    "patch-retain-keys": "a field set beside `$retainKeys` and not listed in it",
    "patch-element-order": "a list whose items are not in the order its `$setElementOrder/<field>` gives",
    "patch-field": "a field Kubernetes does not have, set both by the patch and by the pod template",
    "patch-type": "a value of another shape than Kubernetes gives the field (a list where a mapping is, "
                  "mixed list items...) that the patch would have to merge",
}
"""Every :attr:`PatchProblem.code`, and what it means."""


@dataclass(frozen=True)
class PatchProblem:
    """A part of a strategic merge patch that cannot be applied, as ``kubectl patch`` would
    refuse it."""

    path: tuple[str | int, ...]
    """Where in the patch: keys and list indexes, directives included (``("spec", "containers", 1)``,
    ``("spec", "$setElementOrder/volumes")``)."""
    code: str
    """One of :data:`CODES`."""
    message: str
    """For a person: what is wrong and what to write."""
