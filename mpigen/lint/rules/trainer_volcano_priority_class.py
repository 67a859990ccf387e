"""The replicated jobs of a Volcano runtime name different PriorityClasses: the PodGroup takes the last one.

With ``podGroupPolicy.volcano`` Trainer gives the PodGroup the ``priorityClassName`` of the pod
templates by walking the replicated jobs in order and setting it for each one that names a class,
so the last such job wins (``Build`` in ``pkg/runtime/framework/plugins/volcano/volcano.go`` lines
186-197). Volcano orders and preempts the whole gang by that class while each pod keeps its own: a
high-priority launcher listed before low-priority workers leaves the gang at the workers' priority.
The webhook's check that the classes exist stops at the first ``system-cluster-critical`` or
``system-node-critical`` one (``Validate``, lines 104-125), so the classes of the replicated jobs
after it are never checked. TrainJob runtime patches cannot change ``priorityClassName``.

Fix: give every replicated job the same ``priorityClassName``, or list the job whose class the
gang should have last.
"""

from __future__ import annotations

from typing import Iterator

from ...diagnostics import Severity
from ..base import Context, Path
from ._trainer import RUNTIME_PATH, gang_scheduler, is_runtime, replicated_jobs

CODE = "trainer-volcano-priority-class"
SEVERITY = Severity.WARNING
KINDS = ("TrainingRuntime", "ClusterTrainingRuntime")


def check(ctx: Context) -> Iterator[tuple[Path, str]]:
    if not is_runtime(ctx) or gang_scheduler(ctx.obj) != "volcano":
        return
    named = [(index, job.get("name"), pod["priorityClassName"])
             for index, job, pod in replicated_jobs(ctx.get("spec", "template", "spec"))
             if isinstance(pod.get("priorityClassName"), str)]
    if len({cls for _, _, cls in named}) < 2:
        return
    _, last_job, last_class = named[-1]
    for index, job, cls in named[:-1]:
        if cls != last_class:
            yield (RUNTIME_PATH + (index, "template", "spec", "template", "spec", "priorityClassName"),
                   f"the Volcano PodGroup gets {last_class!r} from replicated job {last_job!r}, the last one that "
                   f"names a class, not {cls!r} of {job!r}")
