"""Pod templates every framework shares: containers, volumes, code sync, /dev/shm, GPU topology.

Each function takes the expanded spec (see :mod:`mpigen.expand.defaults`) and returns plain data.
A field the spec does not ask for is not written, so a spec that uses none of these features
renders exactly as before they existed.

- Volumes: a PersistentVolumeClaim (``claimName``) or a node's folder (``hostPath``), mounted
  into every training container.
- Code sync (``spec.code``): an init container fetches the code into an emptyDir volume named
  ``code`` at ``code.mountPath``, which every training container mounts. git uses git-sync
  (:data:`GIT_SYNC_IMAGE`, pinned) once (``--one-time``); credentials come only from the Secret
  named in ``code.git.secret``, mounted at ``/etc/git-secret`` (``password``, or ``ssh`` and
  ``known_hosts``) with the username read from its ``username`` key; the pod gets
  ``fsGroup: 65533`` (git-sync's user) so that git-sync can read them. rsync copies the source
  into the volume, as arena's ``--sync-mode rsync`` does.
- ``spec.shmSize``: a memory-backed emptyDir at ``/dev/shm`` of that size.
- ``scheduling.gpuTopology`` (Alibaba Cloud ACK topology-aware GPU scheduling): every pod that
  requests GPUs gets the labels ``gpu-topology: <job>`` and ``gpu-topology-replica: <GPU pods>``;
  every pod runs on the host network with dnsPolicy ``ClusterFirstWithHostNet``; the GPUs are
  requested as ``aliyun.com/gpu`` (see :func:`mpigen.expand.defaults.gpu_resource_name`).
"""

from __future__ import annotations

from typing import Any

from ..expand.defaults import resource_list
from ..names import is_ssh_url, repository_folder, volume_name

ISTIO_INJECT = "sidecar.istio.io/inject"
GIT_SYNC_IMAGE = "registry.k8s.io/git-sync/git-sync:v4.4.0"
CODE_VOLUME = "code"
GIT_SECRET_VOLUME = "git-secret"
GIT_SECRET_PATH = "/etc/git-secret"
GIT_SYNC_GROUP = 65533  # the git-sync image's user and group
SHM_VOLUME = "dshm"
TOPOLOGY_LABEL = "gpu-topology"
TOPOLOGY_REPLICA_LABEL = "gpu-topology-replica"


def job_metadata(metadata: dict[str, Any]) -> dict[str, Any]:
    """The job's metadata: name, namespace, and the spec's labels and annotations, sorted."""
    meta: dict[str, Any] = {"name": metadata["name"]}
    if metadata.get("namespace"):
        meta["namespace"] = metadata["namespace"]
    if metadata.get("labels"):
        meta["labels"] = dict(sorted(metadata["labels"].items()))
    if metadata.get("annotations"):
        meta["annotations"] = dict(sorted(metadata["annotations"].items()))
    return meta


def job_run_policy(spec: dict[str, Any]) -> dict[str, Any]:
    """runPolicy without the schedulingPolicy (the gang stage writes that)."""
    keys = ("cleanPodPolicy", "ttlSecondsAfterFinished", "activeDeadlineSeconds", "backoffLimit", "suspend")
    return {key: spec["runPolicy"][key] for key in keys if key in spec["runPolicy"]}


def env_var(name: str, value: Any) -> dict[str, Any]:
    if isinstance(value, dict):  # {secretKeyRef: {name, key}}: the value stays in the Secret
        ref = value["secretKeyRef"]
        return {"name": name, "valueFrom": {"secretKeyRef": {"name": ref["name"], "key": ref["key"]}}}
    return {"name": name, "value": str(value)}


def resources(spec: dict[str, Any], values: dict[str, Any]) -> dict[str, Any]:
    quantities = resource_list(values, spec["gpuResource"])
    if not quantities:
        return {}
    return {"limits": dict(quantities), "requests": dict(quantities)}


def container_mounts(spec: dict[str, Any]) -> list[dict[str, Any]]:
    """The training container's mounts: ``spec.volumes``, the code, ``/dev/shm``."""
    mounts = []
    for volume in spec["volumes"]:
        mount = {"name": volume_name(volume), "mountPath": volume["mountPath"]}
        if volume.get("readOnly"):
            mount["readOnly"] = True
        if volume.get("subPath"):
            mount["subPath"] = volume["subPath"]
        mounts.append(mount)
    if spec.get("code"):
        mounts.append({"name": CODE_VOLUME, "mountPath": spec["code"]["mountPath"]})
    if spec.get("shmSize") is not None:
        mounts.append({"name": SHM_VOLUME, "mountPath": "/dev/shm"})
    return mounts


