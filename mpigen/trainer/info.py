"""The runtime info: what Trainer v2.3.0's runtime framework knows of a TrainJob and its runtime
before its plugins run.

Ports, at tag **v2.3.0** of kubeflow/trainer: ``TrainingRuntime.newRuntimeInfo`` and
``mergeRuntimePatches`` (``pkg/runtime/core/trainingruntime.go``; a ClusterTrainingRuntime goes
through the same code, ``clustertrainingruntime.go``), ``runtime.Info``, ``PodSet``,
``Container``, ``NewInfo``, ``WithPodSet`` and the finders (``pkg/runtime/runtime.go``),
``ExtractResourcePerNodeFromRuntime`` and ``GetNumGPUPerNode`` (same file),
``MergeResourceRequirements`` (``pkg/util/trainingruntime/trainingruntime.go``), the upserts of
``pkg/apply/apply.go``, and Kubernetes v0.36.2's ``PodRequests`` (k8s.io/component-helpers
``resource/helpers.go``), which gives each PodSet's ``SinglePodRequests``.

What ``new_runtime_info`` does, in order:

* labels and annotations for the JobSet: the runtime template's ``metadata``, then every runtime
  patch's ``template.metadata`` over them, patch by patch;
* the JobSet spec: the runtime's ``template.spec`` with every runtime patch's ``template.spec``
  strategically merged over it (:mod:`.patch`), the replicated jobs back in the runtime's order.
  Like Go's typed round trip, quantities are written as ``Quantity.String()`` writes them;
* one PodSet per replicated job, in order: its count is the job template's ``parallelism``
  (default 1), or ``mlPolicy.numNodes`` (default 1) for the job labelled
  ``trainer.kubeflow.org/trainjob-ancestor-step: trainer`` when the runtime has an mlPolicy;
  counts below 1 become 1 here (plugins may set any count later);
* ``trainer.resourcesPerNode`` is strategically merged over the resources of the container named
  ``node`` (the first one) of the trainer-ancestor job -- and, with ``mlPolicy.mpi.
  runLauncherAsNode``, of the job named ``node`` too: requests and limits per resource name, the
  TrainJob's value winning. This merge is what the JobSet and the PodGroup get; the torch, MPI
  and XGBoost plugins read resources per node elsewhere (see :func:`resources_per_node`);
* ``SinglePodRequests``: ``PodRequests`` of the job's pod spec: the containers' requests summed
  (limits never stand in for a missing request: the API server's pod defaulting, which copies
  limits into requests, never sees a runtime template), the largest init-container need (a
  restartable init container counts as a container, and in every later init container's need)
  taken where larger, pod-level ``resources.requests`` (cpu, memory, hugepages-*) replacing the
  sum, ``overhead`` added.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

from mpigen.operator.podgroup import _parse as parse_quantity
from mpigen.operator.quantity import Quantity, QuantityError

from . import patch as smp

ANCESTOR_LABEL = "trainer.kubeflow.org/trainjob-ancestor-step"
ANCESTOR_TRAINER = "trainer"
ANCESTOR_DATASET = "dataset-initializer"
ANCESTOR_MODEL = "model-initializer"
NODE = "node"  # constants.Node: the trainer container's and the MPI node job's name
LAUNCHER = "launcher"
DEFAULT_JOB_REPLICAS = 1


class TrainerError(ValueError):
    """What the runtime framework returns as an error: nothing is created. ``path`` is the field
    of the TrainJob (or, prefixed ``runtime``, of its runtime) that causes it."""

    def __init__(self, message: str, path: tuple = ("spec",)) -> None:
        super().__init__(message)
        self.path = path


@dataclass
class Container:
    """``runtime.Container``: what plugins may change of a container (lists are copies)."""

    name: str
    image: str = ""
    command: list[str] | None = None
    env: list[dict[str, Any]] = field(default_factory=list)
    ports: list[dict[str, Any]] = field(default_factory=list)
    volume_mounts: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class PodSet:
    """``runtime.PodSet``: one replicated job as the plugins see it."""

    name: str
    ancestor: str | None
    count: int
    init_containers: list[Container]
    containers: list[Container]
    volumes: list[dict[str, Any]]
    single_pod_requests: dict[str, Quantity]
    # IdentifyPodNetwork (jobset): the pods' host names; a function, never a list (n may be 10,000)
    endpoints: Endpoints | None = None


@dataclass
class Endpoints:
    """The endpoints ``IdentifyPodNetwork`` gives a PodSet: ``<job>-<rjob>-<replica>-<pod>.<subdomain>``
    for every replica of the replicated job and every pod of it, replica by replica. ``len()`` and
    ``line(i)`` cost the same for any count."""

    job: str
    rjob: str
    replicas: int
    pods: int
    subdomain: str

    def __len__(self) -> int:
        return max(self.replicas, 0) * max(self.pods, 0)

    def line(self, i: int) -> str:
        if not 0 <= i < len(self):
            raise IndexError(i)
        replica, pod = divmod(i, self.pods)
        return f"{self.job}-{self.rjob}-{replica}-{pod}.{self.subdomain}"

    def __iter__(self) -> Iterator[str]:
        return (self.line(i) for i in range(len(self)))


@dataclass
class Info:
    """``runtime.Info``. ``jobset_spec`` is the JobSet spec apply configuration (plain JSON data)
    that the plugins change and the jobset plugin finally writes out."""

    labels: dict[str, str]
    annotations: dict[str, str]
    ml_policy: dict[str, Any] | None  # RuntimePolicy.MLPolicySource (the runtime's mlPolicy)
    pod_group_policy: dict[str, Any] | None
    jobset_spec: dict[str, Any]
    pod_sets: list[PodSet]
    pod_labels: dict[str, str] = field(default_factory=dict)  # Scheduler.PodLabels
    pod_annotations: dict[str, str] = field(default_factory=dict)  # Scheduler.PodAnnotations
    # not in Go's Info: numProcPerNode as the torch or MPI plugin resolved it, for explain
    num_proc_per_node: int | str | None = None
    num_proc_reason: str = ""

    def pod_set_by_ancestor(self, ancestor: str) -> PodSet | None:
        return next((ps for ps in self.pod_sets if ps.ancestor == ancestor), None)

    def pod_set_by_name(self, name: str) -> PodSet | None:
        return next((ps for ps in self.pod_sets if ps.name == name), None)

    def container_by_ancestor(self, ancestor: str, name: str) -> Container | None:
        """``FindContainerByPodSetAncestorContainerName``."""
        ps = self.pod_set_by_ancestor(ancestor)
        return None if ps is None else next((c for c in ps.containers if c.name == name), None)

    def container_by_pod_set_name(self, pod_set: str, name: str) -> Container | None:
        """``FindContainerByPodSetName``: containers first, then init containers."""
        ps = self.pod_set_by_name(pod_set)
        if ps is None:
            return None
        return next((c for c in ps.containers + ps.init_containers if c.name == name), None)

    def policy(self, name: str) -> dict[str, Any] | None:
        """The ML policy source ``name`` (torch, mpi, jax, xgboost, flux) when the runtime sets it."""
        source = (self.ml_policy or {}).get(name)
        return source if isinstance(source, dict) else None


# ------------------------------------------------------------------ apply.go upserts


def _upsert(items: list, item: Any, same: Callable[[Any, Any], bool]) -> None:
    for i, existing in enumerate(items):
        if same(existing, item):
            items[i] = item
            return
    items.append(item)


def upsert_env(env: list[dict[str, Any]], *items: dict[str, Any]) -> None:
    """``UpsertEnvVars``: replace the variable of the same name in place, else append."""
    for item in items:
        _upsert(env, item, lambda a, b: a.get("name") == b.get("name"))


def upsert_ports(ports: list[dict[str, Any]], *items: dict[str, Any]) -> None:
    """``UpsertPort``: the same containerPort, or the same name -- and two ports without a name
    count as the same, so a port without a name is replaced by the first unnamed port upserted."""
    for item in items:
        _upsert(ports, item, lambda a, b: a.get("containerPort") == b.get("containerPort")
                or a.get("name") == b.get("name"))


def upsert_volumes(volumes: list[dict[str, Any]], *items: dict[str, Any]) -> None:
    for item in items:
        _upsert(volumes, item, lambda a, b: a.get("name") == b.get("name"))


def upsert_volume_mounts(mounts: list[dict[str, Any]], *items: dict[str, Any]) -> None:
    """``UpsertVolumeMounts``: by mountPath."""
    for item in items:
        _upsert(mounts, item, lambda a, b: a.get("mountPath") == b.get("mountPath"))


def env_vars(env: list[dict[str, Any]] | None) -> list[dict[str, Any]]:
    """``apply.EnvVars``: the TrainJob's variables as apply configurations. ``value`` is always
    written (even empty) unless ``valueFrom`` is set, of which only fieldRef, resourceFieldRef
    (its divisor always written, ``"0"`` when unset), configMapKeyRef and secretKeyRef are kept."""
    out = []
    for e in env or []:
        var: dict[str, Any] = {"name": e.get("name", "")}
        source = e.get("valueFrom")
        if isinstance(source, dict):
            kept: dict[str, Any] = {}
            if isinstance(source.get("fieldRef"), dict):
                kept["fieldRef"] = {"fieldPath": source["fieldRef"].get("fieldPath", "")}
            if isinstance(source.get("resourceFieldRef"), dict):
                ref = source["resourceFieldRef"]
                kept["resourceFieldRef"] = {"containerName": ref.get("containerName", ""),
                                            "resource": ref.get("resource", ""),
                                            "divisor": go_quantity(ref.get("divisor", "0"))}
            for key in ("configMapKeyRef", "secretKeyRef"):
                if isinstance(source.get(key), dict):
                    ref = source[key]
                    kept[key] = {"key": ref.get("key", ""), "name": ref.get("name", "")}
                    if ref.get("optional") is not None:
                        kept[key]["optional"] = ref["optional"]
            var["valueFrom"] = kept
        else:
            var["value"] = e.get("value", "")
        out.append(var)
    return out


# ------------------------------------------------------------------ quantities as Go writes them


def go_quantity(value: Any) -> str:
    """A quantity as a typed Go object writes it again (``Quantity.String()`` of the parse)."""
    if isinstance(value, bool) or value is None:
        raise TrainerError(f"{value!r} is not a quantity")
    try:
        return str(parse_quantity(value))
    except (QuantityError, ValueError) as exc:
        raise TrainerError(f"quantity {value!r}: {exc}") from None


def _typed_resources(resources: Any) -> None:
    if not isinstance(resources, dict):
        return
    for part in ("limits", "requests"):
        values = resources.get(part)
        if isinstance(values, dict):
            resources[part] = {name: go_quantity(v) for name, v in values.items()}


def _typed_pod_spec(pod: Any) -> None:
    """Quantities of a pod spec in Go's spelling (a typed round trip parses and writes them again)."""
    if not isinstance(pod, dict):
        return
    for kind in ("containers", "initContainers", "ephemeralContainers"):
        for container in pod.get(kind) or []:
            if isinstance(container, dict):
                _typed_resources(container.get("resources"))
                for env in container.get("env") or []:
                    source = env.get("valueFrom") if isinstance(env, dict) else None
                    ref = source.get("resourceFieldRef") if isinstance(source, dict) else None
                    if isinstance(ref, dict) and "divisor" in ref:
                        ref["divisor"] = go_quantity(ref["divisor"])
    _typed_resources(pod.get("resources"))
    if isinstance(pod.get("overhead"), dict):
        pod["overhead"] = {name: go_quantity(v) for name, v in pod["overhead"].items()}
    for volume in pod.get("volumes") or []:
        empty_dir = volume.get("emptyDir") if isinstance(volume, dict) else None
        if isinstance(empty_dir, dict) and empty_dir.get("sizeLimit") is not None:
            empty_dir["sizeLimit"] = go_quantity(empty_dir["sizeLimit"])


