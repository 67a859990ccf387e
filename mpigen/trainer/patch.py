"""Strategic merge patch, as far as Trainer v2.3.0 applies it: a TrainJob's runtime patches over
the runtime's JobSet spec, and ``resourcesPerNode`` over the node container's resources.

Ported from k8s.io/apimachinery v0.36.2 ``pkg/util/strategicpatch/patch.go``
(``StrategicMergePatch`` -> ``mergeMap`` with ``MergeParallelList`` and ``IgnoreUnmatchedNulls``,
``mergeSlice``, ``mergeSliceWithSpecialElements``, ``mergeSliceWithoutSpecialElements``,
``normalizeElementOrder``, ``normalizeSliceOrder``, ``mergeSortedSlice``, ``removeDirectives``,
``discardNullValuesFromPatch``). The patch metadata (which lists merge, and by which key) is the
struct tags of the types Trainer passes as ``dataStruct``: JobSet v0.12.0's ``JobSetSpec``
(``replicatedJobs`` and ``dependsOn`` by ``name``) down through Kubernetes' ``batch/v1``
JobTemplateSpec and ``core/v1`` PodTemplateSpec (``MERGE_KEYS``); every other list is replaced.

Semantics, on plain JSON data (``merge`` returns a new value, its inputs are not changed):

* maps merge key by key; a ``null`` in the patch deletes the key (and is dropped where there was
  nothing to delete); a value of another type replaces;
* a list with a merge key: ``$patch: delete`` / ``$patch: replace`` elements are honoured, then
  each patch element merges into the original element with the same key or is appended; the
  result is ordered as ``normalizeElementOrder`` orders it: patch elements in patch order,
  original-only elements in their original order, interleaved by their original positions;
* a list of scalars with the merge strategy (``finalizers``): both, duplicates dropped;
* any other list: the patch's.
"""

from __future__ import annotations

import copy
from typing import Any

# A type's fields that are lists merged by a key (None: scalars, merged as a set), and the type
# of their elements; fields naming another struct type lead into it.
_CONTAINER: dict[str, Any] = {
    "env": ("name", None), "volumeMounts": ("mountPath", None), "ports": ("containerPort", None),
    "volumeDevices": ("devicePath", None),
}
_OBJECT_META: dict[str, Any] = {"finalizers": (None, None), "ownerReferences": ("uid", None)}
_POD_SPEC: dict[str, Any] = {
    "volumes": ("name", None), "initContainers": ("name", _CONTAINER), "containers": ("name", _CONTAINER),
    "ephemeralContainers": ("name", _CONTAINER), "imagePullSecrets": ("name", None),
    "hostAliases": ("ip", None), "topologySpreadConstraints": ("topologyKey", None),
    "schedulingGates": ("name", None), "resourceClaims": ("name", None),
}
POD_TEMPLATE: dict[str, Any] = {"metadata": _OBJECT_META, "spec": _POD_SPEC}
"""Patch metadata of Kubernetes' ``core/v1`` PodTemplateSpec, as JobSet's ``JobSetSpec`` reaches it."""
_JOB_TEMPLATE: dict[str, Any] = {"metadata": _OBJECT_META, "spec": {"template": POD_TEMPLATE}}
JOBSET_SPEC: dict[str, Any] = {
    "replicatedJobs": ("name", {"template": _JOB_TEMPLATE, "dependsOn": ("name", None)}),
}
"""Patch metadata of JobSet v0.12.0's ``JobSetSpec`` (the ``dataStruct`` of ``mergeRuntimePatches``)."""
RESOURCE_REQUIREMENTS: dict[str, Any] = {"claims": ("name", None)}
"""Patch metadata of Trainer's ``resourceRequirementsPatchMeta`` (``MergeResourceRequirements``)."""

DIRECTIVE = "$patch"


class PatchError(ValueError):
    """What ``StrategicMergePatch`` returns as an error (a malformed merge list)."""


def merge(original: Any, patch: Any, schema: dict[str, Any]) -> Any:
    """``StrategicMergePatch(original, patch, dataStruct)`` on JSON data, ``schema`` describing the
    data struct (:data:`JOBSET_SPEC`, :data:`RESOURCE_REQUIREMENTS`)."""
    if not isinstance(original, dict) or not isinstance(patch, dict):
        raise PatchError("a strategic merge patch and its target must be JSON objects")
    return _merge_map(copy.deepcopy(original), copy.deepcopy(patch), schema)


def _struct(schema: Any, key: str) -> dict[str, Any]:
    sub = schema.get(key) if isinstance(schema, dict) else None
    return sub if isinstance(sub, dict) else {}


