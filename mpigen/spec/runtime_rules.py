"""Stage 2b, check: a spec with ``spec.runtime`` compiles to a Kubeflow Trainer v2.3.0 TrainJob.

Same contract as :mod:`mpigen.spec.spec_rules` (each rule yields ``(path, code, severity,
message)``), with the training runtimes the TrainJob can name (:class:`~mpigen.load.trainer_runtimes.Runtimes`:
the cluster file's, else Trainer v2.3.0's default runtimes).

* ``runtime-not-found``: the runtime is not among them (a TrainingRuntime is looked up in the
  job's namespace, as Trainer's controller looks it up).
* ``runtime-framework``: ``framework: tensorflow`` (Trainer v2.3.0 has no TensorFlow runtime), or
  a runtime whose ML policy is not the framework's: ``pytorch`` needs ``mlPolicy.torch``, ``mpi``
  needs ``mlPolicy.mpi`` (``pkg/runtime/framework/plugins/{torch,mpi}``: each plugin acts only on
  its own policy, so a TrainJob on another runtime would run something else).
* ``runtime-field``: a field a TrainJob cannot say, reported at its path, never dropped: what the
  runtime decides (``mpi.*``: the launcher, mpirun, the implementation and SSH path are
  ``mlPolicy.mpi``'s; ``pytorch.*``: the Master is node 0 and the port Trainer's 29500;
  ``restartPolicy``: the JobSet template's), what a TrainJob has no field for
  (``runPolicy.cleanPodPolicy``, ``ttlSecondsAfterFinished``, ``backoffLimit``), what Trainer
  computes (``scheduling.minAvailable`` and ``minResources``: the PodGroup's minMember is every
  pod, its minResources their requests), ACK GPU topology, the kube-batch gang, zero MPI workers
  (the ``node`` job has at least one pod: ``MPI.EnforceMLPolicy``), and worker resources on an MPI
  runtime whose launcher is not a node (``resourcesPerNode`` then sizes the launcher:
  ``newRuntimeInfo`` merges it into the trainer job's ``node`` container only).
"""

from __future__ import annotations

from typing import Any, Iterator

from ..diagnostics import Severity
from ..expand.defaults import runtime_ref
from ..load.trainer_runtimes import GIVE_CLUSTER_RUNTIMES, Runtimes, runtimes_or_defaults
from ..names import CLUSTER_TRAINING_RUNTIME_KIND

Finding = tuple[tuple, str, Severity, str]

POLICY = {"pytorch": "torch", "mpi": "mpi"}
EXAMPLE = {"pytorch": "torch-distributed", "mpi": "deepspeed-distributed or mlx-distributed"}
ML_POLICIES = ("torch", "mpi", "jax", "xgboost", "flux")
REFUSED_RUN_POLICY = {
    "cleanPodPolicy": "a TrainJob has no cleanPodPolicy: the JobSet's pods stay as its Jobs leave them",
    "ttlSecondsAfterFinished": "a TrainJob has no ttlSecondsAfterFinished",
    "backoffLimit": "a TrainJob has no backoffLimit: the runtime's JobSet template (failurePolicy, the Jobs' "
                    "backoffLimit) decides retries",
}
REFUSED_SCHEDULING = {
    "minAvailable": "Trainer sets the PodGroup's minMember to every pod of the TrainJob; it cannot be chosen",
    "minResources": "Trainer computes the PodGroup's minResources from the pods' requests; it cannot be chosen",
    "gpuTopology": "ACK topology-aware GPU scheduling needs host networking and per-pod labels no TrainJob field "
                   "or runtime patch sets",
}


def ml_policies(runtime: dict[str, Any]) -> list[str]:
    policy = (runtime.get("spec") or {}).get("mlPolicy") or {}
    return [name for name in ML_POLICIES if isinstance(policy, dict) and policy.get(name) is not None]


def launcher_is_node(runtime: dict[str, Any]) -> bool:
    mpi = (((runtime.get("spec") or {}).get("mlPolicy") or {}).get("mpi")) or {}
    return isinstance(mpi, dict) and mpi.get("runLauncherAsNode") is True


def named_runtime(doc: dict[str, Any], spec: dict[str, Any], runtimes: Runtimes | None) -> dict[str, Any] | None:
    """The runtime a spec with ``spec.runtime`` names, among ``runtimes`` (None: Trainer's default
    runtimes); None when it names none that is there (:func:`check_runtime` says so)."""
    ref = runtime_ref(spec.get("runtime"))
    if ref is None or spec.get("framework") == "tensorflow":
        return None
    return runtimes_or_defaults(runtimes).find(ref["kind"], ref["name"], (doc.get("metadata") or {}).get("namespace"))


