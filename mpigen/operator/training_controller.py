"""What training-operator v1.9.4 creates for a PyTorchJob or TFJob: a port of its object builders.

From kubeflow/training-operator tag **v1.9.4**: ``Reconcile`` of ``pkg/controller.v1/pytorch/
pytorchjob_controller.go`` and ``tensorflow/tfjob_controller.go`` (managedBy, defaults, the HPA
of ``pytorch/hpa.go``), ``ReconcileJobs`` (``common/job.go``: nothing while suspended; the
PodGroup; then, per replica type, its Pods and its Services), ``createNewPod`` (``common/pod.go``)
and ``GetPodFromTemplate`` (``control/pod_control.go``), ``CreateNewService`` (``common/service.go``,
``core/service.go``), the env the PyTorch controller injects (``pytorch/envvar.go``, ``master.go``,
``elastic.go``) and its init container (``initcontainer.go``), TF_CONFIG (``tensorflow/
tensorflow.go``, ``util.go``); the validating webhooks (``pkg/webhooks/{pytorch,tensorflow}``,
``pkg/common/util/webhooks.go``) decide whether the job exists at all. The PodGroup and the pod
decoration come from :mod:`.training_podgroup`, the defaults from :mod:`.training_defaults`.
What a first reconcile creates is the same at v1.9.0 (``git diff v1.9.0 v1.9.4 -- pkg/``
changes only the failure branch of ``ReconcileJobs``: since v1.9.4 a job past its backoffLimit or
activeDeadlineSeconds is marked Failed before its pods are deleted, so the deletion follows
``cleanPodPolicy`` instead of removing every pod; mpigen models no failure).

Pure functions on plain dicts; ownerReferences are left out. Where Go ranges over a map, mpigen
fixes an order: replica types in the operator's constant order (PyTorchJob Master, Worker; TFJob
PS, Worker, Chief, Master, Evaluator; others by name), Service ports by name. A job without a
namespace is taken to be in ``default``.
"""

from __future__ import annotations

import copy
import re
from typing import Any, Iterator

from . import training_defaults as td
from .mpi_controller import NotCreated
from .podgroup import OperatorPanicError

OPERATOR = "training-operator v1.9.4"
CONTROLLER_NAMES = {"PyTorchJob": "pytorchjob-controller", "TFJob": "tfjob-controller"}
MANAGERS = ("kubeflow.org/training-operator", "kueue.x-k8s.io/multikueue")
OPERATOR_NAME_LABEL = "training.kubeflow.org/operator-name"
JOB_NAME_LABEL = "training.kubeflow.org/job-name"
REPLICA_TYPE_LABEL = "training.kubeflow.org/replica-type"
REPLICA_INDEX_LABEL = "training.kubeflow.org/replica-index"
JOB_ROLE_LABEL = "training.kubeflow.org/job-role"
# The operator's flags --pytorch-init-container-image and --pytorch-init-container-max-tries, at
# their defaults (pkg/config/config.go), with the built-in template (no template file mounted).
INIT_CONTAINER_IMAGE = "alpine:3.10"
INIT_CONTAINER_MAX_TRIES = 100
_DNS1035 = re.compile(r"^[a-z]([-a-z0-9]*[a-z0-9])?$")
_TF_TYPES = ("Chief", "Evaluator", "Master", "PS", "Worker")  # isDistributed's allTypes


def _fw(job: dict[str, Any]) -> dict[str, Any]:
    return td.FRAMEWORKS[job["kind"]]


def replica_types(job: dict[str, Any]) -> list[str]:
    """The job's replica types, canonical ones in the operator's constant order, then the rest."""
    specs = job["spec"].get(_fw(job)["key"]) or {}
    known = [t for t in _fw(job)["types"] if t in specs]
    return known + sorted(t for t in specs if t not in known)


def gen_name(job_name: str, rt: str, index: int | str) -> str:
    """``GenGeneralName``: ``<job>-<replica type, lowercased>-<index>`` (``/`` made ``-``)."""
    return f"{job_name}-{rt.lower()}-{index}".replace("/", "-")


