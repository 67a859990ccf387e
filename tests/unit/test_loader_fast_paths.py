"""The loader's shortcuts give what PyYAML's safe loader gives, and documents know their nulls.

mpigen.load.yaml_loader remembers the implicit tag of each plain scalar and the value of each
number, boolean and null it reads; the composer's path-resolver hooks are replaced by no-ops.
None of it may change a single tag, value or position.
"""

from __future__ import annotations

import pickle

import pytest
import yaml

from mpigen.load import yaml_loader
from mpigen.load.yaml_loader import Document, load_text

SCALARS = ["", "~", "null", "Null", "true", "yes", "No", "on", "OFF", "y", "n", "0", "-12", "0x1F", "0o17", "017",
           "1_000", "1.5", "-.inf", ".NaN", "1e3", "6.8523015e+5", "190:20:30", "12:30", "2001-12-14",
           "2001-12-14t21:59:43.10-05:00", "<<", "=", "abc", "1.10", "0b101", "+1", "v1", "-", "8Gi"]


def _tags(text: str, loader: type) -> list[tuple[str, str]]:
    out = []
    for node in yaml.compose_all(text, Loader=loader):
        stack = [node]
        while stack:
            item = stack.pop()
            if isinstance(item, yaml.ScalarNode):
                out.append((item.tag, item.value))
            elif isinstance(item, yaml.SequenceNode):
                out.append((item.tag, "[]"))
                stack.extend(item.value)
            elif isinstance(item, yaml.MappingNode):
                out.append((item.tag, "{}"))
                stack.extend(n for pair in item.value for n in pair)
    return out


def test_remembered_tags_are_the_safe_loaders() -> None:
    plain = [x for x in SCALARS if x not in ("-", "<<", "=")]
    text = "\n".join(f"k{i}: {x}\nq{i}: '{x}'\nl{i}:\n- {x}\n- \"{x}\"" for i, x in enumerate(plain))
    text += "\nm: {a: 1}\ns: [1, 2]\n"
    first = _tags(text, yaml_loader._Loader)
    again = _tags(text, yaml_loader._Loader)  # now from memory
    assert first == again == _tags(text, yaml.SafeLoader)


def test_remembered_values_are_equal_and_of_the_same_type() -> None:
    text = "\n".join(f"k{i}: {s}" for i, s in enumerate(SCALARS) if s not in ("-", "<<", "=", "-.inf", ".NaN"))
    expected = yaml.safe_load(text)
    for _ in range(2):
        data = load_text(text, "f.yaml").documents[0].data
        for key, value in expected.items():
            if isinstance(value, str) or hasattr(value, "year"):
                continue  # timestamps stay text in mpigen, by design
            assert type(data[key]) is type(value) and data[key] == value, key


@pytest.mark.parametrize("text, nulls", [
    ("a: 1\nb: [x, 2]\n", False),
    ("a: ~\n", True),
    ("a:\n", True),
    ("a: [1, null]\n", True),
    ("a: 'null'\n", False),
    ("a: !!null ''\n", True),
])
def test_documents_know_whether_they_hold_a_null(text: str, nulls: bool) -> None:
    assert load_text(text, "f.yaml").documents[0].has_nulls is nulls


def test_merge_keys_still_merge_when_present() -> None:
    data = load_text("base: &b {x: 1, y: 2}\nmine:\n  <<: *b\n  y: 3\n", "f.yaml").documents[0].data
    assert data["mine"] == {"x": 1, "y": 3}
    assert load_text("a: '<<'\nb: {c: 1}\n", "f.yaml").documents[0].data == {"a": "<<", "b": {"c": 1}}


def test_document_compares_prints_and_pickles_like_the_dataclass_it_was() -> None:
    doc = load_text("a: 1\n", "f.yaml").documents[0]
    same = load_text("a: 1\n", "f.yaml").documents[0]
    assert doc == same and doc is not same
    assert doc != load_text("a: 2\n", "f.yaml").documents[0]
    assert pickle.loads(pickle.dumps(doc)) == doc
    assert repr(doc).startswith("Document(data={'a': 1}, index=0, line=1, positions=")
    bare = Document(data=None, index=0, line=7)
    assert (bare.positions, bare.key_positions, bare.plain, bare.has_nulls) == ({}, {}, {}, True)
    result = load_text("a: 1\n", "f.yaml")
    assert result == load_text("a: 1\n", "f.yaml") and "LoadResult(documents=[Document(" in repr(result)


MERGES_AND_DUPLICATES = """\
base: &b {x: 1, y: [1, 2]}
m:
  <<: *b
  y: 3
  z: 4
  z: 5
list:
- {a: 1}
- [b, c]
"""


@pytest.mark.parametrize("text", [MERGES_AND_DUPLICATES, "a: 1\n---\nb:\n  c: [1, {d: 2}]\n", "[1, 2]\n"])
def test_positions_are_computed_when_first_asked_and_equal_the_eager_walk(text: str) -> None:
    """The loader reads data without recording positions; a document computes them from its
    nodes on first use, the same as recording them while reading (the builder's other mode)."""
    result = load_text(text, "f.yaml")
    for doc in result.documents:
        assert doc._locator is not None  # nothing located yet
    nodes = [n for n in yaml.compose_all(text, Loader=yaml_loader._Loader) if n is not None]
    for doc, node in zip(result.documents, nodes):
        eager = yaml_loader._Builder("f.yaml")
        eager.merges = True
        assert eager.build(node, ()) == doc.data
        assert (doc.positions, doc.key_positions) == (eager.positions, eager.key_positions)
        assert doc._locator is None  # computed once, the nodes let go
        assert pickle.loads(pickle.dumps(doc)) == doc


def test_a_duplicate_key_names_the_line_of_the_first_without_recorded_positions() -> None:
    result = load_text(MERGES_AND_DUPLICATES, "f.yaml")
    [duplicate] = [d for d in result.diagnostics if d.code == "yaml-duplicate-key"]
    assert (duplicate.line, duplicate.path) == (6, "m.z")
    assert "first at line 5" in duplicate.message


def test_a_document_too_deep_to_locate_places_everything_at_its_start(monkeypatch) -> None:
    """The second walk runs deeper in the stack than the first: if it overflows, no position is
    known, and locate() falls back to the document's line instead of failing."""
    original = yaml_loader._Builder.build

    def build(self, node, path):
        if self.record:
            raise RecursionError("maximum recursion depth exceeded")
        return original(self, node, path)

    monkeypatch.setattr(yaml_loader._Builder, "build", build)
    doc = load_text("---\na:\n  b: 1\n", "f.yaml").documents[0]
    assert (doc.positions, doc.key_positions) == ({}, {})
    assert doc.locate(("a", "b")) == (2, 1)