def typed_runtime(runtime: dict[str, Any]) -> dict[str, Any]:
    """A copy of a runtime object with its quantities as Go writes them back (the snapshot holds
    the typed object the controller read): the pod templates' and the volume claim templates'."""
    out = copy.deepcopy(runtime)
    spec = ((out.get("spec") or {}).get("template") or {}).get("spec")
    if not isinstance(spec, dict):
        return out
    for rjob in spec.get("replicatedJobs") or []:
        pod = ((((rjob or {}).get("template") or {}).get("spec") or {}).get("template") or {}).get("spec")
        _typed_pod_spec(pod)
    for policy in spec.get("volumeClaimPolicies") or []:
        for claim in (policy or {}).get("templates") or []:
            _typed_resources(((claim or {}).get("spec") or {}).get("resources"))
    return out


def pod_spec_of(rjob: dict[str, Any]) -> dict[str, Any]:
    """The pod spec of a replicated job (``template.spec.template.spec``), created where missing or
    null (Go's typed zero value)."""
    node = rjob
    for key in ("template", "spec", "template", "spec"):
        if not isinstance(node.get(key), dict):
            node[key] = {}
        node = node[key]
    return node


# ------------------------------------------------------------------ PodRequests


def _add(into: dict[str, Quantity], items: dict[str, Quantity]) -> None:
    """``addResourceList``: a new name keeps its quantity (DeepCopy keeps its text)."""
    for name, q in items.items():
        into[name] = q if name not in into else into[name].add(q)


