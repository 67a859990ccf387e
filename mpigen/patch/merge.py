"""Applying a strategic merge patch: a port of apimachinery v0.35.1
``pkg/util/strategicpatch/patch.go`` (``StrategicMergeMapPatch``: ``mergeMap``,
``mergeSlice``, ``mergeSliceWithSpecialElements``, ``mergePatchIntoOriginal``,
``applyRetainKeysDirective``, ``removeDirectives``...), as ``kubectl patch --type strategic``
and the API server apply it: with the parallel lists merged and unmatched nulls ignored.

Where upstream stops at its first error, this goes on with the rest of the patch and collects a
:class:`~mpigen.patch.problems.PatchProblem` for each part that cannot be applied, located at
its path in the patch; that part leaves the template's value as it was. Everything upstream
accepts gives upstream's result, including its surprises (see :mod:`mpigen.patch`).
"""

from __future__ import annotations

from typing import Any, NoReturn

from ..diagnostics import format_path
from .order import ListError, deduplicate_scalars, delete_from, element_kind, find_map, hash_key, \
    normalize_element_order, partition_maps, partition_primitives, same, split_deletions
from .problems import PatchProblem
from .strategies import Shape, ShapeError, Types, field, list_field, split_strategies, type_words

DIRECTIVE = "$patch"
RETAIN_KEYS = "$retainKeys"
DELETE_FROM_PRIMITIVE_LIST = "$deleteFromPrimitiveList"
SET_ELEMENT_ORDER = "$setElementOrder"


class _Failed(Exception):
    """A part of the patch was not applied; its problems are recorded."""


def _name(path: tuple) -> str:
    return format_path(path) or "the pod template"


def _words(value: Any) -> str:
    import json

    kinds = {dict: "a mapping", list: "a list", str: "a string", bool: "a boolean", int: "a number",
             float: "a number", type(None): "null"}
    text = kinds.get(type(value), type(value).__name__)
    return text if isinstance(value, (dict, list)) or value is None else f"{text} {json.dumps(value)}"


def _prefixed_key(key: str, prefix: str) -> str | None:
    """The field a ``prefix/field`` directive names, or None when it names none (extractKey)."""
    head, slash, rest = key.partition("/")
    return rest if slash and head == prefix else None


def remove_directives(value: Any) -> tuple[Any, bool]:
    """(``value`` without the maps and list items that hold ``$patch``, whether to keep it)."""
    if isinstance(value, dict):
        if DIRECTIVE in value:
            return None, False
        for key in list(value):
            sub, keep = remove_directives(value[key])
            if keep:
                value[key] = sub
            else:
                del value[key]
        return value, True
    if isinstance(value, list):
        kept = [remove_directives(item) for item in value]
        return [sub for sub, keep in kept if keep], True
    return value, True


def discard_nulls(value: Any) -> None:
    """Drop every null-valued key, at any depth (discardNullValuesFromPatch)."""
    if isinstance(value, dict):
        for key in list(value):
            if value[key] is None:
                del value[key]
            else:
                discard_nulls(value[key])
    elif isinstance(value, list):
        for item in value:
            discard_nulls(item)


