"""What the commands read and write: files and stdin, option values, diagnostics on stderr.

For :mod:`mpigen.commands` only; the pipeline's stages neither print nor read files. A usage or
I/O error is raised as :class:`UsageError`, which :mod:`mpigen.main` prints as ``mpigen: MESSAGE``
with exit code 2. :mod:`mpigen.main` imports this module at start-up, so the loader, the cluster
file's reader and the configuration are imported by the functions that need them.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING

import click

from .diagnostics import Diagnostic, Severity, sort_diagnostics
from .versions import DEFAULT_OPERATOR_VERSION, OperatorVersion

if TYPE_CHECKING:
    from pathlib import Path

    from .config import Config
    from .load.cluster import Cluster
    from .load.document import LoadResult
    from .pipeline import CompiledJob
    from .load.trainer_runtimes import Runtimes
    from .trainer.documents import Explained
    from .validation import Job


class UsageError(Exception):
    """A usage or I/O error: printed as ``mpigen: MESSAGE``; the exit code is 2. ``path``: the file
    that could not be found or read, when that is the error."""

    def __init__(self, message: str, path: str | None = None) -> None:
        super().__init__(message)
        self.path = path


def read_input(path: str) -> tuple[bytes, str]:
    """The bytes of a file or of stdin (``-``), and the name diagnostics give it."""
    if path == "-":
        return sys.stdin.buffer.read(), "<stdin>"
    try:
        with open(path, "rb") as file:
            return file.read(), path
    except IsADirectoryError:
        raise UsageError(f"{path}: is a folder, not a file", path) from None
    except OSError as exc:
        raise UsageError(f"{path}: cannot read: {exc.strerror or exc}", path) from None


def names_runtimes(raw: bytes) -> bool:
    """Whether a file may hold a TrainJob or a spec with ``spec.runtime``, which name a training
    runtime: the only readers of the runtimes of the files beside it."""
    return b"TrainJob" in raw or b"runtime" in raw


def read_beside(files: list[str]) -> dict[str, bytes]:
    """The other files of the folders of ``files`` (:func:`mpigen.validation.discover.neighbours`),
    read for their training runtimes: a TrainJob's runtime is often in a file of its own beside it.
    One that cannot be read is not part of the run and is passed over."""
    from .validation.discover import neighbours

    out: dict[str, bytes] = {}
    for path in neighbours(files):
        try:
            with open(path, "rb") as file:
                out[path] = file.read()
        except OSError:
            continue
    return out


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


def display_path(path: Path, base: Path | None = None) -> str:
    """A path as the user reads it: relative to the working directory when under it, or when both
    are under ``base`` (the configuration's folder: ``../deploy`` from a subfolder); else absolute."""
    import os
    from pathlib import Path

    cwd = Path.cwd()
    absolute = Path(os.path.abspath(path))
    inside = absolute.is_relative_to(cwd)
    if not inside and base is not None:
        root = Path(os.path.abspath(base))
        inside = absolute.is_relative_to(root) and cwd.is_relative_to(root)
    return os.path.relpath(absolute, cwd) if inside else str(absolute)


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

    loaded, name = load_input(source.file)
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


@dataclass
class Jobs:
    """The jobs of a source as ``mpigen explain`` and ``mpigen podgroup`` read them (:func:`read_jobs`)."""

    name: str  # how diagnostics name the source
    cluster: Cluster | None
    classes: dict[str, int] | None  # the cluster file's PriorityClasses
    jobs: list[Job]  # MPIJobs, PyTorchJobs and TFJobs without errors
    trainjobs: list[Explained]  # TrainJobs without errors, explained by Trainer's runtime framework
    diagnostics: list[Diagnostic]


def read_jobs(source: str, gang: str | None, scheduler_name: str, cluster_input: ClusterInput,
              version: OperatorVersion, env: str | None, disabled: frozenset[str] = frozenset(),
              server_side: bool = False) -> Jobs:
    """SOURCE (a file or -) and ``--cluster`` read as explain and podgroup read them: the jobs with
    validate's verdict on them (:func:`mpigen.validation.find_jobs`; ``server_side``: the
    configuration's ``apply: server-side``), the TrainJobs explained. Raises :class:`UsageError`
    for an ``--env`` the spec lacks."""
    from .lint.base import LintOptions, trainer_runtimes
    from .names import TRAINJOB_KIND
    from .pipeline import Options
    from .trainer.documents import Source, explain_trainjobs
    from .load.yaml_loader import load_bytes
    from .validation import NoSuchEnvironment, ValidateOptions, find_jobs, run_runtimes, with_run_runtimes

    cluster, diagnostics = load_cluster(cluster_input)
    classes = None if cluster is None else cluster.priority_classes
    raw, name = read_input(source)
    loaded = load_bytes(raw, name)
    lint = LintOptions(gang=gang, scheduler_name=scheduler_name, priority_classes=classes, operator_version=version,
                       trainer_runtimes=cluster_runtimes(cluster), namespaces=cluster_namespaces(cluster))
    options = ValidateOptions(lint=lint, build=Options(version, classes, cluster_runtimes(cluster), disabled),
                              disabled=disabled, server_side=server_side)
    if names_runtimes(raw):  # the runtimes of the files beside it, as validate knows them
        options = with_run_runtimes(options, run_runtimes(read_beside([source]).items()))
    try:
        jobs, found = find_jobs(loaded, name, options, env)
    except NoSuchEnvironment as exc:
        raise UsageError(str(exc)) from None
    diagnostics += found
    from .load.trainer_runtimes import with_runtimes

    trainjobs = [Source(job.obj, name, job.locate) for job in jobs if job.obj["kind"] == TRAINJOB_KIND]
    # The runtimes of the input file (the TrainingRuntime a spec builds beside its TrainJob) too.
    runtimes = with_runtimes(trainer_runtimes(options.lint), [rt for job in jobs for rt in job.runtimes])
    explained, found = explain_trainjobs(trainjobs, runtimes, classes)
    diagnostics += found
    return Jobs(name, cluster, classes, [job for job in jobs if job.obj["kind"] != TRAINJOB_KIND], explained,
                diagnostics)


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


def require_environment(jobs: list[CompiledJob], env: str | None) -> None:
    """:class:`UsageError` when ``--env`` names an environment that one of the compiled jobs lacks."""
    if env is None:
        return
    missing = [job.name for job in jobs if env not in job.environments]
    if missing:
        known = sorted({e for job in jobs for e in job.environments})
        raise UsageError(f"--env {env}: no such environment in {', '.join(missing)} "
                         f"(environments: {', '.join(known) or 'none'})")


def report(diagnostics: list[Diagnostic], notes: bool = True) -> None:
    """Every diagnostic on stderr, one a line, in a stable order (the infos only with ``notes``)."""
    for diagnostic in sort_diagnostics(diagnostics):
        if notes or diagnostic.severity is not Severity.INFO:
            click.echo(diagnostic.format(), err=True)
