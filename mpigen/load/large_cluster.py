"""Stage 1, load: a cluster file beyond the YAML reader's limit (YAML by rapidyaml, a JSON list by item).

``kubectl get nodes,pods -A -o yaml`` of a cluster of thousands of nodes is hundreds of megabytes
in one ``List`` document: beyond :data:`~mpigen.load.yaml_loader.MAX_BYTES`, where the YAML reader
(PyYAML's C composer) refuses a text, and where it would be far too slow besides (libyaml's parser
alone takes about 4x the time ``json.load`` takes for the same objects as JSON). Such a text is
parsed by rapidyaml (C++, a tree of the whole text in one pass) and, of each Node and Pod, only
what :func:`mpigen.load.cluster.read_cluster` reads is built into Python data (:data:`KEEP`); every
other object is built whole. The rest of a Node or a Pod (managed fields, images, conditions,
environment, volumes...) is never turned into Python objects.

A JSON text beyond that limit that is one ``List`` (``kubectl get ... -o json``) is read by the
JSON reader an item at a time (:func:`read_json_list`), each item cut to :data:`KEEP` as soon as
it is decoded, with the JSON reader's checks on the whole text: the same data as a whole read,
without holding every object of the cluster at once.

What is built is read as the YAML reader reads it: plain scalars resolved by the same YAML 1.1
resolver and constructors (``on`` is a boolean, ``0x1F`` a number, timestamps stay strings),
quoted ones as strings, unquoted ``y`` and ``n`` warned about, non-finite numbers refused,
duplicate keys reported and the first kept, nesting held to :data:`~mpigen.load.builder.MAX_DEPTH`.
What the YAML reader takes and kubectl never prints is refused where it is built, with a message
naming ``-o json`` (read by the JSON reader at any size): anchors and aliases, tags, merge keys.
What is not built is not checked: a duplicate key inside a Pod's ``managedFields`` goes unseen; in
a mapping built in part (an object, its metadata, spec and status) each kept key is looked up, so
a second copy of it is not reported (the first is read, as the YAML reader reads it); and rapidyaml
takes a few texts libyaml refuses (``a: @x``). A file kubectl printed has none of these.
"""

from __future__ import annotations

import codecs
import ctypes
import math
import os
import re
from contextlib import contextmanager
from typing import Any, Iterator

import yaml

from ..diagnostics import Diagnostic, Severity, format_path
from .builder import MAX_DEPTH
from .document import Document, LoadResult, Path, Position
from .pause import collector_paused
from .resolve import (_GO_YAML_BOOLS, _TEXT_TAGS, _construct, _json_key, _Loader, bool_key_note, bool_value_note,
                      duplicate_key_note, not_finite_note, sent_key_note, unreadable_note)

_ALL: dict[str, Any] = {}
"""In :data:`KEEP`: the whole value."""
_CONTAINER = {"resources": _ALL, "restartPolicy": _ALL}
KEEP: dict[str, dict[str, Any]] = {
    "Node": {"apiVersion": _ALL, "kind": _ALL, "metadata": {"name": _ALL, "labels": _ALL},
             "spec": {"taints": _ALL, "unschedulable": _ALL}, "status": {"allocatable": _ALL, "capacity": _ALL}},
    "Pod": {"apiVersion": _ALL, "kind": _ALL,
            "metadata": {"name": _ALL, "namespace": _ALL, "annotations": _ALL, "deletionTimestamp": _ALL},
            "spec": {"containers": _CONTAINER, "initContainers": _CONTAINER, "resources": _ALL, "overhead": _ALL,
                     "nodeName": _ALL, "priority": _ALL, "priorityClassName": _ALL, "schedulingGates": _ALL},
            "status": {"phase": _ALL}},
}
"""Of a Node and a Pod, what is built (the rest is skipped): each key's entry says what of its value
is built, :data:`_ALL` for all of it; a sequence's entry applies to each of its items. What
:func:`mpigen.load.cluster.read_cluster` reads of them, and
:func:`mpigen.scheduler.nodes.pod_requests` of a Pod's spec (tests/unit/test_large_cluster.py holds
the two readers to the same cluster)."""

