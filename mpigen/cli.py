"""The command line: a thin click layer over the pipeline.

Only this module prints, exits or touches the process's streams. Exit codes: 0 ok, 1 invalid
input (or drift), 2 usage or I/O error, 3 internal error. Bad input never shows a traceback.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any, NoReturn

import click

from . import __version__, cli_io
from .diagnostics import EXIT_INTERNAL, EXIT_INVALID, EXIT_OK, EXIT_USAGE, Diagnostic, has_errors, sort_diagnostics


class Fail(click.exceptions.Exit):
    """Stop with an exit code after the message has been printed (click turns it into the code)."""


def _report(diagnostics: list[Diagnostic]) -> None:
    for diagnostic in sort_diagnostics(diagnostics):
        click.echo(diagnostic.format(), err=True)


def _usage(message: str) -> NoReturn:
    click.echo(f"mpigen: {message}", err=True)
    raise Fail(EXIT_USAGE)


def _read(path: str) -> tuple[bytes, str]:
    """The bytes of a file or of stdin (``-``); an unreadable file is a usage/I-O error (exit 2)."""
    try:
        return cli_io.read_input(path)
    except cli_io.Usage as exc:
        _usage(str(exc))


def _load(path: str) -> Any:
    try:
        return cli_io.load_input(path)
    except cli_io.Usage as exc:
        _usage(str(exc))


def _version_option(value: str) -> tuple[int, int, int]:
    try:
        return cli_io.operator_version(value)
    except cli_io.Usage as exc:
        _usage(str(exc))


def _cluster(path: str | None) -> tuple[dict[str, int] | None, list[Diagnostic]]:
    try:
        return cli_io.cluster_classes(path)
    except cli_io.Usage as exc:
        _usage(str(exc))


_operator_version = click.option(
    "--operator-version", default="v0.8.0", show_default=True, metavar="V",
    help="mpi-operator release whose rules apply (v0.4.x: Volcano minResources are not computed).")
_cluster_option = click.option(
    "--cluster", "cluster_file", type=click.Path(dir_okay=False, allow_dash=True), metavar="FILE",
    help="PriorityClasses of the cluster (kubectl get priorityclass -o yaml), for the minResources order.")


class _LazyGroup(click.Group):
    """Commands that live in their own modules are imported only when they run (fast start)."""

    LAZY = {"check": "mpigen.cli_check:check", "explain": "mpigen.cli_explain:explain",
            "rules": "mpigen.cli_validate:rules", "validate": "mpigen.cli_validate:validate",
            "import": "mpigen.cli_import:import_", "migrate": "mpigen.cli_migrate:migrate"}

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted([*super().list_commands(ctx), *self.LAZY])

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name in self.LAZY:
            import importlib

            module, attribute = self.LAZY[name].split(":")
            return getattr(importlib.import_module(module), attribute)
        return super().get_command(ctx, name)


@click.group(cls=_LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="mpigen")
def cli() -> None:
    """Compile short training specs into exact, explicit Kubeflow manifests."""


@cli.command()
@click.argument("spec", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--env", "env", metavar="NAME", help="Environment to print (default: the base).")
@_cluster_option
@_operator_version
@click.option("-o", "--output", "output", type=click.Path(file_okay=False), metavar="DIR",
              help="Write a kustomize tree DIR/<job>/{base,overlays/<env>} instead of printing.")
def build(spec: str, env: str | None, cluster_file: str | None, operator_version: str, output: str | None) -> None:
    """Compile SPEC (a file, or - for stdin) into manifests on stdout, or a kustomize tree."""
    from .pipeline import Options, compile_specs

    version = _version_option(operator_version)
    if output and env:
        _usage("--env and -o do not go together: -o writes the base and every environment")
    classes, diagnostics = _cluster(cluster_file)
    loaded, name = _load(spec)
    result = compile_specs(loaded, name, Options(version, classes))
    diagnostics += result.diagnostics
    _report(diagnostics)
    if has_errors(diagnostics):
        raise Fail(EXIT_INVALID)
    try:
        cli_io.require_environment(result.jobs, env)
    except cli_io.Usage as exc:
        _usage(str(exc))
    if output:
        from .emit.writer import WriteError, write_tree
        from .render.kustomize import kustomize_files

        for job in result.jobs:
            try:
                written = write_tree(Path(output), job.name, kustomize_files(job))
            except WriteError as exc:
                click.echo(f"mpigen: {exc}", err=True)
                raise Fail(EXIT_INVALID)
            except OSError as exc:
                _usage(f"{output}: cannot write: {exc}")
            click.echo(f"wrote {len(written)} files to {os.path.join(output, job.name)}", err=True)
        return
    from .emit.yaml_emit import dump_all

    click.echo(dump_all([obj for job in result.jobs for obj in job.objects(env)]), nl=False)


@cli.command()
@click.argument("manifest", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--gang", type=click.Choice(["volcano", "scheduler-plugins"]), required=True,
              help="The operator's --gang-scheduling setting.")
@click.option("--scheduler-name", default="scheduler-plugins-scheduler", show_default=True, metavar="N",
              help="scheduler-plugins scheduler name (the operator's --gang-scheduling value).")
@_cluster_option
@_operator_version
def podgroup(manifest: str, gang: str, scheduler_name: str, cluster_file: str | None, operator_version: str) -> None:
    """Print the PodGroup the operator would create for each MPIJob, PyTorchJob and TFJob in MANIFEST
    (a file or -; items of a `kind: List` included).

    MPIJobs follow mpi-operator at --operator-version; PyTorchJobs and TFJobs (kubeflow.org/v1)
    always follow training-operator v1.9.0, whose --gang-scheduler-name is --gang volcano or,
    for scheduler-plugins, --scheduler-name.
    """
    from .emit.yaml_emit import dump, dump_all
    from .podgroup_cmd import podgroups

    version = _version_option(operator_version)
    classes, diagnostics = _cluster(cluster_file)
    loaded, name = _load(manifest)
    groups, found = podgroups(loaded, name, gang, scheduler_name, classes, version)
    diagnostics += found
    _report(diagnostics)
    if has_errors(diagnostics):
        raise Fail(EXIT_INVALID)
    click.echo(dump(groups[0]) if len(groups) == 1 else dump_all(groups), nl=False)


def main(argv: list[str] | None = None) -> int:
    """Entry point: run the CLI and turn every outcome into an exit code."""
    try:
        result = cli.main(args=argv, prog_name="mpigen", standalone_mode=False)
    except click.exceptions.Abort:
        click.echo("mpigen: interrupted", err=True)
        return EXIT_USAGE
    except click.ClickException as exc:
        exc.show()
        return EXIT_USAGE
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK
    except Exception as exc:  # a bug: say so, without a traceback unless asked
        if os.environ.get("MPIGEN_DEBUG"):
            raise
        click.echo(f"mpigen: internal error: {type(exc).__name__}: {exc}\n"
                   "This is a bug in mpigen; run again with MPIGEN_DEBUG=1 for a traceback and report it.", err=True)
        return EXIT_INTERNAL
    return result if isinstance(result, int) else EXIT_OK


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
