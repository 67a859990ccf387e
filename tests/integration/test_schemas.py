"""Tests of the generated JSON Schemas in schemas/ (see scripts/fetch_schemas.py).

* ``test_committed_schemas_are_up_to_date`` regenerates everything through the
  Go module proxy and needs the network: deselect it with ``-m "not network"``.
* The rest works offline on the committed files.

Null handling: YAML reads a key with no value (``command:``) as null.  The API
server drops null-valued fields of custom resources before validation (and
decodes a null into the zero value for built-in kinds), but the generated
schemas only allow null where upstream says ``nullable: true``.  So these tests
first prune null-valued mapping entries, as the API server would, and
``test_null_is_rejected_without_pruning`` pins the strict behaviour down.
kubeconform does no such pruning: with these schemas it reports such nulls.
"""

from __future__ import annotations

import copy
import functools
import hashlib
import importlib.util
import json
import shutil
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
import yaml

REPO = Path(__file__).resolve().parents[2]
SCHEMAS = REPO / "schemas"
CASES = REPO / "tests" / "cases" / "schemas"
SCRIPT = REPO / "scripts" / "fetch_schemas.py"
LOCK = json.loads((SCHEMAS / "lock.json").read_text(encoding="utf-8"))
KUBECONFORM_LOCATION = "schemas/{{.Group}}/{{.ResourceKind}}_{{.ResourceAPIVersion}}.json"


def schema_path(api_version: str, kind: str) -> Path:
    """Where kubeconform's KUBECONFORM_LOCATION template points for a resource."""
    group = api_version.split("/")[0]  # {{.Group}}: "v1" for core kinds
    version = api_version.split("/")[-1]  # {{.ResourceAPIVersion}}
    return SCHEMAS / group / f"{kind.lower()}_{version}.json"


@functools.cache
def validator_for(api_version: str, kind: str) -> jsonschema.protocols.Validator:
    schema = json.loads(schema_path(api_version, kind).read_text(encoding="utf-8"))
    cls = jsonschema.validators.validator_for(schema)
    assert cls is jsonschema.Draft7Validator, f"unexpected $schema {schema.get('$schema')}"
    return cls(schema)


def prune_nulls(obj):
    """Drop null-valued mapping entries recursively (what the API server does)."""
    if isinstance(obj, dict):
        return {k: prune_nulls(v) for k, v in obj.items() if v is not None}
    if isinstance(obj, list):
        return [prune_nulls(v) for v in obj]
    return obj


def load_docs(path: Path) -> list[dict]:
    return [d for d in yaml.safe_load_all(path.read_text(encoding="utf-8")) if d is not None]


def errors_of(doc: dict) -> list[jsonschema.ValidationError]:
    v = validator_for(doc["apiVersion"], doc["kind"])
    return sorted(v.iter_errors(prune_nulls(doc)), key=lambda e: list(e.absolute_path))


def describe(errors) -> str:
    return "\n".join(f"  /{'/'.join(map(str, e.absolute_path))}: {e.message[:300]}" for e in errors)


def expectations(path: Path) -> tuple[str, str]:
    want = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        for key in ("expect-path", "expect-message"):
            if line.startswith(f"# {key}:"):
                want[key] = line.split(":", 1)[1].strip()
    assert set(want) == {"expect-path", "expect-message"}, f"{path.name} lacks expect-* comments"
    return want["expect-path"], want["expect-message"]


VALID_DOCS = [
    pytest.param(doc, id=f"{p.stem}:{doc['kind']}/{doc['metadata']['name']}")
    for p in sorted((CASES / "valid").glob("*.yaml"))
    for doc in load_docs(p)
]
INVALID_FILES = sorted((CASES / "invalid").glob("*.yaml"))
GENERATED = sorted(LOCK["schemas"])


# ---------------------------------------------------------------- regeneration


@pytest.mark.network
def test_committed_schemas_are_up_to_date():
    """`fetch_schemas.py --check` downloads the pinned modules and finds no difference."""
    if shutil.which("go") is None:
        pytest.fail("`go` is needed to regenerate the schemas (deselect with -m 'not network')")
    proc = subprocess.run(
        [sys.executable, str(SCRIPT), "--check"],
        cwd=REPO, capture_output=True, text=True, timeout=1800,
    )
    assert proc.returncode == 0, f"exit {proc.returncode}\n{proc.stdout}\n{proc.stderr}"


