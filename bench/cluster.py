"""A GPU cluster as ``kubectl get nodes,pods -A -o json`` and ``-o yaml`` print it, for the
cluster-input benchmarks (``mpigen podgroup SPEC --cluster FILE``).

Deterministic (a seeded generator): Nodes of a few GPU shapes with their labels (the GPU
operator's and the cloud's), taints, conditions, addresses, cached images and managedFields;
Pods of training jobs, inference servers and daemons with several containers (env, mounts,
probes, requests and limits), owner references, tolerations, conditions and container statuses.
``-o json`` is one ``List`` with four-space indentation; ``-o yaml`` is the same List with the
keys sorted, block style, sequences at their key's indentation, as sigs.k8s.io/yaml prints it.

Usage: ``python -m bench.cluster NODES PODS OUT_PREFIX`` writes OUT_PREFIX.json and OUT_PREFIX.yaml.
"""

from __future__ import annotations

import json
import random
import re
import sys
from pathlib import Path
from typing import Any, Iterator, TextIO

SHAPES = [  # (instance type, GPU product, GPUs, CPUs, memory in Ki)
    ("p4d.24xlarge", "NVIDIA-A100-SXM4-40GB", 8, 96, 1176305080),
    ("p5.48xlarge", "NVIDIA-H100-80GB-HBM3", 8, 192, 2097152000),
    ("g5.12xlarge", "NVIDIA-A10G", 4, 48, 195784088),
    ("m6i.8xlarge", None, 0, 32, 130393860),
]
ZONES = ["us-east-1a", "us-east-1b", "us-east-1c"]
CREATED = "2026-10-{day:02d}T{hour:02d}:{minute:02d}:{second:02d}Z"


def _time(rng: random.Random) -> str:
    return CREATED.format(day=rng.randint(1, 28), hour=rng.randint(0, 23), minute=rng.randint(0, 59),
                          second=rng.randint(0, 59))


def _uid(rng: random.Random) -> str:
    h = f"{rng.getrandbits(128):032x}"
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


