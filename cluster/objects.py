"""What the local cluster's components read, and the objects it starts with, as data.

Configuration comes from the pinned upstream modules themselves wherever they ship it (Volcano's
scheduler configuration, scheduler-plugins' Coscheduling example, kwok's stages, training-operator's
webhook rules, the CRDs of scripts/schema_sources.json) and is adapted only where the local cluster
must differ (loopback, paths, names), as each function says.
"""

from __future__ import annotations

import base64
import json
import shutil
from pathlib import Path

import yaml

from . import components

SCHEDULER_PLUGINS_NAME = "scheduler-plugins-scheduler"  # mpigen's default schedulerName for this gang

NODES = tuple(f"node-{i}" for i in range(4))
NODE_CAPACITY = {"cpu": "64", "memory": "512Gi", "nvidia.com/gpu": "8", "pods": "110"}
# Custom resource definitions from the same pins as schemas/ (scripts/schema_sources.json), plus
# the ones the Volcano and scheduler-plugins components watch.
VOLCANO_CRDS = ("volcano.sh/volcano", "v1.14.1", "config/crd/volcano/bases")
SCHEDULER_PLUGINS_CRDS = ("sigs.k8s.io/scheduler-plugins", "v0.33.5", "config/crd/bases")
KWOK = ("sigs.k8s.io/kwok", "v0.8.0")
KWOK_STAGES = ("node/fast/node-initialize.yaml", "node/heartbeat-with-lease/node-heartbeat-with-lease.yaml",
               "pod/fast/pod-ready.yaml", "pod/fast/pod-delete.yaml")
TRAINING_OPERATOR = ("github.com/kubeflow/training-operator", "v1.9.0")
FIXTURES = (components.ROOT / "specs" / "cluster" / "priorityclasses.yaml", components.ROOT / "cluster" / "fixtures.yaml")


# ------------------------------------------------------------------------------------------------
# files the components read


def kubeconfig_file(path: Path, server: str, certs: Path) -> None:
    config = {
        "apiVersion": "v1", "kind": "Config", "current-context": "mpigen-local",
        "clusters": [{"name": "mpigen-local", "cluster": {"server": server,
                                                          "certificate-authority": str(certs / "ca.crt")}}],
        "users": [{"name": "mpigen-admin", "user": {"client-certificate": str(certs / "admin.crt"),
                                                    "client-key": str(certs / "admin.key")}}],
        "contexts": [{"name": "mpigen-local", "context": {"cluster": "mpigen-local", "user": "mpigen-admin"}}],
    }
    path.write_text(json.dumps(config, indent=1))


def scheduler_plugins_config(path: Path, kubeconfig: Path) -> None:
    """scheduler-plugins' own Coscheduling example (manifests/coscheduling/scheduler-config.yaml)
    with this cluster's kubeconfig and the profile named as mpigen and the operators name it."""
    source = components.module_dir(*SCHEDULER_PLUGINS_CRDS[:2]) / "manifests/coscheduling/scheduler-config.yaml"
    config = yaml.safe_load(source.read_text())
    config["clientConnection"]["kubeconfig"] = str(kubeconfig)
    config["leaderElection"] = {"leaderElect": False}
    (profile,) = config["profiles"]
    profile["schedulerName"] = SCHEDULER_PLUGINS_NAME
    path.write_text(json.dumps(config, indent=1))


def volcano_config(path: Path) -> None:
    """Volcano's own scheduler configuration, as its Helm chart installs it."""
    source = components.module_dir(*VOLCANO_CRDS[:2]) / "installer/helm/chart/volcano/config/volcano-scheduler.conf"
    shutil.copyfile(source, path)


def kwok_config(path: Path) -> None:
    """kwok's own stages: nodes become Ready and keep a lease; a bound pod becomes Running; a
    deleted pod goes away. Pods are not completed: a job stays Running until it is deleted."""
    stages = components.module_dir(*KWOK) / "kustomize" / "stage"
    path.write_text("\n---\n".join((stages / s).read_text() for s in KWOK_STAGES))


# ------------------------------------------------------------------------------------------------
# objects the cluster starts with