def _max(into: dict[str, Quantity], items: dict[str, Quantity]) -> None:
    for name, q in items.items():
        if name not in into or q.cmp(into[name]) > 0:
            into[name] = q


def _requests(container: Any) -> dict[str, Quantity]:
    requests = ((container or {}).get("resources") or {}).get("requests") if isinstance(container, dict) else None
    return {name: parse_quantity(v) for name, v in (requests or {}).items()}


def pod_requests(pod: dict[str, Any]) -> dict[str, Quantity]:
    """``resourcehelpers.PodRequests(pod, PodResourcesOptions{})`` of a pod spec (quantities as
    Go's ``String()`` writes them already: see :func:`_typed_pod_spec`)."""
    reqs: dict[str, Quantity] = {}
    for container in pod.get("containers") or []:
        _add(reqs, _requests(container))
    restartable: dict[str, Quantity] = {}
    init_need: dict[str, Quantity] = {}
    for container in pod.get("initContainers") or []:
        own = _requests(container)
        if isinstance(container, dict) and container.get("restartPolicy") == "Always":
            _add(reqs, own)
            _add(restartable, own)
            need = dict(restartable)
        else:
            need = {}
            _add(need, own)
            _add(need, restartable)
        _max(init_need, need)
    _max(reqs, init_need)
    pod_level = ((pod.get("resources") or {}).get("requests") or {}) if isinstance(pod.get("resources"), dict) else {}
    supported = {n: v for n, v in pod_level.items() if n in ("cpu", "memory") or n.startswith("hugepages-")}
    if supported:
        for name, value in supported.items():
            reqs[name] = parse_quantity(value)
    if isinstance(pod.get("overhead"), dict):
        _add(reqs, {n: parse_quantity(v) for n, v in pod["overhead"].items()})
    return reqs