def webhook_problems(job: dict[str, Any]) -> list[tuple[tuple, str]]:
    """The validating webhook's ``ValidateCreate`` on the job as submitted (before defaults)."""
    spec = job.get("spec") if isinstance(job.get("spec"), dict) else {}
    fw = td.FRAMEWORKS[job["kind"]]
    out: list[tuple[tuple, str]] = []
    name = (job.get("metadata") or {}).get("name") or ""
    if len(name) > 63 or not _DNS1035.match(name):
        out.append((("metadata", "name"), f"metadata.name {name!r} is not a DNS-1035 label"))
    managed_by = (spec.get("runPolicy") or {}).get("managedBy")
    if managed_by is not None and managed_by not in MANAGERS:
        out.append((("spec", "runPolicy", "managedBy"), f"runPolicy.managedBy {managed_by!r} is not one of {MANAGERS}"))
    specs = spec.get(fw["key"])
    if job["kind"] == "PyTorchJob" and isinstance(spec.get("elasticPolicy"), dict):
        if "Worker" not in (specs or {}):
            out.append((("spec", fw["key"]), "a Worker must be configured when elasticPolicy is used"))
        if spec["elasticPolicy"].get("nProcPerNode") is not None and spec.get("nprocPerNode") is not None:
            out.append((("spec", "elasticPolicy", "nProcPerNode"), "elasticPolicy.nProcPerNode must not be used with nprocPerNode"))
    if not specs:
        if specs is None:
            out.append((("spec", fw["key"]), f"{fw['key']} is required"))
        return out
    chief_or_master = 0
    for rtype, replica in specs.items():
        path = ("spec", fw["key"], rtype)
        if job["kind"] == "PyTorchJob" and rtype not in ("Master", "Worker"):
            out.append((path, f"replica type {rtype!r} is not supported (Master, Worker)"))
        pod = ((replica or {}).get("template") or {}).get("spec") or {}
        containers = [c for c in pod.get("containers") or [] if isinstance(c, dict)]
        if not containers:
            out.append((path + ("template", "spec", "containers"), "containers must be specified"))
        for i, container in enumerate(containers):
            if not container.get("image"):
                out.append((path + ("template", "spec", "containers", i, "image"), "image is required"))
        if not any(c.get("name") == fw["container"] for c in containers):
            out.append((path + ("template", "spec", "containers"),
                         f"must have at least one container named {fw['container']}"))
        replicas = (replica or {}).get("replicas")
        if job["kind"] == "PyTorchJob" and rtype == "Master" and replicas != 1:
            out.append((path + ("replicas",), "Master replicas must be 1"))
        elif job["kind"] == "PyTorchJob" and replicas is not None and replicas < 1:
            out.append((path + ("replicas",), "replicas must be at least 1"))
        chief_or_master += rtype in ("Chief", "Master")
    if job["kind"] == "TFJob" and chief_or_master > 1:
        out.append((("spec", fw["key"]), "must not have more than 1 Chief or Master role"))
    return out


def _default_container(pod: dict[str, Any], name: str) -> dict[str, Any] | None:
    return next((c for c in pod.get("containers") or [] if c.get("name") == name), None)


def _port(job: dict[str, Any], rtype: str) -> int | None:
    """``getPortFromPyTorchJob`` / ``GetPortFromTFJob``: the default container's named port
    (PyTorch: None when absent, an error; TF: 2222)."""
    fw = _fw(job)
    pod = job["spec"][fw["key"]][rtype]["template"]["spec"]
    container = _default_container(pod, fw["container"]) or {}
    port = next((p.get("containerPort") for p in container.get("ports") or [] if p.get("name") == fw["port_name"]), None)
    return port if port is not None or job["kind"] == "PyTorchJob" else fw["port"]


def _env(name: str, value: str) -> dict[str, str]:
    return {"name": name, "value": value} if value else {"name": name}  # EnvVar.Value is omitempty


