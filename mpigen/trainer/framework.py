"""What Trainer v2.3.0 creates for a TrainJob: its runtime framework, run as the controller runs it.

Ports the order of ``TrainingRuntime.NewObjects`` and ``RuntimeInfo``
(``pkg/runtime/core/trainingruntime.go``; ``clustertrainingruntime.go`` is the same for a
ClusterTrainingRuntime) and of the framework (``pkg/runtime/framework/core/framework.go``): the
runtime snapshot, ``newRuntimeInfo`` (:mod:`.info`), then the plugins of
``pkg/runtime/framework/plugins/registry.go`` by extension point --

1. ``EnforceMLPolicy``: mpi (:mod:`.mpi`), plainml, torch (:mod:`.torch`), jax, xgboost
   (:mod:`.ml`); flux is not ported (a flux runtime is refused with a diagnostic);
2. ``EnforcePodGroupPolicy``: coscheduling, volcano (:mod:`.podgroup`);
3. ``IdentifyPodNetwork``: jobset (:mod:`.jobset`);
4. ``SyncParallelCount`` (jobset), then ``Build``: the PodGroup, the MPI SSH Secret and hostfile
   ConfigMap, the JobSet.

The framework builds its plugin lists by ranging over the registry map, so Go runs the plugins of
one extension point in a random order, drawn when the controller starts. Only two things depend
on it: the order of the objects ``NewObjects`` returns (mpigen: PodGroup, Secret, ConfigMap,
JobSet) and, on an xgboost runtime, the order of the env the plainml and xgboost plugins append
(:mod:`.ml`). Before any object, ``NewObjects`` applies the runtime snapshot ConfigMap
``<job>-runtime-snapshot`` (key ``runtime``: the runtime object as YAML), so that later
reconciles use the runtime as it was when the job started.

The TrainJob webhook (``ValidateObjects``: :mod:`.validation`) runs first: a TrainJob it refuses
is never stored, nothing is created. The TrainJob and the runtime are taken as the API server
stores them (:mod:`.defaults`); a TrainJob without a namespace is taken to be in ``default``.
Nothing here depends on the number of nodes but the hostfile, whose lines are computed one by one
(:class:`~mpigen.trainer.mpi.Hostfile`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from . import jobset, ml, mpi, podgroup, torch
from .defaults import runtime_defaults, trainjob_defaults
from .info import NODE, Info, TrainerError, new_runtime_info, typed_runtime
from .runtimes import runtime_shape, trainjob_shape
from .validation import deprecation_warning, runtime_problems, supported_runtime, trainjob_problems

OPERATOR = "Trainer v2.3.0"
SNAPSHOT_SUFFIX = "-runtime-snapshot"
SNAPSHOT_KEY = "runtime"


class Refused(TrainerError):
    """A webhook refuses the TrainJob or its runtime: ``problems`` are ``(path, message)``."""

    def __init__(self, what: str, problems: list[tuple[tuple, str]]) -> None:
        super().__init__(f"{what}: " + "; ".join(message for _, message in problems), problems[0][0])
        self.problems = problems


@dataclass
class Built:
    """The outcome of one reconcile of a new TrainJob."""

    trainjob: dict[str, Any]  # defaulted, as the plugins left it (torchtune extends the command)
    runtime: dict[str, Any]  # defaulted
    info: Info  # after every plugin
    objects: list[dict[str, Any]]  # PodGroup, Secret, hostfile ConfigMap, JobSet, in that order
    snapshot: dict[str, Any]  # the runtime snapshot ConfigMap
    warnings: list[str] = field(default_factory=list)

    @property
    def podgroup(self) -> dict[str, Any] | None:
        return next((o for o in self.objects if o["kind"] == "PodGroup"), None)

    @property
    def num_proc_per_node(self) -> int | str | None:
        """What each node runs: PET_NPROC_PER_NODE (torch), the hostfile slots (MPI), else None."""
        return self.info.num_proc_per_node


def prepared(trainjob: dict[str, Any], runtime: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The TrainJob and the runtime as the API server stores them (defaults; namespace)."""
    job = trainjob_defaults(trainjob)
    job.setdefault("metadata", {})
    if not job["metadata"].get("namespace"):
        job["metadata"]["namespace"] = "default"
    return job, runtime_defaults(runtime)


def snapshot(trainjob: dict[str, Any], runtime: dict[str, Any]) -> dict[str, Any]:
    """``createRuntimeSnapshot``'s ConfigMap; its ``runtime`` key holds the runtime object (as the
    controller read it) -- a mapping here, YAML in the cluster."""
    return {"apiVersion": "v1", "kind": "ConfigMap",
            "metadata": {"name": trainjob["metadata"]["name"] + SNAPSHOT_SUFFIX,
                         "namespace": trainjob["metadata"]["namespace"]},
            "data": {SNAPSHOT_KEY: typed_runtime(runtime)}}


