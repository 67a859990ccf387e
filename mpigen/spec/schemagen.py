"""Compile a JSON Schema into plain Python: a yes/no validity check with no library to import.

``mpigen build`` checks one spec against ``trainingjob_v1alpha1.json``. Importing a schema
library (jsonschema-rs pulls in the e-mail and socket modules) costs more than the whole compile,
so the verdict "valid" comes from a function generated from the schema ahead of time:
``mpigen/spec/_spec_valid.py``, regenerated with ``python -m mpigen.spec.schemagen`` (a test
fails while it is stale; until then the library decides, so a stale file costs time, never a
wrong answer). Only "valid" is taken from it: a spec it rejects goes through jsonschema-rs,
whose errors explain every problem.

The generated check follows python-jsonschema's semantics (draft 2020-12, formats not checked):
``integer`` accepts 1.0, booleans are not numbers, ``pattern`` is ``re.search``, ``enum`` and
``const`` compare as JSON does (``true`` is not ``1``), ``oneOf`` holds when exactly one branch
does. Kubernetes' extensions (``x-kubernetes-list-type``, ``x-kubernetes-patch-strategy``...,
which the Kubernetes definitions of the spec schema carry) are annotations to JSON Schema, as
python-jsonschema treats them; ``x-kubernetes-validations`` (CEL rules) is refused rather than
silently dropped. A schema using a keyword this compiler does not know is refused
(:class:`Unsupported`) rather than approximated.
"""

from __future__ import annotations

import json
import sys
import zlib
from pathlib import Path
from typing import Any

ANNOTATIONS = {"$schema", "$id", "$comment", "title", "description", "default", "examples", "deprecated",
               "readOnly", "writeOnly", "format", "$defs", "definitions"}
KEYWORDS = {"type", "enum", "const", "required", "properties", "additionalProperties", "propertyNames",
            "items", "minItems", "maxItems", "minLength", "maxLength", "minimum", "maximum",
            "exclusiveMinimum", "exclusiveMaximum", "pattern", "anyOf", "allOf", "oneOf", "$ref",
            "unevaluatedProperties"}
_EXTENSION = "x-kubernetes-"
_RULES = "x-kubernetes-validations"
_TYPE_TESTS = {
    "object": "type({v}) is dict",
    "array": "type({v}) is list",
    "string": "type({v}) is str",
    "boolean": "type({v}) is bool",
    "null": "{v} is None",
    "number": "(type({v}) is int or type({v}) is float)",
    "integer": "(type({v}) is int or (type({v}) is float and {v}.is_integer()))",
}
_NUMBER = "(type({v}) is int or type({v}) is float)"


def _annotation(keyword: str) -> bool:
    """Whether ``keyword`` says nothing about validity (to python-jsonschema either)."""
    return keyword in ANNOTATIONS or (keyword.startswith(_EXTENSION) and keyword != _RULES)


class Unsupported(Exception):
    """The schema uses something the compiler does not translate."""


def fingerprint(text: bytes) -> tuple[int, int]:
    """What identifies a schema file's content: its length and CRC-32."""
    return len(text), zlib.crc32(text)