class Merger:
    """One application of a patch; :attr:`problems` collects what could not be applied."""

    def __init__(self, types: Types):
        self.types = types
        self.problems: list[PatchProblem] = []

    def note(self, path: tuple, code: str, message: str) -> None:
        problem = PatchProblem(tuple(path), code, message)
        if problem not in self.problems:
            self.problems.append(problem)

    def fail(self, path: tuple, code: str, message: str) -> NoReturn:
        self.note(path, code, message)
        raise _Failed

    # ------------------------------------------------------------------------ maps

    def merge_map(self, original: dict | None, patch: dict, shape: Shape, path: tuple) -> dict:
        """mergeMap: ``patch`` merged into ``original`` (both changed, as upstream changes them)."""
        if DIRECTIVE in patch:
            return self.map_directive(patch, path)
        if original is None:
            original = {}
        self.retain_keys(original, patch, path)
        self.set_element_orders(original, patch, shape, path)
        for key, value in list(patch.items()):
            try:
                self.merge_field(original, key, value, shape, path)
            except _Failed:
                pass
        return original

    def map_directive(self, patch: dict, path: tuple) -> dict:
        """handleDirectiveInMergeMap: ``$patch: replace`` gives the patch's mapping, ``delete`` an
        empty one."""
        directive = patch[DIRECTIVE]
        if same(directive, "replace"):
            del patch[DIRECTIVE]
            return patch
        if same(directive, "delete"):
            return {}
        at = path + (DIRECTIVE,)
        if same(directive, "merge"):
            self.fail(at, code="patch-directive",
                      message="`$patch: merge` is not accepted in a mapping (kubectl refuses it as "
                      "an unknown patch type): a mapping is merged by default, remove the line")
        self.fail(at, code="patch-directive",
                  message=f"unknown `$patch: {directive}` ({_words(directive)}): in a mapping write "
                  "`$patch: replace` (the patch's mapping replaces the pod template's) or `$patch: delete` "
                  "(the mapping becomes empty)")

    def retain_keys(self, original: dict, patch: dict, path: tuple) -> None:
        """applyRetainKeysDirective: the template's keys not listed in ``$retainKeys`` go."""
        if RETAIN_KEYS not in patch:
            return
        at = path + (RETAIN_KEYS,)
        listed = patch.pop(RETAIN_KEYS)
        if not isinstance(listed, list) or any(isinstance(v, (dict, list)) for v in listed):
            self.note(at, code="patch-directive",
                      message=f"`$retainKeys` must be a list of the field names to keep, got "
                      f"{_words(listed)}")
            return
        keep = {hash_key(v) for v in listed}
        unlisted = [key for key, value in patch.items()
                    if value is not None and not key.startswith((DELETE_FROM_PRIMITIVE_LIST, SET_ELEMENT_ORDER))
                    and hash_key(key) not in keep]
        for key in unlisted:
            self.note(path + (key,), code="patch-retain-keys",
                      message=f"{key} is set but `$retainKeys` does not list it: "
                      "list in `$retainKeys` every field this mapping keeps or sets (kubectl: invalid patch "
                      "format of retainKeys)")
        if not unlisted:
            for key in [k for k in original if hash_key(k) not in keep]:
                del original[key]

    def merge_field(self, original: dict, key: str, value: Any, shape: Shape, path: tuple) -> None:
        """One key of the patch (the loop body of mergeMap)."""
        at = path + (key,)
        name, delete_list = key, False
        if key.startswith(DELETE_FROM_PRIMITIVE_LIST):
            name = _prefixed_key(key, DELETE_FROM_PRIMITIVE_LIST)
            if name is None:
                self.fail(at, code="patch-directive",
                          message="`$deleteFromPrimitiveList` needs the list it deletes from: write "
                          "`$deleteFromPrimitiveList/<field>: [values]`")
            delete_list = True
            if value is not None and not isinstance(value, list):  # kubectl ignores it: said here
                self.fail(at, code="patch-directive",
                          message=f"`{key}` must be a list of the values to delete from {name}, got "
                          f"{_words(value)}")
        if value is None:
            original.pop(name, None)
            return
        if name not in original or type(original[name]) is not type(value):
            if not delete_list:
                discard_nulls(value)
                value, keep = remove_directives(value)
                if keep:
                    original[name] = value
                else:
                    original.pop(name, None)
            return
        if isinstance(value, dict):
            sub, strategies, _ = self.lookup(field, shape, name, at)
            if self.strategy(strategies, at) == "replace":
                original[name] = value
            else:
                original[name] = self.merge_map(original[name], value, sub, at)
        elif isinstance(value, list):
            items, strategies, merge_key = self.lookup(list_field, shape, name, at)
            original[name] = self.merge_list_field(original[name], value, items, self.strategy(strategies, at),
                                                   merge_key, delete_list, at)
        else:
            original[name] = value

    def lookup(self, how: Any, shape: Shape, name: str, at: tuple) -> tuple[Shape, tuple[str, ...], str]:
        """``how`` (:func:`field` or :func:`list_field`) of ``name``; a failure is located at ``at``."""
        try:
            return how(self.types, shape, name)
        except ShapeError as error:
            self.fail(at, error.code, error.message if error.subject is None else
                      f"{_name(at[:-1] if error.subject == 'parent' else at)} {error.message}")

    def strategy(self, strategies: tuple[str, ...], at: tuple) -> str:
        try:
            return split_strategies(strategies)[1]
        except ShapeError as error:
            self.fail(at, error.code, error.message)

    # ----------------------------------------------------------------------- lists

    def merge_list_field(self, original: list, patch: list, items: Shape, strategy: str, merge_key: str,
                         delete_list: bool, path: tuple) -> list:
        """mergeSliceHandler: merged when the field's strategy is merge (or for a delete list),
        else replaced by the patch's list as it is."""
        if strategy == "merge" or delete_list:
            return self.merge_list(original, patch, items, merge_key, delete_list, path)
        return patch

    def merge_list(self, original: list, patch: list, items: Shape, merge_key: str, delete_list: bool,
                   path: tuple) -> list:
        """mergeSlice."""
        if not original and not patch:
            return original
        where = _Where(self, path, patch, merge_key)
        try:
            kind = element_kind(original, patch)
            if kind is not dict:
                if delete_list:
                    return delete_from(original, patch)
                merged = deduplicate_scalars(original + patch)
            else:
                if not merge_key:
                    self.fail(path, code="patch-type",
                              message=f"{_name(path)} holds {type_words(items)} in each item, not a "
                              "mapping (kubectl: cannot merge lists without merge key)")
                original, patch, failed = self.special_items(original, patch, merge_key, where)
                missing = {id(item) for item in patch
                           if merge_key not in item or isinstance(item[merge_key], (dict, list))}
                for item in patch:
                    if id(item) in missing:
                        where.missing_key(item)
                # the other items still merge: what is wrong inside them is reported too
                merged = self.merge_items(original, [i for i in patch if id(i) not in missing], merge_key, items, where)
                if failed or missing:
                    raise _Failed
            if merge_key:
                patch_items, server_only = partition_maps(merged, patch, merge_key)
            else:
                patch_items, server_only = partition_primitives(merged, patch)
            return normalize_element_order(patch_items, server_only, patch, original, merge_key, kind)
        except ListError as error:
            where.refuse(error)

    def special_items(self, original: list, patch: list, merge_key: str, where: _Where) -> tuple[list, list, bool]:
        """mergeSliceWithSpecialElements: the ``$patch`` items of a merged list of maps applied;
        (the template's items then, the patch's other items, whether a ``$patch`` item failed)."""
        plain, replace, failed = [], False, False
        for item in patch:
            if DIRECTIVE not in item:
                plain.append(item)
                continue
            directive = item[DIRECTIVE]
            at = where.item_path(item)
            if same(directive, "delete"):
                if merge_key in item:
                    original = [o for o in original if not (merge_key in o and same(o[merge_key], item[merge_key]))]
                else:
                    failed = True
                    self.note(at, code="patch-merge-key",
                              message=f"this `$patch: delete` item of {_name(where.path)} has no "
                              f"{merge_key}: name the item to delete with `{merge_key}: ...`")
            elif same(directive, "replace"):
                replace = True
            elif same(directive, "merge"):
                failed = True
                self.note(at + (DIRECTIVE,), code="patch-directive",
                          message="`$patch: merge` is not accepted in a list (kubectl: "
                          f"merging lists cannot yet be specified in the patch): the items of {_name(where.path)} "
                          f"are merged by their {merge_key} already, remove this item")
            else:
                failed = True
                self.note(at + (DIRECTIVE,), code="patch-directive", message=f"unknown `$patch: {directive}` "
                          f"({_words(directive)}) in an item of {_name(where.path)}: write `$patch: delete` beside "
                          f"the {merge_key} of the item to delete, or an item `- $patch: replace` to replace the "
                          "whole list with the patch's items")
        return ((plain, []) if replace else (original, plain)) + (failed,)

    def merge_items(self, original: list, patch: list, merge_key: str, items: Shape, where: _Where) -> list:
        """mergeSliceWithoutSpecialElements: each item of the patch (every one with its merge key)
        merged into the template's item of the same merge key, or added after them."""
        merged = list(original)
        for item in patch:
            found = find_map(merged, merge_key, item[merge_key])
            if found >= 0:
                merged[found] = self.merge_map(merged[found], item, items, where.item_path(item))
            else:
                merged.append(item)
        return merged

    def set_element_orders(self, original: dict, patch: dict, shape: Shape, path: tuple) -> None:
        """mergePatchIntoOriginal: each ``$setElementOrder/<field>`` with the patch's list of it."""
        for key in [k for k in patch if k.startswith(SET_ELEMENT_ORDER)]:
            order = patch.pop(key)
            try:
                self.set_element_order(original, patch, key, order, shape, path)
            except _Failed:
                name = _prefixed_key(key, SET_ELEMENT_ORDER)
                if name is not None:
                    patch.pop(name, None)  # not merged without the order it was given

    def set_element_order(self, original: dict, patch: dict, key: str, order: Any, shape: Shape,
                          path: tuple) -> None:
        at = path + (key,)
        name = _prefixed_key(key, SET_ELEMENT_ORDER)
        if name is None:
            self.fail(at, code="patch-directive", message="`$setElementOrder` needs the list it orders: write "
                      "`$setElementOrder/<field>: [items]`")
        if not isinstance(order, list):
            self.fail(at, code="patch-directive",
                      message=f"`{key}` must be a list of the items of {name} in the order wanted, "
                      f"got {_words(order)}")
        in_original, in_patch = name in original, name in patch
        if in_original and not isinstance(original[name], list):
            self.fail(at, code="patch-type",
                      message=f"`{key}` orders {name}, which the pod template has as {_words(original[name])}")
        if in_patch and not isinstance(patch[name], list):
            self.fail(path + (name,), code="patch-type",
                      message=f"{name} is ordered by `{key}` but is {_words(patch[name])}, "
                      "not a list")
        items, strategies, merge_key = self.lookup(list_field, shape, name, at)
        strategy = self.strategy(strategies, at)
        for s, item in enumerate(order):
            if merge_key and not (isinstance(item, dict) and merge_key in item):
                self.fail(at + (s,), code="patch-merge-key",
                          message=f"this item of `{key}` has no {merge_key}: name each item "
                          f"by its {merge_key}, `- {merge_key}: ...`")
            if not merge_key and isinstance(item, (dict, list)):
                self.fail(at + (s,), code="patch-directive",
                          message=f"the items of `{key}` are the values of {name} in the order "
                          "wanted: strings or numbers")
        original_list, patch_list = original.get(name, []), patch.get(name, [])
        where = _Where(self, path + (name,), patch_list, merge_key)
        self.check_order(patch_list, order, merge_key, key, where)
        if in_original and in_patch:
            merged = self.merge_list_field(original_list, patch_list, items, strategy, merge_key, False, path + (name,))
        elif in_patch:
            merged = remove_directives(patch_list)[0]
        elif in_original:
            merged = original_list
        else:
            return
        try:
            if merge_key:
                patch_items, server_only = partition_maps(merged, order, merge_key)
            else:
                patch_items, server_only = partition_primitives(merged, order)
        except ListError as error:
            if error.code == "patch-type" and not merge_key:
                self.fail(at, code="patch-directive",
                          message=f"`{key}`: {name} is not merged by key and its items are not "
                          "strings or numbers, so it has no order to set (kubectl cannot apply it): remove the "
                          "directive")
            where.refuse(error)
        try:
            kind = element_kind(original_list, patch_list)
        except ListError as error:
            self.fail(at, code="patch-element-order",
                      message=f"`{key}` orders {name}, which is empty in the pod template and "
                      "not in the patch (kubectl: no elements in any of the given slices): remove the directive"
                      if error.message.startswith("no elements") else f"{name}: {error.message}")
        if in_original and in_patch and kind is dict and (strategy == "merge"):
            original_list = _slice_after_merge(original_list, patch_list, merge_key)
        try:
            original[name] = normalize_element_order(patch_items, server_only, order, original_list, merge_key, kind)
        except ListError as error:
            where.refuse(error)
        patch.pop(name, None)

    def check_order(self, patch_list: list, order: list, merge_key: str, key: str, where: _Where) -> None:
        """validatePatchWithSetOrderList: the patch's items are in the directive's order."""
        if not order or not patch_list:
            return
        try:
            items = split_deletions(patch_list)[0] if merge_key else patch_list
        except ListError as error:
            where.refuse(error)
        p = s = 0
        while p < len(items) and s < len(order):
            item = items[p]
            if isinstance(item, dict) and DIRECTIVE in item:
                p += 1
                continue
            if merge_key:
                if not isinstance(item, dict) or merge_key not in item:
                    where.refuse(ListError("patch-merge-key", "", item))
                equal = same(item[merge_key], order[s][merge_key])
            else:
                equal = same(item, order[s])
            if equal:
                p += 1
            s += 1
        if p < len(items) and s >= len(order):
            self.fail(where.path, code="patch-element-order",
                      message=f"the items of {where.path[-1]} in the patch are not all "
                      f"in `{key}`, in its order: list every item the patch has there, in the order wanted "
                      "(kubectl: the order in patch list doesn't match $setElementOrder list)")


