"""mpigen.load.cluster and mpigen.load.volcano: Volcano's Queues, PodGroups and scheduler
configuration, the Pods that are not finished, and what the admission rules read besides."""

from __future__ import annotations

from pathlib import Path

import pytest

from mpigen.load.cluster import Cluster, read_cluster
from mpigen.load.yaml_loader import load_text
from mpigen.operator.quantity import Quantity
from mpigen.scheduler.admission.objects import ClusterPod, PluginOption, VolcanoPodGroup, VolcanoQueue

F = "cluster.yaml"
CASES = Path(__file__).resolve().parents[1] / "cases" / "cluster" / "volcano"


def Q(text: str) -> Quantity:
    return Quantity.parse(text)


def cluster(text: str) -> tuple[Cluster, list[str]]:
    loaded = load_text(text, F)
    assert loaded.diagnostics == [], [d.format() for d in loaded.diagnostics]
    found, diags = read_cluster(loaded.documents, F)
    return found, [d.format() for d in diags]


def test_queues_as_kubectl_prints_them():
    found, diags = cluster((CASES / "queues.yaml").read_text())
    assert diags == []
    assert [q.name for q in found.queues] == ["default", "root", "research", "vision"]
    default, root, research, vision = found.queues
    assert default == VolcanoQueue("default", {}, {}, {}, "Open", "root", 1, 0, "2026-11-23T21:46:40Z")
    assert root.parent == "" and research.capability == {"nvidia.com/gpu": Q("8")} and research.weight == 2
    assert vision == VolcanoQueue("vision", {}, {"cpu": Q("32"), "memory": Q("256Gi"), "nvidia.com/gpu": Q("8")},
                                  {"nvidia.com/gpu": Q("4")}, "Closed", "research", 1, 10, "2026-11-23T22:01:13Z")


def test_podgroups_as_kubectl_prints_them():
    found, diags = cluster((CASES / "podgroups.yaml").read_text())
    assert diags == []
    bert, waiting, resnet = found.podgroups
    assert bert == VolcanoPodGroup("team-a", "bert", "research", "Running", 2,
                                   {"cpu": Q("9"), "memory": Q("33Gi"), "nvidia.com/gpu": Q("4")}, "gpu-training",
                                   "2026-11-23T22:05:00Z", 2)
    assert (waiting.phase, waiting.min_member, waiting.priority_class, waiting.running) == ("Pending", 3, "", 0)
    assert (resnet.key, resnet.queue, resnet.phase) == ("team-b/resnet", "vision", "Inqueue")


def test_defaults_of_a_hand_written_queue_and_podgroup():
    """The CRDs' defaults (weight 1, queue default) and the controllers' readings (a queue without
    a state is opened; a PodGroup without a phase is Pending)."""
    found, diags = cluster("apiVersion: scheduling.volcano.sh/v1beta1\nkind: Queue\nmetadata: {name: q}\n---\n"
                           "apiVersion: scheduling.volcano.sh/v1beta1\nkind: PodGroup\nmetadata: {name: g}\n"
                           "spec: {minMember: 2}\n")
    assert diags == []
    assert found.queues == (VolcanoQueue("q"),)
    assert found.podgroups == (VolcanoPodGroup("default", "g", "default", "Pending", 2, None),)


def test_the_scheduler_configuration_of_a_configmap():
    found, diags = cluster((CASES / "scheduler-configmap.yaml").read_text())
    assert diags == []
    conf = found.volcano_conf
    assert conf.actions == ("enqueue", "allocate", "backfill", "reclaim")
    assert conf.source == "the scheduler configuration of ConfigMap volcano-system/volcano-scheduler-configmap"
    assert [p.name for p in conf.tiers[1]] == ["overcommit", "drf", "predicates", "capacity", "nodeorder"]
    assert conf.plugin("overcommit") == PluginOption("overcommit", {"overcommit-factor": 1.5})
    assert conf.plugin("capacity").hierarchy and not conf.plugin("drf").hierarchy
    assert found.volcano_conf is not None and cluster("apiVersion: v1\nkind: Namespace\nmetadata: {name: a}\n")[0] \
        .volcano_conf is None


