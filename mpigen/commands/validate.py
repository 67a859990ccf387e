"""``mpigen validate PATH...``: the report on stdout, the summary line on stderr, the exit code."""

from __future__ import annotations

import sys
from dataclasses import replace

import click

from .. import io
from ..diagnostics import EXIT_INVALID, Diagnostic, Severity, sort_diagnostics, unknown_codes
from ..validation import Coverage, report
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
    from ..api import validate as validate_inputs

    config = io.load_config(config_file)
    version, cluster_input = io.configured(config, operator_version, cluster_input)
    cluster, diagnostics = io.load_cluster(cluster_input)
    wrong = unknown_codes(disable)
    if wrong:
        raise io.UsageError(f"--disable: {wrong}")
    result = validate_inputs([io.api_input(path) for path in paths], gang=gang or config.gang,
                             scheduler_name=scheduler_name or config.scheduler_name, cluster=cluster,
                             operator_version=version, disable=frozenset(disable) | config.disable,
                             exclude=exclude + config.exclude, require_schema=require_schema,
                             server_side=config.server_side, kubeconform=use_kubeconform)
    if diagnostics:  # the cluster file's
        result = replace(result, diagnostics=sort_diagnostics(diagnostics + result.diagnostics))
    click.echo(result.report(fmt, verbose), nl=False)
    if fmt in ("text", "github"):
        sys.stdout.flush()  # the report before the summary, when both go to one terminal
        click.echo(result.summary(), err=True)
    return report.exit_code(result.diagnostics, strict) if result.ok else EXIT_INVALID
