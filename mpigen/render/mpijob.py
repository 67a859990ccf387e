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
from ..expand.roles import role_view
from .patching import Finding, containers_of, first_container_findings, main_gpus, patched_template
from .pods import container, job_metadata, job_run_policy, pod_template

SSHD = "/usr/sbin/sshd"
MPI_STARTERS = frozenset({"mpirun", "mpiexec", "mpiexec.hydra", "horovodrun"})


def slots_total(spec: dict[str, Any], slots: int) -> int:
    """mpirun's -np: every worker's ``slots``, plus the launcher's when it runs ranks too."""
    hosts = spec["workers"] + (1 if spec["mpi"]["runLauncherAsWorker"] else 0)
    return hosts * slots


def mpirun_command(spec: dict[str, Any], slots: int, env_names: list[str]) -> list[str]:
    """The launcher's command: mpirun with the options its implementation needs, then the program.

    OpenMPI does not forward the launcher's environment to ranks started over SSH, so every
    variable of the launcher's container (``env_names``: the spec's ``env`` and what a patch adds),
    and PATH and LD_LIBRARY_PATH, is forwarded with ``-x``; it refuses to run as root without
    ``--allow-run-as-root``; ``-bind-to none -map-by slot`` is what Horovod and the operator's
    examples use. Intel MPI and MPICH (Hydra) forward the whole environment by default.

    A command that starts MPI itself (:func:`user_starts_mpi`) is the launcher's command as written,
    and an empty one stays empty (the image's entrypoint runs, with the spec's ``args``).
    """
    mpi = spec["mpi"]
    program = spec["command"] or []  # a role's command: null is its image's entrypoint, as []
    if not program or not mpi.get("mpirun", not user_starts_mpi(program)):  # [] runs the image's entrypoint
        return list(program)
    command = ["mpirun"]
    if mpi["implementation"] == "OpenMPI":
        if mpi["sshAuthMountPath"].startswith("/root/"):
            command.append("--allow-run-as-root")
        command += ["-np", str(slots_total(spec, slots)), "-bind-to", "none", "-map-by", "slot"]
        for name in ["PATH", "LD_LIBRARY_PATH", *env_names]:
            command += ["-x", name]
    else:
        command += ["-np", str(slots_total(spec, slots))]
    return command + list(mpi["extraArgs"]) + list(program)


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

    launcher = 1 if gpus(spec["roles"]["launcher"]["resources"]) else 0
    return launcher + (spec["workers"] if gpus(spec["roles"]["worker"]["resources"]) else 0)


def render_mpijob(metadata: dict[str, Any], spec: dict[str, Any], version: OperatorVersion
                  ) -> tuple[dict[str, Any], list[Finding]]:
    """The MPIJob for an expanded spec, before gang scheduling is applied, and what applying the
    spec's pod template patches found.

    The worker's pod comes first: without an explicit ``slotsPerWorker`` the slots are the GPUs of
    its patched container, which mpirun's ``-np`` counts. The launcher runs mpirun with every
    variable its patched container has (OpenMPI's ``-x``), unless a patch gives it a command."""
    mpi = spec["mpi"]
    labels = dict(sorted((metadata.get("labels") or {}).items()))
    meta = job_metadata(metadata)
    run_policy = job_run_policy(spec)
    findings: list[Finding] = []

    gpu_pods = _gpu_pods(spec)
    worker_view = role_view(spec, "worker")
    worker_command = worker_view["command"] if worker_view["command"] is not None else sshd_command(spec)
    worker_name = worker_view["containerName"] or "worker"
    worker, found = patched_template(
        pod_template(worker_view, labels, container(worker_view, worker_name, worker_command),
                     job_name=metadata["name"], gpu_pods=gpu_pods),
        worker_view)
    findings += found + first_container_findings(worker, worker_view, worker_name)
    slots = spec["slotsPerWorker"] or main_gpus(worker, spec["gpuResource"]) or 1

    launcher_view = role_view(spec, "launcher")
    launcher_name = launcher_view["containerName"] or "launcher"
    generated = pod_template(
        launcher_view, labels,
        container(launcher_view, launcher_name, mpirun_command(launcher_view, slots, list(launcher_view["env"]))),
        job_name=metadata["name"], gpu_pods=gpu_pods)
    launcher, found = patched_template(generated, launcher_view)
    findings += found + first_container_findings(launcher, launcher_view, launcher_name)
    containers = containers_of(launcher)
    main = containers[0] if containers else {}
    if main.get("command") and main.get("command") == generated["spec"]["containers"][0].get("command"):
        # the patch left the command to mpigen: mpirun forwards what the patched container has
        env = main.get("env") if isinstance(main.get("env"), list) else []
        names = [e["name"] for e in env if isinstance(e, dict) and isinstance(e.get("name"), str)]
        main["command"] = mpirun_command(launcher_view, slots, names)

    replica_specs: dict[str, Any] = {
        "Launcher": {"replicas": 1, "restartPolicy": "OnFailure", "template": launcher},
    }
    if spec["workers"] > 0:
        replica_specs["Worker"] = {"replicas": spec["workers"], "restartPolicy": "Never", "template": worker}

    job_spec: dict[str, Any] = {"slotsPerWorker": slots}
    if version.has("runLauncherAsWorker"):
        job_spec["runLauncherAsWorker"] = mpi["runLauncherAsWorker"]
    job_spec["sshAuthMountPath"] = mpi["sshAuthMountPath"]
    job_spec["mpiImplementation"] = mpi["implementation"]
    if version.has("launcherCreationPolicy"):
        job_spec["launcherCreationPolicy"] = mpi["launcherCreationPolicy"]
    job_spec["runPolicy"] = run_policy
    job_spec["mpiReplicaSpecs"] = replica_specs
    return {"apiVersion": MPIJOB_API, "kind": "MPIJob", "metadata": meta, "spec": job_spec}, findings
