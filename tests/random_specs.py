"""Seeded random *valid* mpigen specs, for end-to-end and property tests.

``random_spec(rng)`` draws one TrainingJob document as Python data, ``random_specs(seed, count)``
draws ``count`` of them with distinct job names, ``spec_yaml(doc)`` writes one as YAML. Only a plain
``random.Random`` is used: a seed gives the same specs from a test or from a script.

Realistic jobs dominate: mpi 50 % (OpenMPI, often implicit, 60 %, Intel and MPICH 20 % each),
pytorch 30 %, tensorflow 20 %; workers mostly 1, 2, 4 or 8, a fifth in 1..64, 2 % 1000 or 10000 (an
MPI job at most 2000: its hostfile ConfigMap stays within 1 MiB), 0 at times where allowed; gang
none and volcano 27 % each, scheduler-plugins and kueue 18 %, kube-batch 9 %, with only the fields the gang takes (minAvailable in 1..pods; an explicit
minResources is the exact sum the operator computes). Optional fields are each in 3-60 % of the
specs; quantities come in many spellings (``500m``, ``2``, ``1.5``, ``1e3``, ``16Gi``, ``100M``).
Half the specs have 1-2 environments (dev, staging, prod) changing workers, resources, image,
scheduling, priority, env, runPolicy, nodeSelector or command: the JSON merge patch from the base.

Valid: the schema and ``mpigen/check`` hold for the base and every environment, and what reaches
the manifests is what the API server accepts (label keys and values, DNS names, whole extended
resources, hugepages beside memory, tolerations, relative subPaths, distinct mount paths, pod
hostnames and the TensorBoard Service within 63 characters). Left out on purpose: what mpigen
refuses or warns is pointless (plaintext credentials, launcher GPUs without runLauncherAsWorker,
another gang's fields, suspend under Kueue), gpuTopology with MPI (sshd on the host network),
cleanPodPolicy None with MPI (idle workers keep their GPUs), slotsPerWorker unlike the GPUs, a
Volcano MPIJob whose launcher alone names a PriorityClass (the PodGroup's, which the workers lack),
mpi.mpirun except false with a launch script, --operator-version and --cluster.
"""

from __future__ import annotations

import copy
import random
import re
from fractions import Fraction
from typing import Any

import yaml

NAMESPACES = ("research", "nlp", "default")
FRAMEWORKS = {"mpi": 5, "pytorch": 3, "tensorflow": 2}
GANGS = {"none": 3, "volcano": 3, "scheduler-plugins": 2, "kueue": 2, "kube-batch": 1}
GANG_FIELDS = {"none": (), "volcano": ("queue", "priorityClass", "minAvailable", "minResources"),
               "scheduler-plugins": ("schedulerName", "minAvailable", "minResources", "scheduleTimeoutSeconds"),
               "kube-batch": ("queue", "priorityClass", "minAvailable"), "kueue": ("queue", "priorityClass")}
IMAGES = {"mpi": ["horovod/horovod:0.28.1", "mpioperator/tensorflow-benchmarks:latest", "mpioperator/mpi-pi:openmpi",
                  "registry.example.com/nlp/bert-horovod:2.3", "horovod/horovod@sha256:" + "3f1a" * 16],
          "pytorch": ["pytorch/pytorch:2.3.1-cuda12.1-cudnn8-runtime", "registry.example.com/vision/resnet:1.4",
                      "docker.io/kubeflow/pytorch-dist-mnist:latest"],
          "tensorflow": ["tensorflow/tensorflow:2.16.1-gpu", "gcr.io/kubeflow-examples/tf_smoke:v20180723-65c28134"]}
COMMANDS = {"mpi": [["python", "train.py", "--epochs=90"], ["python", "/examples/pytorch_synthetic_benchmark.py"],
                    ["/home/mpiuser/pi"], ["sh", "-c", "cd /workspace && python train.py --elastic"],
                    ["mpirun", "--bind-to", "none", "python", "train.py"]],  # starts MPI itself, without -np
            "pytorch": [["torchrun", "--nproc-per-node=auto", "/workspace/train.py"], ["python", "/opt/mnist.py"]],
            "tensorflow": [["python", "trainer/task.py", "--model-dir=/models/wide-deep"],
                           ["python", "/opt/tf_smoke.py"]]}
EXTRA_ARGS = {"OpenMPI": ["-mca", "pml", "ob1", "-mca", "btl", "^openib"], "Intel": ["-genv", "I_MPI_DEBUG", "5"],
              "MPICH": ["-bind-to", "core"]}
MODELS = ["resnet50", "bert", "gpt2", "llama", "mnist", "vit", "wide-deep", "t5", "whisper", "yolo", "dlrm", "unet"]
PURPOSES = ["", "", "-ddp", "-pretrain", "-finetune", "-bench", "-dist", "-v2", "-horovod", "-sweep"]
PRIORITY_CLASSES = ["high-priority", "training-high", "gpu-training", "low-priority", "batch-low"]
QUEUES = ["research", "default", "nlp", "gpu-queue", "team-vision", "production"]
CPUS = ["500m", "250m", "1", "2", "4", "8", "16", "32", 1, 4, 1.5, "0.5", "1500m", "1e1", "1e3"]
MEMORIES = ["1Gi", "2Gi", "16Gi", "32Gi", "64Gi", "128Gi", "512Mi", "1536Mi", "100M", "2G", "1e9", "1.5Gi", 2**34]
EXTRAS = [{"ephemeral-storage": "10Gi"}, {"ephemeral-storage": "50G"}, {"rdma/hca": 1}, {"example.com/fpga": "2"},
          {"nvidia.com/mig-1g.10gb": 1}, {"hugepages-2Mi": "1Gi", "memory": "4Gi"}]  # hugepages need memory
