"""The command line: the click group, its commands loaded lazily, and the exit codes.

The group knows its commands by name and module (click's "lazily loading subcommands" pattern):
a start-up imports click and this module, then only the module of the command that runs, which
declares that command's arguments and options and does its work (:mod:`mpigen.commands`).

Exit codes: 0 ok, 1 invalid input (or drift), 2 usage or I/O error, 3 internal error. Bad input
never shows a traceback; a bug shows one only with ``MPIGEN_DEBUG=1``.
"""

from __future__ import annotations

import importlib
import os
import sys
from typing import Any

import click

from . import __version__
from .diagnostics import EXIT_INTERNAL, EXIT_OK, EXIT_USAGE
from .io import UsageError

COMMANDS = {
    "argocd": "mpigen.commands.argocd:argocd",
    "build": "mpigen.commands.build:build",
    "check": "mpigen.commands.check:check",
    "diagnose": "mpigen.commands.diagnose:diagnose",
    "explain": "mpigen.commands.explain:explain",
    "import": "mpigen.main:import_group",
    "init": "mpigen.commands.init:init",
    "migrate": "mpigen.commands.migrate:migrate",
    "podgroup": "mpigen.commands.podgroup:podgroup",
    "rules": "mpigen.commands.rules:rules",
    "validate": "mpigen.commands.validate:validate",
}
"""Command name -> ``module:attribute`` of its click command."""


class LazyGroup(click.Group):
    """A group whose commands are imported when asked for; what a command returns is the exit
    code, and a :class:`UsageError` it raises is printed as ``mpigen: MESSAGE`` (exit 2)."""

    def __init__(self, *args: Any, lazy_commands: dict[str, str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lazy_commands = lazy_commands

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(self.lazy_commands)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in self.lazy_commands:
            return None
        module, attribute = self.lazy_commands[name].split(":")
        return getattr(importlib.import_module(module), attribute)

    def resolve_command(self, ctx: click.Context, args: list[str]) -> tuple[str | None, click.Command | None, list[str]]:
        try:
            return super().resolve_command(ctx, args)
        except click.exceptions.NoSuchCommand as exc:  # "Did you mean": from every command, not the loaded ones
            raise click.exceptions.NoSuchCommand(exc.command_name, possibilities=self.lazy_commands, ctx=ctx) from None

    def format_epilog(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """Where the spec format is described, and how to start (found only when help is shown)."""
        from .spec.schema import SPEC_SCHEMA, schemas_folder

        formatter.write_paragraph()
        formatter.write_text("Specs (apiVersion mpigen.dev/v1alpha1, kind TrainingJob) are described in the "
                             "README (\"The spec\") and, field by field, by their JSON Schema, for your editor's "
                             "YAML language server:")
        formatter.write(f"{'':>{formatter.current_indent + 2}}{schemas_folder() / SPEC_SCHEMA}\n")
        formatter.write_paragraph()
        formatter.write_text("A new repository: mpigen init writes .mpigen.yaml, a first spec with comments and "
                             ".pre-commit-config.yaml with both hooks.")

    def invoke(self, ctx: click.Context) -> Any:
        try:
            code = super().invoke(ctx)
        except UsageError as exc:
            click.echo(f"mpigen: {exc}", err=True)
            code = EXIT_USAGE
        if code:
            ctx.exit(code)
        return EXIT_OK


IMPORTERS = {
    "arena": "mpigen.commands.import_arena:arena",
    "manifest": "mpigen.commands.import_manifest:manifest",
}
"""``mpigen import``'s commands, loaded as the group's are."""


@click.group("import", cls=LazyGroup, lazy_commands=IMPORTERS)
def import_group() -> None:
    """Translate an arena command line or a Kubeflow job manifest into an mpigen spec."""


@click.group(cls=LazyGroup, lazy_commands=COMMANDS, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="mpigen")
def cli() -> None:
    """Compile short training specs into exact, explicit Kubeflow manifests."""


def main(argv: list[str] | None = None) -> int:
    """Entry point (``[project.scripts]``, ``python -m mpigen``): run the CLI, return the exit code."""
    try:
        code = cli.main(args=argv, prog_name="mpigen", standalone_mode=False)
    except click.exceptions.Abort:
        click.echo("mpigen: interrupted", err=True)
        return EXIT_USAGE
    except click.ClickException as exc:
        exc.show()
        return EXIT_USAGE
    except Exception as exc:  # a bug: say so, without a traceback unless asked
        if os.environ.get("MPIGEN_DEBUG"):
            raise
        click.echo(f"mpigen: internal error: {type(exc).__name__}: {exc}\n"
                   "This is a bug in mpigen; run again with MPIGEN_DEBUG=1 for a traceback and report it.", err=True)
        return EXIT_INTERNAL
    return code if isinstance(code, int) else EXIT_OK


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