_UNSET = object()
_MARKER = re.compile(rb"^---(?=[ \t\r\n]|$)", re.MULTILINE)
_TOKEN = re.compile(rb"^[ \t]*(?!#)[^ \t\r\n]", re.MULTILINE)
_NONE = 2**64 - 1  # rapidyaml's "no node" (npos)
_BLOCK = 1 << 20  # bytes checked as UTF-8 at a time
_resolver = _Loader("")  # only its resolve() is used: the YAML reader's tags for plain scalars


class _Refused(Exception):
    def __init__(self, code: str, message: str, node: int, path: Path, key: bool = False):
        super().__init__(message)
        self.code, self.message, self.node, self.path, self.key = code, message, node, path, key


def load(raw: bytes, filename: str) -> LoadResult:
    """A cluster file's documents: read by the YAML reader (:func:`~mpigen.load.yaml_loader.load_bytes`,
    which reads JSON as JSON), by :func:`read` when it is YAML beyond the YAML reader's limit, or by
    :func:`read_json_list` when it is a JSON list beyond that limit."""
    from .yaml_loader import _JSON_START, MAX_BYTES, MAX_JSON_BYTES, load_bytes

    if MAX_BYTES < len(raw) <= MAX_JSON_BYTES:
        if not _JSON_START.match(raw, 0, 4096):
            return read(raw, filename)
        found = read_json_list(raw, filename)
        if found is not None:
            return found
    return load_bytes(raw, filename)


def read_json_list(raw: bytes, filename: str) -> LoadResult | None:
    """A JSON text (the bytes of a file) that is one ``List`` (what ``kubectl get ... -o json``
    prints), read as the JSON reader reads it (:func:`~mpigen.load.json_reader.read_json`) with each
    item cut to what :data:`KEEP` says of its kind as soon as it is read: a cluster of 150,000 Pods
    is not held whole (two thirds of the peak memory, and a quarter of the system's time spent
    giving the process memory). None when the text is not such a list, or when the JSON reader
    leaves it to the YAML reader: the caller reads it whole then, as any other text."""
    from .json_reader import read_json
    from .yaml_loader import _reference, decode

    text, problems = decode(raw, filename)
    if text is None:
        return LoadResult([], problems)
    document = read_json(text, 0, lambda: _reference(text, filename, 0), keep_item=cut)
    if document is None:
        return None
    kind = document.data.get("kind") if isinstance(document.data, dict) else None
    if not (isinstance(kind, str) and kind.endswith("List") and kind not in KEEP
            and isinstance(document.data.get("items"), list)):
        return None  # items were cut that are not a list's: read whole
    return LoadResult([document], [])


def cut(item: Any) -> Any:
    """An object (a list's item), of which only what :data:`KEEP` says of its kind is kept: what
    :func:`~mpigen.load.cluster.read_cluster` reads of it. Also the live reader's
    (:mod:`mpigen.kube.reader`), for each object as its page arrives."""
    kind = item.get("kind") if item.__class__ is dict else None
    keep = KEEP.get(kind) if isinstance(kind, str) else None
    return item if keep is None else _kept(item, keep)


def _kept(value: Any, keep: dict[str, Any]) -> Any:
    """What ``keep`` names of ``value``, as :meth:`_Reader.build` builds it: of a mapping, the keys
    it names; of a sequence, each item so; anything else whole."""
    if keep is _ALL:
        return value
    if value.__class__ is dict:
        return {key: _kept(value[key], sub) for key, sub in keep.items() if key in value}
    if value.__class__ is list:
        return [_kept(item, keep) for item in value]
    return value


