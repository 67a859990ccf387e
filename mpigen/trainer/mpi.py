"""The MPI plugin of Trainer v2.3.0: hostfile ConfigMap, SSH Secret, the OpenMPI environment.

Ports ``MPI.EnforceMLPolicy``, ``MPI.Build``, ``buildSSHAuthSecret``, ``buildHostFileConfigMap``
and ``isNode`` (``pkg/runtime/framework/plugins/mpi/mpi.go``) at tag **v2.3.0**, constants from
``pkg/constants/constants.go``. It acts when the runtime's ``mlPolicy.mpi`` is set (whose
``numProcPerNode``, ``mpiImplementation``, ``sshAuthMountPath`` and ``runLauncherAsNode`` the
CRD defaults to 1, OpenMPI, ``/root/.ssh`` and false):

* the PodSet named ``node`` gets ``trainer.numNodes`` pods, one less (at least 1) with
  ``runLauncherAsNode`` (the launcher is a node then); the launcher's count is not changed;
* **numProcPerNode** (the hostfile's slots, ``OMPI_MCA_orte_set_default_slots``):
  ``trainer.numProcPerNode`` when set, else the runtime's; a runtime value of 1 becomes the
  number of GPUs per node when that is above 1 (read as the torch plugin reads it);
* the PodSets named ``node`` and ``launcher`` get the volume ``mpi-ssh-auth`` (Secret
  ``<job>-mpi-ssh-auth``: id_rsa 0640, id_rsa.pub and authorized_keys 0644, default 0400), the
  launcher also ``mpi-hostfile`` (ConfigMap ``<job>-mpi-hostfile``, key hostfile, 0444); their
  containers named ``node`` mount the keys at ``sshAuthMountPath``; the launcher's ``node``
  container mounts the hostfile at ``/etc/mpi`` and gets ``OMPI_MCA_orte_default_hostfile``,
  ``OMPI_MCA_orte_keep_fqdn_hostnames=true``, ``OMPI_MCA_orte_set_default_slots`` and
  ``OMPI_MCA_plm_rsh_args=-o ConnectionAttempts=10``. Only OpenMPI is implemented: another
  implementation (the CRD allows only OpenMPI or "") is an error, nothing is created;
* Build: the SSH Secret (type ``kubernetes.io/ssh-auth``, immutable, a fresh ECDSA P-521 key:
  redacted here) and the hostfile ``<endpoint> slots=<n>`` for every pod of the ``node`` PodSet --
  and of the ``launcher`` with runLauncherAsNode -- in replicated-job order.
"""

from __future__ import annotations

from typing import Any, Iterator

from .info import LAUNCHER, NODE, Endpoints, Info, PodSet, TrainerError, int32, num_gpu_per_node, \
    resources_per_node, upsert_env, upsert_volume_mounts, upsert_volumes

REDACTED = "<redacted>"
SSH_SECRET_SUFFIX = "-mpi-ssh-auth"
SSH_VOLUME = "mpi-ssh-auth"
HOSTFILE_SUFFIX = "-mpi-hostfile"
HOSTFILE_VOLUME = "mpi-hostfile"
HOSTFILE_DIR = "/etc/mpi"
HOSTFILE_NAME = "hostfile"
RESERVED_ENV = ("OMPI_MCA_orte_default_hostfile", "OMPI_MCA_plm_rsh_args", "OMPI_MCA_orte_keep_fqdn_hostnames",
                "OMPI_MCA_orte_set_default_slots")