class _Compiler:
    def __init__(self, root: dict[str, Any]):
        self.root = root
        self.functions: dict[str, str] = {}  # ref -> function name
        self.bodies: list[str] = []
        self.constants: dict[str, str] = {}  # source -> name
        self.same_body: dict[str, str] = {}  # function body -> the name it was written under
        self.counter = 0

    def name(self, prefix: str) -> str:
        self.counter += 1
        return f"_{prefix}{self.counter}"

    def constant(self, source: str, prefix: str = "C") -> str:
        if source not in self.constants:
            self.constants[source] = self.name(prefix)
        return self.constants[source]

    def resolve(self, ref: str) -> dict[str, Any]:
        if not ref.startswith("#"):
            raise Unsupported(f"remote $ref {ref!r}")
        target: Any = self.root
        for part in ref[1:].split("/")[1:] if ref != "#" else []:
            part = part.replace("~1", "/").replace("~0", "~")
            target = target[part]
        if not isinstance(target, (dict, bool)):
            raise Unsupported(f"$ref {ref!r} is not a schema")
        return target

    def ref_function(self, ref: str) -> str:
        if ref not in self.functions:
            name = self.functions[ref] = self.name("ref")  # named first: a $ref may recur into itself
            self.bodies.append(f"def {name}(v):\n{self.body(self.resolve(ref))}")
        return self.functions[ref]

    def function(self, prefix: str, schema: Any) -> str:
        """The name of a function checking ``schema``: one already written with the same body
        (schemas repeat the same small pieces, e.g. quantities, many times), or a new one; for a
        schema that is only a ``$ref``, the referenced schema's own function."""
        if isinstance(schema, dict) and "$ref" in schema and all(_annotation(k) for k in schema if k != "$ref"):
            return self.ref_function(schema["$ref"])
        body = self.body(schema)
        if body not in self.same_body:
            name = self.same_body[body] = self.name(prefix)
            self.bodies.append(f"def {name}(v):\n{body}")
        return self.same_body[body]

    def body(self, schema: Any) -> str:
        lines: list[str] = []
        self.emit(schema, "v", lines, "    ")
        return "\n".join(lines + ["    return True"]) + "\n"

    def evaluated(self, schema: dict[str, Any]) -> set[str]:
        """Property names that ``properties`` of this schema and its in-place $ref/allOf chain evaluate."""
        dynamic = ("patternProperties", "anyOf", "oneOf", "if", "not", "dependentSchemas")
        if any(k in schema and not _only_required(schema[k]) for k in dynamic) \
                or schema.get("additionalProperties", False) is not False:
            raise Unsupported("unevaluatedProperties beside a dynamic applicator")
        names = set(schema.get("properties", {}))
        if "$ref" in schema:
            target = self.resolve(schema["$ref"])
            if isinstance(target, dict):
                names |= self.evaluated(target)
        for sub in schema.get("allOf", []):
            names |= self.evaluated(sub)
        return names

    def emit(self, schema: Any, v: str, out: list[str], ind: str) -> None:
        """Statements that ``return False`` when ``v`` fails ``schema``."""
        if schema is True or schema == {}:
            return
        if schema is False:
            out.append(f"{ind}return False")
            return
        if not isinstance(schema, dict):
            raise Unsupported(f"schema {schema!r}")
        unknown = {k for k in schema if k not in KEYWORDS and not _annotation(k)}
        if unknown:
            raise Unsupported(f"keywords {sorted(unknown)}")
        if "$ref" in schema:
            out.append(f"{ind}if not {self.ref_function(schema['$ref'])}({v}):\n{ind}    return False")
        if "type" in schema:
            types = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
            if any(t not in _TYPE_TESTS for t in types):
                raise Unsupported(f"type {types!r}")
            test = " or ".join(_TYPE_TESTS[t].format(v=v) for t in types)
            out.append(f"{ind}if not ({test}):\n{ind}    return False")
        for keyword in ("enum", "const"):
            if keyword in schema:
                values = schema["enum"] if keyword == "enum" else [schema["const"]]
                if not isinstance(values, list):
                    raise Unsupported("enum is not a list")
                if values and all(isinstance(x, str) for x in values):
                    allowed = self.constant(f"frozenset({sorted(values)!r})")
                    out.append(f"{ind}if not (type({v}) is str and {v} in {allowed}):\n{ind}    return False")
                else:
                    allowed = self.constant(repr(values))
                    out.append(f"{ind}if not any(_equal({v}, x) for x in {allowed}):\n{ind}    return False")
        self.emit_number(schema, v, out, ind)
        self.emit_string(schema, v, out, ind)
        self.emit_array(schema, v, out, ind)
        self.emit_object(schema, v, out, ind)
        for sub in schema.get("allOf", []):
            self.emit(sub, v, out, ind)
        if "anyOf" in schema:
            names = [self.function("any", sub) for sub in schema["anyOf"]]
            out.append(f"{ind}if not ({' or '.join(f'{n}({v})' for n in names)}):\n{ind}    return False")
        if "oneOf" in schema:
            names = [self.function("one", sub) for sub in schema["oneOf"]]
            out.append(f"{ind}if [{', '.join(f'{n}({v})' for n in names)}].count(True) != 1:\n{ind}    return False")

    def emit_number(self, schema: dict[str, Any], v: str, out: list[str], ind: str) -> None:
        checks = [(k, op) for k, op in (("minimum", "<"), ("maximum", ">"), ("exclusiveMinimum", "<="),
                                        ("exclusiveMaximum", ">=")) if k in schema]
        if not checks:
            return
        out.append(f"{ind}if {_NUMBER.format(v=v)}:")
        for keyword, op in checks:
            bound = schema[keyword]
            if isinstance(bound, bool) or not isinstance(bound, (int, float)):
                raise Unsupported(f"{keyword} {bound!r}")
            out.append(f"{ind}    if {v} {op} {bound!r}:\n{ind}        return False")

    def emit_string(self, schema: dict[str, Any], v: str, out: list[str], ind: str) -> None:
        checks = _length_checks(schema, v, "minLength", "maxLength")
        if "pattern" in schema:
            regex = self.constant(f"_Pattern({schema['pattern']!r})", "P")
            checks.append(f"{regex}.search({v}) is None")
        if checks:
            out.append(f"{ind}if type({v}) is str and ({' or '.join(checks)}):\n{ind}    return False")

    def emit_array(self, schema: dict[str, Any], v: str, out: list[str], ind: str) -> None:
        checks = _length_checks(schema, v, "minItems", "maxItems")
        if checks:
            out.append(f"{ind}if type({v}) is list and ({' or '.join(checks)}):\n{ind}    return False")
        if "items" in schema:
            if not isinstance(schema["items"], (dict, bool)):
                raise Unsupported("items as a list")
            item = self.function("item", schema["items"])
            out.append(f"{ind}if type({v}) is list and not all(map({item}, {v})):\n{ind}    return False")

    def emit_object(self, schema: dict[str, Any], v: str, out: list[str], ind: str) -> None:
        keys = ("required", "properties", "additionalProperties", "propertyNames", "unevaluatedProperties")
        if not any(k in schema for k in keys):
            return
        out.append(f"{ind}if type({v}) is dict:")
        inner = ind + "    "
        if schema.get("required"):
            required = self.constant(f"frozenset({sorted(schema['required'])!r})")
            out.append(f"{inner}if not {required}.issubset({v}):\n{inner}    return False")
        properties = schema.get("properties", {})
        for key, sub in properties.items():
            if sub is True or sub == {}:
                continue
            check = self.function("prop", sub)
            out.append(f"{inner}if {key!r} in {v} and not {check}({v}[{key!r}]):\n{inner}    return False")
        extra = schema.get("additionalProperties", True)
        known = self.constant(f"frozenset({sorted(properties)!r})") if extra not in (True, {}) else ""
        if extra is False:
            out.append(f"{inner}if not {known}.issuperset({v}):\n{inner}    return False")
        elif extra is not True and extra != {}:
            check = self.function("extra", extra)
            out.append(f"{inner}for k, x in {v}.items():\n{inner}    if k not in {known} and not {check}(x):\n"
                       f"{inner}        return False")
        if "propertyNames" in schema:
            check = self.function("names", schema["propertyNames"])
            out.append(f"{inner}if not all(map({check}, {v})):\n{inner}    return False")
        if "unevaluatedProperties" in schema:
            if schema["unevaluatedProperties"] is not False:
                raise Unsupported("unevaluatedProperties other than false")
            if "additionalProperties" in schema and schema["additionalProperties"] is not False:
                return  # every property is evaluated
            allowed = self.constant(f"frozenset({sorted(self.evaluated(schema))!r})")
            out.append(f"{inner}if not {allowed}.issuperset({v}):\n{inner}    return False")