def _slice_after_merge(original: list, patch: list, merge_key: str) -> list:
    """What upstream's ``originalFieldValue`` holds once ``mergeSlice`` merged ``patch`` into it.

    A Go slice shares its array with the slices cut from it: ``deleteMatchingEntries`` shifts the
    items after a deleted one left within that array, and the items
    ``mergeSliceWithoutSpecialElements`` then appends fill the places freed at its end. The list
    ``mergePatchIntoOriginal`` orders the template's items by (its "server order") is that array,
    as long as the template's list was: upstream's own tests expect the order it gives.
    """
    view = list(original)
    current = list(original)
    replace = False
    plain = []
    for item in patch:
        if DIRECTIVE not in item:
            plain.append(item)
        elif same(item[DIRECTIVE], "delete"):
            while (i := find_map(current, merge_key, item[merge_key])) >= 0:
                del current[i]
                view[i:len(current)] = view[i + 1:len(current) + 1]
        elif same(item[DIRECTIVE], "replace"):
            replace = True
    if not replace:
        for item in plain:
            if find_map(current, merge_key, item[merge_key]) < 0:
                if len(current) < len(view):
                    view[len(current)] = item
                current.append(item)
    return view


class _Where:
    """Where the problems of a list are: its path in the patch, and each patch item's index."""

    def __init__(self, merger: Merger, path: tuple, patch: list, merge_key: str):
        self.merger = merger
        self.path = path
        self.merge_key = merge_key
        self.index = {id(item): i for i, item in enumerate(patch)}

    def item_path(self, item: Any) -> tuple:
        i = self.index.get(id(item))
        return self.path if i is None else self.path + (i,)

    def missing_key(self, item: Any) -> None:
        key, field_name = self.merge_key, _name(self.path)
        if id(item) not in self.index:
            message = (f"an item of {field_name} in the pod template has no {key}, so the patch's items cannot be "
                       "matched with it")
        elif isinstance(item, dict) and isinstance(item.get(key), (dict, list)):
            message = f"the {key} of this item of {field_name} is {_words(item[key])}: write it as a string or a number"
        else:
            message = (f"this item of {field_name} has no {key}: a strategic merge patch matches the items of "
                       f"{field_name} by their {key}, so name the item to change or add with `{key}: ...`")
        self.merger.note(self.item_path(item), code="patch-merge-key", message=message)

    def refuse(self, error: ListError) -> NoReturn:
        if error.code == "patch-merge-key":
            self.missing_key(error.item)
            raise _Failed
        message = error.message or "its items cannot be compared (kubectl cannot apply this patch)"
        self.merger.fail(self.item_path(error.item) if error.item is not None else self.path, error.code,
                         f"{_name(self.path)}: {message}")