def pytorch_env(job: dict[str, Any], rt: str, index: int) -> list[dict[str, str]]:
    """``setPodEnv``: what the operator appends to the env of EVERY container of a PyTorchJob pod."""
    spec = job["spec"]
    specs = spec["pytorchReplicaSpecs"]
    total = sum(r.get("replicas", 1) for r in specs.values())
    nproc = spec.get("nprocPerNode")
    env = [_env("PYTHONUNBUFFERED", "1")]
    if "Master" in specs:
        port = _port(job, "Master")
        if port is None:
            raise NotCreated("the Master's pytorch container has no port named pytorchjob-port: "
                             "setPodEnv fails (port not found)")
        addr = gen_name(job["metadata"]["name"], "Master", 0)
        rank = index + 1 if rt == "worker" else index
        nproc_int = int(nproc) if isinstance(nproc, str) and re.fullmatch(r"[-+]?\d+", nproc) else 1
        env += [_env("MASTER_PORT", str(port)), _env("PET_MASTER_PORT", str(port)), _env("MASTER_ADDR", addr),
                _env("PET_MASTER_ADDR", addr), _env("WORLD_SIZE", str(total * nproc_int)), _env("RANK", str(rank)),
                _env("PET_NODE_RANK", str(rank))]
    if nproc is not None:
        env.append(_env("PET_NPROC_PER_NODE", nproc))
    elastic = spec.get("elasticPolicy")
    if elastic is None:
        return env + [_env("PET_NNODES", str(total))]
    port = elastic.get("rdzvPort")
    if port is None:
        port = _port(job, "Worker") if "Worker" in specs else None
        if port is None:
            raise NotCreated("elasticPolicy without rdzvPort and no Worker port named pytorchjob-port: "
                             "setPodEnv fails (port not found)")
    host = elastic.get("rdzvHost") or f"{job['metadata']['name']}-worker-0"
    env += [_env("PET_RDZV_ENDPOINT", f"{host}:{port}"), _env("PET_RDZV_BACKEND", elastic.get("rdzvBackend") or "c10d"),
            _env("PET_NNODES", f"{elastic['minReplicas']}:{elastic['maxReplicas']}")]
    if elastic.get("maxRestarts") is not None:
        env.append(_env("PET_MAX_RESTARTS", str(elastic["maxRestarts"])))
    if elastic.get("nProcPerNode") is not None:
        env.append(_env("PET_NPROC_PER_NODE", str(elastic["nProcPerNode"])))
    if elastic.get("rdzvId") is not None:
        env.append(_env("PET_RDZV_ID", elastic["rdzvId"]))
    conf = elastic.get("rdzvConf")
    if conf is not None:
        if not conf:
            raise OperatorPanicError("elasticPolicy.rdzvConf is an empty list: generateEnvRDZVConf cuts the last "
                                     "comma of an empty string (slice bounds out of range, the operator would crash)")
        env.append(_env("PET_RDZV_CONF", ",".join(f"{c.get('key', '')}={c.get('value', '')}" for c in conf)))
    if elastic.get("standalone"):
        env.append(_env("PET_STANDALONE", ""))
    return env


def init_container(job_name: str) -> dict[str, Any]:
    """``setInitContainer``'s container for a PyTorchJob worker: wait until the master resolves."""
    master = gen_name(job_name, "Master", 0)
    return {"name": "init-pytorch", "image": INIT_CONTAINER_IMAGE,
            "command": ["sh", "-c", f"err=1;for i in $(seq {INIT_CONTAINER_MAX_TRIES}); do if nslookup {master}; "
                        "then err=0 && break; fi;echo waiting for master; sleep 2; done; exit $err"],
            "resources": {"limits": {"cpu": "100m", "memory": "20Mi"}, "requests": {"cpu": "50m", "memory": "10Mi"}},
            "imagePullPolicy": "IfNotPresent"}


def go_json(value: Any) -> str:
    """Go's ``json.Marshal`` text for plain data (maps sorted by key; <, >, & and U+2028/9 escaped)."""
    import json

    text = json.dumps(value, separators=(",", ":"), ensure_ascii=False, sort_keys=True)
    for char, escape in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"), ("\u2028", "\\u2028"),
                         ("\u2029", "\\u2029")):
        text = text.replace(char, escape)
    return text