def test_pods_that_are_not_finished_are_kept_with_their_podgroup_and_priority():
    found, diags = cluster("""\
apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Pod
  metadata:
    name: bert-worker-0
    namespace: team-a
    annotations: {scheduling.k8s.io/group-name: bert}
  spec:
    nodeName: node-0
    priority: 10000
    priorityClassName: gpu-training
    containers: [{name: c, resources: {limits: {nvidia.com/gpu: 4}}}]
  status: {phase: Running}
- apiVersion: v1
  kind: Pod
  metadata: {name: gated, deletionTimestamp: "2026-11-23T22:09:00Z"}
  spec: {schedulingGates: [{name: x}], containers: [{name: c}]}
- apiVersion: v1
  kind: Pod
  metadata: {name: done}
  spec: {nodeName: node-0, containers: [{name: c}]}
  status: {phase: Succeeded}
""")
    assert diags == []
    assert found.pods == (
        ClusterPod("team-a", "bert-worker-0", "node-0", "Running", {"nvidia.com/gpu": Q("4")}, "bert", 10000,
                   "gpu-training"),
        ClusterPod("default", "gated", None, "Pending", {}, deleting=True, gated=True),
    )
    assert found.bound_pods == 0  # node-0 is not a Node of the file


def test_global_default_priority_and_namespace_annotations():
    found, diags = cluster(
        "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: normal}\nvalue: 100\n"
        "globalDefault: true\n---\n"
        "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: team-a\n"
        "  annotations: {scheduling.volcano.sh/queue-name: research}\n")
    assert diags == []
    assert found.default_priority == 100
    assert found.namespace_annotations == {"team-a": {"scheduling.volcano.sh/queue-name": "research"}}
    assert cluster("apiVersion: v1\nkind: List\nitems: []\n")[0].default_priority == 0


QUEUE = "apiVersion: scheduling.volcano.sh/v1beta1\nkind: Queue\nmetadata: {name: q}\n"
PODGROUP = "apiVersion: scheduling.volcano.sh/v1beta1\nkind: PodGroup\nmetadata: {name: g, namespace: team}\n"
CONF = ("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: vc, namespace: volcano-system}\n"
        "data:\n  volcano-scheduler.conf: |\n")


