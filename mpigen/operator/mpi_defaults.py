"""MPIJob kubeflow.org/v2beta1 defaulting, ported from mpi-operator v0.8.0.

Port of ``SetDefaults_MPIJob`` in ``pkg/apis/kubeflow/v2beta1/default.go``
(tag v0.8.0; the generated ``SetObjectDefaults_MPIJob`` calls nothing else).
Constants from ``types.go`` / ``constants.go`` of the same tag.

Only what that Go function fills is filled. In particular the CRD's own
``+kubebuilder:default`` markers (``runPolicy.suspend: false``,
``runLauncherAsWorker: false``), which the API server applies, are NOT added,
and pod templates are left alone.

Go's "unset" is a nil pointer or an empty string; in a parsed YAML dict that is
a missing key, an explicit ``null``, or (for string fields) ``""``.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping

CLEAN_POD_POLICY_NONE = "None"
DEFAULT_SLOTS_PER_WORKER = 1
DEFAULT_SSH_AUTH_MOUNT_PATH = "/root/.ssh"
MPI_IMPLEMENTATION_OPENMPI = "OpenMPI"
LAUNCHER_CREATION_POLICY_AT_STARTUP = "AtStartup"
DEFAULT_LAUNCHER_RESTART_POLICY = "OnFailure"  # DefaultLauncherRestartPolicy
DEFAULT_RESTART_POLICY = "Never"  # DefaultRestartPolicy (Worker)


def _set_defaults_replica(spec: dict | None, restart_policy: str, replicas: int) -> None:
    """``setDefaultsTypeLauncher`` / ``setDefaultsTypeWorker``: a nil spec is left alone."""
    if spec is None:
        return
    if not spec.get("restartPolicy"):
        spec["restartPolicy"] = restart_policy
    if spec.get("replicas") is None:
        spec["replicas"] = replicas


def set_defaults(job: Mapping, version: tuple[int, int, int] = (0, 8, 0)) -> dict:
    """``SetDefaults_MPIJob`` applied to a deep copy of a plain-dict MPIJob.

    Fills runPolicy.cleanPodPolicy ``None`` (creating ``runPolicy``, a value
    struct in Go), slotsPerWorker ``1``, sshAuthMountPath ``/root/.ssh``,
    mpiImplementation ``OpenMPI``, launcherCreationPolicy ``AtStartup``;
    Launcher restartPolicy ``OnFailure`` and replicas ``1``; Worker
    restartPolicy ``Never`` and replicas ``0``. ``spec`` is created if missing
    (also a value struct); ``mpiReplicaSpecs`` is never created. Before v0.5.0
    (``version``) there is no launcherCreationPolicy to default.
    """
    out = copy.deepcopy(dict(job))
    spec = out.get("spec")
    if spec is None:
        spec = out["spec"] = {}
    run_policy = spec.get("runPolicy")
    if run_policy is None:
        run_policy = spec["runPolicy"] = {}
    if run_policy.get("cleanPodPolicy") is None:
        run_policy["cleanPodPolicy"] = CLEAN_POD_POLICY_NONE
    if spec.get("slotsPerWorker") is None:
        spec["slotsPerWorker"] = DEFAULT_SLOTS_PER_WORKER
    if not spec.get("sshAuthMountPath"):
        spec["sshAuthMountPath"] = DEFAULT_SSH_AUTH_MOUNT_PATH
    if not spec.get("mpiImplementation"):
        spec["mpiImplementation"] = MPI_IMPLEMENTATION_OPENMPI
    if version >= (0, 5, 0) and not spec.get("launcherCreationPolicy"):
        spec["launcherCreationPolicy"] = LAUNCHER_CREATION_POLICY_AT_STARTUP
    replica_specs = spec.get("mpiReplicaSpecs") or {}
    _set_defaults_replica(replica_specs.get("Launcher"), DEFAULT_LAUNCHER_RESTART_POLICY, 1)
    _set_defaults_replica(replica_specs.get("Worker"), DEFAULT_RESTART_POLICY, 0)
    return out
