"""What the commands read and write: files and stdin, option values, diagnostics on stderr.

For :mod:`mpigen.commands` only; the pipeline's stages neither print nor read files. A usage or
I/O error is raised as :class:`UsageError` (:mod:`mpigen.diagnostics`', which the Python API
raises too); :mod:`mpigen.main` prints it as ``mpigen: MESSAGE`` with exit code 2.
:mod:`mpigen.main` imports this module at start-up, so the loader, the cluster file's reader and
the configuration are imported by the functions that need them.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING

import click

from .diagnostics import Diagnostic, Severity, UsageError, sort_diagnostics
from .versions import DEFAULT_OPERATOR_VERSION, OperatorVersion

if TYPE_CHECKING:
    from pathlib import Path

    from .config import Config
    from .explanation.jobs import Jobs
    from .load.cluster import Cluster
    from .load.document import LoadResult
    from .load.trainer_runtimes import Runtimes


def read_input(path: str) -> tuple[bytes, str]:
    """The bytes of a file or of stdin (``-``), and the name diagnostics give it."""
    if path == "-":
        return sys.stdin.buffer.read(), "<stdin>"
    from .load.files import read_bytes

    return read_bytes(path), path


def api_input(path: str) -> str | tuple[str, bytes]:
    """A command's path argument as the Python API (:mod:`mpigen.api`) reads it: the path, or for
    ``-`` stdin's name and bytes (the API reads files, never stdin)."""
    if path == "-":
        raw, name = read_input(path)
        return name, raw
    return path


def load_input(path: str) -> tuple[LoadResult, str]:
    """A file or stdin read and parsed (YAML errors are diagnostics of the result)."""
    from .load.yaml_loader import load_bytes

    raw, name = read_input(path)
    return load_bytes(raw, name), name


def operator_version(value: str) -> OperatorVersion:
    """The value of ``--operator-version``."""
    try:
        return OperatorVersion.parse(value)
    except ValueError as exc:
        raise UsageError(f"--operator-version: {exc}") from None


@dataclass(frozen=True)
class ClusterInput:
    """Where a command reads the cluster: ``--cluster FILE``, or the live cluster of
    ``--kube-context NAME`` and ``--kubeconfig PATH`` (:mod:`mpigen.kube`), or nowhere."""

    file: str | None = None
    context: str | None = None
    kubeconfig: str | None = None

    @property
    def live(self) -> bool:
        return self.context is not None or self.kubeconfig is not None


def configured(config: Config, version_option: str | None, cluster: ClusterInput
               ) -> tuple[OperatorVersion, ClusterInput]:
    """The operator version and the cluster a command uses: its ``--operator-version`` and
    ``--cluster`` (or ``--kube-context``, ``--kubeconfig``), else the configuration's
    ``operatorVersion`` and ``cluster`` (relative to the configuration's folder), else v0.8.2 and
    none. Every command reads them so, and so a tree that ``build -o`` writes is one that ``check``
    finds in step. ``--cluster`` with a live option is a usage error: one cluster is read."""
    if version_option is not None:
        version = operator_version(version_option)
    elif config.operator_version is None:
        version = DEFAULT_OPERATOR_VERSION
    else:
        try:
            version = OperatorVersion.parse(config.operator_version)
        except ValueError as exc:
            raise UsageError(f"{config.path}: operatorVersion: {exc}") from None
    if cluster.live and cluster.file is not None:
        given = "--kube-context" if cluster.context is not None else "--kubeconfig"
        raise UsageError(f"--cluster and {given} do not go together: the cluster is read from a file or live, "
                         "not both")
    if cluster.file is None and not cluster.live and config.cluster:
        cluster = ClusterInput(display_path(config.root / config.cluster, config.root))
    return version, cluster


def display_path(path: Path | str, base: Path | None = None) -> str:
    """A path as the user reads it: relative to the working directory when under it, or when both
    are under ``base`` (the configuration's folder: ``../deploy`` from a subfolder); else absolute.
    (On strings: ``mpigen check`` shows every spec of a repository through it.)"""
    import os

    cwd = os.getcwd()
    absolute = os.path.abspath(path)
    inside = _within(absolute, cwd)
    if not inside and base is not None:
        root = os.path.abspath(base)
        inside = _within(absolute, root) and _within(cwd, root)
    return os.path.relpath(absolute, cwd) if inside else absolute


