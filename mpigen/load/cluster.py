"""The cluster file (``--cluster``): what mpigen is told of the cluster.

* **PriorityClasses** (``scheduling.k8s.io``), the values the operators order the gang's
  minResources by;
* **Nodes** (``v1``), for the question whether a gang fits (:mod:`mpigen.scheduler`): their
  labels, taints, ``spec.unschedulable`` and ``status.allocatable`` (the capacity when there is
  no allocatable, as the API server defaults a Node's status);
* **Pods** (``v1``) bound to those Nodes (``spec.nodeName``) and not finished (a phase other than
  Succeeded and Failed, as the scheduler's cache counts them): their requests are taken off the
  node's room, and each counts against its ``pods``. Other Pods are ignored;
* **TrainingRuntimes and ClusterTrainingRuntimes** (``trainer.kubeflow.org/v1alpha1``), the
  runtimes a TrainJob names (:mod:`mpigen.load.trainer_runtimes`; ``kubectl get
  clustertrainingruntimes,trainingruntimes -A -o yaml``);
* **Namespaces** (``v1``): their labels, such as Istio's injection label, and annotations, such as
  Volcano's default queue (``kubectl get namespaces -o yaml``);
* Volcano's **Queues**, **PodGroups** and scheduler configuration (:mod:`mpigen.load.volcano`), for
  whether a queue admits a gang (:mod:`mpigen.scheduler.admission`). Every Pod that is not
  finished is kept too (:class:`~mpigen.scheduler.admission.objects.ClusterPod`): its PodGroup,
  priority and requests tell what a queue already uses;
* Kueue's **ClusterQueues**, **Cohorts**, **LocalQueues**, **ResourceFlavors**,
  **WorkloadPriorityClasses** and **Workloads**, and scheduler-plugins' **ElasticQuotas**
  (:mod:`mpigen.load.kueue`), for whether Kueue admits a job's Workload and whether capacity
  scheduling lets its pods in.

One file, as kubectl prints them: ``kubectl get priorityclasses,nodes -o yaml`` (one ``List``),
``kubectl get nodes -o yaml`` and ``kubectl get priorityclasses -o yaml`` outputs joined with a
``---`` line, typed lists (``NodeList``...) or separate documents. Other objects are ignored
with a warning.
"""

from __future__ import annotations

import gc
from dataclasses import dataclass, field, replace
from typing import Any, Iterable

from ..diagnostics import Diagnostic, Severity, format_path
from ..operator.podgroup import _parse as parse_quantity
from ..operator.quantity import Quantity
from ..scheduler.admission.elasticquota import ElasticQuota
from ..scheduler.admission.kueue_objects import (ClusterQueue, Cohort, LocalQueue, ResourceFlavor, Workload,
                                                 WorkloadPriorityClass)
from ..scheduler.admission.objects import ClusterPod, VolcanoConf, VolcanoPodGroup, VolcanoQueue
from ..scheduler.fit import FILE, Origin
from ..scheduler.nodes import Node, Taint, pod_requests
from . import kueue, volcano
from .document import Document
from .pause import collector_paused
from .trainer_runtimes import Runtimes, is_runtime, runtimes_from

INT32_MIN, INT32_MAX = -(2**31), 2**31 - 1
GROUP_ANNOTATION = "scheduling.k8s.io/group-name"  # a Pod's Volcano PodGroup
VOLCANO_GATE = "scheduling.volcano.sh/queue-allocation-gate"
READ = ("scheduling.k8s.io PriorityClass, v1 Node, v1 Pod, v1 Namespace, trainer.kubeflow.org TrainingRuntime and "
        "ClusterTrainingRuntime, scheduling.volcano.sh Queue and PodGroup, kueue.x-k8s.io ClusterQueue, Cohort, "
        "LocalQueue, ResourceFlavor, WorkloadPriorityClass and Workload, scheduling.x-k8s.io ElasticQuota")
FINISHED = ("Succeeded", "Failed")


