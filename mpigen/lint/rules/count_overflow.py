"""A count the operator computes from the replicas does not fit in 32 bits: it wraps, and the job fails.

Each replica count is an int32, and so is what the operators add up from them: mpi-operator v0.8.2's
minAvailable, Worker replicas + 1 (``calculateMinAvailable`` in ``pkg/controller/podgroup.go``);
training-operator v1.9.4's sum of every replica type's replicas (``GetTotalReplicas``), the gang's
minMember and, for a PyTorchJob, ``WORLD_SIZE`` and ``PET_NNODES`` (``getTotalReplicas`` in
``pkg/controller.v1/pytorch/envvar.go``); Kubeflow Trainer v2.3.0's PodGroup minMember, the sum of
the pods of every replicated job (``Build`` of the coscheduling and volcano plugins). Go wraps a
sum beyond 2,147,483,647 to a negative number: the API server refuses the PodGroup (minMember is
at least 0, or 1 for scheduler-plugins) and no pod starts, and torchrun gets a negative world size.
The ranks of an MPIJob, Worker replicas x slotsPerWorker (and the launcher's slots when it runs as a
worker), and of a TrainJob on an MPI runtime, its hostfile's nodes x numProcPerNode, are what
mpirun counts in its own 32-bit integers. An explicit
``schedulingPolicy.minAvailable`` is the gang's minMember as it is (its own type is checked by the
schema). ``mpigen build`` refuses a spec whose ``workers`` give such a count, as it refuses to write
a minAvailable or numNodes that does not fit.

Fix: fewer replicas; no job of 2^31 pods can run.
"""

from __future__ import annotations

from typing import Iterator

from ...diagnostics import Severity
from ..base import Context, Path
from ._common import current_api, is_int, scheduling_policy
from ._trainer import gang_scheduler, is_trainjob

CODE = "count-overflow"
SEVERITY = Severity.ERROR
KINDS = ("MPIJob", "PyTorchJob", "TFJob", "TrainJob")

INT32_MAX = 2**31 - 1


def int32(n: int) -> int:
    """Go's conversion to int32, two's complement (as ``mpigen.trainer.info.int32``, which this
    rule does not import for the objects that are not Trainer's)."""
    return (n + 2**31) % 2**32 - 2**31


def check(ctx: Context) -> Iterator[tuple[Path, str]]:
    if is_trainjob(ctx):
        yield from _trainjob(ctx)
    elif current_api(ctx):
        yield from _job(ctx)


def _job(ctx: Context) -> Iterator[tuple[Path, str]]:
    base, specs = ctx.replica_specs
    counts = {role: replica.get("replicas", 0 if ctx.kind == "MPIJob" else 1) for role, replica in specs.items()}
    if not all(is_int(n) for n in counts.values()):
        return
    where = base + (("Worker", "replicas") if "Worker" in specs else ())
    _, policy = scheduling_policy(ctx)
    gang_total = None if "minAvailable" in policy or ctx.gang is None else \
        counts.get("Worker", 0) + 1 if ctx.kind == "MPIJob" else sum(counts.values())
    wraps = gang_total is not None and gang_total > INT32_MAX
    total = sum(counts.values())
    if ctx.kind == "PyTorchJob" and total > INT32_MAX:
        yield (where, f"the job has {total} pods: training-operator adds the replicas up in 32 bits, so WORLD_SIZE "
                      f"and PET_NNODES become {int32(total)} and torchrun cannot start"
                      + ("; the gang's minMember wraps alike, and the API server refuses the PodGroup" if wraps else ""))
    elif wraps:
        sum_of = "Worker replicas + 1" if ctx.kind == "MPIJob" else "the sum of every replica type's replicas"
        yield (where, f"the gang's minMember, {sum_of}, is {gang_total}, beyond a 32-bit count ({INT32_MAX}): the "
                      f"operator's sum wraps to {int32(gang_total)} and the API server refuses the PodGroup; no pod "
                      "starts")
    if ctx.kind == "MPIJob":
        slots = ctx.get("spec", "slotsPerWorker", default=1)
        as_worker = ctx.get("spec", "runLauncherAsWorker", default=False) is True
        if is_int(slots):
            ranks = slots * (counts.get("Worker", 0) + as_worker)
            if ranks > INT32_MAX:
                yield (where, f"the hostfile gives mpirun {ranks} slots (slotsPerWorker x the workers"
                              f"{' and the launcher' if as_worker else ''}), beyond the 32-bit count of ranks it "
                              f"keeps ({INT32_MAX}): mpirun cannot start them")


def _trainjob(ctx: Context) -> Iterator[tuple[Path, str]]:
    """The ranks of an MPI runtime's hostfile, and the pods of the PodGroup Trainer builds: every
    PodSet's count once the ML plugins have set the nodes' (``trainer.numNodes``, less a launcher
    that runs as a node)."""
    info = ctx.trainer_info
    if info is None or (info.policy("mpi") is None and gang_scheduler(ctx.trainer_runtime) is None):
        return  # no runtime, a field of the wrong type (reported elsewhere), or nothing counted
    from ...trainer.framework import build
    from ...trainer.info import TrainerError

    try:
        built = build(ctx.obj, ctx.trainer_runtime)
    except TrainerError:  # a webhook refuses it, or the framework returns an error: reported elsewhere
        return
    hostfile = next((o["data"]["hostfile"] for o in built.objects if o["kind"] == "ConfigMap"), None)
    slots = built.info.num_proc_per_node
    if hostfile is not None and is_int(slots) and len(hostfile) * slots > INT32_MAX:
        yield (("spec", "trainer", "numNodes"),
               f"the hostfile Trainer writes gives mpirun {len(hostfile) * slots} slots ({len(hostfile)} nodes x "
               f"{slots}), beyond the 32-bit count of ranks it keeps ({INT32_MAX}): mpirun cannot start them")
    total = sum(ps.count for ps in built.info.pod_sets)
    if total > INT32_MAX and gang_scheduler(ctx.trainer_runtime) is not None:
        yield (("spec", "trainer", "numNodes"),
               f"the PodGroup Trainer creates counts {total} pods (every pod of every replicated job), beyond a "
               f"32-bit count ({INT32_MAX}): its minMember wraps to {int32(total)} and the API server refuses the "
               "PodGroup; no pod starts")
