"""Stage 1, load: YAML text -> plain data, with the line and column of every key and value.

Safe by construction: only the standard scalar, mapping and sequence tags are accepted (a tag
that would construct an object is an error, never executed), duplicate keys are errors, aliases
are expanded only up to a bounded number of nodes (an "alias bomb" is refused before it is
expanded), recursive aliases and absurd nesting are refused. Every problem is a Diagnostic with
a position; nothing here raises for bad input.

Scalars follow YAML 1.1 as PyYAML and Kubernetes' own YAML reader resolve them (so ``on`` is a
boolean), except that timestamps stay strings, as they do when Kubernetes converts YAML to JSON.
"""

from __future__ import annotations

import math
from typing import Any, Iterator

import yaml

from ..diagnostics import Diagnostic, Severity, format_path
from .document import Document, LoadResult, Path, Position  # noqa: F401 (the loader's result types)
from .scan import nesting_beyond_parser

try:  # the C parser is several times faster; both give the same nodes
    _BaseLoader = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - PyYAML built without libyaml
    _BaseLoader = yaml.SafeLoader

_ScalarNode, _SequenceNode, _MappingNode = yaml.ScalarNode, yaml.SequenceNode, yaml.MappingNode
_DEFAULT_SCALAR_TAG = _BaseLoader.DEFAULT_SCALAR_TAG
_DEFAULT_MAPPING_TAG = _BaseLoader.DEFAULT_MAPPING_TAG
_DEFAULT_SEQUENCE_TAG = _BaseLoader.DEFAULT_SEQUENCE_TAG
_TAGS: dict[str, str] = {}  # plain scalar text -> its implicit tag, remembered across documents
_TAGS_MAX = 65_536


class _Loader(_BaseLoader):  # type: ignore[misc,valid-type]
    """The safe loader, with the tag of each plain scalar remembered.

    The composer asks the resolver for the tag of every node; a manifest says ``name``,
    ``image`` or ``"1"`` over and over, and each answer took a scan of the resolvers' regular
    expressions. The answers are those of the safe loader's own :meth:`resolve` (it has no path
    resolvers, so the composer's descend and ascend steps do nothing).
    """

    def resolve(self, kind: Any, value: Any, implicit: Any) -> str:
        if kind is _ScalarNode:
            if not implicit[0]:
                return _DEFAULT_SCALAR_TAG
            tag = _TAGS.get(value)
            if tag is None:
                tag = super().resolve(kind, value, implicit)
                if len(_TAGS) < _TAGS_MAX and len(value) <= 256:
                    _TAGS[value] = tag
            return tag
        return _DEFAULT_MAPPING_TAG if kind is _MappingNode else _DEFAULT_SEQUENCE_TAG

    def __init__(self, stream: Any):
        super().__init__(stream)
        # The composer calls these two for every node, for path resolvers, of which there are
        # none: built-in callables that take the same arguments and do nothing that matters
        # cost less than any Python method.
        self.descend_resolver = slice  # type: ignore[method-assign]  # (parent, index) -> a slice
        self.ascend_resolver = tuple  # type: ignore[method-assign]  # () -> the empty tuple


if _BaseLoader.yaml_path_resolvers:  # pragma: no cover - nothing in mpigen adds one
    _Loader = _BaseLoader  # type: ignore[misc]

MAX_BYTES = 64 * 1024 * 1024
"""A file larger than this is refused (a clear limit rather than an exhausted machine)."""
MAX_NODES = 250_000
"""Nodes one document may expand to, aliases counted each time they are used."""
MAX_DEPTH = 200
"""Nesting depth of mappings and sequences in one document."""


_TAG = "tag:yaml.org,2002:"
_SCALAR_TAGS = {f"{_TAG}{t}" for t in ("str", "int", "float", "bool", "null", "timestamp", "binary")}
_STR_TAG = f"{_TAG}str"
_TEXT_TAGS = {f"{_TAG}{t}" for t in ("str", "timestamp", "binary")}
_MAP_TAGS = {f"{_TAG}map"}
_SEQ_TAGS = {f"{_TAG}seq"}
_MERGE_TAG = f"{_TAG}merge"
_constructor = yaml.SafeLoader("")  # only its scalar constructors are used
# Booleans of Go's YAML 1.1 reader (gopkg.in/yaml.v2, behind sigs.k8s.io/yaml and kubectl) that
# PyYAML reads as strings.
_GO_YAML_BOOLS = {"y": "true", "Y": "true", "n": "false", "N": "false"}