LITERAL_ENV = [("NCCL_DEBUG", "INFO"), ("NCCL_DEBUG", "WARN"), ("NCCL_SOCKET_IFNAME", "eth0"), ("OMP_NUM_THREADS", 4),
               ("OMP_NUM_THREADS", "8"), ("PYTHONUNBUFFERED", "1"), ("HF_HOME", "/data/hf"), ("EPOCHS", 90),
               ("TF_CPP_MIN_LOG_LEVEL", "2"), ("TOKENIZERS_PARALLELISM", "false"), ("LOG_LEVEL", "debug")]
SECRET_ENV = [{name: {"secretKeyRef": {"name": secret, "key": key}}} for name, secret, key in (
    ("WANDB_API_KEY", "wandb", "api-key"), ("HF_TOKEN", "hf-token", "token"),
    ("AWS_SECRET_ACCESS_KEY", "s3", "secret-access-key"), ("AWS_ACCESS_KEY_ID", "s3", "access-key-id"))]
VOLUMES = [{"claimName": "imagenet", "mountPath": "/data", "readOnly": True},
           {"claimName": "ckpt", "mountPath": "/ckpt"}, {"claimName": "training-runs", "mountPath": "/runs"},
           {"claimName": "models", "mountPath": "/models", "subPath": "team-a"},
           {"claimName": "hf-cache", "mountPath": "/root/.cache/huggingface", "name": "hf"}]
HOST_PATHS = [[{"hostPath": "/mnt/datasets", "mountPath": "/mnt/datasets", "readOnly": True}],
              [{"hostPath": "/var/log/training", "mountPath": "/logs", "name": "node-logs"}]]
NODE_SELECTORS = [{"nvidia.com/gpu.product": "NVIDIA-A100-SXM4-80GB"}, {"kubernetes.io/arch": "amd64"},
                  {"node.kubernetes.io/instance-type": "p4d.24xlarge"}, {"cloud.google.com/gke-nodepool": "gpu-pool"}]
