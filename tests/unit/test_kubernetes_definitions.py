"""The Kubernetes definitions of the spec schema (``$defs/io.k8s.*`` of
schemas/mpigen.dev/trainingjob_v1alpha1.json, written by scripts/fetch_schemas.py).

Python-jsonschema and jsonschema-rs accept the grown schema; the check mpigen/spec/schemagen.py
compiles from each definition says "valid" exactly when python-jsonschema does, on an instance
built from the definition and on mutations of it; and values are checked against a definition
through mpigen's own helpers (``FILE#/$defs/NAME``), with mpigen's messages.
"""

from __future__ import annotations

import json

import jsonschema
import jsonschema_rs
import pytest

from mpigen.load.yaml_loader import load_text
from mpigen.spec.schema import SPEC_SCHEMA, load_schema, schema_diagnostics, schemas_folder
from mpigen.spec.schemagen import generate

LOCK = json.loads((schemas_folder() / "lock.json").read_text(encoding="utf-8"))
SCHEMA = load_schema(SPEC_SCHEMA)
KUBERNETES = sorted(name for name in SCHEMA["$defs"] if name.startswith("io.k8s."))
ROOTS = LOCK["definitions"][SPEC_SCHEMA]["roots"]
ODD_VALUES = [None, True, 0, -1, 2.5, 2**40, "", "x", [], ["a"], {}, {"a": "b"}]


def test_the_lock_lists_what_the_file_holds() -> None:
    assert len(KUBERNETES) == LOCK["definitions"][SPEC_SCHEMA]["definitions"] >= 100
    assert set(ROOTS) <= set(KUBERNETES)
    volume_sources = [p for p, sub in SCHEMA["$defs"]["io.k8s.api.core.v1.Volume"]["properties"].items()
                      if sub.get("$ref", "").endswith("VolumeSource")]
    assert len(volume_sources) >= 25 and "configMap" in volume_sources and "ephemeral" in volume_sources


def test_both_libraries_accept_the_schema() -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    jsonschema_rs.validator_for(SCHEMA, validate_formats=False)


def test_definitions_refer_to_each_other_and_keep_descriptions() -> None:
    container = SCHEMA["$defs"]["io.k8s.api.core.v1.Container"]
    assert container["additionalProperties"] is False and container["description"]
    assert container["properties"]["securityContext"]["$ref"] == "#/$defs/io.k8s.api.core.v1.SecurityContext"
    assert container["properties"]["env"]["items"]["$ref"] == "#/$defs/io.k8s.api.core.v1.EnvVar"
    kubernetes = {name: d for name, d in SCHEMA["$defs"].items() if name.startswith("io.k8s.")}
    refs = [node["$ref"] for node in _nodes(kubernetes) if "$ref" in node]
    assert refs and all(ref.removeprefix("#/$defs/") in kubernetes for ref in refs)


def _nodes(value):
    if isinstance(value, dict):
        yield value
        for child in value.values():
            yield from _nodes(child)
    elif isinstance(value, list):
        for child in value:
            yield from _nodes(child)


def _example(schema: dict, depth: int = 0):
    """A value of ``schema`` with every property set (to a few levels deep)."""
    if "$ref" in schema:
        return _example(SCHEMA["$defs"][schema["$ref"].removeprefix("#/$defs/")], depth)
    if "oneOf" in schema:
        return _example(schema["oneOf"][0], depth)
    kind = schema.get("type")
    if kind == "object":
        if "properties" in schema:
            chosen = schema["properties"] if depth < 3 else {k: schema["properties"][k] for k in schema.get("required", [])}
            return {k: _example(sub, depth + 1) for k, sub in chosen.items()}
        extra = schema.get("additionalProperties")
        return {"key": _example(extra, depth + 1)} if isinstance(extra, dict) else {}
    if kind == "array":
        return [_example(schema["items"], depth + 1)]
    return {"string": "x", "integer": 1, "number": 1.5, "boolean": True}[kind]


def _mutations(value):
    yield value
    if isinstance(value, dict):
        yield {**value, "bogusField": 1}
        for key in value:
            yield {k: v for k, v in value.items() if k != key}
            for odd in ODD_VALUES:
                yield {**value, key: odd}
            if isinstance(value[key], (dict, list)):
                for inner in list(_mutations(value[key]))[1:8]:
                    yield {**value, key: inner}
    elif isinstance(value, list) and value:
        for inner in list(_mutations(value[0]))[1:8]:
            yield [inner]


