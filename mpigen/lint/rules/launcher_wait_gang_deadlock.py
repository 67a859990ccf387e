"""launcherCreationPolicy WaitForWorkersReady with a gang that counts the launcher never starts.

With ``WaitForWorkersReady`` mpi-operator creates the launcher Job only once every worker pod is
ready (``syncHandler`` in mpi-operator v0.8.2 ``pkg/controller/mpi_job_controller.go``). With gang
scheduling the PodGroup's minMember is schedulingPolicy.minAvailable, else workers + 1: it counts
the launcher (``calculateMinAvailable`` in ``pkg/controller/podgroup.go``). The gang scheduler
schedules none of the group's pods until minMember of them exist: Volcano's gang plugin reports
"Not enough valid tasks for gang-scheduling" (volcano-sh/volcano
``pkg/scheduler/plugins/gang/gang.go``), the coscheduling plugin "cannot find enough sibling pods"
(kubernetes-sigs/scheduler-plugins ``pkg/coscheduling/core/core.go`` ``PreFilter``). The workers
wait for the launcher pod, the launcher waits for the workers: the job hangs. (A job without
workers is not affected: its launcher is created at once.)

Fix: use ``launcherCreationPolicy: AtStartup`` (the default) with gang scheduling, or set
``schedulingPolicy.minAvailable`` to at most the number of workers.
"""

from __future__ import annotations

from typing import Iterator

from ...diagnostics import Severity
from ...operator.mpi_defaults import set_defaults
from ...operator.podgroup import calculate_min_available
from ..base import Context, Path
from ._common import current_api, is_int, mpi_role, replicas

CODE = "launcher-wait-gang-deadlock"
SEVERITY = Severity.ERROR
KINDS = ("MPIJob",)


def check(ctx: Context) -> Iterator[tuple[Path, str]]:
    if not current_api(ctx) or ctx.gang is None or ctx.get("spec", "launcherCreationPolicy") != "WaitForWorkersReady":
        return
    worker = mpi_role(ctx, "Worker")
    workers = replicas(worker[1], 0) if worker else 0
    try:
        min_member = calculate_min_available(set_defaults(ctx.obj, ctx.options.operator_version))
    except (AttributeError, TypeError, ValueError):
        return
    # Without workers the launcher is created at once (0 ready of 0), so there is nothing to wait for.
    if is_int(min_member) and workers and min_member > workers:
        all_ready = "the worker is ready" if workers == 1 else f"all {workers} workers are ready"
        yield (("spec", "launcherCreationPolicy"),
               f"launcherCreationPolicy WaitForWorkersReady creates the launcher only after {all_ready}, but the "
               f"{ctx.gang} gang holds every pod until {min_member} exist (minMember counts the launcher): the job "
               f"never starts; use AtStartup, or set schedulingPolicy.minAvailable to {workers} or less")
