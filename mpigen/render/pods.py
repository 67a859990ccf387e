"""Pod templates every framework shares: containers, volumes, code sync, /dev/shm, GPU topology,
and the pod fields of production jobs.

Each function takes one role's view of the expanded spec (see :mod:`mpigen.expand.defaults` and
:func:`mpigen.expand.roles.role_view`: the job-wide settings with the role's own over them) and
returns plain data. A field the spec does not ask for is not written, so a spec that uses none of
these features renders exactly as before they existed.

- Volumes: any source Kubernetes knows (a PersistentVolumeClaim by ``claimName``, a node's
  folder by ``hostPath``, a ConfigMap, Secret, emptyDir, CSI, NFS, ephemeral...); one with a
  ``mountPath`` is mounted into the training container, one without is only defined (init
  containers and sidecars mount it by name).
- Pod fields (placement, security contexts, the host network, runtime class, DRA claims) on the
  pod; ``args``, ``envFrom``, ports, probes and the container ``securityContext`` on the training
  container; ``initContainers`` and ``sidecars`` (init containers that keep running) before it.
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

import copy
from typing import Any

from ..expand.defaults import resource_list
from ..names import VOLUME_MOUNT_FIELDS, is_ssh_url, repository_folder, volume_name

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


def resources(spec: dict[str, Any], values: dict[str, Any], claims: list[dict[str, Any]] | None = None
              ) -> dict[str, Any]:
    """A container's resources: the quantities as both limits and requests; ``claims``: the pod's
    DRA claims (``resourceClaims``) the container uses, by name."""
    quantities = resource_list(values, spec["gpuResource"])
    out: dict[str, Any] = {"limits": dict(quantities), "requests": dict(quantities)} if quantities else {}
    if claims:
        out["claims"] = [{"name": claim["name"]} for claim in claims]
    return out




def container_mounts(spec: dict[str, Any]) -> list[dict[str, Any]]:
    """The training container's mounts: each of ``spec.volumes`` that has a ``mountPath`` (the others
    are mounted by name by the containers that list them), the code, ``/dev/shm``."""
    mounts = []
    for volume in spec["volumes"]:
        if not volume.get("mountPath"):
            continue
        mount = {"name": volume_name(volume), "mountPath": volume["mountPath"]}
        for key in VOLUME_MOUNT_FIELDS[1:]:
            if volume.get(key):
                mount[key] = volume[key]
        mounts.append(mount)
    if spec.get("code"):
        mounts.append({"name": CODE_VOLUME, "mountPath": spec["code"]["mountPath"]})
    if spec.get("shmSize") is not None:
        mounts.append({"name": SHM_VOLUME, "mountPath": "/dev/shm"})
    return mounts


PROBES = ("livenessProbe", "readinessProbe", "startupProbe")


def container(spec: dict[str, Any], name: str, command: list[str] | None,
              ports: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """A role's training container, from its view of the spec (:func:`mpigen.expand.roles.role_view`):
    ``command``, the operator's ``ports`` (PyTorch's and TensorFlow's) and then the spec's."""
    out: dict[str, Any] = {"name": name, "image": spec["image"]}
    if spec.get("imagePullPolicy"):
        out["imagePullPolicy"] = spec["imagePullPolicy"]
    if command:
        out["command"] = command
    if spec.get("args"):
        out["args"] = list(spec["args"])
    if spec.get("workingDir"):
        out["workingDir"] = spec["workingDir"]
    if spec["env"]:
        out["env"] = [env_var(k, v) for k, v in spec["env"].items()]
    if spec.get("envFrom"):
        out["envFrom"] = copy.deepcopy(spec["envFrom"])
    ports = [*(ports or []), *copy.deepcopy(spec.get("ports") or [])]
    if ports:
        out["ports"] = ports
    rendered = resources(spec, spec["resources"], spec.get("resourceClaims"))
    if rendered:
        out["resources"] = rendered
    mounts = container_mounts(spec)
    if mounts:
        out["volumeMounts"] = mounts
    for probe in PROBES:
        if spec.get(probe):
            out[probe] = copy.deepcopy(spec[probe])
    if spec.get("securityContext"):
        out["securityContext"] = copy.deepcopy(spec["securityContext"])
    return out


def _gpu_pod(template_container: dict[str, Any], spec: dict[str, Any]) -> bool:
    return spec["gpuResource"] in (template_container.get("resources") or {}).get("limits", {})


def pod_template(spec: dict[str, Any], labels: dict[str, str], main: dict[str, Any], *, job_name: str,
                 gpu_pods: int = 0) -> dict[str, Any]:
    """The pod template around one training container, from a role's view of the spec.

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
    if spec["scheduling"].get("gpuTopology") or spec.get("hostNetwork"):
        pod["hostNetwork"] = True
        # The operator forces it on an MPIJob's pods; every job's pods need it to find each other.
        pod["dnsPolicy"] = spec.get("dnsPolicy") or "ClusterFirstWithHostNet"
    elif spec.get("dnsPolicy"):
        pod["dnsPolicy"] = spec["dnsPolicy"]
    if spec.get("imagePullSecrets"):
        pod["imagePullSecrets"] = [{"name": n} for n in spec["imagePullSecrets"]]
    if spec.get("nodeSelector"):
        pod["nodeSelector"] = dict(sorted(spec["nodeSelector"].items()))
    if spec.get("priorityClassName"):
        pod["priorityClassName"] = spec["priorityClassName"]
    if spec.get("runtimeClassName"):
        pod["runtimeClassName"] = spec["runtimeClassName"]
    if spec.get("serviceAccountName"):
        pod["serviceAccountName"] = spec["serviceAccountName"]
    if spec.get("tolerations"):
        pod["tolerations"] = [dict(t) for t in spec["tolerations"]]
    for key in ("affinity", "topologySpreadConstraints"):
        if spec.get(key):
            pod[key] = copy.deepcopy(spec[key])
    context = copy.deepcopy(spec.get("podSecurityContext") or {})
    if ((spec.get("code") or {}).get("git") or {}).get("secret"):
        # git-sync runs as 65533 and reads the Secret's files: git-sync's own documented setup
        # (docs/ssh.md). OnRootMismatch: volumes already owned right are not walked again. Every
        # container gets the pod's fsGroup as a supplementary group, so one the spec sets stays.
        context.setdefault("fsGroup", GIT_SYNC_GROUP)
        context.setdefault("fsGroupChangePolicy", "OnRootMismatch")
    if context:
        pod["securityContext"] = context
    if spec.get("resourceClaims"):
        pod["resourceClaims"] = copy.deepcopy(spec["resourceClaims"])
    volumes = pod_volumes(spec)
    if volumes:
        pod["volumes"] = volumes
    return {"metadata": metadata, "spec": pod}


