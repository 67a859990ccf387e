"""scheduler-plugins gets no scheduleTimeoutSeconds, so the gang waits only 60 seconds.

mpi-operator v0.8.2 writes the PodGroup's ``scheduleTimeoutSeconds`` from
``schedulingPolicy.scheduleTimeoutSeconds`` and sends 0 when it is unset (``newPodGroup`` of
``SchedulerPluginsCtrl`` in ``pkg/controller/podgroup.go``); training-operator v1.9.4 leaves it
unset (``ReconcileJobs`` in ``pkg/controller.v1/common/job.go``). The coscheduling plugin uses
the PodGroup's value only when it is non-zero and otherwise falls back to its own
``permitWaitingTimeSeconds`` (scheduler-plugins v0.33.5 ``pkg/coscheduling/coscheduling.go``
``Permit``: "if wait := util.GetWaitTimeDuration(pg, cs.scheduleTimeout); wait != 0 { waitTime =
wait }"), whose default is ``defaultPermitWaitingTimeSeconds int64 = 60``
(``apis/config/v1/defaults.go``). A gang that needs longer than that to place all its pods
(large images, autoscaled nodes) has its waiting pods rejected and starts over, again and again.

Fix: set ``schedulingPolicy.scheduleTimeoutSeconds`` to how long the gang may wait to be placed
(e.g. 600).
"""

from __future__ import annotations

from typing import Iterator

from ...diagnostics import Severity
from ..base import GANG_SCHEDULER_PLUGINS, Context, Path
from ._common import ALL_KINDS, current_api, scheduling_policy

CODE = "schedule-timeout-zero"
SEVERITY = Severity.WARNING
KINDS = ALL_KINDS


def check(ctx: Context) -> Iterator[tuple[Path, str]]:
    if ctx.gang != GANG_SCHEDULER_PLUGINS or not current_api(ctx):
        return
    path, policy = scheduling_policy(ctx)
    timeout = policy.get("scheduleTimeoutSeconds")
    if timeout is None or (timeout == 0 and not isinstance(timeout, bool)):
        shown = "is unset" if timeout is None else "is 0"
        yield (path + ("scheduleTimeoutSeconds",),
               f"schedulingPolicy.scheduleTimeoutSeconds {shown}: the coscheduling plugin then waits only its "
               "permitWaitingTimeSeconds (60 s by default) for the whole gang before rejecting it; set "
               "scheduleTimeoutSeconds to how long the gang may wait, e.g. 600")
