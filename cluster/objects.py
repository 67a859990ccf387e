"""What the local cluster's components read, and the objects it starts with, as data.

Configuration comes from the pinned upstream modules themselves wherever they ship it (Volcano's
scheduler configuration, scheduler-plugins' Coscheduling example, kwok's stages, training-operator's
webhook rules, Kubeflow Trainer's and JobSet's manager configurations and webhook manifests, the CRDs
of scripts/schema_sources.json) and is adapted only where the local cluster must differ (loopback,
paths, names), as each function says.
"""

from __future__ import annotations

import base64
import json
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import yaml

from . import components

SCHEDULER_PLUGINS_NAME = "scheduler-plugins-scheduler"  # mpigen's default schedulerName for this gang

NODES = tuple(f"node-{i}" for i in range(4))
NODE_CAPACITY = {"cpu": "64", "memory": "512Gi", "nvidia.com/gpu": "8", "pods": "110"}
# Custom resource definitions from the same pins as schemas/ (scripts/schema_sources.json), plus
# the ones the Volcano and scheduler-plugins components watch.
VOLCANO_CRDS = ("volcano.sh/volcano", components.version("volcano"), "config/crd/volcano/bases")
SCHEDULER_PLUGINS_CRDS = ("sigs.k8s.io/scheduler-plugins", "v0.33.5", "config/crd/bases")
KWOK = ("sigs.k8s.io/kwok", "v0.8.0")
KWOK_STAGES = ("node/fast/node-initialize.yaml", "node/heartbeat-with-lease/node-heartbeat-with-lease.yaml",
               "pod/fast/pod-ready.yaml", "pod/fast/pod-delete.yaml")
TRAINING_OPERATOR = ("github.com/kubeflow/training-operator", components.version("training-operator"))
TRAINER = ("github.com/kubeflow/trainer/v2", "v2.3.0")
JOBSET = ("sigs.k8s.io/jobset", "v0.12.0")
KUEUE = ("sigs.k8s.io/kueue", components.version("kueue"))
# The one namespace whose jobs Kueue manages, and the namespace of its own objects (config/default's).
KUEUE_NAMESPACE = "kueue"
KUEUE_SYSTEM_NAMESPACE = "kueue-system"
# The integrations the local cluster turns on: the jobs mpigen writes and what a TrainJob creates.
KUEUE_FRAMEWORKS = ("kubeflow.org/mpijob", "kubeflow.org/pytorchjob", "kubeflow.org/tfjob",
                    "jobset.x-k8s.io/jobset", "trainer.kubeflow.org/trainjob")