def container(spec: dict[str, Any], name: str, image: str, command: list[str], values: dict[str, Any], *,
              env: bool, ports: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """A training container: ``spec.env`` only where ``env`` (the MPI launcher forwards it to the ranks)."""
    out: dict[str, Any] = {"name": name, "image": image}
    if spec.get("imagePullPolicy"):
        out["imagePullPolicy"] = spec["imagePullPolicy"]
    out["command"] = command
    if spec.get("workingDir"):
        out["workingDir"] = spec["workingDir"]
    if env and spec["env"]:
        out["env"] = [env_var(k, v) for k, v in spec["env"].items()]
    if ports:
        out["ports"] = ports
    rendered = resources(spec, values)
    if rendered:
        out["resources"] = rendered
    mounts = container_mounts(spec)
    if mounts:
        out["volumeMounts"] = mounts
    return out


def _gpu_pod(template_container: dict[str, Any], spec: dict[str, Any]) -> bool:
    return spec["gpuResource"] in (template_container.get("resources") or {}).get("limits", {})


def pod_template(spec: dict[str, Any], labels: dict[str, str], main: dict[str, Any],
                 priority_class: str | None, *, job_name: str, gpu_pods: int = 0) -> dict[str, Any]:
    """The pod template around one training container.

    ``labels`` are the job's own (they go on its pods too); ``gpu_pods`` is how many pods of the
    whole job request GPUs (the ``gpu-topology-replica`` label).
    """
    metadata: dict[str, Any] = {}
    pod_labels = dict(labels)
    pod_labels.update(spec["labels"])
    topology = spec["scheduling"].get("gpuTopology") and _gpu_pod(main, spec)
    if topology:
        pod_labels[TOPOLOGY_LABEL] = job_name
        pod_labels[TOPOLOGY_REPLICA_LABEL] = str(gpu_pods)
    if pod_labels:
        metadata["labels"] = dict(sorted(pod_labels.items()))
    annotations = {ISTIO_INJECT: "false"}
    annotations.update(spec["annotations"])
    metadata["annotations"] = dict(sorted(annotations.items()))
    pod: dict[str, Any] = {}
    init = init_containers(spec)
    if init:
        pod["initContainers"] = init
    pod["containers"] = [main]
    if spec["scheduling"].get("gpuTopology"):
        pod["hostNetwork"] = True
        pod["dnsPolicy"] = "ClusterFirstWithHostNet"
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
    if ((spec.get("code") or {}).get("git") or {}).get("secret"):
        # git-sync runs as 65533 and reads the Secret's files: git-sync's own documented setup
        # (docs/ssh.md). OnRootMismatch: volumes already owned right are not walked again.
        pod["securityContext"] = {"fsGroup": GIT_SYNC_GROUP, "fsGroupChangePolicy": "OnRootMismatch"}
    volumes = pod_volumes(spec)
    if volumes:
        pod["volumes"] = volumes
    return {"metadata": metadata, "spec": pod}


def pod_volumes(spec: dict[str, Any]) -> list[dict[str, Any]]:
    out = []
    for volume in spec["volumes"]:
        if "hostPath" in volume:
            out.append({"name": volume_name(volume), "hostPath": {"path": volume["hostPath"]}})
            continue
        claim: dict[str, Any] = {"claimName": volume["claimName"]}
        if volume.get("readOnly"):
            claim["readOnly"] = True
        out.append({"name": volume_name(volume), "persistentVolumeClaim": claim})
    code = spec.get("code")
    if code:
        out.append({"name": CODE_VOLUME, "emptyDir": {}})
        secret = (code.get("git") or {}).get("secret")
        if secret:
            out.append({"name": GIT_SECRET_VOLUME, "secret": {"secretName": secret, "defaultMode": 0o400}})
    if spec.get("shmSize") is not None:
        out.append({"name": SHM_VOLUME, "emptyDir": {"medium": "Memory", "sizeLimit": spec["shmSize"]}})
    return out


def init_containers(spec: dict[str, Any]) -> list[dict[str, Any]]:
    code = spec.get("code")
    if not code:
        return []
    mount = {"name": CODE_VOLUME, "mountPath": code["mountPath"]}
    if code.get("rsync"):
        rsync = code["rsync"]
        return [{"name": "code-sync", "image": rsync["image"],
                 "command": ["rsync", "-avP", rsync["source"], code["mountPath"].rstrip("/") + "/"],
                 "volumeMounts": [mount]}]
    git = code["git"]
    args = [f"--repo={git['repository']}", f"--ref={git['revision']}", f"--depth={git['depth']}",
            f"--root={code['mountPath']}", f"--link={repository_folder(git['repository'])}", "--one-time"]
    env = []
    mounts = [mount]
    if git.get("secret"):
        mounts.append({"name": GIT_SECRET_VOLUME, "mountPath": GIT_SECRET_PATH, "readOnly": True})
        if is_ssh_url(git["repository"]):
            args += [f"--ssh-key-file={GIT_SECRET_PATH}/ssh", f"--ssh-known-hosts-file={GIT_SECRET_PATH}/known_hosts"]
        else:
            # Kubernetes expands $(GIT_SYNC_USERNAME) from the container's env, read from the Secret.
            args += ["--username=$(GIT_SYNC_USERNAME)", f"--password-file={GIT_SECRET_PATH}/password"]
            env.append(env_var("GIT_SYNC_USERNAME", {"secretKeyRef": {"name": git["secret"], "key": "username"}}))
    sync: dict[str, Any] = {"name": "code-sync", "image": GIT_SYNC_IMAGE, "args": args}
    if env:
        sync["env"] = env
    sync["volumeMounts"] = mounts
    return [sync]
