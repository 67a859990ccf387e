"""``mpigen check``: does each kustomize tree on disk still say what its spec compiles to?

Pure logic, no printing: :mod:`mpigen.commands.check` prints what this returns. For every job, the
files :func:`mpigen.render.kustomize.kustomize_files` would write are compared with
``<root>/<job>/``:

- **missing**: mpigen would write the file and it is not there;
- **extra**: mpigen wrote the file (it is listed in ``.mpigen-owned``) and would no longer write it;
- **changed**: the parsed YAML differs; every changed field is reported with its path
  (``spec.mpiReplicaSpecs.Worker.replicas: 2 -> 16``), comments and layout are ignored;
- **formatting**: the same data in other bytes (comments, quoting, order of keys...);
- **unparsable**: the file on disk is not YAML mpigen can read;
- **conflict**: mpigen would write the file but did not write the one there (it is not listed in
  ``.mpigen-owned``), so ``mpigen build -o`` would refuse to overwrite it;
- **ownership**: ``.mpigen-owned`` lists files that neither exist nor would be written;
- **orphan**: a tree mpigen wrote (it holds ``.mpigen-owned``) for a job no spec defines any more
  (:func:`orphan_drift`; only the command knows whether it was given every spec).

Every one of them is drift: ``mpigen build -o`` (``mpigen check --fix``) would change the tree.
Files mpigen does not own and would not write (a README of yours) are never drift.

Speed: bytes are compared first and only files that differ are parsed; deepdiff is imported
only then, so a check of hundreds of trees that are in step never loads it.
"""

from __future__ import annotations

import enum
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable

from ..diagnostics import format_path
from ..emit.writer import OWNED_LIST, owned_files

if TYPE_CHECKING:  # the renderer is imported only when a tree is compared
    from ..render.job import CompiledJob

MISSING = "missing"
EXTRA = "extra"
CHANGED = "changed"
FORMATTING = "formatting"
UNPARSABLE = "unparsable"
CONFLICT = "conflict"
OWNERSHIP = "ownership"
NOT_A_FOLDER = "not-a-folder"
ORPHAN = "orphan"

MAX_CHANGES = 50
"""Field changes listed per file; the rest are counted (a rewritten file would flood the report)."""
MAX_VALUE = 120
"""Characters of one value shown in a field change."""


class _Absent(enum.Enum):
    ABSENT = "absent"


ABSENT = _Absent.ABSENT
"""The value of a field a document does not have: an enum member, so that it stays itself when a
worker of ``mpigen check`` (:mod:`mpigen.drift.specs`) sends a change back pickled."""


@dataclass(frozen=True)
class FieldChange:
    """One field of a file: its value on disk (``old``) and the one the spec gives (``new``)."""

    path: str
    old: Any = ABSENT
    new: Any = ABSENT

    def format(self) -> str:
        return f"{self.path or '(document)'}: {_show(self.old)} -> {_show(self.new)}"


@dataclass(frozen=True)
class FileDrift:
    """One file of a tree that ``mpigen build -o`` would change."""

    path: str  # relative to the job's tree, ``/``-separated ("" for the tree itself)
    kind: str
    changes: tuple[FieldChange, ...] = ()
    more: int = 0  # field changes left out of ``changes``
    detail: str = ""

    def describe(self) -> str:
        """What is wrong, in a few words."""
        if self.kind == MISSING:
            return "missing (mpigen would write it)"
        if self.kind == EXTRA:
            return "extra (mpigen wrote it and would no longer write it; --fix deletes it)"
        if self.kind == CHANGED:
            count = len(self.changes) + self.more
            return f"differs from the spec in {count} field{'s' if count != 1 else ''} (on disk -> from the spec)"
        if self.kind == FORMATTING:
            return "formatting differs (same data, other text: comments, quoting or layout)"
        if self.kind == UNPARSABLE:
            return f"not readable as YAML ({self.detail})" if self.detail else "not readable as YAML"
        if self.kind == CONFLICT:
            return (f"not written by mpigen (not in {OWNED_LIST}), but mpigen would write it; "
                    "move it away or delete it, then run mpigen build -o or mpigen check --fix")
        if self.kind == OWNERSHIP:
            return self.detail
        if self.kind == NOT_A_FOLDER:
            return "exists and is not a folder"
        if self.kind == ORPHAN:
            return (f"written by mpigen for job {self.detail!r}, which no spec defines any more (its spec was "
                    f"deleted or renamed); --fix removes the files mpigen wrote there (listed in {OWNED_LIST}) "
                    "and nothing else")
        return self.kind  # pragma: no cover - every kind is listed above

    def lines(self) -> list[str]:
        """The field changes as they are printed, one a line (empty when there are none)."""
        out = [change.format() for change in self.changes]
        if self.more:
            out.append(f"... and {self.more} more")
        return out