def test_compiled_checks_agree_with_both_libraries() -> None:
    """Every definition compiles (schemagen refuses what it cannot translate), and the compiled
    check, python-jsonschema and jsonschema-rs give one verdict for each instance."""
    text = (schemas_folder() / SPEC_SCHEMA).read_bytes()
    checked = valid = 0
    for name in KUBERNETES:
        one = {"$schema": SCHEMA["$schema"], "$defs": SCHEMA["$defs"], "$ref": f"#/$defs/{name}"}
        namespace: dict = {}
        exec(generate(json.dumps(one).encode(), f"{SPEC_SCHEMA}#/$defs/{name}"), namespace)
        reference = jsonschema.Draft202012Validator(one)
        fast = jsonschema_rs.validator_for(one, validate_formats=False)
        for instance in _mutations(_example(SCHEMA["$defs"][name])):
            expected = reference.is_valid(instance)
            assert namespace["is_valid"](instance) is expected, (name, instance)
            assert fast.is_valid(instance) is expected, (name, instance)
            checked += 1
            valid += expected
    assert len(text) > 100_000 and checked > 5000 and 0 < valid < checked


@pytest.mark.parametrize("instance, expected", [
    ("2Gi", True), (2, True), (0.5, True), (True, False), (None, False), ([], False),
])
def test_compiled_one_of_holds_when_exactly_one_branch_does(instance, expected) -> None:
    schema = {"$defs": {"q": {"oneOf": [{"type": "string"}, {"type": "number"}],
                              "x-kubernetes-list-type": "atomic"}},
              "$ref": "#/$defs/q", "x-kubernetes-patch-strategy": "merge"}
    namespace: dict = {}
    exec(generate(json.dumps(schema).encode(), "toy.json"), namespace)
    assert namespace["is_valid"](instance) is expected
    overlapping = {"oneOf": [{"type": "number"}, {"type": "integer"}]}  # 1 is both: not exactly one
    exec(generate(json.dumps(overlapping).encode(), "toy.json"), namespace)
    assert namespace["is_valid"](1) is False and namespace["is_valid"](1.5) is True
    assert jsonschema.Draft202012Validator(overlapping).is_valid(1) is False


# ------------------------------------------------------------- through mpigen's helpers


def _check(definition: str, text: str) -> list:
    doc = load_text(text, "sample.yaml").documents[0]
    return schema_diagnostics(doc.data, doc, "sample.yaml", f"{SPEC_SCHEMA}#/$defs/io.k8s.api.core.v1.{definition}")


def test_a_volume_with_a_config_map_is_valid() -> None:
    assert _check("Volume", "name: config\nconfigMap:\n  name: settings\n  items: [{key: a, path: a.txt}]\n") == []


def test_a_typo_in_a_container_is_refused_at_its_line() -> None:
    found = _check("Container", "name: main\nimage: busybox\nimagePullPolicy: Always\ncomand: [sh]\n")
    assert [(d.code, d.line, d.path) for d in found] == [("unknown-field", 4, "comand")]
    assert "did you mean 'command'?" in found[0].message


def test_a_quantity_is_a_number_or_a_string_that_parses() -> None:
    assert _check("ResourceRequirements", "limits: {cpu: 2, memory: 16Gi, nvidia.com/gpu: '1'}\n") == []
    assert _check("ResourceRequirements", "requests: {cpu: 0.5}\n") == []
    found = _check("ResourceRequirements", "limits:\n  memory: 16GB\n")
    assert [(d.code, d.line, d.path) for d in found] == [("quantity", 2, "limits.memory")]
    assert "16G (powers of 1000) or 16Gi (powers of 1024)" in found[0].message
    found = _check("ResourceRequirements", "limits:\n  cpu: [2]\n")
    assert [(d.code, d.line) for d in found] == [("schema", 2)]


def test_a_port_is_a_number_or_a_name() -> None:
    for port in ("8080", "http"):
        assert _check("Probe", f"httpGet: {{path: /healthz, port: {port}}}\n") == []
    for port in ("[8080]", "1.5", "true"):
        found = _check("Probe", f"httpGet: {{path: /healthz, port: {port}}}\n")
        assert [d.path for d in found] == ["httpGet.port"], port
    found = _check("ContainerPort", "containerPort: 3000000000\n")  # an int32
    assert [d.path for d in found] == ["containerPort"] and "int32" in found[0].message


def test_an_unknown_definition_is_a_key_error() -> None:
    with pytest.raises(KeyError):
        load_schema(f"{SPEC_SCHEMA}#/$defs/io.k8s.api.core.v1.Nothing")
    with pytest.raises(KeyError):
        load_schema(f"{SPEC_SCHEMA}#/properties/spec")