def kubectl_reads(data: Any, plain: dict[Path, str], prefix: Path = ()) -> Any:
    """``data`` (at ``prefix`` of its document) as kubectl's YAML 1.1 reader reads it: the unquoted
    ``y``, ``Y``, ``n`` and ``N`` that PyYAML keeps as strings are booleans. ``data`` itself when
    there are none (the common case); otherwise a copy, ``data`` left as it is."""
    found = [path[len(prefix):] for path, text in plain.items()
             if text in _GO_YAML_BOOLS and path[:len(prefix)] == prefix]
    if not found:
        return data
    import copy

    data = copy.deepcopy(data)
    for path in found:
        node = data
        try:
            for part in path[:-1]:
                node = node[part]
            if node[path[-1]] == plain[prefix + path]:
                node[path[-1]] = _GO_YAML_BOOLS[plain[prefix + path]] == "true"
        except (KeyError, IndexError, TypeError):  # pruned with a null, or a merge key's
            continue
    return data


class _Problem(Exception):
    def __init__(self, code: str, message: str, mark: Any, path: Path):
        super().__init__(message)
        self.code, self.message, self.mark, self.path = code, message, mark, path


def _diag(filename: str, code: str, message: str, mark: Any = None, path: Path = (),
          severity: Severity = Severity.ERROR, offset: int = 0) -> Diagnostic:
    line = mark.line + 1 + offset if mark is not None else None
    col = mark.column + 1 if mark is not None else None
    return Diagnostic(filename, line, col, format_path(path), code, severity, message)


def decode(raw: bytes, filename: str) -> tuple[str | None, list[Diagnostic]]:
    """Bytes -> text: UTF-8 (a BOM is accepted and dropped); anything else is an error."""
    if len(raw) > MAX_BYTES:
        return None, [_diag(filename, "file-too-large",
                            f"file is {len(raw)} bytes; mpigen reads at most {MAX_BYTES} bytes")]
    body = raw[3:] if raw.startswith(b"\xef\xbb\xbf") else raw
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = body[: exc.start].count(b"\n") + 1
        line_start = body.rfind(b"\n", 0, exc.start) + 1
        col = len(body[line_start: exc.start].decode("utf-8", errors="replace")) + 1
        return None, [Diagnostic(filename, line, col, "", "yaml-encoding", Severity.ERROR,
                                 f"file is not UTF-8 (byte 0x{body[exc.start]:02x}); save it as UTF-8")]
    return text, []


def load_bytes(raw: bytes, filename: str) -> LoadResult:
    text, diags = decode(raw, filename)
    if text is None:
        return LoadResult([], diags)
    return load_text(text, filename)


def load_text(text: str, filename: str) -> LoadResult:
    """Parse every document of ``text``; documents before a syntax error are kept."""
    documents: list[Document] = []
    diagnostics: list[Diagnostic] = []
    for item in iter_text(text, filename):
        if isinstance(item, Document):
            documents.append(item)
        else:
            diagnostics.append(item)
    return LoadResult(documents, diagnostics)


def iter_text(text: str, filename: str, offset: int = 0, checked: bool = False,
              ending: list[tuple[int, bool]] | None = None) -> Iterator[Document | Diagnostic]:
    """The documents of ``text`` one at a time, with the diagnostics of each before it.

    For a piece of a large file: ``offset`` is the count of lines before it (added to every
    line), ``checked`` says that the nesting of the whole file was checked, and ``ending``
    receives (documents read, whether an error stopped the stream) when the stream is done.

    A stream: a caller that handles each document and lets it go keeps memory bounded by the
    largest document, not by the file (a 10,000-document file is fine).
    """
    if len(text) > MAX_BYTES:
        yield _diag(filename, "file-too-large", f"file has {len(text)} characters; mpigen reads at most {MAX_BYTES}")
        if ending is not None:
            ending.append((0, True))
        return
    too_deep = None if checked else nesting_beyond_parser(text)
    if too_deep is not None:
        line, col = too_deep
        yield Diagnostic(filename, line + offset, col, "", "yaml-too-deep", Severity.ERROR,
                         f"YAML nesting is deeper than {MAX_DEPTH} levels")
        if ending is not None:
            ending.append((0, True))
        return
    anchors = "&" in text
    merges = "<<" in text
    count, stopped = 0, True
    try:
        for index, node in enumerate(yaml.compose_all(text, Loader=_Loader)):
            count = index + 1
            if node is None:
                continue
            builder = _Builder(filename, record=False, offset=offset)
            builder.merges = merges
            try:
                if anchors:  # without anchors there are no aliases: the size is the text's
                    builder.check_size(node)
                data = builder.build(node, ())
            except _Problem as problem:
                yield _diag(filename, problem.code, problem.message, problem.mark, problem.path, offset=offset)
                continue
            except RecursionError:
                yield _diag(filename, "yaml-too-deep", f"YAML nesting is deeper than {MAX_DEPTH} levels",
                            node.start_mark, offset=offset)
                continue
            yield from builder.diagnostics
            yield Document(data, index, node.start_mark.line + 1 + offset, None, None, builder.plain,
                           builder.has_nulls, _locator(node, filename, merges, offset))
        stopped = False
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        message = exc.problem or "invalid YAML"
        if exc.context:
            message = f"{exc.context}: {message}" if "while" not in exc.context else f"{message} ({exc.context})"
        tab = _tab_at(text, mark)
        if tab is not None:
            mark = tab
            message = f"a tab: YAML indents with spaces only; replace the tab with spaces ({message.strip()})"
        yield _diag(filename, "yaml-syntax", message.strip(), mark, offset=offset)
    except yaml.reader.ReaderError as exc:  # a control character, which YAML does not allow
        line = text.count("\n", 0, exc.position) + 1 + offset
        col = exc.position - (text.rfind("\n", 0, exc.position) + 1) + 1
        yield Diagnostic(filename, line, col, "", "yaml-syntax", Severity.ERROR,
                         f"character {exc.character!r} is not allowed in YAML")
    except yaml.YAMLError as exc:
        yield _diag(filename, "yaml-syntax", str(exc).strip())
    except RecursionError:
        yield _diag(filename, "yaml-too-deep", f"YAML nesting is deeper than {MAX_DEPTH} levels")
    if ending is not None:
        ending.append((count, stopped))