def node(i: int, rng: random.Random) -> dict[str, Any]:
    itype, product, gpus, cpus, memory = SHAPES[i % len(SHAPES)] if i % 10 else SHAPES[3]
    zone = ZONES[i % len(ZONES)]
    name = f"ip-10-{i // 65536 % 256}-{i // 256 % 256}-{i % 256}.ec2.internal"
    labels = {
        "beta.kubernetes.io/arch": "amd64", "beta.kubernetes.io/instance-type": itype, "beta.kubernetes.io/os": "linux",
        "kubernetes.io/arch": "amd64", "kubernetes.io/hostname": name, "kubernetes.io/os": "linux",
        "node.kubernetes.io/instance-type": itype, "topology.kubernetes.io/region": "us-east-1",
        "topology.kubernetes.io/zone": zone, "eks.amazonaws.com/nodegroup": f"ng-{itype.split('.')[0]}-{i % 4}",
        "eks.amazonaws.com/capacityType": "ON_DEMAND" if i % 3 else "SPOT",
    }
    allocatable = {"cpu": f"{cpus * 1000 - 190}m", "ephemeral-storage": "95491281146",
                   "hugepages-1Gi": "0", "hugepages-2Mi": "0", "memory": f"{memory - 8000000}Ki", "pods": "110"}
    capacity = {"cpu": str(cpus), "ephemeral-storage": "104845292Ki", "hugepages-1Gi": "0", "hugepages-2Mi": "0",
                "memory": f"{memory}Ki", "pods": "110"}
    taints = []
    if gpus:
        labels.update({"nvidia.com/gpu.present": "true", "nvidia.com/gpu.product": product,
                       "nvidia.com/gpu.count": str(gpus), "nvidia.com/gpu.memory": "81559" if "H100" in product
                       else "40960", "nvidia.com/cuda.driver.major": "550", "nvidia.com/mig.strategy": "single"})
        allocatable["nvidia.com/gpu"] = capacity["nvidia.com/gpu"] = str(gpus)
        allocatable["vpc.amazonaws.com/efa"] = capacity["vpc.amazonaws.com/efa"] = "4"
        taints.append({"effect": "NoSchedule", "key": "nvidia.com/gpu", "value": "present"})
    if i % 97 == 0:
        taints.append({"effect": "NoSchedule", "key": "node.kubernetes.io/unschedulable", "timeAdded": _time(rng)})
    beat = _time(rng)
    conditions = [{"lastHeartbeatTime": beat, "lastTransitionTime": _time(rng), "message": message,
                   "reason": reason, "status": status, "type": kind}
                  for kind, status, reason, message in (
                      ("MemoryPressure", "False", "KubeletHasSufficientMemory", "kubelet has sufficient memory available"),
                      ("DiskPressure", "False", "KubeletHasNoDiskPressure", "kubelet has no disk pressure"),
                      ("PIDPressure", "False", "KubeletHasSufficientPID", "kubelet has sufficient PID available"),
                      ("Ready", "True", "KubeletReady", "kubelet is posting ready status"))]
    images = [{"names": [f"nvcr.io/nvidia/{repo}@sha256:{rng.getrandbits(256):064x}", f"nvcr.io/nvidia/{repo}:{tag}"],
               "sizeBytes": rng.randint(50_000_000, 12_000_000_000)}
              for repo, tag in (("pytorch", "24.08-py3"), ("tensorflow", "24.08-tf2-py3"), ("k8s-device-plugin", "v0.16.2"),
                                ("dcgm-exporter", "3.3.7-3.5.0-ubuntu22.04"), ("gpu-operator", "v24.6.1"))[:3 + i % 3]]
    obj = {
        "apiVersion": "v1", "kind": "Node",
        "metadata": {
            "annotations": {"alpha.kubernetes.io/provided-node-ip": f"10.0.{i // 256 % 256}.{i % 256}",
                            "node.alpha.kubernetes.io/ttl": "0",
                            "volumes.kubernetes.io/controller-managed-attach-detach": "true"},
            "creationTimestamp": _time(rng), "labels": labels,
            "managedFields": [{"apiVersion": "v1", "fieldsType": "FieldsV1", "fieldsV1": {
                "f:metadata": {"f:labels": {f"f:{k}": {} for k in list(labels)[:6]}}},
                "manager": "kubelet", "operation": "Update", "time": beat}],
            "name": name, "resourceVersion": str(rng.randint(10**6, 10**9)), "uid": _uid(rng)},
        "spec": {"providerID": f"aws:///{zone}/i-{rng.getrandbits(64):017x}"},
        "status": {
            "addresses": [{"address": f"10.0.{i // 256 % 256}.{i % 256}", "type": "InternalIP"},
                          {"address": name, "type": "Hostname"}],
            "allocatable": allocatable, "capacity": capacity, "conditions": conditions,
            "daemonEndpoints": {"kubeletEndpoint": {"Port": 10250}}, "images": images,
            "nodeInfo": {"architecture": "amd64", "bootID": _uid(rng), "containerRuntimeVersion": "containerd://1.7.22",
                         "kernelVersion": "5.10.225-213.878.amzn2.x86_64", "kubeProxyVersion": "v1.31.0-eks-a737599",
                         "kubeletVersion": "v1.31.0-eks-a737599", "machineID": f"{rng.getrandbits(128):032x}",
                         "operatingSystem": "linux", "osImage": "Amazon Linux 2", "systemUUID": _uid(rng)}},
    }
    if taints:
        obj["spec"]["taints"] = taints
    if i % 97 == 0:
        obj["spec"]["unschedulable"] = True
    return obj


def _container(name: str, image: str, rng: random.Random, gpus: int, cpu: str, memory: str,
               main: bool = True) -> dict[str, Any]:
    """A container; a sidecar (not ``main``) without environment, ports and probe."""
    resources: dict[str, Any] = {"limits": {"cpu": cpu, "memory": memory}, "requests": {"cpu": cpu, "memory": memory}}
    if gpus:
        resources["limits"]["nvidia.com/gpu"] = resources["requests"]["nvidia.com/gpu"] = str(gpus)
    out: dict[str, Any] = {
        "image": image, "imagePullPolicy": "IfNotPresent", "name": name, "resources": resources,
        "terminationMessagePath": "/dev/termination-log", "terminationMessagePolicy": "File",
        "volumeMounts": [{"mountPath": "/var/run/secrets/kubernetes.io/serviceaccount",
                          "name": f"kube-api-access-{rng.getrandbits(20):05x}", "readOnly": True}],
    }
    if main:
        out["env"] = [{"name": "NCCL_DEBUG", "value": "WARN"},
                      {"name": "POD_NAME", "valueFrom": {"fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.name"}}}]
        out["ports"] = [{"containerPort": 8080 + rng.randint(0, 9), "name": "metrics", "protocol": "TCP"}]
        out["readinessProbe"] = {"httpGet": {"path": "/healthz", "port": 8080, "scheme": "HTTP"}, "periodSeconds": 10}
        out["volumeMounts"].insert(0, {"mountPath": "/dev/shm", "name": "dshm"})
    return out


