"""MPIJob admission rules: a port of mpi-operator v0.8.2 ``pkg/apis/kubeflow/validation/validation.go``.

The controller defaults a job (``SetDefaults_MPIJob``) and then validates it; a job that fails is
marked Failed and nothing is created. Here the same checks run on the defaulted plain dict and
return ``(path, message)`` pairs, in Go's order. The worker-hostname check (``validateMPIJobName``)
is reported by the ``hostname`` lint rule, which checks every role's hostname the same way.
"""

from __future__ import annotations

from typing import Any, Iterator

Path = tuple[str | int, ...]

CLEAN_POD_POLICIES = ("All", "None", "Running")
MPI_IMPLEMENTATIONS = ("Intel", "MPICH", "OpenMPI")
RESTART_POLICIES = ("Never", "OnFailure")
MANAGED_BY = ("kubeflow.org/mpi-operator", "kueue.x-k8s.io/multikueue")


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _not_supported(value: Any, allowed: tuple[str, ...]) -> str:
    return f"Unsupported value: {value!r}: supported values: {', '.join(repr(a) for a in allowed)}"


def validate_mpijob(job: dict[str, Any]) -> list[tuple[Path, str]]:
    """``ValidateMPIJob`` minus the name check, on an already defaulted job."""
    spec = job.get("spec") if isinstance(job.get("spec"), dict) else {}
    return list(_spec(spec))


def _spec(spec: dict[str, Any]) -> Iterator[tuple[Path, str]]:
    base: Path = ("spec",)
    yield from _replica_specs(spec.get("mpiReplicaSpecs"), base + ("mpiReplicaSpecs",))
    slots = spec.get("slotsPerWorker")
    if slots is None:
        yield base + ("slotsPerWorker",), "Required value: must have number of slots per worker"
    elif _int(slots) and slots < 0:
        yield base + ("slotsPerWorker",), f"Invalid value: {slots}: must be greater than or equal to 0"
    run_policy = spec.get("runPolicy") if isinstance(spec.get("runPolicy"), dict) else {}
    yield from _run_policy(run_policy, base + ("runPolicy",))
    if not spec.get("sshAuthMountPath"):
        yield base + ("sshAuthMountPath",), "Required value: must have a mount path for SSH credentials"
    implementation = spec.get("mpiImplementation")
    if implementation not in MPI_IMPLEMENTATIONS:
        yield base + ("mpiImplementation",), _not_supported(implementation, MPI_IMPLEMENTATIONS)


def _run_policy(policy: dict[str, Any], path: Path) -> Iterator[tuple[Path, str]]:
    clean = policy.get("cleanPodPolicy")
    if clean is None:
        yield path + ("cleanPodPolicy",), "Required value: must have clean Pod policy"
    elif clean not in CLEAN_POD_POLICIES:
        yield path + ("cleanPodPolicy",), _not_supported(clean, CLEAN_POD_POLICIES)
    for key in ("ttlSecondsAfterFinished", "activeDeadlineSeconds", "backoffLimit"):
        value = policy.get(key)
        if _int(value) and value < 0:
            yield path + (key,), f"Invalid value: {value}: must be greater than or equal to 0"
    managed_by = policy.get("managedBy")
    if managed_by is not None and managed_by not in MANAGED_BY:
        yield path + ("managedBy",), _not_supported(managed_by, MANAGED_BY)


def _replica_specs(specs: Any, path: Path) -> Iterator[tuple[Path, str]]:
    if not isinstance(specs, dict):
        yield path, "Required value: must have replica specs"
        return
    launcher = specs.get("Launcher")
    if not isinstance(launcher, dict):
        yield path + ("Launcher",), "Required value: must have Launcher replica spec"
    else:
        yield from _replica(launcher, path + ("Launcher",))
        replicas = launcher.get("replicas")
        if _int(replicas) and replicas != 1:
            yield path + ("Launcher", "replicas"), f"Invalid value: {replicas}: must be 1"
    worker = specs.get("Worker")
    if isinstance(worker, dict):
        yield from _replica(worker, path + ("Worker",))
        replicas = worker.get("replicas")
        if _int(replicas) and replicas <= 0:
            yield path + ("Worker", "replicas"), f"Invalid value: {replicas}: must be greater than or equal to 1"


def _replica(spec: dict[str, Any], path: Path) -> Iterator[tuple[Path, str]]:
    if spec.get("replicas") is None:
        yield path + ("replicas",), "Required value: must define number of replicas"
    restart = spec.get("restartPolicy")
    if restart not in RESTART_POLICIES:
        yield path + ("restartPolicy",), _not_supported(restart, RESTART_POLICIES)
    template = spec.get("template") if isinstance(spec.get("template"), dict) else {}
    pod = template.get("spec") if isinstance(template.get("spec"), dict) else {}
    containers = pod.get("containers")
    if not isinstance(containers, list) or not containers:
        yield path + ("template", "spec", "containers"), "Required value: must define at least one container"
