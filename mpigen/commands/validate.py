"""``mpigen validate PATH...``: the report on stdout, the summary line on stderr, the exit code."""

from __future__ import annotations

import sys
from dataclasses import replace

import click

from .. import io
from ..diagnostics import EXIT_INVALID, Diagnostic, Severity, sort_diagnostics, unknown_codes
from ..lint.base import LintOptions
from ..load.document import Document
from ..pipeline import Options
from ..validation import SKIPPED, Coverage, ValidateOptions, report, validate_files
from ..validation.discover import MissingPath, discover
from . import (CONFIG_DEFAULT, OPERATOR_RULES, PRIORITY_CLASSES, cluster_option, config_option, format_option,
               gang_option, operator_version_option, scheduler_name_option)


@click.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(allow_dash=True))
@format_option("text", "json", "junit", "github", "sarif",
               help="Report format (github: workflow annotations; sarif: SARIF 2.1.0 for code scanning).")
@click.option("--strict", is_flag=True, help="Warnings fail the run too (exit 1).")
@click.option("--require-schema", is_flag=True,
              help="An object mpigen cannot check (no schema, no lint rule, no kind) is an error (exit 1).")
@click.option("--kubeconform", "use_kubeconform", is_flag=True,
              help="Also run the external kubeconform with mpigen's schemas and merge its findings.")
@gang_option("The operator's --gang-scheduling (default: configuration, else inferred per manifest).")
@scheduler_name_option(default=None)
@cluster_option(f"{PRIORITY_CLASSES}.")
@operator_version_option(f"{OPERATOR_RULES} [default: operatorVersion in the configuration, else v0.8.2].",
                         default=None)
@click.option("--disable", "disable", multiple=True, metavar="CODE", help="Switch a rule off (repeatable).")
@click.option("--exclude", "exclude", multiple=True, metavar="GLOB",
              help="Leave out the files (or folders) a glob matches, e.g. 'charts/*/templates' (repeatable; also "
                   "exclude in the configuration).")
@config_option(f"{CONFIG_DEFAULT}.", exists=True)
@click.option("-v", "--verbose", is_flag=True, help="Also show notes (documents skipped, kinds without schema).")
def validate(paths: tuple[str, ...], fmt: str, strict: bool, require_schema: bool, use_kubeconform: bool,
             gang: str | None, scheduler_name: str | None, cluster_input: io.ClusterInput,
             operator_version: str | None, disable: tuple[str, ...], exclude: tuple[str, ...],
             config_file: str | None, verbose: bool) -> int:
    """Lint training manifests and mpigen specs: files, folders (recursively) or - for stdin.

    Every problem is reported as FILE:LINE:COL: SEVERITY CODE message (json.path). Errors exit 1;
    warnings alone exit 0 unless --strict. Objects mpigen has no check for are skipped and counted
    in the summary; --require-schema makes them errors.
    """
    try:
        return _validate(paths, fmt, strict, require_schema, use_kubeconform, gang, scheduler_name, cluster_input,
                         operator_version, disable, exclude, config_file, verbose)
    except io.UsageError as exc:
        if fmt != "text":  # a tool reading json, junit, sarif or github annotations gets its format (exit 2 all the same)
            click.echo(report.render([_usage_diagnostic(exc)], fmt, [exc.path] if exc.path else [], Coverage()),
                       nl=False)
        raise


def _usage_diagnostic(exc: io.UsageError) -> Diagnostic:
    """A usage or I/O error as a diagnostic: ``io-error`` at the file that cannot be found or read."""
    message = str(exc)
    if exc.path is not None:
        message = message.removeprefix(f"{exc.path}: ")
        return Diagnostic(exc.path, None, None, "", "io-error", Severity.ERROR, message)
    return Diagnostic("", None, None, "", "usage-error", Severity.ERROR, message)


def _validate(paths: tuple[str, ...], fmt: str, strict: bool, require_schema: bool, use_kubeconform: bool,
              gang: str | None, scheduler_name: str | None, cluster_input: io.ClusterInput,
              operator_version: str | None, disable: tuple[str, ...], exclude: tuple[str, ...], config_file: str | None,
              verbose: bool) -> int:
    config = io.load_config(config_file)
    version, cluster_input = io.configured(config, operator_version, cluster_input)
    cluster, diagnostics = io.load_cluster(cluster_input)
    classes = None if cluster is None else cluster.priority_classes
    wrong = unknown_codes(disable)
    if wrong:
        raise io.UsageError(f"--disable: {wrong}")
    disabled = frozenset(disable) | config.disable
    options = ValidateOptions(
        lint=LintOptions(gang=gang or config.gang, scheduler_name=scheduler_name or config.scheduler_name,
                         priority_classes=classes, operator_version=version,
                         trainer_runtimes=io.cluster_runtimes(cluster), namespaces=io.cluster_namespaces(cluster)),
        build=Options(version, classes, io.cluster_runtimes(cluster), disabled),
        disabled=disabled,
        server_side=config.server_side,
    )
    try:
        files = discover(list(paths), exclude + config.exclude)
    except MissingPath as exc:
        raise io.UsageError(f"{exc}: no such file or folder", str(exc)) from None
    contents: dict[str, bytes] = {}
    for path in files:
        raw, name = io.read_input(path)
        contents[name] = raw
    beside = io.read_beside(files) if any(map(io.names_runtimes, contents.values())) else None
    coverage = Coverage()
    found, documents = validate_files(contents, options, keep_documents=use_kubeconform, coverage=coverage,
                                      beside=beside)
    diagnostics += found
    if use_kubeconform:
        diagnostics += _kubeconform(contents, documents, diagnostics)
    if require_schema:  # the notes on skipped objects become errors
        diagnostics = [replace(d, severity=Severity.ERROR) if d.code in SKIPPED else d for d in diagnostics]
    diagnostics = sort_diagnostics(diagnostics)
    click.echo(report.render(diagnostics, fmt, list(contents), coverage, verbose), nl=False)
    if fmt in ("text", "github"):
        sys.stdout.flush()  # the report before the summary, when both go to one terminal
        click.echo(report.summary(diagnostics, len(contents), coverage), err=True)
    code = report.exit_code(diagnostics, strict)
    return EXIT_INVALID if require_schema and coverage.skipped else code


def _kubeconform(contents: dict[str, bytes], documents: dict[str, list[Document]],
                 ours: list[Diagnostic]) -> list[Diagnostic]:
    """kubeconform's findings, but for the fields mpigen's own schema check already reported."""
    from ..validation import kubeconform

    try:
        found = kubeconform.run(contents, kubeconform.find_binary())
    except (kubeconform.KubeconformMissing, kubeconform.KubeconformFailed) as exc:
        raise io.UsageError(str(exc)) from None
    reported = {(d.file, d.path) for d in ours if d.code in ("schema", "unknown-field", "missing-field")}
    return [d for d in kubeconform.diagnostics(found, documents) if (d.file, d.path) not in reported]
