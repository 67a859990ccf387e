"""mpigen.emit.yaml_emit: deterministic YAML whose strings read back as the same strings.

yaml.safe_load is PyYAML, i.e. YAML 1.1. The module also promises that a string a YAML 1.2
(core schema) or Go reader would take for something else is quoted; that is checked separately.
"""

from __future__ import annotations

import re

import pytest
import yaml
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from mpigen.emit.yaml_emit import dump, dump_all


def same(a, b) -> bool:
    """Equality that also tells True from 1 and 1 from 1.0, and compares key order."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return a == b


TRICKY = [
    "no", "No", "NO", "n", "N", "yes", "Yes", "y", "Y", "on", "On", "ON", "off", "Off", "true", "False",
    "null", "Null", "NULL", "~", "", "1.10", "0o17", "0x1F", "0b101", "017", "1e3", "1E3", "1e+3", "-1e-3",
    ".5", "1.", "+1", "-1", "0", "1_000", ".inf", "-.Inf", ".nan", ".NaN", "12:30", "1:20:30", "2024-01-01",
    "2001-12-14t21:59:43.10-05:00", "<<", "=",
    " leading", "trailing ", "  both  ", " ", "\t", "a\tb",
    "multi\nline", "multi\nline\n", "multi\nline\n\n", "\n", "\n\nx", " indented\nfirst", "a\n b\n",
    "trailing space \nnext", "ends with space\n ", "x\r", "a\rb", "a\r\nb\r\n",
    "---", "--- x", "x\n---\ny", "...", "x\n...\ny", "# not a comment", "a #b", "a# b",
    "{{ .Values.x }}", "{a: 1}", "[1, 2]", "'single'", '"double"', "it's", 'say "hi"', "back\\slash",
    "$(rm -rf /); `id` | cat > /dev/null & echo $HOME", "a: b", "- item", "? key", ": x", "&anchor",
    "*alias", "!tag", "%YAML", "@at", "`tick`", "|", ">", ",", "-",
    "ünïcödé", "日本語", "emoji 😀", "\u00a0nbsp", "zero\u200bwidth", "\ufeffbom", "nel\x85x", "ls\u2028x",
    "ps\u2029x", "bell\x07", "nul\x00", "del\x7f",
    "x" * 300, "word " * 100,
]


@pytest.mark.parametrize("value", TRICKY)
def test_tricky_strings_round_trip_in_every_position(value):
    for obj in ({"k": value}, {value: "v"}, [value], {"outer": {"inner": [value, {"deep": value}]}}, value):
        text = dump(obj)
        assert same(yaml.safe_load(text), obj), (obj, text)


@pytest.mark.parametrize("value", TRICKY)
def test_tricky_strings_round_trip_in_multi_document_stream(value):
    docs = [{"a": value}, value, [value], {value: 1}]
    text = dump_all(docs)
    assert [d for d in yaml.safe_load_all(text)] == docs
    assert all(same(x, y) for x, y in zip(yaml.safe_load_all(text), docs))


@pytest.mark.parametrize(
    "value, text",
    [
        ("no", 'k: "no"\n'),
        ("on", 'k: "on"\n'),
        ("Off", 'k: "Off"\n'),
        ("y", 'k: "y"\n'),
        ("1.10", 'k: "1.10"\n'),
        ("0o17", 'k: "0o17"\n'),
        ("1e3", 'k: "1e3"\n'),
        ("~", 'k: "~"\n'),
        ("", 'k: ""\n'),
        ("null", 'k: "null"\n'),
        ("0x1F", 'k: "0x1F"\n'),
        ("017", 'k: "017"\n'),
        ("12:30", 'k: "12:30"\n'),
        ("2024-01-01", 'k: "2024-01-01"\n'),
        (".inf", 'k: ".inf"\n'),
        ("<<", 'k: "<<"\n'),
        ("=", 'k: "="\n'),
        ("1_000", 'k: "1_000"\n'),
        ("+1", 'k: "+1"\n'),
    ],
)
def test_ambiguous_strings_are_double_quoted(value, text):
    assert dump({"k": value}) == text


def test_ambiguous_keys_are_double_quoted():
    assert dump({"on": 1, "no": "yes", "": "", "n": 2}) == '"on": 1\n"no": "yes"\n"": ""\n"n": 2\n'


@pytest.mark.parametrize(
    "obj, text",
    [
        ({"k": "plain text"}, "k: plain text\n"),
        ({"k": "ünïcödé"}, "k: ünïcödé\n"),
        ({"k": " lead"}, "k: \" lead\"\n"),
        ({"k": "a #b"}, "k: \"a #b\"\n"),
        ({"k": "{{ x }}"}, "k: \"{{ x }}\"\n"),
        ({"k": "a\tb"}, 'k: "a\\tb"\n'),
        ({"k": "a\rb"}, 'k: "a\\rb"\n'),
        ({"m": "line1\nline2\n", "n": "line1\nline2"}, 'm: |\n  line1\n  line2\n"n": |-\n  line1\n  line2\n'),
        ({"a": [1, 2], "b": {"c": None, "d": True}}, "a:\n- 1\n- 2\nb:\n  c: null\n  d: true\n"),
        ({"e": {}, "f": []}, "e: {}\nf: []\n"),
    ],
)
def test_exact_text(obj, text):
    assert dump(obj) == text


def test_multiline_string_becomes_literal_block():
    text = dump({"script": "set -e\nmpirun -np 4 python train.py\n"})
    assert text == "script: |\n  set -e\n  mpirun -np 4 python train.py\n"


def test_long_strings_are_not_folded():
    value = "word " * 300 + "end"
    text = dump({"k": value})
    assert text.count("\n") == 1
    assert yaml.safe_load(text) == {"k": value}


def test_insertion_order_is_kept():
    obj = {"zeta": 1, "apiVersion": "v1", "kind": "X", "alpha": {"b": 1, "a": 2}}
    assert dump(obj) == "zeta: 1\napiVersion: v1\nkind: X\nalpha:\n  b: 1\n  a: 2\n"
    assert list(yaml.safe_load(dump(obj))) == ["zeta", "apiVersion", "kind", "alpha"]


def _events_with_anchors(text: str) -> list:
    return [e for e in yaml.parse(text)
            if isinstance(e, yaml.AliasEvent) or getattr(e, "anchor", None) is not None]


def test_no_anchors_or_aliases_for_shared_objects():
    shared = {"x": 1, "labels": {"app": "a"}}
    items = [1, 2]
    obj = {"a": shared, "b": shared, "c": [shared, shared], "d": items, "e": items}
    text = dump(obj)
    assert _events_with_anchors(text) == []
    assert "&" not in text and "*" not in text
    assert text == ("a:\n  x: 1\n  labels:\n    app: a\nb:\n  x: 1\n  labels:\n    app: a\n"
                    "c:\n- x: 1\n  labels:\n    app: a\n- x: 1\n  labels:\n    app: a\n"
                    "d:\n- 1\n- 2\ne:\n- 1\n- 2\n")
    text_all = dump_all([shared, shared])
    assert _events_with_anchors(text_all) == []


def test_dump_all_starts_each_document_with_separator():
    assert dump_all([{"a": 1}, {"b": 2}]) == "---\na: 1\n---\nb: 2\n"
    assert dump_all(iter([{"a": 1}])) == "---\na: 1\n"  # any iterable
    assert dump_all([]) == ""
    text = dump_all([{"a": "x\n\n"}, {"b": []}, "s"])
    assert [line for line in text.splitlines() if line.startswith("---")] == ["---", "---", "---"]
    assert text.startswith("---\n")
    assert list(yaml.safe_load_all(text)) == [{"a": "x\n\n"}, {"b": []}, "s"]


def test_dump_has_no_document_start():
    assert not dump({"a": 1}).startswith("---")


def test_output_is_identical_across_calls():
    obj = {"metadata": {"name": "j", "labels": {"z": "1", "a": "on"}},
           "spec": {"cmd": ["sh", "-c", "a\nb\n"], "n": 3, "f": 1.5, "t": True, "nil": None}}
    first = dump(obj)
    assert dump(obj) == first
    assert dump(yaml.safe_load(first)) == first
    assert dump_all([obj, obj]) == dump_all([obj, obj])


def test_scalar_types():
    assert dump({"i": 3, "neg": -4, "big": 2**63, "f": 1.5, "t": True, "fa": False, "z": None}) == (
        "i: 3\nneg: -4\nbig: 9223372036854775808\nf: 1.5\nt: true\nfa: false\nz: null\n")


# --------------------------------------------------------------------------------------------
# YAML 1.2 and Go readers
# --------------------------------------------------------------------------------------------

# YAML 1.2.2 core schema (10.3.2): plain scalars that are not strings
_CORE_12_NOT_STR = re.compile(
    r"""^(?:
        |null|Null|NULL|~|true|True|TRUE|false|False|FALSE|
        [-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+|
        [-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|
        [-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN
    )$""",
    re.VERBOSE,
)


def _plain_scalars(text: str) -> list[str]:
    """Every scalar the emitter wrote without quotes (plain style)."""
    return [e.value for e in yaml.parse(text) if isinstance(e, yaml.ScalarEvent) and e.style is None]


@pytest.mark.parametrize("value", ["0x1F", "0o17", "+1", "-1.5", ".5", "1.", "1e3", "True", "Null", ".NaN",
                                   "-.INF", "007", "0", "123456789012345678901234567890"])
def test_yaml12_non_strings_are_quoted(value):
    text = dump({"k": value})
    assert text == f'k: "{value}"\n'


@pytest.mark.parametrize(
    "value",
    [
        # Decimal integers with leading zeros and upper-case radix prefixes: YAML 1.2 and Go's readers
        # (strconv.ParseInt(s, 0)) take them for numbers.
        "08", "09", "0189", "0X1F", "0O17", "0B11",
    ],
)
def test_strings_that_go_or_yaml12_read_as_numbers_are_quoted(value):
    assert dump({"k": value}) == f'k: "{value}"\n'


# --------------------------------------------------------------------------------------------
# properties
# --------------------------------------------------------------------------------------------

_any_text = st.text(st.characters(blacklist_categories=("Cs",)), max_size=12)
_yaml_text = st.text(alphabet=st.sampled_from(list(
    "ab yYnNoOeE \n\t\r-:#'\"\\.0189xX~!&*?|>%@`{}[],_+\x85\u2028\ufeff")), max_size=10)
_texts = _any_text | _yaml_text | st.sampled_from(TRICKY)

json_like = st.recursive(
    st.none() | st.booleans() | st.integers() | _texts,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(_texts, children, max_size=4),
    max_leaves=15,
)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(json_like)
def test_property_dump_round_trips_through_safe_load(value):
    text = dump(value)
    assert same(yaml.safe_load(text), value), text
    assert dump(value) == text


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(json_like, max_size=4))
def test_property_dump_all_round_trips_through_safe_load_all(values):
    text = dump_all(values)
    loaded = list(yaml.safe_load_all(text))
    assert len(loaded) == len(values)
    assert all(same(a, b) for a, b in zip(loaded, values)), text


_numberish = st.text(alphabet=st.sampled_from(list("0123456789+-._eExXoObB")), min_size=1, max_size=6)


@settings(max_examples=500, deadline=None)
@given(st.dictionaries(_numberish, _numberish, max_size=4))
@example({"k": "08"})
def test_property_no_plain_string_is_a_yaml12_core_non_string(value):
    text = dump(value)
    assert same(yaml.safe_load(text), value)
    assert [s for s in _plain_scalars(text) if _CORE_12_NOT_STR.match(s)] == [], text


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(_numberish, _numberish, max_size=4).filter(
    lambda d: not any(re.fullmatch(r"[-+]?0[0-9_]*[89][0-9_]*", s) for kv in d.items() for s in kv)))
def test_property_no_plain_yaml12_non_string_apart_from_known_bug(value):
    # the same property with the known leading-zero-decimal bug ('08') filtered out, so that any
    # other gap in the quoting rules still fails this suite
    text = dump(value)
    assert [s for s in _plain_scalars(text) if _CORE_12_NOT_STR.match(s)] == [], text


@given(st.text(alphabet=st.characters(codec=None, min_codepoint=0, max_codepoint=0x10FFFF)))
@example('"\\\n\r\t\b\f\x00\x1f\x7f\u2028\ud800')
def test_double_quoted_scalars_use_json_escapes(text: str) -> None:
    """The emitter escapes as ``json.dumps(ensure_ascii=False)`` does (without importing json),
    then escapes YAML's own non-printables, and the scalar reads back as the same string."""
    import json

    from mpigen.emit.yaml_emit import _JSON_ESCAPES, _quoted

    assert '"' + text.translate(_JSON_ESCAPES) + '"' == json.dumps(text, ensure_ascii=False)
    if not any(0xD800 <= ord(c) <= 0xDFFF for c in text):  # lone surrogates cannot be encoded to read back
        assert yaml.safe_load(_quoted(text)) == text
