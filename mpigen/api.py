"""mpigen's Python API: what ``mpigen build``, ``mpigen validate`` and ``mpigen explain`` do, as
functions (``mpigen.build``, ``mpigen.validate``, ``mpigen.explain``); the commands call them.

Each takes a path, the bytes of a file with the name to report it by, or the data of one object
(a mapping), and returns a result: the objects, text or verdicts, and every problem found, as
:class:`~mpigen.diagnostics.Diagnostic` (file, line, column, JSON path, rule code, severity,
message). Nothing here prints, exits or reads the clock, and a problem of the input is a
diagnostic, never an exception. A usage error raises :class:`~mpigen.diagnostics.UsageError`: a
path that does not exist or cannot be read, an environment the spec lacks, an option's value
mpigen does not know. The API reads no configuration file (``.mpigen.yaml``): pass what it would
give (``operator_version``, ``cluster``, ``disable``...) as arguments.

The reference, with examples (each run by tests/integration/test_readme_api.py), is docs/api.md.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from stat import S_ISREG
from typing import TYPE_CHECKING, Any, Iterable, Iterator, Mapping, Sequence, Union

from .diagnostics import Diagnostic, Severity, UsageError, has_errors, sort_diagnostics
from .load.files import read_bytes
from .versions import DEFAULT_OPERATOR_VERSION, OperatorVersion

if TYPE_CHECKING:
    from .explanation.jobs import JobExplanation
    from .load.cluster import Cluster
    from .pipeline import CompiledJob
    from .validation import Coverage

__all__ = ["BuildResult", "Diagnostic", "ExplainResult", "Input", "Severity", "UsageError", "ValidateResult", "build",
           "explain", "validate"]

Input = Union[str, "os.PathLike[str]", Mapping[str, Any], tuple[str, bytes]]
"""What the functions read: a file's path (``str`` or ``os.PathLike``), the data of one YAML
document (a mapping: an mpigen spec or a Kubernetes object), or a file's name and its bytes (the
name is how diagnostics call it, e.g. ``("<stdin>", sys.stdin.buffer.read())``). A string is always
a path: give YAML text as bytes."""

DATA = "<data>"
"""How diagnostics name a mapping given as input (``<data[i]>``: the i-th input of :func:`validate`);
their line and column are None, as the data has none."""

ClusterArg = Union[str, "os.PathLike[str]", "Cluster", None]


@dataclass(frozen=True)
class BuildResult:
    """What :func:`build` made of a spec file: its jobs, their objects and the diagnostics."""

    jobs: list[CompiledJob]
    """Every spec of the input compiled (``name``, ``objects(env)``, ``environments``); empty
    when there is an error."""
    diagnostics: list[Diagnostic]
    """Every problem found, errors, warnings and notes (severity ``info``), in a stable order."""
    env: str | None = None
    """The environment whose objects :attr:`objects` holds (None: the base)."""

    @property
    def ok(self) -> bool:
        """Whether nothing is an error (warnings and notes aside)."""
        return not has_errors(self.diagnostics)

    @property
    def objects(self) -> list[dict[str, Any]]:
        """The manifests ``mpigen build`` prints, as data, every job's in turn (its job first);
        empty when there is an error."""
        return [obj for job in self.jobs for obj in job.objects(self.env)]

    def yaml(self) -> str:
        """:attr:`objects` as ``mpigen build`` prints them: YAML documents, byte for byte."""
        from .emit.yaml_emit import dump_all

        return dump_all(self.objects)


def build(spec: Input, *, env: str | None = None, cluster: ClusterArg = None,
          operator_version: str | OperatorVersion | None = None, disable: Iterable[str] = ()) -> BuildResult:
    """Compile an mpigen spec (every TrainingJob of a file) into Kubeflow manifests, as ``mpigen
    build SPEC`` does.

    ``env``: the environment whose objects :attr:`BuildResult.objects` holds (default: the base).
    ``cluster``: a cluster file's path (``kubectl get priorityclasses,nodes -o yaml``...) or a
    :class:`~mpigen.load.cluster.Cluster`, for the PriorityClasses and training runtimes.
    ``operator_version``: the mpi-operator release whose rules apply (default v0.8.2).
    ``disable``: rule codes not reported by the validate-output stage.

    Raises :class:`~mpigen.diagnostics.UsageError` for a path that cannot be read, an unknown
    code or version, and an ``env`` that a spec of the file lacks (when it compiles).
    """
    from .load.yaml_loader import load_bytes
    from .pipeline import Options, compile_specs

    raw, name = _content(spec, DATA)
    found, loaded_cluster = _cluster(cluster)
    version = _version(operator_version)
    options = Options(version, None if loaded_cluster is None else loaded_cluster.priority_classes,
                      _runtimes(loaded_cluster), _disabled(disable))
    result = compile_specs(load_bytes(raw, name), name, options)
    diagnostics = sort_diagnostics(found + _unplaced(result.diagnostics, name))
    if has_errors(diagnostics):
        return BuildResult([], diagnostics, env)
    if env is not None:
        missing = [job.name for job in result.jobs if env not in job.environments]
        if missing:
            known = sorted({e for job in result.jobs for e in job.environments})
            raise UsageError(f"--env {env}: no such environment in {', '.join(missing)} "
                             f"(environments: {', '.join(known) or 'none'})")
    return BuildResult(result.jobs, diagnostics, env)


@dataclass(frozen=True)
class ValidateResult:
    """What :func:`validate` found in its files and objects."""

    diagnostics: list[Diagnostic]
    """Every problem found, in a stable order (by file, then position)."""
    files: list[str]
    """The names of the files (and data) checked, in order."""
    coverage: Coverage
    """The objects checked (``coverage.checked``) and skipped, by kind (``coverage.skipped``:
    objects mpigen has no check for)."""
    require_schema: bool = False

    @property
    def ok(self) -> bool:
        """Whether nothing is an error (with ``require_schema``: and no object was skipped)."""
        return not has_errors(self.diagnostics) and not (self.require_schema and self.coverage.skipped)

    def report(self, format: str = "text", verbose: bool = False) -> str:
        """The report ``mpigen validate --format FORMAT`` prints: ``text`` (one diagnostic a line:
        ``FILE:LINE:COL: SEVERITY CODE message (json.path)``), ``json``, ``junit``, ``github``
        or ``sarif``. ``verbose``: the notes too (text and github)."""
        from .validation import report

        if format not in ("text", "json", "junit", "github", "sarif"):
            raise UsageError(f"format {format!r}: not one of text, json, junit, github, sarif")
        return report.render(self.diagnostics, format, self.files, self.coverage, verbose)

    def summary(self) -> str:
        """The line ``mpigen validate`` ends with: ``3 files checked: 0 error(s), 1 warning(s); ...``."""
        from .validation import report

        return report.summary(self.diagnostics, len(self.files), self.coverage)


def validate(inputs: Input | Sequence[Input], *, gang: str | None = None, scheduler_name: str | None = None,
             cluster: ClusterArg = None, operator_version: str | OperatorVersion | None = None,
             disable: Iterable[str] = (), exclude: Iterable[str] = (), require_schema: bool = False,
             server_side: bool = False, kubeconform: bool = False) -> ValidateResult:
    """Lint training manifests, mpigen specs and other Kubernetes objects, as ``mpigen validate
    PATH...`` does: the YAML, the schemas, the operators' admission rules and every lint rule.

    ``inputs``: one :data:`Input` or a list of them; a folder gives its ``*.yaml`` and ``*.yml``
    files, recursively, hidden ones left out, and those an ``exclude`` glob matches.
    ``gang``: the operator's ``--gang-scheduling`` (``volcano``, ``scheduler-plugins``, ``none``;
    default: inferred per manifest). ``scheduler_name``: the scheduler-plugins scheduler's name.
    ``cluster``: a cluster file's path or a :class:`~mpigen.load.cluster.Cluster` (PriorityClasses,
    Namespaces, training runtimes). ``operator_version``: default v0.8.2. ``disable``: rule codes
    not reported. ``require_schema``: an object mpigen cannot check is an error. ``server_side``:
    the objects are applied server-side (``apply: server-side`` of the configuration).
    ``kubeconform``: also run the external ``kubeconform`` with mpigen's schemas.

    Raises :class:`~mpigen.diagnostics.UsageError` for a path that does not exist or cannot be
    read, an unknown code, version or gang, and a missing ``kubeconform``.
    """
    from .lint.base import LintOptions
    from .pipeline import Options
    from .validation import SKIPPED, STREAM_FROM, Coverage, ValidateOptions, validate_files, validate_large_file
    from .validation.discover import MissingPath, discover

    _check_gang(gang)
    found, loaded_cluster = _cluster(cluster)
    classes = None if loaded_cluster is None else loaded_cluster.priority_classes
    version = _version(operator_version)
    disabled = _disabled(disable)
    runtimes = _runtimes(loaded_cluster)
    known_namespaces = loaded_cluster.namespaces if loaded_cluster is not None and loaded_cluster.namespaces else None
    options = ValidateOptions(
        lint=LintOptions(gang=gang, scheduler_name=scheduler_name, priority_classes=classes, operator_version=version,
                         trainer_runtimes=runtimes, namespaces=known_namespaces),
        build=Options(version, classes, runtimes, disabled), disabled=disabled, server_side=server_side)
    items = [inputs] if _one(inputs) else list(inputs)  # type: ignore[arg-type]
    contents: dict[str, bytes | None] = {}  # None: a large file, not read yet (streamed when alone)
    paths: list[str] = []
    data: set[str] = set()
    for index, item in enumerate(items):
        if isinstance(item, (str, os.PathLike)):
            path = os.fspath(item)
            try:
                files = discover([path], tuple(exclude))
            except MissingPath as exc:
                raise UsageError(f"{exc}: no such file or folder", str(exc)) from None
            for name in files:
                if name not in contents:
                    contents[name] = None if not kubeconform and _large(name, STREAM_FROM) else read_bytes(name)
                    paths.append(name)
            continue
        raw, name = _content(item, f"{DATA[:-1]}[{index}]>")
        if isinstance(item, Mapping):
            data.add(name)
        contents[name] = raw
    coverage = Coverage()
    if len(contents) == 1 and None in contents.values():  # one large file: read in pieces
        diagnostics = validate_large_file(paths[0], options, lambda: read_beside(paths), names_runtimes, coverage)
    else:
        read = {name: read_bytes(name) if raw is None else raw for name, raw in contents.items()}
        beside = read_beside(paths) if any(map(names_runtimes, read.values())) else None
        diagnostics, documents = validate_files(read, options, keep_documents=kubeconform, coverage=coverage,
                                                beside=beside)
        if kubeconform:
            diagnostics += _kubeconform(read, documents, diagnostics)
    diagnostics = found + diagnostics
    if require_schema:  # the notes on skipped objects become errors
        diagnostics = [replace(d, severity=Severity.ERROR) if d.code in SKIPPED else d for d in diagnostics]
    diagnostics = [replace(d, line=None, column=None) if d.file in data else d for d in diagnostics]
    return ValidateResult(sort_diagnostics(diagnostics), list(contents), coverage, require_schema)


@dataclass(frozen=True)
class ExplainResult:
    """What :func:`explain` says the operator creates for each job of a source."""

    jobs: list[JobExplanation]
    """Each job's explanation (:class:`mpigen.explanation.jobs.JobExplanation`: ``kind``,
    ``name``, ``gang``, ``fit``, ``admission``, ``text`` and ``objects()``); MPIJobs, PyTorchJobs
    and TFJobs first, then TrainJobs. Empty when the input has an error or a job would not be
    created."""
    input_diagnostics: list[Diagnostic]
    """The problems of the input (validate's verdict on its jobs, and the cluster file's), in a
    stable order."""
    operator_diagnostics: list[Diagnostic] = field(default_factory=list)
    """The operator's and the cluster's verdicts: a job the controller creates nothing for
    (``not-created``) or crashes on (``operator-crash``), a gang that cannot fit (``gang-*``) or
    that its queue may not admit (``queue-*``), in a stable order."""

    @property
    def diagnostics(self) -> list[Diagnostic]:
        """Every problem found: :attr:`input_diagnostics`, then :attr:`operator_diagnostics`."""
        return self.input_diagnostics + self.operator_diagnostics

    @property
    def ok(self) -> bool:
        """Whether nothing is an error (a gang that cannot fit is one: the objects are explained
        all the same, since the operator creates them)."""
        return not has_errors(self.diagnostics)

    @property
    def text(self) -> str:
        """What ``mpigen explain`` prints (``--format text``), for people."""
        return "\n".join(job.text for job in self.jobs)

    def yaml_chunks(self) -> Iterator[str]:
        """What ``mpigen explain --format yaml`` prints, in pieces: every object of every job,
        generated one at a time (memory does not grow with the worker count)."""
        from .emit.yaml_emit import iter_dump_all

        for job in self.jobs:
            yield from iter_dump_all(job.yaml_objects(), shared=True)

    def yaml(self) -> str:
        """What ``mpigen explain --format yaml`` prints, whole."""
        return "".join(self.yaml_chunks())


def explain(source: Input, *, env: str | None = None, gang: str | None = None, scheduler_name: str | None = None,
            cluster: ClusterArg = None, operator_version: str | OperatorVersion | None = None,
            cluster_domain: str = "", disable: Iterable[str] = (), server_side: bool = False) -> ExplainResult:
    """What the operator will create for the jobs of ``source``, as ``mpigen explain SOURCE`` says:
    an mpigen spec (compiled first) or MPIJob, PyTorchJob, TFJob or TrainJob manifests.

    The jobs are judged as :func:`validate` judges them: a job with an error is not explained.
    ``env``: for a spec, the environment to explain. ``gang``: the operator's ``--gang-scheduling``
    (default: what each job's pod templates say). ``scheduler_name``: the scheduler-plugins
    scheduler's name (default ``scheduler-plugins-scheduler``). ``cluster``: a cluster file's path
    or a :class:`~mpigen.load.cluster.Cluster`: with Nodes, whether the gang fits; with Volcano
    Queues, whether its queue admits it; its training runtimes for a TrainJob.
    ``cluster_domain``: the operator's ``--cluster-domain``. ``disable``, ``server_side``: as
    :func:`validate`'s.

    Raises :class:`~mpigen.diagnostics.UsageError` for a path that cannot be read, an ``env`` the
    spec lacks, a ``cluster_domain`` that is no DNS domain, an unknown code, version or gang.
    """
    import re

    from .explanation.jobs import explain_jobs, read_jobs
    from .operator.podgroup import DEFAULT_SCHEDULER_PLUGINS_NAME

    if cluster_domain and not re.match(r"^[A-Za-z0-9]([-A-Za-z0-9.]*[A-Za-z0-9])?$", cluster_domain):
        raise UsageError(f"--cluster-domain {cluster_domain!r}: not a DNS domain")
    _check_gang(gang)
    found, loaded_cluster = _cluster(cluster)
    version = _version(operator_version)
    scheduler_name = scheduler_name or DEFAULT_SCHEDULER_PLUGINS_NAME
    raw, name = _content(source, DATA)
    path = os.fspath(source) if isinstance(source, (str, os.PathLike)) else None
    beside = read_beside([path]) if path is not None and names_runtimes(raw) else None
    read = read_jobs(raw, name, loaded_cluster, gang, scheduler_name, version, env, _disabled(disable), server_side,
                     beside)
    diagnostics = sort_diagnostics(found + _unplaced(read.diagnostics, name))
    if has_errors(diagnostics):
        return ExplainResult([], diagnostics)
    jobs, more = explain_jobs(read, gang, scheduler_name, version, cluster_domain)
    return ExplainResult(jobs, diagnostics, sort_diagnostics(_unplaced(more, name)))


def _large(path: str, size: int) -> bool:
    """Whether ``path`` is a regular file of at least ``size`` bytes (one that cannot be read is
    said so when it is read)."""
    try:
        stat = os.stat(path)
    except OSError:
        return False
    return S_ISREG(stat.st_mode) and stat.st_size >= size


def _one(inputs: Any) -> bool:
    """Whether ``inputs`` is one :data:`Input` rather than a list of them."""
    return isinstance(inputs, (str, os.PathLike, Mapping)) or (
        isinstance(inputs, tuple) and len(inputs) == 2 and isinstance(inputs[0], str)
        and isinstance(inputs[1], (bytes, bytearray)))


def _content(item: Input, data_name: str) -> tuple[bytes, str]:
    """The bytes of an :data:`Input` and the name its diagnostics give it: a mapping is written
    by mpigen's emitter (a value YAML cannot hold raises ``TypeError`` or ``ValueError``)."""
    if isinstance(item, (str, os.PathLike)):
        path = os.fspath(item)
        return read_bytes(path), path
    if isinstance(item, Mapping):
        from .emit.yaml_emit import dump

        return dump(_plain(item)).encode("utf-8"), data_name
    if isinstance(item, tuple) and len(item) == 2 and isinstance(item[1], (bytes, bytearray)):
        return bytes(item[1]), str(item[0])
    raise TypeError(f"expected a path, a mapping or (name, bytes), not {type(item).__name__}")


def _plain(value: Any) -> Any:
    """Mappings as dicts and sequences (but strings) as lists, for the emitter."""
    if isinstance(value, Mapping):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(item) for item in value]
    return value


