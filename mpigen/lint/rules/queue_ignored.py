"""A queue is named where nothing reads it: the job is not queued where it says.

A scheduler-plugins PodGroup (``scheduling.x-k8s.io/v1alpha1``) has minMember, minResources and
scheduleTimeoutSeconds, no queue. mpi-operator v0.8.2 passes ``schedulingPolicy.queue`` (or the
MPIJob's ``scheduling.volcano.sh/queue-name`` annotation) to Volcano PodGroups only
(``newPodGroup`` of ``VolcanoCtrl`` and ``SchedulerPluginsCtrl`` in ``pkg/controller/podgroup.go``;
the field's doc in ``pkg/apis/kubeflow/v2beta1/types.go`` says "input isn't passed to PodGroup"),
and so does training-operator v1.9.4 (``ReconcileJobs`` in ``pkg/controller.v1/common/job.go``).

Volcano's queue annotation ``scheduling.volcano.sh/queue-name`` counts in one place only, which
each operator chooses. mpi-operator v0.8.2 reads it on the MPIJob itself, after
``schedulingPolicy.queue`` (``newPodGroup`` of ``VolcanoCtrl``). training-operator v1.9.4 never
reads it: the PodGroup's queue is ``schedulingPolicy.queue``, else ``default`` (``ReconcileJobs``),
and the annotation, copied with the job's others onto the PodGroup (``SyncPodGroup``), is not what
Volcano reads. Kubeflow Trainer v2.3.0 reads it on the JobSet template of the runtime
(``spec.template.metadata.annotations``) and of the TrainJob's runtime patches
(``newRuntimeInfo`` in ``pkg/runtime/core/trainingruntime.go``; ``Build`` in
``pkg/runtime/framework/plugins/volcano/volcano.go``), not on the TrainJob's own metadata. On a pod
template, or a replicated job's template, it is read by no one: the pods join the PodGroup the
operator creates, whose queue is decided as above. The job then waits in, and is limited by,
another queue than the one it names (the ``default`` queue, or none).

Fix: remove the queue, or admit the job through Kueue (label ``kueue.x-k8s.io/queue-name`` on the
job) or run the operator with Volcano if queueing is what you need. With Volcano, write the queue
where the operator reads it: ``runPolicy.schedulingPolicy.queue`` of an MPIJob, PyTorchJob or
TFJob; for a TrainJob, the annotation on the runtime's ``spec.template.metadata`` or on the
TrainJob's ``spec.runtimePatches[].trainingRuntimeSpec.template.metadata``.
"""

from __future__ import annotations

from typing import Any, Iterator

from ...diagnostics import Severity
from ...operator.podgroup import VOLCANO_QUEUE_ANNOTATION
from ..base import GANG_SCHEDULER_PLUGINS, GANG_VOLCANO, Context, Path
from ._common import ALL_KINDS, current_api, mapping, scheduling_policy
from ._trainer import gang_scheduler, is_runtime, is_trainjob, items

CODE = "queue-ignored"
SEVERITY = Severity.WARNING
KINDS = ALL_KINDS + ("TrainJob", "TrainingRuntime", "ClusterTrainingRuntime")

ANNOTATION: Path = ("metadata", "annotations", VOLCANO_QUEUE_ANNOTATION)
TRAINER_READS = ("Trainer's volcano plugin reads the queue on the JobSet template: the runtime's "
                 "spec.template.metadata.annotations, or the TrainJob's "
                 "spec.runtimePatches[].trainingRuntimeSpec.template.metadata.annotations; write it there")


def check(ctx: Context) -> Iterator[tuple[Path, str]]:
    if is_trainjob(ctx):
        if gang_scheduler(ctx.trainer_runtime) == GANG_VOLCANO:
            yield from _trainjob(ctx)
    elif is_runtime(ctx):
        if gang_scheduler(ctx.obj) == GANG_VOLCANO:
            yield from _replicated_jobs(ctx.get("spec", "template", "spec"), ("spec", "template", "spec"))
    elif not current_api(ctx):
        return
    elif ctx.gang == GANG_SCHEDULER_PLUGINS:
        yield from _scheduler_plugins(ctx)
    elif ctx.gang == GANG_VOLCANO:
        yield from _volcano_job(ctx)


def _queue(meta: Any) -> str | None:
    value = mapping(mapping(meta).get("annotations")).get(VOLCANO_QUEUE_ANNOTATION)
    return value if isinstance(value, str) else None


