"""Stage 6, emit to disk: write a job's tree atomically, touching only what mpigen owns.

``write_tree(out, job, files)`` builds the new ``out/<job>/`` in a staging folder next to it and
swaps the two folders in one step (Linux ``renameat2(RENAME_EXCHANGE)``; elsewhere two renames
with a window in which the folder is briefly absent). A build that fails or is killed before
the swap leaves the old tree as it was; after the swap the new tree is complete. Before the
swap every file and folder of the new tree is flushed to disk (``fsync``), and after it the
folder holding both, so that a power loss cannot leave the swap recorded but the new tree's
content lost, nor lose the swap once ``write_tree`` has returned.

mpigen records the files it wrote in ``<job>/.mpigen-owned``. Any other file found in the old
tree (a README, an extra patch the user keeps there) is carried into the new tree as a hard
link, so its content, inode and timestamps are unchanged; a generated file that would replace
such a file (or one in the way of a generated path) is refused. Folders of the user's are kept;
a symlink of the user's is recreated pointing at the same target.
"""

from __future__ import annotations

import errno
import json
import os
import posixpath
import shutil
import tempfile
from pathlib import Path

OWNED_LIST = ".mpigen-owned"
_STAGING = ".mpigen-staging-"
_RENAME_EXCHANGE = 2
_AT_FDCWD = -100


class WriteError(Exception):
    """The tree could not be written; the old tree is unchanged."""


def owned_files(tree: Path) -> set[str]:
    try:
        data = json.loads((tree / OWNED_LIST).read_text("utf-8"))
        return {str(p) for p in data.get("files", [])}
    except (OSError, ValueError, AttributeError):
        return set()


def _exchange(a: Path, b: Path) -> bool:
    """Atomically swap two paths; False when the system cannot."""
    import ctypes  # only when a tree is written

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    result = renameat2(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE)
    if result == 0:
        return True
    err = ctypes.get_errno()
    if err in (errno.ENOSYS, errno.EINVAL, errno.ENOTSUP):
        return False
    raise OSError(err, os.strerror(err), str(b))


