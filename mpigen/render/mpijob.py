"""Stage 4, render: an expanded spec -> a complete, explicit kubeflow.org/v2beta1 MPIJob.

The object is plain data in reading order. What mpi-operator's defaulting would fill is
written out, and with a gang scheduler so is everything the operator would decide for the
PodGroup at run time (see :mod:`mpigen.render.gang`).
"""

from __future__ import annotations

import posixpath
import re
from typing import Any

from ..names import MPIJOB_API
from ..versions import OperatorVersion
from .pods import container, job_metadata, job_run_policy, pod_template

SSHD = "/usr/sbin/sshd"
MPI_STARTERS = frozenset({"mpirun", "mpiexec", "mpiexec.hydra", "horovodrun"})


def slots_total(spec: dict[str, Any]) -> int:
    """mpirun's -np: every worker's slots, plus the launcher's when it runs ranks too."""
    hosts = spec["workers"] + (1 if spec["mpi"]["runLauncherAsWorker"] else 0)
    return hosts * spec["slotsPerWorker"]


def mpirun_command(spec: dict[str, Any]) -> list[str]:
    """The launcher's command: mpirun with the options its implementation needs, then the program.

    OpenMPI does not forward the launcher's environment to ranks started over SSH, so every
    variable of ``spec.env`` (and PATH, LD_LIBRARY_PATH) is forwarded with ``-x``; it refuses
    to run as root without ``--allow-run-as-root``; ``-bind-to none -map-by slot`` is what
    Horovod and the operator's examples use. Intel MPI and MPICH (Hydra) forward the whole
    environment by default.

    A command that starts MPI itself (:func:`user_starts_mpi`) is the launcher's command as written.
    """
    mpi = spec["mpi"]
    if not mpi.get("mpirun", not user_starts_mpi(spec["command"])):
        return list(spec["command"])
    command = ["mpirun"]
    if mpi["implementation"] == "OpenMPI":
        if mpi["sshAuthMountPath"].startswith("/root/"):
            command.append("--allow-run-as-root")
        command += ["-np", str(slots_total(spec)), "-bind-to", "none", "-map-by", "slot"]
        for name in ["PATH", "LD_LIBRARY_PATH", *spec["env"]]:
            command += ["-x", name]
    else:
        command += ["-np", str(slots_total(spec))]
    return command + list(mpi["extraArgs"]) + list(spec["command"])


def user_starts_mpi(command: list[str]) -> bool:
    """The user wrote the mpirun line (``mpirun ...``, ``horovodrun ...``, or ``sh -c "mpirun ..."``)."""
    if not command:
        return False
    if len(command) >= 3 and posixpath.basename(command[0]) in ("sh", "bash") and command[1] in ("-c", "-lc"):
        # a shell line: mpirun anywhere as a command word (``cd /code && mpirun ...``)
        return any(posixpath.basename(w) in MPI_STARTERS for w in re.split(r"[\s;&|()]+", command[2]))
    return posixpath.basename(command[0]) in MPI_STARTERS


def sshd_command(spec: dict[str, Any]) -> list[str]:
    """The workers run sshd in the foreground; the launcher reaches them over SSH.

    A non-root image (SSH keys outside /root) follows the operator's base images: sshd reads
    ``~/.sshd_config`` next to the user's ``.ssh`` (it listens on an unprivileged port).
    """
    path = spec["mpi"]["sshAuthMountPath"].rstrip("/")
    if path.startswith("/root/") or path == "/root":
        return [SSHD, "-De"]
    return [SSHD, "-De", "-f", posixpath.join(posixpath.dirname(path), ".sshd_config")]


def _gpu_pods(spec: dict[str, Any]) -> int:
    """Pods of the job that request GPUs (ACK's gpu-topology-replica)."""
    from ..expand.defaults import gpus

    launcher = 1 if gpus(spec["mpi"]["launcher"]["resources"]) else 0
    return launcher + (spec["workers"] if gpus(spec["resources"]) else 0)


def render_mpijob(metadata: dict[str, Any], spec: dict[str, Any], version: OperatorVersion) -> dict[str, Any]:
    """The MPIJob for an expanded spec, before gang scheduling is applied."""
    mpi = spec["mpi"]
    labels = dict(sorted((metadata.get("labels") or {}).items()))
    meta = job_metadata(metadata)
    run_policy = job_run_policy(spec)

    gpu_pods = _gpu_pods(spec)
    launcher = pod_template(
        spec, labels,
        container(spec, "launcher", mpi["launcher"]["image"], mpirun_command(spec),
                  mpi["launcher"]["resources"], env=True),
        mpi["launcher"].get("priorityClassName"), job_name=metadata["name"], gpu_pods=gpu_pods)
    replica_specs: dict[str, Any] = {
        "Launcher": {"replicas": 1, "restartPolicy": "OnFailure", "template": launcher},
    }
    if spec["workers"] > 0:
        worker = pod_template(
            spec, labels,
            container(spec, "worker", spec["image"], sshd_command(spec), spec["resources"], env=False),
            spec.get("priorityClassName"), job_name=metadata["name"], gpu_pods=gpu_pods)
        replica_specs["Worker"] = {"replicas": spec["workers"], "restartPolicy": "Never", "template": worker}

    job_spec: dict[str, Any] = {"slotsPerWorker": spec["slotsPerWorker"]}
    if version.has("runLauncherAsWorker"):
        job_spec["runLauncherAsWorker"] = mpi["runLauncherAsWorker"]
    job_spec["sshAuthMountPath"] = mpi["sshAuthMountPath"]
    job_spec["mpiImplementation"] = mpi["implementation"]
    if version.has("launcherCreationPolicy"):
        job_spec["launcherCreationPolicy"] = mpi["launcherCreationPolicy"]
    job_spec["runPolicy"] = run_policy
    job_spec["mpiReplicaSpecs"] = replica_specs
    return {"apiVersion": MPIJOB_API, "kind": "MPIJob", "metadata": meta, "spec": job_spec}
