"""mpigen.load.yaml_loader: safe YAML -> plain data, with 1-based positions of keys and values.

Every problem must come back as a Diagnostic (exact code, exact line/column); nothing may raise
or execute for bad input.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import textwrap

import pytest

from mpigen.diagnostics import Severity
from mpigen.load import yaml_loader
from mpigen.load.yaml_loader import Document, load_bytes, load_text

F = "in.yaml"


def _codes(result) -> list[str]:
    return [d.code for d in result.diagnostics]


def _only(result, code: str):
    """The single diagnostic of ``result``, which must have ``code``."""
    assert [d.code for d in result.diagnostics] == [code], [d.format() for d in result.diagnostics]
    return result.diagnostics[0]


# --------------------------------------------------------------------------------------------
# positions
# --------------------------------------------------------------------------------------------

MULTI = (
    "first: 1\n"                          # 1
    "---\n"                               # 2
    "kind: A\n"                           # 3
    "spec:\n"                             # 4
    "  items:\n"                          # 5
    "  - name: x\n"                       # 6
    "    value: 10\n"                     # 7
    "  - [a, b]\n"                        # 8
    "---\n"                               # 9
    "# comment\n"                         # 10
    "meta:\n"                             # 11
    '  labels: {app: web, tier: "db"}\n'  # 12
    "list:\n"                             # 13
    "  - 1\n"                             # 14
    "  -   - nested\n"                    # 15
)


def test_multi_document_data_index_and_line():
    result = load_text(MULTI, F)
    assert result.diagnostics == []
    assert [d.data for d in result.documents] == [
        {"first": 1},
        {"kind": "A", "spec": {"items": [{"name": "x", "value": 10}, ["a", "b"]]}},
        {"meta": {"labels": {"app": "web", "tier": "db"}}, "list": [1, ["nested"]]},
    ]
    assert [d.index for d in result.documents] == [0, 1, 2]
    assert [d.line for d in result.documents] == [1, 3, 11]


def test_positions_second_document_nested_maps_and_lists():
    doc = load_text(MULTI, F).documents[1]
    assert doc.positions == {
        (): (3, 1),
        ("kind",): (3, 7),
        ("spec",): (5, 3),
        ("spec", "items"): (6, 3),
        ("spec", "items", 0): (6, 5),
        ("spec", "items", 0, "name"): (6, 11),
        ("spec", "items", 0, "value"): (7, 12),
        ("spec", "items", 1): (8, 5),
        ("spec", "items", 1, 0): (8, 6),
        ("spec", "items", 1, 1): (8, 9),
    }
    assert doc.key_positions == {
        ("kind",): (3, 1),
        ("spec",): (4, 1),
        ("spec", "items"): (5, 3),
        ("spec", "items", 0, "name"): (6, 5),
        ("spec", "items", 0, "value"): (7, 5),
    }


def test_positions_third_document_flow_map_and_nested_block_list():
    doc = load_text(MULTI, F).documents[2]
    assert doc.positions == {
        (): (11, 1),
        ("meta",): (12, 3),
        ("meta", "labels"): (12, 11),
        ("meta", "labels", "app"): (12, 17),
        ("meta", "labels", "tier"): (12, 28),
        ("list",): (14, 3),
        ("list", 0): (14, 5),
        ("list", 1): (15, 7),
        ("list", 1, 0): (15, 9),
    }
    assert doc.key_positions == {
        ("meta",): (11, 1),
        ("meta", "labels"): (12, 3),
        ("meta", "labels", "app"): (12, 12),
        ("meta", "labels", "tier"): (12, 22),
        ("list",): (13, 1),
    }


def test_locate_value_and_key():
    doc = load_text(MULTI, F).documents[1]
    assert doc.locate(("spec", "items", 0, "value")) == (7, 12)
    assert doc.locate(("spec", "items", 0, "value"), key=True) == (7, 5)
    # a list item has no key: key=True falls back to its value position
    assert doc.locate(("spec", "items", 1, 0), key=True) == (8, 6)


def test_locate_falls_back_to_nearest_existing_ancestor():
    doc = load_text(MULTI, F).documents[1]
    assert doc.locate(("spec", "items", 0, "missing")) == (6, 5)
    assert doc.locate(("spec", "items", 7, "x", 3)) == (6, 3)
    assert doc.locate(("spec", "nope")) == (5, 3)
    assert doc.locate(("nope", "deeper")) == (3, 1)
    assert doc.locate(()) == (3, 1)
    # key=True: the nearest ancestor that is a key gives its key position
    assert doc.locate(("spec", "nope", "deeper"), key=True) == (4, 1)
    # the path may be any sequence, not only a tuple
    assert doc.locate(["spec", "items", 0, "name"]) == (6, 11)


def test_locate_without_positions_is_document_start():
    doc = Document(data=None, index=0, line=7)
    assert doc.locate(("a", "b")) == (7, 1)
    assert doc.locate(("a",), key=True) == (7, 1)


# --------------------------------------------------------------------------------------------
# duplicate keys
# --------------------------------------------------------------------------------------------

def test_duplicate_key_reported_at_second_key_first_value_kept():
    result = load_text("a: 1\nb:\n  c: 1\n  d: 0\n  c: 2\n", F)
    diag = _only(result, "yaml-duplicate-key")
    assert (diag.file, diag.line, diag.column, diag.path) == (F, 5, 3, "b.c")
    assert diag.severity is Severity.ERROR
    assert "first at line 3" in diag.message
    assert [d.data for d in result.documents] == [{"a": 1, "b": {"c": 1, "d": 0}}]


def test_duplicate_key_top_level_and_flow():
    diag = _only(load_text("x: 1\nz: 2\nx: 3\n", F), "yaml-duplicate-key")
    assert (diag.line, diag.column, diag.path) == (3, 1, "x")
    diag = _only(load_text("m: {k: 1, j: 2, k: 3}\n", F), "yaml-duplicate-key")
    assert (diag.line, diag.column, diag.path) == (1, 17, "m.k")


def test_duplicate_key_in_third_document():
    result = load_text("a: 1\n---\nb: 2\n---\nc: 1\nd: 2\nc: 3\n", F)
    diag = _only(result, "yaml-duplicate-key")
    assert (diag.line, diag.column, diag.path) == (7, 1, "c")


def test_keys_that_differ_only_in_resolved_type_are_duplicates_by_text():
    # keys keep their text: `1` and `"1"` are the same key in a Kubernetes object
    diag = _only(load_text('1: a\n"1": b\n', F), "yaml-duplicate-key")
    assert (diag.line, diag.column) == (2, 1)


# --------------------------------------------------------------------------------------------
# tags: never construct anything
# --------------------------------------------------------------------------------------------

def test_python_object_tag_is_refused_and_not_executed(tmp_path, monkeypatch):
    marker = tmp_path / "marker"
    calls = []
    monkeypatch.setattr(os, "system", lambda *a, **k: calls.append(a) or 0)
    text = (
        "ok: 1\n"
        f"run: !!python/object/apply:os.system ['touch {marker}']\n"
    )
    result = load_text(text, F)
    diag = _only(result, "yaml-tag")
    assert (diag.line, diag.column, diag.path) == (2, 6, "run")
    assert "python/object/apply:os.system" in diag.message
    assert result.documents == []
    assert calls == []
    assert not marker.exists()


def test_python_object_tag_not_executed_for_real(tmp_path):
    # no monkeypatching here: a real os.system would create the file
    marker = tmp_path / "marker"
    for text in (
        f"a: !!python/object/apply:os.system ['touch {marker}']\n",
        f"a: !!python/object/apply:subprocess.call [[touch, '{marker}']]\n",
        "a: !!python/name:os.system\n",
        "a: !!python/object/new:builtins.exec [\"open(r'%s', 'w')\"]\n" % marker,
    ):
        result = load_text(text, F)
        assert _codes(result) == ["yaml-tag"], text
        assert result.documents == []
    assert not marker.exists()


@pytest.mark.parametrize(
    "text, pos, path",
    [
        ("a: !Ref foo\n", (1, 4), "a"),
        ("a:\n  b: !Ref {x: 1}\n", (2, 6), "a.b"),
        ("a: !Ref [1, 2]\n", (1, 4), "a"),
        ("!Ref root\n", (1, 1), ""),
        ("!Ref k: 1\n", (1, 1), ""),
        ("a: !!set {x}\n", (1, 4), "a"),
        ("a: !!omap [x: 1]\n", (1, 4), "a"),
    ],
)
def test_custom_and_non_plain_tags_are_yaml_tag_errors(text, pos, path):
    result = load_text(text, F)
    diag = _only(result, "yaml-tag")
    assert (diag.line, diag.column) == pos
    assert diag.path == path
    assert result.documents == []


def test_tag_error_drops_only_its_document():
    result = load_text("a: 1\n---\nb: !Ref x\n---\nc: 3\n", F)
    diag = _only(result, "yaml-tag")
    assert diag.line == 3
    assert [d.data for d in result.documents] == [{"a": 1}, {"c": 3}]
    assert [d.index for d in result.documents] == [0, 2]


def test_standard_tags_are_accepted():
    result = load_text("a: !!str 12\nb: !!int '7'\nc: !!binary aGk=\nd: !!map {x: 1}\ne: !!seq [1]\n", F)
    assert result.diagnostics == []
    assert result.documents[0].data == {"a": "12", "b": 7, "c": "aGk=", "d": {"x": 1}, "e": [1]}


# --------------------------------------------------------------------------------------------
# aliases: bombs, recursion
# --------------------------------------------------------------------------------------------

def _billion_laughs() -> str:
    lines = ["lol0: &lol0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    for i in range(1, 10):
        lines.append(f"lol{i}: &lol{i} [" + ", ".join([f"*lol{i - 1}"] * 10) + "]")
    return "\n".join(lines) + "\n"


def test_alias_bomb_is_refused_before_expansion(monkeypatch):
    built = [0]
    original = yaml_loader._Builder.build

    def counting(self, node, path):
        built[0] += 1
        return original(self, node, path)

    monkeypatch.setattr(yaml_loader._Builder, "build", counting)
    text = "ok: 1\n---\n" + _billion_laughs() + "---\nafter: 2\n"
    result = load_text(text, F)
    diag = _only(result, "yaml-too-large")
    assert diag.severity is Severity.ERROR
    # the bomb (10**10 nodes) is absent, the documents around it are kept
    assert [d.data for d in result.documents] == [{"ok": 1}, {"after": 2}]
    # nothing of the bomb document was expanded: only the two small documents were built
    # ({"ok": 1}: mapping + value; {"after": 2}: mapping + value)
    assert built[0] == 4
    # the diagnostic points into the bomb (document 2 starts on line 3)
    assert diag.line is not None and 3 <= diag.line <= 12


def test_aliases_below_the_limit_are_expanded():
    result = load_text("a: &a [1, 2]\nb: [*a, *a]\nc: &c {x: *a}\nd: *c\n", F)
    assert result.diagnostics == []
    assert result.documents[0].data == {
        "a": [1, 2], "b": [[1, 2], [1, 2]], "c": {"x": [1, 2]}, "d": {"x": [1, 2]},
    }


@pytest.mark.parametrize(
    "text, pos",
    [
        ("a: &a [1, *a]\n", (1, 4)),
        ("a: &a {b: *a}\n", (1, 4)),
        ("x: 0\na: &a\n  b:\n    c: *a\n", (2, 4)),  # a block node starts at its anchor
        ("a: &a {<<: *a}\n", (1, 4)),
    ],
)
def test_recursive_alias(text, pos):
    result = load_text(text, F)
    diag = _only(result, "yaml-recursive-alias")
    assert (diag.line, diag.column) == pos
    assert result.documents == []


def test_recursive_alias_keeps_other_documents():
    result = load_text("a: 1\n---\nb: &b [*b]\n---\nc: 3\n", F)
    assert _codes(result) == ["yaml-recursive-alias"]
    assert [d.data for d in result.documents] == [{"a": 1}, {"c": 3}]


# --------------------------------------------------------------------------------------------
# nesting depth
# --------------------------------------------------------------------------------------------

def test_deep_flow_nesting_is_a_diagnostic_not_an_exception():
    text = "[" * 1000 + "]" * 1000 + "\n"
    result = load_text(text, F)
    diag = _only(result, "yaml-too-deep")
    assert (diag.line, diag.column) == (1, 202)  # the first node deeper than 200 levels
    assert result.documents == []


def test_deep_block_mapping_nesting_is_a_diagnostic():
    text = "".join("  " * i + f"k{i}:\n" for i in range(400))
    result = load_text(text, F)
    diag = _only(result, "yaml-too-deep")
    assert diag.line == 201
    assert result.documents == []


def test_moderate_nesting_loads():
    result = load_text("[" * 100 + "1" + "]" * 100 + "\n", F)
    assert result.diagnostics == []
    data = result.documents[0].data
    for _ in range(100):
        assert isinstance(data, list) and len(data) == 1
        data = data[0]
    assert data == 1


_DEEP_SCRIPT = textwrap.dedent(
    """
    import json, sys
    from mpigen.load.yaml_loader import load_text
    n = int(sys.argv[1])
    r = load_text("[" * n + "]" * n, "in.yaml")
    print(json.dumps([[d.code, d.line] for d in r.diagnostics] + [len(r.documents)]))
    """
)


def _run_deep(n: int) -> subprocess.CompletedProcess:
    def limit_stack():  # the usual 8 MiB default, whatever the test machine has
        resource.setrlimit(resource.RLIMIT_STACK, (8 * 1024 * 1024, 8 * 1024 * 1024))

    return subprocess.run([sys.executable, "-c", _DEEP_SCRIPT, str(n)], capture_output=True, text=True,
                          timeout=300, preexec_fn=limit_stack, cwd=os.path.dirname(os.path.dirname(
                              os.path.dirname(os.path.abspath(__file__)))))


def test_deep_nesting_in_subprocess_control():
    proc = _run_deep(10_000)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == [["yaml-too-deep", 1], 0]


def test_absurd_nesting_does_not_crash_the_process():
    proc = _run_deep(200_000)
    assert proc.returncode == 0, f"rc={proc.returncode} {proc.stderr[-500:]}"
    assert json.loads(proc.stdout) == [["yaml-too-deep", 1], 0]


def _nested(n: int, inner: str) -> str:
    return "[" * n + inner + "]" * n


def test_depth_limit_also_counts_nesting_through_aliases():
    text = f"a: &a {_nested(150, '1')}\nb: {_nested(150, '*a')}\n"
    result = load_text(text, F)
    assert _codes(result) == ["yaml-too-deep"]
    assert result.diagnostics[0].line in (1, 2)
    assert result.documents == []


def test_alias_depth_explosion_keeps_later_documents_and_has_a_line():
    deep = (f"a: &a {_nested(150, '1')}\nb: &b {_nested(150, '*a')}\n"
            f"c: &c {_nested(150, '*b')}\nd: {_nested(150, '*c')}\n")
    result = load_text("first: 1\n---\n" + deep + "---\nlater: 2\n", F)
    assert _codes(result) == ["yaml-too-deep"]
    assert result.diagnostics[0].line is not None
    assert [d.data for d in result.documents] == [{"first": 1}, {"later": 2}]


# --------------------------------------------------------------------------------------------
# syntax errors, encodings, line ends
# --------------------------------------------------------------------------------------------

def test_syntax_error_keeps_earlier_documents_and_reports_line():
    result = load_text("a: 1\n---\nb: 2\n  c: 3\n", F)
    diag = _only(result, "yaml-syntax")
    assert (diag.file, diag.line, diag.column) == (F, 4, 4)
    assert "mapping values are not allowed" in diag.message
    assert [d.data for d in result.documents] == [{"a": 1}]


def test_syntax_error_in_third_document():
    result = load_text("a: 1\n---\nb: 2\n---\nc: [1, 2\n", F)
    diag = _only(result, "yaml-syntax")
    assert diag.line == 6
    assert [d.data for d in result.documents] == [{"a": 1}, {"b": 2}]


def test_syntax_error_in_first_document():
    result = load_text("a: 1\nb: [1, 2]]\n", F)
    diag = _only(result, "yaml-syntax")
    assert (diag.line, diag.column) == (2, 10)
    assert result.documents == []


def test_tab_indentation_is_a_syntax_error_with_line():
    diag = _only(load_text("a: 1\n\tb: 2\n", F), "yaml-syntax")
    assert diag.line == 2


@pytest.mark.parametrize("text, line, column", [
    ("a: 1\n\tb: 2\n", 2, 1),  # "found character that cannot start any token"
    ("a:\n  b: 1\n\t c: 2\n", 3, 1),  # "found a tab character that violates indentation"
    ("a:\n  b: 1\n \tc: 2\n", 3, 2),  # a tab after a space in the indentation
    ("metadata:\n  name: x\ndata:\n  a: \"x\"\t\n\tb: y\n", 5, 1),
])
def test_a_tab_is_called_a_tab(text: str, line: int, column: int):
    """PyYAML never says "tab" when a tab starts a token; the message says what to write."""
    diag = _only(load_text(text, F), "yaml-syntax")
    assert (diag.line, diag.column) == (line, column)
    assert diag.message.startswith("a tab: YAML indents with spaces only; replace the tab with spaces ("), diag.message


def test_a_tab_inside_a_value_is_no_error_and_other_errors_do_not_say_tab():
    assert load_text('a: "x\ty"\nb: [1,\t2]\nc: d\te\n', F).diagnostics == []
    diag = _only(load_text("a: 1\nb: [1, 2]]\n", F), "yaml-syntax")
    assert "tab" not in diag.message


def test_control_character_is_reported_with_its_line():
    result = load_bytes(b"a: 1\nb: x\x00y\n", F)
    diag = _only(result, "yaml-syntax")
    assert (diag.line, diag.column) == (2, 5)


def test_utf8_bom_is_accepted_and_does_not_shift_columns():
    result = load_bytes(b"\xef\xbb\xbfa: 1\nb: caf\xc3\xa9\n", F)
    assert result.diagnostics == []
    doc = result.documents[0]
    assert doc.data == {"a": 1, "b": "café"}
    assert doc.key_positions[("a",)] == (1, 1)
    assert doc.positions[("a",)] == (1, 4)
    assert doc.positions[("b",)] == (2, 4)


def test_non_utf8_is_yaml_encoding_with_line_and_column():
    result = load_bytes(b"a: 1\nb: 2\nc: caf\xe9\n", F)
    diag = _only(result, "yaml-encoding")
    assert (diag.file, diag.line, diag.column, diag.path) == (F, 3, 7, "")
    assert "0xe9" in diag.message
    assert result.documents == []


def test_non_utf8_at_line_start():
    diag = _only(load_bytes(b"a: 1\n\xff\n", F), "yaml-encoding")
    assert (diag.line, diag.column) == (2, 1)
    assert "0xff" in diag.message


def test_non_utf8_after_bom_reports_the_right_line_and_byte():
    diag = _only(load_bytes(b"\xef\xbb\xbfa: 1\n\xff\n", F), "yaml-encoding")
    assert (diag.line, diag.column) == (2, 1)
    assert "0xff" in diag.message


def test_non_utf8_column_counts_characters():
    diag = _only(load_bytes(b"b: \xc3\xa9\xff\n", F), "yaml-encoding")
    assert (diag.line, diag.column) == (1, 5)


def test_crlf_line_ends_keep_line_numbers():
    raw = b"a: 1\r\nb:\r\n  c: 2\r\n  d: [u, v]\r\n---\r\ne: 3\r\n"
    result = load_bytes(raw, F)
    assert result.diagnostics == []
    first, second = result.documents
    assert first.data == {"a": 1, "b": {"c": 2, "d": ["u", "v"]}}
    assert first.positions[("b", "c")] == (3, 6)
    assert first.positions[("b", "d", 1)] == (4, 10)
    assert first.key_positions[("b", "d")] == (4, 3)
    assert second.data == {"e": 3}
    assert (second.line, second.positions[("e",)]) == (6, (6, 4))


def test_crlf_duplicate_key_line():
    diag = _only(load_bytes(b"a: 1\r\nb: 2\r\na: 3\r\n", F), "yaml-duplicate-key")
    assert diag.line == 3


def test_empty_input_and_empty_documents():
    assert load_text("", F).documents == []
    assert load_text("", F).diagnostics == []
    result = load_text("# only a comment\n", F)
    assert result.documents == [] and result.diagnostics == []
    result = load_text("---\n---\na: 1\n", F)
    assert result.diagnostics == []
    assert [d.data for d in result.documents] == [None, {"a": 1}]


# --------------------------------------------------------------------------------------------
# merge keys
# --------------------------------------------------------------------------------------------

def test_merge_key_own_keys_win():
    text = "base: &base {a: 1, b: 2}\nm1:\n  <<: *base\n  b: 3\n  c: 4\nm2:\n  b: 5\n  <<: *base\n"
    result = load_text(text, F)
    assert result.diagnostics == []
    data = result.documents[0].data
    assert data["m1"] == {"a": 1, "b": 3, "c": 4}
    assert data["m2"] == {"a": 1, "b": 5}
    assert data["base"] == {"a": 1, "b": 2}


def test_merge_key_list_earlier_source_wins():
    text = "px: &x {k: 1, only_x: 1}\npy: &y {k: 2, only_y: 2}\nm:\n  <<: [*x, *y]\n"
    data = load_text(text, F).documents[0].data
    assert data["m"] == {"k": 1, "only_x": 1, "only_y": 2}


def test_merge_key_own_value_position():
    text = "base: &base {a: 1}\nm:\n  <<: *base\n  b: 3\n"
    doc = load_text(text, F).documents[0]
    assert doc.positions[("m", "b")] == (4, 6)
    assert doc.key_positions[("m", "b")] == (4, 3)


def test_merge_key_positions_follow_the_value_that_won():
    text = "base: &base {a: 1, x: 9}\nm:\n  a: 2\n  <<: *base\n"
    doc = load_text(text, F).documents[0]
    assert doc.data["m"] == {"a": 2, "x": 9}
    assert doc.positions[("m", "a")] == (3, 6)
    assert doc.key_positions[("m", "a")] == (3, 3)
    text = "p: &p {k: 1}\nq: &q {k: 2}\nm:\n  <<: [*p, *q]\n"
    doc = load_text(text, F).documents[0]
    assert doc.data["m"] == {"k": 1}
    assert doc.positions[("m", "k")] == (1, 11)


def test_merge_of_a_non_mapping_is_yaml_merge():
    result = load_text("s: &s [1]\nm:\n  <<: *s\n", F)
    diag = _only(result, "yaml-merge")
    # a sequence is read as a list of sources: its first item is not a mapping
    assert (diag.line, diag.column, diag.path) == (1, 8, "m")
    result = load_text("m:\n  <<: [{a: 1}, 3]\n", F)
    diag = _only(result, "yaml-merge")
    assert (diag.line, diag.column) == (2, 16)


def test_quoted_merge_key_is_a_plain_key():
    data = load_text('m:\n  "<<": {a: 1}\n', F).documents[0].data
    assert data == {"m": {"<<": {"a": 1}}}


# --------------------------------------------------------------------------------------------
# scalars
# --------------------------------------------------------------------------------------------

def test_yaml11_booleans_and_plain_scalars():
    text = (
        "a: on\nb: yes\nc: off\nd: no\ne: On\nf: YES\ng: True\nh: false\n"
        "i: 42\nj: -7\nk: 1.5\nl: ~\nm: null\nnn:\no: 'on'\np: \"yes\"\nq: 0o17\nr: 1e3\n"
    )
    result = load_text(text, F)
    assert result.diagnostics == []
    data = result.documents[0].data
    assert data == {
        "a": True, "b": True, "c": False, "d": False, "e": True, "f": True, "g": True, "h": False,
        "i": 42, "j": -7, "k": 1.5, "l": None, "m": None, "nn": None, "o": "on", "p": "yes",
        "q": "0o17", "r": "1e3",
    }
    assert type(data["a"]) is bool and type(data["i"]) is int and type(data["k"]) is float


def test_keys_keep_their_text():
    data = load_text("on: 1\n1: 2\n~: 3\nnull: 4\nyes: 5\n", F).documents[0].data
    assert data == {"on": 1, "1": 2, "~": 3, "null": 4, "yes": 5}
    assert all(type(k) is str for k in data)


def test_timestamps_stay_strings():
    text = ("a: 2024-01-01\nb: 2001-12-14t21:59:43.10-05:00\nc: 2001-12-14 21:59:43.10 -5\n"
            "d: !!timestamp 2020-01-01\n")
    data = load_text(text, F).documents[0].data
    assert data == {"a": "2024-01-01", "b": "2001-12-14t21:59:43.10-05:00",
                    "c": "2001-12-14 21:59:43.10 -5", "d": "2020-01-01"}
    assert all(type(v) is str for v in data.values())


@pytest.mark.parametrize("value", [".nan", ".NaN", ".inf", "-.inf", "+.Inf", "!!float .nan", "1.0e+400"])
def test_non_finite_numbers_are_yaml_value(value):
    result = load_text(f"x: 1\ny: {value}\n", F)
    diag = _only(result, "yaml-value")
    assert (diag.line, diag.column, diag.path) == (2, 4, "y")
    assert result.documents == []


def test_bad_explicit_int_is_yaml_value():
    diag = _only(load_text("a: !!int abc\n", F), "yaml-value")
    assert (diag.line, diag.column, diag.path) == (1, 4, "a")


# `!!int ''`, `!!float ''`, `!!int _` used to raise IndexError and `!!bool maybe` KeyError
@pytest.mark.parametrize("value", ["!!int ''", "!!float ''", "!!int _", "!!bool maybe"])
def test_bad_explicit_scalars_are_diagnostics_not_exceptions(value):
    result = load_text(f"a: {value}\n", F)
    diag = _only(result, "yaml-value")
    assert (diag.line, diag.column, diag.path) == (1, 4, "a")


def test_non_scalar_key_is_yaml_key():
    diag = _only(load_text("? [a]\n: 1\n", F), "yaml-key")
    assert (diag.line, diag.column) == (1, 3)
    diag = _only(load_text("m:\n  {a: 1}: x\n", F), "yaml-key")
    assert diag.line == 2


def test_diagnostics_carry_the_filename():
    result = load_text("a: !Ref x\n", "some/dir/spec.yaml")
    assert result.diagnostics[0].file == "some/dir/spec.yaml"
    assert result.diagnostics[0].format().startswith("some/dir/spec.yaml:1:4: error yaml-tag ")


def test_file_too_large(monkeypatch):
    monkeypatch.setattr(yaml_loader, "MAX_BYTES", 10)
    result = load_bytes(b"a: 123456789\n", F)
    assert _codes(result) == ["file-too-large"]
    assert result.documents == []


def test_a_large_document_without_aliases_is_no_alias_bomb(monkeypatch):
    """An ``&`` in a string of a large document (a cluster's List of nodes and pods) made the alias
    check count the document's own nodes against the limit: only what aliases add counts."""
    from mpigen.load import builder

    monkeypatch.setattr(builder, "MAX_NODES", 100)
    text = 'note: "a&b"\nitems:\n' + "".join(f"- n{i}\n" for i in range(300))
    result = load_text(text, F)
    assert result.diagnostics == [] and len(result.documents[0].data["items"]) == 300
    bomb = "a: &a [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\nb: [" + ", ".join(["*a"] * 20) + "]\n"
    assert [d.code for d in load_text(bomb, F).diagnostics] == ["yaml-too-large"]