def read(raw: bytes, filename: str) -> LoadResult:
    """The documents of a YAML text (the bytes of a file) as :mod:`mpigen.load.cluster` needs them."""
    import ryml

    body = raw[3:] if raw.startswith(b"\xef\xbb\xbf") else raw
    broken = _not_utf8(body, filename)
    if broken is not None:
        return LoadResult([], [broken])
    buffer = bytearray(body)
    try:
        with _quiet_stderr():  # rapidyaml prints its parse errors before it raises them
            tree = ryml.parse_in_place(buffer)
    except ryml.ExceptionParse as exc:
        where = exc.errdata_parse.ymlloc
        return LoadResult([], [Diagnostic(filename, where.line or None, where.col or None, "", "yaml-syntax",
                                          Severity.ERROR, str(exc.msg).strip() or "invalid YAML")])
    reader = _Reader(ryml, tree, buffer, body, filename)
    documents, diagnostics = [], reader.diagnostics
    with collector_paused(freeze=True):
        cursor = 0  # where the last document started
        for index, doc in enumerate(reader.documents()):
            if reader.empty(doc):  # `---` and nothing: a null, placed as PyYAML places it
                cursor = reader.after_marker(cursor)
                line = reader.text.count(b"\n", 0, cursor) + 1
                documents.append(Document(None, index, line, {(): (line, 1)}, {}, {(): ""}))
                continue
            cursor = reader.offset(doc)
            reader.plain, found = {}, len(diagnostics)
            try:
                data = reader.document(doc)
            except _Refused as exc:  # the document's only diagnostic, and no document: as the YAML reader
                line, col = reader.position(exc.node, exc.key)
                diagnostics[found:] = [Diagnostic(filename, line, col, format_path(exc.path), exc.code,
                                                  Severity.ERROR, exc.message)]
                continue
            documents.append(Document(data, index, reader.position(doc)[0], plain=reader.plain, locator=_unknown,
                                      finder=reader.finder(doc)))
    return LoadResult(documents, diagnostics)


def _unknown() -> tuple[dict, dict]:
    """The positions of every path are not computed: a path's is found when asked (``finder``)."""
    return {}, {}


def _not_utf8(body: bytes, filename: str) -> Diagnostic | None:
    """Where ``body`` stops being UTF-8, as the YAML reader reports it; checked a block at a time
    rather than decoded whole."""
    from .yaml_loader import not_utf8

    decoder = codecs.getincrementaldecoder("utf-8")()
    view = memoryview(body)
    for start in range(0, len(body), _BLOCK):
        try:
            decoder.decode(view[start:start + _BLOCK], final=start + _BLOCK >= len(body))
        except UnicodeDecodeError:
            try:
                body.decode("utf-8")
            except UnicodeDecodeError as exc:
                return not_utf8(body, exc, filename)
    return None


