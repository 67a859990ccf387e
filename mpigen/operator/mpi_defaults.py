"""MPIJob kubeflow.org/v2beta1 defaulting, ported from mpi-operator v0.8.2.

Port of ``SetDefaults_MPIJob`` in ``pkg/apis/kubeflow/v2beta1/default.go``
(tag v0.8.2, the same file as v0.8.0's; the generated ``SetObjectDefaults_MPIJob`` calls
nothing else).
Constants from ``types.go`` / ``constants.go`` of the same tag.

Only what that Go function fills is filled. In particular the CRD's own
``+kubebuilder:default`` markers (``runPolicy.suspend: false``,
``runLauncherAsWorker: false``), which the API server applies, are NOT added,
and pod templates are left alone.

Go's "unset" is a nil pointer or an empty string; in a parsed YAML dict that is
a missing key, an explicit ``null``, or (for string fields) ``""``.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..versions import DEFAULT_OPERATOR_VERSION, OperatorVersion

CLEAN_POD_POLICY_NONE = "None"
DEFAULT_SLOTS_PER_WORKER = 1
DEFAULT_SSH_AUTH_MOUNT_PATH = "/root/.ssh"
MPI_IMPLEMENTATION_OPENMPI = "OpenMPI"
LAUNCHER_CREATION_POLICY_AT_STARTUP = "AtStartup"
DEFAULT_LAUNCHER_RESTART_POLICY = "OnFailure"  # DefaultLauncherRestartPolicy
DEFAULT_RESTART_POLICY = "Never"  # DefaultRestartPolicy (Worker)


def _defaulted_replica(spec: Mapping | None, restart_policy: str, replicas: int) -> dict | None:
    """``setDefaultsTypeLauncher`` / ``setDefaultsTypeWorker`` on a copy: a nil spec is left alone."""
    if spec is None:
        return None
    out = dict(spec)
    if not out.get("restartPolicy"):
        out["restartPolicy"] = restart_policy
    if out.get("replicas") is None:
        out["replicas"] = replicas
    return out


def _mapping(value: object) -> dict:
    """A copy of a mapping; anything else (null, or a wrong type the schema reports) as empty,
    as Go's decoder would leave a value struct it could not fill."""
    return dict(value) if isinstance(value, Mapping) else {}


def set_defaults(job: Mapping, version: OperatorVersion = DEFAULT_OPERATOR_VERSION) -> dict:
    """``SetDefaults_MPIJob`` applied to a copy of a plain-dict MPIJob.

    Fills runPolicy.cleanPodPolicy ``None`` (creating ``runPolicy``, a value
    struct in Go), slotsPerWorker ``1``, sshAuthMountPath ``/root/.ssh``,
    mpiImplementation ``OpenMPI``, launcherCreationPolicy ``AtStartup``;
    Launcher restartPolicy ``OnFailure`` and replicas ``1``; Worker
    restartPolicy ``Never`` and replicas ``0``. ``spec`` is created if missing
    (also a value struct); ``mpiReplicaSpecs`` is never created. Before v0.5.0
    (``version``) there is no launcherCreationPolicy to default.

    Copy on write: the mappings on the way to a defaulted field are new, everything else (pod
    templates above all) is shared with ``job``, which is never modified.
    """
    out = dict(job)
    spec = out["spec"] = _mapping(out.get("spec"))
    run_policy = spec["runPolicy"] = _mapping(spec.get("runPolicy"))
    if run_policy.get("cleanPodPolicy") is None:
        run_policy["cleanPodPolicy"] = CLEAN_POD_POLICY_NONE
    if spec.get("slotsPerWorker") is None:
        spec["slotsPerWorker"] = DEFAULT_SLOTS_PER_WORKER
    if not spec.get("sshAuthMountPath"):
        spec["sshAuthMountPath"] = DEFAULT_SSH_AUTH_MOUNT_PATH
    if not spec.get("mpiImplementation"):
        spec["mpiImplementation"] = MPI_IMPLEMENTATION_OPENMPI
    if version.has("launcherCreationPolicy") and not spec.get("launcherCreationPolicy"):
        spec["launcherCreationPolicy"] = LAUNCHER_CREATION_POLICY_AT_STARTUP
    replica_specs = spec.get("mpiReplicaSpecs")
    if isinstance(replica_specs, Mapping):
        replica_specs = spec["mpiReplicaSpecs"] = dict(replica_specs)
        for role, policy, count in (("Launcher", DEFAULT_LAUNCHER_RESTART_POLICY, 1),
                                    ("Worker", DEFAULT_RESTART_POLICY, 0)):
            if isinstance(replica_specs.get(role), Mapping):
                replica_specs[role] = _defaulted_replica(replica_specs[role], policy, count)
    return out
