"""A content-hash cache for ``mpigen check``: a repository with nothing changed is checked in a blink.

A tree is in step when its files are what the spec compiles to, and what a spec compiles to is a
pure function of the spec's bytes, the options (operator version, cluster file) and mpigen's own
code and schemas. The cache records, for a spec whose trees were found in step, the sha256 of
those inputs and of every file of its trees (the ownership list included). A later check that
finds the same input hash and the same file hashes on disk knows the answer without compiling;
any other difference — a byte in the spec, in a tree file, in mpigen itself — means a full check.
Tree files are re-read only when their inode, size, mtime or ctime changed, or when they were
written too close to the cache to tell (as git treats "racily clean" files): a file cannot change
without changing its ctime. So the cache makes a check faster, never makes it say "in step" wrongly.

It lives outside the repository (``$MPIGEN_CACHE_DIR``, else ``$XDG_CACHE_HOME/mpigen``, else
``~/.cache/mpigen``), one file per output folder; a missing, corrupt or unwritable cache is
simply not used.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..emit.writer import OWNED_LIST

VERSION = 1


@functools.lru_cache(maxsize=1)
def code_hash() -> str:
    """What identifies this mpigen: its version, and the size and mtime of every source file and
    schema (an upgrade or an edit changes them)."""
    from .. import __version__
    from ..spec.schema import schemas_folder

    package = Path(__file__).resolve().parents[1]  # mpigen/
    digest = hashlib.sha256(__version__.encode())
    files = [os.path.join(folder, name)
             for top, suffix in ((package, ".py"), (schemas_folder(), ".json"))
             for folder, _, names in os.walk(top) for name in names if name.endswith(suffix)]
    for path in sorted(files):
        stat = os.stat(path)
        digest.update(f"{path}\0{stat.st_size}\0{stat.st_mtime_ns}\n".encode())
    return digest.hexdigest()


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def cache_folder() -> Path:
    if os.environ.get("MPIGEN_CACHE_DIR"):
        return Path(os.environ["MPIGEN_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "mpigen"


@dataclass
class CheckCache:
    path: Path
    salt: str
    entries: dict[str, Any] = field(default_factory=dict)
    changed: bool = False
    written_ns: int = 0  # when the cache file was last written (its mtime)

    @classmethod
    def open(cls, root: Path, options: str) -> "CheckCache":
        """The cache of the trees under ``root``, for checks made with ``options`` (a description)."""
        key = _sha(str(root.resolve()).encode())[:20]
        path = cache_folder() / f"check-{key}.json"
        salt = _sha(f"{VERSION}\0{code_hash()}\0{options}".encode())
        cache = cls(path, salt)
        try:
            data = json.loads(path.read_text("utf-8"))
            if data.get("salt") == salt and isinstance(data.get("specs"), dict):
                cache.entries = data["specs"]
                cache.written_ns = path.stat().st_mtime_ns
        except (OSError, ValueError, AttributeError):
            pass
        return cache

    def lookup(self, root: Path, spec: str, content: bytes) -> dict[str, Any] | None:
        """The recorded result for this spec if its input and every file of its trees are unchanged."""
        entry = self.entries.get(spec)
        if not isinstance(entry, dict) or entry.get("input") != _sha(content):
            return None
        base = os.fspath(root)
        for job, files in entry.get("trees", {}).items():
            tree = os.path.join(base, job)
            if not all(self._unchanged(os.path.join(tree, name), record) for name, record in files.items()):
                return None
        return entry

    def _unchanged(self, path: str, record: Any) -> bool:
        """The file still holds the recorded bytes.

        As git does: a file whose inode, size, mtime and ctime are those recorded, and whose mtime
        is well before the cache was written (so no write can have followed within the same clock
        tick), is not read again; any other file is hashed. A file hashed and found unchanged gets
        its stat recorded and the cache written again (as git refreshes its index), so that a later
        check reads it only if it changed: else a tree written within two seconds before the cache
        (a check right after ``check --fix`` in a small repository) would be read by every check.
        """
        try:
            stat = os.stat(path)
        except OSError:
            return False
        sha, size, mtime, ctime, inode = record
        now = [stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns, stat.st_ino]
        if now == [size, mtime, ctime, inode] and max(mtime, ctime) < self.written_ns - 2_000_000_000:
            return True
        try:
            with open(path, "rb") as handle:
                unchanged = _sha(handle.read()) == sha
        except OSError:
            return False
        if unchanged:
            record[1:] = now  # the stat taken before the read: a write since changes it, or is racy again
            self.changed = True
        return unchanged

    def store(self, root: Path, spec: str, content: bytes, jobs: list[str], warnings: list[str]) -> None:
        """Record a spec whose trees were just found in step."""
        trees = {}
        for job in jobs:
            tree = root / job
            try:
                names = json.loads((tree / OWNED_LIST).read_text("utf-8"))["files"]
                trees[job] = {name: _record(tree / name) for name in [*names, OWNED_LIST]}
            except (OSError, ValueError, KeyError, TypeError):
                return
        self.entries[spec] = {"input": _sha(content), "trees": trees, "warnings": warnings}
        self.changed = True

    def save(self) -> None:
        if not self.changed:
            return
        import tempfile  # only when there is something to write
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=".check-", dir=self.path.parent)
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                # dumps, not dump: only a one-shot encoding uses json's C encoder
                handle.write(json.dumps({"salt": self.salt, "specs": self.entries}, sort_keys=True))
            os.replace(tmp, self.path)
        except OSError:
            pass  # a cache that cannot be written is only slower


def _record(path: Path) -> list[Any]:
    data = path.read_bytes()
    stat = path.stat()
    return [_sha(data), stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns, stat.st_ino]
