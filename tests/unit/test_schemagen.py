"""mpigen.spec.schemagen: the generated spec check says "valid" exactly when python-jsonschema does.

The generated module must be up to date with the schema file, must agree with python-jsonschema
(whose errors become mpigen's diagnostics) on every spec of the repository and on thousands of
mutations of them, and must refuse schemas it cannot translate.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import jsonschema
import pytest

from mpigen.spec import _spec_valid, schema as schema_module
from mpigen.spec.schema import SPEC_SCHEMA, load_schema, precompiled_for, schemas_folder
from mpigen.spec.schemagen import TARGETS, Unsupported, fingerprint, generate

ROOT = Path(__file__).resolve().parents[2]
SPEC_FILES = sorted([*ROOT.glob("specs/*.yaml"), *ROOT.glob("tests/cases/specs/*/*.yaml")])
ODD_VALUES = [None, True, False, 0, -1, 1, 2.0, 2.5, 2**31, "", "x", "1", "/abs", "Never", "UPPER",
              [], ["a"], [1], {}, {"a": "b"}, {"secretKeyRef": {"name": "s", "key": "k"}}]


def _specs() -> list[dict]:
    from mpigen.load.yaml_loader import load_bytes  # refuses the alias bomb among the cases

    out = []
    for path in SPEC_FILES:
        docs = [d.data for d in load_bytes(path.read_bytes(), path.name).documents]
        out += [d for d in docs if isinstance(d, dict) and d.get("kind") == "TrainingJob"]
    return out


def _paths(value, path=()):
    yield path
    if isinstance(value, dict):
        for key, child in value.items():
            yield from _paths(child, path + (key,))
    elif isinstance(value, list):
        for i, child in enumerate(value):
            yield from _paths(child, path + (i,))


def _replace(doc, path, new):
    doc = copy.deepcopy(doc)
    target = doc
    for part in path[:-1]:
        target = target[part]
    if new is _DELETE:
        del target[path[-1]]
    else:
        target[path[-1]] = new
    return doc


_DELETE = object()


def _mutations(doc):
    for path in _paths(doc):
        if not path:
            continue
        for value in [_DELETE, *ODD_VALUES]:
            yield _replace(doc, path, value)
        parent = doc
        for part in path[:-1]:
            parent = parent[part]
        if isinstance(parent, dict):
            yield _replace(doc, path[:-1] + ("bogusField",), 1)


def test_generated_module_is_up_to_date() -> None:
    for schema_name, module in TARGETS.items():
        current = generate((schemas_folder() / schema_name).read_bytes(), schema_name)
        committed = (ROOT / "mpigen" / "spec" / module).read_text("utf-8")
        assert committed == current, f"mpigen/spec/{module} is stale: run python -m mpigen.spec.schemagen"


def test_precompiled_check_is_used_for_the_spec_schema_only(monkeypatch) -> None:
    text = (schemas_folder() / SPEC_SCHEMA).read_bytes()
    monkeypatch.setattr(_spec_valid, "FINGERPRINT", fingerprint(text))  # fresh, even while the schema changes
    precompiled_for.cache_clear()
    try:
        assert precompiled_for(SPEC_SCHEMA) is _spec_valid.is_valid
        assert precompiled_for("kubeflow.org/mpijob_v2beta1.json") is None
    finally:
        monkeypatch.undo()
        precompiled_for.cache_clear()


def test_a_stale_module_is_not_used(monkeypatch) -> None:
    monkeypatch.setattr(_spec_valid, "FINGERPRINT", (0, 0))
    precompiled_for.cache_clear()
    try:
        assert precompiled_for(SPEC_SCHEMA) is None
    finally:
        monkeypatch.undo()
        precompiled_for.cache_clear()


def _compiled(text: bytes, name: str = "toy.json"):
    namespace: dict = {}
    exec(generate(text, name), namespace)
    return namespace["is_valid"]


def test_verdicts_agree_with_python_jsonschema() -> None:
    """The check generated from the schema file as it is now (the committed one may lag behind it)."""
    schema = load_schema(SPEC_SCHEMA)
    reference = jsonschema.validators.validator_for(schema)(schema)
    is_valid = _compiled((schemas_folder() / SPEC_SCHEMA).read_bytes(), SPEC_SCHEMA)
    specs = _specs()
    assert len(specs) >= 10
    checked = valid = 0
    for spec in specs:
        for instance in [spec, *_mutations(spec)]:
            expected = reference.is_valid(instance)
            assert is_valid(instance) is expected, instance
            checked += 1
            valid += expected
    assert checked > 1000 and 0 < valid < checked  # both verdicts were exercised


@pytest.mark.parametrize("instance, expected", [
    ({"spec": {"workers": True}}, False),  # a boolean is not an integer
    ({"spec": {"workers": 2.0}}, True),  # 2.0 is (draft 2020-12)
    ({"spec": {"workers": 2.5}}, False),
    ({"spec": {"name": "ab\n"}}, True),  # re.search: $ matches before a final newline, as in jsonschema
    ({"spec": {"kind": 2}}, False),
    ({"spec": {"kind": True}}, False),  # true is not 1 in an enum
    ({"spec": {"kind": 1.0}}, True),
    ({"spec": {"extra": 1}}, False),
    ({"other": 1}, True),
])
def test_json_semantics(instance, expected) -> None:
    schema = {
        "$defs": {"base": {"type": "object", "properties": {"workers": {"type": "integer", "minimum": 1},
                                                            "name": {"type": "string", "pattern": "^[a-z]+$"}}}},
        "properties": {"spec": {"$ref": "#/$defs/base", "unevaluatedProperties": False,
                                "properties": {"kind": {"enum": [1, "a", None]}}}},
    }
    assert _compiled(json.dumps(schema).encode())(instance) is expected
    assert jsonschema.Draft202012Validator(schema).is_valid(instance) is expected


@pytest.mark.parametrize("instance, expected", [
    ({"b": 1, "c": 2}, True), ({"a": 1}, True), ({"a": 1, "b": 1}, True), ({"b": 1}, False), ({}, False),
    ({"a": 1, "d": 1}, False),  # unevaluated
])
def test_fields_required_unless_another_is_given(instance, expected) -> None:
    """An anyOf of required fields only (a spec's image and command, unless spec.runtime) evaluates
    no property, so unevaluatedProperties beside it is decided as before."""
    schema = {"properties": {"a": {}, "b": {}, "c": {}}, "anyOf": [{"required": ["a"]}, {"required": ["b", "c"]}],
              "unevaluatedProperties": False}
    assert _compiled(json.dumps(schema).encode())(instance) is expected
    assert jsonschema.Draft202012Validator(schema).is_valid(instance) is expected


@pytest.mark.parametrize("schema", [
    {"x-kubernetes-validations": [{"rule": "self.a > 0"}]},  # CEL rules: not an annotation
    {"patternProperties": {"^a": {}}},
    {"$ref": "https://example.com/other.json"},
    {"properties": {"a": {"if": {"type": "string"}}}},
    {"anyOf": [{"properties": {"a": {}}}], "unevaluatedProperties": False},
    {"anyOf": [{"required": ["a"], "properties": {"a": {}}}], "unevaluatedProperties": False},
])
def test_unknown_constructs_are_refused(schema) -> None:
    with pytest.raises(Unsupported):
        generate(json.dumps(schema).encode(), "toy.json")


def test_schema_diagnostics_unchanged_for_an_invalid_spec() -> None:
    """A rejection still goes through jsonschema-rs, whose errors mpigen explains."""
    from mpigen.load.yaml_loader import load_text

    text = "apiVersion: mpigen.dev/v1alpha1\nkind: TrainingJob\nmetadata: {name: a}\nspec: {wrokers: 2}\n"
    doc = load_text(text, "s.yaml").documents[0]
    found = schema_module.schema_diagnostics(doc.data, doc, "s.yaml", SPEC_SCHEMA)
    assert any(d.code == "unknown-field" and "did you mean 'workers'" in d.message for d in found)