def runtime_info(trainjob: dict[str, Any], runtime: dict[str, Any]) -> Info | None:
    """``newRuntimeInfo`` of a TrainJob and its runtime as the API server stores them (None when
    either has a field of the wrong type where the framework reads it, which the schema check
    reports, or when a runtime patch does not apply: :func:`webhook_problems` says so)."""
    if trainjob_shape(trainjob) or runtime_shape(runtime):
        return None
    try:
        return new_runtime_info(*prepared(trainjob, runtime))
    except TrainerError:
        return None


def pod_templates(trainjob: dict[str, Any], runtime: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Each replicated job's pod template as the TrainJob makes it of its runtime, before the ML
    plugins: the runtime's with the runtime patches merged, ``resourcesPerNode`` merged into the
    node containers (``newRuntimeInfo``), then the TrainJob's image, command, args, env and
    initializers written in (the jobset builder's ``Trainer`` and ``Initializer``). What ``mpigen
    import manifest`` reads a TrainJob's pods from. Raises :class:`~mpigen.trainer.info.TrainerError`."""
    import copy

    job, rt = prepared(trainjob, runtime)
    info = new_runtime_info(job, rt)
    spec = copy.deepcopy(info.jobset_spec)
    jobset.trainjob_fields(spec, info, job)
    return {rjob.get("name") or "": (rjob.get("template") or {}).get("spec", {}).get("template") or {}
            for rjob in spec.get("replicatedJobs") or [] if isinstance(rjob, dict)}


def mpi_node_pods(trainjob: dict[str, Any], runtime: dict[str, Any]) -> int | None:
    """The pods of an MPI runtime's ``node`` job for ``trainjob``: ``newRuntimeInfo``'s count, then
    ``MPI.EnforceMLPolicy``'s from ``trainer.numNodes`` (``max(numNodes - 1, 1)`` on a runtime whose
    launcher is a node). None when the runtime has no node job, or when the framework cannot read
    the TrainJob or the runtime (:func:`runtime_info`)."""
    if trainjob_shape(trainjob) or runtime_shape(runtime):
        return None
    job, rt = prepared(trainjob, runtime)
    try:
        info = new_runtime_info(job, rt)
        mpi.enforce_ml_policy(info, job)
    except TrainerError:
        return None
    node = info.pod_set_by_name(NODE)
    return node.count if node is not None else None


def webhook_problems(trainjob: dict[str, Any], runtime: dict[str, Any] | None,
                     priority_classes: dict[str, int] | None = None) -> list[tuple[tuple, str]]:
    """What Trainer's TrainJob webhook refuses (``ValidateCreate``): an unsupported runtime
    reference, then the plugins' ``Validate`` on the runtime (None: unknown, then only the
    reference is checked)."""
    unsupported = supported_runtime(trainjob)
    if unsupported is not None:
        return [unsupported]
    if runtime is None or trainjob_shape(trainjob) or runtime_shape(runtime):
        return []
    job, rt = prepared(trainjob, runtime)
    try:
        info = new_runtime_info(job, rt)
    except TrainerError as exc:  # the webhook's newRuntimeInfo returns the error: the job is refused
        return [(exc.path, str(exc))]
    return trainjob_problems(info, job, priority_classes)


def build(trainjob: dict[str, Any], runtime: dict[str, Any], priority_classes: dict[str, int] | None = None) -> Built:
    """Everything Trainer v2.3.0 creates for a new ``trainjob`` run on ``runtime`` (the
    TrainingRuntime or ClusterTrainingRuntime its ``runtimeRef`` names). ``priority_classes``
    (name -> value; None: unknown) are the cluster's, which the Volcano webhook checks.

    Raises :class:`Refused` when a webhook refuses the runtime or the job, and
    :class:`~mpigen.trainer.info.TrainerError` when the framework returns an error.
    """
    job, rt = prepared(trainjob, runtime)
    if ((rt.get("spec") or {}).get("mlPolicy") or {}).get("flux") is not None:
        raise TrainerError("the flux ML policy is not ported to mpigen: explain a flux runtime's TrainJob on a "
                           "cluster", ("runtime", "spec", "mlPolicy", "flux"))
    problems = runtime_problems(rt)
    if problems:
        raise Refused(f"{rt.get('kind')} {(rt.get('metadata') or {}).get('name', '')} is refused by its webhook",
                      problems)
    warnings = [w for w in (deprecation_warning(rt),) if w]
    problems = trainjob_problems(new_runtime_info(job, rt), job, priority_classes)
    if problems:
        raise Refused("the TrainJob webhook refuses it", problems)
    info = new_runtime_info(job, rt)
    # EnforceMLPolicy, in the registry's source order (Go: random)
    mpi.enforce_ml_policy(info, job)
    ml.plainml_enforce_ml_policy(info, job)
    torch.enforce_ml_policy(info, job)
    ml.jax_enforce_ml_policy(info, job)
    ml.xgboost_enforce_ml_policy(info, job)
    podgroup.enforce_pod_group_policy(info, job)
    jobset.identify_pod_network(info, job)
    jobset.sync_parallel_count(info)
    objects = podgroup.build(info, job) + mpi.build(info, job) + jobset.build(info, job)
    return Built(trainjob=job, runtime=rt, info=info, objects=objects, snapshot=snapshot(job, rt), warnings=warnings)