# Trainer's default ClusterTrainingRuntimes as `make schemas` builds them from the release
# (manifests/base/runtimes, with the pinned `kubectl kustomize`).
TRAINER_RUNTIMES = components.ROOT / "mpigen" / "data" / "trainer" / "v2.3.0" / "runtimes.json"
FIXTURES = (components.ROOT / "specs" / "cluster" / "priorityclasses.yaml", components.ROOT / "cluster" / "fixtures.yaml")
KUEUE_FIXTURES = components.ROOT / "cluster" / "kueue.yaml"


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
    with this cluster's kubeconfig and the profile named as mpigen and the operators name it, and
    CapacityScheduling (ElasticQuota) enabled beside Coscheduling in that profile, as the release's
    Helm chart (manifests/install/charts/as-a-second-scheduler) composes them; a namespace without
    an ElasticQuota is not limited by it."""
    source = components.module_dir(*SCHEDULER_PLUGINS_CRDS[:2]) / "manifests/coscheduling/scheduler-config.yaml"
    config = yaml.safe_load(source.read_text())
    config["clientConnection"]["kubeconfig"] = str(kubeconfig)
    config["leaderElection"] = {"leaderElect": False}
    (profile,) = config["profiles"]
    profile["schedulerName"] = SCHEDULER_PLUGINS_NAME
    profile["plugins"]["multiPoint"]["enabled"].append({"name": "CapacityScheduling"})
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
    """Every CRD file mpigen emits or reads (scripts/schema_sources.json) and the other Volcano and
    scheduler-plugins CRDs their components watch. Where a component's folder has a file of the
    same name as a schema pin (Volcano's PodGroup and Queue), the pin's is taken."""
    sources = json.loads((components.ROOT / "scripts" / "schema_sources.json").read_text())["sources"]
    files = [components.module_dir(s["module"], s["version"]) / s["path"] for s in sources if s["format"] == "crd"]
    pinned = {path.name for path in files}
    for module, version, folder in (VOLCANO_CRDS, SCHEDULER_PLUGINS_CRDS):
        files += [path for path in sorted((components.module_dir(module, version) / folder).glob("*.yaml"))
                  if path.name not in pinned]
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


GPU_PRODUCT_LABEL = "nvidia.com/gpu.product"
GPU_PRODUCT = "NVIDIA-H100-80GB-HBM3"
INSTANCE_TYPE_LABEL = "node.kubernetes.io/instance-type"
ZONE_LABEL = "topology.kubernetes.io/zone"


def node(name: str) -> dict:
    # the GPU product as NVIDIA's GPU feature discovery labels a node (the specs select on it)
    return _kwok_node(name, {GPU_PRODUCT_LABEL: GPU_PRODUCT}, NODE_CAPACITY)


def _kwok_node(name: str, labels: dict[str, str], capacity: dict[str, str], taints: tuple[str, ...] = ()) -> dict:
    """A Node kwok runs (its annotation), with LABELS after the common ones and TAINTS (KEY=VALUE:EFFECT)."""
    obj = {
        "apiVersion": "v1", "kind": "Node",
        "metadata": {"name": name, "annotations": {"kwok.x-k8s.io/node": "fake"},
                     "labels": {"kubernetes.io/hostname": name, "kubernetes.io/os": "linux",
                                "kubernetes.io/arch": "amd64", "type": "kwok", **labels}},
        "status": {"capacity": capacity, "allocatable": capacity},
    }
    if taints:
        obj["spec"] = {"taints": [_taint(t) for t in taints]}
    return obj


# The production node pools the production specs (specs/horovod-infiniband.yaml,
# specs/pytorch-spread.yaml) are written for, beside node-0..node-3 and apart from them: a CPU node
# for launchers and four InfiniBand GPU nodes with an RDMA device resource, in two zones. Each pool
# is tainted `dedicated=<pool>:NoSchedule` (the GPU nodes `nvidia.com/gpu=present:NoSchedule` too,
# as GPU node pools are), so that only a pod that tolerates the pool lands there: every other job
# (the goldens, the gang tests, explain's first-fit placements) sees node-0..node-3 as before.
# The CPU node is in zone-a: a node with the zone label is a domain of a zone spread constraint
# even where its taint keeps the pods off (nodeTaintsPolicy: Ignore, the default), so a third zone
# holding no GPU node would leave a spread of maxSkew 1 room for one pod per zone.
@dataclass(frozen=True)
class PoolNode:
    name: str
    zone: str
    labels: dict[str, str]
    taints: tuple[str, ...]  # KEY=VALUE:EFFECT
    capacity: dict[str, str]


RDMA_RESOURCE = "rdma/hca"
CPU_POOL, GPU_POOL = "cpu", "gpu-training"
CPU_NODE_CAPACITY = {"cpu": "64", "memory": "256Gi", "pods": "110"}
GPU_NODE_CAPACITY = {"cpu": "64", "memory": "512Gi", "nvidia.com/gpu": "8", RDMA_RESOURCE: "1", "pods": "110"}
POOL_NODES = (
    PoolNode("cpu-0", "zone-a", {INSTANCE_TYPE_LABEL: "cpu"}, (f"dedicated={CPU_POOL}:NoSchedule",),
             CPU_NODE_CAPACITY),
    *(PoolNode(f"gpu-{i}", zone, {INSTANCE_TYPE_LABEL: "gpu", GPU_PRODUCT_LABEL: GPU_PRODUCT},
               (f"dedicated={GPU_POOL}:NoSchedule", "nvidia.com/gpu=present:NoSchedule"), GPU_NODE_CAPACITY)
      for i, zone in enumerate(("zone-a", "zone-a", "zone-b", "zone-b"))),
)
ALL_NODES = NODES + tuple(n.name for n in POOL_NODES)


def _taint(text: str) -> dict:
    key_value, effect = text.rsplit(":", 1)
    key, value = key_value.split("=", 1)
    return {"key": key, "value": value, "effect": effect}


def pool_node(spec: PoolNode) -> dict:
    return _kwok_node(spec.name, {ZONE_LABEL: spec.zone, **spec.labels}, spec.capacity, spec.taints)


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


# ------------------------------------------------------------------------------------------------
# Kubeflow Trainer v2.3.0 and JobSet v0.12.0


def trainer_config(path: Path, webhook_port: int, probe_port: int) -> None:
    """Trainer's own manager configuration (manifests/base/manager/controller_manager_config.yaml),
    adapted to the local cluster: the webhook server on 127.0.0.1 (its certificate is the one
    `make cluster` made, read from the controller-runtime default folder under the process's
    TMPDIR: certManagement, which writes a certificate for the in-cluster Service into a Secret,
    is off), the health probes on 127.0.0.1, no metrics server, no leader election. The status
    server stays off, as the release leaves it (feature gate TrainJobStatus, alpha, default off)."""
    source = components.module_dir(*TRAINER) / "manifests/base/manager/controller_manager_config.yaml"
    config = yaml.safe_load(source.read_text())
    config["health"]["healthProbeBindAddress"] = f"127.0.0.1:{probe_port}"
    config["metrics"] = {"bindAddress": "0"}
    config["webhook"] = {"host": "127.0.0.1", "port": webhook_port}
    config["leaderElection"] = {"leaderElect": False}
    config["certManagement"] = {"enable": False}
    path.write_text(json.dumps(config, indent=1))


def jobset_config(path: Path, webhook_port: int, probe_port: int, cert_dir: Path) -> None:
    """JobSet's own manager configuration (config/components/manager/controller_manager_config.yaml),
    adapted as Trainer's: webhook server on 127.0.0.1 with the certificate `make cluster` made
    (internalCertManagement off), probes on 127.0.0.1, no metrics server, no leader election."""
    source = components.module_dir(*JOBSET) / "config/components/manager/controller_manager_config.yaml"
    config = yaml.safe_load(source.read_text())
    config["leaderElection"] = {"leaderElect": False}
    config["internalCertManagement"] = {"enable": False}
    config["webhook"] = {"host": "127.0.0.1", "port": webhook_port, "certDir": str(cert_dir)}
    config["health"] = {"healthProbeBindAddress": f"127.0.0.1:{probe_port}"}
    config["metrics"] = {"bindAddress": "0"}
    path.write_text(json.dumps(config, indent=1))


def _kustomized_webhooks(folder: Path, port: int, certs: Path, prefix: str = "") -> list[dict]:
    """The webhook configurations `kubectl kustomize FOLDER` renders from a release's own
    manifests, each webhook called by URL on 127.0.0.1:PORT (the same path the release's Service
    would route to) with the cluster's CA; PREFIX is the namePrefix the release's default overlay
    adds."""
    rendered = subprocess.run(["kubectl", "kustomize", str(folder)], capture_output=True, text=True, check=True)
    ca = base64.b64encode((certs / "ca.crt").read_bytes()).decode()
    configs = []
    for doc in yaml.safe_load_all(rendered.stdout):
        if not doc or doc.get("kind") not in ("MutatingWebhookConfiguration", "ValidatingWebhookConfiguration"):
            continue
        hooks = [{**hook, "clientConfig": {"url": f"https://127.0.0.1:{port}{hook['clientConfig']['service']['path']}",
                                           "caBundle": ca}} for hook in doc["webhooks"]]
        configs.append({"apiVersion": doc["apiVersion"], "kind": doc["kind"],
                        "metadata": {"name": prefix + doc["metadata"]["name"]}, "webhooks": hooks})
    return configs


def trainer_webhooks(port: int, certs: Path) -> list[dict]:
    """Trainer v2.3.0's defaulter.trainer.kubeflow.org (TrainJob) and validator.trainer.kubeflow.org
    (TrainJob, TrainingRuntime, ClusterTrainingRuntime; the runtimes' objectSelector skips those
    labelled trainer.kubeflow.org/webhook-validation: disabled), as manifests/base/webhook renders."""
    return _kustomized_webhooks(components.module_dir(*TRAINER) / "manifests/base/webhook", port, certs)


def jobset_webhooks(port: int, certs: Path) -> list[dict]:
    """JobSet v0.12.0's mutating and validating webhooks (JobSet, and the Pods of a JobSet), as
    config/components/webhook renders them, named as the release's config/default (namePrefix
    jobset-) names them."""
    return _kustomized_webhooks(components.module_dir(*JOBSET) / "config/components/webhook", port, certs, "jobset-")


# ------------------------------------------------------------------------------------------------
# Kueue v0.19.2


def _only_kueue_namespace() -> dict:
    return {"matchExpressions": [{"key": "kubernetes.io/metadata.name", "operator": "In",
                                  "values": [KUEUE_NAMESPACE]}]}


def kueue_config(path: Path, webhook_port: int, probe_port: int, cert_dir: Path) -> None:
    """Kueue's own manager configuration (config/components/manager/controller_manager_config.yaml),
    adapted as JobSet's (webhook server on 127.0.0.1 with the certificate `make cluster` made,
    internalCertManagement off, probes on 127.0.0.1, no metrics server, no leader election), with:
    the integrations of KUEUE_FRAMEWORKS only; jobs managed in the namespace ``kueue`` only
    (managedJobsNamespaceSelector; the release's default is every namespace but kube-system and
    kueue-system), so that the other namespaces run as they did before Kueue; the visibility
    server off (feature gate VisibilityOnDemand: it listens on every address and serves an
    APIService the local cluster does not register)."""
    source = components.module_dir(*KUEUE) / "config/components/manager/controller_manager_config.yaml"
    config = yaml.safe_load(source.read_text())
    config["namespace"] = KUEUE_SYSTEM_NAMESPACE
    config["leaderElection"] = {"leaderElect": False}
    config["internalCertManagement"] = {"enable": False}
    config["webhook"] = {"host": "127.0.0.1", "port": webhook_port, "certDir": str(cert_dir)}
    config["health"] = {"healthProbeBindAddress": f"127.0.0.1:{probe_port}"}
    config["metrics"] = {"bindAddress": "0"}
    config["integrations"] = {"frameworks": list(KUEUE_FRAMEWORKS)}
    config["managedJobsNamespaceSelector"] = _only_kueue_namespace()
    config["featureGates"] = {"VisibilityOnDemand": False}
    path.write_text(json.dumps(config, indent=1))


def kueue_crds(port: int, certs: Path) -> list[dict]:
    """Kueue's CRDs as config/components/crd renders them (its v1beta1 <-> v1beta2 conversion
    webhooks on), each conversion webhook called by URL on 127.0.0.1:PORT with the cluster's CA."""
    rendered = subprocess.run(["kubectl", "kustomize", str(components.module_dir(*KUEUE) / "config/components/crd")],
                              capture_output=True, text=True, check=True)
    ca = base64.b64encode((certs / "ca.crt").read_bytes()).decode()
    crds = []
    for doc in yaml.safe_load_all(rendered.stdout):
        if not doc or doc.get("kind") != "CustomResourceDefinition":
            continue
        webhook = doc["spec"].get("conversion", {}).get("webhook")
        if webhook:
            path = webhook["clientConfig"]["service"]["path"]
            webhook["clientConfig"] = {"url": f"https://127.0.0.1:{port}{path}", "caBundle": ca}
        crds.append(doc)
    return crds


