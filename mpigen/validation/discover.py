"""Which files ``mpigen validate PATH...`` reads: files as given, folders recursively, ``-``."""

from __future__ import annotations

import os
from fnmatch import fnmatchcase
from pathlib import Path

SUFFIXES = (".yaml", ".yml")


class MissingPath(Exception):
    pass


def excluded(path: str, patterns: tuple[str, ...] | list[str]) -> bool:
    """Whether a file is left out by a glob of ``--exclude`` (or the configuration's ``exclude``):
    a pattern matches the path as found (``./`` and ``..`` folded), or any tail of it (``*.tpl.yaml``,
    ``templates/*.yaml``); ``*`` crosses folders, as in ``.gitignore``'s ``**``; a pattern that
    names a folder (``charts``, ``charts/``) leaves out everything below it."""
    parts = Path(os.path.normpath(path)).as_posix().split("/")
    tails = ["/".join(parts[i:]) for i in range(len(parts))]
    folders = ["/".join(parts[i:j]) for i in range(len(parts)) for j in range(i + 1, len(parts))]
    for pattern in patterns:
        pattern = pattern.rstrip("/").removeprefix("./")
        if any(fnmatchcase(tail, pattern) for tail in tails) or any(fnmatchcase(f, pattern) for f in folders):
            return True
    return False


def discover(paths: list[str], exclude: tuple[str, ...] | list[str] = ()) -> list[str]:
    """Files in a stable order; folders give their *.yaml and *.yml, hidden folders skipped; a file
    ``exclude`` matches is left out, whether a folder gave it or it was named."""
    out: list[str] = []
    seen: set[str] = set()
    for raw in paths:
        if raw == "-":
            out.append(raw)
            continue
        path = Path(raw)
        if path.is_dir():
            found = []
            for root, dirs, files in os.walk(path):
                dirs[:] = sorted(d for d in dirs if not d.startswith("."))
                found += [os.path.join(root, f) for f in files if f.endswith(SUFFIXES) and not f.startswith(".")]
            candidates = sorted(found)
        elif path.exists():
            candidates = [raw]
        else:
            raise MissingPath(raw)
        for candidate in candidates:
            if candidate not in seen and not (exclude and excluded(candidate, exclude)):
                seen.add(candidate)
                out.append(candidate)
    return out


def neighbours(files: list[str]) -> list[str]:
    """The other files of the folders of ``files`` that a folder given whole would give (its
    *.yaml and *.yml, not hidden; not its subfolders), those of ``files`` left out, in a stable
    order. A file is often applied with its folder (``kubectl apply -f DIR``, a kustomize tree's
    base) though a run names it alone (a pre-commit hook passes the staged files only, a few at a
    time): a TrainJob's runtime may be in one of them."""
    given = {os.path.normpath(f) for f in files if f != "-"}
    folders = sorted({os.path.dirname(f) or "." for f in given})
    out: list[str] = []
    for folder in folders:
        try:
            names = sorted(os.listdir(folder))
        except OSError:
            continue
        for name in names:
            path = os.path.normpath(os.path.join(folder, name))
            if name.endswith(SUFFIXES) and not name.startswith(".") and path not in given and os.path.isfile(path):
                out.append(path)
    return out
