"""The command line: one click group, its options, and the exit codes.

Each command here only declares its arguments and options; what it does lives in
``mpigen.commands.<name>``, a ``run(...) -> int`` imported when the command runs, so that a
start-up imports click and this module, never the code of the other commands (or anything heavy
they use). The options several commands share are declared once, below.

Exit codes: 0 ok, 1 invalid input (or drift), 2 usage or I/O error, 3 internal error. Bad input
never shows a traceback; a bug shows one only with ``MPIGEN_DEBUG=1``.
"""

from __future__ import annotations

import os
import sys
from typing import Any, Callable

import click

from . import __version__
from .diagnostics import EXIT_INTERNAL, EXIT_OK, EXIT_USAGE
from .io import UsageError

Decorator = Callable[[Callable[..., Any]], Callable[..., Any]]


# The options several commands share. Their help text differs where their defaults do.

def cluster_option(help: str) -> Decorator:
    return click.option("--cluster", "cluster_file", type=click.Path(dir_okay=False, allow_dash=True),
                        metavar="FILE", help=help)


def operator_version_option(help: str | None = None, default: str | None = "v0.8.0") -> Decorator:
    return click.option("--operator-version", "operator_version", default=default,
                        show_default=default is not None, metavar="V", help=help)


def gang_option(help: str, none: bool = True, required: bool = False) -> Decorator:
    choices = ["volcano", "scheduler-plugins", "none"] if none else ["volcano", "scheduler-plugins"]
    return click.option("--gang", type=click.Choice(choices), required=required, help=help)


def scheduler_name_option(default: str | None = "scheduler-plugins-scheduler",
                          help: str = "scheduler-plugins scheduler name.") -> Decorator:
    return click.option("--scheduler-name", default=default, show_default=default is not None, metavar="N",
                        help=help)


def env_option(help: str) -> Decorator:
    return click.option("--env", "env", metavar="NAME", help=help)


def format_option(*choices: str, help: str | None = None) -> Decorator:
    return click.option("--format", "fmt", type=click.Choice(list(choices)), default=choices[0], show_default=True,
                        help=help)


def config_option(help: str, exists: bool = False) -> Decorator:
    return click.option("--config", "config_file", type=click.Path(dir_okay=False, exists=exists), metavar="FILE",
                        help=help)


PRIORITY_CLASSES = "PriorityClasses of the cluster (kubectl get priorityclass -o yaml)"
OPERATOR_RULES = "mpi-operator release whose rules apply"


