"""The command line's inputs without click: files and stdin, the cluster file, option values.

Shared by the click commands (:mod:`mpigen.cli`, which turns :class:`Usage` into its message and
exit code 2) and the fast entry point (:mod:`mpigen.fastcli`, which runs ``build`` and
``validate`` without importing click).
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing on the fast path
if TYPE_CHECKING:
    from .diagnostics import Diagnostic
    from .load.document import LoadResult
    from .pipeline import CompiledJob


class Usage(Exception):
    """A usage or I/O error: printed as ``mpigen: MESSAGE``; the exit code is 2."""


def read_input(path: str) -> tuple[bytes, str]:
    """The bytes of a file or of stdin (``-``), and the name diagnostics give it."""
    if path == "-":
        return sys.stdin.buffer.read(), "<stdin>"
    try:
        with open(path, "rb") as file:
            return file.read(), path
    except IsADirectoryError:
        raise Usage(f"{path}: is a folder, not a file") from None
    except OSError as exc:
        raise Usage(f"{path}: cannot read: {exc.strerror or exc}") from None


def load_input(path: str) -> tuple[LoadResult, str]:
    from .load.yaml_loader import load_bytes

    raw, name = read_input(path)
    return load_bytes(raw, name), name


def operator_version(value: str) -> tuple[int, int, int]:
    from .operator.versions import parse_version

    try:
        return parse_version(value)
    except ValueError as exc:
        raise Usage(f"--operator-version: {exc}") from None


def cluster_classes(path: str | None) -> tuple[dict[str, int] | None, list[Diagnostic]]:
    """The PriorityClasses of a ``--cluster`` file (None without one), and its diagnostics."""
    if path is None:
        return None, []
    from .load.cluster import priority_classes

    loaded, name = load_input(path)
    classes, diagnostics = priority_classes(loaded.documents, name)
    return classes, loaded.diagnostics + diagnostics


def require_environment(jobs: list[CompiledJob], env: str | None) -> None:
    """:class:`Usage` when ``--env`` names an environment that one of the compiled jobs lacks."""
    if env is None:
        return
    missing = [job.name for job in jobs if env not in job.environments]
    if missing:
        known = sorted({e for job in jobs for e in job.environments})
        raise Usage(f"--env {env}: no such environment in {', '.join(missing)} "
                    f"(environments: {', '.join(known) or 'none'})")
