"""What applying a rewritten tree again would ask of the live objects that the API server refuses.

A drifted tree is applied again (``kubectl apply -k DIR/<job>/base``, or an overlay) over the
objects the committed tree created. For every kustomization folder of the tree that exists both on
disk and in the tree mpigen would write now, the objects each one builds are computed on both
sides as kustomize builds them (the base's resources; an overlay's base, its own resources, its
JSON patches and its ``$patch: delete`` patches: the forms mpigen writes), matched by group, kind,
namespace and name, and compared on every field of :mod:`mpigen.drift.immutable`'s table. A change
the table says is refused is a :class:`RefusedChange`, located at the line of the committed file
that holds the old value: the overlay patch operation that set it, else the resource file.

A folder whose committed files mpigen cannot read back (hand-edited into something else) is left
out: the drift report already says that the file differs.
"""

from __future__ import annotations

import copy
import os
import posixpath
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable

from ..diagnostics import Diagnostic, Severity, format_path
from ..load.document import Document
from .compare import ABSENT, FieldChange
from .immutable import ImmutableField, correlated_paths, fields_for, lookup

KUSTOMIZATION = "kustomization.yaml"
JOB_KINDS = ("MPIJob", "PyTorchJob", "TFJob")


@dataclass(frozen=True)
class RefusedChange:
    """A field the tree changes on a live object, which the API server refuses to change."""

    file: str  # the committed file that holds the old value, relative to the job's tree
    line: int | None
    column: int | None
    path: tuple[str | int, ...]
    kind: str
    name: str
    old: Any
    new: Any
    rule: ImmutableField
    folders: tuple[str, ...]  # the kustomization folders (relative to the tree) that apply it

    def diagnostic(self, tree: str) -> Diagnostic:
        """The warning, with the tree's folder as the user names it (``deploy/<job>``)."""
        path = format_path(self.path)
        change = FieldChange(path, self.old, self.new).format()
        what = "the job" if self.kind in JOB_KINDS else f"the {self.kind}"
        when = f" {self.rule.condition}" if self.rule.condition else ""
        folders = [f"{tree}/{folder}" for folder in self.folders]
        if len(folders) == 1:
            how = f"kubectl delete -k {folders[0]}, then kubectl apply -k {folders[0]}"
        else:
            how = (f"kubectl delete -k DIR, then kubectl apply -k DIR, DIR being the folder you apply "
                   f"({' or '.join(folders)})")
        message = (f"{self.kind} {self.name}: {change}: the API server refuses this change on a live "
                   f"object{when} ({self.rule.rule}, {self.rule.origin}), so {what} must be deleted and "
                   f"re-created: {how}")
        return Diagnostic(f"{tree}/{self.file}", self.line, self.column, path, "immutable-field", Severity.WARNING,
                          message)


@dataclass
class _Built:
    """An object a kustomization folder builds, and where its fields are written."""

    obj: dict[str, Any]
    file: str
    document: Document
    patches: list[tuple[str, Document, int, tuple[str | int, ...]]] = field(default_factory=list)

    def locate(self, path: tuple[str | int, ...]) -> tuple[str, tuple[int, int]]:
        """The file and position that set ``path``: the last patch operation touching it, else the
        resource file."""
        for rel, document, index, target in reversed(self.patches):
            if target[:len(path)] == path or path[:len(target)] == target:
                inner = path[len(target):] if path[:len(target)] == target else ()
                op = document.data[index]
                where = (index, "value", *inner) if "value" in op else (index, "path")
                return rel, document.locate(where, key=True)
        return self.file, self.document.locate(path, key=True)


class _Tree:
    """The files of one tree: read from disk (the committed tree) or given (what mpigen would write)."""

    def __init__(self, read: Callable[[str], bytes | None], names: Callable[[], list[str]]):
        self._read = read
        self._names = names
        self._cache: dict[str, list[Document] | None] = {}

    @classmethod
    def on_disk(cls, tree: Path) -> _Tree:
        def read(rel: str) -> bytes | None:
            try:
                return (tree / rel).read_bytes()
            except OSError:
                return None

        def names() -> list[str]:
            out = []
            for folder, dirs, files in os.walk(tree):
                dirs.sort()
                out += [Path(folder, f).relative_to(tree).as_posix() for f in sorted(files)]
            return out

        return cls(read, names)

    @classmethod
    def given(cls, files: dict[str, str]) -> _Tree:
        return cls(lambda rel: files[rel].encode("utf-8") if rel in files else None, lambda: sorted(files))

    def documents(self, rel: str) -> list[Document] | None:
        """The documents of a file; None when it is missing or not YAML mpigen reads."""
        if rel not in self._cache:
            from ..load.yaml_loader import load_bytes

            raw = self._read(rel)
            loaded = None if raw is None else load_bytes(raw, rel)
            ok = loaded is not None and not any(d.severity is Severity.ERROR for d in loaded.diagnostics)
            self._cache[rel] = loaded.documents if ok else None  # type: ignore[union-attr]
        return self._cache[rel]

    def folders(self) -> list[str]:
        """The kustomization folders: those holding a kustomization.yaml."""
        return sorted(posixpath.dirname(n) for n in self._names() if posixpath.basename(n) == KUSTOMIZATION)

    def build(self, folder: str, depth: int = 0) -> list[_Built] | None:
        """The objects ``kubectl kustomize`` builds from ``folder``; None when it cannot be told."""
        docs = self.documents(posixpath.join(folder, KUSTOMIZATION))
        if depth > 4 or not docs or len(docs) != 1 or not isinstance(docs[0].data, dict):
            return None
        kustomization = docs[0].data
        if set(kustomization) - {"apiVersion", "kind", "resources", "patches"}:
            return None  # something mpigen never writes: not ours to interpret
        built: list[_Built] = []
        for resource in kustomization.get("resources") or []:
            if not isinstance(resource, str):
                return None
            rel = _inside(folder, resource)
            if rel is None:
                return None
            if self.documents(posixpath.join(rel, KUSTOMIZATION)) is not None:
                inner = self.build(rel, depth + 1)
                if inner is None:
                    return None
                built += [_Built(copy.deepcopy(b.obj), b.file, b.document, list(b.patches)) for b in inner]
                continue
            documents = self.documents(rel)
            if documents is None:
                return None
            built += [_Built(copy.deepcopy(d.data), rel, d) for d in documents if _is_object(d.data)]
        for patch in kustomization.get("patches") or []:
            if not (isinstance(patch, dict) and isinstance(patch.get("path"), str)):
                return None
            rel = _inside(folder, patch["path"])
            documents = None if rel is None else self.documents(rel)
            if rel is None or not documents or len(documents) != 1 or not _patched(built, patch, rel, documents[0]):
                return None
        return built


