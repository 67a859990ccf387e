"""``mpigen build``: a spec compiled into manifests on stdout, or into a kustomize tree (``-o DIR``)."""

from __future__ import annotations

import os

import click

from .. import io
from ..diagnostics import EXIT_INVALID, EXIT_OK, has_errors
from ..pipeline import CompiledJob
from . import (CONFIG_DEFAULT, OPERATOR_RULES, PRIORITY_CLASSES, RUNTIMES, cluster_option, config_option, env_option,
               operator_version_option)


@click.command()
@click.argument("spec", type=click.Path(dir_okay=False, allow_dash=True))
@env_option("Environment to print (default: the base).")
@cluster_option(f"{PRIORITY_CLASSES}, for the minResources order; {RUNTIMES} (default: cluster in the "
                "configuration).")
@operator_version_option(f"{OPERATOR_RULES} (v0.4.x: Volcano minResources are not computed) [default: "
                         "operatorVersion in the configuration, else v0.8.2].", default=None)
@click.option("-o", "--output", "output", type=click.Path(file_okay=False), metavar="DIR",
              help="Write a kustomize tree DIR/<job>/{base,overlays/<env>} instead of printing.")
@config_option(f"{CONFIG_DEFAULT}: its operatorVersion, cluster and disable, as check reads them.", exists=True)
@click.option("-v", "--verbose", is_flag=True, help="Also show notes (info: what mpigen assumed or wrote beside).")
def build(spec: str, env: str | None, cluster_input: io.ClusterInput, operator_version: str | None,
          output: str | None, config_file: str | None, verbose: bool) -> int:
    """Compile SPEC (a file, or - for stdin) into manifests on stdout, or a kustomize tree."""
    from ..api import build as build_spec

    config = io.load_config(config_file)
    version, cluster_input = io.configured(config, operator_version, cluster_input)
    if output and env:
        raise io.UsageError("--env and -o do not go together: -o writes the base and every environment")
    cluster, diagnostics = io.load_cluster(cluster_input)
    result = build_spec(io.api_input(spec), env=env, cluster=cluster, operator_version=version, disable=config.disable)
    io.report(diagnostics + result.diagnostics, notes=verbose)
    if not result.ok or has_errors(diagnostics):
        return EXIT_INVALID
    if output:
        return _write_trees(result.jobs, output)
    click.echo(result.yaml(), nl=False)
    return EXIT_OK


def _write_trees(jobs: list[CompiledJob], output: str) -> int:
    from pathlib import Path

    from ..emit.writer import WriteError, write_tree
    from ..render.kustomize import kustomize_files

    for job in jobs:
        try:
            written = write_tree(Path(output), job.name, kustomize_files(job))
        except WriteError as exc:
            click.echo(f"mpigen: {exc}", err=True)
            return EXIT_INVALID
        except OSError as exc:
            raise io.UsageError(f"{output}: cannot write: {exc}") from None
        click.echo(f"wrote {len(written)} files to {os.path.join(output, job.name)}", err=True)
    return EXIT_OK