def _merge_map(original: dict[str, Any], patch: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    if DIRECTIVE in patch:  # handleDirectiveInMergeMap
        directive = patch.pop(DIRECTIVE)
        if directive == "replace":
            return patch
        if directive == "delete":
            return {}
        raise PatchError(f"unknown patch type: {directive}")
    for key, value in patch.items():
        if value is None:  # IgnoreUnmatchedNulls: delete, never keep the null
            original.pop(key, None)
            continue
        if key not in original or type(original[key]) is not type(value) or \
                not isinstance(value, (dict, list)):
            _discard_nulls(value)
            kept, keep = _remove_directives(value)
            if keep:
                original[key] = kept
            else:
                original.pop(key, None)
            continue
        if isinstance(value, dict):
            original[key] = _merge_map(original[key], value, _struct(schema, key))
            continue
        meta = schema.get(key) if isinstance(schema, dict) else None
        if isinstance(meta, tuple):  # a list with the merge strategy
            original[key] = _merge_slice(original[key], value, meta[0], meta[1] or {})
        else:
            kept, _ = _remove_directives(value)
            original[key] = kept
    return original


def _discard_nulls(value: Any) -> None:
    if isinstance(value, dict):
        for key in [k for k, v in value.items() if v is None]:
            del value[key]
        for v in value.values():
            _discard_nulls(v)
    elif isinstance(value, list):
        for v in value:
            _discard_nulls(v)


def _remove_directives(value: Any) -> tuple[Any, bool]:
    if isinstance(value, dict):
        if DIRECTIVE in value:
            return None, False
        out = {}
        for key, v in value.items():
            kept, keep = _remove_directives(v)
            if keep:
                out[key] = kept
        return out, True
    if isinstance(value, list):
        return [kept for kept, keep in map(_remove_directives, value) if keep], True
    return value, True


def _merge_slice(original: list, patch: list, merge_key: str | None, schema: dict[str, Any]) -> list:
    if not original and not patch:
        return original
    kinds = {type(v) for v in original + patch}
    if len(kinds) > 1:
        raise PatchError("list element types are not identical")
    if kinds != {dict}:
        merged = []
        for v in original + patch:  # deduplicateScalars: first occurrence kept
            if v not in merged:
                merged.append(v)
        patch_items = [v for v in merged if v in patch]
        server_only = [v for v in merged if v not in patch]
        return _normalize_order(patch_items, server_only, patch, original, None)
    if merge_key is None:
        raise PatchError("cannot merge lists without merge key")
    original, patch = _special_elements(original, patch, merge_key)
    server_order = list(original)
    merged = list(original)
    for item in patch:
        if merge_key not in item:
            raise PatchError(f"map: {item} does not contain declared merge key: {merge_key}")
        at = next((i for i, o in enumerate(merged) if o.get(merge_key) == item[merge_key]), None)
        if at is None:
            merged.append(item)
        else:
            result = _merge_map(merged[at], item, schema)
            merged[at] = result
            if at < len(server_order):
                server_order[at] = result
    keys = [p.get(merge_key) for p in patch]
    patch_items = [m for m in merged if m.get(merge_key) in keys]
    server_only = [m for m in merged if m.get(merge_key) not in keys]
    return _normalize_order(patch_items, server_only, patch, server_order, merge_key)


def _special_elements(original: list, patch: list, merge_key: str) -> tuple[list, list]:
    plain, replace = [], False
    for item in patch:
        if DIRECTIVE not in item:
            plain.append(item)
            continue
        directive = item[DIRECTIVE]
        if directive == "delete":
            if merge_key not in item:
                raise PatchError(f"map: {item} does not contain declared merge key: {merge_key}")
            original = [o for o in original if o.get(merge_key) != item[merge_key]]
        elif directive == "replace":
            replace = True
        elif directive == "merge":
            raise PatchError("merging lists cannot yet be specified in the patch")
        else:
            raise PatchError(f"unknown patch type: {directive}")
    if replace:
        return plain, []
    return original, plain


def _index(items: list, value: Any, merge_key: str | None) -> int:
    want = value.get(merge_key) if merge_key is not None and isinstance(value, dict) else value
    for i, item in enumerate(items):
        got = item.get(merge_key) if merge_key is not None and isinstance(item, dict) else item
        if got == want:
            return i
    return -1


def _sorted_by(items: list, order: list, merge_key: str | None) -> list:
    """``normalizeSliceOrder``: a stable sort by position in ``order`` (every item is in it)."""
    if merge_key is not None:
        deleted = [i for i in items if DIRECTIVE in i]
        items = [i for i in items if DIRECTIVE not in i]
    else:
        deleted = []
    return sorted(items, key=lambda item: _index(order, item, merge_key)) + deleted


def _normalize_order(patch_items: list, server_only: list, patch_order: list, server_order: list,
                     merge_key: str | None) -> list:
    right = _sorted_by(patch_items, patch_order, merge_key)
    left = _sorted_by(server_only, server_order, merge_key)
    out: list = []
    i = j = 0
    while i < len(left) or j < len(right):  # mergeSortedSlice
        if i >= len(left):
            out.append(right[j])
            j += 1
        elif j >= len(right):
            out.append(left[i])
            i += 1
        else:
            li, ri = _index(server_order, left[i], merge_key), _index(server_order, right[j], merge_key)
            if li >= 0 and ri >= 0 and li < ri:
                out.append(left[i])
                i += 1
            else:
                out.append(right[j])
                j += 1
    return out
