"""A gang runtime whose replicated jobs start one after another never starts: the PodGroup counts every pod.

JobSet creates a replicated job that ``dependsOn`` another only once that one is Ready (or
Complete), and with ``startupPolicy: {startupPolicyOrder: InOrder}`` each replicated job only once
the one before it is Ready (``dependencyReachedStatus`` in JobSet v0.12.0
``pkg/controllers/depends_on.go``; the ``dependsOn`` field of ``api/jobset/v1alpha2/jobset_types.go``).
With a ``podGroupPolicy`` Trainer gives the PodGroup a minMember of every pod of every replicated
job (``Build``, ``totalMembers`` over the PodSets, in Trainer v2.3.0
``pkg/runtime/framework/plugins/coscheduling/coscheduling.go`` lines 112-128 and
``pkg/runtime/framework/plugins/volcano/volcano.go`` lines 163-177). The gang scheduler binds none
of the group's pods until minMember of them exist: Volcano's gang plugin holds the PodGroup
Inqueue ("N/M tasks in gang unschedulable: pod group is not ready"), the coscheduling plugin
"cannot find enough sibling pods" (scheduler-plugins ``pkg/coscheduling/core/core.go``
``PreFilter``). The first replicated job's pods wait for the later ones' to exist, the later ones
wait for the first's to be ready: the TrainJob hangs. Trainer's own ``deepspeed-distributed`` and
``mlx-distributed`` runtimes have their launcher depend on the nodes (``dependsOn: [{name: node,
status: Ready}]``): either one given a ``podGroupPolicy`` hangs so, as seen on the local cluster
(``make e2e``, ``tests/e2e/test_trainer.py``).

Fix: drop ``dependsOn`` (and ``startupPolicy: InOrder``) from a runtime with a ``podGroupPolicy``
(the launcher then starts beside the nodes and must wait for their SSH servers itself), or drop the
``podGroupPolicy``.
"""

from __future__ import annotations

from typing import Iterator

from ...diagnostics import Severity
from ..base import Context, Path
from ._trainer import RUNTIME_PATH, gang_scheduler, is_runtime, items, mapping, replicated_jobs

CODE = "trainer-depends-on-gang-deadlock"
SEVERITY = Severity.ERROR
KINDS = ("TrainingRuntime", "ClusterTrainingRuntime")

_PODGROUP = {"coscheduling": "coscheduling", "volcano": "Volcano"}


def check(ctx: Context) -> Iterator[tuple[Path, str]]:
    scheduler = gang_scheduler(ctx.obj) if is_runtime(ctx) else None
    if scheduler is None:
        return
    spec = ctx.get("spec", "template", "spec")
    jobs = list(replicated_jobs(spec))
    hangs = (f"but the {_PODGROUP[scheduler]} PodGroup's minMember counts the pods of every replicated job: the "
             "gang scheduler binds none of the TrainJob's pods until all of them exist, so the TrainJob never starts")
    for index, job, _ in jobs:
        for dependency in items(job.get("dependsOn")):
            yield (RUNTIME_PATH + (index, "dependsOn"),
                   f"replicated job {job.get('name')!r} is created only once {dependency.get('name')!r} is "
                   f"{dependency.get('status')} (dependsOn), {hangs}")
            break
    order = mapping(mapping(spec).get("startupPolicy")).get("startupPolicyOrder")
    if order == "InOrder" and len(jobs) > 1:
        yield (("spec", "template", "spec", "startupPolicy", "startupPolicyOrder"),
               f"each replicated job is created only once the one before it is Ready (startupPolicyOrder InOrder), "
               f"{hangs}")