def _within(path: str, folder: str) -> bool:
    """Whether the absolute, normalized ``path`` is ``folder`` or under it."""
    import os

    path, folder = os.path.normcase(path), os.path.normcase(folder)
    return path == folder or path.startswith(folder if folder.endswith(os.sep) else folder + os.sep)


def load_cluster(source: ClusterInput) -> tuple[Cluster | None, list[Diagnostic]]:
    """What the ``--cluster`` file or the live cluster holds (None without either), and what was
    found reading it. An unreachable cluster is a :class:`UsageError`."""
    if source.live:
        import os

        from .kube import KubeError, read_live

        try:
            return read_live(source.kubeconfig, source.context, os.environ)
        except KubeError as exc:
            raise UsageError(str(exc)) from None
    if source.file is None:
        return None, []
    from .load.cluster import read_cluster
    from .load.large_cluster import load

    raw, name = read_input(source.file)
    loaded = load(raw, name)
    cluster, diagnostics = read_cluster(loaded.documents, name)
    return cluster, loaded.diagnostics + diagnostics


def cluster_key(source: ClusterInput, cluster: Cluster | None) -> bytes:
    """What a cache of verdicts keys the cluster by: a file's bytes; the live cluster's
    PriorityClasses and training runtimes (what a compiled spec depends on)."""
    if source.live and cluster is not None:
        import json

        runtimes = sorted(([*key], obj) for key, obj in cluster.runtimes.objects.items())
        return json.dumps([cluster.priority_classes, runtimes], sort_keys=True).encode()
    return b"" if source.file is None else read_input(source.file)[0]


def cluster_namespaces(cluster: Cluster | None) -> dict[str, dict[str, str]] | None:
    """The labels of the Namespaces of a ``--cluster`` file; None when it lists none (not known)."""
    return cluster.namespaces if cluster is not None and cluster.namespaces else None


def cluster_runtimes(cluster: Cluster | None) -> Runtimes | None:
    """The training runtimes of a ``--cluster`` file; None when it gives none (Trainer's default
    runtimes then stand in: :func:`mpigen.lint.base.trainer_runtimes`)."""
    return cluster.runtimes if cluster is not None and cluster.runtimes.objects else None


def read_jobs(source: str, gang: str | None, scheduler_name: str, cluster_input: ClusterInput,
              version: OperatorVersion, env: str | None, disabled: frozenset[str] = frozenset(),
              server_side: bool = False) -> Jobs:
    """SOURCE (a file or -) and ``--cluster`` read as explain and podgroup read them
    (:func:`mpigen.explanation.jobs.read_jobs`: the jobs with validate's verdict on them, the
    TrainJobs explained), with the runtimes of the files beside SOURCE. Raises :class:`UsageError`
    for an ``--env`` the spec lacks."""
    from .api import names_runtimes, read_beside
    from .explanation.jobs import read_jobs as read

    cluster, diagnostics = load_cluster(cluster_input)
    raw, name = read_input(source)
    beside = read_beside([source]) if names_runtimes(raw) else None
    jobs = read(raw, name, cluster, gang, scheduler_name, version, env, disabled, server_side, beside)
    jobs.diagnostics[:0] = diagnostics
    return jobs


def load_config(path: str | None) -> Config:
    """The configuration in ``path`` (``--config``), else the one found from the working directory;
    a code in its ``disable`` that mpigen does not have is a usage error, as ``--disable``'s is."""
    from .config import ConfigError
    from .config import load_config as load
    from .diagnostics import unknown_codes

    try:
        if path is None:
            config = load()
        else:
            from pathlib import Path

            config = load(Path(path))
    except ConfigError as exc:
        raise UsageError(str(exc)) from None
    wrong = unknown_codes(config.disable)
    if wrong:
        raise UsageError(f"{config.path}: disable: {wrong}")
    return config


def report(diagnostics: list[Diagnostic], notes: bool = True) -> None:
    """Every diagnostic on stderr, one a line, in a stable order (the infos only with ``notes``)."""
    for diagnostic in sort_diagnostics(diagnostics):
        if notes or diagnostic.severity is not Severity.INFO:
            click.echo(diagnostic.format(), err=True)
