"""mpigen.emit.yaml_emit.iter_dump_all: the text of dump_all, in pieces, in bounded memory."""

from __future__ import annotations

import tracemalloc

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mpigen.emit import yaml_emit
from mpigen.emit.yaml_emit import Lines, dump, dump_all, iter_dump_all
from tests.unit.test_yaml_emit import TRICKY, json_like


@settings(max_examples=200)
@given(st.lists(json_like, max_size=5), st.booleans())
def test_property_stream_is_dump_all(values, shared) -> None:
    assert "".join(iter_dump_all(values, shared=shared)) == dump_all(values)


@settings(max_examples=100)
@given(st.lists(json_like, max_size=3))
def test_property_shared_parts_are_written_as_dump_writes_them(values) -> None:
    """The same list or dict object in several places and documents, at different depths."""
    docs = [{"a": values, "b": [values, {"c": values}], "d": {"e": values}}, values, {"x": [[values]]}]
    assert "".join(iter_dump_all(docs, shared=True)) == dump_all(docs)


def _literal_texts() -> list[str]:
    """Texts dump writes as a literal block, of non-empty lines: what a Lines value stands for."""
    texts = ["a\nb\n", "one line\n", "x slots=1\n  indented: later\n", "h:1\n" * 50, "- item\n# not a comment\n",
             *[t + "\n" for t in TRICKY if "\n" not in t]]
    return [t for t in texts if all(t[:-1].split("\n")) and dump({"k": t}).startswith("k: |")]


@pytest.mark.parametrize("text", _literal_texts())
@pytest.mark.parametrize("where", ["value", "item", "root", "nested"])
def test_lines_are_written_as_the_text_would_be(text: str, where: str) -> None:
    lines = text[:-1].split("\n")

    def place(value):
        return {"value": {"k": value}, "item": [value, "x"], "root": value,
                "nested": {"a": [{"b": value, "c": 1}]}}[where]

    assert "".join(iter_dump_all([place(Lines(lines)), place(Lines(lines))])) == dump_all([place(text)] * 2)


def test_no_lines_is_the_empty_string() -> None:
    assert "".join(iter_dump_all([{"k": Lines([])}, Lines([])])) == dump_all([{"k": ""}, ""])


@pytest.mark.parametrize("line", ["", " lead", "trail ", "\ttab", "a\nb", "bell\x07"])
def test_a_line_a_literal_block_cannot_hold_is_refused(line: str) -> None:
    with pytest.raises(ValueError):
        "".join(iter_dump_all([{"k": Lines([line])}]))


def test_a_later_line_may_start_with_a_space() -> None:
    assert "".join(iter_dump_all([{"k": Lines(["a", " b"])}])) == dump_all([{"k": "a\n b\n"}])


def test_memory_does_not_grow_with_the_lines_or_the_documents() -> None:
    """Peak memory for 200,000 lines and 20,000 generated documents, against 2,000 and 200."""
    def peak(n: int) -> int:
        template = {"spec": {"containers": [{"name": "c", "args": ["x"] * 20}]}}

        def docs():
            yield {"kind": "ConfigMap", "data": {"hostfile": Lines(f"host-{i}.example slots=1" for i in range(n))}}
            for i in range(n // 10):
                yield {"kind": "Pod", "metadata": {"name": f"p-{i}"}, "spec": template["spec"]}

        tracemalloc.start()
        try:
            size = sum(len(chunk) for chunk in iter_dump_all(docs(), shared=True))
            return tracemalloc.get_traced_memory()[1], size
        finally:
            tracemalloc.stop()

    small, small_size = peak(2_000)
    large, large_size = peak(200_000)
    assert large_size > 90 * small_size  # the output does grow ...
    assert large < small + 512 * 1024, (small, large)  # ... the memory does not (the caches are capped)


def test_formatting_is_done_once_per_distinct_string(monkeypatch: pytest.MonkeyPatch) -> None:
    """Per-index documents cost the formatting of what differs between them, not of all they hold."""
    calls = 0
    original = yaml_emit._plain_ok

    def counting(text: str) -> bool:
        nonlocal calls
        calls += 1
        return original(text)

    monkeypatch.setattr(yaml_emit, "_plain_ok", counting)
    shared = {"containers": [{"name": "c", "image": "i", "env": [{"name": f"E{i}", "value": "v"} for i in range(30)]}]}
    docs = ({"kind": "Pod", "metadata": {"name": f"p-{i}"}, "spec": shared} for i in range(1_000))
    text = "".join(iter_dump_all(docs, shared=True))
    assert text.count("kind: Pod") == 1_000
    assert calls < 1_000 * 2 + 100  # the name of each; the rest once