def enforce_ml_policy(info: Info, trainjob: dict[str, Any]) -> None:
    """``MPI.EnforceMLPolicy``: changes ``info`` (counts, slots, volumes, mounts, env)."""
    mpi = info.policy("mpi")
    if mpi is None:
        return
    name = trainjob["metadata"]["name"]
    trainer = (trainjob.get("spec") or {}).get("trainer")
    trainer = trainer if isinstance(trainer, dict) else None
    launcher_as_node = mpi.get("runLauncherAsNode") is True
    if trainer is not None and trainer.get("numNodes") is not None:
        node = info.pod_set_by_name(NODE)
        if node is not None:
            node.count = max(trainer["numNodes"] - 1, 1) if launcher_as_node else trainer["numNodes"]
    info.num_proc_reason = "the runtime's mlPolicy.mpi.numProcPerNode"
    if trainer is not None and trainer.get("numProcPerNode") is not None:
        mpi["numProcPerNode"] = trainer["numProcPerNode"]
        info.num_proc_reason = "trainer.numProcPerNode"
    elif mpi.get("numProcPerNode") == 1:
        gpus = num_gpu_per_node(resources_per_node(info, trainjob))
        if gpus > 1:
            mpi["numProcPerNode"] = int32(gpus)  # ptr.To(int32(gpuQ))
            info.num_proc_reason = "the runtime says 1: the GPUs per node instead"
    info.num_proc_per_node = mpi.get("numProcPerNode")
    ssh_volume = {"name": SSH_VOLUME, "secret": {
        "secretName": f"{name}{SSH_SECRET_SUFFIX}", "defaultMode": 0o400,
        "items": [{"key": "ssh-privatekey", "path": "id_rsa", "mode": 0o640},
                  {"key": "ssh-publickey", "path": "id_rsa.pub", "mode": 0o644},
                  {"key": "ssh-publickey", "path": "authorized_keys", "mode": 0o644}]}}
    hostfile_volume = {"name": HOSTFILE_VOLUME, "configMap": {
        "name": f"{name}{HOSTFILE_SUFFIX}", "items": [{"key": HOSTFILE_NAME, "path": HOSTFILE_NAME, "mode": 0o444}]}}
    for ps in info.pod_sets:
        if ps.name not in (NODE, LAUNCHER):
            continue
        upsert_volumes(ps.volumes, ssh_volume)
        if ps.name == LAUNCHER:
            upsert_volumes(ps.volumes, hostfile_volume)
        for container in ps.containers:
            if container.name != NODE:
                continue
            upsert_volume_mounts(container.volume_mounts, {"name": SSH_VOLUME, "mountPath": mpi["sshAuthMountPath"]})
            if ps.name != LAUNCHER:
                continue
            upsert_volume_mounts(container.volume_mounts, {"name": HOSTFILE_VOLUME, "mountPath": HOSTFILE_DIR})
            if mpi.get("mpiImplementation") != "OpenMPI":
                raise TrainerError(f"MPI implementation for {mpi.get('mpiImplementation')!r} doesn't supported",
                                   ("runtime", "spec", "mlPolicy", "mpi", "mpiImplementation"))
            upsert_env(container.env,
                       {"name": "OMPI_MCA_orte_default_hostfile", "value": f"{HOSTFILE_DIR}/{HOSTFILE_NAME}"},
                       {"name": "OMPI_MCA_orte_keep_fqdn_hostnames", "value": "true"},
                       {"name": "OMPI_MCA_orte_set_default_slots", "value": str(mpi["numProcPerNode"])},
                       {"name": "OMPI_MCA_plm_rsh_args", "value": "-o ConnectionAttempts=10"})


class Hostfile:
    """``buildHostFileConfigMap``'s text, line by line: ``<endpoint> slots=<n>`` for every
    endpoint of the PodSets that are nodes. Never held whole: ``len()`` is the line count,
    ``line(i)`` one line (without its newline), ``str()`` the text."""

    def __init__(self, pod_sets: list[PodSet], slots: int, implementation: str = "OpenMPI") -> None:
        # only OpenMPI writes lines: another implementation gets an empty hostfile
        self._parts: list[Endpoints] = [ps.endpoints for ps in pod_sets if ps.endpoints is not None
                                        and implementation == "OpenMPI"]
        self._suffix = f" slots={slots}"

    def __len__(self) -> int:
        return sum(len(part) for part in self._parts)

    def line(self, i: int) -> str:
        if i < 0:
            raise IndexError(i)
        for part in self._parts:
            if i < len(part):
                return part.line(i) + self._suffix
            i -= len(part)
        raise IndexError(i)

    def __iter__(self) -> Iterator[str]:
        for part in self._parts:
            for endpoint in part:
                yield endpoint + self._suffix

    def __str__(self) -> str:
        return "".join(line + "\n" for line in self)


def _is_node(launcher_as_node: bool, ps: PodSet) -> bool:
    return (launcher_as_node and ps.name == LAUNCHER) or ps.name == NODE


def build(info: Info, trainjob: dict[str, Any]) -> list[dict[str, Any]]:
    """``MPI.Build``: the SSH Secret (a new job has none yet) and the hostfile ConfigMap."""
    mpi = info.policy("mpi")
    if mpi is None:
        return []
    name, namespace = trainjob["metadata"]["name"], trainjob["metadata"]["namespace"]
    launcher_as_node = mpi.get("runLauncherAsNode") is True
    slots = mpi.get("numProcPerNode", 1) if mpi.get("numProcPerNode") is not None else 1
    nodes = [ps for ps in info.pod_sets if _is_node(launcher_as_node, ps)]
    secret = {"apiVersion": "v1", "kind": "Secret",
              "metadata": {"name": f"{name}{SSH_SECRET_SUFFIX}", "namespace": namespace},
              "type": "kubernetes.io/ssh-auth", "immutable": True,
              "data": {"ssh-privatekey": REDACTED, "ssh-publickey": REDACTED}}
    config = {"apiVersion": "v1", "kind": "ConfigMap",
              "metadata": {"name": f"{name}{HOSTFILE_SUFFIX}", "namespace": namespace},
              "data": {HOSTFILE_NAME: Hostfile(nodes, slots, mpi.get("mpiImplementation"))}}
    return [secret, config]
