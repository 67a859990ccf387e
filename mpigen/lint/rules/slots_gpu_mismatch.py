"""slotsPerWorker differs from the GPUs each worker requests.

The operator gives every worker ``slotsPerWorker`` slots in the hostfile (``newConfigMap`` in
mpi-operator v0.8.2 ``pkg/controller/mpi_job_controller.go``), and mpirun starts one rank per
slot. Data-parallel frameworks (Horovod, NCCL-based DDP) drive one GPU per rank: with fewer slots
than GPUs some GPUs stay idle, with more, ranks share a GPU. A job that deliberately runs one
process per node over all its GPUs is the exception, hence a warning.

Fix: set slotsPerWorker to the number of GPUs of each worker (``*/gpu`` limits of the Worker's
containers[0]), or switch this rule off for the job with ``mpigen.dev/disable: slots-gpu-mismatch``.
"""

from __future__ import annotations

from typing import Iterator

from ...diagnostics import Severity
from ..base import Context, Path
from ._common import current_api, first_container, gpu_resources, is_int, mpi_role

CODE = "slots-gpu-mismatch"
SEVERITY = Severity.WARNING
KINDS = ("MPIJob",)


def check(ctx: Context) -> Iterator[tuple[Path, str]]:
    worker = mpi_role(ctx, "Worker")
    slots = ctx.get("spec", "slotsPerWorker", default=1)
    if not current_api(ctx) or not is_int(slots) or not worker:
        return
    gpus = gpu_resources(first_container(worker[1].get("template")))
    count = sum(gpus.values())
    if gpus and count != slots:
        yield (("spec", "slotsPerWorker"),
               f"slotsPerWorker is {slots} but each worker requests {count} GPUs ({', '.join(sorted(gpus))}): "
               f"with one rank per slot, ranks and GPUs do not pair up; set slotsPerWorker to {count}")