@dataclass(frozen=True)
class Cluster:
    """What a cluster file holds."""

    priority_classes: dict[str, int] = field(default_factory=dict)  # name -> value, sorted by name
    nodes: tuple[Node, ...] = ()  # in the file's order; each with the requests of its bound Pods
    bound_pods: int = 0  # Pods of the file bound to one of the nodes and not finished
    runtimes: Runtimes = field(default_factory=Runtimes)  # TrainingRuntimes and ClusterTrainingRuntimes
    namespaces: dict[str, dict[str, str]] = field(default_factory=dict)  # name -> labels
    namespace_annotations: dict[str, dict[str, str]] = field(default_factory=dict)  # name -> annotations
    default_priority: int = 0  # the globalDefault PriorityClass's value, else 0
    pods: tuple[ClusterPod, ...] = ()  # every Pod of the file that is not finished, in the file's order
    queues: tuple[VolcanoQueue, ...] = ()  # Volcano Queues, in the file's order
    podgroups: tuple[VolcanoPodGroup, ...] = ()  # Volcano PodGroups, in the file's order
    volcano_conf: VolcanoConf | None = None  # the Volcano scheduler's configuration, if the file holds it
    cluster_queues: tuple[ClusterQueue, ...] = ()  # Kueue's, in the file's order
    cohorts: tuple[Cohort, ...] = ()
    local_queues: tuple[LocalQueue, ...] = ()
    resource_flavors: tuple[ResourceFlavor, ...] = ()
    workloads: tuple[Workload, ...] = ()
    workload_priority_classes: dict[str, int] = field(default_factory=dict)  # name -> value
    elastic_quotas: tuple[ElasticQuota, ...] = ()  # scheduler-plugins', in the file's order
    origin: Origin = field(default=FILE, compare=False)  # the file, or a live cluster (mpigen.kube)


def _name(obj: dict[str, Any]) -> str | None:
    meta = obj.get("metadata")
    name = meta.get("name") if isinstance(meta, dict) else None
    return name if isinstance(name, str) and name else None


def _gated(gates: Any) -> bool:
    """Scheduling gates that hold the Pod back from Volcano's queue accounting: any but Volcano's own
    queue-allocation gate alone (``calSchedulingGated``, ``HasOnlyVolcanoSchedulingGate``)."""
    if not isinstance(gates, list) or not gates:
        return False
    return not (len(gates) == 1 and isinstance(gates[0], dict) and gates[0].get("name") == VOLCANO_GATE)


FREEZE_OBJECTS = 5_000
"""Nodes and Pods from which what the reading leaves is frozen (``gc.freeze``)."""


def read_cluster(documents: Iterable[Document], filename: str) -> tuple[Cluster, list[Diagnostic]]:
    """The cluster the documents describe, and the file's diagnostics; the documents are read once,
    in order (the live reader gives them as their pages arrive).

    As a large text is read (:mod:`mpigen.load.pause`), the collector is paused: what is built holds
    no cycle, and the full collections that a hundred thousand Pods' objects trigger traverse
    everything built so far (a tenth of the time at 150,000 Pods); a large cluster's value, kept for
    the rest of the run, is frozen."""
    with collector_paused():
        cluster, diagnostics = _read_cluster(documents, filename)
        if len(cluster.nodes) + len(cluster.pods) >= FREEZE_OBJECTS:
            gc.freeze()
    return cluster, diagnostics


