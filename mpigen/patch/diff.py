"""Creating a strategic merge patch: the patch that turns one pod template into another.

The inverse of :func:`mpigen.patch.apply`, as apimachinery v0.35.1's ``CreateTwoWayMergePatch``
(``diffMaps``, ``diffLists``) computes it, with the same merge keys and strategies
(:mod:`.strategies`), and then made as short as it can be while it still gives the same result:

* a mapping: the keys that changed (recursively where the field merges), ``key: null`` for a key
  the target lacks;
* a list whose strategy is ``merge``, of mappings: the items that changed (their merge key and what
  changed in them), the new items whole, ``{<key>: <value>, $patch: delete}`` for an item the target
  lacks, and where the merged order would not be the target's the items it keeps listed by their
  key in its order (else ``$setElementOrder/<field>``); a list
  whose items lack their merge key or repeat one cannot be merged item by item, and is replaced
  whole (``[{$patch: replace}, ...items]``);
* a list of primitives with the ``merge`` strategy: the new values, ``$deleteFromPrimitiveList``
  for those the target lacks, ``$setElementOrder`` for the order;
* every other list, and a value whose type changed: the target's value.

:func:`create_patch` applies what it made and refuses to return a patch that does not give the
target (:class:`PatchDiffError`); each ``$setElementOrder`` that the result does not need is
left out. Pure: the inputs are never changed.
"""

from __future__ import annotations

import copy
from typing import Any, Iterator, Mapping

from .strategies import POD_TEMPLATE_SPEC, Shape, ShapeError, Types, field, object_shape, split_strategies

DIRECTIVE = "$patch"
SET_ELEMENT_ORDER = "$setElementOrder"
DELETE_FROM_PRIMITIVE_LIST = "$deleteFromPrimitiveList"


class PatchDiffError(ValueError):
    """No patch gives the target (a bug, or a value the strategies cannot merge)."""