def pod(i: int, rng: random.Random, nodes: int) -> dict[str, Any]:
    kind = ("training", "training", "training", "inference", "daemon")[i % 5]
    gpus = {"training": 8, "inference": 1, "daemon": 0}[kind]
    namespace = f"team-{i % 23}" if kind != "daemon" else "kube-system"
    job = f"{kind}-{i // 16}"
    name = f"{job}-worker-{i % 16}" if kind == "training" else f"{job}-{rng.getrandbits(40):010x}"
    phase = "Succeeded" if i % 41 == 0 else "Pending" if i % 53 == 0 else "Running"
    node_index = rng.randrange(nodes)
    node_name = f"ip-10-{node_index // 65536 % 256}-{node_index // 256 % 256}-{node_index % 256}.ec2.internal"
    main = _container("pytorch" if kind == "training" else "server" if kind == "inference" else "agent",
                      "nvcr.io/nvidia/pytorch:24.08-py3" if gpus else "public.ecr.aws/eks/aws-node:v1.18.3",
                      rng, gpus, "90" if gpus == 8 else "8" if gpus else "100m", "900Gi" if gpus == 8 else "60Gi" if gpus
                      else "128Mi")
    containers = [main, _container("log-shipper", "fluent/fluent-bit:3.1.4", rng, 0, "50m", "64Mi", False)]
    if kind != "daemon":
        containers.append(_container("istio-proxy", "docker.io/istio/proxyv2:1.23.0", rng, 0, "100m", "128Mi", False))
    started = _time(rng)
    annotations = {"kubectl.kubernetes.io/default-container": main["name"]}
    if kind == "training":
        annotations["scheduling.k8s.io/group-name"] = job
    obj = {
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {
            "annotations": annotations, "creationTimestamp": started,
            "labels": {"app.kubernetes.io/name": kind, "training.kubeflow.org/job-name": job,
                       "training.kubeflow.org/replica-index": str(i % 16)},
            "name": name, "namespace": namespace,
            "ownerReferences": [{"apiVersion": "kubeflow.org/v1", "blockOwnerDeletion": True, "controller": True,
                                 "kind": "PyTorchJob" if kind == "training" else "ReplicaSet", "name": job,
                                 "uid": _uid(rng)}],
            "resourceVersion": str(rng.randint(10**6, 10**9)), "uid": _uid(rng)},
        "spec": {
            "containers": containers, "dnsPolicy": "ClusterFirst", "enableServiceLinks": True,
            "nodeName": node_name, "preemptionPolicy": "PreemptLowerPriority",
            "priority": 1000 if kind == "training" else 0, "restartPolicy": "Never" if kind == "training" else "Always",
            "schedulerName": "volcano" if kind == "training" else "default-scheduler",
            "securityContext": {}, "serviceAccountName": "default", "terminationGracePeriodSeconds": 30,
            "tolerations": [{"effect": "NoSchedule", "key": "nvidia.com/gpu", "operator": "Exists"},
                            {"effect": "NoExecute", "key": "node.kubernetes.io/not-ready", "operator": "Exists",
                             "tolerationSeconds": 300}],
            "volumes": [{"emptyDir": {"medium": "Memory", "sizeLimit": "64Gi"}, "name": "dshm"}]},
        "status": {
            "conditions": [{"lastProbeTime": None, "lastTransitionTime": started, "status": "True", "type": kind}
                           for kind in ("Initialized", "Ready", "ContainersReady", "PodScheduled")],
            "containerStatuses": [{"containerID": f"containerd://{rng.getrandbits(256):064x}", "image": c["image"],
                                   "lastState": {}, "name": c["name"], "ready": True, "restartCount": 0,
                                   "started": True, "state": {"running": {"startedAt": started}}}
                                  for c in containers],
            "hostIP": f"10.0.{node_index // 256 % 256}.{node_index % 256}", "phase": phase,
            "podIP": f"10.1.{i // 256 % 256}.{i % 256}", "qosClass": "Guaranteed", "startTime": started},
    }
    if kind == "training":
        obj["spec"]["priorityClassName"] = "training-high"
    return obj