def _read_cluster(documents: Iterable[Document], filename: str) -> tuple[Cluster, list[Diagnostic]]:
    classes: dict[str, int] = {}
    global_default: list[int] = []
    nodes: dict[str, Node] = {}
    pods: list[ClusterPod] = []
    queues: dict[str, VolcanoQueue] = {}
    podgroups: dict[str, VolcanoPodGroup] = {}
    confs: list[VolcanoConf] = []
    annotations: dict[str, dict[str, str]] = {}
    runtimes: list[tuple[dict[str, Any], Document, tuple]] = []  # (runtime, its document, its path)
    namespaces: dict[str, dict[str, str]] = {}
    kueue_objects: dict[tuple[str, str], Any] = {}  # (kind, namespace/name) -> object
    elastic_quotas: dict[str, ElasticQuota] = {}
    diagnostics: list[Diagnostic] = []

    def report(doc: Document, path: tuple, message: str, severity: Severity = Severity.ERROR) -> None:
        line, col = doc.locate(path)
        diagnostics.append(Diagnostic(filename, line, col, format_path(path), "cluster", severity, message))

    def priority_class(doc: Document, obj: dict[str, Any], path: tuple) -> None:
        name = _name(obj)
        if name is None:
            report(doc, path + ("metadata",), "PriorityClass without metadata.name")
            return
        value = obj.get("value")
        if isinstance(value, bool) or not isinstance(value, int) or not INT32_MIN <= value <= INT32_MAX:
            report(doc, path + ("value",), f"PriorityClass {name!r} needs an integer value (int32)")
            return
        if name in classes and classes[name] != value:
            report(doc, path + ("metadata", "name"), f"PriorityClass {name!r} is defined twice with different values")
        classes[name] = value
        if obj.get("globalDefault") is True:
            global_default.append(value)

    def quantities(doc: Document, what: str, raw: Any, path: tuple) -> dict[str, Quantity] | None:
        if raw is None:
            return {}
        if not isinstance(raw, dict):
            report(doc, path, f"{what}: expected a mapping of resource names to quantities")
            return None
        out = {}
        for name, value in raw.items():
            try:
                out[str(name)] = parse_quantity(value)
            except (ValueError, TypeError):
                report(doc, path + (name,), f"{what}: {value!r} is not a quantity")
                return None
        return out

    def node(doc: Document, obj: dict[str, Any], path: tuple) -> None:
        name = _name(obj)
        if name is None:
            report(doc, path + ("metadata",), "Node without metadata.name")
            return
        what = f"Node {name!r}"
        labels = (obj.get("metadata") or {}).get("labels") or {}
        if not isinstance(labels, dict):
            report(doc, path + ("metadata", "labels"), f"{what}: metadata.labels is not a mapping")
            return
        spec = obj.get("spec") if isinstance(obj.get("spec"), dict) else {}
        status = obj.get("status") if isinstance(obj.get("status"), dict) else {}
        taints = []
        raw_taints = spec.get("taints") or []
        for i, taint in enumerate(raw_taints if isinstance(raw_taints, list) else [None]):
            if not isinstance(taint, dict) or not isinstance(taint.get("key"), str) \
                    or not isinstance(taint.get("effect"), str):
                report(doc, path + ("spec", "taints") + ((i,) if isinstance(raw_taints, list) else ()),
                       f"{what}: a taint needs a key and an effect")
                return
            taints.append(Taint(taint["key"], str(taint.get("value") or ""), taint["effect"]))
        key = "allocatable" if status.get("allocatable") is not None else "capacity"
        allocatable = quantities(doc, f"{what} status.{key}", status.get(key), path + ("status", key))
        if allocatable is None:
            return
        if name in nodes:
            report(doc, path + ("metadata", "name"), f"Node {name!r} is listed twice")
            return
        nodes[name] = Node(name, {str(k): str(v) for k, v in labels.items()}, tuple(taints),
                           spec.get("unschedulable") is True, allocatable)

    def pod(doc: Document, obj: dict[str, Any], path: tuple) -> None:
        spec = obj.get("spec") if isinstance(obj.get("spec"), dict) else {}
        status = obj.get("status") if isinstance(obj.get("status"), dict) else {}
        meta = obj.get("metadata") if isinstance(obj.get("metadata"), dict) else {}
        if status.get("phase") in FINISHED:
            return
        try:
            requests = pod_requests(spec)
        except (ValueError, TypeError) as exc:
            report(doc, path + ("spec",), f"Pod {_name(obj) or '?'}: a resource value is not a quantity ({exc})")
            return
        node = spec.get("nodeName") if isinstance(spec.get("nodeName"), str) and spec["nodeName"] else None
        group = (meta.get("annotations") or {}).get(GROUP_ANNOTATION) if isinstance(meta.get("annotations"), dict) \
            else None
        priority = spec.get("priority")
        pods.append(ClusterPod(
            str(meta.get("namespace") or "default"), _name(obj) or "?", node, str(status.get("phase") or "Pending"),
            requests, group if isinstance(group, str) and group else None,
            priority if isinstance(priority, int) and not isinstance(priority, bool) else None,
            spec.get("priorityClassName") if isinstance(spec.get("priorityClassName"), str) else None,
            meta.get("deletionTimestamp") is not None, _gated(spec.get("schedulingGates"))))

    def namespace(doc: Document, obj: dict[str, Any], path: tuple) -> None:
        name = _name(obj)
        meta = obj.get("metadata") or {}
        labels, notes = meta.get("labels") or {}, meta.get("annotations") or {}
        if name is None or not isinstance(labels, dict) or not isinstance(notes, dict):
            report(doc, path + ("metadata",), "Namespace without metadata.name" if name is None
                   else f"Namespace {name!r}: metadata.{'labels' if not isinstance(labels, dict) else 'annotations'} "
                   "is not a mapping")
            return
        namespaces[name] = {str(k): str(v) for k, v in labels.items()}
        annotations[name] = {str(k): str(v) for k, v in notes.items()}

    def volcano_object(doc: Document, obj: dict[str, Any], path: tuple, kind: str) -> None:
        name = _name(obj)
        if name is None:
            report(doc, path + ("metadata",), f"{kind} without metadata.name")
            return

        def located(at: tuple, message: str, severity: Severity = Severity.ERROR) -> None:
            report(doc, at, message, severity)

        def lists(what: str, raw: Any, at: tuple) -> dict[str, Quantity] | None:
            return quantities(doc, what, raw, at)

        if kind == "ConfigMap":
            conf = volcano.read_conf(obj, name, path, located)
            if conf is not None and confs:
                report(doc, path + ("metadata", "name"), f"a second Volcano scheduler configuration ({conf.source}): "
                       f"{confs[0].source} is read")
            elif conf is not None:
                confs.append(conf)
        elif kind == "Queue":
            queue = volcano.read_queue(obj, name, path, located, lists)
            if queue is not None and name in queues:
                report(doc, path + ("metadata", "name"), f"Queue {name!r} is listed twice")
            elif queue is not None:
                queues[name] = queue
        else:
            group = volcano.read_podgroup(obj, name, path, located, lists)
            if group is not None and group.key in podgroups:
                report(doc, path + ("metadata", "name"), f"PodGroup {group.key} is listed twice")
            elif group is not None:
                podgroups[group.key] = group

    def kueue_object(doc: Document, obj: dict[str, Any], path: tuple) -> None:
        name, kind = _name(obj), str(obj["kind"])
        if name is None:
            report(doc, path + ("metadata",), f"{kind} without metadata.name")
            return
        found = kueue.read_kueue(obj, name, path, lambda at, message: report(doc, at, message))
        if found is None:
            return
        key = (kind, getattr(found, "key", name))
        if key in kueue_objects:
            report(doc, path + ("metadata", "name"), f"{kind} {key[1]} is listed twice")
            return
        kueue_objects[key] = found

    def elastic_quota(doc: Document, obj: dict[str, Any], path: tuple) -> None:
        name = _name(obj)
        if name is None:
            report(doc, path + ("metadata",), "ElasticQuota without metadata.name")
            return
        found = kueue.read_elastic_quota(obj, name, path, lambda what, raw, at: quantities(doc, what, raw, at))
        if found is not None and f"{found.namespace}/{name}" in elastic_quotas:
            report(doc, path + ("metadata", "name"), f"ElasticQuota {found.namespace}/{name} is listed twice")
        elif found is not None:
            elastic_quotas[f"{found.namespace}/{name}"] = found

    def visit(doc: Document, obj: Any, path: tuple) -> None:
        if not isinstance(obj, dict):
            report(doc, path, "expected a Kubernetes object (a mapping with apiVersion and kind)")
            return
        kind = obj.get("kind")
        if isinstance(kind, str) and kind.endswith("List") and isinstance(obj.get("items"), list):
            for i, item in enumerate(obj["items"]):
                visit(doc, item, path + ("items", i))
            return
        api = str(obj.get("apiVersion", ""))
        if kind == "PriorityClass" and api.startswith("scheduling.k8s.io/"):
            priority_class(doc, obj, path)
        elif kind == "Node" and api == "v1":
            node(doc, obj, path)
        elif kind == "Pod" and api == "v1":
            pod(doc, obj, path)
        elif kind == "Namespace" and api == "v1":
            namespace(doc, obj, path)
        elif volcano.is_volcano(obj, "Queue") or volcano.is_volcano(obj, "PodGroup"):
            volcano_object(doc, obj, path, str(kind))
        elif volcano.is_conf(obj):
            volcano_object(doc, obj, path, "ConfigMap")
        elif is_runtime(obj):
            runtimes.append((obj, doc, path))
        elif kueue.is_kueue(obj):
            kueue_object(doc, obj, path)
        elif kueue.is_elastic_quota(obj):
            elastic_quota(doc, obj, path)
        else:
            report(doc, path, f"ignored {api or '?'} {kind or '?'}: only {READ} objects (and the Volcano "
                   "scheduler's ConfigMap) are read from a cluster file", Severity.WARNING)

    for doc in documents:
        if doc.data is not None:
            visit(doc, doc.data, ())
    requested: dict[str, dict[str, Quantity]] = {}
    bound: dict[str, int] = {}
    for one in pods:
        if one.node not in nodes:
            continue
        bound[one.node] = bound.get(one.node, 0) + 1
        have = requested.setdefault(one.node, {})
        for name, q in one.requests.items():
            have[name] = have[name].add(q) if name in have else q
    for node_name, count in bound.items():
        nodes[node_name] = replace(nodes[node_name], requested=requested[node_name], pods=count)
    found = runtimes_from([r for r, _, _ in runtimes], f"the runtimes of {filename}", filename=filename,
                          where=[(doc, path) for _, doc, path in runtimes])

    def of(kind: str) -> tuple[Any, ...]:
        return tuple(o for (k, _), o in kueue_objects.items() if k == kind)

    return Cluster(dict(sorted(classes.items())), tuple(nodes.values()), sum(bound.values()), found,
                   namespaces, annotations, max(global_default, default=0), tuple(pods), tuple(queues.values()),
                   tuple(podgroups.values()), confs[0] if confs else None, of("ClusterQueue"), of("Cohort"),
                   of("LocalQueue"), of("ResourceFlavor"), of("Workload"),
                   {c.name: c.value for c in of("WorkloadPriorityClass")}, tuple(elastic_quotas.values())), diagnostics


def priority_classes(documents: list[Document], filename: str) -> tuple[dict[str, int], list[Diagnostic]]:
    """name -> value of every PriorityClass in the documents (and the file's diagnostics)."""
    cluster, diagnostics = read_cluster(documents, filename)
    return cluster.priority_classes, diagnostics