def kueue_webhooks(port: int, certs: Path) -> list[dict]:
    """Kueue v0.19.2's mutating and validating webhooks (config/components/webhook, named as
    config/default's namePrefix kueue- names them): those of Kueue's own kinds and of the
    integrations KUEUE_FRAMEWORKS; the job webhooks select the namespace ``kueue`` only, as the
    manager's managedJobsNamespaceSelector does (kueue_config). The webhooks of integrations left
    off are left out: their handlers are not served, and a webhook that fails would refuse every
    Pod, Deployment or batch Job of the cluster."""
    groups = {"kueue.x-k8s.io"} | {framework.split("/")[0] for framework in KUEUE_FRAMEWORKS}
    kinds = {framework.split("/")[1] + "s" for framework in KUEUE_FRAMEWORKS}
    configs = []
    for config in _kustomized_webhooks(components.module_dir(*KUEUE) / "config/components/webhook", port, certs,
                                       "kueue-"):
        hooks = []
        for hook in config["webhooks"]:
            rule = hook["rules"][0]
            if rule["apiGroups"][0] == "kueue.x-k8s.io":
                hooks.append(hook)
            elif rule["apiGroups"][0] in groups and rule["resources"][0] in kinds:
                hooks.append({**hook, "namespaceSelector": _only_kueue_namespace()})
        configs.append({**config, "webhooks": hooks})
    return configs


def trainer_runtimes() -> list[dict]:
    """Trainer v2.3.0's default ClusterTrainingRuntimes (torch-distributed, deepspeed-distributed, ...)."""
    return json.loads(TRAINER_RUNTIMES.read_text())["items"]


def webhook_paths(configs: list[dict]) -> list[str]:
    """The URL of every webhook of CONFIGS."""
    return [hook["clientConfig"]["url"] for config in configs for hook in config["webhooks"]]