def _only_required(branches: Any) -> bool:
    """Whether ``branches`` (of an ``anyOf`` or ``oneOf``) only require properties: such branches
    evaluate none, whichever of them holds, so ``unevaluatedProperties`` beside them is static."""
    return isinstance(branches, list) and all(
        isinstance(b, dict) and "required" in b and all(k == "required" or _annotation(k) for k in b) for b in branches)


def _length_checks(schema: dict[str, Any], v: str, least: str, most: str) -> list[str]:
    """The conditions under which ``len(v)`` breaks the schema's ``least``/``most`` keywords."""
    checks = []
    if least in schema:
        checks.append(f"len({v}) < {int(schema[least])}")
    if most in schema:
        checks.append(f"len({v}) > {int(schema[most])}")
    return checks


def generate(schema_text: bytes, schema_name: str) -> str:
    """The Python source of ``is_valid(instance)`` for the schema in ``schema_text``."""
    schema = json.loads(schema_text)
    compiler = _Compiler(schema)
    compiler.bodies.append(f"def is_valid(v):\n{compiler.body(schema)}")
    size, crc = fingerprint(schema_text)
    return "\n".join([
        f'"""Generated from schemas/{schema_name} by mpigen/spec/schemagen.py: do not edit.',
        "",
        "Regenerate with `python -m mpigen.spec.schemagen`; a test fails while this file is stale.",
        '"""',
        "# fmt: off",
        "from mpigen.spec.schema_runtime import Pattern as _Pattern, equal as _equal",
        "",
        f"SCHEMA = {schema_name!r}",
        f"FINGERPRINT = ({size}, {crc})",
        "",
        *(f"{name} = {source}" for source, name in compiler.constants.items()),
        *("\n" + body for body in compiler.bodies),
    ]).rstrip("\n") + "\n"


TARGETS = {"mpigen.dev/trainingjob_v1alpha1.json": "_spec_valid.py"}


def main(argv: list[str]) -> int:
    """Regenerate every target (``--check``: only say whether they are up to date)."""
    from .schema import schemas_folder

    stale = []
    for schema_name, module in TARGETS.items():
        source = generate((schemas_folder() / schema_name).read_bytes(), schema_name)
        path = Path(__file__).with_name(module)
        if path.exists() and path.read_text("utf-8") == source:
            continue
        stale.append(str(path))
        if "--check" not in argv:
            path.write_text(source, "utf-8")
    if stale:
        print(("stale: " if "--check" in argv else "wrote ") + ", ".join(stale))
    return 1 if stale and "--check" in argv else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
