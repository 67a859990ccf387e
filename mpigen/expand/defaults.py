"""Stage 3, expand: a checked spec -> the same spec with every default written in.

After this stage nothing downstream guesses: every optional field has its value, so the
renderer reads one flat model. Defaults that belong to the operator (slotsPerWorker 1,
sshAuthMountPath...) are written out later by the operator port itself.
"""

from __future__ import annotations

from typing import Any

from ..operator.quantity import Quantity

GPU_RESOURCE = "nvidia.com/gpu"
DEFAULT_SSH_PATH = "/root/.ssh"
DEFAULT_SCHEDULER_PLUGINS = "scheduler-plugins-scheduler"


def resource_list(resources: dict[str, Any] | None) -> dict[str, str]:
    """Spec resources -> Kubernetes resource names with canonical quantity strings, sorted.

    Canonical as apimachinery's CanonicalizeBytes writes it (`1.500` -> `1500m`, `1024Mi` -> `1Gi`):
    one spelling per value, so builds and diffs are stable whatever the spec's spelling.

    ``gpu`` is ``nvidia.com/gpu``; a zero GPU count is left out (no GPU requested).
    Raises QuantityError for an invalid quantity (the check stage reports those first).
    """
    out: dict[str, str] = {}
    for name, value in (resources or {}).items():
        if name == "gpu":
            if int(value) == 0:
                continue
            name = GPU_RESOURCE
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


def expand(spec: dict[str, Any]) -> dict[str, Any]:
    """The effective spec of one environment with every mpigen default filled in."""
    mpi = dict(spec.get("mpi") or {})
    launcher = dict(mpi.get("launcher") or {})
    scheduling = dict(spec.get("scheduling") or {})
    run_policy = dict(spec.get("runPolicy") or {})
    worker_resources = spec.get("resources") or {}

    mpi.setdefault("implementation", "OpenMPI")
    mpi.setdefault("extraArgs", [])
    mpi.setdefault("sshAuthMountPath", DEFAULT_SSH_PATH)
    mpi.setdefault("launcherCreationPolicy", "AtStartup")
    mpi.setdefault("runLauncherAsWorker", False)
    launcher.setdefault("image", spec["image"])
    if "resources" not in launcher:
        # A launcher that runs ranks needs what a worker needs; one that only runs mpirun does not.
        launcher["resources"] = worker_resources if mpi["runLauncherAsWorker"] else {}
    pods_priority = spec.get("priorityClassName", scheduling.get("priorityClass"))
    launcher.setdefault("priorityClassName", pods_priority)
    mpi["launcher"] = launcher

    scheduling.setdefault("gang", "none")
    if scheduling["gang"] == "scheduler-plugins":
        scheduling.setdefault("schedulerName", DEFAULT_SCHEDULER_PLUGINS)
    run_policy.setdefault("cleanPodPolicy", "Running")
    run_policy.setdefault("suspend", False)  # the CRD's own default, written out

    out = dict(spec)
    out.update(
        mpi=mpi,
        scheduling=scheduling,
        runPolicy=run_policy,
        resources=worker_resources,
        priorityClassName=pods_priority,
        slotsPerWorker=spec.get("slotsPerWorker") or (gpus(worker_resources) or 1),
        env=dict(sorted((spec.get("env") or {}).items())),
        volumes=list(spec.get("volumes") or []),
    )
    return out