def _tab_at(text: str, mark: Any) -> Any:
    """The mark of the tab a syntax error comes from, if it comes from one: the character at the
    error, or a tab in the indentation of its line (PyYAML says "found character that cannot
    start any token" and the like, never "tab")."""
    if mark is None or not isinstance(getattr(mark, "index", None), int):
        return None
    if mark.index < len(text) and text[mark.index] == "\t":
        return mark
    start = text.rfind("\n", 0, mark.index) + 1
    indent = len(text[start:]) - len(text[start:].lstrip(" \t"))
    where = text.find("\t", start, start + indent)
    if where < 0:
        return None
    return yaml.Mark(mark.name, where, mark.line, where - start, None, None)


_CONSTRUCTED: dict[tuple[str, str], Any] = {}  # (tag, text) -> value: numbers, booleans, null


def _construct(node: yaml.ScalarNode) -> Any:
    """PyYAML's own reading of one scalar (its constructor keeps no memory of it afterwards).

    The values are immutable (numbers, booleans, null), so a repeated text is read once.
    """
    key = (node.tag, node.value)
    try:
        return _CONSTRUCTED[key]
    except KeyError:
        pass
    try:
        value = _constructor.construct_object(node, deep=True)
    finally:
        _constructor.constructed_objects.clear()
    if len(_CONSTRUCTED) < _TAGS_MAX and len(node.value) <= 256 and (
            value is None or type(value) in (bool, int, float)):
        _CONSTRUCTED[key] = value
    return value


def _json_key(value: Any) -> str:
    """How a non-string YAML key is turned into a JSON key on its way to the API server."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, float):
        return repr(value).removesuffix(".0") if value.is_integer() and abs(value) < 1e21 else repr(value)
    return str(value)


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
        visit, yet every place it is used is counted in full and checked for depth.
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
                        if size > MAX_NODES:
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
                    f"kubectl's YAML reader takes the unquoted {node.value} for a boolean "
                    f'({_GO_YAML_BOOLS[node.value]}): write "{node.value}" in quotes',
                    node.start_mark, path, Severity.WARNING, offset=self.offset))
                self.plain[path] = node.value  # what kubectl sends is a boolean: see kubectl_reads
            return node.value
        try:
            value = _construct(node)
        except (yaml.YAMLError, ValueError, IndexError, KeyError, TypeError, OverflowError) as exc:
            # PyYAML's constructors fail in many ways on explicit tags (`!!int ''`, `!!bool maybe`)
            raise _Problem("yaml-value", f"cannot read {node.value!r} as {tag.rsplit(':', 1)[-1]}: {exc}",
                           node.start_mark, path) from None
        if isinstance(value, float) and not math.isfinite(value):
            raise _Problem("yaml-value", f"{node.value!r} is not a finite number (JSON cannot hold it)",
                           node.start_mark, path)
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
                f"kubectl's YAML reader takes the unquoted key {node.value} for the boolean "
                f'{_GO_YAML_BOOLS[node.value]} and sends it as "{_GO_YAML_BOOLS[node.value]}": '
                f'write "{node.value}" in quotes', node.start_mark, path + (node.value,), Severity.WARNING,
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
                    f"YAML 1.1 (kubectl's YAML reader) reads the unquoted key {node.value} as {sent!r}: "
                    f'write "{node.value}" in quotes', node.start_mark, path + (node.value,), Severity.WARNING,
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
                    f"duplicate key {key!r} (first at line {first[0]}); YAML keeps only one of them",
                    key_mark, child, offset=self.offset))
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
