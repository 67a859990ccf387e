"""Which files ``mpigen validate PATH...`` reads: files as given, folders recursively, ``-``."""

from __future__ import annotations

import os
from pathlib import Path

SUFFIXES = (".yaml", ".yml")


class MissingPath(Exception):
    pass


def discover(paths: list[str]) -> list[str]:
    """Files in a stable order; folders give their *.yaml and *.yml, hidden folders skipped."""
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
            if candidate not in seen:
                seen.add(candidate)
                out.append(candidate)
    return out