TOLERATIONS = [{"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}, {"operator": "Exists"},
               {"key": "dedicated", "operator": "Equal", "value": "ml-training", "effect": "NoSchedule"},
               {"key": "node.kubernetes.io/unreachable", "operator": "Exists", "effect": "NoExecute",
                "tolerationSeconds": 600}, {"key": "spot", "value": "true", "effect": "PreferNoSchedule"}]
GIT_REPOS = ["https://github.com/example-org/wide-deep.git", "https://gitlab.example.com/ml/resnet",
             "git@github.com:example-org/bert.git", "ssh://git@git.example.com/ml/llm.git"]
RSYNC_SOURCES = ["10.0.0.5::code/horovod-examples/", "rsync://data.example.com/code/resnet", "user@10.0.0.7:/srv/proj"]
_SUFFIXES = {"m": Fraction(1, 1000), "": 1, "k": 10**3, "M": 10**6, "G": 10**9, "Mi": 2**20, "Gi": 2**30}
TENSORBOARD_OPTIONS = [{"image": "tensorflow/tensorflow:2.15.0"}, {"port": 6007}, {"serviceType": "NodePort"},
                       {"port": 80, "serviceType": "ClusterIP"}]


def _maybe(rng: random.Random, target: dict[str, Any], key: str, p: float, choices: list[Any]) -> bool:
    """With probability ``p``, ``target[key]`` = a copy of one of ``choices``."""
    if rng.random() < p:
        target[key] = copy.deepcopy(rng.choice(choices))
        return True
    return False


def _resources(rng: random.Random, gpu: float = 0.6, extras: float = 0.12) -> dict[str, Any]:
    out: dict[str, Any] = {}
    _maybe(rng, out, "gpu", gpu, [1, 1, 2, 4, 8, "2", "8"])
    _maybe(rng, out, "cpu", 0.75, CPUS)
    _maybe(rng, out, "memory", 0.75, MEMORIES)
    out.update(rng.choice(EXTRAS) if rng.random() < extras else {})
    return out


def _env(rng: random.Random, framework: str) -> dict[str, Any]:
    env = dict(rng.sample(LITERAL_ENV, rng.randint(1, 3)))
    _maybe(rng, env, "HOROVOD_FUSION_THRESHOLD", 0.3 if framework == "mpi" else 0, ["67108864"])
    env.update(copy.deepcopy(rng.choice(SECRET_ENV)) if rng.random() < 0.3 else {})  # a literal one is refused
    return env


def _mpi(rng: random.Random, spec: dict[str, Any]) -> None:
    mpi: dict[str, Any] = {}
    impl = rng.choices(["OpenMPI", "Intel", "MPICH"], weights=[6, 2, 2])[0]
    _maybe(rng, mpi, "implementation", 0.5 if impl == "OpenMPI" else 1, [impl])
    _maybe(rng, mpi, "extraArgs", 0.2, [EXTRA_ARGS[impl]])
    _maybe(rng, mpi, "sshAuthMountPath", 0.25 if impl == "OpenMPI" else 0.5, ["/home/mpiuser/.ssh", "/root/.ssh"])
    _maybe(rng, mpi, "launcherCreationPolicy", 0.12, ["WaitForWorkersReady", "AtStartup"])
    if _maybe(rng, mpi, "runLauncherAsWorker", 0.2, [True, True, True, False]) and rng.random() < 0.3:
        spec["workers"] = 0  # the launcher runs every rank (_repair undoes it when the draw was False)
    if _maybe(rng, mpi, "mpirun", 0.03, [False]):
        spec["command"] = ["bash", "/scripts/launch.sh"]  # a script that runs mpirun itself
    launcher: dict[str, Any] = {}
    if rng.random() < 0.5:  # GPUs only on a launcher that runs ranks (launcher-gpu otherwise)
        launcher["resources"] = _resources(rng, gpu=0.5 if mpi.get("runLauncherAsWorker") else 0, extras=0)
    _maybe(rng, launcher, "image", 0.1, ["mpioperator/openmpi:v0.5.0"])
    _maybe(rng, launcher, "priorityClassName", 0.1, PRIORITY_CLASSES)
    mpi.update({"launcher": launcher} if launcher else {})
    spec.update({"mpi": mpi} if mpi else {})
    _maybe(rng, spec, "slotsPerWorker", 0.2, [1, 2, 4, 8])


def _role(rng: random.Random, image: float = 0.2) -> dict[str, Any]:
    role: dict[str, Any] = {}
    _maybe(rng, role, "image", image, IMAGES["tensorflow"] + IMAGES["pytorch"])
    role.update({"resources": _resources(rng, gpu=0.3, extras=0)} if rng.random() < 0.6 else {})
    _maybe(rng, role, "priorityClassName", 0.1, PRIORITY_CLASSES)
    return role


def _training(rng: random.Random, spec: dict[str, Any]) -> None:
    settings: dict[str, Any] = {}
    _maybe(rng, settings, "port", 0.15, [23456, 29500, 2222, 8080, 1, 65535])
    if spec["framework"] == "pytorch":
        settings.update({"master": _role(rng)} if rng.random() < 0.3 else {})
        spec["workers"] = 0 if rng.random() < 0.04 else spec["workers"]  # the master alone
    else:
        if rng.random() < 0.6:
            settings["ps"] = dict(_role(rng, 0.4), replicas=rng.choice([1, 1, 2, 4]))
        if rng.random() < 0.4:
            settings["chief"] = _role(rng)
            spec["workers"] = 0 if rng.random() < 0.1 else spec["workers"]  # the chief alone trains
        settings.update({"evaluator": _role(rng)} if rng.random() < 0.2 else {})
    spec.update({spec["framework"]: settings} if settings else {})
    _maybe(rng, spec, "restartPolicy", 0.3, ["Never", "OnFailure", "Always", "ExitCode"])


def _code(rng: random.Random, stem: str) -> dict[str, Any]:
    if rng.random() < 0.3:
        code: dict[str, Any] = {"rsync": {"source": rng.choice(RSYNC_SOURCES)}}
        _maybe(rng, code["rsync"], "image", 0.3, ["instrumentisto/rsync-ssh:alpine3.20"])
    else:
        git = {"repository": rng.choice(GIT_REPOS)}
        _maybe(rng, git, "revision", 0.6, ["main", "v2.3.0", "1f0c6a7e9b2d4c8a"])
        _maybe(rng, git, "depth", 0.3, [0, 1, 10])
        # an ssh URL always takes its key from a Secret; a public https one may need none
        _maybe(rng, git, "secret", 0.5 if git["repository"].startswith("https://") else 1, [f"{stem}-git", "gh-token"])
        code = {"git": git}
    _maybe(rng, code, "mountPath", 0.3, ["/workspace", "/src", "/code/"])
    return code


def _pod_fields(rng: random.Random, spec: dict[str, Any], stem: str) -> None:
    framework = spec["framework"]
    spec.update({"env": _env(rng, framework)} if rng.random() < 0.6 else {})
    if rng.random() < 0.4:  # PVCs, and in a fifth a node folder (arena's --data-dir; mpigen warns)
        spec["volumes"] = copy.deepcopy(rng.sample(VOLUMES, rng.randint(1, 2)) + rng.choice([[]] * 8 + HOST_PATHS))
    if rng.random() < 0.15:  # the logs on a PVC that the pods and TensorBoard mount
        if not any(v.get("claimName") == "training-runs" for v in spec.get("volumes", [])):
            spec.setdefault("volumes", []).append({"claimName": "training-runs", "mountPath": "/runs"})
        spec["tensorboard"] = dict({"logDir": f"/runs/{stem}"}, **rng.choice([{}] * 9 + TENSORBOARD_OPTIONS))
    spec.update({"code": _code(rng, stem)} if rng.random() < 0.15 else {})
    _maybe(rng, spec, "workingDir", 0.1, ["/workspace", "/opt/train"])
    _maybe(rng, spec, "shmSize", 0.5 if framework == "pytorch" else 0.2, ["4Gi", "2Gi", "1Gi", "512Mi", "16G", 2**30])
    _maybe(rng, spec, "imagePullPolicy", 0.2, ["Always", "IfNotPresent", "Never"])
    _maybe(rng, spec, "serviceAccountName", 0.15, ["trainer", "ml-pipeline"])
    _maybe(rng, spec, "priorityClassName", 0.2, PRIORITY_CLASSES)
    _maybe(rng, spec, "imagePullSecrets", 0.15, [["regcred"], ["ngc-secret", "ecr-pull"]])
    _maybe(rng, spec, "nodeSelector", 0.25, NODE_SELECTORS)
    _maybe(rng, spec, "tolerations", 0.25, [[t] for t in TOLERATIONS] + [TOLERATIONS[:1] + TOLERATIONS[2:3]])
    _maybe(rng, spec, "labels", 0.15, [{"workload": "training"}, {"tier": "gpu", "owner": "ml-platform"}])
    _maybe(rng, spec, "annotations", 0.15, [{"prometheus.io/scrape": "true", "prometheus.io/port": "9090"},
                                            {"cluster-autoscaler.kubernetes.io/safe-to-evict": "false"}])
    if rng.random() < 0.4:
        spec["runPolicy"] = {}
        for key, choices in (("cleanPodPolicy", ["Running", "All"] + (["None"] if framework != "mpi" else [])),
                             ("ttlSecondsAfterFinished", [0, 3600, 86400]), ("activeDeadlineSeconds", [3600, 604800]),
                             ("backoffLimit", [0, 3, 6]), ("suspend", [False, True])):
            _maybe(rng, spec["runPolicy"], key, 0.4, choices)


def _scheduling(rng: random.Random, spec: dict[str, Any], gang: str) -> None:
    """The fields ``gang`` takes (another gang's are warned about); _repair makes them consistent."""
    scheduling: dict[str, Any] = {} if gang == "none" and rng.random() < 0.7 else {"gang": gang}
    takes = GANG_FIELDS[gang]
    _maybe(rng, scheduling, "queue", 1 if gang == "kueue" else 0.6 if "queue" in takes else 0, QUEUES)
    _maybe(rng, scheduling, "priorityClass", 0.35 if "priorityClass" in takes else 0, PRIORITY_CLASSES)
    _maybe(rng, scheduling, "schedulerName", 0.3 if "schedulerName" in takes else 0, ["coscheduler"])
    _maybe(rng, scheduling, "minAvailable", 0.3 if "minAvailable" in takes else 0, range(1, _pod_count(spec) + 1))
    _maybe(rng, scheduling, "scheduleTimeoutSeconds", 0.85 if "scheduleTimeoutSeconds" in takes else 0, [60, 600])
    _maybe(rng, scheduling, "minResources", 0.25 if "minResources" in takes else 0, [{}])  # _repair computes it
    # ACK GPU topology: not with MPI (sshd on the host network); _repair drops it without GPUs
    _maybe(rng, scheduling, "gpuTopology", 0.1 if spec["framework"] != "mpi" else 0, [True])
    spec.update({"scheduling": scheduling} if scheduling else {})


def _roles(spec: dict[str, Any]) -> dict[str, tuple[int, dict[str, Any], str | None]]:
    """Replica type -> (pods, resources, PriorityClass), defaulted as mpigen defaults them."""
    scheduling, worker, workers = spec.get("scheduling", {}), spec.get("resources", {}), spec["workers"]
    # with Kueue, scheduling.priorityClass is a WorkloadPriorityClass, not the pods'
    pods_class = spec.get("priorityClassName", scheduling.get("priorityClass") if scheduling.get("gang") != "kueue"
                          else None)
    framework, mpi = spec["framework"], spec.get("mpi", {})
    settings = {"launcher": mpi.get("launcher", {})} if framework == "mpi" else spec.get(framework, {})
    # a launcher that only runs mpirun gets no resources unless it names its own
    own_default = {} if framework == "mpi" and not mpi.get("runLauncherAsWorker") else worker
    out = {}
    for name in {"mpi": ["launcher"], "pytorch": ["master"]}.get(framework, ["chief", "ps"]) + ["worker", "evaluator"]:
        own = settings.get(name, {})
        if name in ("launcher", "master", "worker") or name in settings:
            out[name] = (workers if name == "worker" else own.get("replicas", 1),
                         worker if name == "worker" else own.get("resources", own_default),
                         own.get("priorityClassName", pods_class))
    return {name: role for name, role in out.items() if role[0]}


def _pod_count(spec: dict[str, Any]) -> int:
    return sum(pods for pods, _, _ in _roles(spec).values())


def _value(quantity: Any) -> Fraction:
    """The exact value of one of the quantity spellings above."""
    number, suffix = re.fullmatch(r"([0-9.]+)(e[0-9]+|[a-zA-Z]*)", str(quantity)).groups()
    return Fraction(number) * (10 ** int(suffix[1:]) if suffix.startswith("e") else _SUFFIXES[suffix])


def _quantity(name: str, value: Fraction) -> Any:
    if name == "gpu" or "/" in name:
        return int(value)  # GPUs and extended resources count devices
    suffix = "Gi" if name == "memory" and value % 2**30 == 0 else ""
    return f"{value // _SUFFIXES[suffix]}{suffix}" if value.denominator == 1 else f"{value * 1000}m"


def _min_resources(spec: dict[str, Any]) -> dict[str, Any] | None:
    """The gang's minResources as the operator computes it; None when that depends on the
    cluster's PriorityClass values or on Go's map order (then no explicit value is written)."""
    roles = _roles(spec)
    counts = {name: pods for name, (pods, _, _) in roles.items()}
    available = spec["scheduling"].get("minAvailable", _pod_count(spec))
    if available < _pod_count(spec):
        if spec["framework"] != "mpi" or len({cls for _, _, cls in roles.values()}) > 1:
            return None
        counts["worker"] = available - 1  # equal priorities: the launcher, then the workers cut
    total: dict[str, Fraction] = {}
    for name, (_, resources, _) in roles.items():
        for resource, quantity in resources.items():
            total[resource] = total.get(resource, Fraction(0)) + counts[name] * _value(quantity)
    return {resource: _quantity(resource, value) for resource, value in total.items() if value} or None


MPI_WORKERS_MAX = 2000
"""The most MPI workers drawn: the longest names and namespace (63 characters each, less a worker's
hostname suffix) give its hostfile and discover_hosts.sh under 400 bytes a worker, 800 kB in all."""


def _repair(spec: dict[str, Any]) -> None:
    """Restore the rules that tie fields together, after a draw or an environment's changes."""
    framework, mpi, tf = spec["framework"], spec.get("mpi", {}), spec.get("tensorflow", {})
    if spec["workers"] == 0 and (framework == "mpi" and not mpi.get("runLauncherAsWorker")
                                 or framework == "tensorflow" and "chief" not in tf):
        spec["workers"] = 1
    if framework == "mpi":  # the operator's hostfile ConfigMap within 1 MiB (hostfile-too-large) for any name
        spec["workers"] = min(spec["workers"], MPI_WORKERS_MAX)
    gpus = int(spec.get("resources", {}).get("gpu", 0))
    if framework == "mpi" and gpus and spec.get("slotsPerWorker", gpus) != gpus:
        spec["slotsPerWorker"] = gpus  # one rank per GPU (slots-gpu-mismatch otherwise)
    scheduling = spec.get("scheduling", {})
    gang = scheduling.get("gang", "none")
    for key in [k for k in scheduling if k not in GANG_FIELDS[gang] + ("gang", "gpuTopology")]:
        del scheduling[key]
    if scheduling.get("gpuTopology") and not any(int(r.get("gpu", 0)) for _, r, _ in _roles(spec).values()):
        del scheduling["gpuTopology"]  # it places GPU pods
    if "minAvailable" in scheduling:
        scheduling["minAvailable"] = max(1, min(scheduling["minAvailable"], _pod_count(spec)))
    waits = mpi.get("launcherCreationPolicy") == "WaitForWorkersReady"
    if waits and gang in ("volcano", "scheduler-plugins", "kube-batch") and spec["workers"]:
        # the gang must not count the launcher, which waits for the workers: a deadlock otherwise
        scheduling["minAvailable"] = min(scheduling.get("minAvailable", spec["workers"]), spec["workers"])
    if gang == "volcano" and "priorityClass" in scheduling and "priorityClassName" in spec:
        spec["priorityClassName"] = scheduling["priorityClass"]  # the PodGroup's and the pods' priority agree
    launcher_class = mpi.get("launcher", {}).get("priorityClassName")
    if framework == "mpi" and gang == "volcano" and launcher_class and "priorityClassName" not in spec \
            and "priorityClass" not in scheduling:
        spec["priorityClassName"] = launcher_class  # the PodGroup takes the launcher's: the workers carry it too
    if "minResources" in scheduling:
        scheduling["minResources"] = _min_resources(spec)
        if scheduling["minResources"] is None:
            del scheduling["minResources"]
    if gang == "kueue":
        spec.get("runPolicy", {}).pop("suspend", None)  # Kueue owns it
    if "scheduling" in spec and not scheduling:
        del spec["scheduling"]


def _variant(rng: random.Random, base: dict[str, Any], env: str) -> dict[str, Any]:
    """An environment's effective spec: the base with a few realistic changes."""
    spec = copy.deepcopy(base)
    changes = rng.sample(["workers", "resources", "image", "scheduling", "priorityClassName", "env", "runPolicy",
                          "command", "nodeSelector"], rng.randint(1, 3))
    if "workers" in changes or rng.random() < 0.4:
        spec["workers"] = {"dev": rng.choice([1, 1, 2]), "staging": rng.randint(1, 16),
                           "prod": rng.choice([16, 32, 64, min(10000, 8 * max(1, base["workers"]))])}[env]
    redraw = {"resources": lambda: _resources(rng, extras=0), "priorityClassName": lambda: rng.choice(PRIORITY_CLASSES),
              "nodeSelector": lambda: dict(rng.choice(NODE_SELECTORS))}
    for key in [k for k in changes if k in redraw]:
        spec[key] = redraw[key]()
    if "image" in changes:
        spec["image"] = base["image"].split("@")[0].rsplit(":", 1)[0] + rng.choice([":dev", ":2.4.0-rc1", ":nightly"])
    if "scheduling" in changes:
        gang = spec.get("scheduling", {}).get("gang", "none")
        if env == "dev" and gang != "none" and rng.random() < 0.2:
            del spec["scheduling"]  # dev runs without the gang
        else:  # the same gang with other settings, or one where the base has none
            keep = {k: v for k, v in spec.get("scheduling", {}).items() if k == "gpuTopology"}
            _scheduling(rng, spec, rng.choices(list(GANGS), list(GANGS.values()))[0] if gang == "none" else gang)
            spec.setdefault("scheduling", {}).update(keep)
    if "env" in changes:
        spec.setdefault("env", {}).update(_env(rng, spec["framework"]))
    if "runPolicy" in changes:
        spec.setdefault("runPolicy", {})["backoffLimit"] = rng.choice([0, 1, 5])
    if "command" in changes and spec.get("mpi", {}).get("mpirun") is not False:
        spec["command"] = spec["command"] + [rng.choice(["--epochs=1", "--dry-run", "--batch-size=256"])]
    _repair(spec)
    return spec  # it may equal the base: an empty environment


def merge_patch(base: Any, target: Any) -> Any:
    """The JSON merge patch (RFC 7386) that turns ``base`` into ``target``: ``null`` removes."""
    if not isinstance(base, dict) or not isinstance(target, dict):
        return copy.deepcopy(target)
    patch = {k: merge_patch(base.get(k), v) for k, v in target.items() if base.get(k) != v}
    return dict(patch, **{k: None for k in base if k not in target})


def _name_budget(specs: list[dict[str, Any]], tensorboard: bool) -> int:
    """The longest job name that keeps every pod hostname <name>-<type>-<i> within 63 characters."""
    hosts = ["-launcher"]  # MPI's launcher has no index; every other pod name has one
    for spec in specs:
        hosts += [f"-{role}-{max(pods, 1) - 1}" for role, (pods, _, _) in _roles(spec).items() if role != "launcher"]
        hosts += [f"-worker-{max(spec['workers'], 1) - 1}"] if spec["framework"] == "mpi" else []
    # the Service <name>-tensorboard is a DNS-1035 label too: mpigen does not check it, the API server does
    return min(63 - max(map(len, hosts)), 63 - len("-tensorboard") if tensorboard else 63)


def random_spec(rng: random.Random) -> dict[str, Any]:
    """One valid TrainingJob document as Python data."""
    framework = rng.choices(list(FRAMEWORKS), list(FRAMEWORKS.values()))[0]
    stem = rng.choice(MODELS) + rng.choice(PURPOSES)
    workers = [rng.choice([1, 1, 2, 2, 2, 4, 4, 8]), rng.randint(1, 64), rng.choice([1000, 10000])]
    spec = {"framework": framework, "image": rng.choice(IMAGES[framework]),
            "command": list(rng.choice(COMMANDS[framework])), "workers": rng.choices(workers, [78, 20, 2])[0]}
    spec.update({"resources": _resources(rng)} if rng.random() < 0.85 else {})
    (_mpi if framework == "mpi" else _training)(rng, spec)
    _pod_fields(rng, spec, stem)
    _repair(spec)  # the final pod count, before the gang draws minAvailable from it
    _scheduling(rng, spec, rng.choices(list(GANGS), list(GANGS.values()))[0])
    _repair(spec)
    envs = rng.choices([[], ["prod"], ["dev", "prod"], ["staging"], ["dev"]], weights=[10, 4, 3, 1, 1])[0]
    variants = {env: _variant(rng, spec, env) for env in envs}
    spec.update({"environments": {env: merge_patch(spec, v) for env, v in variants.items()}} if variants else {})
    metadata: dict[str, Any] = {"name": stem}
    _maybe(rng, metadata, "namespace", 0.6, list(NAMESPACES))
    _maybe(rng, metadata, "labels", 0.4, [{"team": "vision"}, {"team": "nlp", "project": stem},
                                          {"app.kubernetes.io/part-of": stem, "cost-center": "1234"}])
    _maybe(rng, metadata, "annotations", 0.2, [{"example.com/ticket": "ML-1234", "description": f"{stem}: 90 epochs"}])
    doc = {"apiVersion": "mpigen.dev/v1alpha1", "kind": "TrainingJob", "metadata": metadata, "spec": spec}
    if rng.random() < 0.3:
        metadata["name"] = f"{stem}-{rng.randint(1, 9999)}"
    elif rng.random() < 0.05:  # as long as the hostnames allow
        budget = _name_budget([spec, *variants.values()], "tensorboard" in spec)
        metadata["name"] = (stem + "-long-experiment-name" * 4)[:budget].rstrip("-")
    return doc


def random_specs(seed: int, count: int) -> list[tuple[str, dict[str, Any]]]:
    """``count`` (job name, spec) pairs with distinct names, the same for the same seed."""
    rng = random.Random(seed)
    specs: dict[str, dict[str, Any]] = {}
    while len(specs) < count:
        doc = random_spec(rng)
        specs.setdefault(doc["metadata"]["name"], doc)  # a name already drawn: draw again
    return list(specs.items())


def spec_yaml(spec: dict[str, Any]) -> str:
    """One spec document as YAML, keys in the order they were drawn, every value written out (no &anchors)."""
    dumper = type("Dumper", (yaml.SafeDumper,), {"ignore_aliases": lambda self, data: True})
    return yaml.dump(spec, Dumper=dumper, sort_keys=False, default_flow_style=False, width=1000)


RUNTIMES = {"pytorch": ["torch-distributed"], "mpi": ["deepspeed-distributed", "mlx-distributed"]}
# What a TrainJob cannot say (mpigen.spec.runtime_rules): left out of the TrainJob variants.
NOT_FOR_TRAINJOBS = ("mpi", "pytorch", "restartPolicy")
NOT_IN_RUN_POLICY = ("cleanPodPolicy", "ttlSecondsAfterFinished", "backoffLimit")
NOT_IN_SCHEDULING = ("minAvailable", "minResources", "gpuTopology")


def _for_trainjob(spec: dict[str, Any]) -> None:
    """``spec`` (a base or an environment) without what a TrainJob cannot express."""
    for key in NOT_FOR_TRAINJOBS:
        spec.pop(key, None)
    for section, keys in (("runPolicy", NOT_IN_RUN_POLICY), ("scheduling", NOT_IN_SCHEDULING)):
        if isinstance(spec.get(section), dict):
            for key in keys:
                spec[section].pop(key, None)
            if spec[section].get("gang") == "kube-batch":
                spec[section]["gang"] = "volcano"
            if not spec[section]:
                del spec[section]
    if spec.get("workers") == 0:
        spec["workers"] = 1


# The production pod fields of a TrainJob (mpigen.render.trainjob_pods): each drawn with its chance,
# job-wide or for one replicated job of the runtime.
JOB_JOBS = {"torch-distributed": ("node",), "deepspeed-distributed": ("node", "launcher"),
            "mlx-distributed": ("node", "launcher")}
PRODUCTION = [
    ("securityContext", 0.2, [{"capabilities": {"add": ["IPC_LOCK"]}}, {"runAsNonRoot": True}]),
    ("podSecurityContext", 0.15, [{"runAsUser": 1000, "fsGroup": 1000}, {"supplementalGroups": [2000]}]),
    ("hostNetwork", 0.1, [True]),
    ("affinity", 0.15, [{"podAntiAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
        {"weight": 100, "podAffinityTerm": {"topologyKey": "kubernetes.io/hostname",
                                            "labelSelector": {"matchLabels": {"workload": "training"}}}}]}}]),
    ("topologySpreadConstraints", 0.1, [[{"maxSkew": 1, "topologyKey": "topology.kubernetes.io/zone",
                                          "whenUnsatisfiable": "ScheduleAnyway"}]]),
    ("args", 0.15, [["--epochs", "3"], ["--seed=42"]]),
    ("envFrom", 0.1, [[{"configMapRef": {"name": "training-settings"}}], [{"secretRef": {"name": "wandb"}}]]),
    ("ports", 0.1, [[{"containerPort": 9090, "name": "metrics"}]]),
    ("readinessProbe", 0.1, [{"tcpSocket": {"port": 9090}, "periodSeconds": 30}]),
    ("runtimeClassName", 0.05, ["nvidia"]),
    ("initContainers", 0.1, [[{"name": "fetch", "image": "busybox:1.36", "command": ["true"]}]]),
    ("sidecars", 0.1, [[{"name": "log-shipper", "image": "fluent/fluent-bit:3.1.9"}]]),
    ("podTemplatePatch", 0.1, [{"spec": {"terminationGracePeriodSeconds": 120}},
                               {"metadata": {"labels": {"patched": "yes"}}}]),
]
ROLE_PRODUCTION = [
    ("nodeSelector", 0.2, [{"node-role": "gpu"}, {"node-role": "cpu"}]),
    ("env", 0.15, [{"ROLE_ONLY": "1"}]),
    ("resources", 0.1, [{"cpu": "2", "memory": "4Gi"}, {"gpu": 1, "cpu": "4"}]),
    ("priorityClassName", 0.05, ["low-priority"]),
    ("securityContext", 0.05, [{"capabilities": {"add": ["SYS_PTRACE"]}}]),
    ("podTemplatePatch", 0.1, [{"spec": {"terminationGracePeriodSeconds": 30}}]),
]


