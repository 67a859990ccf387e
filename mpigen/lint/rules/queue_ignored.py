"""A queue is named but the gang scheduler is scheduler-plugins, which has no queues.

A scheduler-plugins PodGroup (``scheduling.x-k8s.io/v1alpha1``) has minMember, minResources and
scheduleTimeoutSeconds, no queue. mpi-operator v0.8.2 passes ``schedulingPolicy.queue`` (or the
MPIJob's ``scheduling.volcano.sh/queue-name`` annotation) to Volcano PodGroups only
(``newPodGroup`` of ``VolcanoCtrl`` and ``SchedulerPluginsCtrl`` in ``pkg/controller/podgroup.go``;
the field's doc in ``pkg/apis/kubeflow/v2beta1/types.go`` says "input isn't passed to PodGroup"),
and so does training-operator v1.9.4 (``ReconcileJobs`` in ``pkg/controller.v1/common/job.go``).
The job is therefore not held in, nor limited by, the queue it names.

Fix: remove the queue, or admit the job through Kueue (label ``kueue.x-k8s.io/queue-name`` on the
job) or run the operator with Volcano if queueing is what you need.
"""

from __future__ import annotations

from typing import Iterator

from ...diagnostics import Severity
from ...operator.podgroup import VOLCANO_QUEUE_ANNOTATION
from ..base import GANG_SCHEDULER_PLUGINS, Context, Path
from ._common import ALL_KINDS, current_api, mapping, scheduling_policy

CODE = "queue-ignored"
SEVERITY = Severity.WARNING
KINDS = ALL_KINDS


def check(ctx: Context) -> Iterator[tuple[Path, str]]:
    if ctx.gang != GANG_SCHEDULER_PLUGINS or not current_api(ctx):
        return
    path, policy = scheduling_policy(ctx)
    queue = policy.get("queue")
    if isinstance(queue, str) and queue:
        yield (path + ("queue",),
               f"schedulingPolicy.queue {queue!r} has no effect: with scheduler-plugins the operator creates a "
               "PodGroup without a queue; remove it, or use Kueue or Volcano for queueing")
    annotation = mapping(ctx.get("metadata", "annotations")).get(VOLCANO_QUEUE_ANNOTATION)
    if isinstance(annotation, str) and annotation:
        yield (("metadata", "annotations", VOLCANO_QUEUE_ANNOTATION),
               f"the annotation {VOLCANO_QUEUE_ANNOTATION}: {annotation!r} only names a Volcano queue: with "
               "scheduler-plugins it has no effect; remove it, or use Kueue or Volcano for queueing")
