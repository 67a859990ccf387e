"""What the API server and the operators accept: an object as the server stores it (nulls dropped),
its shipped schema, and whether the API server refuses it for want of a name (the operators'
admission rules, which refuse a job before anything is created, are :mod:`mpigen.lint.admission`).

Used by :mod:`.engine`, for ``mpigen validate`` and for the jobs ``podgroup`` and ``explain``
read (:func:`mpigen.validate.find_jobs`): one verdict on a job, whichever command reads it.
"""

from __future__ import annotations

from typing import Any

from ..spec.schema import schema_name as schema_for

Path = tuple[str | int, ...]


def prune_nulls(value: Any) -> Any:
    """What the API server stores: mapping entries whose value is null are dropped."""
    if isinstance(value, dict):
        return {k: prune_nulls(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [prune_nulls(v) for v in value]
    return value


def name_problems(obj: dict[str, Any]) -> list[tuple[Path, str]]:
    """The API server refuses an object without a name ("resource name may not be empty")."""
    meta = obj.get("metadata")
    if isinstance(meta, dict) and (meta.get("name") or meta.get("generateName")):
        return []
    if isinstance(meta, dict) or "metadata" not in obj:
        return [(("metadata",) if "metadata" in obj else (), "missing required field 'metadata.name': the API "
                 "server refuses an object without a name")]
    return []  # metadata of the wrong type: the schema reports it
