"""The order of a merged list, and the value comparisons of a strategic merge patch.

A port of apimachinery v0.35.1 ``pkg/util/strategicpatch/patch.go``: ``normalizeElementOrder``,
``normalizeSliceOrder``, ``mergeSortedSlice``, ``index``, ``partition*ByPresentInList``,
``deduplicateScalars``, ``deleteFromSlice``, ``sliceElementType``; and of Go's
``sort.SliceStable`` (insertion sort by blocks of 20, then SymMerge), which ``normalizeSliceOrder``
calls with a comparison that is not a strict order when an item is missing from the order list,
so that any other stable sort could order such lists differently.

Values compare as Go compares ``interface{}`` values decoded from JSON: of the same type and
equal (``1`` is not ``1.0``, ``true`` is not ``1``).
"""

from __future__ import annotations

from typing import Any, Callable

_UNSET = object()


class ListError(Exception):
    """A list the patch cannot order or merge: (code, message, the item at fault or None)."""

    def __init__(self, code: str, message: str, item: Any = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.item = item


def same(a: Any, b: Any) -> bool:
    """Go's ``a == b`` on two values decoded from JSON."""
    return type(a) is type(b) and a == b


def hash_key(value: Any) -> tuple[type, Any]:
    """A key under which Go's ``map[interface{}]`` holds ``value`` (ValueError: Go panics)."""
    if isinstance(value, (dict, list)):
        raise ValueError("unhashable")
    return type(value), value


def element_kind(*lists: list[Any]) -> type:
    """The type every item of ``lists`` has (sliceElementType); a null before the first typed
    item is skipped, as Go's nil type is."""
    found: Any = _UNSET
    for items in lists:
        for value in items:
            if found is _UNSET:
                if value is None:
                    continue
                found = type(value)
                if found is list:
                    raise ListError("patch-type", "a list of lists cannot be merged (kubectl: lists of lists "
                                                  "are not supported)")
            elif type(value) is not found:
                raise ListError("patch-type", "its items are not all of one type (in the pod template and the "
                                              "patch together), so they cannot be merged")
    if found is _UNSET:
        raise ListError("patch-type", "no elements in any of the given slices")
    return found


def key_value(item: Any, merge_key: str, kind: type) -> Any:
    """What ``index`` compares: an item's merge key value for lists of maps, else the item."""
    if kind is dict:
        return item.get(merge_key) if type(item) is dict else None
    return item


def index(items: list[Any], value: Any, merge_key: str, kind: type) -> int:
    wanted = key_value(value, merge_key, kind)
    return next((i for i, item in enumerate(items) if same(wanted, key_value(item, merge_key, kind))), -1)


def find_map(items: list[Any], key: str, value: Any) -> int:
    """The index of the first map of ``items`` whose ``key`` is ``value``, or -1
    (findMapInSliceBasedOnKeyValue)."""
    for i, item in enumerate(items):
        if type(item) is not dict:
            raise ListError("patch-type", "its items are not all mappings", item)
        if key in item and same(item[key], value):
            return i
    return -1


def check_merge_keys(merge_key: str, *lists: list[Any]) -> None:
    """validateMergeKeyInLists: every item is a map with the merge key."""
    for items in lists:
        for item in items:
            if type(item) is not dict:
                raise ListError("patch-type", "its items are not all mappings", item)
            if merge_key not in item:
                raise ListError("patch-merge-key", "", item)


def split_deletions(items: list[Any]) -> tuple[list[Any], list[Any]]:
    """(the items, the ``$patch: delete`` items) (extractToDeleteItems)."""
    keep, delete = [], []
    for item in items:
        if type(item) is not dict:
            raise ListError("patch-type", "its items are not all mappings", item)
        (delete if same(item.get("$patch"), "delete") else keep).append(item)
    return keep, delete


def partition_primitives(items: list[Any], by: list[Any]) -> tuple[list[Any], list[Any]]:
    """(the items present in ``by``, the others)."""
    try:
        present = {hash_key(v) for v in by}
        inside = [hash_key(v) in present for v in items]
    except ValueError:
        raise ListError("patch-type", "") from None
    return [v for v, i in zip(items, inside) if i], [v for v, i in zip(items, inside) if not i]


def partition_maps(items: list[Any], by: list[Any], merge_key: str) -> tuple[list[Any], list[Any]]:
    """(the items whose merge key value is in ``by``, the others)."""
    present, absent = [], []
    for item in items:
        if type(item) is not dict:
            raise ListError("patch-type", "its items are not all mappings", item)
        if merge_key not in item:
            raise ListError("patch-merge-key", "", item)
        (present if find_map(by, merge_key, item[merge_key]) >= 0 else absent).append(item)
    return present, absent


def deduplicate_scalars(items: list[Any]) -> list[Any]:
    """deduplicateScalars, its order included: a duplicate is replaced by the last item."""
    s = list(items)
    length = len(s) - 1
    i = 0
    while i < length:
        j = i + 1
        while j <= length:
            if same(s[i], s[j]):
                s[j] = s[length]
                s = s[:length]
                length -= 1
                j -= 1
            j += 1
        i += 1
    return s


def delete_from(items: list[Any], to_delete: list[Any]) -> list[Any]:
    """deleteFromSlice: ``items`` without any value of ``to_delete``."""
    try:
        gone = {hash_key(v) for v in to_delete}
        return [v for v in items if hash_key(v) not in gone]
    except ValueError:
        raise ListError("patch-type", "") from None


def normalize_element_order(patch: list[Any], server_only: list[Any], patch_order: list[Any],
                            server_order: list[Any], merge_key: str, kind: type) -> list[Any]:
    """The patch's items in ``patch_order`` and the template's other items in ``server_order``,
    interleaved as the template had them."""
    patch = normalize_slice_order(patch, patch_order, merge_key, kind)
    server_only = normalize_slice_order(server_only, server_order, merge_key, kind)
    return merge_sorted(server_only, patch, server_order, merge_key, kind)


def normalize_slice_order(items: list[Any], order: list[Any], merge_key: str, kind: type) -> list[Any]:
    to_delete: list[Any] = []
    if kind is dict:
        check_merge_keys(merge_key, items, order)
        items, to_delete = split_deletions(items)
    items = list(items)

    def less(i: int, j: int) -> bool:
        ii = index(order, items[i], merge_key, kind)
        if ii >= 0:
            ij = index(order, items[j], merge_key, kind)
            if ij >= 0:
                return ii < ij
        return True

    stable_sort(items, less)
    return items + to_delete


def merge_sorted(left: list[Any], right: list[Any], server_order: list[Any], merge_key: str, kind: type) -> list[Any]:
    """mergeSortedSlice: each item of ``left`` (the template's own) goes before the first item of
    ``right`` (the patch's) that the template had after it; the patch's new items come first."""
    def less(a: Any, b: Any) -> bool:
        ia, ib = index(server_order, a, merge_key, kind), index(server_order, b, merge_key, kind)
        return ia >= 0 and ib >= 0 and ia < ib

    out, i, j = [], 0, 0
    while i < len(left) or j < len(right):
        if i >= len(left) or (j < len(right) and not less(left[i], right[j])):
            out.append(right[j])
            j += 1
        else:
            out.append(left[i])
            i += 1
    return out


# ---------------------------------------------------------------- Go's sort.SliceStable


def stable_sort(data: list[Any], less: Callable[[int, int], bool]) -> None:
    """Go's ``sort.SliceStable(data, less)``, step for step (``less`` reads ``data`` by index)."""
    n = len(data)
    block = 20
    a, b = 0, block
    while b <= n:
        _insertion_sort(data, less, a, b)
        a, b = b, b + block
    _insertion_sort(data, less, a, n)
    while block < n:
        a, b = 0, 2 * block
        while b <= n:
            _sym_merge(data, less, a, a + block, b)
            a, b = b, b + 2 * block
        if a + block < n:
            _sym_merge(data, less, a, a + block, n)
        block *= 2


def _insertion_sort(data: list[Any], less: Callable[[int, int], bool], a: int, b: int) -> None:
    for i in range(a + 1, b):
        j = i
        while j > a and less(j, j - 1):
            data[j], data[j - 1] = data[j - 1], data[j]
            j -= 1


def _sym_merge(data: list[Any], less: Callable[[int, int], bool], a: int, m: int, b: int) -> None:
    if m - a == 1:
        i, j = m, b
        while i < j:
            h = (i + j) // 2
            if less(h, a):
                i = h + 1
            else:
                j = h
        for k in range(a, i - 1):
            data[k], data[k + 1] = data[k + 1], data[k]
        return
    if b - m == 1:
        i, j = a, m
        while i < j:
            h = (i + j) // 2
            if not less(m, h):
                i = h + 1
            else:
                j = h
        for k in range(m, i, -1):
            data[k], data[k - 1] = data[k - 1], data[k]
        return
    mid = (a + b) // 2
    n = mid + m
    if m > mid:
        start, r = n - b, mid
    else:
        start, r = a, m
    p = n - 1
    while start < r:
        c = (start + r) // 2
        if not less(p - c, c):
            start = c + 1
        else:
            r = c
    end = n - start
    if start < m < end:
        _rotate(data, start, m, end)
    if a < start < mid:
        _sym_merge(data, less, a, start, mid)
    if mid < end < b:
        _sym_merge(data, less, mid, end, b)


def _rotate(data: list[Any], a: int, m: int, b: int) -> None:
    i, j = m - a, b - m
    while i != j:
        if i > j:
            _swap_range(data, m - i, m, j)
            i -= j
        else:
            _swap_range(data, m - i, m + j - i, i)
            j -= i
    _swap_range(data, m - i, m, i)


def _swap_range(data: list[Any], a: int, b: int, n: int) -> None:
    for i in range(n):
        data[a + i], data[b + i] = data[b + i], data[a + i]
