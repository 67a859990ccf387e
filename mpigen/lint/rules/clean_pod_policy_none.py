"""GPU workers are kept running after the MPIJob finishes (cleanPodPolicy None).

MPIJob workers run sshd and never exit on their own. When the launcher finishes, mpi-operator
deletes them only when runPolicy.cleanPodPolicy is Running or All (``isCleanUpPods`` and
``deleteWorkerPods`` in mpi-operator v0.8.2 ``pkg/controller/mpi_job_controller.go``), and an unset
cleanPodPolicy is defaulted to None (``SetDefaults_MPIJob`` in
``pkg/apis/kubeflow/v2beta1/default.go``, although types.go's comment says Running).
ttlSecondsAfterFinished only reaches the launcher Job (``newLauncherJob``), so the idle workers,
and the GPUs they hold, stay until someone deletes the MPIJob. Reported only when the workers
request GPUs (``*/gpu`` resources), where idle pods are costly and block other jobs.

Fix: set ``runPolicy.cleanPodPolicy: Running`` (or All).
"""

from __future__ import annotations

from typing import Iterator

from ...diagnostics import Severity
from ..base import Context, Path
from ._common import current_api, gpu_resources, mpi_role, replicas

CODE = "clean-pod-policy-none"
SEVERITY = Severity.WARNING
KINDS = ("MPIJob",)


def check(ctx: Context) -> Iterator[tuple[Path, str]]:
    worker = mpi_role(ctx, "Worker")
    policy = ctx.get("spec", "runPolicy", "cleanPodPolicy")
    if not worker or not current_api(ctx) or policy not in (None, "None"):
        return
    containers = ctx.get(*worker[0], "template", "spec", "containers", default=[])
    gpus: dict[str, int] = {}
    for container in containers if isinstance(containers, list) else []:
        for name, count in gpu_resources(container).items():
            gpus[name] = gpus.get(name, 0) + count
    count = replicas(worker[1], 0)
    if not gpus or not count:
        return
    held = ", ".join(f"{n} {name}" for name, n in sorted(gpus.items()))
    how = "cleanPodPolicy is None" if policy else "cleanPodPolicy is unset, which the operator defaults to None"
    yield (("spec", "runPolicy", "cleanPodPolicy"),
           f"{how}: the {count} workers keep running sshd after the launcher finishes, each holding {held}, "
           "until the MPIJob is deleted; set runPolicy.cleanPodPolicy to Running")