def _scheduler_plugins(ctx: Context) -> Iterator[tuple[Path, str]]:
    path, policy = scheduling_policy(ctx)
    queue = policy.get("queue")
    if isinstance(queue, str) and queue:
        yield (path + ("queue",),
               f"schedulingPolicy.queue {queue!r} has no effect: with scheduler-plugins the operator creates a "
               "PodGroup without a queue; remove it, or use Kueue or Volcano for queueing")
    annotation = _queue(ctx.get("metadata"))
    if annotation:
        yield (ANNOTATION,
               f"the annotation {VOLCANO_QUEUE_ANNOTATION}: {annotation!r} only names a Volcano queue: with "
               "scheduler-plugins it has no effect; remove it, or use Kueue or Volcano for queueing")


def _volcano_job(ctx: Context) -> Iterator[tuple[Path, str]]:
    """An MPIJob, PyTorchJob or TFJob under Volcano: the operator's PodGroup takes the queue from
    schedulingPolicy.queue, else (mpi-operator only) the job's annotation."""
    _, policy = scheduling_policy(ctx)
    queue = policy.get("queue") if isinstance(policy.get("queue"), str) and policy.get("queue") else None
    annotation = _queue(ctx.get("metadata"))
    if ctx.kind == "MPIJob":
        decided = f"schedulingPolicy.queue ({queue!r})" if queue else \
            f"the MPIJob's annotation ({annotation!r})" if annotation else "not named (Volcano's default queue)"
        if annotation and queue and annotation != queue:
            yield (ANNOTATION, f"the annotation {VOLCANO_QUEUE_ANNOTATION}: {annotation!r} is not read: "
                               f"schedulingPolicy.queue {queue!r} comes first; remove one of them")
    else:
        decided = f"schedulingPolicy.queue ({queue!r})" if queue else "'default'"
        if annotation and annotation != queue:
            yield (ANNOTATION, f"the annotation {VOLCANO_QUEUE_ANNOTATION}: {annotation!r} is not read: "
                               f"training-operator gives the PodGroup the queue {decided} (it only copies the "
                               "annotation onto the PodGroup, where Volcano does not read it); write the queue in "
                               "runPolicy.schedulingPolicy.queue")
    for role, path, template in ctx.pod_templates():
        annotation = _queue(template.get("metadata"))
        if annotation:
            yield (path + ANNOTATION,
                   f"the annotation {VOLCANO_QUEUE_ANNOTATION}: {annotation!r} on the {role} pod template is not "
                   f"read: the pods join the operator's PodGroup, whose queue is {decided}; write the queue in "
                   "runPolicy.schedulingPolicy.queue")


def _trainjob(ctx: Context) -> Iterator[tuple[Path, str]]:
    annotation = _queue(ctx.get("metadata"))
    if annotation is not None:
        yield (ANNOTATION, f"the TrainJob's annotation {VOLCANO_QUEUE_ANNOTATION}: {annotation!r} is not read: "
                           f"{TRAINER_READS}")
    for i, patch in enumerate(items(ctx.get("spec", "runtimePatches"))):
        spec = mapping(mapping(mapping(patch.get("trainingRuntimeSpec")).get("template")).get("spec"))
        yield from _replicated_jobs(spec, ("spec", "runtimePatches", i, "trainingRuntimeSpec", "template", "spec"))


def _replicated_jobs(spec: Any, base: Path) -> Iterator[tuple[Path, str]]:
    """The annotation on a replicated job's Job template or pod template, in the JobSet spec
    ``spec`` at ``base`` (a runtime's, or a TrainJob's runtime patch's): Trainer reads neither."""
    for index, rjob in enumerate(items(mapping(spec).get("replicatedJobs"))):
        job_template = mapping(rjob.get("template"))
        where = base + ("replicatedJobs", index, "template")
        for path, meta in ((where, job_template.get("metadata")),
                           (where + ("spec", "template"), mapping(mapping(job_template.get("spec")).get("template"))
                            .get("metadata"))):
            annotation = _queue(meta)
            if annotation is not None:
                yield (path + ANNOTATION,
                       f"the annotation {VOLCANO_QUEUE_ANNOTATION}: {annotation!r} of replicated job "
                       f"{rjob.get('name')!r} is not read: {TRAINER_READS}")
