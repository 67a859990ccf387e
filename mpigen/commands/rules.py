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
    from ..lint.catalogue import render_markdown, render_text

    render = render_markdown if fmt == "markdown" else render_text
    click.echo(render(list(all_rules())), nl=False)
    return EXIT_OK
