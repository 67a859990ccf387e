"""A Volcano runtime's pods do not name the scheduler volcano: they are bound one by one, with no gang.

With ``podGroupPolicy.volcano`` Trainer creates a Volcano PodGroup and gives every pod the
annotation ``scheduling.k8s.io/group-name`` (``EnforcePodGroupPolicy`` in
``pkg/runtime/framework/plugins/volcano/volcano.go`` lines 130-138), and nothing more: neither the
plugin nor JobSet sets a ``schedulerName``, and a TrainJob's runtime patches cannot set one. A pod
template that names no scheduler goes to the default scheduler, which ignores the PodGroup and binds
the pods as they come: no gang at all, and GPUs held by half-started jobs. A replicated job whose
pods name another scheduler is not Volcano's either; and when other replicated jobs of the runtime
are, Volcano waits for ever for the pods its PodGroup counts (minMember is every pod of every
replicated job) but never sees.

Fix: write ``schedulerName: volcano`` in the pod template of every replicated job
(``spec.template.spec.replicatedJobs[*].template.spec.template.spec.schedulerName``).
"""

from __future__ import annotations

from typing import Iterator

from ...diagnostics import Severity
from ..base import GANG_VOLCANO, Context, Path
from ._trainer import POD_SPEC, RUNTIME_PATH, gang_scheduler, is_runtime, replicated_jobs

CODE = "trainer-volcano-scheduler-name"
SEVERITY = Severity.WARNING
KINDS = ("TrainingRuntime", "ClusterTrainingRuntime")


def check(ctx: Context) -> Iterator[tuple[Path, str]]:
    if not is_runtime(ctx) or gang_scheduler(ctx.obj) != GANG_VOLCANO:
        return
    for index, job, pod in replicated_jobs(ctx.get("spec", "template", "spec")):
        name = pod.get("schedulerName")
        if name == GANG_VOLCANO:
            continue
        path = RUNTIME_PATH + (index,) + POD_SPEC
        if name is None:
            yield (path, f"the pods of replicated job {job.get('name')!r} name no schedulerName: Trainer's volcano "
                         "plugin only annotates them with the PodGroup, so the default scheduler binds them one by "
                         "one, with no gang; write schedulerName: volcano in its pod template")
        else:
            yield (path + ("schedulerName",),
                   f"the pods of replicated job {job.get('name')!r} name the scheduler {name!r}, not volcano: they "
                   "are not in the Volcano gang the runtime asks for; write schedulerName: volcano")
