"""JSON Schema validation whose every error becomes a readable Diagnostic at the right line.

jsonschema's own messages are written for schema authors; these are written for the person who
wrote the YAML: "unknown field 'wrokers' (did you mean 'workers'?)", "missing required field
'image'", "expected an integer, got the string '4'".
"""

from __future__ import annotations

import functools
import os
import re
from typing import TYPE_CHECKING, Any, Iterable, Iterator

from ..diagnostics import Diagnostic, Severity, did_you_mean, format_path
from ..load.document import Document

if TYPE_CHECKING:
    from pathlib import Path

SPEC_SCHEMA = "mpigen.dev/trainingjob_v1alpha1.json"
_DEFS = "/$defs/"

_JSON_TYPES = {dict: "a mapping", list: "a list", str: "a string", bool: "a boolean",
               int: "an integer", float: "a number", type(None): "null"}
_TYPE_WORDS = {"object": "a mapping", "array": "a list", "string": "a string", "boolean": "a boolean",
               "integer": "an integer", "number": "a number", "null": "null"}


def schemas_folder() -> Path:
    """Where the shipped schemas are: ``mpigen/_schemas`` in an installed wheel (the repository's
    ``schemas/``, packaged as ``mpigen._schemas``), else ``schemas/`` beside the package (a source
    checkout, or an editable install that only puts the checkout on ``sys.path``).

    Found by path rather than by importing ``mpigen._schemas``: that import works only through
    setuptools' editable finder, whose own imports cost a cold build an eighth of its time.
    """
    from pathlib import Path

    return Path(_schemas_dir())


def _schemas_dir() -> str:
    package = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
    installed = os.path.join(package, "_schemas")
    return installed if os.path.isdir(installed) else os.path.join(os.path.dirname(package), "schemas")


@functools.lru_cache(maxsize=1)
def _available_schemas() -> frozenset[str]:
    root = _schemas_dir()
    names = set()
    for folder in os.listdir(root):
        if os.path.isdir(os.path.join(root, folder)) and not folder.startswith(("_", ".")):
            names.update(f"{folder}/{f}" for f in os.listdir(os.path.join(root, folder)) if f.endswith(".json"))
    return frozenset(names)


def schema_name(api_version: str, kind: str) -> str | None:
    """The shipped schema of an apiVersion and kind, in kubeconform's layout; None if there is none:
    a kind is known in its own group and version only (scheduling.k8s.io's PodGroup is not
    Volcano's)."""
    group, _, version = api_version.rpartition("/")
    name = f"{group or version}/{kind.lower()}_{version}.json"
    return name if name in _available_schemas() else None


@functools.lru_cache(maxsize=None)
def load_schema(name: str) -> dict[str, Any]:
    """A schema shipped with mpigen (the repository's ``schemas/`` folder).

    ``FILE#/$defs/NAME`` names one definition of a file as a schema of its own (the file's
    ``$defs`` beside a ``$ref`` to it), so that every helper here checks a value against it:
    ``mpigen.dev/trainingjob_v1alpha1.json#/$defs/io.k8s.api.core.v1.Container``.
    """
    import json

    file, _, pointer = name.partition("#")
    if pointer:
        whole = load_schema(file)
        definition = pointer.removeprefix(_DEFS)
        if definition == pointer or definition not in whole.get("$defs", {}):
            raise KeyError(f"{file} has no definition {pointer!r}")
        return {"$schema": whole["$schema"], "$defs": whole["$defs"], "$ref": "#" + pointer}
    with open(os.path.join(_schemas_dir(), name), encoding="utf-8") as file:
        return json.loads(file.read())


@functools.lru_cache(maxsize=None)
def precompiled_for(name: str) -> Any:
    """The generated ``is_valid`` of a schema (see :mod:`mpigen.spec.schemagen`), or None.

    None when there is none for this schema or when it was generated from other content than
    the schema file holds now (stale: the libraries decide until it is regenerated).
    """
    if name != SPEC_SCHEMA:
        return None
    import zlib

    try:
        from . import _spec_valid
    except ImportError:  # pragma: no cover - the generated module is part of the package
        return None
    with open(os.path.join(_schemas_dir(), name), "rb") as file:
        text = file.read()
    if _spec_valid.SCHEMA != name or _spec_valid.FINGERPRINT != (len(text), zlib.crc32(text)):
        return None
    return _spec_valid.is_valid


@functools.lru_cache(maxsize=None)
def fast_validator_for(name: str) -> Any:
    """A compiled validator (jsonschema-rs) for the yes/no verdict, or None when not installed.

    It answers "valid?" in microseconds; only an object it rejects goes through python-jsonschema,
    whose errors give mpigen its detailed diagnostics. Formats are not checked by either.
    """
    try:
        import jsonschema_rs
    except ImportError:  # pragma: no cover - it is a dependency; the slow path still works
        return None
    return jsonschema_rs.validator_for(load_schema(name), validate_formats=False)


