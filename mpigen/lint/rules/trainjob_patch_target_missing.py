"""A runtime patch of the TrainJob names a replicated job or container its runtime does not have.

Trainer's webhook means to refuse such a patch ("must not have replicated job that doesn't exist in
the runtime job template", ``Validate`` in ``pkg/runtime/framework/plugins/jobset/jobset.go``
lines 175-209), but it looks the names up in the runtime *after* merging the patches into it
(``ValidateObjects`` builds the runtime Info with ``newRuntimeInfo``, ``pkg/runtime/core/
trainingruntime.go`` line 315, whose ``mergeRuntimePatches`` is a strategic merge patch, lines
251-290): the merge adds the missing replicated job or container, the lookup then finds it, and the
TrainJob is accepted. The JobSet the controller builds from it carries a replicated job without
containers, or a container with no image, which the API server refuses: the TrainJob never starts,
and the reason shows only in the controller's events.

Fix: name only replicated jobs and containers of the runtime in ``spec.runtimePatches`` (check the
spelling, and the runtime: ``kubectl get clustertrainingruntime NAME -o yaml``).
"""

from __future__ import annotations

from typing import Iterator

from ...diagnostics import Severity
from ..base import Context, Path
from ._trainer import POD_SPEC, is_trainjob, items, mapping, replicated_jobs

CODE = "trainjob-patch-target-missing"
SEVERITY = Severity.ERROR
KINDS = ("TrainJob",)


def check(ctx: Context) -> Iterator[tuple[Path, str]]:
    runtime = ctx.trainer_runtime
    if not is_trainjob(ctx) or runtime is None:
        return
    name = mapping(runtime.get("metadata")).get("name")
    jobs = {job["name"]: pod for _, job, pod in replicated_jobs(mapping(mapping(runtime.get("spec")).get("template"))
                                                                     .get("spec")) if isinstance(job.get("name"), str)}
    patches = ctx.get("spec", "runtimePatches")
    for i, patch in enumerate(patches if isinstance(patches, list) else []):
        base: Path = ("spec", "runtimePatches", i, "trainingRuntimeSpec", "template", "spec", "replicatedJobs")
        rjobs = mapping(mapping(mapping(mapping(patch).get("trainingRuntimeSpec")).get("template")).get("spec")) \
            .get("replicatedJobs")
        for j, rjob in enumerate(rjobs if isinstance(rjobs, list) else []):
            if not isinstance(rjob, dict) or not isinstance(rjob.get("name"), str):
                continue
            if rjob["name"] not in jobs:
                yield (base + (j, "name"),
                       f"runtime {name!r} has no replicated job {rjob['name']!r} (it has {', '.join(map(str, jobs))}): "
                       "the patch adds one without containers, and the JobSet is refused")
                continue
            pod = jobs[rjob["name"]]
            pod_patch: object = rjob
            for part in POD_SPEC:
                pod_patch = mapping(pod_patch).get(part)
            for field in ("initContainers", "containers"):
                have = [c.get("name") for c in items(pod.get(field))]
                for k, container in enumerate(items(mapping(pod_patch).get(field))):
                    if isinstance(container.get("name"), str) and container["name"] not in have:
                        what = "init container" if field == "initContainers" else "container"
                        yield (base + (j, *POD_SPEC, field, k, "name"),
                               f"replicated job {rjob['name']!r} of runtime {name!r} has no {what} "
                               f"{container['name']!r} (it has {', '.join(map(str, have)) or 'none'}): the patch adds "
                               "one without an image, and the JobSet's pods are refused")
