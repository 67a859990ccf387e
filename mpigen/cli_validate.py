"""``mpigen validate`` and ``mpigen rules``: the click layer over :mod:`mpigen.validate`."""

from __future__ import annotations

import sys

import click

from .cli import _usage


@click.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(allow_dash=True))
@click.option("--format", "fmt", type=click.Choice(["text", "json", "junit", "github"]), default="text",
              show_default=True, help="Report format (github: workflow annotations).")
@click.option("--strict", is_flag=True, help="Warnings fail the run too (exit 1).")
@click.option("--kubeconform", "use_kubeconform", is_flag=True,
              help="Also run the external kubeconform with mpigen's schemas and merge its findings.")
@click.option("--gang", type=click.Choice(["volcano", "scheduler-plugins", "none"]),
              help="The operator's --gang-scheduling (default: configuration, else inferred per manifest).")
@click.option("--scheduler-name", metavar="N", help="scheduler-plugins scheduler name.")
@click.option("--cluster", "cluster_file", type=click.Path(dir_okay=False, allow_dash=True), metavar="FILE",
              help="PriorityClasses of the cluster (kubectl get priorityclass -o yaml).")
@click.option("--operator-version", metavar="V", help="mpi-operator release whose rules apply [default: v0.8.0].")
@click.option("--disable", "disable", multiple=True, metavar="CODE", help="Switch a rule off (repeatable).")
@click.option("--config", "config_file", type=click.Path(dir_okay=False, exists=True), metavar="FILE",
              help="Configuration file (default: the nearest .mpigen.yaml or pyproject.toml [tool.mpigen]).")
@click.option("-v", "--verbose", is_flag=True, help="Also show notes (documents skipped, kinds without schema).")
def validate(paths: tuple[str, ...], fmt: str, strict: bool, use_kubeconform: bool, gang: str | None,
             scheduler_name: str | None, cluster_file: str | None, operator_version: str | None,
             disable: tuple[str, ...], config_file: str | None, verbose: bool) -> None:
    """Lint training manifests and mpigen specs: files, folders (recursively) or - for stdin.

    Every problem is reported as FILE:LINE:COL: SEVERITY CODE message (json.path). Errors exit 1;
    warnings alone exit 0 unless --strict.
    """
    from .cli import Fail
    from .cli_io import Usage
    from .validate.command import run

    try:
        text, summary, code = run(list(paths), fmt, strict, use_kubeconform, gang, scheduler_name, cluster_file,
                                  operator_version, disable, config_file, verbose)
    except Usage as exc:
        _usage(str(exc))
    click.echo(text, nl=False)
    if summary is not None:
        sys.stdout.flush()
        click.echo(summary, err=True)
    if code:
        raise Fail(code)


@click.command()
@click.option("--format", "fmt", type=click.Choice(["text", "markdown"]), default="text", show_default=True)
def rules(fmt: str) -> None:
    """List the lint rules: code, severity, what goes wrong and how to fix it."""
    from .lint.runner import rules as all_rules

    if fmt == "markdown":
        from .lint.catalogue import render_markdown

        click.echo(render_markdown(list(all_rules())), nl=False)
        return
    for rule in all_rules():
        click.echo(f"{rule.code} ({rule.severity.value}; {', '.join(rule.kinds)}): {rule.title}")
        click.echo(f"    {rule.explanation}")
        click.echo(f"    Fix: {rule.fix}\n")
