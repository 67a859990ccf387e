"""Stage 1, load: a composed YAML node graph -> plain data, with the position of every key and
value when asked.

Safe by construction: only the standard scalar, mapping and sequence tags are accepted (a tag
that would construct an object is an error, never executed), duplicate keys are errors, aliases
are expanded only up to a bounded number of nodes (an "alias bomb" is refused before it is
expanded), recursive aliases and absurd nesting are refused.
"""

from __future__ import annotations

import math
from typing import Any

import yaml

from ..diagnostics import Diagnostic, Severity, format_path
from .document import Path, Position
from .resolve import (_GO_YAML_BOOLS, _MAP_TAGS, _MERGE_TAG, _SCALAR_TAGS, _SEQ_TAGS, _STR_TAG, _TEXT_TAGS,
                      _construct, _json_key, _MappingNode, _ScalarNode, _SequenceNode, bool_key_note,
                      bool_value_note, duplicate_key_note, not_finite_note, sent_key_note, unreadable_note)

MAX_NODES = 250_000
"""Nodes aliases may add to one document, each use counted in full (a document without aliases
is held to the size of its text only)."""
MAX_DEPTH = 200
"""Nesting depth of mappings and sequences in one document."""


class _Problem(Exception):
    def __init__(self, code: str, message: str, mark: Any, path: Path):
        super().__init__(message)
        self.code, self.message, self.mark, self.path = code, message, mark, path


def _diag(filename: str, code: str, message: str, mark: Any = None, path: Path = (),
          severity: Severity = Severity.ERROR, offset: int = 0) -> Diagnostic:
    line = mark.line + 1 + offset if mark is not None else None
    col = mark.column + 1 if mark is not None else None
    return Diagnostic(filename, line, col, format_path(path), code, severity, message)



def _locator(node: yaml.Node, filename: str, merges: bool, offset: int) -> Any:
    """The positions of a document, computed from its nodes when first asked: the same walk
    again, recording them. It succeeded once, so it finds no problem; but it runs deeper in the
    stack than the first, and a document nested (through merge keys) to just below the
    interpreter's limit may overflow it: then no position is known and every path is placed at
    the document's start, rather than the run failing."""

    def locate() -> tuple[dict[Path, Position], dict[Path, Position]]:
        builder = _Builder(filename, offset=offset)
        builder.merges = merges
        try:
            builder.build(node, ())
        except RecursionError:
            return {}, {}
        return builder.positions, builder.key_positions

    return locate