@dataclass
class JobDrift:
    """One job's tree: what mpigen would write there, and how the tree differs from it."""

    job: str
    source: str  # the spec file
    tree: Path  # <root>/<job>
    files: dict[str, str]  # what mpigen would write (relative path -> text), for --fix
    drift: list[FileDrift] = field(default_factory=list)

    @property
    def in_step(self) -> bool:
        return not self.drift

    @property
    def orphan(self) -> bool:
        """A tree whose spec is gone: ``--fix`` removes what mpigen wrote there."""
        return any(d.kind == ORPHAN for d in self.drift)

    @property
    def fixable(self) -> bool:
        """``--fix`` can rewrite the tree (mpigen build -o would refuse a conflict)."""
        return not any(d.kind in (CONFLICT, NOT_A_FOLDER) for d in self.drift)


def check_jobs(jobs: Iterable[CompiledJob], root: Path) -> list[JobDrift]:
    """The drift of every job's tree under ``root``, in the order of ``jobs``."""
    jobs = list(jobs)
    if not jobs:
        return []
    from ..render.kustomize import kustomize_files

    return [check_tree(root, job.name, kustomize_files(job), job.source) for job in jobs]


def check_tree(root: Path, job: str, files: dict[str, str], source: str = "") -> JobDrift:
    """Compare ``root/job`` with ``files`` (relative path -> the text mpigen would write)."""
    tree = root / job
    result = JobDrift(job, source, tree, files)
    if os.path.lexists(tree) and not tree.is_dir():
        result.drift.append(FileDrift("", NOT_A_FOLDER))
        return result
    owned = owned_files(tree)
    stale_entries = []
    for rel in sorted(set(files) | owned):
        path = tree / rel
        if rel not in files:  # owned, no longer written
            if os.path.lexists(path):
                result.drift.append(FileDrift(rel, EXTRA))
            else:
                stale_entries.append(rel)
            continue
        if not os.path.lexists(path):
            result.drift.append(FileDrift(rel, MISSING))
            continue
        if rel not in owned:
            result.drift.append(FileDrift(rel, CONFLICT))
            continue
        drift = compare_file(rel, path, files[rel])
        if drift is not None:
            result.drift.append(drift)
    if stale_entries:
        result.drift.append(FileDrift(OWNED_LIST, OWNERSHIP, detail=(
            f"lists {', '.join(stale_entries)}, which mpigen neither finds nor would write")))
    return result


def compare_file(rel: str, path: Path, want: str) -> FileDrift | None:
    """None when the file holds exactly ``want``; else how it differs."""
    try:
        have = path.read_bytes()
    except IsADirectoryError:
        return FileDrift(rel, UNPARSABLE, detail="a folder, not a file")
    except OSError as exc:
        return FileDrift(rel, UNPARSABLE, detail=f"cannot read: {exc.strerror or exc}")
    wanted = want.encode("utf-8")
    if have == wanted:  # the fast path: nothing is parsed
        return None
    old, problem = _parse(have, rel)
    if problem:
        return FileDrift(rel, UNPARSABLE, detail=problem)
    new, problem = _parse(wanted, rel)
    if problem:  # pragma: no cover - mpigen's own output always parses
        raise RuntimeError(f"mpigen's own output for {rel} does not parse: {problem}")
    changes = field_changes(old, new)
    if not changes:
        return FileDrift(rel, FORMATTING)
    return FileDrift(rel, CHANGED, tuple(changes[:MAX_CHANGES]), max(0, len(changes) - MAX_CHANGES))


