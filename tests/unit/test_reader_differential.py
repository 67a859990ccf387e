"""The reader against today's reader: the same documents and the same diagnostics.

:func:`mpigen.load.yaml_loader.iter_text` reads a JSON text as JSON (:mod:`mpigen.load.json_reader`)
when that gives what PyYAML's composer and the builder give; :func:`compose_text` is that
composer path, kept as the reference. For every input here both must give the same diagnostics
(file, line, column, path, code, message) and the same documents: the data with its types and
key order (``repr``), index, line, ``plain``, ``has_nulls``, every position and key position,
and :meth:`Document.locate` of every path and of paths that do not exist, asked before any
position is computed (the JSON reader finds them in the text then). Each text is also read by the
JSON reader an item of ``items`` at a time (what the cluster reader does with a large list): the
same answer as its whole read.

Inputs: every YAML and JSON file of specs/, golden/ and tests/cases/ as it is; each of their
documents written as JSON the ways tools write it (compact, indented with ``\\u`` escapes, and
all of a file's documents in one ``kind: List`` as ``kubectl get -o json`` prints it); JSON texts
that YAML reads otherwise or not at all; and, generated, the fuzz suite's values written as JSON
and damaged by its mutations (tests/fuzz/strategies.py).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mpigen.load.document import Document, LoadResult
from mpigen.load.json_reader import read_json
from mpigen.load.yaml_loader import compose_text, decode, load_text
from tests.fuzz import strategies as S

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted({*ROOT.glob("specs/**/*.yaml"), *ROOT.glob("golden/**/*.yaml"), *ROOT.glob("tests/cases/**/*.yaml"),
                *ROOT.glob("tests/cases/**/*.json")})


def reference(text: str, name: str) -> LoadResult:
    documents, diagnostics = [], []
    for item in compose_text(text, name):
        (documents if isinstance(item, Document) else diagnostics).append(item)
    return LoadResult(documents, diagnostics)


def _paths(doc: Document) -> list[tuple]:
    """Every path of the document, and beside each a child that does not exist."""
    out = []
    for path in doc.positions:
        out += [path, path + ("no-such-key",), path + (10**6,)]
    return out


def same(text: str, name: str = "in.json") -> bool:
    """Assert that the reader and the reference agree on ``text``; whether the JSON reader read it."""
    expected = reference(text, name)
    got = load_text(text, name)
    assert got.diagnostics == expected.diagnostics
    assert len(got.documents) == len(expected.documents)
    read_as_json = False
    for doc, ref in zip(got.documents, expected.documents):
        read_as_json |= doc._finder is not None
        for path in _paths(ref):  # before doc.positions: a JSON document finds each in its text
            for key in (False, True):
                assert doc.locate(path, key) == ref.locate(path, key), (path, key)
        assert repr(doc.data) == repr(ref.data)
        assert (doc.index, doc.line, doc.plain, doc.has_nulls) == (ref.index, ref.line, ref.plain, ref.has_nulls)
        assert (doc.positions, doc.key_positions) == (ref.positions, ref.key_positions)
    same_item_by_item(text, name)
    return read_as_json


def same_item_by_item(text: str, name: str) -> None:
    """The JSON reader gives the same answer when it reads an object's ``items`` one at a time
    (``keep_item``, as the cluster reader asks: here each item kept whole) as when it reads the
    text whole: the same data, or None for both."""
    def slow() -> Document:
        return next(doc for doc in reference(text, name).documents)

    whole, by_item = read_json(text, 0, slow), read_json(text, 0, slow, keep_item=lambda item: item)
    assert (whole is None) == (by_item is None)
    if whole is not None and by_item is not None:
        assert repr(by_item.data) == repr(whole.data)
        assert (by_item.line, by_item.has_nulls, by_item.plain) == (whole.line, whole.has_nulls, whole.plain)


def _texts(path: Path) -> str | None:
    text, _ = decode(path.read_bytes(), path.name)
    return text


def json_forms(documents: list[Any]) -> list[str]:
    """The documents written as JSON as tools write it."""
    out = []
    for data in documents:
        out.append(json.dumps(data, separators=(",", ":"), ensure_ascii=False))
        out.append(json.dumps(data, indent=4) + "\n")
    out.append(json.dumps({"apiVersion": "v1", "items": documents, "kind": "List", "metadata": {"resourceVersion": ""}},
                          indent=4) + "\n")
    return out


def test_the_corpus_is_there() -> None:
    assert len(FILES) >= 900  # specs, goldens and the tests' cases: a moved folder must not empty the test


def test_every_file_as_it_is_and_written_as_json() -> None:
    as_json = read = 0
    for path in FILES:
        text = _texts(path)
        if text is None:
            continue
        read += same(text, path.name)
        documents = [doc.data for doc in reference(text, path.name).documents]
        for form in json_forms(documents) if documents else []:
            read += same(form, path.name)
            as_json += 1
    assert as_json >= 2000
    assert read >= as_json * 0.95  # the JSON reader answered for (almost) every JSON form


LONG_KEY = "k" * 1100
HAZARDS = [
    # numbers as YAML 1.1 reads them
    '{"a": 1e5, "b": 1.5e3, "c": 1.5E+3, "d": 1.50, "e": -0, "f": -0.0, "g": 0.1, "h": 12345678901234567890}',
    '[NaN, Infinity, -Infinity, 1.0e+999, 2]', '{"a": 1.0e+400}', '{"a": -1.0e+400}', '[1.5e-3, 2.0E-2]',
    '{"a": [-0]}', '{"a": "x-0", "b": 0}', '{"a": 1.0}', '{"a": 100.0, "b": 1e-07}',
    '{"a": %s}' % ("9" * 5000),
    # what YAML reads otherwise, or refuses
    '{"a": 1, "a": 2}', '{"a": {"b": 1, "b": 1}}', '[{"x": 1}, {"x": 2, "y": 3, "x": 4}]',
    '{"a": "{\\"k\\":1,\\"k\\":2}", "b": 1}', '{"a\\\\": 1, "b": "\\\\\\":"}', '{"a": "\\\\\\":", "a": 2}',
    '{"a"\n: 1}', '{"a" : 1}', '{"a"  :1, "a" : 2}', '{"a"\r\n: 1}', '{"a"\r: 1}', '{"a": 1,\r"b": 2}',
    '{"a":\t1}', '\t{"a": 1}', '{\n\t"a": 1}', '{"a": 1}\t',
    '{"a": "\\ud83d\\ude00"}', '{"a": "\\uD83D"}', '{"a": "\\u00e9\\u0000\\u001f"}', '{"a": "\\/\\b\\f\\n\\r\\t"}',
    '{"a": "\x7f"}', '{"a": "\x85"}', '{"a": "x\u2028y"}', '{"a": "\u2029"}', '{"a": "\x9f"}', '{"a": "\ufffe"}',
    '{"\u2028":null}', '{"a\u2029": 1}',  # a line break in a key: YAML's syntax error, not JSON's key
    '{"a": "é ü 日本 😀"}', '{"é": {"ü": [1, "日本"]}}',
    '{"%s": 1}' % LONG_KEY, '{"a": {"%s": 1}}' % ("k" * 1020), '{"%s": 1}' % ("k" * 490),
    '{"%s": 1}' % ("\\u00e9" * 170), '{"%s": 1}' % ("\\u00e9" * 150), '{"%s": 1}' % ("日" * 1100),
    '{"%s": 1}' % ("日" * 400),
    '{"a": "%s"}' % ("v" * 5000),
    # nesting about the limit
    *('[' * n + ']' * n for n in (198, 199, 200, 201, 202, 203)),
    *('[' * n + '1' + ']' * n for n in (198, 199, 200, 201)),
    *('{"a":' * n + '{}' + '}' * n for n in (197, 198, 199, 200, 201)),
    '[' * 6000 + ']' * 6000,
    # not JSON, or not one JSON document
    '{}', '[]', '{} ', '\n\n  {"a": 1}\n\n', '"a"', '1', 'null', '', '{a: 1}', '[1, 2,]', '{"a": 1} # c',
    '{"a": 1}\n---\n{"b": 2}', '{"a": 1}\n...\n', '---\n{"a": 1}', '%YAML 1.1\n---\n{"a": 1}', '{"a": 1}}',
    '{"a": [1, 2}', '{"a": tru}', '\ufeff{"a": 1}', '{"a": &x 1, "b": *x}', '{"a": !!str 1}',
    '{"on": "y", "y": "n", "key": y}', '[y, n, "y", on, "on"]', '{"a": "1\\n2"}',
    '{"a":1}\r\n', '\r{"a": 1}', '\r\n\r\n{"a": 1}', '\n\r{"a": 1}', '{\r\n  "a": 1,\r\n  "b": [\r\n    2\r\n  ]\r\n}\r\n', '{\r  "a": 1\r}',
    '{"apiVersion": "v1", "kind": "List", "items": [{"kind": "Node", "metadata": {"name": "n", "x": null}}]}',
    # an object's items, which the cluster reader reads one at a time
    '{"items": [1, {"a": null}, [], {}, null, "x", 1.5, 1e5], "kind": "List"}', '{"items": []}', '{ "items" :[1]}',
    '{"items": [1,]}', '{"items": [1] , "items": [2]}', '{"items": {"a": 1}}', '{"items": [1] 2}', '{"items": [1]}}',
    '{"items":[{"a":1,"a":2}]}', '{"items": [%s]}' % ('[' * 198 + ']' * 198),
    '{"items": [%s]}' % ('[' * 196 + ']' * 196),
    '{"a": 1,}', '{,"a": 1}', '{"a" 1}', '{"items": [1 2]}', '{"items": [,1]}', '{"items": "x"}', '{"items": [1]} ',
    '{"items": [{"%s": 1}]}' % ("k" * 1020), '{"items": [1.0e+999]}', '{"items": [-0]}', '{"a": {}, "items": [[]]}',
    '{"items": [{"kind": "Pod", "spec": {"containers": [{"resources": {"limits": {"cpu": 1.50}}}]}}]}',
]


@pytest.mark.parametrize("text", HAZARDS, ids=range(len(HAZARDS)))
def test_hazards(text: str) -> None:
    same(text)


def test_the_hazards_that_are_json_read_as_json_where_the_same() -> None:
    """The JSON reader answers for the plain cases among them (the test is not vacuous)."""
    assert same('{"a": 1e5, "b": 1.5e3, "c": 1.5E+3, "d": 1.50, "e": -0, "f": -0.0, "g": 0.1}')
    assert same('{"a": "{\\"k\\":1,\\"k\\":2}", "b": 1}')  # duplicates inside a string are none
    assert same('{"a": "\\u00e9\\u0000\\u001f"}')
    assert same('[' * 197 + ']' * 197)
    assert not same('{"a": 1, "a": 2}') and not same('{"a"\n: 1}') and not same('[' * 201 + ']' * 201)


def test_the_shape_taken_item_by_item_is_the_whole_texts() -> None:
    """What the JSON reader checks (the count of keys, the deepest container, the names, a null),
    gathered an item at a time, is what it gathers of the whole text."""
    from mpigen.load.json_reader import _object_with_items, _Shape

    texts = [text for text in HAZARDS if text.startswith("{") and _loads(text) is not None]
    assert len(texts) >= 20
    for text in texts:
        whole, by_item = _Shape(), _Shape()
        whole.add(_loads(text))
        _object_with_items(text, 0, json.JSONDecoder(), lambda item: item, by_item)
        assert vars(by_item) == vars(whole), text


def _loads(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return None


def _json_of(value: Any, style: int) -> bytes:
    if style == 0:
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    if style == 1:
        return json.dumps(value, indent=2).encode("utf-8")
    return json.dumps({"kind": "List", "items": [value, {"a": value}]}, indent=4, ensure_ascii=False).encode("utf-8")


JSON_SOURCES = [form.encode("utf-8") for path in FILES[::25] for text in [_texts(path)] if text is not None
                for form in json_forms([doc.data for doc in reference(text, path.name).documents])[:2]]

json_texts = st.one_of(
    st.builds(_json_of, S.values, st.integers(0, 2)),
    st.builds(_json_of, S.values, st.integers(0, 2)).flatmap(lambda raw: S.damage(raw)),
    S.mutated_yaml_bytes(JSON_SOURCES),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(raw=json_texts)
def test_generated_and_damaged_json(raw: bytes) -> None:
    text, _ = decode(raw, "in.json")
    if text is not None:
        same(text)


def test_a_json_file_past_the_yaml_limit_is_read_as_json(monkeypatch: pytest.MonkeyPatch) -> None:
    """A JSON text is held to MAX_JSON_BYTES (a large cluster's kubectl get -o json), a YAML one to
    MAX_BYTES, and so is a JSON text that the JSON reader leaves to the YAML reader."""
    from mpigen.load import yaml_loader

    monkeypatch.setattr(yaml_loader, "MAX_BYTES", 200)
    big = json.dumps({"kind": "List", "items": [{"name": f"n{i}"} for i in range(20)]}, indent=4).encode()
    assert len(big) > 200
    result = yaml_loader.load_bytes(big, "c.json")
    assert result.diagnostics == [] and result.documents[0].data["items"][19] == {"name": "n19"}
    as_yaml = yaml_loader.load_bytes(b"kind: List\nitems:\n" + b"".join(b"- name: n%d\n" % i for i in range(20)), "c.yaml")
    assert [d.code for d in as_yaml.diagnostics] == ["file-too-large"] and not as_yaml.documents
    duplicate = yaml_loader.load_bytes(big[:-1] + b', "kind": "List"}', "c.json")
    assert [(d.code, d.message[:9]) for d in duplicate.diagnostics] == [("file-too-large", "file has ")]
    monkeypatch.setattr(yaml_loader, "MAX_JSON_BYTES", 300)
    assert [d.code for d in yaml_loader.load_bytes(big + b" " * 300, "c.json").diagnostics] == ["file-too-large"]
