"""The schema conversion of scripts/fetch_schemas.py: OpenAPI v3 and CRD structural schemas
become strict JSON Schemas (the rules are listed in fetch_schemas.py's docstring).

Kept apart from the pipeline (downloads, package data, the lock) so that
scripts/kubernetes_data.py converts Kubernetes' definitions with the same rules.
"""

from __future__ import annotations

import copy
import hashlib
import json
from typing import Any

JSON_SCHEMA_DIALECT = "http://json-schema.org/draft-07/schema#"

# Draft-07 keywords copied through (their sub-schemas are converted).
_PLAIN_KEYWORDS = {
    "type", "enum", "const", "format", "default", "title", "readOnly", "writeOnly",
    "pattern", "minLength", "maxLength", "minimum", "maximum", "multipleOf",
    "minItems", "maxItems", "uniqueItems", "minProperties", "maxProperties", "required",
}
_SCHEMA_KEYWORDS = {"additionalProperties", "items", "not", "propertyNames", "contains"}
_SCHEMA_LIST_KEYWORDS = {"allOf", "anyOf", "oneOf"}
_SCHEMA_MAP_KEYWORDS = {"properties", "patternProperties"}
# OpenAPI-only keywords handled by the converter or dropped on purpose.
_HANDLED_KEYWORDS = {"nullable", "exclusiveMinimum", "exclusiveMaximum", "$ref"}
_DROPPED_KEYWORDS = {"description", "example", "externalDocs"}


class SchemaError(Exception):
    """Upstream content is not what the pins say, or cannot be converted."""




def dump_json(obj: Any) -> bytes:
    return (json.dumps(obj, indent=2, sort_keys=True, ensure_ascii=True) + "\n").encode("ascii")


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()



class Converter:
    """OpenAPI v3 / CRD structural schema -> strict standalone draft-07 JSON Schema."""

    def __init__(self, components: dict[str, Any] | None = None, where: str = "", *,
                 defs: str | None = None, descriptions: bool = False):
        """``defs``: keep every reference to a component as ``$ref: <defs><name>`` (for example
        ``#/$defs/``) rather than inline it; the names are collected in :attr:`referenced`.
        ``descriptions``: keep ``description`` (schemas for editors) rather than drop it."""
        self.components = components or {}
        self.where = where
        self.defs = defs
        self.descriptions = descriptions
        self.referenced: set[str] = set()
        self.definitions: dict[str, Any] = {}  # recursive components, by name (see `_recursive`)

    def _deref(self, ref: str, stack: tuple[str, ...]) -> tuple[dict[str, Any], str]:
        prefix = "#/components/schemas/"
        if not ref.startswith(prefix):
            raise SchemaError(f"{self.where}: unsupported $ref {ref}")
        name = ref[len(prefix):]
        if name not in self.components:
            raise SchemaError(f"{self.where}: dangling $ref {ref}")
        return self.components[name], name

    def _recursive(self, name: str, siblings: dict[str, Any], stack: tuple[str, ...]) -> dict[str, Any]:
        """A component that holds itself (Kubernetes 1.37's CompositePodGroupTemplate): the one
        place a schema keeps a reference, ``{"$ref": "#/definitions/<component>"}``, whose
        definition is converted once, beside the root (``finish_root`` writes them)."""
        if any(k not in _DROPPED_KEYWORDS for k in siblings):
            raise SchemaError(f"{self.where}: recursive $ref {' -> '.join(stack + (name,))} with keywords beside it")
        if name not in self.definitions:
            self.definitions[name] = None  # being converted: a reference inside it is to itself
            self.definitions[name] = self.convert(self.components[name], f"#/definitions/{name}", (name,))
        return {"$ref": f"#/definitions/{name}"}

    def _inline_refs(self, node: dict[str, Any], stack: tuple[str, ...]) -> tuple[dict[str, Any], tuple[str, ...]]:
        """Replace `$ref` and the `allOf: [{$ref}]` wrapper by the referenced schema.

        Keywords next to the reference (`default`, annotations) override the
        referenced schema's own. A reference to a component already being inlined
        (recursion) stays a reference (``_recursive``).
        """
        while True:
            reference = _reference(node)
            if reference is None:
                return node, stack
            ref, siblings = reference
            target, name = self._deref(ref, stack)
            if name in stack:
                return self._recursive(name, siblings, stack), stack
            node = {**target, **siblings}
            stack = stack + (name,)

    def convert(self, node: Any, path: str = "", stack: tuple[str, ...] = ()) -> Any:
        if isinstance(node, bool):
            return node
        if not isinstance(node, dict):
            raise SchemaError(f"{self.where}: schema at {path or '/'} is not an object")
        if self.defs is not None and _reference(node) is not None:
            return self._keep_reference(node, path, stack)
        node, stack = self._inline_refs(node, stack)
        if set(node) == {"$ref"}:  # a recursive component, converted as a definition
            return node
        out: dict[str, Any] = {}
        for key, value in node.items():
            if key == "description" and self.descriptions:
                out[key] = value
                continue
            if key in _DROPPED_KEYWORDS or key in _HANDLED_KEYWORDS:
                continue
            if key.startswith("x-kubernetes-") or key.startswith("x-"):
                out[key] = copy.deepcopy(value)
            elif key in _PLAIN_KEYWORDS:
                out[key] = copy.deepcopy(value)
            elif key in _SCHEMA_MAP_KEYWORDS:
                out[key] = {name: self.convert(sub, f"{path}/{key}/{name}", stack) for name, sub in value.items()}
            elif key in _SCHEMA_LIST_KEYWORDS:
                out[key] = [self.convert(sub, f"{path}/{key}/{i}", stack) for i, sub in enumerate(value)]
            elif key in _SCHEMA_KEYWORDS:
                if key == "items" and isinstance(value, list):
                    out[key] = [self.convert(sub, f"{path}/items/{i}", stack) for i, sub in enumerate(value)]
                else:
                    out[key] = self.convert(value, f"{path}/{key}", stack)
            else:
                raise SchemaError(f"{self.where}: unknown keyword {key!r} at {path or '/'}")

        # OpenAPI 3.0 / Draft 4 boolean exclusive bounds -> draft-07 numbers.
        for excl, bound in (("exclusiveMinimum", "minimum"), ("exclusiveMaximum", "maximum")):
            if excl in node:
                if isinstance(node[excl], bool):
                    if node[excl] and bound in out:
                        out[excl] = out.pop(bound)
                else:
                    out[excl] = node[excl]

        if node.get("x-kubernetes-int-or-string") is True and not ({"anyOf", "oneOf"} & out.keys()):
            out.pop("type", None)
            out["anyOf"] = [{"type": "integer"}, {"type": "string"}]

        preserve = node.get("x-kubernetes-preserve-unknown-fields") is True
        if node.get("x-kubernetes-embedded-resource") is True and "properties" in out:
            # apiVersion, kind and metadata are implied for embedded resources.
            out["properties"].setdefault("apiVersion", {"type": "string"})
            out["properties"].setdefault("kind", {"type": "string"})
            out["properties"].setdefault("metadata", {"type": "object"})
        if "properties" in out and "additionalProperties" not in out and not preserve:
            out["additionalProperties"] = False

        if node.get("nullable") is True:
            out = _allow_null(out)
        return out

    def _keep_reference(self, node: dict[str, Any], path: str, stack: tuple[str, ...]) -> dict[str, Any]:
        """``{$ref: <defs><name>}`` and the keywords beside the reference (``default``,
        ``description``), converted; draft 2019-09 and later apply a ``$ref`` beside them."""
        ref, siblings = _reference(node)
        _, name = self._deref(ref, ())
        self.referenced.add(name)
        out = self.convert(siblings, path, stack) if siblings else {}
        out = {**out, "$ref": self.defs + name}
        return {"anyOf": [{"type": "null"}, out]} if siblings.get("nullable") is True else out