def _inside(folder: str, reference: str) -> str | None:
    """A file or folder a kustomization names, relative to the tree; None when outside it."""
    rel = posixpath.normpath(posixpath.join(folder, reference))
    return None if posixpath.isabs(reference) or rel == ".." or rel.startswith("../") else rel


def _is_object(data: Any) -> bool:
    return (isinstance(data, dict) and isinstance(data.get("kind"), str) and isinstance(data.get("apiVersion"), str)
            and isinstance(data.get("metadata"), dict) and isinstance(data["metadata"].get("name"), str))


def _group(api_version: str) -> str:
    return api_version.rpartition("/")[0]


def _identity(obj: dict[str, Any]) -> tuple[str, str, str, str]:
    meta = obj["metadata"]
    return (_group(obj["apiVersion"]), obj["kind"], str(meta.get("namespace") or ""), meta["name"])


def _patched(built: list[_Built], patch: dict[str, Any], rel: str, document: Document) -> bool:
    """Apply one patch of a kustomization to ``built``; False when it is not a form mpigen writes
    or does not apply."""
    from ..render.jsonpatch import apply

    data = document.data
    if isinstance(data, dict) and data.get("$patch") == "delete" and _is_object(data):
        gone = _identity(data)
        kept = [b for b in built if _identity(b.obj) != gone]
        if len(kept) == len(built):
            return False
        built[:] = kept
        return True
    target = patch.get("target")
    if not (isinstance(data, list) and isinstance(target, dict)):
        return False
    matches = [b for b in built
               if b.obj["kind"] == target.get("kind") and b.obj["metadata"]["name"] == target.get("name")
               and _group(b.obj["apiVersion"]) == target.get("group", "")
               and b.obj["apiVersion"].rpartition("/")[2] == target.get("version", b.obj["apiVersion"])]
    if len(matches) != 1:
        return False
    if not all(isinstance(op, dict) and isinstance(op.get("path"), str) and op.get("op") in ("add", "replace", "remove")
               for op in data):
        return False
    try:
        matches[0].obj = apply(matches[0].obj, data)
    except (KeyError, IndexError, ValueError, TypeError):
        return False
    for index, op in enumerate(data):
        parts = tuple(p.replace("~1", "/").replace("~0", "~") for p in op["path"].split("/")[1:])
        matches[0].patches.append((rel, document, index, tuple(int(p) if p.isdigit() else p for p in parts)))
    return True


def refused_changes(tree: Path, files: dict[str, str]) -> list[RefusedChange]:
    """The refused changes applying ``files`` (what mpigen would write) over what ``tree`` applied."""
    if not tree.is_dir():
        return []
    old_tree, new_tree = _Tree.on_disk(tree), _Tree.given(files)
    found: dict[tuple, RefusedChange] = {}
    for folder in sorted(set(old_tree.folders()) & set(new_tree.folders())):
        old_built, new_built = old_tree.build(folder), new_tree.build(folder)
        if old_built is None or new_built is None:
            continue
        new_objects = {_identity(b.obj): b.obj for b in new_built}
        for before in old_built:
            after = new_objects.get(_identity(before.obj))
            if after is None:
                continue
            for rule in fields_for(before.obj["apiVersion"], before.obj["kind"]):
                for path, new_path in correlated_paths(before.obj, after, rule.path):
                    old, new = lookup(before.obj, path, ABSENT), lookup(after, new_path, ABSENT)
                    if not rule.refuses(old, new, ABSENT):
                        continue
                    rel, (line, column) = before.locate(path)
                    key = (rel, line, column, path, rule, repr(old), repr(new))
                    if key in found:
                        found[key] = replace(found[key], folders=found[key].folders + (folder,))
                    else:
                        found[key] = RefusedChange(rel, line, column, path, before.obj["kind"],
                                                   before.obj["metadata"]["name"], old, new, rule, (folder,))
    return list(found.values())