class ClusterSpec:
    """``genClusterSpec``, computed host by host: for every replica type (lowercased), the
    endpoints ``<job>-<rt>-<i>.<namespace>.svc[.<domain>]:<port>`` (``<domain>``: the operator's
    CUSTOM_CLUSTER_DOMAIN environment variable). ``counts`` and ``host(rt, i)`` never build the
    lists; ``as_dict()`` does."""

    def __init__(self, job: dict[str, Any], cluster_domain: str = "") -> None:
        self._job = job["metadata"]["name"]
        self._suffix = "." + job["metadata"]["namespace"] + ".svc" + (f".{cluster_domain}" if cluster_domain else "")
        specs = job["spec"]["tfReplicaSpecs"]
        self.counts = {rtype.lower(): specs[rtype].get("replicas", 1) for rtype in specs}
        self.ports = {rtype.lower(): _port(job, rtype) for rtype in specs}

    def host(self, rt: str, index: int) -> str:
        return f"{gen_name(self._job, rt, index)}{self._suffix}:{self.ports[rt]}"

    def as_dict(self) -> dict[str, list[str]]:
        return {rt: [self.host(rt, i) for i in range(n)] for rt, n in self.counts.items()}


class TFConfig:
    """``genTFConfigJSONStr`` for one pod, as the operator marshals it (``str()``), kept as its
    parts until then: ``cluster`` (a :class:`ClusterSpec`), ``rt``, ``index``, ``sparse``."""

    def __init__(self, cluster: ClusterSpec, rt: str, index: int, sparse: bool) -> None:
        self.cluster, self.rt, self.index, self.sparse = cluster, rt, index, sparse

    def __str__(self) -> str:
        task = '{"type":' + go_json(self.rt) + ',"index":' + str(self.index) + "}"  # TaskSpec field order
        if not self.sparse:
            return '{"cluster":' + go_json(self.cluster.as_dict()) + ',"task":' + task + ',"environment":"cloud"}'
        ps: list[str] | None = []  # SparseClusterSpec
        worker: dict[str, str] = {}
        if self.rt == "ps":
            ps = [self.cluster.host("ps", self.index)]
        elif self.rt == "worker":
            ps = self.cluster.as_dict().get("ps")  # nil without a PS type: written null
            worker = {str(self.index): self.cluster.host(self.rt, self.index)}
        return '{"cluster":{"worker":' + go_json(worker) + ',"ps":' + go_json(ps) + '},"task":' + task + "}"


def tf_config(job: dict[str, Any], rt: str, index: int, cluster: ClusterSpec) -> TFConfig | None:
    """TF_CONFIG of a pod, None when the job is not distributed (one replica in all, ``isDistributed``)."""
    specs = job["spec"]["tfReplicaSpecs"]
    if sum(specs[t].get("replicas", 1) for t in _TF_TYPES if t in specs) == 1:
        return None
    return TFConfig(cluster, rt, index, bool(job["spec"].get("enableDynamicWorker")))


def _master_role(specs: dict[str, Any], kind: str, rtype: str, index: int) -> bool:
    """``IsMasterRole``: the Master (PyTorchJob) or Chief/Master (TFJob), else worker 0."""
    leads = ("Master",) if kind == "PyTorchJob" else ("Chief", "Master")
    if any(t in specs for t in leads):
        return rtype in leads
    return rtype == "Worker" and index == 0


def _base_spec(job: dict[str, Any], rtype: str) -> dict[str, Any]:
    """The pod spec every pod of ``rtype`` starts from: the template's (a copy), with the restart
    policy (``SetRestartPolicy``: ExitCode becomes Never) and a PyTorch worker's init container."""
    replica = job["spec"][_fw(job)["key"]][rtype]
    spec = copy.deepcopy((replica.get("template") or {}).get("spec") or {})
    if job["kind"] == "PyTorchJob" and rtype.lower() == "worker" and "Master" in job["spec"]["pytorchReplicaSpecs"]:
        spec["initContainers"] = list(spec.get("initContainers") or []) + [init_container(job["metadata"]["name"])]
    policy = replica.get("restartPolicy")
    if policy:
        spec["restartPolicy"] = "Never" if policy == "ExitCode" else policy
    else:
        spec.pop("restartPolicy", None)
    return spec