class _Builder:
    """Turns one composed node graph into plain data, recording positions unless told not to
    (``record=False``: :class:`Document` computes them from the nodes when first asked)."""

    def __init__(self, filename: str, record: bool = True, offset: int = 0):
        self.filename = filename
        self.record = record
        self.offset = offset  # lines before the text (a piece of a large file)
        self.positions: dict[Path, Position] = {}
        self.key_positions: dict[Path, Position] = {}
        self.plain: dict[Path, str] = {}
        self.diagnostics: list[Diagnostic] = []
        self.has_nulls = False
        self.merges = True  # False when the text has no merge key (<<) at all

    def check_size(self, root: yaml.Node) -> None:
        """Refuse alias bombs, recursive aliases and deep nesting before anything is expanded.

        Sizes and heights are remembered per node, so a node shared through aliases costs one
        visit, yet every place it is used is counted in full and checked for depth. A subtree is
        refused when its expanded size passes the count of nodes visited so far by more than
        :data:`MAX_NODES`: then aliases alone add that many. (Not its size alone: a large List of a
        cluster's nodes and pods with an ``&`` in some string was refused for its own nodes.)
        """
        sizes: dict[int, tuple[int, int]] = {}  # id -> (expanded size, height)
        active: set[int] = set()

        def measure(node: yaml.Node, depth: int) -> tuple[int, int]:
            key = id(node)
            if depth > MAX_DEPTH:
                raise _Problem("yaml-too-deep", f"YAML nesting is deeper than {MAX_DEPTH} levels",
                               node.start_mark, ())
            if key in sizes:
                size, height = sizes[key]
            elif key in active:
                raise _Problem("yaml-recursive-alias", "an alias refers to a node that contains it",
                               node.start_mark, ())
            else:
                size, height = 1, 0
                if isinstance(node, (yaml.MappingNode, yaml.SequenceNode)):
                    active.add(key)
                    children = node.value if isinstance(node, yaml.SequenceNode) else \
                        [n for pair in node.value for n in pair]
                    for child in children:
                        child_size, child_height = measure(child, depth + 1)
                        size += child_size
                        height = max(height, child_height + 1)
                        if size - len(sizes) - len(active) > MAX_NODES:
                            raise _Problem("yaml-too-large",
                                           f"document expands to more than {MAX_NODES} nodes "
                                           "(aliases are counted each time they are used)", node.start_mark, ())
                    active.discard(key)
                sizes[key] = (size, height)
            if depth + height > MAX_DEPTH:  # reached again through an alias, deeper than before
                raise _Problem("yaml-too-deep", f"YAML nesting is deeper than {MAX_DEPTH} levels "
                               "(through an alias)", node.start_mark, ())
            return size, height

        measure(root, 0)

    def _pos(self, node: yaml.Node) -> Position:
        return (node.start_mark.line + 1 + self.offset, node.start_mark.column + 1)

    def build(self, node: yaml.Node, path: Path) -> Any:
        if len(path) > MAX_DEPTH:
            raise _Problem("yaml-too-deep", f"YAML nesting is deeper than {MAX_DEPTH} levels",
                           node.start_mark, path[:MAX_DEPTH])
        if self.record and path not in self.positions:
            mark = node.start_mark
            self.positions[path] = (mark.line + 1 + self.offset, mark.column + 1)
        cls = node.__class__
        if cls is _ScalarNode:
            return self._scalar(node, path)
        if cls is _SequenceNode:
            if node.tag not in _SEQ_TAGS:
                raise self._bad_tag(node, path)
            build = self.build
            if self.record or len(path) >= MAX_DEPTH:
                return [build(child, path + (i,)) for i, child in enumerate(node.value)]
            return [child.value if child.__class__ is _ScalarNode and child.tag == _STR_TAG
                    and (child.style or child.value not in _GO_YAML_BOOLS)  # a string, read as build would
                    else build(child, path + (i,)) for i, child in enumerate(node.value)]
        if cls is _MappingNode:
            if node.tag not in _MAP_TAGS:
                raise self._bad_tag(node, path)
            return self._mapping(node, path)
        raise _Problem("yaml-syntax", "unexpected YAML node", node.start_mark, path)  # pragma: no cover

    def _bad_tag(self, node: yaml.Node, path: Path) -> _Problem:
        return _Problem("yaml-tag", f"tag {node.tag!r} is not allowed: mpigen reads plain data only "
                        "(strings, numbers, booleans, null, mappings, sequences)", node.start_mark, path)

    def _scalar(self, node: yaml.ScalarNode, path: Path) -> Any:
        tag = node.tag
        if tag not in _SCALAR_TAGS:
            raise self._bad_tag(node, path)
        if tag in _TEXT_TAGS:
            if not node.style and node.value in _GO_YAML_BOOLS:
                self.diagnostics.append(_diag(
                    self.filename, "yaml-bool",
                    bool_value_note(node.value), node.start_mark, path, Severity.WARNING, offset=self.offset))
                self.plain[path] = node.value  # what kubectl sends is a boolean: see kubectl_reads
            return node.value
        try:
            value = _construct(node)
        except (yaml.YAMLError, ValueError, IndexError, KeyError, TypeError, OverflowError) as exc:
            # PyYAML's constructors fail in many ways on explicit tags (`!!int ''`, `!!bool maybe`)
            raise _Problem("yaml-value", unreadable_note(node.value, tag, exc), node.start_mark, path) from None
        if isinstance(value, float) and not math.isfinite(value):
            raise _Problem("yaml-value", not_finite_note(node.value), node.start_mark, path)
        if not node.style:  # plain (the C parser says '', the Python one None)
            self.plain[path] = node.value
        if value is None:
            self.has_nulls = True
        return value

    def _key(self, node: yaml.Node, path: Path) -> str:
        if not isinstance(node, yaml.ScalarNode):
            raise _Problem("yaml-key", "a mapping key must be a plain string, not a mapping or sequence",
                           node.start_mark, path)
        if node.tag not in _SCALAR_TAGS:
            raise self._bad_tag(node, path)
        # Keys are strings in Kubernetes objects; a key such as `on` or `1.10` keeps its text here,
        # but kubectl (YAML 1.1) would send it as "true" or "1.1": warn where the two differ.
        if not node.style and node.value in _GO_YAML_BOOLS:
            self.diagnostics.append(_diag(
                self.filename, "yaml-key",
                bool_key_note(node.value), node.start_mark, path + (node.value,), Severity.WARNING,
                offset=self.offset))
        elif not node.style and not node.tag.endswith(("str", "timestamp")):
            try:
                value = _construct(node)
            except Exception:  # an unreadable key: kept as text, reported with the value below
                value = node.value
            sent = _json_key(value)
            if sent != node.value:
                self.diagnostics.append(_diag(
                    self.filename, "yaml-key",
                    sent_key_note(node.value, sent), node.start_mark, path + (node.value,), Severity.WARNING,
                offset=self.offset))
        return node.value

    def _mapping(self, node: yaml.MappingNode, path: Path) -> dict[str, Any]:
        own_pairs = node.value
        sources: list[yaml.Node] = []
        if self.merges and any(key_node.tag == _MERGE_TAG for key_node, _ in own_pairs):
            own_pairs = [(k, v) for k, v in node.value if k.tag != _MERGE_TAG]
            for key_node, value_node in node.value:
                if key_node.tag == _MERGE_TAG:
                    sources += value_node.value if isinstance(value_node, yaml.SequenceNode) else [value_node]
        merged: dict[str, Any] = {}
        # Earlier merge sources win (YAML 1.1), own keys win over all: build the losers first so
        # that the positions recorded last are those of the values kept.
        for source in reversed(sources):
            if not isinstance(source, yaml.MappingNode):
                raise _Problem("yaml-merge", "a merge key (<<) needs a mapping or a list of mappings",
                               source.start_mark, path)
            merged.update(self._mapping(source, path))
        result: dict[str, Any] = {}  # own keys only until the merged ones are added below
        key_positions, positions, build, record = self.key_positions, self.positions, self.build, self.record
        deep = len(path) + 1 > MAX_DEPTH
        for key_node, value_node in own_pairs:
            if key_node.__class__ is _ScalarNode and key_node.tag == _STR_TAG \
                    and key_node.value not in _GO_YAML_BOOLS:
                key = key_node.value  # the common case of _key: a plain or quoted string
            else:
                key = self._key(key_node, path)
            if not record and key not in result and value_node.__class__ is _ScalarNode \
                    and value_node.tag == _STR_TAG and (value_node.style or value_node.value not in _GO_YAML_BOOLS):
                if deep:
                    raise _Problem("yaml-too-deep", f"YAML nesting is deeper than {MAX_DEPTH} levels",
                                   key_node.start_mark, path)
                result[key] = value_node.value  # a string, read as build would read it
                continue
            child = path + (key,)
            key_mark = key_node.start_mark
            if key in result:
                first = key_positions[child] if record else self._pos(next(
                    k for k, _ in own_pairs if k.value == key))  # the first such key (keys are their text)
                self.diagnostics.append(_diag(
                    self.filename, "yaml-duplicate-key",
                    duplicate_key_note(key, first[0]), key_mark, child, offset=self.offset))
                continue
            if deep:
                raise _Problem("yaml-too-deep", f"YAML nesting is deeper than {MAX_DEPTH} levels",
                               key_mark, path)
            if record:
                key_positions[child] = (key_mark.line + 1 + self.offset, key_mark.column + 1)
                mark = value_node.start_mark
                positions[child] = (mark.line + 1 + self.offset, mark.column + 1)
            result[key] = build(value_node, child)
        for key, value in merged.items():
            result.setdefault(key, value)
        return result
