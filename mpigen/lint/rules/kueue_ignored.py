"""Kueue does not read what the job says: the queue is not a label of the job, or a field fights Kueue.

Kueue v0.19 admits an MPIJob, PyTorchJob or TFJob through the LocalQueue named by the job's own
label ``kueue.x-k8s.io/queue-name`` (``QueueNameForObject`` in ``pkg/controller/jobframework``
reads the object's labels only; the annotation of the same name was a deprecated fallback that
is gone), and its WorkloadPriorityClass from the job's label ``kueue.x-k8s.io/priority-class``.
The same keys on the pod templates, or as annotations, are not read: the job is not queued (or
not prioritised) as written. With the queue label, Kueue's webhook suspends the job at creation
and resumes it on admission, so an explicit ``runPolicy.suspend: false`` in a GitOps repository
is re-applied over Kueue's decision on every sync; and ``schedulingPolicy.queue`` names a
gang scheduler's queue, which Kueue does not read.

Fix: put ``kueue.x-k8s.io/queue-name`` (and ``kueue.x-k8s.io/priority-class``) in the job's
``metadata.labels``; leave ``runPolicy.suspend`` out; drop ``schedulingPolicy.queue``.
"""

from __future__ import annotations

from typing import Iterator

from ...diagnostics import Severity
from ..base import Context, Path
from ._common import ALL_KINDS, current_api, mapping, scheduling_policy

CODE = "kueue-ignored"
SEVERITY = Severity.WARNING
KINDS = ALL_KINDS

QUEUE = "kueue.x-k8s.io/queue-name"
PRIORITY = "kueue.x-k8s.io/priority-class"


def check(ctx: Context) -> Iterator[tuple[Path, str]]:
    if not current_api(ctx):
        return
    labels = mapping(ctx.get("metadata", "labels"))
    annotations = mapping(ctx.get("metadata", "annotations"))
    for key in (QUEUE, PRIORITY):
        if key in annotations and key not in labels:
            yield (("metadata", "annotations", key),
                   f"{key} is an annotation: Kueue reads only the job's label of that name; make it a label")
    path, replicas = ctx.replica_specs
    for role, replica in replicas.items():
        template = mapping(mapping(replica).get("template"))
        pod_meta = mapping(template.get("metadata"))
        for where in ("labels", "annotations"):
            for key in (QUEUE, PRIORITY):
                if key in mapping(pod_meta.get(where)) and key not in labels:
                    yield (path + (role, "template", "metadata", where, key),
                           f"{key} on the {role} pods is not read for a {ctx.kind}: Kueue reads the job's own "
                           "labels; move it to metadata.labels")
    if not labels.get(QUEUE):
        return
    if ctx.get("spec", "runPolicy", "suspend") is False:
        yield (("spec", "runPolicy", "suspend"),
               "runPolicy.suspend: false fights Kueue, which suspends the job at creation and resumes it on "
               "admission: every GitOps sync would re-apply false; leave the field out")
    sp_path, policy = scheduling_policy(ctx)
    if isinstance(policy.get("queue"), str) and policy["queue"]:
        yield (sp_path + ("queue",),
               f"schedulingPolicy.queue {policy['queue']!r} is a gang scheduler's queue; Kueue admits the job "
               f"through the LocalQueue {labels[QUEUE]!r} of its label and ignores this field")
