"""Stage 6, emit to disk: write a job's tree atomically, touching only what mpigen owns.

``write_tree(out, job, files)`` builds the new ``out/<job>/`` in a staging folder next to it and
swaps the two folders in one step (Linux ``renameat2(RENAME_EXCHANGE)``; elsewhere two renames
with a window in which the folder is briefly absent). A build that fails or is killed before
the swap leaves the old tree as it was; after the swap the new tree is complete.

mpigen records the files it wrote in ``<job>/.mpigen-owned``. Any other file found in the old
tree (a README, an extra patch the user keeps there) is carried into the new tree as a hard
link, so its content, inode and timestamps are unchanged; a generated file that would replace
such a file is refused.
"""

from __future__ import annotations

import ctypes
import errno
import json
import os
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


def _foreign(tree: Path, owned: set[str]) -> list[str]:
    out = []
    for root, dirs, files in os.walk(tree):
        for name in files + [d for d in dirs if os.path.islink(os.path.join(root, d))]:
            rel = os.path.relpath(os.path.join(root, name), tree).replace(os.sep, "/")
            if rel != OWNED_LIST and rel not in owned:
                out.append(rel)
    return sorted(out)


def clean_stale(out: Path, job: str) -> None:
    """Remove staging folders left behind by a build that was killed."""
    if out.is_dir():
        for entry in out.iterdir():
            if entry.name.startswith(f".{job}{_STAGING}") and entry.is_dir():
                shutil.rmtree(entry, ignore_errors=True)


def write_tree(out: Path, job: str, files: dict[str, str]) -> list[str]:
    """Replace ``out/<job>`` by ``files`` (relative path -> text). Returns the paths written.

    Raises WriteError (nothing changed) for a conflict with a file mpigen does not own, or OSError.
    """
    out.mkdir(parents=True, exist_ok=True)
    clean_stale(out, job)
    target = out / job
    if target.exists() and not target.is_dir():
        raise WriteError(f"{target} exists and is not a folder")
    owned = owned_files(target) if target.is_dir() else set()
    foreign = _foreign(target, owned) if target.is_dir() else []
    clashes = sorted(set(foreign) & set(files))
    if clashes:
        raise WriteError(f"{target}: mpigen would overwrite {', '.join(clashes)}, which it did not write; "
                         "move them away or delete them first")
    staging = Path(tempfile.mkdtemp(prefix=f".{job}{_STAGING}", dir=out))
    try:
        for rel, content in files.items():
            _write(staging / rel, content)
        _write(staging / OWNED_LIST, json.dumps({"generator": "mpigen", "files": sorted(files)}, indent=2) + "\n")
        for rel in foreign:
            src, dst = target / rel, staging / rel
            dst.parent.mkdir(parents=True, exist_ok=True)
            if src.is_symlink():
                os.symlink(os.readlink(src), dst)
            else:
                os.link(src, dst)
        if target.is_dir():
            if not _exchange(staging, target):
                old = Path(tempfile.mkdtemp(prefix=f".{job}{_STAGING}old-", dir=out))
                os.rename(target, old / job)
                os.rename(staging, target)
                staging = old
        else:
            os.rename(staging, target)
            staging = None  # type: ignore[assignment]
    finally:
        if staging is not None and staging.exists():
            shutil.rmtree(staging, ignore_errors=True)
    return sorted(files)