class _Group(click.Group):
    """What a command returns is the exit code; a :class:`UsageError` it raises is printed and exits 2."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            code = super().invoke(ctx)
        except UsageError as exc:
            click.echo(f"mpigen: {exc}", err=True)
            code = EXIT_USAGE
        if code:
            ctx.exit(code)
        return EXIT_OK


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="mpigen")
def cli() -> None:
    """Compile short training specs into exact, explicit Kubeflow manifests."""


@cli.command()
@click.argument("spec", type=click.Path(dir_okay=False, allow_dash=True))
@env_option("Environment to print (default: the base).")
@cluster_option(f"{PRIORITY_CLASSES}, for the minResources order.")
@operator_version_option(f"{OPERATOR_RULES} (v0.4.x: Volcano minResources are not computed).")
@click.option("-o", "--output", "output", type=click.Path(file_okay=False), metavar="DIR",
              help="Write a kustomize tree DIR/<job>/{base,overlays/<env>} instead of printing.")
def build(**options: Any) -> int:
    """Compile SPEC (a file, or - for stdin) into manifests on stdout, or a kustomize tree."""
    from .commands import build as command

    return command.run(**options)


@cli.command()
@click.argument("manifest", type=click.Path(dir_okay=False, allow_dash=True))
@gang_option("The operator's --gang-scheduling setting.", none=False, required=True)
@scheduler_name_option(help="scheduler-plugins scheduler name (the operator's --gang-scheduling value).")
@cluster_option(f"{PRIORITY_CLASSES}, for the minResources order.")
@operator_version_option(f"{OPERATOR_RULES} (v0.4.x: Volcano minResources are not computed).")
def podgroup(**options: Any) -> int:
    """Print the PodGroup the operator would create for each MPIJob, PyTorchJob and TFJob in MANIFEST
    (a file or -; items of a `kind: List` included).

    MPIJobs follow mpi-operator at --operator-version; PyTorchJobs and TFJobs (kubeflow.org/v1)
    always follow training-operator v1.9.0, whose --gang-scheduler-name is --gang volcano or,
    for scheduler-plugins, --scheduler-name.
    """
    from .commands import podgroup as command

    return command.run(**options)


@cli.command()
@click.argument("source", type=click.Path(dir_okay=False, allow_dash=True))
@gang_option("The operator's --gang-scheduling (default: what the manifest's pod templates say).")
@scheduler_name_option()
@cluster_option(f"{PRIORITY_CLASSES}.")
@operator_version_option()
@click.option("--cluster-domain", default="", metavar="D",
              help="The operator's --cluster-domain (MPIJob hostfile) or CUSTOM_CLUSTER_DOMAIN (TFJob TF_CONFIG).")
@env_option("For a spec: the environment to explain (default: the base).")
@format_option("text", "yaml",
               help="text for people (the same size for any number of workers); yaml: every object, for tools.")
def explain(**options: Any) -> int:
    """Show what the operator will create for SOURCE: an mpigen spec, or MPIJob, PyTorchJob or TFJob
    manifests (or -)."""
    from .commands import explain as command

    return command.run(**options)


@cli.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(allow_dash=True))
@format_option("text", "json", "junit", "github", help="Report format (github: workflow annotations).")
@click.option("--strict", is_flag=True, help="Warnings fail the run too (exit 1).")
@click.option("--kubeconform", "use_kubeconform", is_flag=True,
              help="Also run the external kubeconform with mpigen's schemas and merge its findings.")
@gang_option("The operator's --gang-scheduling (default: configuration, else inferred per manifest).")
@scheduler_name_option(default=None)
@cluster_option(f"{PRIORITY_CLASSES}.")
@operator_version_option(f"{OPERATOR_RULES} [default: v0.8.0].", default=None)
@click.option("--disable", "disable", multiple=True, metavar="CODE", help="Switch a rule off (repeatable).")
@config_option("Configuration file (default: the nearest .mpigen.yaml or pyproject.toml [tool.mpigen]).",
               exists=True)
@click.option("-v", "--verbose", is_flag=True, help="Also show notes (documents skipped, kinds without schema).")
def validate(**options: Any) -> int:
    """Lint training manifests and mpigen specs: files, folders (recursively) or - for stdin.

    Every problem is reported as FILE:LINE:COL: SEVERITY CODE message (json.path). Errors exit 1;
    warnings alone exit 0 unless --strict.
    """
    from .commands import validate as command

    return command.run(**options)


@cli.command()
@click.argument("specs", nargs=-1, type=click.Path(dir_okay=False), metavar="[SPEC]...")
@click.option("-o", "--output", "output", type=click.Path(file_okay=False), metavar="DIR",
              help="Folder holding the trees DIR/<job>/ (default: output in the configuration).")
@click.option("--fix", is_flag=True, help="Rewrite the trees that drifted (as mpigen build -o does).")
@cluster_option("PriorityClasses of the cluster (default: cluster in the configuration).")
@operator_version_option(f"{OPERATOR_RULES} (default: operatorVersion in the configuration, else v0.8.0).",
                         default=None)
@config_option("Configuration file (default: .mpigen.yaml or pyproject.toml [tool.mpigen], "
               "searched upwards from the working directory).")
@click.option("--no-cache", is_flag=True, help="Compile every spec even when nothing changed since the last check.")
def check(**options: Any) -> int:
    """Compare the kustomize trees in DIR with what each SPEC compiles to (default: the specs in the
    configuration). Exit 1 on drift; --fix rewrites the trees that drifted."""
    from .commands import check as command

    return command.run(**options)


@cli.command()
@format_option("text", "markdown")
def rules(**options: Any) -> int:
    """List the lint rules: code, severity, what goes wrong and how to fix it."""
    from .commands import rules as command

    return command.run(**options)


@cli.group("import")
def import_() -> None:
    """Translate another tool's job description into an mpigen spec."""


@import_.command("arena", context_settings={"ignore_unknown_options": True, "allow_interspersed_args": False})
@click.option("--flags-table", is_flag=True, hidden=True, help="Print the flag table of docs/arena.md.")
@click.argument("argv", nargs=-1, type=click.UNPROCESSED)
def arena(**options: Any) -> int:
    """Translate ARGV, an `arena submit mpijob|pytorchjob|tfjob ...` command line, into a spec on
    stdout. Give it after `--`, as one quoted argument, or `-` to read it from stdin."""
    from .commands import import_arena as command

    return command.run(**options)


@cli.command()
@click.argument("manifest", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("-o", "--output", "output", type=click.Path(dir_okay=False), metavar="FILE",
              help="Write the result to FILE instead of stdout.")
@click.option("--gpus-per-node", type=click.IntRange(min=0), metavar="N",
              help="v1alpha1 only: the old operator's --gpus-per-node, which divided spec.gpus into workers "
                   "when the manifest has no gpusPerNode [default: the flag's default, 1, with a warning].")
@click.option("--processing-units-per-node", type=click.IntRange(min=0), metavar="N",
              help="v1alpha1 only: the old operator's --processing-units-per-node, for spec.processingUnits "
                   "[default: 1, with a warning].")
@click.option("--processing-resource-type", type=click.Choice(["nvidia.com/gpu", "cpu"]),
              help="v1alpha1 only: the old operator's --processing-resource-type [default: nvidia.com/gpu].")
def migrate(**options: Any) -> int:
    """Rewrite MANIFEST (a file, or - for stdin) in API versions the current operators serve.

    MPIJob kubeflow.org/v1alpha1, v1alpha2, v1 -> kubeflow.org/v2beta1 (mpi-operator v0.8.0);
    TFJob and PyTorchJob kubeflow.org/v1alpha2, v1beta1, v1beta2 -> kubeflow.org/v1
    (training-operator v1.9.0). Every document comes out in order on stdout (or -o FILE); each
    change is reported on stderr as FILE:LINE:COL: SEVERITY CODE message (json.path), and the
    result is checked by mpigen validate. Exit 1 when a document could not be migrated or the
    result does not validate (the output is still written, so the findings can be read there).
    """
    from .commands import migrate as command

    return command.run(**options)


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
