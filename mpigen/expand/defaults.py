"""Stage 3, expand: a checked spec -> the same spec with every default written in.

After this stage nothing downstream guesses: every optional field has its value, so the
renderer reads one flat model. Defaults that belong to the operator (slotsPerWorker 1,
sshAuthMountPath...) are written out later by the operator port itself.
"""

from __future__ import annotations

from typing import Any

from ..names import CLUSTER_TRAINING_RUNTIME_KIND, repository_folder, rsync_folder
from ..operator.quantity import Quantity
from .roles import role_settings, roles_of

GPU_RESOURCE = "nvidia.com/gpu"
ACK_GPU_RESOURCE = "aliyun.com/gpu"
TENSORBOARD_IMAGE = "tensorflow/tensorflow:2.16.1"
TENSORBOARD_PORT = 6006
CODE_MOUNT_PATH = "/code"
PYTORCH_PORT = 23456
TENSORFLOW_PORT = 2222
RSYNC_IMAGE = "instrumentisto/rsync-ssh:alpine3.20"
DEFAULT_SSH_PATH = "/root/.ssh"
DEFAULT_SCHEDULER_PLUGINS = "scheduler-plugins-scheduler"


def resource_list(resources: dict[str, Any] | None, gpu_name: str = GPU_RESOURCE) -> dict[str, str]:
    """Spec resources -> Kubernetes resource names with canonical quantity strings, sorted.

    Canonical as apimachinery's CanonicalizeBytes writes it (`1.500` -> `1500m`, `1024Mi` -> `1Gi`):
    one spelling per value, so builds and diffs are stable whatever the spec's spelling.

    ``gpu`` is ``gpu_name`` (``nvidia.com/gpu``; ``aliyun.com/gpu`` with ACK GPU topology); a zero
    GPU count is left out (no GPU requested).
    Raises QuantityError for an invalid quantity (the check stage reports those first).
    """
    out: dict[str, str] = {}
    for name, value in (resources or {}).items():
        if name == "gpu":
            if int(value) == 0:
                continue
            name = gpu_name
        out[name] = Quantity.parse(quantity_text(value)).canonical()
    return dict(sorted(out.items()))


def quantity_text(value: Any) -> str:
    """A YAML scalar as the text a Kubernetes client would send (numbers as JSON numbers)."""
    if isinstance(value, float):
        return repr(value)
    return str(value)


def gpus(resources: dict[str, Any] | None) -> int:
    value = (resources or {}).get("gpu", 0)
    return int(value)


def gpu_resource_name(spec: dict[str, Any]) -> str:
    """The resource name GPUs are requested by: ``aliyun.com/gpu`` under ACK GPU topology scheduling."""
    return ACK_GPU_RESOURCE if (spec.get("scheduling") or {}).get("gpuTopology") else GPU_RESOURCE


