"""mpigen.load.cluster: PriorityClasses, Nodes and bound Pods from a --cluster file."""

from __future__ import annotations

import pytest

from mpigen.diagnostics import Severity
from mpigen.load.cluster import INT32_MAX, INT32_MIN, priority_classes
from mpigen.load.yaml_loader import load_text

F = "cluster.yaml"


def classes(text: str):
    loaded = load_text(text, F)
    assert loaded.diagnostics == [], [d.format() for d in loaded.diagnostics]
    return priority_classes(loaded.documents, F)


def fmt(diags) -> list[str]:
    return [d.format() for d in diags]


# as `kubectl get priorityclass -o yaml` prints it
KUBECTL_LIST = """\
apiVersion: v1
items:
- apiVersion: scheduling.k8s.io/v1
  description: Used for system critical pods that must run in the cluster.
  kind: PriorityClass
  metadata:
    creationTimestamp: "2024-05-01T10:00:00Z"
    generation: 1
    name: system-cluster-critical
    resourceVersion: "83"
    uid: 4b2e1c7e-0000-4000-8000-000000000001
  preemptionPolicy: PreemptLowerPriority
  value: 2000000000
- apiVersion: scheduling.k8s.io/v1
  description: Used for system critical pods that must not be moved from their current node.
  kind: PriorityClass
  metadata:
    creationTimestamp: "2024-05-01T10:00:00Z"
    generation: 1
    name: system-node-critical
    resourceVersion: "82"
    uid: 4b2e1c7e-0000-4000-8000-000000000002
  preemptionPolicy: PreemptLowerPriority
  value: 2000001000
- apiVersion: scheduling.k8s.io/v1
  globalDefault: false
  kind: PriorityClass
  metadata:
    name: training-high
  value: 1000
kind: List
metadata:
  resourceVersion: ""
"""


def test_kubectl_list():
    found, diags = classes(KUBECTL_LIST)
    assert diags == []
    assert found == {"system-cluster-critical": 2000000000, "system-node-critical": 2000001000,
                     "training-high": 1000}
    assert list(found) == sorted(found)


def test_separate_documents_and_empty_documents():
    text = (
        "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata:\n  name: b\nvalue: 2\n"
        "---\n"
        "---\n"
        "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata:\n  name: a\nvalue: -5\n"
    )
    found, diags = classes(text)
    assert diags == []
    assert found == {"a": -5, "b": 2}
    assert list(found) == ["a", "b"]


def test_priority_class_list():
    text = (
        "apiVersion: scheduling.k8s.io/v1\n"
        "kind: PriorityClassList\n"
        "items:\n"
        "- apiVersion: scheduling.k8s.io/v1\n"
        "  kind: PriorityClass\n"
        "  metadata: {name: low}\n"
        "  value: 0\n"
        "- apiVersion: scheduling.k8s.io/v1beta1\n"
        "  kind: PriorityClass\n"
        "  metadata: {name: old-api}\n"
        "  value: 7\n"
    )
    found, diags = classes(text)
    assert diags == []
    assert found == {"low": 0, "old-api": 7}


def test_nested_list():
    text = ("kind: List\nitems:\n- kind: List\n  items:\n  - apiVersion: scheduling.k8s.io/v1\n"
            "    kind: PriorityClass\n    metadata: {name: inner}\n    value: 3\n")
    found, diags = classes(text)
    assert diags == [] and found == {"inner": 3}


def test_empty_list():
    found, diags = classes("apiVersion: v1\nkind: List\nitems: []\n")
    assert (found, diags) == ({}, [])


def test_no_documents():
    assert priority_classes([], F) == ({}, [])


