"""What JSON Schema does not say: the formats the API server's decoder checks.

The Kubernetes schemas carry formats that JSON Schema validators do not check (mpigen's run with
formats off), but that the API server's decoder does: a number beyond an int32 or int64 field, a
Quantity that does not parse, base64 that does not decode. kubectl gets "cannot unmarshal number
3000000000 into Go struct field ... of type int32", "quantities must match the regular expression
...", "illegal base64 data at input byte 3". A custom resource is stored as JSON, so the API server
takes an int32 field's 3000000000, but the operator (Go types too) cannot decode the object, nor
list any other of its kind.

Which branches of a schema lead to such a format is found once per schema (:func:`format_tree`);
:func:`format_problems` walks an object along them (from :func:`~.schema.schema_problems`).
"""

from __future__ import annotations

import functools
from typing import Any, Iterator

from .schema import SPEC_SCHEMA, load_schema, local_ref, quantity_message

_INT_RANGES = {"int32": (-(2 ** 31), 2 ** 31 - 1), "int64": (-(2 ** 63), 2 ** 63 - 1)}
# A node of the tree: (format or None, {declared key: node or None}, additionalProperties node, items node)
FormatNode = tuple


@functools.lru_cache(maxsize=None)
def format_tree(name: str) -> FormatNode | None:
    """The branches of a Kubernetes schema that lead to a format the decoder checks (None: none).

    Formats: ``int32``/``int64`` integers, ``byte`` (base64) strings, and Quantity, which the
    Kubernetes OpenAPI writes as ``oneOf: [string, number]`` (a CRD writes a pattern instead,
    which the schema checks). mpigen's own spec schema has its own checks (``spec_rules``).
    """
    if name == SPEC_SCHEMA:
        return None
    root = load_schema(name)
    return _format_node(root, root, {})


def _format_node(schema: Any, root: dict[str, Any], refs: dict[str, Any]) -> FormatNode | None:
    """``refs``: the node of each local ``$ref`` met on the way (a definition that holds itself,
    as Kubernetes 1.37's CompositePodGroupTemplate, is one node that refers to itself)."""
    if not isinstance(schema, dict):
        return None
    target = local_ref(schema, root)
    if target is not None:
        ref = schema["$ref"]
        if ref not in refs:
            refs[ref] = node = [None, {}, None, None]  # filled in below: a reference inside it is to itself
            node[:] = _format_node(target, root, refs) or node
        return refs[ref]
    fmt = schema.get("format")
    if not (fmt in _INT_RANGES and schema.get("type") == "integer") and fmt != "byte":
        fmt = None
    alternatives = schema.get("oneOf") or schema.get("anyOf")
    if isinstance(alternatives, list) and "pattern" not in schema and \
            sorted(str(a.get("type")) for a in alternatives if isinstance(a, dict)) == ["number", "string"]:
        fmt = "quantity"
    props = {key: _format_node(sub, root, refs) for key, sub in (schema.get("properties") or {}).items()}
    extra = _format_node(schema.get("additionalProperties"), root, refs)
    items = _format_node(schema.get("items"), root, refs)
    if fmt is None and extra is None and items is None and not any(props.values()):
        return None
    return fmt, props, extra, items


def format_problems(instance: Any, node: FormatNode, path: tuple = ()) -> Iterator[tuple[tuple, str, str]]:
    """(path, code, message) for each value the API server's decoder would refuse."""
    fmt, props, extra, items = node
    if fmt is not None:
        problem = _format_problem(fmt, instance)
        if problem:
            yield path, ("quantity" if fmt == "quantity" else "schema"), problem
    if isinstance(instance, dict) and (props or extra is not None):
        for key, value in instance.items():
            sub = props[key] if key in props else extra
            if sub is not None:
                yield from format_problems(value, sub, path + (key,))
    elif isinstance(instance, list) and items is not None:
        for i, value in enumerate(instance):
            yield from format_problems(value, items, path + (i,))


def _format_problem(fmt: str, value: Any) -> str | None:
    if fmt in _INT_RANGES:
        low, high = _INT_RANGES[fmt]
        if isinstance(value, int) and not isinstance(value, bool) and not low <= value <= high:
            return (f"{value} does not fit the field's type, {fmt} ({low} to {high}): Kubernetes cannot decode "
                    "the object")
        return None
    if fmt == "byte":
        if not isinstance(value, str):
            return None
        import base64
        import binascii

        try:  # Go's base64.StdEncoding skips line breaks, and nothing else
            base64.b64decode(value.replace("\r", "").replace("\n", ""), validate=True)
        except (binascii.Error, ValueError):
            return ("is not base64 (the API server refuses it as illegal base64 data); encode the value with "
                    "`base64 -w0`, or give a Secret's values as plain text under stringData")
        return None
    if isinstance(value, str):  # quantity; a number is always one
        from ..operator.quantity import Quantity, QuantityError

        try:
            Quantity.parse(value)
        except QuantityError:
            return quantity_message(value)  # the same message as for a spec's quantity
    return None
