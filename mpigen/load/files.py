"""Stage 1, load: a file's bytes, with the command line's words when it cannot be read.

Its own module so that the commands reading many files (``check``: every spec of a repository)
need not import the Python API (:mod:`mpigen.api`) to read them.
"""

from __future__ import annotations

from ..diagnostics import UsageError


def read_bytes(path: str) -> bytes:
    """The bytes of the file at ``path``; :class:`~mpigen.diagnostics.UsageError` when it is a
    folder or cannot be read (the command line's message)."""
    try:
        with open(path, "rb") as file:
            return file.read()
    except IsADirectoryError:
        raise UsageError(f"{path}: is a folder, not a file", path) from None
    except OSError as exc:
        raise UsageError(f"{path}: cannot read: {exc.strerror or exc}", path) from None