@pytest.mark.network
def test_check_notices_stale_kubernetes_definitions(tmp_path):
    """The spec schema's Kubernetes definitions edited (and, beside them, its hand-written part):
    `--check` reports that file alone, and nothing else."""
    if shutil.which("go") is None:
        pytest.fail("`go` is needed to regenerate the schemas (deselect with -m 'not network')")
    out = tmp_path / "schemas"
    shutil.copytree(SCHEMAS, out)
    spec = out / "mpigen.dev" / "trainingjob_v1alpha1.json"
    document = json.loads(spec.read_text(encoding="utf-8"))
    document["title"] = "edited by hand, which is not stale"
    document["$defs"]["io.k8s.api.core.v1.Volume"]["description"] = "edited"
    spec.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    proc = subprocess.run([sys.executable, str(SCRIPT), "--check", "--out", str(out)],
                          cwd=REPO, capture_output=True, text=True, timeout=1800)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert [line.split() for line in proc.stdout.splitlines() if line.startswith("  ") and ":" not in line] == [
        ["differs", "mpigen.dev/trainingjob_v1alpha1.json"]], proc.stdout


# ------------------------------------------------------------- schema files


@pytest.mark.parametrize("rel", GENERATED)
def test_schema_file_is_valid_json_schema(rel):
    schema = json.loads((SCHEMAS / rel).read_text(encoding="utf-8"))
    assert schema["$schema"] == "http://json-schema.org/draft-07/schema#"
    jsonschema.Draft7Validator.check_schema(schema)


@pytest.mark.parametrize("rel", GENERATED)
def test_schema_file_matches_lock_and_layout(rel):
    data = (SCHEMAS / rel).read_bytes()
    entry = LOCK["schemas"][rel]
    assert hashlib.sha256(data).hexdigest() == entry["sha256"], f"{rel} was edited by hand"
    schema = json.loads(data)
    assert schema["properties"]["apiVersion"]["enum"] == [entry["apiVersion"]]
    assert schema["properties"]["kind"]["enum"] == [entry["kind"]]
    assert schema_path(entry["apiVersion"], entry["kind"]) == SCHEMAS / rel
    # deterministic formatting, as the generator writes it
    assert data.decode("ascii") == json.dumps(schema, indent=2, sort_keys=True, ensure_ascii=True) + "\n"
    assert LOCK["sources"][entry["source"]]["sum"].startswith("h1:")


def test_every_generated_kind_has_a_valid_case():
    covered = {(d.values[0]["apiVersion"], d.values[0]["kind"]) for d in VALID_DOCS}
    missing = [rel for rel in GENERATED
               if (LOCK["schemas"][rel]["apiVersion"], LOCK["schemas"][rel]["kind"]) not in covered]
    assert not missing


# ---------------------------------------------------------------- validation


@pytest.mark.parametrize("doc", VALID_DOCS)
def test_valid_case_is_accepted(doc):
    errors = errors_of(doc)
    assert not errors, f"{doc['kind']}/{doc['metadata']['name']} rejected:\n{describe(errors)}"


@pytest.mark.parametrize("path", INVALID_FILES, ids=[p.stem for p in INVALID_FILES])
def test_invalid_case_is_rejected(path):
    (doc,) = load_docs(path)
    want_path, want_message = expectations(path)
    errors = errors_of(doc)
    assert errors, f"{path.name} was accepted"
    hits = [e for e in errors
            if "/" + "/".join(map(str, e.absolute_path)) == want_path and want_message in e.message]
    assert hits, f"no error at {want_path} containing {want_message!r}; got:\n{describe(errors)}"


def test_null_is_rejected_without_pruning():
    (doc,) = [d for d in load_docs(CASES / "valid" / "mpijob-mpich-null-command.yaml")]
    worker = doc["spec"]["mpiReplicaSpecs"]["Worker"]["template"]["spec"]["containers"][0]
    assert "command" in worker and worker["command"] is None
    errors = list(validator_for(doc["apiVersion"], doc["kind"]).iter_errors(doc))
    assert [list(e.absolute_path)[-1] for e in errors] == ["command"], describe(errors)


