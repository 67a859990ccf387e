"""JSON Schema validation whose every error becomes a readable Diagnostic at the right line.

jsonschema-rs finds the errors. Its messages are written for schema authors; these are written for
the person who wrote the YAML: "unknown field 'wrokers' (did you mean 'workers'?)", "missing
required field 'image'", "expected an integer, got the string '4'".
"""

from __future__ import annotations

import functools
import os
import re
from typing import TYPE_CHECKING, Any, Iterable

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
    """The compiled validator (jsonschema-rs) of a schema: it answers "valid?" in microseconds,
    and its errors of an object it rejects are explained by :func:`schema_problems`. Formats are
    not checked (mpigen checks those the API server's decoder checks: :mod:`.schema_formats`)."""
    import jsonschema_rs

    return jsonschema_rs.validator_for(load_schema(name), validate_formats=False)


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

    ``skip(path, value)`` may return True for problems the caller handles itself. The CRD's CEL rules
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
    written at ``path``, when known (its YAML 1.1 reading is then explained). ``skip(path,
    value)`` may return True for problems the caller handles itself.

    jsonschema-rs finds the errors (in microseconds when there is none); each is explained from
    its kind, the instance and the schema at its keyword location."""
    out: list[tuple[tuple, str, str, bool]] = []

    def emit(path: tuple, message: str, key: bool = False, code: str = "schema") -> None:
        out.append((tuple(path), code, message, key))

    from .schema_formats import format_problems, format_tree

    tree = format_tree(schema_name)
    if tree is not None:
        for path, code, message in format_problems(instance, tree):
            emit(path, message, code=code)
    precompiled = precompiled_for(schema_name)
    if precompiled is not None and precompiled(instance):
        return out  # its "valid" is the validator's (a rejection is explained below)
    validator = fast_validator_for(schema_name)
    if validator.is_valid(instance):
        return out
    import json

    root = load_schema(schema_name)

    def explain(error: Any) -> None:
        path = tuple(error.instance_path)
        value = error.instance
        if skip is not None and skip(path, value):
            return
        kind = type(error.kind).__name__
        keyword = error.schema_path[-1] if error.schema_path else ""
        schema = _schema_at(root, error.schema_path[:-1])  # the (sub)schema whose keyword failed
        limit = schema.get(keyword)  # the keyword's value, as the schema writes it
        if kind in ("AdditionalProperties", "UnevaluatedProperties") and isinstance(value, dict):
            known = _properties(schema, root)
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
        elif kind == "Required":
            emit(path, f"missing required field {error.kind.property!r}", key=True, code="missing-field")
        elif kind == "Type":
            types = limit if isinstance(limit, list) else [limit]
            want = " or ".join(_TYPE_WORDS.get(t, t) for t in types)
            emit(path, f"expected {want}, got {describe(value)}{_hint(value, types, text_of(path))}")
        elif kind == "Enum":
            choices = [str(c) for c in limit]
            meaning = _CHOICE_HINTS.get((path[-1] if path else None, value.casefold())) \
                if isinstance(value, str) else None
            close = did_you_mean(value, choices) if isinstance(value, str) and meaning is None else None
            hint = f": {meaning}" if meaning else f" (did you mean {close}?)" if close else ""
            emit(path, f"{describe(value)} is not allowed{hint}; choose one of: {', '.join(choices)}")
        elif kind == "Constant":
            emit(path, f"must be {limit!r}, got {describe(value)}")
        elif kind in ("Minimum", "ExclusiveMinimum"):
            emit(path, f"must be {'at least' if kind == 'Minimum' else 'more than'} {limit}, got {value}")
        elif kind in ("Maximum", "ExclusiveMaximum"):
            emit(path, f"must be {'at most' if kind == 'Maximum' else 'less than'} {limit}, got {value}")
        elif kind in ("MinLength", "MinProperties") and limit == 1:
            emit(path, "must not be empty")
        elif kind == "MinLength":
            emit(path, f"is {len(value)} characters long; at least {limit} are needed")
        elif kind == "MinProperties":
            emit(path, f"needs at least {limit} field(s)")
        elif kind == "MinItems":
            emit(path, f"needs at least {limit} item(s)")
        elif kind == "MaxItems":
            emit(path, f"has {len(value)} items; at most {limit} are allowed")
        elif kind == "MaxLength":
            emit(path, f"is {len(value)} characters long; at most {limit} are allowed")
        elif kind == "PropertyNames":
            explain(error.kind.error)  # the key is the instance of the error inside
        elif kind == "Pattern" and "propertyNames" in error.schema_path:
            emit(path + (value,), f"{json.dumps(value)} is not a valid name here (names must match {limit})", key=True)
        elif kind == "Pattern" and "([KMGTPE]i)" in str(limit):
            emit(path, quantity_message(value), code="quantity")
        elif kind == "Pattern":
            what = schema.get("description", "")
            emit(path, f"{describe(value)} is not valid here (it must match {limit})" + (f": {what}" if what else ""))
        elif kind == "AnyOf" and isinstance(value, dict) and all(
                isinstance(s, dict) and set(s) == {"required"} for s in limit):
            # fields required together unless another is given (a spec's image and command, unless
            # spec.runtime names the Trainer runtime that has them): the last branch is the usual one
            for name in limit[-1]["required"]:
                if name not in value:
                    emit(path, f"missing required field {name!r}", key=True, code="missing-field")
        elif kind in ("AnyOf", "OneOfNotValid"):
            branches = [_referenced(s, root) for s in limit if isinstance(s, dict)]
            fits = [i for i, s in enumerate(branches) if "type" in s and any(
                _is_type(value, t) for t in (s["type"] if isinstance(s["type"], list) else [s["type"]]))]
            if len(fits) == 1 and error.kind.context[fits[0]]:
                for sub in error.kind.context[fits[0]]:  # the value has the shape of one branch: what is wrong in it
                    explain(sub)
                return
            types = [t for s in branches if "type" in s for t in (s["type"] if isinstance(s["type"], list)
                                                                  else [s["type"]])]
            want = " or ".join(_TYPE_WORDS.get(t, t) for t in types) or "a valid value"
            desc = schema.get("description", "")
            emit(path, f"expected {want}, got {describe(value)}" + (f" ({desc})" if desc else "")
                 + _hint(value, types, text_of(path)))
        else:
            emit(path, error.message)

    for error in validator.iter_errors(instance):
        explain(error)
    return out


def _schema_at(root: dict[str, Any], location: Any) -> dict[str, Any]:
    """The (sub)schema at a keyword location of jsonschema-rs (``properties/spec/type`` without
    its keyword; a location inside a ``$ref`` starts at what it refers to)."""
    schema: Any = root
    for part in location:
        schema = schema[part]
    return schema if isinstance(schema, dict) else {}


def _is_type(value: Any, name: str) -> bool:
    """JSON Schema's ``type`` (draft 7 and 2020-12: 1.0 is an integer, a boolean is no number)."""
    if name == "integer":
        return (type(value) is int) or (type(value) is float and value.is_integer())
    if name == "number":
        return type(value) in (int, float)
    return isinstance(value, {"null": type(None), "boolean": bool, "string": str, "array": list,
                              "object": dict}.get(name, ()))