@functools.lru_cache(maxsize=None)
def validator_for(name: str) -> Any:
    import jsonschema  # heavy: imported only when a schema is checked

    schema = load_schema(name)
    cls = jsonschema.validators.validator_for(schema)
    return cls(schema)


def describe(value: Any) -> str:
    import json  # here and below, not at the top: only a failing check needs it

    kind = _JSON_TYPES.get(type(value), type(value).__name__)
    if isinstance(value, (dict, list)) or value is None:
        return kind
    return f"{kind} {json.dumps(value, ensure_ascii=False)}"


def local_ref(schema: Any, root: dict[str, Any]) -> Any:
    """What a schema's local ``$ref`` (``#/definitions/...``) points to in ``root``; None when it
    has none."""
    ref = schema.get("$ref") if isinstance(schema, dict) else None
    if not (isinstance(ref, str) and ref.startswith("#/")):
        return None
    target: Any = root
    for part in ref[2:].split("/"):
        target = target[part]
    return target


def _referenced(schema: dict[str, Any], root: dict[str, Any]) -> dict[str, Any]:
    """``schema``, or what its chain of local ``$ref`` leads to (for the type of an anyOf branch)."""
    seen = 0
    while (target := local_ref(schema, root)) is not None and isinstance(target, dict) and seen < 32:
        schema, seen = target, seen + 1
    return schema


def _properties(schema: dict[str, Any], root: dict[str, Any]) -> set[str]:
    """Property names a (sub)schema declares, following local $refs and allOf."""
    names = set(schema.get("properties", {}))
    target = local_ref(schema, root)
    if target is not None:
        names |= _properties(target, root)
    for sub in schema.get("allOf", []):
        names |= _properties(sub, root)
    return names


_NUMBER = re.compile(r"[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?")


def _hint(value: Any, expected: Iterable[str], text: str | None = None) -> str:
    import json

    expected = set(expected)
    if "string" in expected and (isinstance(value, (bool, int, float)) or value is None):
        if text is not None and text != json.dumps(value):
            return (f"; YAML 1.1 (Kubernetes' YAML reader) reads the unquoted {text} as {json.dumps(value)}: "
                    f'write "{text}" in quotes')
        return "; YAML read an unquoted value as a non-string: write it in quotes"
    if isinstance(value, str) and expected & {"integer", "number"}:
        if _NUMBER.fullmatch(value.strip()):
            return "; write the number without quotes"
        return ", which is not a number: write it in digits"
    return ""


_CHOICE_HINTS = {
    ("framework", "horovod"): "Horovod runs under framework: mpi (an MPIJob: the launcher starts the training "
                              "program with mpirun, or your command's own horovodrun)",
}
"""(field, value folded) -> what a value that is not a choice means in mpigen's terms."""

_REMOVED_FIELDS = {
    (("mlPolicy", "torch"), "numProcPerNode"):
        "Kubeflow Trainer v2.2.0 removed mlPolicy.torch.numProcPerNode (kubeflow/trainer#3239): the torch plugin "
        "starts one process per GPU of the node container (auto), else one per CPU; give the node container its "
        "GPUs, or set spec.trainer.numProcPerNode in the TrainJob, and remove this field",
}
"""(the two keys above a field, its key) -> what became of a field an older release had, for a
schema's "unknown field" (what to write instead)."""

_DECIMAL_SUFFIXES = ("n", "u", "m", "", "k", "M", "G", "T", "P", "E")
_BINARY_SUFFIXES = ("Ki", "Mi", "Gi", "Ti", "Pi", "Ei")
_QUANTITY_PARTS = re.compile(r"([+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+))(.*)", re.S)
_EXPONENT = re.compile(r"[eE][+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)")


def quantity_message(value: Any, gpu: bool = False) -> str:
    """The message for a value that is not a Kubernetes quantity, for specs and manifests alike:
    what is wrong with it (a suffix it does not know, spaces, no number), and what to write."""
    reason, instead = _quantity_reason(value) if isinstance(value, str) else ("", "")
    if not instead:
        instead = "a whole number of GPUs, e.g. 1 or 8" if gpu else "e.g. 500m, 4, 1.5, 16Gi"
    return f"{describe(value)} is not a Kubernetes quantity{': ' + reason if reason else ''}; write {instead}"


