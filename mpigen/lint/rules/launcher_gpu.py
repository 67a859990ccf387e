"""The MPIJob launcher requests GPUs it cannot use.

Unless ``runLauncherAsWorker`` is true the launcher runs no ranks: it only starts mpirun, which
reaches the workers over SSH. mpi-operator v0.8.2 even hides the GPUs from it, setting
``NVIDIA_VISIBLE_DEVICES`` and ``NVIDIA_DRIVER_CAPABILITIES`` to empty in its containers[0]
(``nvidiaDisableEnvVars`` in ``newLauncherPodTemplate``, ``pkg/controller/mpi_job_controller.go``).
The GPUs are still reserved for the launcher pod for the whole run, idle, and they count in the
gang's minResources.

Fix: remove the GPU requests and limits from the launcher, or set ``runLauncherAsWorker: true``
if the launcher is meant to run ranks too.
"""

from __future__ import annotations

from typing import Iterator

from ...diagnostics import Severity
from ..base import Context, Path
from ._common import current_api, first_container, gpu_resources, mapping, mpi_role

CODE = "launcher-gpu"
SEVERITY = Severity.WARNING
KINDS = ("MPIJob",)


def check(ctx: Context) -> Iterator[tuple[Path, str]]:
    launcher = mpi_role(ctx, "Launcher")
    if not launcher or not current_api(ctx) or ctx.get("spec", "runLauncherAsWorker") is True:
        return
    container = first_container(launcher[1].get("template"))
    resources = mapping(mapping(container).get("resources"))
    for name, count in sorted(gpu_resources(container).items()):
        kind = "limits" if name in mapping(resources.get("limits")) else "requests"
        yield (launcher[0] + ("template", "spec", "containers", 0, "resources", kind, name),
               f"the launcher requests {count} {name} but runs no ranks (runLauncherAsWorker is not true) and the "
               "operator hides GPUs from it: they stay reserved and idle; remove them, or set "
               "runLauncherAsWorker: true")