# ------------------------------------------------------------------ newRuntimeInfo


def merge_resources(base: dict[str, Any], override: dict[str, Any]) -> dict[str, Any]:
    """The node container's resources after ``resourcesPerNode``: ``MergeResourceRequirements``
    (``override`` strategically merged over ``base``: limits and requests per resource name) of
    the container's limits and requests -- its ``claims`` are not carried over, and the result
    written back holds limits and requests only (an empty one is left out)."""
    def typed(resources: dict[str, Any], parts: tuple[str, ...]) -> dict[str, Any]:
        out = {k: v for k, v in resources.items() if k in parts and v}
        _typed_resources(out)
        return out

    merged = smp.merge(typed(base, ("limits", "requests")), typed(override, ("limits", "requests", "claims")),
                       smp.RESOURCE_REQUIREMENTS)
    _typed_resources(merged)
    return {k: merged[k] for k in ("limits", "requests") if merged.get(k)}


def _patch_spec(trainjob: dict[str, Any]) -> Iterator[dict[str, Any]]:
    for runtime_patch in (trainjob.get("spec") or {}).get("runtimePatches") or []:
        template = ((runtime_patch or {}).get("trainingRuntimeSpec") or {}).get("template") or {}
        if isinstance(template, dict):
            yield template


def merge_runtime_patches(trainjob: dict[str, Any], jobset_spec: dict[str, Any]) -> dict[str, Any]:
    """``mergeRuntimePatches``: each patch's ``template.spec`` over the JobSet spec (strategic
    merge), then the replicated jobs in the runtime's order again (a job a patch adds goes first,
    as Go's sort puts a name missing from the order map at 0 -- the TrainJob webhook refuses
    such patches)."""
    order = {rjob.get("name"): i for i, rjob in enumerate(jobset_spec.get("replicatedJobs") or [])}
    spec = jobset_spec
    for template in _patch_spec(trainjob):
        if template.get("spec") is None:
            continue
        try:
            spec = smp.merge(spec, template["spec"], smp.JOBSET_SPEC)
        except smp.PatchError as exc:
            raise TrainerError(f"runtime patch: {exc}", ("spec", "runtimePatches")) from None
    rjobs = spec.get("replicatedJobs")
    if isinstance(rjobs, list):
        spec["replicatedJobs"] = sorted(rjobs, key=lambda r: order.get((r or {}).get("name"), 0))
    return spec