def _production(rng: random.Random, spec: dict[str, Any]) -> None:
    """The production pod fields a TrainJob spec may have, job-wide and per replicated job."""
    for key, chance, choices in PRODUCTION:
        _maybe(rng, spec, key, chance, copy.deepcopy(choices))
    roles: dict[str, Any] = {}
    for job in JOB_JOBS[spec["runtime"]]:
        own: dict[str, Any] = {}
        for key, chance, choices in ROLE_PRODUCTION:
            _maybe(rng, own, key, chance, copy.deepcopy(choices))
        if spec["runtime"] != "torch-distributed" and job == "node" and rng.random() < 0.05:
            own["image"] = "registry.example.com/sshd:1"
        if own:
            roles[job] = own
    if roles:
        spec["roles"] = roles


def trainjob_variant(rng: random.Random, doc: dict[str, Any]) -> dict[str, Any] | None:
    """A random valid spec of framework pytorch or mpi as a Kubeflow Trainer TrainJob spec
    (``spec.runtime``: a default runtime of its framework), without the fields a TrainJob refuses,
    with some of the production pod fields (:data:`PRODUCTION`, :data:`ROLE_PRODUCTION`); None for
    a TensorFlow spec (Trainer v2.3.0 has none)."""
    spec = doc["spec"]
    if spec["framework"] not in RUNTIMES:
        return None
    out = copy.deepcopy(doc)
    spec = out["spec"]
    spec["runtime"] = rng.choice(RUNTIMES[spec["framework"]])
    _for_trainjob(spec)
    for env in (spec.get("environments") or {}).values():
        _for_trainjob(env)
    _production(rng, spec)
    return out


