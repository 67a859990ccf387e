"""The Volcano queue is not a valid queue name: the operator's PodGroup is refused, and no pod starts.

The operator copies the queue into the PodGroup it creates before any pod: mpi-operator v0.8.2
takes ``schedulingPolicy.queue``, else the MPIJob's ``scheduling.volcano.sh/queue-name``
annotation (``newPodGroup`` of ``VolcanoCtrl`` in ``pkg/controller/podgroup.go``);
training-operator v1.9.4 takes ``schedulingPolicy.queue`` (``ReconcileJobs`` in
``pkg/controller.v1/common/job.go``). Volcano's PodGroup CRD (``scheduling.volcano.sh/v1beta1``)
requires ``spec.queue`` to be a DNS-1123 subdomain (lower-case letters, digits, ``-`` and ``.``, at
most 253 characters), as every Queue's name is. The API server refuses the PodGroup; mpi-operator
then returns the error and retries before creating any worker (``syncHandler`` in
``pkg/controller/mpi_job_controller.go``), training-operator stops syncing the replicas
(``syncReplicas = false``): the job is accepted and nothing ever runs. Also checked for specs
(``scheduling.queue``).

Fix: name the Volcano queue as it is named in the cluster (``kubectl get queues``): queue names
are lower case, e.g. ``vision-team`` rather than ``Vision_Team``.
"""

from __future__ import annotations

from typing import Iterator

from ...diagnostics import Severity
from ...operator.k8s_validation import is_dns1123_subdomain
from ...operator.podgroup import VOLCANO_QUEUE_ANNOTATION
from ..base import GANG_VOLCANO, Context, Path
from ._common import ALL_KINDS, current_api, mapping, scheduling_policy

CODE = "volcano-queue-name"
SEVERITY = Severity.ERROR
KINDS = ALL_KINDS


def check(ctx: Context) -> Iterator[tuple[Path, str]]:
    if ctx.gang != GANG_VOLCANO or not current_api(ctx):
        return
    path, policy = scheduling_policy(ctx)
    queue = policy.get("queue")
    where: Path = path + ("queue",)
    if not (isinstance(queue, str) and queue) and ctx.kind == "MPIJob":
        queue = mapping(ctx.get("metadata", "annotations")).get(VOLCANO_QUEUE_ANNOTATION)
        where = ("metadata", "annotations", VOLCANO_QUEUE_ANNOTATION)
    if not isinstance(queue, str) or not queue:
        return
    if is_dns1123_subdomain(queue):
        yield (where, f"the Volcano queue {queue!r} is not a valid queue name (lower-case letters, digits, '-' and "
                      "'.', starting and ending with a letter or digit, at most 253 characters): the API server "
                      "refuses the PodGroup the operator creates with it, and no pod of the job ever starts")