def crd_files() -> list[Path]:
    """Every CRD file mpigen emits or reads (scripts/schema_sources.json) and the Volcano and
    scheduler-plugins CRDs their components watch."""
    sources = json.loads((components.ROOT / "scripts" / "schema_sources.json").read_text())["sources"]
    files = [components.module_dir(s["module"], s["version"]) / s["path"] for s in sources if s["format"] == "crd"]
    for module, version, folder in (VOLCANO_CRDS, SCHEDULER_PLUGINS_CRDS):
        files += sorted((components.module_dir(module, version) / folder).glob("*.yaml"))
    unique: dict[Path, None] = dict.fromkeys(files)
    return list(unique)


def crd_objects() -> list[dict]:
    objects = []
    for path in crd_files():
        for doc in yaml.safe_load_all(path.read_text()):
            if doc and doc.get("kind") == "CustomResourceDefinition":
                objects.append(crd_v1(doc))
    return objects


def crd_v1(crd: dict) -> dict:
    """An apiextensions.k8s.io/v1beta1 CRD (kube-batch v0.5.0's PodGroup) as the v1 API takes it
    (v1beta1 was removed in Kubernetes 1.22); a v1 CRD as it is. A v1beta1 schema that is not
    structural keeps unknown fields, as v1beta1 servers did."""
    if crd["apiVersion"] == "apiextensions.k8s.io/v1":
        return crd
    spec = dict(crd["spec"])
    schema = (spec.pop("validation", None) or {}).get("openAPIV3Schema") or {"type": "object"}
    schema = {**schema, "type": "object", "x-kubernetes-preserve-unknown-fields": True}
    versions = spec.pop("versions", None) or [{"name": spec.pop("version"), "served": True, "storage": True}]
    spec.pop("version", None)
    spec["versions"] = [{**v, "schema": {"openAPIV3Schema": schema}} for v in versions]
    for key in ("additionalPrinterColumns", "subresources"):
        spec.pop(key, None)
    spec.setdefault("scope", "Namespaced")
    metadata = {"name": crd["metadata"]["name"]}
    if crd["spec"]["group"].endswith(".k8s.io"):  # a protected group since v1 (KEP 1111)
        metadata["annotations"] = {"api-approved.kubernetes.io": "unapproved, kube-batch predates KEP 1111"}
    return {"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
            "metadata": metadata, "spec": spec}


def node(name: str) -> dict:
    return {
        "apiVersion": "v1", "kind": "Node",
        "metadata": {"name": name, "annotations": {"kwok.x-k8s.io/node": "fake"},
                     "labels": {"kubernetes.io/hostname": name, "kubernetes.io/os": "linux",
                                "kubernetes.io/arch": "amd64", "type": "kwok"}},
        "status": {"capacity": NODE_CAPACITY, "allocatable": NODE_CAPACITY},
    }


def volcano_queue(name: str) -> dict:
    return {"apiVersion": "scheduling.volcano.sh/v1beta1", "kind": "Queue", "metadata": {"name": name},
            "spec": {"weight": 1, "reclaimable": True}}


def webhook_configuration(port: int, certs: Path) -> dict:
    """training-operator v1.9.0's ValidatingWebhookConfiguration (manifests/base/webhook) for the
    two kinds this cluster runs, called by URL on the instance that serves it."""
    source = components.module_dir(*TRAINING_OPERATOR) / "manifests/base/webhook/manifests.yaml"
    (config,) = [d for d in yaml.safe_load_all(source.read_text()) if d]
    ca = base64.b64encode((certs / "ca.crt").read_bytes()).decode()
    hooks = []
    for hook in config["webhooks"]:
        if hook["rules"][0]["resources"][0] not in ("pytorchjobs", "tfjobs"):
            continue
        path = hook["clientConfig"]["service"]["path"]
        hooks.append({**hook, "clientConfig": {"url": f"https://127.0.0.1:{port}{path}", "caBundle": ca}})
    return {"apiVersion": config["apiVersion"], "kind": config["kind"],
            "metadata": {"name": "validator.training-operator.kubeflow.org"}, "webhooks": hooks}
