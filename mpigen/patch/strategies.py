"""The strategic-merge-patch metadata of the Kubernetes types, and the lookups the merge makes.

``mpigen/data/kubernetes/<version>/patch_strategies.json`` is written by ``make schemas`` from
the pinned Kubernetes OpenAPI document (scripts/kubernetes_data.py), never by hand: for every
object type reachable from a pod template, each field's shape (``object`` of a type, ``list`` of
items, ``map`` of values, ``primitive``) and its ``patchStrategy`` and ``patchMergeKey``
(``x-kubernetes-patch-strategy``, ``x-kubernetes-patch-merge-key``). kubectl reads the same
metadata from the Go types' struct tags, from which that document is generated.

:func:`field` and :func:`list_field` answer what apimachinery's ``PatchMetaFromStruct`` answers
(``LookupPatchMetadataForStruct`` and ``LookupPatchMetadataForSlice``), with the same failures.
"""

from __future__ import annotations

import functools
from typing import Any, Mapping

KUBERNETES_VERSION = "v1.35.1"
POD_TEMPLATE_SPEC = "io.k8s.api.core.v1.PodTemplateSpec"

Shape = Mapping[str, Any]
"""``{"shape": "object", "type": name}``, ``{"shape": "list", "items": shape}``, ``{"shape": "map",
"values": shape}`` or ``{"shape": "primitive", "type": t}``; a field's shape may also carry
``patchStrategy`` (as the OpenAPI document writes it: ``merge``, ``merge,retainKeys``...) and
``patchMergeKey``."""

Types = Mapping[str, Any]
"""Object type name -> ``{"fields": {name: shape}}``."""


@functools.lru_cache(maxsize=None)
def kubernetes_types(version: str = KUBERNETES_VERSION) -> Types:
    """The generated metadata of a Kubernetes release, read once."""
    import json
    from importlib import resources

    data = resources.files("mpigen").joinpath("data", "kubernetes", version, "patch_strategies.json")
    try:
        return json.loads(data.read_text(encoding="utf-8"))["types"]
    except FileNotFoundError:
        raise ValueError(f"mpigen ships no patch strategies of Kubernetes {version}") from None


def object_shape(type_name: str) -> Shape:
    return {"shape": "object", "type": type_name}


class ShapeError(Exception):
    """A lookup the patch needs and the type does not answer: (code, message, what the message is
    about: ``"parent"``, the object looked into, ``"field"``, the field, or None: it says)."""

    def __init__(self, code: str, message: str, subject: str | None = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.subject = subject


def short_name(shape: Shape) -> str:
    """``Container`` for ``io.k8s.api.core.v1.Container``."""
    return shape["type"].rsplit(".", 1)[-1]


def type_words(shape: Shape) -> str:
    """What a shape holds, for messages: ``a Container``, ``a list``, ``a string``."""
    kind = shape["shape"]
    if kind == "object":
        name = short_name(shape)
        return f"an {name}" if name[:1] in "AEIOU" else f"a {name}"
    if kind == "list":
        return "a list"
    if kind == "map":
        return "a mapping of names to values"
    name = short_name(shape)
    return {"string": "a string", "integer": "an integer", "number": "a number", "boolean": "a boolean",
            "Quantity": "a quantity", "IntOrString": "a number or a name"}.get(name, f"a {name}")


def field(types: Types, shape: Shape, key: str) -> tuple[Shape, tuple[str, ...], str]:
    """(the field's shape, its patch strategies, its merge key) of ``key`` in an object; the JSON
    name matched exactly, else case-insensitively, as Go's JSON decoder matches it."""
    if shape["shape"] == "map":
        raise ShapeError("patch-type", f"holds {type_words(shape['values'])} under each name, so {key!r} cannot be "
                         "merged as a mapping", "parent")
    if shape["shape"] != "object":
        raise ShapeError("patch-type", f"is {type_words(shape)} in Kubernetes, which has no field {key!r}", "parent")
    fields = types[shape["type"]]["fields"]
    found = fields.get(key)
    if found is None:
        found = next((sub for name, sub in fields.items() if name.casefold() == key.casefold()), None)
    if found is None:
        from ..diagnostics import did_you_mean

        close = did_you_mean(key, fields)
        hint = f" (did you mean {close!r}?)" if close else ""
        raise ShapeError("patch-field", f"{key!r} is not a field of {short_name(shape)}{hint}: the "
                         "patch and the pod template both set it, and they cannot be merged without knowing its type")
    return found, tuple(found.get("patchStrategy", "").split(",")), found.get("patchMergeKey", "")


def list_field(types: Types, shape: Shape, key: str) -> tuple[Shape, tuple[str, ...], str]:
    """(the shape of the items, the patch strategies, the merge key) of the list field ``key``."""
    sub, strategies, merge_key = field(types, shape, key)
    if sub["shape"] != "list":
        raise ShapeError("patch-type", f"is {type_words(sub)} in Kubernetes, not a list", "field")
    return sub["items"], strategies, merge_key


def split_strategies(strategies: tuple[str, ...]) -> tuple[bool, str]:
    """(retainKeys is one of them, the other one): apimachinery's extractRetainKeysPatchStrategy."""
    if len(strategies) == 1:
        return (True, "") if strategies[0] == "retainKeys" else (False, strategies[0])
    if len(strategies) == 2 and "retainKeys" in strategies:
        return True, strategies[1] if strategies[0] == "retainKeys" else strategies[0]
    if not strategies:
        return False, ""
    raise ShapeError("patch-type", f"unexpected patch strategy {','.join(strategies)!r}")