@pytest.mark.parametrize("text, expected", [
    (QUEUE + "spec: {capability: {nvidia.com/gpu: lots}}\n",
     "cluster.yaml:4:37: error cluster Queue 'q' spec.capability: 'lots' is not a quantity "
     "(spec.capability[\"nvidia.com/gpu\"])"),
    (QUEUE + "spec: {deserved: [cpu]}\n",
     "cluster.yaml:4:18: error cluster Queue 'q' spec.deserved: expected a mapping of resource names to quantities "
     "(spec.deserved)"),
    (QUEUE + "spec: {guarantee: {resource: {cpu: x}}}\n",
     "cluster.yaml:4:36: error cluster Queue 'q' spec.guarantee.resource: 'x' is not a quantity "
     "(spec.guarantee.resource.cpu)"),
    (QUEUE + "spec: {guarantee: 4}\n",
     "cluster.yaml:4:19: error cluster Queue 'q': spec.guarantee is not a mapping (it holds resource) "
     "(spec.guarantee)"),
    (QUEUE + "spec: {weight: 0}\n",
     "cluster.yaml:4:16: error cluster Queue 'q': spec.weight 0 is not an integer of at least 1 (spec.weight)"),
    (QUEUE + "spec: {priority: high}\n",
     "cluster.yaml:4:18: error cluster Queue 'q': spec.priority 'high' is not an integer (spec.priority)"),
    (QUEUE + "spec: {parent: [a]}\n",
     "cluster.yaml:4:16: error cluster Queue 'q': spec.parent ['a'] is not a queue name (spec.parent)"),
    (QUEUE + "status: {state: Shut}\n",
     "cluster.yaml:4:17: error cluster Queue 'q': status.state 'Shut' is none of Open, Closed, Closing, Unknown "
     "(status.state)"),
    ("apiVersion: scheduling.volcano.sh/v1beta1\nkind: Queue\nmetadata: {}\n",
     "cluster.yaml:3:11: error cluster Queue without metadata.name (metadata)"),
    (QUEUE + "---\n" + QUEUE, "cluster.yaml:7:18: error cluster Queue 'q' is listed twice (metadata.name)"),
    (PODGROUP + "spec: {queue: 7}\n",
     "cluster.yaml:4:15: error cluster PodGroup team/g: spec.queue 7 is not a queue name (spec.queue)"),
    (PODGROUP + "spec: {minMember: -1}\n",
     "cluster.yaml:4:19: error cluster PodGroup team/g: spec.minMember -1 is not a count (spec.minMember)"),
    (PODGROUP + "spec: {minResources: {cpu: [1]}}\n",
     "cluster.yaml:4:28: error cluster PodGroup team/g spec.minResources: [1] is not a quantity "
     "(spec.minResources.cpu)"),
    (PODGROUP + "spec: {priorityClassName: 3}\n",
     "cluster.yaml:4:27: error cluster PodGroup team/g: spec.priorityClassName 3 is not a name (spec.priorityClassName)"),
    (PODGROUP + "status: {phase: Waiting}\n",
     "cluster.yaml:4:17: error cluster PodGroup team/g: status.phase 'Waiting' is none of Pending, Running, Unknown, "
     "Inqueue, Completed (status.phase)"),
    (PODGROUP + "status: {running: two}\n",
     "cluster.yaml:4:19: error cluster PodGroup team/g: status.running 'two' is not a count (status.running)"),
    (PODGROUP + "---\n" + PODGROUP,
     "cluster.yaml:7:18: error cluster PodGroup team/g is listed twice (metadata.name)"),
    (CONF + "    actions: [enqueue]\n    tiers: {}\n",
     "cluster.yaml:5:27: error cluster ConfigMap volcano-system/vc volcano-scheduler.conf: actions is not a "
     "comma-separated string; tiers is not a list (data[\"volcano-scheduler.conf\"])"),
    (CONF + "    actions: enqueue\n    tiers:\n    - plugins: [{name: x, enableJobEnqueued: maybe}, {arguments: {}}]\n",
     "cluster.yaml:5:27: error cluster ConfigMap volcano-system/vc volcano-scheduler.conf: tiers[0].plugins[0]: "
     "enableJobEnqueued 'maybe' is not true or false; tiers[0].plugins[1] has no name (data[\"volcano-scheduler.conf\"])"),
    (CONF + "    actions: [\n",
     "cluster.yaml:5:27: error cluster ConfigMap volcano-system/vc volcano-scheduler.conf is not YAML: expected the "
     "node content, but found '<stream end>' at its line 2, column 1 (data[\"volcano-scheduler.conf\"])"),
    (CONF + "    actions: enqueue\n    tiers: []\n---\n" + CONF + "    actions: enqueue\n    tiers: []\n",
     "cluster.yaml:11:18: error cluster a second Volcano scheduler configuration (the scheduler configuration of "
     "ConfigMap volcano-system/vc): the scheduler configuration of ConfigMap volcano-system/vc is read "
     "(metadata.name)"),
])
def test_malformed_volcano_objects_are_errors_at_their_line(text, expected):
    found, diags = cluster(text)
    assert diags == [expected]
    kept = len(found.queues) + len(found.podgroups) + (found.volcano_conf is not None)
    assert kept == (1 if "twice" in expected or "second" in expected else 0)


def test_an_empty_state_and_phase_read_as_unset():
    found, diags = cluster(QUEUE + "status: {state: ''}\n---\n" + PODGROUP + "status: {phase: ''}\n")
    assert diags == []
    assert (found.queues[0].state, found.podgroups[0].phase) == ("Open", "Pending")
