"""``mpigen rules [CODE]``: the lint rules' catalogue, as text or as docs/rules.md's Markdown; with
a code, that code's documentation (a lint rule's, else its entry in the error catalogue)."""

from __future__ import annotations

import click

from .. import io
from ..diagnostics import CODES, EXIT_OK, did_you_mean
from ..lint.runner import rules as all_rules
from . import format_option


@click.command()
@click.argument("code", required=False)
@format_option("text", "markdown")
def rules(code: str | None, fmt: str) -> int:
    """List the lint rules: code, severity, what goes wrong and how to fix it.

    With CODE (any code mpigen prints, from a lint rule or not), show only that code's documentation.
    """
    from ..lint.catalogue import render_markdown, render_text

    render = render_markdown if fmt == "markdown" else render_text
    if code is None:
        click.echo(render(list(all_rules())), nl=False)
        return EXIT_OK
    rule = next((r for r in all_rules() if r.code == code), None)
    if rule is not None:
        click.echo(render([rule]), nl=False)
        return EXIT_OK
    if code not in CODES:
        hint = did_you_mean(code, CODES)
        raise io.UsageError(f"no code {code!r}" + (f" (did you mean {hint!r}?)" if hint else "")
                            + ": `mpigen rules` lists the lint rules, docs/errors.md every code")
    click.echo(_code_text(code) if fmt == "text" else _code_markdown(code), nl=False)
    return EXIT_OK


def _code_text(code: str) -> str:
    from ..codes import code_doc
    from ..lint.catalogue import plain

    doc = code_doc(code)
    lines = [f"{code} ({_unmarked(doc.severity)}): {_unmarked(doc.meaning)}"]
    if doc.fix:
        lines.append(f"    Fix: {plain(_unmarked(doc.fix))}")
    lines.append(f"    Example: {doc.example}")
    return "\n".join(lines) + "\n"


def _code_markdown(code: str) -> str:
    from ..codes import code_doc

    doc = code_doc(code)
    out = [f"## `{code}`", "", f"- Severity: {doc.severity}", "", doc.meaning]
    if doc.fix:
        out += ["", f"**Fix:** {doc.fix}"]
    out += ["", "```text", doc.example, "```"]
    return "\n".join(out) + "\n"


def _unmarked(markdown: str) -> str:
    return markdown.replace("`", "").replace("**", "")