def _quantity_reason(text: str) -> tuple[str, str]:
    """What is wrong with ``text`` as a quantity, and what to write instead when that is clear."""
    if not text:
        return "it is empty", ""
    if any(c.isspace() for c in text):
        return "it has spaces", ""
    match = _QUANTITY_PARTS.fullmatch(text)
    if match is None:
        return "it does not start with a number", ""
    number, suffix = match.groups()
    if suffix[:1].isdigit() or suffix[:1] == ".":
        return "it is not a number", ""
    if suffix in _DECIMAL_SUFFIXES or suffix in _BINARY_SUFFIXES or _EXPONENT.fullmatch(suffix):
        return "", ""
    if suffix in ("e", "e+", "e-", "E+", "E-"):
        return "its exponent has no digits", ""
    unit = suffix[:-1] if suffix[-1:] in ("B", "b") and len(suffix) > 1 else suffix  # GB, GiB: bytes are implied
    unit = "k" + unit[1:] if unit[:1] in ("k", "K") and unit[1:] != "i" else unit[:1].upper() + unit[1:]
    if unit in _BINARY_SUFFIXES or unit in _DECIMAL_SUFFIXES[4:]:
        decimal = unit[:-1] if unit.endswith("i") else unit
        binary = "Ki" if decimal == "k" else decimal + "i"
        return (f"{suffix!r} is not one of its suffixes",
                f"{number}{decimal} (powers of 1000) or {number}{binary} (powers of 1024)")
    return (f"{suffix!r} is not one of its suffixes (n, u, m, k, M, G, T, P, E: powers of 1000; "
            "Ki, Mi, Gi, Ti, Pi, Ei: powers of 1024)"), ""


def schema_diagnostics(instance: Any, document: Document, filename: str, schema_name: str,
                       skip: Any = None, prefix: tuple = ()) -> list[Diagnostic]:
    """Every schema violation of ``instance`` (the data of ``document`` at ``prefix``), with positions.

    ``skip(error)`` may return True for errors the caller handles itself. The CRD's CEL rules
    (``x-kubernetes-validations``, ported in :mod:`.schema_rules`) come after the structural ones.
    """
    out = _structural_diagnostics(instance, document, filename, schema_name, skip, prefix)
    if schema_name == SPEC_SCHEMA:
        return out  # mpigen's own schema has no CEL rules (and `build` reads no JSON schema file)
    from .schema_rules import failures, tree_for

    tree = tree_for(schema_name)
    if tree is not None:
        for path, message, rule in failures(instance, tree):
            path = prefix + path
            line, col = document.locate(path)
            out.append(Diagnostic(filename, line, col, format_path(path), "schema", Severity.ERROR,
                                  f"{message} (the CRD's validation rule: {rule})"))
    return out


def _structural_diagnostics(instance: Any, document: Document, filename: str, schema_name: str,
                            skip: Any, prefix: tuple) -> list[Diagnostic]:
    out = []
    for path, code, message, key in schema_problems(instance, schema_name, skip,
                                                    lambda path: document.plain.get(prefix + path)):
        path = prefix + path
        line, col = document.locate(path, key=key)
        out.append(Diagnostic(filename, line, col, format_path(path), code, Severity.ERROR, message))
    return out