class _Pods:
    """``createNewPod`` for each index of one replica type. What every index has in common (the
    pod spec, the env the PyTorch operator injects but RANK and PET_NODE_RANK, the gang
    decoration) is built once and shared by the Pods, which must not be modified."""

    _RANKED = ("RANK", "PET_NODE_RANK")  # the only entries of pytorch_env that depend on the index

    def __init__(self, job: dict[str, Any], rtype: str, gang: str | None, scheduler_name: str | None,
                 cluster: ClusterSpec | None) -> None:
        from .training_podgroup import decorate_pod_template

        self.job, self.rtype, self.rt, self.cluster = job, rtype, rtype.lower(), cluster
        name, kind = job["metadata"]["name"], job["kind"]
        self.specs = job["spec"][_fw(job)["key"]]
        meta = (self.specs[rtype].get("template") or {}).get("metadata") or {}
        self.finalizers = meta.get("finalizers")
        self.labels = {**(meta.get("labels") or {}), OPERATOR_NAME_LABEL: CONTROLLER_NAMES[kind],
                       JOB_NAME_LABEL: name.replace("/", "-"), REPLICA_TYPE_LABEL: self.rt}
        self.env = pytorch_env(job, self.rt, 0) if kind == "PyTorchJob" else None
        first = self._labels(0)
        template = {"metadata": {k: v for k, v in (("labels", first), ("annotations", meta.get("annotations"))) if v},
                    "spec": _base_spec(job, rtype)}
        if gang:
            template = decorate_pod_template(template, name, self.rt, gang, scheduler_name=scheduler_name)
        self.spec, self.annotations = template["spec"], template["metadata"].get("annotations")
        decorated = template["metadata"]["labels"]
        self.decoration = {k: v for k, v in decorated.items() if k not in first or first[k] != v}

    def _labels(self, index: int) -> dict[str, str]:
        labels = {**self.labels, REPLICA_INDEX_LABEL: str(index)}
        if _master_role(self.specs, self.job["kind"], self.rtype, index):
            labels[JOB_ROLE_LABEL] = "master"
        return labels

    def __call__(self, index: int) -> dict[str, Any]:
        labels = self._labels(index)
        labels.update(self.decoration)
        containers = [dict(c) for c in self.spec.get("containers") or []]
        if self.env is not None:
            rank = str(index + 1 if self.rt == "worker" else index)
            injected = [{"name": e["name"], "value": rank} if e["name"] in self._RANKED else e for e in self.env]
            for container in containers:
                container["env"] = list(container.get("env") or []) + injected
        elif self.cluster is not None and (config := tf_config(self.job, self.rt, index, self.cluster)) is not None:
            for container in containers:
                if container.get("name") == _fw(self.job)["container"]:
                    container["env"] = list(container.get("env") or []) + [{"name": "TF_CONFIG", "value": config}]
                    break
        meta: dict[str, Any] = {"name": gen_name(self.job["metadata"]["name"], self.rt, index),
                                "namespace": self.job["metadata"]["namespace"], "labels": labels}
        if self.annotations:
            meta["annotations"] = self.annotations
        if self.finalizers:
            meta["finalizers"] = self.finalizers
        return {"apiVersion": "v1", "kind": "Pod", "metadata": meta, "spec": dict(self.spec, containers=containers)}


def pod(job: dict[str, Any], rtype: str, index: int, gang: str | None = None, scheduler_name: str | None = None,
        cluster_domain: str = "") -> dict[str, Any]:
    """The Pod ``createNewPod`` creates for ``rtype`` and ``index`` of a defaulted job (namespace
    set); TF_CONFIG, if any, is a :class:`TFConfig` (``str()`` it)."""
    cluster = ClusterSpec(job, cluster_domain) if job["kind"] == "TFJob" else None
    return copy.deepcopy(_Pods(job, rtype, gang, scheduler_name, cluster)(index))


