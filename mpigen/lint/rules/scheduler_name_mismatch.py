"""A pod template names another scheduler than the job's gang scheduler.

With gang scheduling the operator puts every pod in a PodGroup that only the gang scheduler
honours: ``volcano``, or for scheduler-plugins the name given to the operator's
``--gang-scheduling``/``--gang-scheduler-name`` (mpigen's ``schedulerName`` setting, default
``scheduler-plugins-scheduler``). mpi-operator v0.8.2 overwrites any other schedulerName with a
mere log line (``decoratePodTemplateSpec`` in ``pkg/controller/podgroup.go``), so the one written
is silently ignored. training-operator v1.9.4 keeps it and only records an event
(``createNewPod``/``isCustomSchedulerSet`` in ``pkg/controller.v1/common/pod.go``,
``DecoratePodTemplateSpec`` in ``pkg/controller.v1/control/podgroup_control.go``): those pods
bypass the gang scheduler and the PodGroup never gathers them. The gang is the one configured
(``gang`` setting), else the one the templates show.

Fix: remove ``schedulerName`` from the pod templates, or set it to the gang scheduler's name
(and tell mpigen a non-default scheduler-plugins name with the ``schedulerName`` setting).
"""

from __future__ import annotations

from typing import Iterator

from ...diagnostics import Severity
from ..base import Context, Path
from ._common import ALL_KINDS, current_api, gang_scheduler_name, pod_spec

CODE = "scheduler-name-mismatch"
SEVERITY = Severity.ERROR
KINDS = ALL_KINDS


def check(ctx: Context) -> Iterator[tuple[Path, str]]:
    expected = gang_scheduler_name(ctx)
    if expected is None or not current_api(ctx):
        return
    for role, path, template in ctx.pod_templates():
        name = pod_spec(template).get("schedulerName")
        if not isinstance(name, str) or not name or name == expected:
            continue
        if ctx.kind == "MPIJob":
            effect = f"mpi-operator silently replaces it with {expected!r}"
        else:
            effect = f"the training-operator keeps it, so these pods bypass the {ctx.gang} gang and its PodGroup"
        yield (path + ("spec", "schedulerName"),
               f"the {role} pod template asks for scheduler {name!r} but the job is gang-scheduled by "
               f"{ctx.gang} ({expected!r}): {effect}; remove schedulerName or set it to {expected!r}")