def _container(c: dict[str, Any]) -> Container:
    return Container(name=c.get("name") or "", image=c.get("image") or "", command=c.get("command"),
                     env=list(c.get("env") or []), ports=list(c.get("ports") or []),
                     volume_mounts=list(c.get("volumeMounts") or []))


def new_runtime_info(trainjob: dict[str, Any], runtime: dict[str, Any]) -> Info:
    """``newRuntimeInfo`` for a (defaulted) TrainJob and its (defaulted) runtime."""
    spec = runtime.get("spec") or {}
    template = spec.get("template") or {}
    ml_policy = spec.get("mlPolicy") if isinstance(spec.get("mlPolicy"), dict) else None
    meta = template.get("metadata") or {}
    labels = dict(meta["labels"]) if isinstance(meta.get("labels"), dict) else None
    annotations = dict(meta["annotations"]) if isinstance(meta.get("annotations"), dict) else None
    for patch_template in _patch_spec(trainjob):
        patch_meta = patch_template.get("metadata") or {}
        if patch_meta.get("labels"):
            labels = {**(labels or {}), **patch_meta["labels"]}
        if patch_meta.get("annotations"):
            annotations = {**(annotations or {}), **patch_meta["annotations"]}
    jobset_spec = merge_runtime_patches(trainjob, copy.deepcopy(template.get("spec") or {}))
    rjobs = jobset_spec.setdefault("replicatedJobs", []) if isinstance(jobset_spec, dict) else []
    for rjob in rjobs:
        _typed_pod_spec(pod_spec_of(rjob))
    trainer = (trainjob.get("spec") or {}).get("trainer") or {}
    per_node = trainer.get("resourcesPerNode")
    mpi = (ml_policy or {}).get("mpi") if ml_policy else None
    launcher_as_node = isinstance(mpi, dict) and mpi.get("runLauncherAsNode") is True
    pod_sets = []
    for rjob in rjobs:
        job_spec = rjob["template"]["spec"]
        count = job_spec.get("parallelism", 1) if job_spec.get("parallelism") is not None else 1
        labels_of_job = (rjob["template"].get("metadata") or {}).get("labels") or {}
        ancestor = labels_of_job.get(ANCESTOR_LABEL) if ANCESTOR_LABEL in labels_of_job else None
        if ancestor == ANCESTOR_TRAINER and ml_policy is not None:
            count = ml_policy.get("numNodes", 1) if ml_policy.get("numNodes") is not None else 1
        pod = pod_spec_of(rjob)
        if isinstance(per_node, dict) and (ancestor == ANCESTOR_TRAINER and ml_policy is not None
                                           or launcher_as_node and rjob.get("name") == NODE):
            for container in pod.get("containers") or []:
                if container.get("name") != NODE:
                    continue
                container["resources"] = merge_resources(container.get("resources") or {}, per_node)
                break
        pod_sets.append(PodSet(
            name=rjob.get("name") or "", ancestor=ancestor, count=max(count, 1),
            init_containers=[_container(c) for c in pod.get("initContainers") or []],
            containers=[_container(c) for c in pod.get("containers") or []],
            volumes=list(pod.get("volumes") or []), single_pod_requests=pod_requests(pod)))
    return Info(labels=labels or {}, annotations=annotations or {},
                ml_policy=copy.deepcopy(ml_policy), pod_group_policy=spec.get("podGroupPolicy"),
                jobset_spec=jobset_spec, pod_sets=pod_sets)