def _parse(raw: bytes, name: str) -> tuple[Any, str]:
    """The documents of a file, with the loader the specs use (safe, bounded); or a problem."""
    from ..diagnostics import Severity
    from ..load.yaml_loader import load_bytes

    loaded = load_bytes(raw, name)
    errors = [d for d in loaded.diagnostics if d.severity is Severity.ERROR]
    if errors:
        first = errors[0]
        where = f"line {first.line}: " if first.line else ""
        return None, f"{where}{first.message}"
    docs = [doc.data for doc in loaded.documents]
    return (docs[0] if len(docs) == 1 else docs), ""


def field_changes(old: Any, new: Any) -> list[FieldChange]:
    """Every field that differs between two parsed documents (deepdiff), sorted by path.

    JSON patches (an overlay's ``*-patch.yaml``) are compared operation by operation, keyed by the
    path each one targets: one more operation would otherwise shift every later index, and the
    report would list them all as changed.
    """
    from deepdiff import DeepDiff  # imported only when a file differs

    old_ops, new_ops = _keyed_patch(old), _keyed_patch(new)
    patch = old_ops is not None and new_ops is not None
    if patch:
        old, new = old_ops, new_ops
    diff = DeepDiff(old, new, view="tree", verbose_level=2)
    changes = []
    for report in diff.values():
        for level in report:
            path = level.path(output_format="list")
            old_value = ABSENT if _absent(level.t1) else level.t1
            new_value = ABSENT if _absent(level.t2) else level.t2
            changes.append((_sort_key(path), FieldChange(_patch_path(path) if patch else format_path(path),
                                                         old_value, new_value)))
    changes.sort(key=lambda item: item[0])
    return [change for _, change in changes]


def _keyed_patch(doc: Any) -> dict[str, dict[str, Any]] | None:
    """A JSON patch as {target path: the operation without its path}; None when not a patch."""
    if not isinstance(doc, list) or not doc:
        return None
    out: dict[str, dict[str, Any]] = {}
    for op in doc:
        if not (isinstance(op, dict) and isinstance(op.get("op"), str) and isinstance(op.get("path"), str)):
            return None
        if op["path"] in out:
            return None
        out[op["path"]] = {k: v for k, v in op.items() if k != "path"}
    return out


def _patch_path(path: list[Any]) -> str:
    """``/spec/mpiReplicaSpecs/Worker/replicas`` then the field of the operation: ``... value``."""
    if not path:
        return ""
    rest = format_path(path[1:])
    return f"{path[0]} {rest}" if rest else str(path[0])


def _absent(value: Any) -> bool:
    return type(value).__name__ == "NotPresent"


def _sort_key(path: list[Any]) -> tuple:
    return tuple((0, part, "") if isinstance(part, int) else (1, 0, str(part)) for part in path)


def _show(value: Any) -> str:
    if value is ABSENT:
        return "(absent)"
    text = json.dumps(value, ensure_ascii=False, separators=(", ", ": "), default=str)
    if len(text) > MAX_VALUE:
        text = text[:MAX_VALUE - 3] + "..."
    return text


def orphan_trees(root: Path, jobs: Iterable[str]) -> list[str]:
    """Folders of ``root`` that mpigen wrote (they hold ``.mpigen-owned``) for none of ``jobs``."""
    names = set(jobs)
    try:
        entries = sorted(os.scandir(root), key=lambda e: e.name)
    except OSError:
        return []
    return [e.name for e in entries
            if e.name not in names and e.is_dir(follow_symlinks=False) and (Path(e.path) / OWNED_LIST).is_file()]


def orphan_drift(root: Path, jobs: Iterable[str]) -> list[JobDrift]:
    """The trees of :func:`orphan_trees` as drift: each an ``orphan`` of its own."""
    return [JobDrift(name, "", root / name, {}, [FileDrift("", ORPHAN, detail=name)])
            for name in orphan_trees(root, jobs)]