def check_runtime(doc: dict[str, Any], spec: dict[str, Any], runtimes: Runtimes | None) -> Iterator[Finding]:
    """Every problem of a spec with ``spec.runtime`` (nothing for one without)."""
    ref = runtime_ref(spec.get("runtime"))
    if ref is None:
        return
    where = ("spec", "runtime")
    framework = spec.get("framework")
    described = f"{ref['kind']} {ref['name']!r}"
    if framework == "tensorflow":
        yield (where, "runtime-framework", Severity.ERROR,
               "Kubeflow Trainer v2.3.0 has no TensorFlow runtime: framework: tensorflow compiles to a TFJob; "
               "remove spec.runtime (or use framework: pytorch or mpi with a runtime of that framework)")
        return
    namespace = (doc.get("metadata") or {}).get("namespace")
    known = runtimes_or_defaults(runtimes)
    runtime = known.find(ref["kind"], ref["name"], namespace)
    if runtime is None:
        names = ", ".join(known.names(ref["kind"])) or "none"
        place = " in the job's namespace" if ref["kind"] != CLUSTER_TRAINING_RUNTIME_KIND else ""
        yield (where, "runtime-not-found", Severity.ERROR,
               f"{described} is not among {known.source}{place} ({ref['kind']}s: {names})"
               + (f"; {GIVE_CLUSTER_RUNTIMES}" if known.defaults else ""))
        return
    policies = ml_policies(runtime)
    wanted = POLICY.get(str(framework))
    if wanted is not None and wanted not in policies:
        has = f"an mlPolicy with {' and '.join(policies)}" if policies else "no ML policy"
        yield (where, "runtime-framework", Severity.ERROR,
               f"{described} has {has}, but framework: {framework} needs a runtime with mlPolicy.{wanted} "
               f"(such as {EXAMPLE[str(framework)]}): change the runtime or the framework")
        return
    yield from _refused(spec, runtime, described)


def _settings(spec: dict[str, Any], field: str) -> dict[str, Any]:
    """A map of settings of the spec; any other value (a list, which the schema refuses) holds none:
    its keys would not be field names, and the path of a finding must be."""
    value = spec.get(field)
    return value if isinstance(value, dict) else {}


def _refused(spec: dict[str, Any], runtime: dict[str, Any], described: str) -> Iterator[Finding]:
    framework = spec.get("framework")
    for key in sorted(_settings(spec, "mpi")):
        what = ("the launcher is the runtime's launcher job" if key == "launcher" else
                "the command runs as written in the launcher (start it with mpirun: Trainer gives mpirun the "
                "hostfile and slots through OMPI_MCA_* variables)" if key in ("mpirun", "extraArgs") else
                "the runtime's mlPolicy.mpi decides it")
        yield (("spec", "mpi", key), "runtime-field", Severity.ERROR,
               f"mpi.{key} cannot be set for a TrainJob on {described}: {what}")
    for key in sorted(_settings(spec, "pytorch")):
        what = ("Trainer's torch plugin uses port 29500 (PET_MASTER_PORT)" if key == "port" else
                "the Master is node 0 of the TrainJob, with the nodes' image and resources")
        yield (("spec", "pytorch", key), "runtime-field", Severity.ERROR,
               f"pytorch.{key} cannot be set for a TrainJob: {what}")
    if "restartPolicy" in spec:
        yield (("spec", "restartPolicy"), "runtime-field", Severity.ERROR,
               f"restartPolicy cannot be set for a TrainJob: the JobSet template of {described} sets the pods' "
               "restart policy")
    for key, why in REFUSED_RUN_POLICY.items():
        if key in _settings(spec, "runPolicy"):
            yield (("spec", "runPolicy", key), "runtime-field", Severity.ERROR,
                   f"runPolicy.{key} cannot be set for a TrainJob: {why}")
    if _settings(spec, "runPolicy").get("activeDeadlineSeconds") == 0:  # the TrainJob CRD's minimum is 1
        yield (("spec", "runPolicy", "activeDeadlineSeconds"), "runtime-field", Severity.ERROR,
               "runPolicy.activeDeadlineSeconds 0 cannot be set for a TrainJob: Trainer's CRD takes 1 or more "
               "(no deadline: leave it out)")
    scheduling = _settings(spec, "scheduling")
    for key, why in REFUSED_SCHEDULING.items():
        if key in scheduling and (key != "gpuTopology" or scheduling[key]):
            yield (("spec", "scheduling", key), "runtime-field", Severity.ERROR,
                   f"scheduling.{key} cannot be set for a TrainJob: {why}")
    if "gang" not in scheduling:  # the runtime's gang, whatever it is
        from ..trainer.defaults import runtime_defaults
        from ..trainer.podgroup import policy_kind_of

        policy = policy_kind_of((runtime_defaults(runtime).get("spec") or {}).get("podGroupPolicy"))
        takes = {"volcano": ("queue", "priorityClass"), "coscheduling": ("priorityClass",)}.get(str(policy), ())
        for key in ("queue", "priorityClass", "scheduleTimeoutSeconds"):
            if key in scheduling and key not in takes:
                yield (("spec", "scheduling", key), "gang-ignored", Severity.WARNING,
                       f"{key} has no effect: scheduling.gang is not set and {described} has "
                       f"{f'a {policy}' if policy else 'no'} podGroupPolicy (set scheduling.gang)")
    if scheduling.get("gang") == "kube-batch":
        yield (("spec", "scheduling", "gang"), "runtime-field", Severity.ERROR,
               "gang: kube-batch cannot be used with a TrainJob: Trainer's podGroupPolicy knows coscheduling "
               "(gang: scheduler-plugins) and volcano")
    if framework == "mpi":
        if spec.get("workers") == 0:
            yield (("spec", "workers"), "runtime-field", Severity.ERROR,
                   f"a TrainJob on {described} has at least 1 node pod besides the launcher: Trainer's mpi plugin "
                   "gives the node job at least one; set workers to 1 or more")
        if spec.get("resources") and not launcher_is_node(runtime):
            yield (("spec", "resources"), "runtime-field", Severity.ERROR,
                   f"{described} runs its launcher apart from the nodes (mlPolicy.mpi.runLauncherAsNode is not "
                   "true): trainer.resourcesPerNode would size the launcher, not the nodes; give the node job's "
                   "resources in the runtime, or use a runtime whose launcher is a node")