def test_int_or_string_port_accepts_name_and_number_only():
    v = validator_for("kubeflow.org/v2beta1", "MPIJob")
    doc = load_docs(CASES / "valid" / "mpijob-pi.yaml")[0]
    probe = {"tcpSocket": {"port": "ssh"}}
    doc["spec"]["mpiReplicaSpecs"]["Worker"]["template"]["spec"]["containers"][0]["readinessProbe"] = probe
    assert not list(v.iter_errors(doc))
    probe["tcpSocket"]["port"] = 2222
    assert not list(v.iter_errors(doc))
    probe["tcpSocket"]["port"] = [2222]
    assert list(v.iter_errors(doc))


# ------------------------------------------------------------ converter rules


@functools.cache
def generator():
    spec = importlib.util.spec_from_file_location("fetch_schemas", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def convert(node):
    return generator().Converter(where="test").convert(node)


def test_converter_makes_objects_with_properties_strict():
    out = convert({"type": "object", "properties": {"a": {"type": "object", "properties": {"b": {"type": "string"}}}}})
    assert out["additionalProperties"] is False
    assert out["properties"]["a"]["additionalProperties"] is False
    maps = convert({"type": "object", "additionalProperties": {"type": "string"}})
    assert maps["additionalProperties"] == {"type": "string"}
    opaque = convert({"type": "object"})
    assert "additionalProperties" not in opaque


def test_converter_honours_preserve_unknown_fields():
    out = convert({"type": "object", "x-kubernetes-preserve-unknown-fields": True,
                   "properties": {"known": {"type": "integer"}}})
    assert "additionalProperties" not in out
    v = jsonschema.Draft7Validator(out)
    assert v.is_valid({"known": 1, "anything": {"else": [1]}})
    assert not v.is_valid({"known": "x"})


def test_converter_honours_int_or_string():
    out = convert({"x-kubernetes-int-or-string": True})
    v = jsonschema.Draft7Validator(out)
    assert v.is_valid(3) and v.is_valid("50%")
    assert not v.is_valid(0.5) and not v.is_valid(None) and not v.is_valid(True)


def test_converter_honours_nullable():
    v = jsonschema.Draft7Validator(convert({"type": "string", "nullable": True, "enum": ["a"]}))
    assert v.is_valid(None) and v.is_valid("a") and not v.is_valid("b")
    v = jsonschema.Draft7Validator(convert({"x-kubernetes-int-or-string": True, "nullable": True}))
    assert v.is_valid(None) and v.is_valid(1) and v.is_valid("1")
    v = jsonschema.Draft7Validator(convert({"type": "string"}))
    assert not v.is_valid(None)


def test_converter_rewrites_boolean_exclusive_bounds_and_drops_descriptions():
    out = convert({"type": "integer", "minimum": 0, "exclusiveMinimum": True, "description": "x"})
    assert out == {"type": "integer", "exclusiveMinimum": 0}


def test_converter_refuses_unknown_keywords():
    with pytest.raises(generator().SchemaError):
        convert({"type": "string", "discriminator": {"propertyName": "kind"}})


def test_converter_can_keep_references_and_descriptions():
    """The spec schema's Kubernetes definitions: references stay references, described."""
    components = {"A": {"type": "object", "description": "an A", "properties": {
        "b": {"allOf": [{"$ref": "#/components/schemas/B"}], "default": {}, "description": "its B"},
        "c": {"type": "array", "items": {"$ref": "#/components/schemas/B"}}}}, "B": {"type": "string"}}
    converter = generator().Converter(components, "test", defs="#/$defs/", descriptions=True)
    out = converter.convert(components["A"])
    assert out["description"] == "an A" and out["additionalProperties"] is False
    assert out["properties"]["b"] == {"$ref": "#/$defs/B", "default": {}, "description": "its B"}
    assert out["properties"]["c"]["items"] == {"$ref": "#/$defs/B"}
    assert converter.referenced == {"B"}


def _layout(document) -> str:
    return json.dumps(document, indent=2) + "\n"


def test_splice_replaces_only_the_kubernetes_definitions():
    splice = generator().splice_definitions
    hand = {"$schema": "s", "properties": {"a": {"$ref": "#/$defs/b"}},
            "$defs": {"io.k8s.Old": {"type": "string"}, "b": {"type": "integer"}, "a": {"const": 1}}, "z": 1}
    out = splice(_layout(hand), {"io.k8s.Z": {"type": "object"}, "io.k8s.A": {"type": "string"}}, "t.json")
    assert out == _layout({"$schema": "s", "properties": {"a": {"$ref": "#/$defs/b"}}, "$defs": {
        "b": {"type": "integer"}, "a": {"const": 1}, "io.k8s.A": {"type": "string"}, "io.k8s.Z": {"type": "object"}},
        "z": 1})
    assert splice(out, {"io.k8s.A": {"type": "string"}, "io.k8s.Z": {"type": "object"}}, "t.json") == out
    written = splice(_layout({"title": "caf\u00e9"}), {}, "t.json")  # ASCII, as the file was
    assert written == _layout({"title": "caf\u00e9", "$defs": {}}) and written.isascii()
    kept = json.dumps({"title": "caf\u00e9"}, indent=2, ensure_ascii=False) + "\n"
    assert "caf\u00e9" in splice(kept, {}, "t.json")  # a literal é stays literal


@pytest.mark.parametrize("text", ['{"a": 1}\n', '{\n    "a": 1\n}\n', '{\n  "a": 1e3\n}\n', "[]", "{"])
def test_splice_refuses_a_file_it_cannot_write_back_unchanged(text):
    with pytest.raises(generator().SchemaError):
        generator().splice_definitions(text, {}, "t.json")


def test_splice_writes_kubernetes_names_only():
    with pytest.raises(generator().SchemaError):
        generator().splice_definitions(_layout({}), {"spec": {}}, "t.json")


def test_patch_strategies_give_each_field_its_shape_and_strategy():
    ref = "#/components/schemas/"
    components = {
        "Pod": {"type": "object", "properties": {
            "containers": {"type": "array", "items": {"allOf": [{"$ref": ref + "Container"}]},
                           "x-kubernetes-patch-strategy": "merge,retainKeys", "x-kubernetes-patch-merge-key": "name"},
            "labels": {"type": "object", "additionalProperties": {"type": "string"}},
            "finalizers": {"type": "array", "items": {"type": "string"}, "x-kubernetes-patch-strategy": "merge"},
            "quota": {"$ref": ref + "Quantity"}}},
        "Container": {"type": "object", "properties": {"name": {"type": "string"}}},
        "Quantity": {"oneOf": [{"type": "string"}, {"type": "number"}]},
    }
    types = generator().patch_strategies(components, "Pod", "test")["types"]
    assert types == {
        "Pod": {"fields": {
            "containers": {"shape": "list", "items": {"shape": "object", "type": "Container"},
                           "patchStrategy": "merge,retainKeys", "patchMergeKey": "name"},
            "labels": {"shape": "map", "values": {"shape": "primitive", "type": "string"}},
            "finalizers": {"shape": "list", "items": {"shape": "primitive", "type": "string"}, "patchStrategy": "merge"},
            "quota": {"shape": "primitive", "type": "Quantity"}}},
        "Container": {"fields": {"name": {"shape": "primitive", "type": "string"}}},
    }
    components["Container"]["properties"]["odd"] = {"type": "object", "properties": {"x": {"type": "string"}}}
    with pytest.raises(generator().SchemaError):  # an inline object type has no name to refer to
        generator().patch_strategies(components, "Pod", "test")


# ---------------------------------------------------------------- kubeconform


def _kubeconform() -> str | None:
    return shutil.which("kubeconform") or next(
        (str(p) for p in (REPO / "bin" / "kubeconform",) if p.is_file()), None)


def test_kubeconform_reads_the_layout(tmp_path):
    """The documented -schema-location finds every schema (kubeconform comes from `make tools`)."""
    assert _kubeconform(), "kubeconform is missing: `make tools` installs it into ./bin"
    pruned = tmp_path / "valid.yaml"
    pruned.write_text(yaml.safe_dump_all([prune_nulls(d.values[0]) for d in VALID_DOCS]), encoding="utf-8")
    cmd = [_kubeconform(), "-strict", "-summary", "-schema-location", KUBECONFORM_LOCATION]
    ok = subprocess.run(cmd + [str(pruned)], cwd=REPO, capture_output=True, text=True, timeout=300)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert f"Valid: {len(VALID_DOCS)}" in ok.stdout, ok.stdout
    for path in INVALID_FILES:
        bad = subprocess.run(cmd + [str(path)], cwd=REPO, capture_output=True, text=True, timeout=300)
        assert bad.returncode == 1 and "Invalid: 1" in bad.stdout, f"{path.name}: {bad.stdout}{bad.stderr}"
