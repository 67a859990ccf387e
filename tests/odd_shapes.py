"""Helpers of the tests that replace every node of an object by values of other types (the rules and
ports must yield what they can and never raise)."""

from __future__ import annotations

import copy


def subpaths(value, path=()):
    yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from subpaths(item, path + (key,))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from subpaths(item, path + (i,))


def replaced(obj, path, new):
    obj = copy.deepcopy(obj)
    node = obj
    for part in path[:-1]:
        node = node[part]
    node[path[-1]] = new
    return obj
