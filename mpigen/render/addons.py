"""Objects beside the job: the TensorBoard Deployment and Service (``spec.tensorboard``).

TensorBoard reads the job's log directory from the volume the training pods write it to: the
volume of ``spec.volumes`` whose mountPath holds ``tensorboard.logDir`` is mounted read-only at
the same path, so the path means the same in both. A PersistentVolumeClaim is shared by every
pod that mounts it; a hostPath is only the folder of the node TensorBoard lands on (arena's
default, which the check stage warns about).
"""

from __future__ import annotations

from typing import Any

from ..names import log_volume, volume_name
from .pods import pod_volume

NAME_LABEL = "app.kubernetes.io/name"
INSTANCE_LABEL = "app.kubernetes.io/instance"
MANAGED_BY_LABEL = "app.kubernetes.io/managed-by"


def tensorboard_objects(metadata: dict[str, Any], spec: dict[str, Any]) -> list[dict[str, Any]]:
    board = spec["tensorboard"]
    volume = log_volume(spec)
    name = f"{metadata['name']}-tensorboard"
    selector = {INSTANCE_LABEL: metadata["name"], NAME_LABEL: "tensorboard"}
    labels = dict(sorted({**(metadata.get("labels") or {}), **selector, MANAGED_BY_LABEL: "mpigen"}.items()))
    meta: dict[str, Any] = {"name": name}
    if metadata.get("namespace"):
        meta["namespace"] = metadata["namespace"]
    meta["labels"] = labels

    mount: dict[str, Any] = {"name": volume_name(volume), "mountPath": volume["mountPath"], "readOnly": True}
    if volume.get("subPath"):
        mount["subPath"] = volume["subPath"]
    source = pod_volume(volume)
    if "persistentVolumeClaim" in source:
        source["persistentVolumeClaim"]["readOnly"] = True
    container: dict[str, Any] = {
        "name": "tensorboard",
        "image": board["image"],
        "command": ["tensorboard", "--logdir", board["logDir"], "--host", "0.0.0.0", "--port", str(board["port"])],
        "ports": [{"containerPort": board["port"], "name": "http"}],
        "readinessProbe": {"httpGet": {"path": "/", "port": "http"}},
        "volumeMounts": [mount],
    }
    pod: dict[str, Any] = {"containers": [container]}
    if spec.get("imagePullSecrets"):
        pod["imagePullSecrets"] = [{"name": n} for n in spec["imagePullSecrets"]]
    pod["volumes"] = [source]
    deployment = {
        "apiVersion": "apps/v1", "kind": "Deployment", "metadata": meta,
        "spec": {"replicas": 1, "selector": {"matchLabels": selector},
                 "template": {"metadata": {"labels": labels}, "spec": pod}},
    }
    service = {
        "apiVersion": "v1", "kind": "Service", "metadata": dict(meta),
        "spec": {"type": board["serviceType"], "selector": selector,
                 "ports": [{"name": "http", "port": board["port"], "targetPort": "http"}]},
    }
    return [deployment, service]