def pod_volumes(spec: dict[str, Any]) -> list[dict[str, Any]]:
    """The pod's volumes: each of ``spec.volumes`` (a claim or a node's folder written short, or any
    Kubernetes volume source as Kubernetes writes it), code sync's, ``/dev/shm``."""
    out = []
    for volume in spec["volumes"]:
        out.append(pod_volume(volume))
    code = spec.get("code")
    if code:
        out.append({"name": CODE_VOLUME, "emptyDir": {}})
        secret = (code.get("git") or {}).get("secret")
        if secret:
            out.append({"name": GIT_SECRET_VOLUME, "secret": {"secretName": secret, "defaultMode": 0o400}})
    if spec.get("shmSize") is not None:
        out.append({"name": SHM_VOLUME, "emptyDir": {"medium": "Memory", "sizeLimit": spec["shmSize"]}})
    return out


def pod_volume(volume: dict[str, Any]) -> dict[str, Any]:
    """One item of ``spec.volumes`` as the pod's volume."""
    out: dict[str, Any] = {"name": volume_name(volume)}
    if isinstance(volume.get("hostPath"), str):
        out["hostPath"] = {"path": volume["hostPath"]}
    elif "claimName" in volume:
        claim: dict[str, Any] = {"claimName": volume["claimName"]}
        if volume.get("readOnly"):
            claim["readOnly"] = True
        out["persistentVolumeClaim"] = claim
    for key, value in volume.items():
        if key not in ("name", "claimName", *VOLUME_MOUNT_FIELDS) and not (key == "hostPath" and isinstance(value, str)):
            out[key] = copy.deepcopy(value)
    return out


def sidecar(spec_container: dict[str, Any]) -> dict[str, Any]:
    """A sidecar: an init container that keeps running beside the training container (Kubernetes'
    native sidecar, ``restartPolicy: Always``)."""
    out = copy.deepcopy(spec_container)
    out["restartPolicy"] = "Always"
    return out


def init_containers(spec: dict[str, Any]) -> list[dict[str, Any]]:
    """The sidecars (which start first and keep running, so that what starts after them can use
    them), code sync's init container, then the spec's ``initContainers``."""
    return ([sidecar(c) for c in spec.get("sidecars") or []] + code_sync(spec)
            + copy.deepcopy(spec.get("initContainers") or []))


def code_sync(spec: dict[str, Any]) -> list[dict[str, Any]]:
    """Code sync's init container (``spec.code``), if any."""
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
