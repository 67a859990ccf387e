"""The TrainJob names a training runtime that is not in the cluster file (or, without one, not among Trainer's default runtimes).

Kubeflow Trainer's webhook looks the runtime of ``spec.runtimeRef`` up in the cluster and refuses
the TrainJob when it is not there ("specified clusterTrainingRuntime must be created before the
TrainJob is created": ``ValidateObjects`` in ``pkg/runtime/core/clustertrainingruntime.go`` lines
99-108 and ``trainingruntime.go`` lines 304-314). mpigen checks a TrainJob against the runtimes of
the cluster file; when the file gives none, against the default ClusterTrainingRuntimes of Kubeflow
Trainer v2.3.0 (``manifests/overlays/runtimes``, shipped in ``mpigen/data``). A TrainingRuntime is
looked up in the TrainJob's namespace. The runtime's own checks (initializers, MPI, Torch, Volcano,
runtime patches) are skipped when it is missing.

Fix: correct ``spec.runtimeRef`` (name, and ``kind: TrainingRuntime`` for a namespaced runtime), or
add the runtime to the cluster file (``kubectl get clustertrainingruntimes,trainingruntimes -A -o
yaml``) if the cluster has it.
"""

from __future__ import annotations

from typing import Iterator

from ...diagnostics import Severity
from ..base import Context, Path, trainer_runtimes
from ._trainer import is_trainjob

CODE = "trainjob-runtime-missing"
SEVERITY = Severity.ERROR
KINDS = ("TrainJob",)
NOT_GIVEN = "the cluster's runtimes were not given"  # no --cluster file, or one without runtimes


def check(ctx: Context) -> Iterator[tuple[Path, str]]:
    from ...trainer.runtimes import TRAINER_GROUP, runtime_ref  # imported for TrainJobs only

    group, kind, name = runtime_ref(ctx.obj)
    if not is_trainjob(ctx) or group != TRAINER_GROUP or not name or ctx.trainer_runtime is not None:
        return
    runtimes = trainer_runtimes(ctx.options)
    known = runtimes.names(kind)
    where = f"{runtimes.source} ({NOT_GIVEN})" if runtimes.defaults else runtimes.source
    namespace = ctx.get("metadata", "namespace", default="default")
    what = f"{kind} {name!r}" + (f" in namespace {namespace!r}" if kind != "ClusterTrainingRuntime" else "")
    yield (("spec", "runtimeRef", "name"),
           f"{what} is not among {where}; Trainer's webhook refuses a TrainJob whose runtime does not exist"
           + (f" (known: {', '.join(known)})" if known else ""))