def _reference(node: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
    """(the ``$ref``, the keywords beside it) of a reference: ``$ref`` itself, or the
    ``allOf: [{$ref}]`` wrapper Kubernetes writes to give a reference a description or default."""
    if "$ref" in node:
        return node["$ref"], {k: v for k, v in node.items() if k != "$ref"}
    wrapper = node.get("allOf")
    if isinstance(wrapper, list) and len(wrapper) == 1 and isinstance(wrapper[0], dict) and set(wrapper[0]) == {"$ref"}:
        return wrapper[0]["$ref"], {k: v for k, v in node.items() if k != "allOf"}
    return None


def _allow_null(schema: dict[str, Any]) -> dict[str, Any]:
    if {"anyOf", "oneOf", "allOf", "not"} & schema.keys():
        return {"anyOf": [{"type": "null"}, schema]}
    schema = dict(schema)
    if isinstance(schema.get("type"), str):
        schema["type"] = [schema["type"], "null"]
    elif isinstance(schema.get("type"), list) and "null" not in schema["type"]:
        schema["type"] = [*schema["type"], "null"]
    if "enum" in schema and None not in schema["enum"]:
        schema["enum"] = [*schema["enum"], None]
    return schema


def finish_root(schema: dict[str, Any], api_version: str, kind: str, origin: str,
                metadata: dict[str, Any] | None, definitions: dict[str, Any] | None = None) -> dict[str, Any]:
    if schema.get("type") != "object" or not isinstance(schema.get("properties"), dict):
        raise SchemaError(f"{origin}: the {kind} schema is not an object with properties")
    props = schema["properties"]
    props["apiVersion"] = {"enum": [api_version], "type": "string"}
    props["kind"] = {"enum": [kind], "type": "string"}
    if metadata is not None:
        props["metadata"] = copy.deepcopy(metadata)
    required = list(schema.get("required", []))
    required += [r for r in ("apiVersion", "kind") if r not in required]
    schema["required"] = required
    schema["additionalProperties"] = False
    if definitions:
        schema["definitions"] = definitions
    schema["$schema"] = JSON_SCHEMA_DIALECT
    schema["$comment"] = f"Generated by scripts/fetch_schemas.py from {origin}. Do not edit."
    schema["title"] = f"{kind} {api_version}"
    return schema


def _check_keys(obj: Any, where: str) -> None:
    """YAML 1.1 can turn unquoted keys like `on` into booleans; refuse such input."""
    if isinstance(obj, dict):
        for k, v in obj.items():
            if not isinstance(k, str):
                raise SchemaError(f"{where}: non-string key {k!r}")
            _check_keys(v, where)
    elif isinstance(obj, list):
        for v in obj:
            _check_keys(v, where)

