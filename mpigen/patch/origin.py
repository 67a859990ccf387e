"""Where in a patch a value of the patched object was set: to report a finding on the patched pod
at the line of the patch that made it."""

from __future__ import annotations

from typing import Any

from .merge import DIRECTIVE
from .order import same
from .strategies import Shape, ShapeError, Types, field, object_shape, split_strategies


def origin(result: Any, path: tuple, patch: Any, type_name: str, types: Types) -> tuple | None:
    """The path in ``patch`` that set the value at ``path`` of ``result`` (``patch`` applied to an
    object of ``type_name``), or None when the patch did not set it.

    An item of a list merged by key is found in the patch by its key (``containers[2]`` of the
    result may be ``containers[0]`` of the patch), a value of a merged list of primitives by
    itself; a list the patch replaced maps index to index (its directive items aside).
    """
    if not path:
        return () if patch else None
    shape: Shape | None = object_shape(type_name)
    at: tuple = ()
    here, there = result, patch
    for step in path:
        if isinstance(step, str):
            if type(here) is not dict or type(there) is not dict or step not in here or step not in there:
                return None
            shape = _field(types, shape, step)
            here, there = here[step], there[step]
            at += (step,)
            continue
        if type(here) is not list or type(there) is not list or not 0 <= step < len(here):
            return None
        found = _item(here, step, there, shape)
        if found is None:
            return None
        here, there = here[step], there[found]
        at += (found,)
        shape = shape.get("items") if shape is not None else None
    return at


def _field(types: Types, shape: Shape | None, key: str) -> Shape | None:
    """The shape of ``key`` in ``shape`` (None where the metadata does not say)."""
    if shape is None:
        return None
    if shape["shape"] == "map":
        return shape["values"]
    try:
        return field(types, shape, key)[0]
    except ShapeError:
        return None


def _item(result: list, index: int, patch: list, shape: Shape | None) -> int | None:
    """The index in ``patch`` of the item ``result[index]`` came from."""
    item = result[index]
    merged = False
    if shape is not None and shape["shape"] == "list":
        try:
            merged = split_strategies(tuple(shape.get("patchStrategy", "").split(",")))[1] == "merge"
        except ShapeError:
            merged = False
    key = shape.get("patchMergeKey", "") if shape is not None else ""
    if merged and key:
        if type(item) is not dict or key not in item:
            return None
        return next((i for i, p in enumerate(patch) if type(p) is dict and key in p and DIRECTIVE not in p
                     and same(p[key], item[key])), None)
    if merged:
        return next((i for i, p in enumerate(patch) if same(p, item)), None)
    if len(patch) == len(result):  # replaced as it was written
        return index
    kept = [i for i, p in enumerate(patch) if not (type(p) is dict and DIRECTIVE in p)]
    return kept[index] if index < len(kept) else None
