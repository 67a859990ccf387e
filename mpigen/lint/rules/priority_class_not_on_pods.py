"""schedulingPolicy.priorityClass is not the priority of the job's pods.

``runPolicy.schedulingPolicy.priorityClass`` only names the PodGroup's priority, and only for
Volcano: mpi-operator v0.8.2 passes it to the Volcano PodGroup and never to pods or to a
scheduler-plugins PodGroup (``newPodGroup``/``calculatePriorityClassName`` in
``pkg/controller/podgroup.go``; the field's doc in ``pkg/apis/kubeflow/v2beta1/types.go``), and
training-operator v1.9.4 does the same (``ReconcileJobs`` in ``pkg/controller.v1/common/job.go``).
A pod's priority, which kube-scheduler and the kubelet use for preemption and eviction, comes from
its own ``priorityClassName``. A template without one runs at the cluster's default priority
whatever the PodGroup says; when no template carries the class at all, the gang is queued at one
priority and its pods run at others. Templates carrying different classes on purpose (a
low-priority launcher, say) are fine as long as one of them carries schedulingPolicy's class.

The rule judges the PodGroup's class, written or not: for an MPIJob under Volcano without
schedulingPolicy.priorityClass the operator takes the Launcher template's class, else the Worker's
(``calculatePriorityClassName`` in ``pkg/controller/podgroup.go``, v0.4.0 to v0.8.2), so a job that
leaves it to the operator is judged as one that writes that class out (as ``mpigen build`` does).

Fix: set ``priorityClassName`` in every pod template (usually to the same class as
schedulingPolicy.priorityClass).
"""

from __future__ import annotations

from typing import Iterator

from ...diagnostics import Severity
from ..base import GANG_SCHEDULER_PLUGINS, GANG_VOLCANO, Context, Path
from ._common import ALL_KINDS, current_api, pod_spec, scheduling_policy

CODE = "priority-class-not-on-pods"
SEVERITY = Severity.WARNING
KINDS = ALL_KINDS


def derived_class(ctx: Context) -> str | None:
    """The PodGroup class mpi-operator takes from the pod templates (``calculatePriorityClassName``
    without schedulingPolicy.priorityClass): the Launcher's, else the Worker's."""
    specs = ctx.replica_specs[1]
    for role in ("Launcher", "Worker"):
        name = pod_spec(specs[role].get("template")).get("priorityClassName") if role in specs else None
        if isinstance(name, str) and name:
            return name
    return None


def check(ctx: Context) -> Iterator[tuple[Path, str]]:
    sp_path, policy = scheduling_policy(ctx)
    if not current_api(ctx):
        return
    wanted = policy.get("priorityClass")
    what = f"schedulingPolicy.priorityClass is {wanted!r}"
    if (not isinstance(wanted, str) or not wanted) and ctx.kind == "MPIJob" and ctx.gang == GANG_VOLCANO:
        wanted = derived_class(ctx)
        what = (f"the PodGroup's priorityClassName is {wanted!r} (mpi-operator takes a pod template's class when "
                "schedulingPolicy.priorityClass is unset)")
    if not isinstance(wanted, str) or not wanted:
        return
    note = (" (and scheduler-plugins ignores schedulingPolicy.priorityClass)"
            if ctx.gang == GANG_SCHEDULER_PLUGINS else "")
    carried = {}
    for role, path, template in ctx.pod_templates():
        name = pod_spec(template).get("priorityClassName")
        if isinstance(name, str) and name:
            carried[role] = name
        else:
            yield (path + ("spec", "priorityClassName"),
                   f"{what} but the {role} pod template has no priorityClassName: its pods run at the cluster's "
                   f"default priority{note}; set priorityClassName: {wanted}")
    if carried and wanted not in carried.values():
        others = ", ".join(f"{role}: {name}" for role, name in carried.items())
        yield (sp_path + ("priorityClass",),
               f"{what} but no pod template carries it ({others}): the "
               f"PodGroup and its pods have different priorities{note}; set one template's priorityClassName "
               f"to {wanted!r} or change schedulingPolicy.priorityClass")
