"""``mpigen migrate``: a manifest of retired API versions rewritten in the current ones (:mod:`mpigen.migrate`)."""

from __future__ import annotations

from pathlib import Path

import click

from .. import io
from ..diagnostics import EXIT_INVALID, EXIT_OK, has_errors
from ..load.yaml_loader import load_bytes
from ..migrate import LegacyFlags, TrainJobOptions, migrate_documents
from . import gang_option, scheduler_name_option


@click.command()
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
@click.option("--to", "to", type=click.Choice(["trainjob"]),
              help="Migrate to Kubeflow Trainer v2.3.0 instead: MPIJob kubeflow.org/v2beta1 and PyTorchJob "
                   "kubeflow.org/v1 -> TrainJob (with a TrainingRuntime beside it when the pod templates need one).")
@gang_option("--to trainjob: the old operator's --gang-scheduling (default: what each job's pod templates show).")
@scheduler_name_option(help="--to trainjob: the old operator's scheduler-plugins scheduler name.")
def migrate(manifest: str, output: str | None, gpus_per_node: int | None, processing_units_per_node: int | None,
            processing_resource_type: str | None, to: str | None, gang: str | None, scheduler_name: str) -> int:
    """Rewrite MANIFEST (a file, or - for stdin) in API versions the current operators serve.

    MPIJob kubeflow.org/v1alpha1, v1alpha2, v1 -> kubeflow.org/v2beta1 (mpi-operator v0.8.2);
    TFJob and PyTorchJob kubeflow.org/v1alpha2, v1beta1, v1beta2 -> kubeflow.org/v1
    (training-operator v1.9.4). With --to trainjob: MPIJob v2beta1 and PyTorchJob v1 -> TrainJob
    (Kubeflow Trainer v2.3.0). Every document comes out in order on stdout (or -o FILE); each
    change is reported on stderr as FILE:LINE:COL: SEVERITY CODE message (json.path), and the
    result is checked by mpigen validate. Exit 1 when a document could not be migrated, something
    could not be carried or the result does not validate (the output is still written, so the
    findings can be read there).
    """
    if to is None and gang is not None:
        raise io.UsageError("--gang is for --to trainjob")
    raw, name = io.read_input(manifest)
    loaded = load_bytes(raw, name)
    flags = LegacyFlags(gpus_per_node, processing_units_per_node, processing_resource_type)
    options = TrainJobOptions(gang, scheduler_name) if to == "trainjob" else None
    result = migrate_documents(loaded, name, output, flags, to_trainjob=options)
    io.report(result.diagnostics)
    if output:
        try:
            Path(output).write_text(result.text, encoding="utf-8")
        except OSError as exc:
            raise io.UsageError(f"{output}: cannot write: {exc.strerror or exc}") from None
    else:
        click.echo(result.text, nl=False)
    return EXIT_INVALID if has_errors(result.diagnostics) else EXIT_OK