def objects(nodes: int, pods: int, seed: int = 0) -> Iterator[dict[str, Any]]:
    """The Nodes, then the Pods (as ``kubectl get nodes,pods -A`` lists them), deterministic."""
    rng = random.Random(seed)
    for i in range(nodes):
        yield node(i, rng)
    for i in range(pods):
        yield pod(i, rng, nodes)


# A string printed plain by sigs.k8s.io/yaml: one that YAML 1.1 reads back as the same string.
_PLAIN = re.compile(r"[A-Za-z/][A-Za-z0-9_./@-]*(?:[ :][A-Za-z0-9_./@-]+)*")
_WORDS = {"y", "n", "yes", "no", "on", "off", "true", "false", "null"}


def _scalar(value: Any) -> str:
    if value is None:
        return "null"
    if value is True or value is False:
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return json.dumps(value)
    if _PLAIN.fullmatch(value) and value.lower() not in _WORDS and ": " not in value:
        return value
    return json.dumps(value)  # a JSON string is a YAML double-quoted scalar


def _yaml(value: Any, indent: str, out: list[str]) -> None:
    """``value`` (a mapping or a sequence) in block style, one line per scalar."""
    if isinstance(value, dict):
        for key in sorted(value):
            item = value[key]
            head = f"{indent}{_scalar(key)}:"
            if isinstance(item, dict) and item:
                out.append(head + "\n")
                _yaml(item, indent + "  ", out)
            elif isinstance(item, list) and item:
                out.append(head + "\n")
                _yaml(item, indent, out)
            else:
                out.append(f"{head} {'{}' if item == {} else '[]' if item == [] else _scalar(item)}\n")
        return
    for item in value:
        if isinstance(item, (dict, list)) and item:
            lines: list[str] = []
            _yaml(item, indent + "  ", lines)
            first = lines[0]
            out.append(f"{indent}- {first[len(indent) + 2:]}")
            out.extend(lines[1:])
        else:
            out.append(f"{indent}- {'{}' if item == {} else '[]' if item == [] else _scalar(item)}\n")


def write_json(out: TextIO, nodes: int, pods: int, seed: int = 0) -> None:
    """kubectl's ``-o json`` of the List, written an item at a time (four-space indentation)."""
    out.write('{\n    "apiVersion": "v1",\n    "items": [\n')
    for n, obj in enumerate(objects(nodes, pods, seed)):
        text = json.dumps(obj, indent=4)
        out.write(("" if n == 0 else ",\n") + "\n".join("        " + line for line in text.split("\n")))
    out.write('\n    ],\n    "kind": "List",\n    "metadata": {\n        "resourceVersion": ""\n    }\n}\n')


def write_yaml(out: TextIO, nodes: int, pods: int, seed: int = 0) -> None:
    """kubectl's ``-o yaml`` of the List, written an item at a time."""
    out.write("apiVersion: v1\nitems:\n")
    for obj in objects(nodes, pods, seed):
        lines: list[str] = []
        _yaml([obj], "", lines)
        out.write("".join(lines))
    out.write('kind: List\nmetadata:\n  resourceVersion: ""\n')


def write_cluster(prefix: Path, nodes: int, pods: int, seed: int = 0) -> tuple[Path, Path]:
    """PREFIX.json and PREFIX.yaml: the same cluster in kubectl's two formats."""
    paths = prefix.with_suffix(".json"), prefix.with_suffix(".yaml")
    with paths[0].open("w") as out:
        write_json(out, nodes, pods, seed)
    with paths[1].open("w") as out:
        write_yaml(out, nodes, pods, seed)
    return paths


if __name__ == "__main__":
    write_cluster(Path(sys.argv[3]), int(sys.argv[1]), int(sys.argv[2]))
