"""Stage 1, load: how one YAML scalar is read.

The safe loader with the tag of each plain scalar remembered, PyYAML's own constructors for
numbers, booleans and null (their values remembered too), and what kubectl's YAML 1.1 reader
(go-yaml v2) reads otherwise than PyYAML: the unquoted ``y``, ``n`` and their capitals are
booleans, and a non-string key is sent as its JSON text.
"""

from __future__ import annotations

from typing import Any

import yaml

from .document import Path

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


# The YAML reader's words, the same from both readers (mpigen.load.builder and, for a cluster file
# beyond the YAML reader's limit, mpigen.load.large_cluster): their tests compare them.

def bool_value_note(text: str) -> str:
    """yaml-bool: an unquoted y, n, Y or N value."""
    return (f"kubectl's YAML reader takes the unquoted {text} for a boolean ({_GO_YAML_BOOLS[text]}): "
            f'write "{text}" in quotes')


def bool_key_note(key: str) -> str:
    """yaml-key: an unquoted y, n, Y or N key."""
    return (f"kubectl's YAML reader takes the unquoted key {key} for the boolean {_GO_YAML_BOOLS[key]} and "
            f'sends it as "{_GO_YAML_BOOLS[key]}": write "{key}" in quotes')


def sent_key_note(key: str, sent: str) -> str:
    """yaml-key: an unquoted key that YAML 1.1 reads as another text (``1.10`` sent as ``1.1``)."""
    return f'YAML 1.1 (kubectl\'s YAML reader) reads the unquoted key {key} as {sent!r}: write "{key}" in quotes'


def duplicate_key_note(key: str, first_line: int) -> str:
    """yaml-duplicate-key."""
    return f"duplicate key {key!r} (first at line {first_line}); YAML keeps only one of them"


def unreadable_note(text: str, tag: str, error: Exception) -> str:
    """yaml-value: a scalar PyYAML's constructor for its tag refuses."""
    return f"cannot read {text!r} as {tag.rsplit(':', 1)[-1]}: {error}"


def not_finite_note(text: str) -> str:
    """yaml-value: .inf, .nan."""
    return f"{text!r} is not a finite number (JSON cannot hold it)"
