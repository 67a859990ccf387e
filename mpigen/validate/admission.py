"""What the API server and the operators accept: an object as the server stores it (nulls dropped),
its shipped schema, and whether the API server refuses it for want of a name (the operators'
admission rules, which refuse a job before anything is created, are :mod:`mpigen.lint.admission`).

Used by :mod:`.engine`, for ``mpigen validate`` and for the jobs ``podgroup`` and ``explain``
read (:func:`mpigen.validate.find_jobs`): one verdict on a job, whichever command reads it.
"""

from __future__ import annotations

import functools
from typing import Any

from ..spec.schema import schemas_folder

Path = tuple[str | int, ...]


@functools.lru_cache(maxsize=1)
def _available_schemas() -> frozenset[str]:
    root = schemas_folder()
    names = set()
    for folder in root.iterdir():
        if folder.is_dir() and not folder.name.startswith(("_", ".")):
            names.update(f"{folder.name}/{f.name}" for f in folder.iterdir() if f.name.endswith(".json"))
    return frozenset(names)


def schema_for(api_version: str, kind: str) -> str | None:
    """The shipped schema of an apiVersion and kind, in kubeconform's layout; None if there is none."""
    group, _, version = api_version.rpartition("/")
    name = f"{group or version}/{kind.lower()}_{version}.json"
    return name if name in _available_schemas() else None


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
