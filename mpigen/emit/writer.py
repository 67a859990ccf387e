"""Stage 6, emit to disk: write a job's tree atomically, touching only what mpigen owns.

``write_tree(out, job, files)`` builds the new ``out/<job>/`` in a staging folder and swaps the
two folders in one step (Linux ``renameat2(RENAME_EXCHANGE)``; elsewhere two renames with a
window in which the folder is briefly absent). A build that fails or is killed before the swap
leaves the old tree as it was; after the swap the new tree is complete. Before the swap every
file and folder of the new tree is flushed to disk (``fsync``), and after it the folders holding
both, so that a power loss cannot leave the swap recorded but the new tree's content lost, nor
lose the swap once ``write_tree`` has returned.

**Where the staging folder is.** Tools read every manifest below a folder: ``kubectl apply -R -f
DIR``, kubeconform, a GitOps agent. They do not skip hidden folders, and they take files by
their suffix (``.yaml``, ``.yml``, ``.json``). So the new tree is staged *beside* ``DIR``, in
its parent, as ``.<DIR>.<job>.mpigen-staging-XXXXXXXX``, where no reader of ``DIR`` looks, and
every file is written there under a name no manifest reader takes (``<name>.mpigen-staged``)
and renamed to its own name only once all are written and flushed, just before the swap. A
build killed at any moment thus leaves nothing that a reader of ``DIR`` would take for a
manifest but the old tree or the new one; a reader of the parent (the repository's root, say)
sees manifests in the staging folder only between those renames and the swap, and the old tree
there while it is deleted after the swap. The next build of the job removes what a killed one
left (:func:`clean_stale`), and ``mpigen check`` reports it (:func:`stale_staging`).

The staging folder stays inside ``DIR`` (``DIR/.<job>.mpigen-staging-XXXXXXXX``, the same
suffixed names) when the parent is another file system (``DIR`` is a mount point: a rename
cannot cross it) or cannot be written. The two-rename fallback parks the old tree beside the
staging folder (``.<DIR>.<job>.mpigen-staging-old-XXXXXXXX/<job>``): between its two renames a
reader of ``DIR`` finds no tree of the job at all, the window that only an atomic exchange
closes.

mpigen records the files it wrote in ``<job>/.mpigen-owned``. Any other file found in the old
tree (a README, an extra patch the user keeps there) is carried into the new tree as a hard
link, so its content, inode and timestamps are unchanged; a generated file that would replace
such a file (or one in the way of a generated path) is refused. Folders of the user's are kept;
a symlink of the user's is recreated pointing at the same target.

``remove_tree(out, job)`` (``mpigen check --fix`` for a tree whose spec is gone) takes away what
the ownership list names, the same way: the user's files stay, everything else goes at once.
"""

from __future__ import annotations

import errno
import json
import os
import posixpath
from pathlib import Path

from ..diagnostics import Diagnostic, Severity

OWNED_LIST = ".mpigen-owned"
_STAGING = ".mpigen-staging-"
STAGED = ".mpigen-staged"
"""The suffix of every file while it is staged: no manifest reader takes a file named so."""
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


def _fsync_dirs(out: Path, staging_parent: Path) -> None:
    """After a swap: the folder holding the tree, and the staging folder's when that is another."""
    _fsync_dir(out)
    if os.path.realpath(staging_parent) != os.path.realpath(out):
        _fsync_dir(staging_parent)


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


def _beside(out: Path) -> tuple[Path, str] | None:
    """The folder beside ``out`` (its parent, through symlinks) and the prefix of the staging
    folders there; None when ``out`` is the root or a mount point (a rename cannot leave it)."""
    real = Path(os.path.realpath(out))
    parent = real.parent
    try:
        if parent == real or os.stat(parent).st_dev != os.stat(real).st_dev:
            return None
    except OSError:
        return None
    return parent, f".{real.name}."