def _write(path: Path, content: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as handle:
        handle.write(content)
        handle.flush()
        os.fsync(handle.fileno())


def _fsync_dir(path: Path) -> None:
    """Flush a folder's entries (names created, renamed or removed in it) to disk."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError as exc:
        if exc.errno in (errno.EACCES, errno.EPERM, errno.EISDIR):
            return  # a platform or folder that cannot be opened for this: nothing more to do
        raise
    try:
        os.fsync(fd)
    except OSError as exc:
        if exc.errno not in (errno.EINVAL, errno.EBADF, errno.ENOTSUP):  # a file system without folder fsync
            raise
    finally:
        os.close(fd)


def _fsync_tree(tree: Path) -> None:
    """Flush every folder of ``tree``, innermost first (the files are flushed as they are written)."""
    for root, _dirs, _files in os.walk(tree, topdown=False):
        _fsync_dir(Path(root))


def _foreign(tree: Path, owned: set[str]) -> tuple[list[str], list[str]]:
    """Files (and symlinks) mpigen does not own, and folders holding no file it owns."""
    files, folders = [], []
    for root, dirs, names in os.walk(tree):
        rel_root = os.path.relpath(root, tree).replace(os.sep, "/")
        for name in names + [d for d in dirs if os.path.islink(os.path.join(root, d))]:
            rel = posixpath.normpath(posixpath.join(rel_root, name))
            if rel != OWNED_LIST and rel not in owned:
                files.append(rel)
        for name in dirs:
            rel = posixpath.normpath(posixpath.join(rel_root, name))
            if not os.path.islink(os.path.join(root, name)) and not any(
                    o == rel or o.startswith(rel + "/") for o in owned):
                folders.append(rel)
    return sorted(files), sorted(folders)


def _parents(rel: str) -> set[str]:
    parts = rel.split("/")
    return {"/".join(parts[:i]) for i in range(1, len(parts))}


def _clashes(foreign: list[str], files: dict[str, str]) -> list[str]:
    """Generated paths that would replace, sit under, or contain a file mpigen does not own."""
    foreign_set = set(foreign)
    foreign_parents = set().union(*(_parents(f) for f in foreign)) if foreign else set()
    out = set()
    for rel in files:
        if rel in foreign_set or _parents(rel) & foreign_set or rel in foreign_parents:
            out.add(rel)
    return sorted(out)


def clean_stale(out: Path, job: str) -> None:
    """Tidy up after a build that was killed: staging folders go, and an old tree parked by the
    two-rename fallback goes back in place if the new one never arrived."""
    if not out.is_dir():
        return
    target = out / job
    for entry in sorted(out.iterdir()):
        if not entry.is_dir() or not entry.name.startswith(f".{job}{_STAGING}"):
            continue
        parked = entry / job
        if entry.name.startswith(f".{job}{_STAGING}old-") and parked.is_dir() and not target.exists():
            os.rename(parked, target)
        shutil.rmtree(entry, ignore_errors=True)


def _check_paths(files: dict[str, str]) -> None:
    for rel in files:
        norm = posixpath.normpath(rel)
        if rel.startswith("/") or norm != rel or norm.startswith("../") or norm in ("..", ".", OWNED_LIST):
            raise WriteError(f"refusing to write {rel!r}: not a plain relative path inside the tree")


def write_tree(out: Path, job: str, files: dict[str, str]) -> list[str]:
    """Replace ``out/<job>`` by ``files`` (relative path -> text). Returns the paths written.

    Raises WriteError (nothing changed) for a conflict with a file mpigen does not own, or OSError.
    """
    _check_paths(files)
    if not out.is_dir():
        out.mkdir(parents=True, exist_ok=True)
        _fsync_dir(out.parent)
    clean_stale(out, job)
    target = out / job
    if target.exists() and not target.is_dir():
        raise WriteError(f"{target} exists and is not a folder")
    owned = owned_files(target) if target.is_dir() else set()
    foreign, folders = _foreign(target, owned) if target.is_dir() else ([], [])
    clashes = _clashes(foreign, files)
    if clashes:
        raise WriteError(f"{target}: mpigen would overwrite {', '.join(clashes)}, or a file of yours in its "
                         "way, which it did not write; move them away or delete them first")
    staging = Path(tempfile.mkdtemp(prefix=f".{job}{_STAGING}", dir=out))
    try:
        for rel, content in files.items():
            _write(staging / rel, content)
        _write(staging / OWNED_LIST, json.dumps({"generator": "mpigen", "files": sorted(files)}, indent=2) + "\n")
        for rel in folders:
            (staging / rel).mkdir(parents=True, exist_ok=True)
        for rel in foreign:
            src, dst = target / rel, staging / rel
            dst.parent.mkdir(parents=True, exist_ok=True)
            if src.is_symlink():
                os.symlink(os.readlink(src), dst)  # a symlink is recreated (same target)
            else:
                os.link(src, dst)  # same inode: content and timestamps untouched
        _fsync_tree(staging)
        if target.is_dir():
            if not _exchange(staging, target):
                parked = Path(tempfile.mkdtemp(prefix=f".{job}{_STAGING}old-", dir=out))
                os.rename(target, parked / job)
                try:
                    os.rename(staging, target)
                except OSError:
                    os.rename(parked / job, target)  # put the old tree back
                    shutil.rmtree(parked, ignore_errors=True)
                    raise
                _fsync_dir(out)
                shutil.rmtree(parked, ignore_errors=True)
            else:
                _fsync_dir(out)
        else:
            os.rename(staging, target)
            staging = None  # type: ignore[assignment]
            _fsync_dir(out)
    finally:
        if staging is not None and staging.exists():
            shutil.rmtree(staging, ignore_errors=True)
    return sorted(files)