def expand(spec: dict[str, Any]) -> dict[str, Any]:
    """The effective spec of one environment with every mpigen default filled in."""
    framework = spec.get("framework", "mpi")
    mpi = dict(spec.get("mpi") or {})
    scheduling = dict(spec.get("scheduling") or {})
    run_policy = dict(spec.get("runPolicy") or {})
    worker_resources = spec.get("resources") or {}

    scheduling.setdefault("gang", "none")
    if scheduling["gang"] == "scheduler-plugins":
        scheduling.setdefault("schedulerName", DEFAULT_SCHEDULER_PLUGINS)
    # With Kueue, scheduling.priorityClass names a WorkloadPriorityClass, not the pods' PriorityClass.
    pod_class = scheduling.get("priorityClass") if scheduling["gang"] != "kueue" else None
    pods_priority = spec.get("priorityClassName", pod_class)

    if framework == "mpi":
        mpi.setdefault("implementation", "OpenMPI")
        mpi.setdefault("extraArgs", [])
        mpi.setdefault("sshAuthMountPath", DEFAULT_SSH_PATH)
        mpi.setdefault("launcherCreationPolicy", "AtStartup")
        mpi.setdefault("runLauncherAsWorker", False)

    runtime = runtime_ref(spec.get("runtime"))
    if runtime is None:
        run_policy.setdefault("cleanPodPolicy", "Running")  # a TrainJob has no cleanPodPolicy
    if scheduling["gang"] == "kueue":
        run_policy.pop("suspend", None)  # Kueue owns it: suspends at creation, resumes on admission
    else:
        run_policy.setdefault("suspend", False)  # the CRD's own default, written out

    out = dict(spec)
    out.update(
        framework=framework,
        scheduling=scheduling,
        runPolicy=run_policy,
        resources=worker_resources,
        priorityClassName=pods_priority,
        env=dict(sorted((spec.get("env") or {}).items())),
        volumes=list(spec.get("volumes") or []),
        labels=dict(sorted((spec.get("labels") or {}).items())),
        annotations=dict(sorted((spec.get("annotations") or {}).items())),
        gpuResource=gpu_resource_name(spec),
    )
    if runtime is not None:
        # A TrainJob: the runtime decides what the spec leaves out (numProcPerNode among it), and
        # what mpigen must know of the spec as written (was a gang asked for?) is kept.
        out["runtime"] = runtime
        out["gangGiven"] = "gang" in (spec.get("scheduling") or {})
        out["slotsPerWorker"] = spec.get("slotsPerWorker")
    else:
        if framework == "mpi":
            # An explicit slotsPerWorker, else (when rendered) the GPUs of the worker's patched pod.
            out.update(mpi=mpi, slotsPerWorker=spec.get("slotsPerWorker"))
        else:
            out["restartPolicy"] = spec.get("restartPolicy", "OnFailure" if framework == "pytorch" else "Never")
            out[framework] = _framework_settings(spec, framework)
    if spec.get("shmSize") is not None:
        out["shmSize"] = Quantity.parse(quantity_text(spec["shmSize"])).canonical()
    if spec.get("code"):
        out["code"] = _code(spec["code"])
        if not spec.get("workingDir"):
            git = out["code"].get("git")
            folder = out["code"]["mountPath"].rstrip("/")
            sub = repository_folder(git["repository"]) if git else rsync_folder(out["code"]["rsync"]["source"])
            out["workingDir"] = f"{folder}/{sub}" if sub else (folder or "/")
    if spec.get("tensorboard"):
        board = dict(spec["tensorboard"])
        board.setdefault("image", TENSORBOARD_IMAGE)
        board.setdefault("port", TENSORBOARD_PORT)
        board.setdefault("serviceType", "ClusterIP")
        out["tensorboard"] = board
    if runtime is None:
        out["roles"] = {role: role_settings(out, role) for role in roles_of(out)}
    return out


def runtime_ref(value: Any) -> dict[str, str] | None:
    """``spec.runtime`` as ``{kind, name}``: a string names a ClusterTrainingRuntime (the TrainJob
    CRD's default kind); None without one."""
    if isinstance(value, str):
        return {"kind": CLUSTER_TRAINING_RUNTIME_KIND, "name": value}
    if isinstance(value, dict) and isinstance(value.get("name"), str):
        return {"kind": value.get("kind") or CLUSTER_TRAINING_RUNTIME_KIND, "name": value["name"]}
    return None


def _framework_settings(spec: dict[str, Any], framework: str) -> dict[str, Any]:
    """``pytorch`` or ``tensorflow`` with its port defaulted and the replicas of each role it asks
    for (PyTorch's one Master; a TensorFlow chief and evaluator are one pod, ps ``replicas``); the
    roles' image, resources and priorityClassName are in ``roles`` (:mod:`.roles`)."""
    settings = dict(spec.get(framework) or {})
    settings.setdefault("port", PYTORCH_PORT if framework == "pytorch" else TENSORFLOW_PORT)
    names = ("master",) if framework == "pytorch" else ("ps", "chief", "evaluator")
    for name in names:
        if framework == "pytorch" or name in settings:
            settings[name] = {"replicas": 1, **(settings.get(name) or {})}
    return settings


def _code(code: dict[str, Any]) -> dict[str, Any]:
    out = dict(code)
    out.setdefault("mountPath", CODE_MOUNT_PATH)
    if out.get("git"):
        git = dict(out["git"])
        git.setdefault("revision", "HEAD")
        git.setdefault("depth", 1)
        out["git"] = git
    if out.get("rsync"):
        rsync = dict(out["rsync"])
        rsync.setdefault("image", RSYNC_IMAGE)
        out["rsync"] = rsync
    return out