def _staging_entries(out: Path, job: str | None) -> list[tuple[Path, bool]]:
    """Staging folders of ``job`` (of every job when None): (folder, whether it is inside ``out``)."""
    places = [(out, ".", True)]
    beside = _beside(out)
    if beside is not None:
        places.append((beside[0], beside[1], False))
    found = []
    for folder, prefix, inside in places:
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError:
            continue
        for entry in entries:
            name = entry.name
            if not name.startswith(prefix) or _STAGING not in name or not entry.is_dir(follow_symlinks=False):
                continue
            if job is None or name.startswith(f"{prefix}{job}{_STAGING}"):
                found.append((Path(entry.path), inside))
    return found


def stale_staging(out: Path) -> list[tuple[Path, bool]]:
    """Staging folders that builds into ``out`` left when they were killed (or that a build is
    using right now): (folder, whether it is inside ``out``, where the readers of ``out`` see it)."""
    return _staging_entries(out, None) if out.is_dir() else []


def stale_staging_diagnostics(out: Path, shown: str) -> list[Diagnostic]:
    """``mpigen check``'s report of :func:`stale_staging`, ``shown`` being how ``out`` is shown.

    Inside ``out`` a staging folder is an error: a recursive reader of ``out`` (``kubectl apply
    -R -f``) takes its files for manifests, beside the tree's own. Beside ``out`` it is a
    warning: the trees in ``out`` are whole and no reader of ``out`` sees it; it is litter that
    readers of the parent folder may see. Both are removed by the job's next build and by
    ``mpigen check --fix`` (:func:`clean_all_stale`).
    """
    left = "left by an mpigen build that was stopped before it finished (or one running now)"
    fix = "mpigen check --fix or mpigen build -o removes it"
    found = []
    for folder, inside in stale_staging(out):
        if inside:
            found.append(Diagnostic(f"{shown.rstrip('/')}/{folder.name}", None, None, "", "stale-staging",
                                    Severity.ERROR, f"a staging folder {left}: readers of {shown} (kubectl "
                                    f"apply -R -f {shown}) take its files for manifests; {fix}"))
        else:
            found.append(Diagnostic(os.path.normpath(os.path.join(shown, os.pardir, folder.name)), None, None, "",
                                    "stale-staging", Severity.WARNING, f"a staging folder beside {shown}, "
                                    f"{left}; the trees in {shown} are whole; {fix}"))
    return found


def clean_all_stale(out: Path) -> None:
    """:func:`clean_stale` for every job that left a staging folder in or beside ``out``."""
    beside = _beside(out)
    for folder, inside in stale_staging(out):
        prefix = "." if inside or beside is None else beside[1]
        clean_stale(out, folder.name[len(prefix):folder.name.index(_STAGING)])


def clean_stale(out: Path, job: str) -> None:
    """Tidy up after a build that was killed: staging folders go, and an old tree parked by the
    two-rename fallback goes back in place if the new one never arrived."""
    if not out.is_dir():
        return
    target = out / job
    for entry, inside in _staging_entries(out, job):
        import shutil  # only when a build left something (a check looks for it every time)

        parked = entry / job
        if f"{_STAGING}old-" in entry.name and parked.is_dir() and not target.exists():
            os.rename(parked, target)
        shutil.rmtree(entry, ignore_errors=True)


def _umask() -> int:
    """The process's umask (read by setting it and putting it back: POSIX has no other way)."""
    mask = os.umask(0o077)
    os.umask(mask)
    return mask


def _make_staging(out: Path, job: str, kind: str = "") -> Path:
    """A new staging folder (``kind`` "old-": where the fallback parks the old tree): beside
    ``out`` where it can be, else inside it (see the module).

    ``mkdtemp`` makes it 0700 whatever the umask; the staging folder of a new tree becomes
    ``out/<job>`` by a rename, so it gets the mode a plain ``mkdir`` would give it (0777 less the
    umask), as every folder and file inside it already has."""
    import tempfile  # only when a tree is written (a check looks for stale staging every time)

    beside = _beside(out)
    staging = None
    if beside is not None:
        try:
            staging = Path(tempfile.mkdtemp(prefix=f"{beside[1]}{job}{_STAGING}{kind}", dir=beside[0]))
        except OSError as exc:
            if exc.errno not in (errno.EACCES, errno.EPERM, errno.EROFS):
                raise
    if staging is None:
        staging = Path(tempfile.mkdtemp(prefix=f".{job}{_STAGING}{kind}", dir=out))
    if not kind:
        os.chmod(staging, 0o777 & ~_umask())
    return staging


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
    _swap_in(out, job, files, foreign, folders)
    return sorted(files)