def resources_per_node(info: Info, trainjob: dict[str, Any]) -> dict[str, Any]:
    """What torch, MPI and XGBoost count GPUs and CPUs in: the TrainJob's
    ``trainer.resourcesPerNode`` when set (as is, not merged), else
    ``ExtractResourcePerNodeFromRuntime``: the resources of the first container named ``node`` of
    the first replicated job that is named ``node`` or labelled as the trainer ancestor -- after
    the merge above, so the same as the job's when it has none."""
    trainer = (trainjob.get("spec") or {}).get("trainer") or {}
    if isinstance(trainer.get("resourcesPerNode"), dict):
        return trainer["resourcesPerNode"]
    for rjob in info.jobset_spec.get("replicatedJobs") or []:
        labels = (rjob["template"].get("metadata") or {}).get("labels") or {}
        if rjob.get("name") == NODE or labels.get(ANCESTOR_LABEL) == ANCESTOR_TRAINER:
            for container in pod_spec_of(rjob).get("containers") or []:
                if container.get("name") == NODE:
                    return container.get("resources") or {}
    return {}


def int32(n: int) -> int:
    """Go's conversion of an int to int32 (two's complement wrap)."""
    return (n + 2**31) % 2**32 - 2**31


def num_gpu_per_node(resources: dict[str, Any]) -> int:
    """``GetNumGPUPerNode``: the value (rounded up) of the first resource whose name contains
    "gpu" (any case) in the requests, else in the limits; 0 when none. Go ranges over the map:
    with several GPU names the one it meets first is random; mpigen takes the first by name.
    (Beyond 2**63 Go's ``Quantity.Value()`` overflows in ways that depend on how the quantity is
    stored; mpigen, as :mod:`mpigen.operator.quantity`, keeps the exact value.)"""
    def first(values: Any) -> int:
        for name in sorted(values or {}):
            if "gpu" in name.lower():
                return parse_quantity(values[name]).value()
        return 0

    gpus = first(resources.get("requests"))
    limit = first(resources.get("limits"))
    return limit if gpus == 0 and limit > 0 else gpus


def num_cpu_per_node(resources: dict[str, Any]) -> int:
    """``getNumCPUPerNode`` (torch plugin): the cpu request's value rounded up, else (no or a
    zero request) the cpu limit's, else 0."""
    request = (resources.get("requests") or {}).get("cpu")
    if request is None or parse_quantity(request).is_zero():
        limit = (resources.get("limits") or {}).get("cpu")
        return 0 if limit is None else parse_quantity(limit).value()
    return parse_quantity(request).value()
