"""A resource given only as a limit (a GPU, say) is left out of the PodGroup's minResources.

With a ``podGroupPolicy`` (coscheduling or Volcano) Trainer creates a PodGroup whose minResources
add up each pod's requests: ``PodSet.SinglePodRequests`` is ``resourcehelpers.PodRequests``
(``pkg/runtime/runtime.go`` line 149; k8s.io/component-helpers ``resource/helpers.go``
``AggregateContainerRequests``), which reads ``resources.requests`` only, and the coscheduling
and Volcano plugins multiply and sum those (``coscheduling.go`` lines 112-123, ``volcano.go``
lines 162-174). A runtime's pod template is not a Pod, so the API server's defaulting, which
copies a limit to a missing request, has not run on it; it runs later on each pod. A GPU given only
as a limit (as in ``resourcesPerNode: {limits: {nvidia.com/gpu: 8}}``) is therefore in every pod
but not in the gang's minResources: the scheduler admits the gang without checking that its GPUs
are free, and some pods wait while the others hold their GPUs. The same holds for any resource.
A TrainJob's ``trainer.resourcesPerNode`` is merged into the runtime's ``node`` container
(``trainingruntime.go`` lines 199-237), so its limits are checked against the runtime it names.
training-operator v1.9.4 does the same to a PyTorchJob's or TFJob's gang (Volcano or
scheduler-plugins) in its own way: ``CalcPGMinResources`` (``pkg/controller.v1/common/util.go``)
adds, per container of the pods it counts up to minMember, the ``requests``, and the ``limits``
only when the container has no requests at all (``AddResourceList``); a container that requests
a CPU and limits a GPU leaves its GPU out (``mpigen podgroup`` shows the PodGroup so computed).
An explicit ``schedulingPolicy.minResources`` is taken as it is.

Fix: give the resource as a request too (``requests`` equal to ``limits``).
"""

from __future__ import annotations

from typing import Iterator

from ...diagnostics import Severity
from ..base import Context, Path
from ._common import current_api, is_int, pod_spec, scheduling_policy
from ._trainer import RUNTIME_PATH, containers, gang_scheduler, is_runtime, is_trainjob, limit_only, mapping, \
    replicated_jobs

CODE = "trainer-limit-only-resource"
SEVERITY = Severity.WARNING
KINDS = ("PyTorchJob", "TFJob", "TrainJob", "TrainingRuntime", "ClusterTrainingRuntime")

_PLUGIN = {"coscheduling": "the coscheduling PodGroup", "volcano": "the Volcano PodGroup"}


def check(ctx: Context) -> Iterator[tuple[Path, str]]:
    if is_runtime(ctx):
        yield from _runtime(ctx)
    elif is_trainjob(ctx):
        yield from _trainjob(ctx)
    elif ctx.kind in ("PyTorchJob", "TFJob") and current_api(ctx) and ctx.gang is not None:
        yield from _training_job(ctx)


def _training_job(ctx: Context) -> Iterator[tuple[Path, str]]:
    """training-operator v1.9.4's ``CalcPGMinResources``: a container's limits count only when it
    has no requests; the pods of a replica type count only up to minMember."""
    from ...operator import training_podgroup as tp

    path, policy = scheduling_policy(ctx)
    if "minResources" in policy:
        return
    base, specs = ctx.replica_specs
    readable = {}
    for rtype, replica in specs.items():
        count = replica.get("replicas", 1)
        if not is_int(count):
            return
        priority = pod_spec(replica.get("template")).get("priorityClassName")
        readable[rtype] = {"replicas": count, "template": {"spec": {"priorityClassName": priority}}
                           if isinstance(priority, str) else {}}
    job = {"kind": ctx.kind, "spec": {tp.REPLICA_SPECS_KEY[ctx.kind]: readable}}
    if is_int(policy.get("minAvailable")):
        job["spec"]["runPolicy"] = {"schedulingPolicy": {"minAvailable": policy["minAvailable"]}}
    counted = tp.counted_pods(job, tp.calculate_min_member(job), ctx.options.priority_classes or {})
    for rtype, replica in specs.items():
        if not counted.get(rtype):
            continue
        for i, container in ctx.containers(mapping(replica.get("template"))):
            resources = mapping(container.get("resources"))
            if not isinstance(resources.get("requests"), dict):
                continue  # no requests at all: the operator takes the limits
            for name in limit_only(resources):
                yield (base + (rtype, "template", "spec", "containers", i, "resources", "limits", name),
                       f"{name} is only a limit of container {container.get('name')!r} ({rtype}), which has "
                       "requests: training-operator takes a container's limits only when it has no requests, so "
                       "the PodGroup's minResources leave it out; request it too")


def _runtime(ctx: Context) -> Iterator[tuple[Path, str]]:
    plugin = gang_scheduler(ctx.obj)
    if plugin is None:
        return
    for index, job, pod in replicated_jobs(ctx.get("spec", "template", "spec")):
        for field, i, container in containers(pod):
            for name in limit_only(container.get("resources")):
                yield (RUNTIME_PATH + (index, "template", "spec", "template", "spec", field, i, "resources", "limits",
                                       name),
                       f"{name} is only a limit of container {container.get('name')!r} (replicated job "
                       f"{job.get('name')!r}): {_PLUGIN[plugin]}'s minResources leave it out; request it too")


def _trainjob(ctx: Context) -> Iterator[tuple[Path, str]]:
    from ...trainer.info import ANCESTOR_LABEL, ANCESTOR_TRAINER, NODE, pod_spec_of  # Trainer's objects only

    own = ctx.get("spec", "trainer", "resourcesPerNode")
    info = ctx.trainer_info
    if not isinstance(own, dict) or info is None:
        return
    plugin = gang_scheduler(ctx.trainer_runtime)
    if plugin is None:
        return
    merged = None
    for rjob in info.jobset_spec.get("replicatedJobs") or []:  # where newRuntimeInfo merged resourcesPerNode
        labels = mapping(mapping(mapping(rjob.get("template")).get("metadata")).get("labels"))
        if labels.get(ANCESTOR_LABEL) == ANCESTOR_TRAINER or rjob.get("name") == NODE:
            node = next((c for c in pod_spec_of(rjob).get("containers") or [] if mapping(c).get("name") == NODE), None)
            if node is not None:
                merged = mapping(node.get("resources"))
                break
    if merged is None:
        return
    runtime = ctx.trainer_runtime["metadata"]["name"]
    for name in limit_only(merged):
        if name in mapping(own.get("limits")):
            yield (("spec", "trainer", "resourcesPerNode", "limits", name),
                   f"{name} is only a limit: {_PLUGIN[plugin]} of runtime {runtime!r} sums requests, so its "
                   "minResources leave it out; request it too")