def test_non_priority_class_object_is_a_warning_and_ignored():
    text = (
        "apiVersion: v1\n"                              # 1
        "kind: List\n"                                  # 2
        "items:\n"                                      # 3
        "- apiVersion: v1\n"                            # 4
        "  kind: ConfigMap\n"                           # 5
        "  metadata: {name: cm}\n"                      # 6
        "  value: 5\n"                                  # 7
        "- apiVersion: scheduling.k8s.io/v1\n"          # 8
        "  kind: PriorityClass\n"                       # 9
        "  metadata: {name: ok}\n"                      # 10
        "  value: 1\n"                                  # 11
        "---\n"                                         # 12
        "apiVersion: example.com/v1\n"                  # 13
        "kind: PriorityClass\n"                         # 14
        "metadata: {name: impostor}\n"                  # 15
        "value: 9\n"                                    # 16
    )
    found, diags = classes(text)
    assert found == {"ok": 1}
    assert fmt(diags) == [
        "cluster.yaml:4:3: warning cluster ignored v1 ConfigMap: only scheduling.k8s.io PriorityClass, v1 Node, v1 "
        "Pod, v1 Namespace, trainer.kubeflow.org TrainingRuntime and ClusterTrainingRuntime, scheduling.volcano.sh "
        "Queue and PodGroup, kueue.x-k8s.io ClusterQueue, Cohort, LocalQueue, ResourceFlavor, WorkloadPriorityClass "
        "and Workload, scheduling.x-k8s.io ElasticQuota objects (and the Volcano scheduler's ConfigMap) are read from "
        "a cluster file (items[0])",
        "cluster.yaml:13:1: warning cluster ignored example.com/v1 PriorityClass: only scheduling.k8s.io "
        "PriorityClass, v1 Node, v1 Pod, v1 Namespace, trainer.kubeflow.org TrainingRuntime and ClusterTrainingRuntime, "
                          "scheduling.volcano.sh Queue and PodGroup, kueue.x-k8s.io ClusterQueue, Cohort, LocalQueue, "
                          "ResourceFlavor, WorkloadPriorityClass and Workload, scheduling.x-k8s.io ElasticQuota objects "
                          "(and the Volcano scheduler's ConfigMap) are read from a "
                          "cluster file",
    ]
    assert all(d.severity is Severity.WARNING for d in diags)


def test_object_without_kind_or_api_version_is_a_warning():
    found, diags = classes("metadata: {name: x}\nvalue: 1\n")
    assert found == {}
    assert fmt(diags) == ["cluster.yaml:1:1: warning cluster ignored ? ?: only scheduling.k8s.io "
                          "PriorityClass, v1 Node, v1 Pod, v1 Namespace, trainer.kubeflow.org TrainingRuntime and ClusterTrainingRuntime, "
                          "scheduling.volcano.sh Queue and PodGroup, kueue.x-k8s.io ClusterQueue, Cohort, LocalQueue, "
                          "ResourceFlavor, WorkloadPriorityClass and Workload, scheduling.x-k8s.io ElasticQuota objects "
                          "(and the Volcano scheduler's ConfigMap) are read from a "
                          "cluster file"]


def test_non_mapping_document_is_an_error():
    found, diags = classes("a: 1\n---\n- 1\n- 2\n---\njust text\n")
    assert found == {}
    assert [(d.line, d.column, d.severity, d.code) for d in diags] == [
        (1, 1, Severity.WARNING, "cluster"),
        (3, 1, Severity.ERROR, "cluster"),
        (6, 1, Severity.ERROR, "cluster"),
    ]
    assert diags[1].message == "expected a Kubernetes object (a mapping with apiVersion and kind)"


def test_non_mapping_list_item_is_an_error_with_item_path():
    found, diags = classes("kind: List\nitems:\n- 42\n")
    assert found == {}
    assert fmt(diags) == ["cluster.yaml:3:3: error cluster expected a Kubernetes object "
                          "(a mapping with apiVersion and kind) (items[0])"]


def _pc(name: str, value_line: str) -> str:
    return (f"apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata:\n  name: {name}\n"
            f"{value_line}")


