"""mpigen.spec.schema.schema_problems: each kind of jsonschema-rs error, explained in mpigen's words
at the path of the value (or of the key) it is about.

The schemas here are small ones of each keyword (the Kubernetes schemas are exercised by the
schema, golden and validate cases); ``load_schema`` is replaced for the test's names only.
"""

from __future__ import annotations

from typing import Any

import pytest

from mpigen.spec import schema as schema_module
from mpigen.spec import schema_formats

DRAFT = "https://json-schema.org/draft/2020-12/schema"
TOYS: dict[str, dict[str, Any]] = {
    "toy/object_v1.json": {
        "$schema": DRAFT, "type": "object", "additionalProperties": False, "required": ["name"],
        "properties": {
            "name": {"type": "string", "minLength": 1, "maxLength": 5},
            "code": {"type": "string", "minLength": 3},
            "mode": {"type": "string", "enum": ["Always", "Never"]},
            "fixed": {"const": "v1"},
            "count": {"type": "integer", "minimum": 0, "maximum": 10},
            "above": {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1},
            "maybe": {"type": ["string", "null"]},
            "items": {"type": "array", "minItems": 1, "maxItems": 2},
            "labels": {"type": "object", "propertyNames": {"pattern": "^[a-z]+$"}},
            "some": {"type": "object", "minProperties": 1},
            "pair": {"type": "object", "minProperties": 2},
            "image": {"type": "string", "pattern": "^[a-z/]+$", "description": "an image name"},
            "size": {"anyOf": [{"type": "integer"}, {"type": "string"}]},
            "shaped": {"oneOf": [{"type": "string"}, {"$ref": "#/$defs/Port"}]},
            "port": {"$ref": "#/$defs/Port"},
            "even": {"type": "integer", "multipleOf": 2},
        },
        "$defs": {"Port": {"type": "object", "additionalProperties": False, "required": ["number"],
                           "properties": {"number": {"type": "integer"}, "protocol": {"type": "string"}}}},
    },
}


@pytest.fixture(autouse=True)
def toys(monkeypatch: pytest.MonkeyPatch):
    real = schema_module.load_schema
    for module in (schema_module, schema_formats):
        monkeypatch.setattr(module, "load_schema", lambda name: TOYS.get(name) or real(name))
    schema_module.fast_validator_for.cache_clear()
    schema_formats.format_tree.cache_clear()
    yield
    schema_module.fast_validator_for.cache_clear()
    schema_formats.format_tree.cache_clear()


HINT = "; YAML read an unquoted value as a non-string: write it in quotes"


def problems(instance: dict[str, Any], **kwargs: Any) -> list[tuple[tuple, str, str, bool]]:
    return sorted(schema_module.schema_problems({"name": "a", **instance}, "toy/object_v1.json", **kwargs))


@pytest.mark.parametrize("instance, expected", [
    ({"mdoe": "Always"}, (("mdoe",), "unknown-field", "unknown field 'mdoe' (did you mean 'mode'?); known fields: "
                                     "above, code, count, even, fixed, image, items, labels, maybe, mode, name, pair, "
                                     "port, shaped, size, some", True)),
    ({"name": ""}, (("name",), "schema", "must not be empty", False)),
    ({"name": "abcdefg"}, (("name",), "schema", "is 7 characters long; at most 5 are allowed", False)),
    ({"code": "a"}, (("code",), "schema", "is 1 characters long; at least 3 are needed", False)),
    ({"mode": "always"}, (("mode",), "schema", 'a string "always" is not allowed (did you mean Always?); choose one '
                                               "of: Always, Never", False)),
    ({"fixed": "v2"}, (("fixed",), "schema", "must be 'v1', got a string \"v2\"", False)),
    ({"count": -1}, (("count",), "schema", "must be at least 0, got -1", False)),
    ({"count": 11}, (("count",), "schema", "must be at most 10, got 11", False)),
    ({"above": 0}, (("above",), "schema", "must be more than 0, got 0", False)),
    ({"above": 1}, (("above",), "schema", "must be less than 1, got 1", False)),
    ({"maybe": 3}, (("maybe",), "schema", "expected a string or null, got an integer 3" + HINT, False)),  # in order
    ({"items": []}, (("items",), "schema", "needs at least 1 item(s)", False)),
    ({"items": [1, 2, 3]}, (("items",), "schema", "has 3 items; at most 2 are allowed", False)),
    ({"labels": {"Bad": "x"}}, (("labels", "Bad"), "schema", '"Bad" is not a valid name here (names must match '
                                                             "^[a-z]+$)", True)),
    ({"some": {}}, (("some",), "schema", "must not be empty", False)),
    ({"pair": {"a": 1}}, (("pair",), "schema", "needs at least 2 field(s)", False)),
    ({"image": "A:1"}, (("image",), "schema", 'a string "A:1" is not valid here (it must match ^[a-z/]+$): an image '
                                             "name", False)),
    ({"size": [1]}, (("size",), "schema", "expected an integer or a string, got a list", False)),
    ({"port": {"number": "80"}}, (("port", "number"), "schema", 'expected an integer, got a string "80"; write the '
                                                                "number without quotes", False)),
    ({"port": {}}, (("port",), "missing-field", "missing required field 'number'", True)),
])
def test_each_kind_of_error_is_explained(instance, expected):
    assert problems(instance) == [expected]


def test_a_missing_required_field_is_said_at_its_mapping():
    assert schema_module.schema_problems({"code": "abc"}, "toy/object_v1.json") == [
        ((), "missing-field", "missing required field 'name'", True)]


def test_a_value_of_one_branch_s_shape_is_explained_within_that_branch():
    """oneOf of a string and a Port (through $ref): a mapping is a Port, so what is wrong in it is said."""
    assert problems({"shaped": {"number": 80, "protcol": "TCP"}}) == [
        (("shaped", "protcol"), "unknown-field", "unknown field 'protcol' (did you mean 'protocol'?); known fields: "
                                                  "number, protocol", True)]
    assert problems({"shaped": 80}) == [(("shaped",), "schema", "expected a string or a mapping, got an integer 80"
                                         + HINT, False)]


def test_every_problem_is_reported():
    found = problems({"name": "", "count": -1, "mdoe": "x", "port": {}})
    assert [(path, code) for path, code, _, _ in found] == [
        (("count",), "schema"), (("mdoe",), "unknown-field"), (("name",), "schema"), (("port",), "missing-field")]


def test_skip_leaves_out_what_the_caller_handles():
    assert problems({"count": None, "maybe": 1}, skip=lambda path, value: value is None) == [
        (("maybe",), "schema", "expected a string or null, got an integer 1" + HINT, False)]


def test_a_keyword_mpigen_has_no_words_for_keeps_the_library_s_message():
    [(path, code, message, key)] = problems({"even": 3})
    assert (path, code, key) == (("even",), "schema", False) and "multiple of 2" in message


def test_a_valid_object_has_no_problem():
    assert problems({"count": 3, "labels": {"app": "x"}, "shaped": "s", "port": {"number": 1}}) == []
