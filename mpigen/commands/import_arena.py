"""``mpigen import arena``: an arena command line in, an mpigen spec out.

``mpigen import arena -- arena submit pytorch --name x --image y "python train.py"`` (the leading word
``arena`` may be left out), or ``mpigen import arena -`` to read a pasted command line (with ``\\``
line continuations) from stdin, or one argument holding the whole line. The spec goes to stdout;
diagnostics to stderr. Exit 1 when arena's flags cannot be translated, 2 when the input is not an
``arena submit`` line.
"""

from __future__ import annotations

import sys
from dataclasses import replace

import click

from .. import io
from ..diagnostics import EXIT_INVALID, EXIT_OK, has_errors
from ..emit.yaml_emit import dump
from ..importers.arena import SOURCE, ArenaUsageError, import_arena, split_command_line
from ..importers.arena_flags import flags_markdown
from ..load.yaml_loader import load_text
from ..pipeline import Options, compile_specs


@click.command("arena", context_settings={"ignore_unknown_options": True, "allow_interspersed_args": False})
@click.option("--flags-table", is_flag=True, hidden=True, help="Print the flag table of docs/arena.md.")
@click.argument("argv", nargs=-1, type=click.UNPROCESSED)
def arena(argv: tuple[str, ...], flags_table: bool) -> int:
    """Translate ARGV, an `arena submit mpijob|pytorchjob|tfjob ...` command line, into a spec on
    stdout. Give it after `--`, as one quoted argument, or `-` to read it from stdin."""
    if flags_table:
        click.echo(flags_markdown(), nl=False)
        return EXIT_OK
    words = list(argv)
    source = "<stdin>" if words == ["-"] else SOURCE  # what the diagnostics name: where the command line came from
    try:
        if words == ["-"]:
            words = split_command_line(sys.stdin.read())
        elif len(words) == 1 and " " in words[0].strip():
            words = split_command_line(words[0])
        if not words:
            raise io.UsageError("import arena: give an arena command line: "
                                "mpigen import arena -- arena submit KIND FLAGS... COMMAND")
        spec, diagnostics = import_arena(words)
    except ArenaUsageError as exc:
        raise io.UsageError(f"import arena: {exc}") from None
    diagnostics = [d.with_file(source) for d in diagnostics]
    if has_errors(diagnostics):
        io.report(diagnostics)
        return EXIT_INVALID
    text = dump(spec)
    # The spec must build: what the importer could not foresee (a relative --working-dir, a
    # credential in --sync-source, clashing mounts...) is reported at the spec's field, with the
    # line of the printed spec in the message (stdout is no file a diagnostic could name).
    built = compile_specs(load_text(text, source), source, Options())
    found = [replace(d, line=None, column=None, message=f"{d.message} (line {d.line} of the printed spec)")
             if d.line is not None else d for d in built.diagnostics]
    io.report(diagnostics + found)
    click.echo(text, nl=False)
    return EXIT_INVALID if has_errors(built.diagnostics) else EXIT_OK