@pytest.mark.parametrize(
    "value_line, pos",
    [
        ("value: true\n", (5, 8)),
        ("value: 1.5\n", (5, 8)),
        ("value: 1.0\n", (5, 8)),
        ('value: "100"\n', (5, 8)),
        ("value: null\n", (5, 8)),
        ("value: [1]\n", (5, 8)),
        (f"value: {INT32_MAX + 1}\n", (5, 8)),
        (f"value: {INT32_MIN - 1}\n", (5, 8)),
        ("value: 99999999999999999999\n", (5, 8)),
        ("description: no value\n", (1, 1)),  # missing: at the object
    ],
)
def test_bad_value_is_an_error_with_line(value_line, pos):
    found, diags = classes(_pc("bad", value_line))
    assert found == {}
    assert len(diags) == 1
    d = diags[0]
    assert (d.file, d.line, d.column, d.path, d.code, d.severity) == (F, *pos, "value", "cluster", Severity.ERROR)
    assert d.message == "PriorityClass 'bad' needs an integer value (int32)"


def test_missing_value_in_list_item_points_at_the_item():
    text = ("kind: List\nitems:\n- apiVersion: scheduling.k8s.io/v1\n  kind: PriorityClass\n"
            "  metadata:\n    name: novalue\n")
    found, diags = classes(text)
    assert found == {}
    assert fmt(diags) == ["cluster.yaml:3:3: error cluster PriorityClass 'novalue' needs an integer value "
                          "(int32) (items[0].value)"]


def test_int32_bounds_are_accepted():
    text = _pc("max", f"value: {INT32_MAX}\n") + "---\n" + _pc("min", f"value: {INT32_MIN}\n")
    found, diags = classes(text)
    assert diags == []
    assert found == {"max": 2147483647, "min": -2147483648}


@pytest.mark.parametrize(
    "metadata, pos",
    [
        ("metadata: {}\n", (3, 11)),
        ("metadata: {name: ''}\n", (3, 11)),
        ("metadata: {name: 12}\n", (3, 11)),
        ("metadata: notamap\n", (3, 11)),
        ("", (1, 1)),
    ],
)
def test_missing_name_is_an_error(metadata, pos):
    text = f"apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\n{metadata}value: 1\n"
    found, diags = classes(text)
    assert found == {}
    assert [(d.line, d.column, d.path, d.severity, d.message) for d in diags] == [
        (*pos, "metadata", Severity.ERROR, "PriorityClass without metadata.name")]


def test_duplicate_name_with_different_values_is_an_error():
    text = (
        _pc("dup", "value: 10\n")         # lines 1-5
        + "---\n"                          # 6
        + _pc("dup", "value: 20\n")       # lines 7-11, name on line 10
    )
    found, diags = classes(text)
    assert fmt(diags) == ["cluster.yaml:10:9: error cluster PriorityClass 'dup' is defined twice with "
                          "different values (metadata.name)"]
    assert set(found) == {"dup"}


def test_duplicate_name_in_list_with_different_values():
    text = ("kind: List\nitems:\n"
            "- {apiVersion: scheduling.k8s.io/v1, kind: PriorityClass, metadata: {name: d}, value: 1}\n"
            "- {apiVersion: scheduling.k8s.io/v1, kind: PriorityClass, metadata: {name: d}, value: 2}\n")
    found, diags = classes(text)
    assert [(d.line, d.path, d.severity) for d in diags] == [(4, "items[1].metadata.name", Severity.ERROR)]


def test_duplicate_name_with_same_value_is_fine():
    text = _pc("same", "value: 10\n") + "---\n" + _pc("same", "value: 10\n")
    found, diags = classes(text)
    assert (found, diags) == ({"same": 10}, [])


def test_diagnostics_use_the_given_filename():
    loaded = load_text("kind: Pod\n", "x.yaml")
    _, diags = priority_classes(loaded.documents, "other-name.yaml")
    assert [d.file for d in diags] == ["other-name.yaml"]


# Nodes and Pods

from pathlib import Path  # noqa: E402

from mpigen.load.cluster import Cluster, read_cluster  # noqa: E402
from mpigen.operator.quantity import Quantity  # noqa: E402
from mpigen.scheduler.nodes import Taint  # noqa: E402