@contextmanager
def _quiet_stderr() -> Iterator[None]:
    """The process's standard error (file descriptor 2, written from C++) sent nowhere inside."""
    saved = os.dup(2)
    try:
        with open(os.devnull, "wb") as nowhere:
            os.dup2(nowhere.fileno(), 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


class _Buffer(ctypes.Structure):  # Python's Py_buffer, for the address of a memoryview rapidyaml returns
    _fields_ = [("buf", ctypes.c_void_p), ("obj", ctypes.c_void_p), ("len", ctypes.c_ssize_t),
                ("itemsize", ctypes.c_ssize_t), ("readonly", ctypes.c_int), ("ndim", ctypes.c_int),
                ("format", ctypes.c_char_p), ("shape", ctypes.c_void_p), ("strides", ctypes.c_void_p),
                ("suboffsets", ctypes.c_void_p), ("internal", ctypes.c_void_p)]


def _address(view: memoryview) -> int:
    buffer = _Buffer()
    ctypes.pythonapi.PyObject_GetBuffer(ctypes.py_object(view), ctypes.byref(buffer), 0)
    try:
        return buffer.buf or 0
    finally:
        ctypes.pythonapi.PyBuffer_Release(ctypes.byref(buffer))


class _Reader:
    """One parsed text: its documents built, and the position of any node."""

    def __init__(self, ryml: Any, tree: Any, buffer: bytearray, text: bytes, filename: str):
        """``buffer``: what rapidyaml parsed in place (it writes a scalar's value over its text);
        ``text``: the bytes as they were, where positions are counted."""
        self.tree, self.text, self.filename = tree, text, filename
        self.buffer = buffer  # the tree's strings are in it: kept as long as the tree
        self.base = ctypes.addressof((ctypes.c_char * len(buffer)).from_buffer(buffer)) if buffer else 0
        self.diagnostics: list[Diagnostic] = []
        self._key_notes: dict[str, str | None] = {}  # an unquoted key's text -> the warning about it
        self._plain_values: dict[str, Any] = {}  # an unquoted scalar's text -> its value (not y, n...)
        self.plain: dict[Path, str] = {}  # of the document being built: see Document.plain
        self.MAP, self.SEQ = ryml.MAP, ryml.SEQ
        self.VALNIL, self.KEYQUO, self.VALQUO = ryml.VALNIL, ryml.KEYQUO, ryml.VALQUO
        self.VAL_STYLE, self.KEY_STYLE = ryml.VAL_STYLE & ~ryml.VAL_PLAIN, ryml.KEY_STYLE & ~ryml.KEY_PLAIN
        self.ALIAS = ryml.KEYREF | ryml.VALREF | ryml.KEYANCH | ryml.VALANCH
        self.TAG = ryml.KEYTAG | ryml.VALTAG
        self.STREAM, self.BLOCK = ryml.STREAM, ryml.VAL_LITERAL | ryml.VAL_FOLDED
        self.NOT_TEXT = self.MAP | self.SEQ | self.ALIAS | self.TAG | self.VALNIL

    def documents(self) -> list[int]:
        tree, root = self.tree, self.tree.root_id()
        if tree.type(root) & self.STREAM == self.STREAM:
            return list(self._children(root))
        return [root] if tree.size() else []

    def empty(self, doc: int) -> bool:
        """A document with no content (``---`` and nothing, or comments)."""
        return not self.tree.type(doc) & (self.MAP | self.SEQ) and self.tree.val(doc) is None

    def after_marker(self, start: int) -> int:
        """Where the next token stands after the first ``---`` line from ``start`` (blank and
        comment lines skipped; the end of the text if none)."""
        found = _MARKER.search(self.text, start)
        if found is None:
            return len(self.text)
        following = _TOKEN.search(self.text, found.end())
        return len(self.text) if following is None else following.start()

    def _children(self, node: int) -> Iterator[int]:
        tree = self.tree
        child = tree.first_child(node)
        while child != _NONE:
            yield child
            child = tree.next_sibling(child)

    def document(self, doc: int) -> Any:
        """A document's data: a list's items and an object each built as :data:`KEEP` says."""
        tree = self.tree
        if not tree.type(doc) & self.MAP:
            return self.build(doc, (), _ALL)
        kind = self._text(tree.find_child(doc, b"kind"))
        if isinstance(kind, str) and kind.endswith("List") and kind not in KEEP:
            items = tree.find_child(doc, b"items")
            if items != _NONE and tree.type(items) & self.SEQ:
                data = self.build(doc, (), {key: _ALL for key in self._keys(doc) if key != "items"})
                data["items"] = [self.build(item, ("items", i), KEEP.get(self._text(tree.find_child(item, b"kind"))
                                                                     if tree.type(item) & self.MAP else None, _ALL))
                                 for i, item in enumerate(self._children(items))]
                return data
        return self.build(doc, (), KEEP.get(kind, _ALL) if isinstance(kind, str) else _ALL)

    def _keys(self, node: int) -> list[str]:
        return [str(view, "utf-8") for view in map(self.tree.key, self._children(node)) if view is not None]

    def _text(self, node: int) -> str | None:
        """A plain string scalar's text (a kind's), else None."""
        if node == _NONE or self.tree.type(node) & (self.MAP | self.SEQ | self.VALNIL):
            return None
        return str(self.tree.val(node), "utf-8")

    def build(self, node: int, path: Path, keep: dict[str, Any], bits: int | None = None) -> Any:
        """A node's data, as the YAML reader builds it; of a mapping, only the keys ``keep`` names
        (all of them when it is :data:`_ALL`). ``bits``: the node's type, when known."""
        if len(path) > MAX_DEPTH:
            raise _Refused("yaml-too-deep", f"YAML nesting is deeper than {MAX_DEPTH} levels", node,
                           path[:MAX_DEPTH])
        if bits is None:
            bits = self.tree.type(node)
        if bits & self.ALIAS:
            raise _Refused("file-too-large", _beyond("an anchor or an alias"), node, path)
        if bits & self.TAG:
            raise _Refused("file-too-large", _beyond("a tag"), node, path)
        if bits & self.MAP:
            return self._mapping(node, path, keep)
        if bits & self.SEQ:
            return [self.build(child, path + (i,), keep) for i, child in enumerate(self._children(node))]
        return self._scalar(node, bits, path)

    def _mapping(self, node: int, path: Path, keep: dict[str, Any]) -> dict[str, Any]:
        """A mapping's data. Built whole, each key is read once, the first of duplicates kept and the
        others reported. Built in part, each key ``keep`` names is looked up (by rapidyaml, the
        first of duplicates) and the others are not read."""
        tree = self.tree
        result: dict[str, Any] = {}
        if keep is not _ALL:
            find, type_of = tree.find_child, tree.type
            for key, sub in keep.items():
                child = find(node, key.encode())
                if child != _NONE:
                    result[key] = self.build(child, path + (key,), sub, type_of(child))
            return result
        key_of, type_of, next_of, val_of = tree.key, tree.type, tree.next_sibling, tree.val
        not_text, quoted, key_quoted, plain = self.NOT_TEXT, self.VAL_STYLE, self.KEY_STYLE, self._plain
        shallow = len(path) < MAX_DEPTH
        first: dict[str, int] = {}  # key -> the node that holds it first
        child = tree.first_child(node)
        while child != _NONE:
            view = key_of(child)
            key = "" if view is None else str(view, "utf-8")
            if key in first:
                line = self.position(first[key], key=True)[0]
                self._report(child, "yaml-duplicate-key", duplicate_key_note(key, line), path + (key,), key=True)
            else:
                first[key] = child
                bits = type_of(child)
                if not bits & key_quoted:
                    self._plain_key(child, key, path)
                if bits & not_text or not shallow:
                    result[key] = self.build(child, path + (key,), _ALL, bits)
                else:  # a scalar, read here rather than through build: most values are
                    text = str(val_of(child), "utf-8")
                    result[key] = text if bits & quoted else plain(child, text, path + (key,))
            child = next_of(child)
        return result

    def _plain_key(self, node: int, key: str, path: Path) -> None:
        """An unquoted key warned about as the YAML reader warns: kubectl would send another text."""
        if key not in self._key_notes:
            self._key_notes[key] = _key_note(key)
        note = self._key_notes[key]
        if note is _MERGE:
            raise _Refused("file-too-large", _beyond("a merge key (<<)"), node, path + (key,), key=True)
        if note is not None:
            self._report(node, "yaml-key", note, path + (key,), Severity.WARNING, key=True)

    def _scalar(self, node: int, bits: int, path: Path) -> Any:
        if bits & self.VALNIL:
            return None
        text = str(self.tree.val(node), "utf-8")
        return text if bits & self.VAL_STYLE else self._plain(node, text, path)  # quoted, literal, folded: text

    def _plain(self, node: int, text: str, path: Path) -> Any:
        """An unquoted scalar, resolved and constructed as the YAML reader does."""
        value = self._plain_values.get(text, _UNSET)
        if value is not _UNSET:
            if value.__class__ is not str:
                self.plain[path] = text
            return value
        tag = _resolver.resolve(yaml.ScalarNode, text, (True, False))
        if tag in _TEXT_TAGS:
            if text in _GO_YAML_BOOLS:
                self._report(node, "yaml-bool", bool_value_note(text), path, Severity.WARNING)
                self.plain[path] = text  # what kubectl sends is a boolean: see kubectl_reads
                return text
            value = text
        else:
            try:
                value = _construct(yaml.ScalarNode(tag, text))
            except (yaml.YAMLError, ValueError, IndexError, KeyError, TypeError, OverflowError) as exc:
                raise _Refused("yaml-value", unreadable_note(text, tag, exc), node, path) from None
            if isinstance(value, float) and not math.isfinite(value):
                raise _Refused("yaml-value", not_finite_note(text), node, path)
        if len(text) <= 256 and len(self._plain_values) < 65_536:
            self._plain_values[text] = value
        if value.__class__ is not str:
            self.plain[path] = text
        return value

    def _report(self, node: int, code: str, message: str, path: Path, severity: Severity = Severity.ERROR,
                key: bool = False) -> None:
        line, col = self.position(node, key)
        self.diagnostics.append(Diagnostic(self.filename, line, col, format_path(path), code, severity, message))

    def position(self, node: int, key: bool = False) -> Position:
        """Where a node's value (its key, with ``key``) starts, as the YAML reader places it."""
        text = self.text
        at = min(max(self.offset(node, key), 0), len(text))  # (a value rapidyaml keeps elsewhere: not in the text)
        line_start = text.rfind(b"\n", 0, at) + 1
        return text.count(b"\n", 0, at) + 1, len(text[line_start:at].decode("utf-8", "replace")) + 1

    def offset(self, node: int, key: bool = False) -> int:
        """The offset of a node's value (its key) in the text: a quoted scalar's quote, a block
        scalar's indicator, a block mapping's first key, a sequence's first dash or a flow
        collection's bracket, as PyYAML's marks say."""
        tree, text = self.tree, self.text
        bits = tree.type(node)
        if key and tree.key(node) is not None:
            at = _address(tree.key(node)) - self.base
            return at - 1 if bits & self.KEYQUO else at
        if bits & (self.MAP | self.SEQ):
            first = tree.first_child(node)
            if first == _NONE:
                return self._after_key(node, b"[" if bits & self.SEQ else b"{")
            at = self.offset(first, key=bool(bits & self.MAP))
            before = len(text[:at].rstrip(b" \t\r\n" if bits & self.SEQ else b" \t"))
            opener = text[before - 1:before] if before else b""
            return before - 1 if opener in ((b"-", b"[") if bits & self.SEQ else (b"{",)) else at
        view = tree.val(node)
        if view is None or (bits & self.VALNIL and not len(view)):
            return self._after_key(node, b"")
        at = _address(view) - self.base
        if bits & self.BLOCK:  # literal or folded: its indicator
            return max(text.rfind(b"|", 0, at), text.rfind(b">", 0, at))
        return at - 1 if bits & self.VALQUO else at

    def _after_key(self, node: int, bracket: bytes) -> int:
        """Where an empty value stands: its bracket, else just past its key's colon."""
        tree, text = self.tree, self.text
        if tree.key(node) is None:
            return 0
        at = self.offset(node, key=True) + len(tree.key(node)) + (2 if tree.type(node) & self.KEYQUO else 0)
        colon = text.find(b":", at)
        if bracket:
            found = text.find(bracket, colon)
            return found if found >= 0 else colon + 1
        return colon + 1

    def finder(self, doc: int) -> Any:
        """Where a path of a document stands (:meth:`Document.locate`): the nearest node on it."""

        def find(path: Path, key: bool) -> Position:
            tree, node, found = self.tree, doc, True
            for part in path:
                bits = tree.type(node)
                if isinstance(part, str) and bits & self.MAP:
                    child = tree.find_child(node, part.encode("utf-8"))
                elif isinstance(part, int) and bits & self.SEQ and 0 <= part < tree.num_children(node):
                    child = tree.child(node, part)
                else:
                    child = _NONE
                if child == _NONE:
                    found = False
                    break
                node = child
            return self.position(node, key=key and found and node != doc)

        return find


_MERGE = "<<"


def _key_note(key: str) -> str | None:
    """The YAML reader's warning about an unquoted key (:data:`_MERGE` for a merge key)."""
    if key == "<<":
        return _MERGE
    if key in _GO_YAML_BOOLS:
        return bool_key_note(key)
    tag = _resolver.resolve(yaml.ScalarNode, key, (True, False))
    if tag.endswith(("str", "timestamp")):
        return None
    try:
        sent = _json_key(_construct(yaml.ScalarNode(tag, key)))
    except Exception:  # an unreadable key: kept as text, as the YAML reader keeps it
        return None
    return None if sent == key else sent_key_note(key, sent)


def _beyond(what: str) -> str:
    return (f"{what}: a YAML file over the YAML reader's limit is read only as kubectl prints it (no anchors, "
            "aliases, tags or merge keys); print the objects with -o json instead, which is read at any size")