# The production pod fields (spec.roles, the pod fields and the pod template patch, issue 20): what
# production_variant adds, each in a part of the variants, job-wide or for one role.
PLACEMENT = [{"nodeSelector": {"node.kubernetes.io/instance-type": "cpu"}},
             {"tolerations": [{"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}]},
             {"affinity": {"podAntiAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
                 {"weight": 100, "podAffinityTerm": {"topologyKey": "kubernetes.io/hostname",
                                                     "labelSelector": {"matchLabels": {"app": "train"}}}}]}}},
             {"topologySpreadConstraints": [{"maxSkew": 1, "topologyKey": "topology.kubernetes.io/zone",
                                             "whenUnsatisfiable": "ScheduleAnyway"}]}]
POD_SETTINGS = [{"securityContext": {"capabilities": {"add": ["IPC_LOCK"]}}},
                {"securityContext": {"runAsUser": 1000}, "podSecurityContext": {"fsGroup": 1000}},
                {"args": ["--epochs=1"]}, {"envFrom": [{"configMapRef": {"name": "training-config"}}]},
                {"ports": [{"containerPort": 9090, "name": "metrics"}]},
                {"readinessProbe": {"tcpSocket": {"port": 9090}, "periodSeconds": 10}},
                {"runtimeClassName": "nvidia"}, {"dnsPolicy": "Default"},
                {"volumes": [{"name": "scratch", "emptyDir": {}, "mountPath": "/scratch"},
                             {"name": "fluent-bit", "configMap": {"name": "fluent-bit"}}],
                 "sidecars": [{"name": "log-shipper", "image": "fluent/fluent-bit:3.1.9",
                               "volumeMounts": [{"name": "fluent-bit", "mountPath": "/fluent-bit/etc"}]}]},
                {"volumes": [{"name": "dataset", "emptyDir": {}, "mountPath": "/data"}],
                 "initContainers": [{"name": "fetch-dataset", "image": "busybox:1.36", "command": ["sh", "-c", "true"],
                                     "volumeMounts": [{"name": "dataset", "mountPath": "/data"}]}]}]
PATCHES = [{"metadata": {"annotations": {"example.com/owner": "ml-platform"}}},
           {"spec": {"terminationGracePeriodSeconds": 30, "enableServiceLinks": False}},
           {"spec": {"hostAliases": [{"ip": "10.0.0.10", "hostnames": ["datasets.internal"]}]}},
           {"spec": {"containers": [{"name": "metrics", "image": "prom/node-exporter:v1.8.1"}]}}]


def production_variant(rng: random.Random, doc: dict[str, Any]) -> dict[str, Any]:
    """``doc`` (a random spec, :func:`random_spec`) with production pod fields: placement,
    security contexts, args, envFrom, ports, probes, sidecars, init containers, volumes of other
    sources, MPI container names, job-wide and per role (``spec.roles``), and pod template patches
    (an annotation, pod fields the spec has no field for, a container added). Mostly valid: a
    variant the spec rules refuse is the caller's to skip."""
    from mpigen.expand.roles import roles_of
    from mpigen.spec.patch_rules import container_name

    out = copy.deepcopy(doc)
    spec = out["spec"]
    roles = [r for r in roles_of(spec) if not (r == "worker" and spec["workers"] == 0)]
    for settings in rng.sample(PLACEMENT + POD_SETTINGS, rng.randint(1, 4)):
        where = spec if rng.random() < 0.5 else spec.setdefault("roles", {}).setdefault(rng.choice(roles), {})
        where.update(copy.deepcopy(settings))
    if spec["framework"] == "mpi" and rng.random() < 0.3:
        where = spec if rng.random() < 0.5 else spec.setdefault("roles", {}).setdefault(rng.choice(roles), {})
        where["containerName"] = rng.choice(["mpi", "horovod", "trainer"])
    for _ in range(rng.randint(0, 2)):
        role = rng.choice(roles)
        patch = copy.deepcopy(rng.choice(PATCHES))
        if "containers" in patch.get("spec", {}):
            if spec["framework"] == "mpi":  # the training container stays first
                settings = {**spec, **(spec.get("roles") or {}).get(role, {})}
                main = settings.get("containerName") or container_name("mpi", role)
                patch["spec"]["$setElementOrder/containers"] = [{"name": main}, {"name": "metrics"}]
            spec.setdefault("roles", {}).setdefault(role, {})["podTemplatePatch"] = patch
        else:
            where = spec if rng.random() < 0.5 else spec.setdefault("roles", {}).setdefault(role, {})
            where["podTemplatePatch"] = patch
    return out


def requests_variant(rng: random.Random, doc: dict[str, Any]) -> dict[str, Any]:
    """``doc`` (a TrainJob spec, :func:`trainjob_variant`) whose node containers request less CPU
    than their limit, half the time: a pod template patch of the ``node`` container's resources,
    job-wide or for the ``node`` job (Trainer's ``resourcesPerNode``, which mpigen writes it as
    where it reaches every job it applies to). A spec that sets its own CPU keeps it."""
    out = copy.deepcopy(doc)
    spec = out["spec"]
    if rng.random() < 0.5 or "cpu" in (spec.get("resources") or {}):
        return out
    item = {"name": "node", "resources": {"requests": {"cpu": rng.choice(["500m", "1"])}, "limits": {"cpu": "2"}}}
    where = spec if rng.random() < 0.5 else spec.setdefault("roles", {}).setdefault("node", {})
    where.setdefault("podTemplatePatch", {}).setdefault("spec", {}).setdefault("containers", []).append(item)
    return out