def service(job: dict[str, Any], rtype: str, index: int) -> dict[str, Any]:
    """``CreateNewService``: the headless Service named as the pod, selecting it by its labels,
    with the default container's ports (by name; none when it declares none). ``targetPort`` is
    left to the API server (which sets it to ``port``)."""
    fw = _fw(job)
    name = job["metadata"]["name"]
    labels = {OPERATOR_NAME_LABEL: CONTROLLER_NAMES[job["kind"]], JOB_NAME_LABEL: name.replace("/", "-"),
              REPLICA_TYPE_LABEL: rtype.lower(), REPLICA_INDEX_LABEL: str(index)}
    pod_spec = (job["spec"][fw["key"]][rtype].get("template") or {}).get("spec") or {}
    ports = {p.get("name", ""): p.get("containerPort") for p in
             (_default_container(pod_spec, fw["container"]) or {}).get("ports") or []}
    spec: dict[str, Any] = {"clusterIP": "None", "selector": dict(labels)}
    if ports:
        spec["ports"] = [{"name": n, "port": p} if n else {"port": p} for n, p in sorted(ports.items())]
    return {"apiVersion": "v1", "kind": "Service",
            "metadata": {"name": gen_name(name, rtype, index), "namespace": job["metadata"]["namespace"],
                         "labels": labels}, "spec": spec}


def hpa(job: dict[str, Any]) -> dict[str, Any]:
    """``desiredHPA``: a PyTorchJob with ``elasticPolicy.metrics`` gets a HorizontalPodAutoscaler."""
    policy = job["spec"]["elasticPolicy"]
    spec: dict[str, Any] = {"scaleTargetRef": {"kind": "PyTorchJob", "name": job["metadata"]["name"],
                                               "apiVersion": "kubeflow.org/v1"}}
    if policy.get("minReplicas") is not None:
        spec["minReplicas"] = policy["minReplicas"]
    spec["maxReplicas"] = policy["maxReplicas"]
    spec["metrics"] = policy["metrics"]
    return {"apiVersion": "autoscaling/v2", "kind": "HorizontalPodAutoscaler",
            "metadata": {"name": job["metadata"]["name"], "namespace": job["metadata"]["namespace"]}, "spec": spec}


def prepared(job: dict[str, Any]) -> dict[str, Any]:
    """The job as ``Reconcile`` works on it: the webhook passed it, it is in a namespace, not
    managed by another controller, and defaulted. Raises ``NotCreated`` otherwise."""
    problems = webhook_problems(job)
    if problems:
        raise NotCreated(f"the training-operator's webhook rejects this {job['kind']}: "
                         + "; ".join(m for _, m in problems))
    if not job["metadata"].get("namespace"):
        job = dict(job, metadata=dict(job["metadata"], namespace="default"))
    managed_by = (job["spec"].get("runPolicy") or {}).get("managedBy")
    if managed_by not in (None, MANAGERS[0]):
        raise NotCreated(f"another controller manages this {job['kind']} (runPolicy.managedBy)")
    return td.set_defaults(job)


def created_objects(job: dict[str, Any], gang: str | None = None, *, scheduler_name: str | None = None,
                    priority_classes: dict[str, int] | None = None, cluster_domain: str = "",
                    max_pods: int | None = None) -> Iterator[dict[str, Any]]:
    """The objects the first ``Reconcile`` creates (with Volcano: once the PodGroup is admitted), in order.

    The HPA (PyTorchJob with elasticPolicy.metrics); the PodGroup (with a gang scheduler); then
    for each replica type its Pods and its Services. Nothing while suspended. ``max_pods``
    bounds the Pods and Services per replica type. Pods of one type share their unchanged parts;
    a TF_CONFIG value is a :class:`TFConfig`. Raises ``NotCreated`` (before the first object)
    or ``OperatorPanicError``.
    """
    from .training_podgroup import podgroup

    job = prepared(job)
    if job["spec"]["runPolicy"].get("suspend"):
        return
    cluster = ClusterSpec(job, cluster_domain) if job["kind"] == "TFJob" else None
    policy = job["spec"].get("elasticPolicy")
    if isinstance(policy, dict) and policy.get("metrics") is not None:
        yield hpa(job)
    if gang:
        group = podgroup(job, gang, priority_classes or {}, scheduler_name=scheduler_name)
        if group is not None:
            yield group
    for rtype in replica_types(job):
        replicas = job["spec"][_fw(job)["key"]][rtype].get("replicas", 1)
        count = replicas if max_pods is None else min(replicas, max_pods)
        pods = _Pods(job, rtype, gang, scheduler_name, cluster)
        for index in range(count):
            yield pods(index)
        for index in range(count):
            yield service(job, rtype, index)
