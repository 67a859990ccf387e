"""``mpigen import manifest``: an MPIJob, PyTorchJob, TFJob or TrainJob manifest in, the shortest
mpigen spec that builds back to the same job out (:mod:`mpigen.importers.manifest`,
:mod:`mpigen.importers.manifest_trainjob`).

The file is read as ``mpigen validate`` reads it; a job of a retired API version goes through
``mpigen migrate`` first (its changes are reported as ``migrate`` reports them). A TrainJob's
runtime is found as validate finds it: in the file, in the files beside it, in ``--cluster``'s
runtimes, else among Trainer's default runtimes. One job is imported: a second one, and every
other object of the file the spec does not say, is reported. The spec goes to stdout,
diagnostics to stderr: what cannot be carried (``import-lost``, exit 1, nothing printed), what is
not imported because nothing changes for it (``import-dropped``). The spec printed is built
(its findings are reported as ``import arena`` reports them) and compared with the manifest
(:mod:`mpigen.importers.roundtrip`): a difference no diagnostic explains is mpigen's bug
(``import-mismatch``, exit 3, nothing printed).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import click

from .. import io
from ..diagnostics import EXIT_INTERNAL, EXIT_INVALID, EXIT_OK, Diagnostic, Severity, format_path, has_errors
from ..emit.yaml_emit import dump
from ..load.document import Document, LoadResult, objects
from ..load.yaml_loader import load_bytes, load_text
from ..names import CURRENT_API, LEGACY_API, TRAINER_API, TRAINJOB_KIND
from ..pipeline import Options, compile_specs, is_spec
from . import (CONFIG_DEFAULT, PRIORITY_CLASSES, RUNTIMES, cluster_option, config_option, gang_option,
               operator_version_option, scheduler_name_option)

JOB_KINDS = (*CURRENT_API, TRAINJOB_KIND)


@click.command("manifest")
@click.argument("manifest", type=click.Path(dir_okay=False, allow_dash=True))
@gang_option("The operator's --gang-scheduling (default: gang in the configuration, else what the job's pod "
             "templates say).")
@scheduler_name_option(default=None, help="scheduler-plugins scheduler name [default: schedulerName in the "
                       "configuration, else the one the pod templates name, else scheduler-plugins-scheduler].")
@operator_version_option("mpi-operator release whose rules apply [default: operatorVersion in the configuration, "
                         "else v0.8.2].", default=None)
@cluster_option(f"{PRIORITY_CLASSES}, for the gang's minResources order; {RUNTIMES}.")
@config_option(f"{CONFIG_DEFAULT}: its gang, schedulerName, operatorVersion and cluster.", exists=True)
def manifest(manifest: str, gang: str | None, scheduler_name: str | None, operator_version: str | None,
             cluster_input: io.ClusterInput, config_file: str | None) -> int:
    """Turn MANIFEST (a file, or - for stdin), an MPIJob kubeflow.org/v2beta1, PyTorchJob or TFJob
    kubeflow.org/v1 (older API versions are migrated first) or TrainJob
    trainer.kubeflow.org/v1alpha1, into the shortest spec that builds back to the same job, on stdout."""
    from ..importers.manifest import ImportOptions, import_job
    from ..importers.roundtrip import beside_differences, differences, trainjob_differences
    from ..lint.base import trainer_runtimes

    config = io.load_config(config_file)
    version, cluster_input = io.configured(config, operator_version, cluster_input)
    cluster, diagnostics = io.load_cluster(cluster_input)
    classes = None if cluster is None else cluster.priority_classes
    raw, name = io.read_input(manifest)
    loaded = load_bytes(raw, name)
    diagnostics += loaded.diagnostics
    others: list[tuple[Document, tuple, Any]] = []
    chosen = _choose(loaded, name, diagnostics, others)  # every other object reported: all is said at once
    validating = _options(manifest, raw, name, version, cluster)
    job = _validated(chosen, name, validating, diagnostics) if chosen is not None else None
    if job is None:
        _not_imported(others, [], name, diagnostics)
        io.report(diagnostics)
        return EXIT_INVALID
    runtimes = trainer_runtimes(validating.lint)
    options = ImportOptions(gang or config.gang, scheduler_name or config.scheduler_name, version, classes,
                            tuple(obj for _, _, obj in others if isinstance(obj, dict)), runtimes)
    imported = import_job(job.obj, options)
    _not_imported(others, imported.consumed, name, diagnostics, _named_runtime(job.obj, runtimes))
    for path, code, severity, message in imported.findings:
        line, col, shown = job.locate(path)
        diagnostics.append(Diagnostic(name, line, col, format_path(shown), code, severity, message))
    if has_errors(diagnostics):
        io.report(diagnostics)
        return EXIT_INVALID
    text = dump(imported.spec)
    built = compile_specs(load_text(text, name), name, Options(version, classes, runtimes))
    # stdout is no file a diagnostic could name: the line of the printed spec goes in the message
    diagnostics += [replace(d, line=None, column=None, message=f"{d.message} (line {d.line} of the printed spec)")
                    if d.line is not None else d for d in built.diagnostics]
    if not built.ok:
        io.report(diagnostics)
        return EXIT_INVALID
    objects = built.jobs[0].base
    if job.obj["kind"] == TRAINJOB_KIND:
        found = trainjob_differences(job.obj, _named_runtime(job.obj, runtimes), objects, runtimes, classes)
    else:
        job_index = next(i for i, obj in enumerate(objects) if obj["kind"] == job.obj["kind"])
        found = differences(job.obj, objects[job_index], imported.gang, imported.options)
        found += beside_differences(imported.consumed, objects[job_index + 1:])
    if found:
        line, col, _ = job.locate(())
        diagnostics.append(Diagnostic(name, line, col, "", "import-mismatch", Severity.ERROR,
                                      "the spec made does not build back to this job, and no diagnostic says why "
                                      "(a bug in mpigen; please report it): " + "; ".join(found)))
        io.report(diagnostics)
        return EXIT_INTERNAL
    io.report(diagnostics)
    click.echo(text, nl=False)
    return EXIT_OK


def _choose(loaded: LoadResult, name: str, diagnostics: list[Diagnostic], others: list[tuple[Document, tuple, Any]]
            ) -> Document | None:
    """The job to import (the file's first), as a document of its own (a ``List`` item too; a job
    of a retired API version migrated, its changes reported); None when it cannot be. Every other
    job is reported, every other object added to ``others``."""
    from ..migrate import migrate_object

    chosen: Document | None = None
    first = True
    for doc in loaded.documents:
        if doc.data is None:
            continue
        if is_spec(doc.data):
            _report(diagnostics, name, doc, (), "import-kind", Severity.ERROR,
                    "this is an mpigen spec already: build it with mpigen build")
            continue
        for prefix, obj in objects(doc.data):
            kind = obj.get("kind") if isinstance(obj, dict) else None
            if kind not in JOB_KINDS:
                others.append((doc, prefix, obj))
                continue
            if not first:
                _report(diagnostics, name, doc, prefix, "import-second-job", Severity.ERROR,
                        f"a second job ({kind} {(obj.get('metadata') or {}).get('name', '?')}): a spec describes "
                        "one job; import each from a file of its own")
                continue
            first = False
            api = obj.get("apiVersion")
            if kind == TRAINJOB_KIND:
                if api != TRAINER_API:
                    _report(diagnostics, name, doc, prefix + ("apiVersion",), "import-kind", Severity.ERROR,
                            f"TrainJob {api}: mpigen imports TrainJob {TRAINER_API}")
                    continue
            elif api in LEGACY_API.get(kind, ()):
                obj, changes, done = migrate_object(obj)
                for change in changes:
                    if change.severity is not Severity.INFO:
                        _report(diagnostics, name, doc, prefix + tuple(change.path), change.code, change.severity,
                                change.message)
                if not done:
                    continue
            elif api != CURRENT_API[kind]:
                _report(diagnostics, name, doc, prefix + ("apiVersion",), "import-kind", Severity.ERROR,
                        f"{kind} {api}: mpigen imports {kind} {CURRENT_API[kind]} (and migrates "
                        f"{', '.join(LEGACY_API[kind])} first)")
                continue
            chosen = _alone(doc, prefix, obj)
    if first and not has_errors(diagnostics):
        diagnostics.append(Diagnostic(name, None, None, "", "import-kind", Severity.ERROR,
                                      "no MPIJob, PyTorchJob, TFJob or TrainJob in this file: nothing to import"))
    return chosen


def _not_imported(others: list[tuple[Document, tuple, Any]], consumed: list[Any], name: str,
                  diagnostics: list[Diagnostic], runtime: Any = None) -> None:
    """``import-other-object`` for each object of the file beside the job that the spec does not
    say (``runtime``: the one a TrainJob names, which the spec names too)."""
    from ..importers.manifest_trainjob import in_file

    for doc, prefix, obj in others:
        if any(obj is used for used in consumed):
            continue
        kind = obj.get("kind") if isinstance(obj, dict) else None
        what = f"{obj.get('apiVersion', '?')} {kind}" if kind else "this document"
        if runtime is not None and in_file(runtime, (obj,)) is obj:
            message = (f"{what} {obj['metadata'].get('name')} is not imported: the spec names it (spec.runtime); "
                       "apply it beside the job, and give it to mpigen build (--cluster FILE, or a file beside "
                       "the spec for validate and explain)")
        else:
            message = f"{what} is not imported: a spec describes one job; apply it beside the job"
        _report(diagnostics, name, doc, prefix, "import-other-object", Severity.WARNING, message)


def _options(manifest: str, raw: bytes, name: str, version: Any, cluster: Any) -> Any:
    """How validate reads the file: the cluster file's PriorityClasses, Namespaces and training
    runtimes, joined by the runtimes of the file and of the files beside it (a TrainJob names one)."""
    from ..api import names_runtimes, read_beside
    from ..lint.base import LintOptions
    from ..validation import ValidateOptions, run_runtimes, with_run_runtimes

    classes = None if cluster is None else cluster.priority_classes
    runtimes = io.cluster_runtimes(cluster)
    options = ValidateOptions(lint=LintOptions(operator_version=version, priority_classes=classes,
                                               trainer_runtimes=runtimes, namespaces=io.cluster_namespaces(cluster)),
                              build=Options(version, classes, runtimes))
    if names_runtimes(raw):
        options = with_run_runtimes(options, run_runtimes([(name, raw), *read_beside([manifest]).items()]))
    return options


def _named_runtime(job: dict[str, Any], runtimes: Any) -> Any:
    """The runtime a TrainJob names (None for another job, or when it is not known)."""
    if job.get("kind") != TRAINJOB_KIND:
        return None
    from ..trainer.runtimes import runtime_ref

    _, kind, name = runtime_ref(job)
    return runtimes.find(kind, name, (job.get("metadata") or {}).get("namespace"))


def _alone(doc: Document, prefix: tuple, obj: Any) -> Document:
    """``obj`` (at ``prefix`` in ``doc``) as a document of its own, at the same lines."""
    if not prefix and obj is doc.data:
        return doc
    cut = len(prefix)
    positions = {p[cut:]: at for p, at in doc.positions.items() if p[:cut] == prefix}
    keys = {p[cut:]: at for p, at in doc.key_positions.items() if p[:cut] == prefix}
    return Document(obj, doc.index, positions.get((), (doc.line, 1))[0], positions, keys,
                    {p[cut:]: t for p, t in doc.plain.items() if p[:cut] == prefix})


def _report(diagnostics: list[Diagnostic], name: str, doc: Document, path: tuple, code: str, severity: Severity,
            message: str) -> None:
    line, col = doc.locate(path, key=bool(path))
    diagnostics.append(Diagnostic(name, line, col, format_path(path), code, severity, message))


def _validated(doc: Document, name: str, options: Any, diagnostics: list[Diagnostic]) -> Any:
    """The job of ``doc`` as ``mpigen validate`` passes it to the operator (nulls dropped), or None
    when validate reports an error on it (its errors are added; its warnings are the manifest's,
    which the spec may no longer have: the spec's own are reported when it is built)."""
    from ..validation import find_jobs

    jobs, found = find_jobs(LoadResult([doc], []), name, options)
    diagnostics += [d for d in found if d.severity is Severity.ERROR]
    return jobs[0] if jobs and not has_errors(found) else None
