"""``mpigen rules``: the lint rules' catalogue, as text or as docs/rules.md's Markdown."""

from __future__ import annotations

import click

from ..diagnostics import EXIT_OK
from ..lint.runner import rules as all_rules
from . import format_option


@click.command()
@format_option("text", "markdown")
def rules(fmt: str) -> int:
    """List the lint rules: code, severity, what goes wrong and how to fix it."""
    if fmt == "markdown":
        from ..lint.catalogue import render_markdown

        click.echo(render_markdown(list(all_rules())), nl=False)
        return EXIT_OK
    for rule in all_rules():
        click.echo(f"{rule.code} ({rule.severity.value}; {', '.join(rule.kinds)}): {rule.title}")
        click.echo(f"    {rule.explanation}")
        click.echo(f"    Fix: {rule.fix}\n")
    return EXIT_OK