def equal(a: Any, b: Any) -> bool:
    """Deep equality of decoded JSON values, with types (``1``, ``1.0`` and ``true`` differ)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(equal(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(equal(x, y) for x, y in zip(a, b))
    return a == b


def create_patch(original: dict, modified: dict, type_name: str = POD_TEMPLATE_SPEC, *,
                 strategies: Mapping[str, Any] | None = None) -> dict:
    """The shortest strategic merge patch found that turns ``original`` (an object of
    ``type_name``) into ``modified``: ``{}`` when they are equal."""
    from . import apply
    from .strategies import kubernetes_types

    types = kubernetes_types() if strategies is None else strategies
    patch = _Differ(types).map(original, modified, object_shape(type_name))

    def gives_target(candidate: dict) -> bool:
        result, problems = apply(original, candidate, type_name, strategies=types)
        return not problems and equal(result, modified)

    if not gives_target(patch):
        raise PatchDiffError("the strategic merge patch made does not give the target: "
                             "the values cannot be merged by Kubernetes' patch strategies")
    for holder, key in list(_order_directives(patch)):  # deepest first: each one is tried alone
        order = holder.pop(key)
        if gives_target(patch):
            continue
        name = key.partition("/")[2]
        items = holder.get(name, [])
        if isinstance(items, list) and order and all(isinstance(i, dict) and len(i) == 1 for i in order):
            # The shorter way kubectl reads too: the items the target keeps, listed in its order
            # (those the patch does not change by their key alone), place the new ones among them.
            holder[name] = _listed(items, order)
            if gives_target(patch):
                continue
            if name in holder and not items:
                del holder[name]
            else:
                holder[name] = items
        holder[key] = order
    return patch


def _listed(items: list, order: list) -> list:
    """A merged list's patch items with every item of ``order`` in it, in that order, then the
    deletions."""
    (merge_key,) = order[0].keys()
    by_key = {repr(item.get(merge_key)): item for item in items
              if isinstance(item, dict) and item.get(DIRECTIVE) != "delete" and merge_key in item}
    out = [by_key.get(repr(entry[merge_key]), entry) for entry in order]
    return out + [item for item in items if isinstance(item, dict) and item.get(DIRECTIVE) == "delete"]


def _order_directives(value: Any) -> Iterator[tuple[dict, str]]:
    """Every ``$setElementOrder/...`` of a patch: (the mapping that holds it, its key), deepest first."""
    if isinstance(value, dict):
        for sub in value.values():
            yield from _order_directives(sub)
        for key in list(value):
            if key.startswith(SET_ELEMENT_ORDER + "/"):
                yield value, key
    elif isinstance(value, list):
        for item in value:
            yield from _order_directives(item)


class _Differ:
    def __init__(self, types: Types):
        self.types = types

    def field(self, shape: Shape | None, key: str) -> tuple[Shape | None, tuple[str, ...], str]:
        """A field's (shape, strategies, merge key); None for a field the types do not know (its
        value is then replaced whole)."""
        if shape is None:
            return None, (), ""
        if shape["shape"] == "map":
            return shape["values"], (), ""
        try:
            return field(self.types, shape, key)
        except ShapeError:
            return None, (), ""

    def map(self, original: dict, modified: dict, shape: Shape | None) -> dict:
        patch: dict[str, Any] = {}
        for key, new in modified.items():
            if key not in original:
                patch[key] = copy.deepcopy(new)
                continue
            old = original[key]
            if equal(old, new):
                continue
            sub, strategies, merge_key = self.field(shape, key)
            if isinstance(old, dict) and isinstance(new, dict) and sub is not None \
                    and sub["shape"] in ("object", "map") and "replace" not in strategies:
                patch[key] = self.map(old, new, sub)
            elif isinstance(old, list) and isinstance(new, list) and sub is not None and sub["shape"] == "list" \
                    and split_strategies(strategies)[1] == "merge":
                items, order, deletions = self.merged_list(old, new, sub["items"], merge_key)
                if items is not None:
                    patch[key] = items
                if deletions:
                    patch[f"{DELETE_FROM_PRIMITIVE_LIST}/{key}"] = deletions
                if order is not None:
                    patch[f"{SET_ELEMENT_ORDER}/{key}"] = order
            else:
                patch[key] = copy.deepcopy(new)
        for key in original:
            if key not in modified:
                patch[key] = None
        return patch

    def merged_list(self, original: list, modified: list, items: Shape, merge_key: str
                    ) -> tuple[list | None, list | None, list]:
        """(the patch's list, or None when it has no items; the ``$setElementOrder`` list; the
        ``$deleteFromPrimitiveList`` values) of a list that merges."""
        if all(not isinstance(v, (dict, list)) for v in original + modified):
            added = [copy.deepcopy(v) for v in modified if not any(equal(v, o) for o in original)]
            gone = [copy.deepcopy(v) for v in original if not any(equal(v, m) for m in modified)]
            return added or None, copy.deepcopy(modified), gone
        if not merge_key or not _keyed(original, merge_key) or not _keyed(modified, merge_key):
            return [{DIRECTIVE: "replace"}, *copy.deepcopy(modified)], None, []
        by_key = {item[merge_key]: item for item in original}
        kept = {item[merge_key] for item in modified}
        out: list[Any] = []
        for item in modified:
            old = by_key.get(item[merge_key])
            if old is None:
                out.append(copy.deepcopy(item))
            elif not equal(old, item):
                changed = self.map(old, item, items)
                out.append({merge_key: item[merge_key], **{k: v for k, v in changed.items() if k != merge_key}})
        out += [{merge_key: item[merge_key], DIRECTIVE: "delete"} for item in original if item[merge_key] not in kept]
        order = [{merge_key: item[merge_key]} for item in modified]
        return out or None, order, []


def _keyed(items: list, merge_key: str) -> bool:
    """Every item a mapping with a scalar merge key, none repeated."""
    seen: list[Any] = []
    for item in items:
        if not isinstance(item, dict) or merge_key not in item or isinstance(item[merge_key], (dict, list)) \
                or item[merge_key] is None:
            return False
        if any(equal(item[merge_key], s) for s in seen):
            return False
        seen.append(item[merge_key])
    return True
