"""Stage 4, render: an expanded spec -> a complete, explicit kubeflow.org/v2beta1 MPIJob.

The object is plain data in reading order. What mpi-operator's defaulting would fill is
written out, and with a gang scheduler so is everything the operator would decide for the
PodGroup at run time (see :mod:`mpigen.render.gang`).
"""

from __future__ import annotations

import posixpath
import re
from typing import Any

from ..expand.defaults import resource_list
from ..operator.versions import has

ISTIO_INJECT = "sidecar.istio.io/inject"
SSHD = "/usr/sbin/sshd"


def volume_name(volume: dict[str, Any]) -> str:
    """A volume's name in the pod: its ``name``, else its claim name made a DNS label."""
    if volume.get("name"):
        return volume["name"]
    name = re.sub(r"[^a-z0-9-]+", "-", str(volume["claimName"]).lower()).strip("-")[:63].strip("-")
    if not name or not name[0].isalpha():
        name = ("pvc-" + name)[:63].strip("-")
    return name


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
    """
    mpi = spec["mpi"]
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


def sshd_command(spec: dict[str, Any]) -> list[str]:
    """The workers run sshd in the foreground; the launcher reaches them over SSH.

    A non-root image (SSH keys outside /root) follows the operator's base images: sshd reads
    ``~/.sshd_config`` next to the user's ``.ssh`` (it listens on an unprivileged port).
    """
    path = spec["mpi"]["sshAuthMountPath"].rstrip("/")
    if path.startswith("/root/") or path == "/root":
        return [SSHD, "-De"]
    return [SSHD, "-De", "-f", posixpath.join(posixpath.dirname(path), ".sshd_config")]


def _env_var(name: str, value: Any) -> dict[str, Any]:
    if isinstance(value, dict):  # {secretKeyRef: {name, key}}: the value stays in the Secret
        ref = value["secretKeyRef"]
        return {"name": name, "valueFrom": {"secretKeyRef": {"name": ref["name"], "key": ref["key"]}}}
    return {"name": name, "value": str(value)}


def _resources(resources: dict[str, Any]) -> dict[str, Any]:
    quantities = resource_list(resources)
    if not quantities:
        return {}
    return {"limits": dict(quantities), "requests": dict(quantities)}


def _container(spec: dict[str, Any], name: str, image: str, command: list[str],
               resources: dict[str, Any], env: bool) -> dict[str, Any]:
    container: dict[str, Any] = {"name": name, "image": image}
    if spec.get("imagePullPolicy"):
        container["imagePullPolicy"] = spec["imagePullPolicy"]
    container["command"] = command
    if env and spec["env"]:
        container["env"] = [_env_var(k, v) for k, v in spec["env"].items()]
    rendered = _resources(resources)
    if rendered:
        container["resources"] = rendered
    mounts = []
    for volume in spec["volumes"]:
        mount = {"name": volume_name(volume), "mountPath": volume["mountPath"]}
        if volume.get("readOnly"):
            mount["readOnly"] = True
        if volume.get("subPath"):
            mount["subPath"] = volume["subPath"]
        mounts.append(mount)
    if mounts:
        container["volumeMounts"] = mounts
    return container


def _pod_template(spec: dict[str, Any], labels: dict[str, str], container: dict[str, Any],
                  priority_class: str | None) -> dict[str, Any]:
    metadata: dict[str, Any] = {}
    if labels:
        metadata["labels"] = dict(labels)
    metadata["annotations"] = {ISTIO_INJECT: "false"}
    pod: dict[str, Any] = {"containers": [container]}
    if spec.get("imagePullSecrets"):
        pod["imagePullSecrets"] = [{"name": n} for n in spec["imagePullSecrets"]]
    if spec.get("nodeSelector"):
        pod["nodeSelector"] = dict(sorted(spec["nodeSelector"].items()))
    if priority_class:
        pod["priorityClassName"] = priority_class
    if spec.get("serviceAccountName"):
        pod["serviceAccountName"] = spec["serviceAccountName"]
    if spec.get("tolerations"):
        pod["tolerations"] = [dict(t) for t in spec["tolerations"]]
    if spec["volumes"]:
        pod["volumes"] = []
        for volume in spec["volumes"]:
            claim: dict[str, Any] = {"claimName": volume["claimName"]}
            if volume.get("readOnly"):
                claim["readOnly"] = True
            pod["volumes"].append({"name": volume_name(volume), "persistentVolumeClaim": claim})
    return {"metadata": metadata, "spec": pod}


def render_mpijob(metadata: dict[str, Any], spec: dict[str, Any], version: tuple[int, int, int]) -> dict[str, Any]:
    """The MPIJob for an expanded spec, before gang scheduling is applied."""
    mpi = spec["mpi"]
    labels = dict(sorted((metadata.get("labels") or {}).items()))
    meta: dict[str, Any] = {"name": metadata["name"]}
    if metadata.get("namespace"):
        meta["namespace"] = metadata["namespace"]
    if labels:
        meta["labels"] = labels
    if metadata.get("annotations"):
        meta["annotations"] = dict(sorted(metadata["annotations"].items()))

    run_policy: dict[str, Any] = {}
    for key in ("cleanPodPolicy", "ttlSecondsAfterFinished", "activeDeadlineSeconds", "backoffLimit", "suspend"):
        if key in spec["runPolicy"]:
            run_policy[key] = spec["runPolicy"][key]

    launcher = _pod_template(
        spec, labels,
        _container(spec, "launcher", mpi["launcher"]["image"], mpirun_command(spec),
                   mpi["launcher"]["resources"], env=True),
        mpi["launcher"].get("priorityClassName"))
    replica_specs: dict[str, Any] = {
        "Launcher": {"replicas": 1, "restartPolicy": "OnFailure", "template": launcher},
    }
    if spec["workers"] > 0:
        worker = _pod_template(
            spec, labels,
            _container(spec, "worker", spec["image"], sshd_command(spec), spec["resources"], env=False),
            spec.get("priorityClassName"))
        replica_specs["Worker"] = {"replicas": spec["workers"], "restartPolicy": "Never", "template": worker}

    job_spec: dict[str, Any] = {"slotsPerWorker": spec["slotsPerWorker"]}
    if has(version, "runLauncherAsWorker"):
        job_spec["runLauncherAsWorker"] = mpi["runLauncherAsWorker"]
    job_spec["sshAuthMountPath"] = mpi["sshAuthMountPath"]
    job_spec["mpiImplementation"] = mpi["implementation"]
    if has(version, "launcherCreationPolicy"):
        job_spec["launcherCreationPolicy"] = mpi["launcherCreationPolicy"]
    job_spec["runPolicy"] = run_policy
    job_spec["mpiReplicaSpecs"] = replica_specs
    return {"apiVersion": "kubeflow.org/v2beta1", "kind": "MPIJob", "metadata": meta, "spec": job_spec}