def schema_problems(instance: Any, schema_name: str, skip: Any = None,
                    text_of: Any = lambda path: None) -> list[tuple[tuple, str, str, bool]]:
    """Every structural schema violation of ``instance``: (path, code, message, whether the
    problem is the key at the path rather than its value). ``text_of(path)``: the scalar as
    written at ``path``, when known (its YAML 1.1 reading is then explained)."""
    out: list[tuple[tuple, str, str, bool]] = []

    def emit(path: tuple, message: str, key: bool = False, code: str = "schema") -> None:
        out.append((tuple(path), code, message, key))

    tree = _format_tree(schema_name)
    if tree is not None:
        for path, code, message in format_problems(instance, tree):
            emit(path, message, code=code)
    precompiled = precompiled_for(schema_name)
    if precompiled is not None and precompiled(instance):
        return out  # its "valid" is python-jsonschema's (a rejection is explained below)
    fast = fast_validator_for(schema_name)
    if fast is not None and fast.is_valid(instance):
        return out
    import json

    validator = validator_for(schema_name)
    root = validator.schema

    def explain(error: Any) -> None:
        if skip is not None and skip(error):
            return
        path = tuple(error.absolute_path)
        value = error.instance
        kind = error.validator
        if kind in ("additionalProperties", "unevaluatedProperties") and isinstance(value, dict):
            known = _properties(error.schema, root)
            if kind == "additionalProperties" and not isinstance(error.schema.get("additionalProperties"), bool):
                return  # not an unknown-field error
            for key in sorted(value):
                if key in known:
                    continue
                removed = _REMOVED_FIELDS.get((tuple(path[-2:]), key))
                if removed:
                    emit(path + (key,), f"unknown field {key!r}: {removed}", key=True, code="unknown-field")
                    continue
                import difflib  # only when there is an error to explain

                close = difflib.get_close_matches(key, sorted(known), n=1)
                hint = f" (did you mean {close[0]!r}?)" if close else ""
                allowed = ", ".join(sorted(known))
                emit(path + (key,), f"unknown field {key!r}{hint}; known fields: {allowed}",
                     key=True, code="unknown-field")
        elif kind == "required":
            missing = [name for name in error.validator_value if name not in value]
            for name in missing:
                emit(path, f"missing required field {name!r}", key=True, code="missing-field")
        elif kind == "type":
            types = error.validator_value if isinstance(error.validator_value, list) else [error.validator_value]
            want = " or ".join(_TYPE_WORDS.get(t, t) for t in types)
            emit(path, f"expected {want}, got {describe(value)}{_hint(value, types, text_of(path))}")
        elif kind == "enum":
            choices = [str(c) for c in error.validator_value]
            meaning = _CHOICE_HINTS.get((path[-1] if path else None, value.casefold())) \
                if isinstance(value, str) else None
            close = did_you_mean(value, choices) if isinstance(value, str) and meaning is None else None
            hint = f": {meaning}" if meaning else f" (did you mean {close}?)" if close else ""
            emit(path, f"{describe(value)} is not allowed{hint}; choose one of: {', '.join(choices)}")
        elif kind == "const":
            emit(path, f"must be {error.validator_value!r}, got {describe(value)}")
        elif kind in ("minimum", "exclusiveMinimum"):
            emit(path, f"must be at least {error.validator_value}, got {value}")
        elif kind in ("maximum", "exclusiveMaximum"):
            emit(path, f"must be at most {error.validator_value}, got {value}")
        elif kind == "minLength" and error.validator_value == 1:
            emit(path, "must not be empty")
        elif kind == "minItems":
            emit(path, f"needs at least {error.validator_value} item(s)")
        elif kind == "maxLength":
            emit(path, f"is {len(value)} characters long; at most {error.validator_value} are allowed")
        elif kind == "pattern" and "propertyNames" in error.relative_schema_path:
            emit(path + (value,), f"{json.dumps(value)} is not a valid name here "
                 f"(names must match {error.validator_value})", key=True)
        elif kind == "pattern" and "([KMGTPE]i)" in str(error.validator_value):
            emit(path, quantity_message(value), code="quantity")
        elif kind == "pattern":
            what = error.schema.get("description", "")
            emit(path, f"{describe(value)} is not valid here (it must match {error.validator_value})"
                 + (f": {what}" if what else ""))
        elif kind == "anyOf" and isinstance(value, dict) and all(
                isinstance(s, dict) and set(s) == {"required"} for s in error.validator_value):
            # fields required together unless another is given (a spec's image and command, unless
            # spec.runtime names the Trainer runtime that has them): the last branch is the usual one
            for name in error.validator_value[-1]["required"]:
                if name not in value:
                    emit(path, f"missing required field {name!r}", key=True, code="missing-field")
        elif kind in ("anyOf", "oneOf"):
            branches = [_referenced(s, root) for s in error.validator_value if isinstance(s, dict)]
            fits = [i for i, s in enumerate(branches) if "type" in s and any(
                validator.is_type(value, t) for t in (s["type"] if isinstance(s["type"], list) else [s["type"]]))]
            within = [e for e in error.context or () if len(fits) == 1 and list(e.relative_schema_path)[:1] == fits]
            if within:  # the value has the shape of one branch: what is wrong inside it
                for sub in within:
                    explain(sub)
                return
            types = [t for s in branches if "type" in s for t in (s["type"] if isinstance(s["type"], list)
                                                                  else [s["type"]])]
            want = " or ".join(_TYPE_WORDS.get(t, t) for t in types) or "a valid value"
            desc = error.schema.get("description", "")
            emit(path, f"expected {want}, got {describe(value)}" + (f" ({desc})" if desc else "")
                 + _hint(value, types, text_of(path)))
        else:
            emit(path, error.message)

    for error in validator.iter_errors(instance):
        explain(error)
    return out


# ------------------------------------------------------------------ what JSON Schema does not say
#
# The Kubernetes schemas carry formats that JSON Schema validators do not check (mpigen's run with
# formats off), but that the API server's decoder does: a number beyond an int32 or int64 field,
# a Quantity that does not parse, base64 that does not decode. kubectl gets "cannot unmarshal
# number 3000000000 into Go struct field ... of type int32", "quantities must match the regular
# expression ...", "illegal base64 data at input byte 3". A custom resource is stored as JSON, so
# the API server takes an int32 field's 3000000000, but the operator (Go types too) cannot decode
# the object, nor list any other of its kind.

_INT_RANGES = {"int32": (-(2 ** 31), 2 ** 31 - 1), "int64": (-(2 ** 63), 2 ** 63 - 1)}
# A node of the tree: (format or None, {declared key: node or None}, additionalProperties node, items node)
FormatNode = tuple


@functools.lru_cache(maxsize=None)
def _format_tree(name: str) -> FormatNode | None:
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
