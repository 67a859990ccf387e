"""``mpigen migrate --to trainjob``: an MPIJob ``kubeflow.org/v2beta1`` or a PyTorchJob
``kubeflow.org/v1`` rewritten as a Kubeflow Trainer v2.3.0 ``TrainJob``
(``trainer.kubeflow.org/v1alpha1``), with a ``TrainingRuntime`` beside it when the old job's pod
templates need what a TrainJob cannot say.

The specifications, read at their tags:

- the old jobs: mpi-operator v0.8.2 (``pkg/apis/kubeflow/v2beta1/types.go``, ``default.go``,
  ``pkg/controller/mpi_job_controller.go``: the launcher Job takes ``runPolicy.backoffLimit``, the
  workers run ``/usr/sbin/sshd -De`` when their first container has neither command nor args) and
  training-operator v1.9.4 (``pkg/apis/kubeflow.org/v1/pytorch_types.go``, ``common_types.go``);
- the new ones: Trainer v2.3.0 ``pkg/apis/trainer/v1alpha1/trainjob_types.go`` (``trainer``:
  image, command, args, env, numNodes, resourcesPerNode, numProcPerNode; ``runtimePatches``;
  ``suspend``, ``activeDeadlineSeconds``, ``managedBy``), ``trainingruntime_types.go``
  (``mlPolicy.mpi``: numProcPerNode, mpiImplementation -- the CRD allows only ``OpenMPI`` --,
  sshAuthMountPath, runLauncherAsNode; ``podGroupPolicy``), the plugins ported in
  :mod:`mpigen.trainer` and JobSet v0.12.0 (``pkg/controllers/jobset_controller.go``: a finished
  JobSet deletes its active Jobs; ``pkg/webhooks/jobset_webhook.go``: a pod template without
  ``restartPolicy`` gets ``OnFailure``).

The choices (docs/commands.md, "mpigen migrate MANIFEST --to trainjob", says why):

- **MPIJob**: always a TrainingRuntime beside the TrainJob, named after the job in its namespace.
  Trainer's default MPI runtimes (``deepspeed-distributed``, ``mlx-distributed``) run their own
  images on the nodes, count the launcher as a node and mount the keys at
  ``/home/mpiuser/.ssh``, none of which a TrainJob can change; the runtime beside has a ``node``
  job built from the Worker template and a ``launcher`` job (the trainer) from the Launcher
  template, each first container renamed ``node`` (where the MPI plugin mounts the keys).
  The TrainJob carries the launcher's image, command and args, ``numNodes`` and
  ``numProcPerNode`` (``slotsPerWorker``).
- **PyTorchJob**: Master and Workers become one ``node`` job of ``numNodes`` = their replicas;
  the TrainJob runs on ``torch-distributed`` with the container's image, command, args, env and
  resources in ``trainer`` and the rest of the pod template in ``runtimePatches``, unless
  something needs a runtime (a gang, another container, a field no patch can set, a restart
  policy, a TTL or backoff limit): then on a TrainingRuntime beside, copied from
  ``torch-distributed``.
- Requests: Trainer's PodGroup counts the pods' **requests** only, while the old operators counted
  limits where a container has no request (the pod's own defaulting copies them). Every request
  a container lacks is written out from its limit, so the gang is the same.
- The gang scheduler is the one the pod templates show (or ``--gang``); Trainer sets no
  ``schedulerName``, so the runtime's pod templates get the one the old operator set.
- Older apiVersions are refused: run ``mpigen migrate`` first (one step at a time keeps every
  report at a field of the file it is about).

Pure: every change is a :class:`~mpigen.migrate.common.Change` at the old field. The kinds are
:mod:`.mpi` and :mod:`.pytorch` over :mod:`.job`; :mod:`.gang` compares the PodGroups before and after.
"""

from __future__ import annotations

from typing import Any

from ...names import CURRENT_API
from ...operator.podgroup import DEFAULT_SCHEDULER_PLUGINS_NAME
from ..common import Change, Objects, Path, refused
from .gang import min_resources_change
from .mpi import MpiJob
from .pytorch import PyTorchJob


def handles(obj: dict[str, Any]) -> bool:
    return obj.get("kind") in ("MPIJob", "PyTorchJob", "TFJob")


def migrate(old: dict[str, Any], gang: str | None = None,
            scheduler_name: str = DEFAULT_SCHEDULER_PLUGINS_NAME) -> tuple[Objects | None, list[Change]]:
    """One old job -> ([TrainingRuntime,] TrainJob) and the changes; None when it cannot be
    migrated (the changes then hold the reasons, errors). ``gang``: the old operator's gang
    scheduler (``volcano``, ``scheduler-plugins``, ``none``; None: what the pod templates show).
    See :func:`migrated` for where each part of the new objects comes from."""
    objects, changes, _ = migrated(old, gang, scheduler_name)
    return objects, changes


def migrated(old: dict[str, Any], gang: str | None = None, scheduler_name: str = DEFAULT_SCHEDULER_PLUGINS_NAME
             ) -> tuple[Objects | None, list[Change], list[dict[Path, Path]]]:
    """:func:`migrate`, and for each new object where its parts come from: a path in it (a
    prefix) -> the path of the old job it was made of (the rest of the path is the same below
    it); a path no prefix covers comes from the same path of the old job (metadata...)."""
    kind, api = old["kind"], old["apiVersion"]
    want = CURRENT_API[kind]
    if kind == "TFJob":
        reason = refused(("kind",), "Kubeflow Trainer v2.3.0 has no TensorFlow runtime (its default runtimes are "
                         "torch, DeepSpeed, MLX, JAX, XGBoost and torchtune): a TFJob cannot become a TrainJob; keep "
                         "it on training-operator")
    elif api != want:
        reason = refused(("apiVersion",), f"{kind} {api} is not {want}: run mpigen migrate on it first (without "
                         "--to), then mpigen migrate --to trainjob on the result")
    elif not isinstance(old.get("spec"), dict):
        reason = refused(("spec",) if "spec" in old else (), f"{kind} {api} has no spec to migrate")
    else:
        reason = None
    if reason is not None:
        return None, [reason], []
    job = (MpiJob if kind == "MPIJob" else PyTorchJob)(old, gang, scheduler_name)
    objects, changes = job.run()
    if objects is not None and job.min_resources is not None:
        changes.append(min_resources_change(*job.min_resources, objects))
    return objects, changes, [job.origins[obj["kind"]] for obj in objects or []]