def _unplaced(diagnostics: list[Diagnostic], name: str) -> list[Diagnostic]:
    """A mapping's diagnostics without the lines and columns of the YAML it was written as."""
    if name != DATA:
        return diagnostics
    return [replace(d, line=None, column=None) if d.file == DATA else d for d in diagnostics]


def _check_gang(gang: str | None) -> None:
    if gang not in (None, "volcano", "scheduler-plugins", "none"):
        raise UsageError(f"gang {gang!r}: not one of volcano, scheduler-plugins, none")


def _version(value: str | OperatorVersion | None) -> OperatorVersion:
    if value is None:
        return DEFAULT_OPERATOR_VERSION
    if isinstance(value, OperatorVersion):
        return value
    try:
        return OperatorVersion.parse(value)
    except ValueError as exc:
        raise UsageError(f"--operator-version: {exc}") from None


def _disabled(codes: Iterable[str]) -> frozenset[str]:
    from .diagnostics import unknown_codes

    codes = frozenset([codes] if isinstance(codes, str) else codes)
    wrong = unknown_codes(codes)
    if wrong:
        raise UsageError(f"disable: {wrong}")
    return codes


def _cluster(cluster: ClusterArg) -> tuple[list[Diagnostic], Cluster | None]:
    """The cluster given (a path is read: its diagnostics, then the cluster)."""
    if cluster is None or not isinstance(cluster, (str, os.PathLike)):
        return [], cluster
    from .load.cluster import read_cluster
    from .load.large_cluster import load

    raw, name = _content(cluster, DATA)
    loaded = load(raw, name)
    read, diagnostics = read_cluster(loaded.documents, name)
    return loaded.diagnostics + diagnostics, read


def _runtimes(cluster: Cluster | None) -> Any:
    """The training runtimes of the cluster; None when it gives none (Trainer's default runtimes
    then stand in)."""
    return cluster.runtimes if cluster is not None and cluster.runtimes.objects else None


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


def _kubeconform(contents: dict[str, bytes], documents: dict[str, list[Any]],
                 ours: list[Diagnostic]) -> list[Diagnostic]:
    """kubeconform's findings, but for the fields mpigen's own schema check already reported."""
    from .validation import kubeconform

    try:
        found = kubeconform.run(contents, kubeconform.find_binary())
    except (kubeconform.KubeconformMissing, kubeconform.KubeconformFailed) as exc:
        raise UsageError(str(exc)) from None
    reported = {(d.file, d.path) for d in ours if d.code in ("schema", "unknown-field", "missing-field")}
    return [d for d in kubeconform.diagnostics(found, documents) if (d.file, d.path) not in reported]
