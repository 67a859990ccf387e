"""The smallest RFC 6902 JSON patch that turns one object into another.

Used for kustomize overlays: a patch of every changed field (replica counts, -np,
schedulingPolicy...) applied to the base yields exactly the environment's object. Mappings
are compared key by key and lists of equal length item by item; anything else is replaced
whole. Paths are escaped per RFC 6901 (``sidecar.istio.io/inject`` -> ``sidecar.istio.io~1inject``).
"""

from __future__ import annotations

from typing import Any


def pointer(parts: list[str | int]) -> str:
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)


def diff(old: Any, new: Any) -> list[dict[str, Any]]:
    ops: list[dict[str, Any]] = []
    _diff(old, new, [], ops)
    return ops


def _diff(old: Any, new: Any, path: list[str | int], ops: list[dict[str, Any]]) -> None:
    if isinstance(old, dict) and isinstance(new, dict):
        for key, value in new.items():
            if key not in old:
                ops.append({"op": "add", "path": pointer(path + [key]), "value": value})
            else:
                _diff(old[key], value, path + [key], ops)
        for key in old:
            if key not in new:
                ops.append({"op": "remove", "path": pointer(path + [key])})
        return
    if isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        for i, (a, b) in enumerate(zip(old, new)):
            _diff(a, b, path + [i], ops)
        return
    if type(old) is not type(new) or old != new:
        ops.append({"op": "replace", "path": pointer(path), "value": new})


def apply(obj: Any, ops: list[dict[str, Any]]) -> Any:
    """Apply ``ops`` (as produced by :func:`diff`) to a deep copy of ``obj``."""
    import copy

    result = copy.deepcopy(obj)
    for op in ops:
        parts = [p.replace("~1", "/").replace("~0", "~") for p in op["path"].split("/")[1:]]
        if not parts:
            result = copy.deepcopy(op["value"])
            continue
        parent = result
        for part in parts[:-1]:
            parent = parent[int(part)] if isinstance(parent, list) else parent[part]
        last: Any = int(parts[-1]) if isinstance(parent, list) else parts[-1]
        if op["op"] == "remove":
            del parent[last]
        else:
            parent[last] = copy.deepcopy(op["value"])
    return result
