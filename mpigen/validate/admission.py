"""What the API server and the operators accept: an object as the server stores it (nulls dropped),
its shipped schema, and whether the API server refuses it for want of a name (the operators'
admission rules, which refuse a job before anything is created, are :mod:`mpigen.lint.admission`).

Used by :mod:`.engine`, for ``mpigen validate`` and for the jobs ``podgroup`` and ``explain``
read (:func:`mpigen.validate.find_jobs`): one verdict on a job, whichever command reads it.
"""

from __future__ import annotations

from typing import Any

from ..spec.schema import load_schema, local_ref
from ..spec.schema import schema_name as schema_for

Path = tuple[str | int, ...]


def prune_nulls(value: Any) -> Any:
    """What the API server stores: mapping entries whose value is null are dropped."""
    if isinstance(value, dict):
        return {k: prune_nulls(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [prune_nulls(v) for v in value]
    return value


def unknown_nulls(obj: Any, schema: str) -> list[tuple[Path, list[str]]]:
    """(path, the fields known there) of every mapping entry of ``obj`` whose value is null and whose
    key the schema does not declare where it stands: what ``prune_nulls`` drops silently, as
    client-side ``kubectl apply`` does, and what every other way of applying refuses (a strict
    decoder's "unknown field", server-side apply's "field not declared in schema"). A null below a
    non-null unknown field is not looked at (the schema reports that field)."""
    root = load_schema(schema)
    found: dict[Path, list[str]] = {}
    _nulls(obj, [root], root, (), found)
    return list(found.items())


def _nulls(value: Any, schemas: list[Any], root: dict[str, Any], path: Path, found: dict[Path, list[str]]) -> None:
    branches = [b for s in schemas for b in _branches(s, root)]
    if isinstance(value, dict):
        for key, sub in value.items():
            known = _declared(branches, key)
            if known is None:  # an open object (preserve-unknown-fields): anything goes below
                continue
            if not known:
                if sub is None:
                    found.setdefault(path + (key,), sorted({n for b in branches for n in b.get("properties", {})}))
                continue
            if sub is not None:
                _nulls(sub, known, root, path + (key,), found)
    elif isinstance(value, list):
        items = [b["items"] for b in branches if isinstance(b.get("items"), dict)]
        if items:
            for i, item in enumerate(value):
                _nulls(item, items, root, path + (i,), found)


def _branches(schema: Any, root: dict[str, Any]) -> list[dict[str, Any]]:
    """The schema and its allOf/anyOf/oneOf alternatives, local ``$ref``s followed."""
    if not isinstance(schema, dict):
        return []
    target = local_ref(schema, root)
    if target is not None:
        return _branches(target, root)
    out = [schema]
    for keyword in ("allOf", "anyOf", "oneOf"):
        for sub in schema.get(keyword) or ():
            out += _branches(sub, root)
    return out


def _declared(branches: list[dict[str, Any]], key: str) -> list[Any] | None:
    """The schemas of ``key`` in the object schemas among ``branches``: [] when none declares it
    and every one is closed (``additionalProperties: false``), None when one is open."""
    objects = [b for b in branches if "properties" in b or "additionalProperties" in b]
    if not objects:  # a free-form object, or not an object at all (the schema says so)
        return None
    known = []
    for branch in objects:
        extra = branch.get("additionalProperties")
        if key in branch.get("properties", {}):
            known.append(branch["properties"][key])
        elif isinstance(extra, dict):
            known.append(extra)
        elif extra is not False:
            return None
    return known


def name_problems(obj: dict[str, Any]) -> list[tuple[Path, str]]:
    """The API server refuses an object without a name ("resource name may not be empty")."""
    meta = obj.get("metadata")
    if isinstance(meta, dict) and (meta.get("name") or meta.get("generateName")):
        return []
    if isinstance(meta, dict) or "metadata" not in obj:
        return [(("metadata",) if "metadata" in obj else (), "missing required field 'metadata.name': the API "
                 "server refuses an object without a name")]
    return []  # metadata of the wrong type: the schema reports it
