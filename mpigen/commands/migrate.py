"""``mpigen migrate``: a manifest of retired API versions rewritten in the current ones (:mod:`mpigen.migrate`)."""

from __future__ import annotations

from pathlib import Path

import click

from .. import io
from ..diagnostics import EXIT_INVALID, EXIT_OK, has_errors
from ..load.yaml_loader import load_bytes
from ..migrate import LegacyFlags, migrate_documents


def run(manifest: str, output: str | None, gpus_per_node: int | None, processing_units_per_node: int | None,
        processing_resource_type: str | None) -> int:
    raw, name = io.read_input(manifest)
    loaded = load_bytes(raw, name)
    flags = LegacyFlags(gpus_per_node, processing_units_per_node, processing_resource_type)
    result = migrate_documents(loaded, name, output or "<stdout>", flags)
    io.report(result.diagnostics)
    if output:
        try:
            Path(output).write_text(result.text, encoding="utf-8")
        except OSError as exc:
            raise io.UsageError(f"{output}: cannot write: {exc.strerror or exc}") from None
    else:
        click.echo(result.text, nl=False)
    return EXIT_INVALID if has_errors(result.diagnostics) else EXIT_OK