KWOK = Path(__file__).resolve().parents[1] / "cases" / "cluster" / "kwok-nodes.yaml"


def cluster(text: str) -> tuple[Cluster, list[str]]:
    loaded = load_text(text, F)
    assert loaded.diagnostics == [], [d.format() for d in loaded.diagnostics]
    found, diags = read_cluster(loaded.documents, F)
    return found, fmt(diags)


def _node(name: str, extra: str = "", allocatable: str = "cpu: '64'\n    memory: 512Gi\n    pods: '110'") -> str:
    return (f"apiVersion: v1\nkind: Node\nmetadata:\n  name: {name}\n  labels: {{kubernetes.io/hostname: {name}}}\n"
            f"{extra}status:\n  allocatable:\n    {allocatable}\n")


def test_nodes_and_priority_classes_as_kubectl_prints_them():
    found, diags = cluster(KWOK.read_text())
    assert diags == []
    assert [n.name for n in found.nodes] == ["node-0", "node-1", "node-2", "node-3"]
    node = found.nodes[0]
    assert node.allocatable == {"cpu": Quantity.parse("64"), "memory": Quantity.parse("512Gi"),
                                "nvidia.com/gpu": Quantity.parse("8"), "pods": Quantity.parse("110")}
    assert node.labels["kubernetes.io/hostname"] == "node-0" and node.labels["type"] == "kwok"
    assert (node.taints, node.unschedulable, node.requested, node.pods) == ((), False, {}, 0)
    assert found.priority_classes["gpu-training"] == 10000 and found.bound_pods == 0


def test_node_list_and_separate_documents():
    text = ("apiVersion: v1\nkind: NodeList\nitems:\n- apiVersion: v1\n  kind: Node\n  metadata: {name: a}\n"
            "  status: {allocatable: {cpu: '2', pods: 10}}\n---\n" + _node("b"))
    found, diags = cluster(text)
    assert diags == [] and [n.name for n in found.nodes] == ["a", "b"]
    assert found.nodes[0].allocatable == {"cpu": Quantity.parse("2"), "pods": Quantity.parse("10")}


def test_taints_unschedulable_and_capacity_standing_for_allocatable():
    text = ("apiVersion: v1\nkind: Node\nmetadata: {name: gpu-0}\n"
            "spec:\n  unschedulable: true\n  taints:\n  - {key: nvidia.com/gpu, value: present, effect: NoSchedule}\n"
            "  - {key: node.kubernetes.io/unschedulable, effect: NoSchedule, timeAdded: '2024-01-01T00:00:00Z'}\n"
            "status:\n  capacity: {cpu: 8, memory: 32Gi, pods: 110}\n")
    found, diags = cluster(text)
    node = found.nodes[0]
    assert diags == [] and node.unschedulable
    assert node.taints == (Taint("nvidia.com/gpu", "present", "NoSchedule"),
                           Taint("node.kubernetes.io/unschedulable", "", "NoSchedule"))
    assert node.allocatable["memory"] == Quantity.parse("32Gi")  # SetDefaults_NodeStatus


def test_bound_pods_are_taken_off_their_node():
    pods = """\
apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Pod
  metadata: {name: running, namespace: team}
  spec:
    nodeName: a
    containers:
    - {name: c, resources: {limits: {cpu: '2', nvidia.com/gpu: 1}}}
    - {name: d, resources: {requests: {cpu: 500m, memory: 1Gi}}}
  status: {phase: Running}
- apiVersion: v1
  kind: Pod
  metadata: {name: pending-but-bound}
  spec: {nodeName: a, containers: [{name: c}]}
  status: {phase: Pending}
- apiVersion: v1
  kind: Pod
  metadata: {name: done}
  spec: {nodeName: a, containers: [{name: c, resources: {requests: {cpu: '60'}}}]}
  status: {phase: Succeeded}
- apiVersion: v1
  kind: Pod
  metadata: {name: unbound}
  spec: {containers: [{name: c, resources: {requests: {cpu: '60'}}}]}
  status: {phase: Pending}
- apiVersion: v1
  kind: Pod
  metadata: {name: elsewhere}
  spec: {nodeName: not-in-the-file, containers: [{name: c, resources: {requests: {cpu: '60'}}}]}
"""
    found, diags = cluster(pods + "---\n" + _node("a") + "---\n" + _node("b"))
    assert diags == []
    a, b = found.nodes
    assert a.requested == {"cpu": Quantity.parse("2500m"), "nvidia.com/gpu": Quantity.parse("1"),
                           "memory": Quantity.parse("1Gi")}
    assert (a.pods, b.pods, b.requested, found.bound_pods) == (2, 0, {}, 2)