def _swap_in(out: Path, job: str, files: dict[str, str], foreign: list[str], folders: list[str]) -> None:
    """Stage ``files`` (with their ownership list; none when there are no files), the user's
    ``foreign`` files (hard links) and ``folders`` of ``out/<job>``, then swap the staged tree in."""
    import shutil

    target = out / job
    staging = _make_staging(out, job)
    staged: list[str] = []  # every file, by its name in the tree; written as <name>.mpigen-staged
    try:
        for rel, content in files.items():
            _write(staging / (rel + STAGED), content)
            staged.append(rel)
        if files:
            _write(staging / (OWNED_LIST + STAGED),
                   json.dumps({"generator": "mpigen", "files": sorted(files)}, indent=2) + "\n")
            staged.append(OWNED_LIST)
        for rel in folders:
            (staging / rel).mkdir(parents=True, exist_ok=True)
        for rel in foreign:
            src, dst = target / rel, staging / (rel + STAGED)
            dst.parent.mkdir(parents=True, exist_ok=True)
            if src.is_symlink():
                os.symlink(os.readlink(src), dst)  # a symlink is recreated (same target)
            else:
                os.link(src, dst)  # same inode: content and timestamps untouched
            staged.append(rel)
        for rel in staged:  # every file is written and flushed: now they take their names
            os.rename(staging / (rel + STAGED), staging / rel)
        _fsync_tree(staging)
        if target.is_dir():
            if not _exchange(staging, target):
                parked = _make_staging(out, job, "old-")
                os.rename(target, parked / job)
                try:
                    os.rename(staging, target)
                except OSError:
                    os.rename(parked / job, target)  # put the old tree back
                    shutil.rmtree(parked, ignore_errors=True)
                    raise
                _fsync_dirs(out, staging.parent)
                shutil.rmtree(parked, ignore_errors=True)
            else:
                _fsync_dirs(out, staging.parent)
        else:
            os.rename(staging, target)
            staging = None  # type: ignore[assignment]
            _fsync_dir(out)
    finally:
        if staging is not None and staging.exists():  # the old tree after a swap, or what a failure left
            shutil.rmtree(staging, ignore_errors=True)


def remove_tree(out: Path, job: str) -> list[str]:
    """Remove what mpigen wrote in ``out/<job>``: the files its ownership list names, the list, and
    the folders left empty by them. Every other file and folder stays, with its inode; the tree's
    folder goes only when nothing else is in it. Returns the files removed.

    Atomic as :func:`write_tree` is: a tree of mpigen's files only is moved out of ``out`` in one
    rename (then deleted); a tree holding files of the user's is swapped with a staged copy of
    just those. Raises WriteError (nothing changed) when ``out/<job>`` has no ownership list.
    """
    target = out / job
    if not (target / OWNED_LIST).is_file():
        raise WriteError(f"{target}: no {OWNED_LIST}, so mpigen did not write it; nothing removed")
    clean_stale(out, job)
    owned = owned_files(target)
    foreign, folders = _foreign(target, owned)
    removed = sorted(rel for rel in owned if os.path.lexists(target / rel) and not (target / rel).is_dir())
    if foreign or folders:
        _swap_in(out, job, {}, foreign, folders)
        return removed
    import shutil

    gone = _make_staging(out, job, "gone-")
    try:
        os.rename(target, gone / job)
        _fsync_dirs(out, gone.parent)
    finally:
        shutil.rmtree(gone, ignore_errors=True)
    return removed
