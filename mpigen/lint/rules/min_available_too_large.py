"""schedulingPolicy.minAvailable asks for more pods than the job has.

The PodGroup's minMember is ``schedulingPolicy.minAvailable`` when set (mpi-operator v0.8.2
``calculateMinAvailable`` in ``pkg/controller/podgroup.go``; training-operator v1.9.4
``ReconcileJobs`` in ``pkg/controller.v1/common/job.go``), and the gang scheduler runs none of the
group's pods until that many exist (Volcano ``pkg/scheduler/plugins/gang/gang.go``,
scheduler-plugins ``pkg/coscheduling/core/core.go`` ``PreFilter``). The job's pods are the
launcher (replicas default 1) and the workers (default 0) of an MPIJob, or every replica type's
replicas (default 1) of a PyTorchJob or TFJob; a minAvailable above their sum is never reached
and the job stays Pending forever.

Fix: set ``schedulingPolicy.minAvailable`` to at most the total number of pods, or leave it unset
(MPIJob: workers + 1; PyTorchJob and TFJob: all replicas).
"""

from __future__ import annotations

from typing import Iterator

from ...diagnostics import Severity
from ..base import Context, Path
from ._common import ALL_KINDS, current_api, is_int, replicas, scheduling_policy

CODE = "min-available-too-large"
SEVERITY = Severity.ERROR
KINDS = ALL_KINDS


def total_pods(ctx: Context) -> int | None:
    _, specs = ctx.replica_specs
    if ctx.kind == "MPIJob":  # the operator creates only these two types
        counts = [replicas(specs[r], d) for r, d in (("Launcher", 1), ("Worker", 0)) if r in specs]
    else:
        counts = [replicas(spec, 1) for spec in specs.values()]
    if None in counts or not counts:
        return None
    return sum(max(c, 0) for c in counts if c is not None)


def check(ctx: Context) -> Iterator[tuple[Path, str]]:
    path, policy = scheduling_policy(ctx)
    wanted = policy.get("minAvailable")
    if not is_int(wanted) or ctx.options.gang == "none" or not current_api(ctx):
        return
    total = total_pods(ctx)
    if total is not None and wanted > total:
        yield (path + ("minAvailable",),
               f"schedulingPolicy.minAvailable is {wanted} but the job has only {total} pods: the gang never "
               f"gathers {wanted} pods and stays Pending; set minAvailable to {total} or less")