@pytest.mark.parametrize("text, expected", [
    (_node("a", allocatable="cpu: lots"),
     "cluster.yaml:8:10: error cluster Node 'a' status.allocatable: 'lots' is not a quantity "
     "(status.allocatable.cpu)"),
    (_node("a", allocatable="cpu: true"),
     "cluster.yaml:8:10: error cluster Node 'a' status.allocatable: True is not a quantity (status.allocatable.cpu)"),
    ("apiVersion: v1\nkind: Node\nmetadata: {labels: {a: b}}\n",
     "cluster.yaml:3:11: error cluster Node without metadata.name (metadata)"),
    ("apiVersion: v1\nkind: Node\nmetadata: {name: a}\nspec: {taints: [{key: k}]}\n",
     "cluster.yaml:4:17: error cluster Node 'a': a taint needs a key and an effect (spec.taints[0])"),
    ("apiVersion: v1\nkind: Node\nmetadata: {name: a}\nstatus: {allocatable: [cpu]}\n",
     "cluster.yaml:4:23: error cluster Node 'a' status.allocatable: expected a mapping of resource names to "
     "quantities (status.allocatable)"),
    (_node("a") + "---\n" + _node("a"),
     "cluster.yaml:15:9: error cluster Node 'a' is listed twice (metadata.name)"),
    ("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {nodeName: a, containers: [{name: c, resources: "
     "{requests: {cpu: lots}}}]}\n",
     "cluster.yaml:4:7: error cluster Pod p: a resource value is not a quantity (quantities must match the regular "
     "expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$') (spec)"),
])
def test_bad_nodes_and_pods_are_errors_at_their_line(text, expected):
    found, diags = cluster(text)
    assert diags == [expected]


def test_other_kinds_are_still_ignored_with_a_warning():
    found, diags = cluster("apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: x}\n---\n" + _node("a"))
    assert [n.name for n in found.nodes] == ["a"]
    assert diags == ["cluster.yaml:1:1: warning cluster ignored apps/v1 DaemonSet: only scheduling.k8s.io "
                     "PriorityClass, v1 Node, v1 Pod, v1 Namespace, trainer.kubeflow.org TrainingRuntime and ClusterTrainingRuntime, "
                          "scheduling.volcano.sh Queue and PodGroup, kueue.x-k8s.io ClusterQueue, Cohort, LocalQueue, "
                          "ResourceFlavor, WorkloadPriorityClass and Workload, scheduling.x-k8s.io ElasticQuota objects "
                          "(and the Volcano scheduler's ConfigMap) are read from a "
                          "cluster file"]


def test_namespaces_and_their_labels():
    """kubectl get namespaces -o yaml: each Namespace's labels (Istio's injection label, say)."""
    found, diags = cluster("apiVersion: v1\nkind: NamespaceList\nitems:\n"
                           "- apiVersion: v1\n  kind: Namespace\n  metadata: {name: research, labels: {istio-injection: enabled}}\n"
                           "- apiVersion: v1\n  kind: Namespace\n  metadata: {name: quiet}\n")
    assert diags == []
    assert found.namespaces == {"research": {"istio-injection": "enabled"}, "quiet": {}}
    found, diags = cluster("apiVersion: v1\nkind: Namespace\nmetadata: {labels: {a: b}}\n")
    assert found.namespaces == {} and diags == ["cluster.yaml:3:11: error cluster Namespace without metadata.name (metadata)"]
