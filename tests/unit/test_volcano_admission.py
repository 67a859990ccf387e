"""mpigen.scheduler.admission.volcano: Volcano v1.15.1's enqueue decision.

The first tests port the cases of Volcano's own unit tests (``pkg/scheduler/actions/enqueue/
enqueue_test.go``, ``plugins/proportion/proportion_test.go``, ``plugins/overcommit/
overcommit_test.go``, ``plugins/capacity/capacity_test.go`` at v1.15.1), each with the plugins its
test enables; the scenarios of ``tests/cases/admission/volcano/`` follow.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from mpigen.load.cluster import Cluster, read_cluster
from mpigen.load.yaml_loader import load_text
from mpigen.scheduler.admission.objects import PluginOption, VolcanoConf
from mpigen.scheduler.admission.verdict import ADMITS, CANNOT_ADMIT, MAY_NOT_ADMIT
from mpigen.scheduler.admission.volcano import enqueue_verdict

CASES = Path(__file__).resolve().parents[1] / "cases" / "admission" / "volcano"


def conf(*plugins: str, **arguments: Any) -> VolcanoConf:
    """One tier of ``plugins`` (as the upstream tests configure them), with the enqueue action."""
    options = tuple(PluginOption(p, arguments.get(p, {}), hierarchy="hierarchy" in arguments) for p in plugins)
    return VolcanoConf(("enqueue", "allocate"), (options,), "the test's configuration")


def node(name: str, cpu: str, memory: str, **scalars: str) -> dict:
    allocatable = {"cpu": cpu, "memory": memory, "pods": "110", **{k.replace("_", "/"): v for k, v in scalars.items()}}
    return {"apiVersion": "v1", "kind": "Node", "metadata": {"name": name}, "status": {"allocatable": allocatable}}


def queue(name: str, capability: dict | None = None, state: str = "Open", parent: str = "", **spec: Any) -> dict:
    spec = dict(spec)
    if capability:
        spec["capability"] = capability
    if parent:
        spec["parent"] = parent
    return {"apiVersion": "scheduling.volcano.sh/v1beta1", "kind": "Queue", "metadata": {"name": name},
            "spec": spec, "status": {"state": state}}


def podgroup(name: str, queue_name: str, phase: str, min_resources: dict | None = None, min_member: int = 1,
             namespace: str = "ns1", created: str = "2026-01-01T00:00:00Z", **spec: Any) -> dict:
    spec = {"queue": queue_name, "minMember": min_member, **spec}
    if min_resources is not None:
        spec["minResources"] = min_resources
    return {"apiVersion": "scheduling.volcano.sh/v1beta1", "kind": "PodGroup",
            "metadata": {"name": name, "namespace": namespace, "creationTimestamp": created},
            "spec": spec, "status": {"phase": phase}}


def pod(name: str, group: str, requests: dict, node_name: str | None = None, phase: str = "Running",
        namespace: str = "ns1") -> dict:
    spec: dict = {"containers": [{"name": "c", "resources": {"requests": requests}}]}
    if node_name:
        spec["nodeName"] = node_name
    return {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name, "namespace": namespace,
                                                             "annotations": {"scheduling.k8s.io/group-name": group}},
            "spec": spec, "status": {"phase": phase}}


def cluster_of(*objects: dict, volcano_conf: VolcanoConf | None = None) -> Cluster:
    loaded = load_text(yaml.safe_dump_all(objects), "cluster.yaml")
    found, diagnostics = read_cluster(loaded.documents, "cluster.yaml")
    assert diagnostics == [], [d.format() for d in diagnostics]
    return found if volcano_conf is None else Cluster(**{**found.__dict__, "volcano_conf": volcano_conf})


def judged(group: dict, *objects: dict, volcano_conf: VolcanoConf | None = None):
    verdict = enqueue_verdict(group, None, cluster_of(*objects, volcano_conf=volcano_conf))
    assert verdict is not None
    return verdict


R = {"cpu": "1", "memory": "1G"}


# -- enqueue_test.go TestEnqueue (plugins drf, proportion, sla, gang: the sla plugin is time-bound and
#    left out here; it is "not evaluated" below)

def test_enqueue_a_podgroup_without_min_resources_is_enqueued():
    """"when podgroup status is pending": no minResources, enqueued without a vote."""
    verdict = judged(podgroup("pg2", "c2", "Pending"), queue("c1", {"cpu": "4", "memory": "4G"}),
                     queue("c2", {"cpu": "4", "memory": "4G"}), volcano_conf=conf("drf", "proportion", "gang"))
    assert verdict.outcome == ADMITS
    assert verdict.reasons == ("the PodGroup has no minResources: the enqueue action admits it without asking the "
                               "plugins",)


def test_enqueue_a_podgroup_of_a_queue_that_does_not_exist():
    """"pggroup cannot enqueue because the specified queue is c1, but there is only c2"."""
    verdict = judged(podgroup("pg1", "c1", "Pending", R), queue("c2", {"cpu": "4", "memory": "4G"}))
    assert verdict.outcome == CANNOT_ADMIT
    assert verdict.reasons[0].startswith("queue c1 does not exist (the queues: c2, default, root): Volcano's PodGroup "
                                         "webhook refuses the PodGroup")


def test_enqueue_queue_resources_less_than_min_resources():
    """"pggroup cannot enqueue because queue resources are less than podgroup MinResources" (no
    nodes: the cluster's total is nothing either)."""
    verdict = judged(podgroup("pg1", "c1", "Pending", {"cpu": "8", "memory": "8G"}),
                     queue("c1", {"cpu": "1", "memory": "1G"}), volcano_conf=conf("drf", "proportion", "gang"))
    assert verdict.outcome == CANNOT_ADMIT
    assert verdict.reasons == (
        "capability 1 cpu, none in use; this gang needs 8; capability 1G memory, none in use; this gang needs 8G "
        "(proportion plugin: queue resource quota insufficient), so the PodGroup stays Pending however little else "
        "runs",)


# -- proportion_test.go TestEnqueueAndAllocable

PROPORTION = conf("proportion")
N12 = (node("n1", "2", "2G"), node("n2", "2", "2G"))
RUNNING = (podgroup("pg1", "q1", "Running", {"cpu": "1", "memory": "2G"}),
           podgroup("pg2", "q2", "Running", {"cpu": "2", "memory": "1G"}),
           pod("pod1", "pg1", {"cpu": "1", "memory": "2G"}, "n1"), pod("pod2", "pg2", {"cpu": "2", "memory": "1G"}, "n2"),
           queue("q1", {"cpu": "2", "memory": "2G"}), queue("q2", {"cpu": "3", "memory": "3G"}))


def test_proportion_case0_memory_at_capability_a_cpu_only_job_is_enqueued():
    verdict = judged(podgroup("pg3", "q1", "Pending", {"cpu": "1", "memory": "0G"}), *N12, *RUNNING,
                     volcano_conf=PROPORTION)
    assert verdict.outcome == ADMITS


def test_proportion_case1_cpu_over_a_memory_only_job_is_enqueued():
    verdict = judged(podgroup("pg4", "q2", "Pending", {"cpu": "0", "memory": "1G"}), *N12, *RUNNING,
                     volcano_conf=PROPORTION)
    assert verdict.outcome == ADMITS


def test_proportion_case2_exceed_capacity_can_not_enqueue():
    verdict = judged(podgroup("pg5", "q1", "Pending", {"cpu": "1", "memory": "1G"}), *N12, *RUNNING,
                     volcano_conf=PROPORTION)
    assert verdict.outcome == CANNOT_ADMIT
    assert verdict.reasons == (
        "capability 2G memory, 2G in use by 1 PodGroup (ns1/pg1); this gang needs 1G (proportion plugin: queue "
        "resource quota insufficient): it waits until enough of what holds the room finishes (Volcano evicts nothing "
        "for a PodGroup that is not enqueued (the preempt and reclaim actions skip Pending jobs))",)


def test_proportion_case4_queue_with_non_open_state_can_not_enqueue():
    verdict = judged(podgroup("pg6", "q3", "Pending", R), *N12, queue("q3", {"cpu": "3", "memory": "3G"}, "Closed"),
                     volcano_conf=PROPORTION)
    assert verdict.outcome == CANNOT_ADMIT
    assert verdict.reasons[0].startswith("queue q3 is Closed: Volcano's PodGroup webhook refuses")


def test_proportion_no_double_counting_for_an_inqueue_job_with_bound_tasks():
    """TestNoDoubleCountingForInqueueJobWithBindingTasks: an Inqueue PodGroup's bound pods count
    once (GetInqueueResource reserves its minResources less what it holds)."""
    held = [pod(f"pA{i}", "pgA", {"cpu": "1", "memory": "1Gi"}, "n1") for i in (1, 2, 3)]
    verdict = judged(podgroup("pgB", "q1", "Pending", {"cpu": "1", "memory": "1Gi"}),
                     node("n1", "4", "8Gi"), podgroup("pgA", "q1", "Inqueue", {"cpu": "3", "memory": "3Gi"}, 3),
                     *held, queue("q1", {"cpu": "4", "memory": "8Gi"}), volcano_conf=PROPORTION)
    assert verdict.outcome == ADMITS


# -- overcommit_test.go TestOvercommitPlugin (one Inqueue PodGroup of 2 cpu and 2G, and another
#    enqueued in the session, as the test's JobEnqueued call does)

N_OVER = (node("n1", "2", "4Gi"), node("n2", "4", "16Gi"))
NORMAL = {"cpu": "2000m", "memory": "2G"}


@pytest.mark.parametrize("factor", [1.2, 0.8])  # below 1 the default 1.2 stands
def test_overcommit_within_the_overcommitted_total(factor):
    verdict = judged(podgroup("pg1", "c1", "Pending", NORMAL), *N_OVER, queue("c1"),
                     podgroup("pg0", "c1", "Inqueue", NORMAL), podgroup("pgx", "c1", "Inqueue", NORMAL),
                     volcano_conf=conf("overcommit", overcommit={"overcommit-factor": factor}))
    assert verdict.outcome == ADMITS


def test_overcommit_when_the_required_resources_of_pg_are_too_large():
    verdict = judged(podgroup("pg2", "c1", "Pending", {"cpu": "20000m", "memory": "20G"}), *N_OVER, queue("c1"),
                     volcano_conf=conf("overcommit"))
    assert verdict.outcome == CANNOT_ADMIT
    assert verdict.reasons == (
        "the cluster's 2 nodes: 6 cpu allocatable x overcommit-factor 1.2 leave 7200m, none reserved; this gang "
        "needs 20 (overcommit plugin: resource in cluster is overused), so the PodGroup stays Pending however little "
        "else runs",)  # 20G of memory is within 24Gi


def test_overcommit_shows_a_real_cluster_s_memory_in_units():
    """Nodes report memory in Ki (1056773616Ki): their sum, and that sum times 1.2, are not a
    whole number of Mi, and are shown in the binary unit they reach (not as 15-digit numbers)."""
    nodes = [node(f"n{i}", "1", "1056773616Ki") for i in range(300)]
    verdict = judged(podgroup("pg2", "c1", "Pending", {"cpu": "100m", "memory": "400Ti"}), *nodes, queue("c1"),
                     volcano_conf=conf("overcommit"))
    assert verdict.outcome == CANNOT_ADMIT
    assert verdict.reasons[0].startswith(
        "the cluster's 300 nodes: 295.259Ti memory allocatable x overcommit-factor 1.2 leave 354.311Ti, none reserved; "
        "this gang needs 400Ti"), verdict.reasons[0]


def test_overcommit_counts_one_more_inqueue_podgroup_over_the_total():
    """Three PodGroups of 2 cpu are 6 cpu of 7.2: a fourth is over."""
    inqueue = [podgroup(f"pg{i}", "c1", "Inqueue", NORMAL) for i in range(3)]
    verdict = judged(podgroup("new", "c1", "Pending", NORMAL), *N_OVER, queue("c1"), *inqueue,
                     volcano_conf=conf("overcommit"))
    assert verdict.outcome == CANNOT_ADMIT
    assert verdict.reasons[0].startswith("the cluster's 2 nodes: 6 cpu allocatable x overcommit-factor 1.2 leave 7200m, "
                                         "6 reserved by 3 PodGroups (ns1/pg0, ns1/pg1, ns1/pg2); this gang needs 2")


# -- capacity_test.go Test_capacityPlugin_OnSessionOpenWithHierarchy

HIERARCHY = conf("capacity", hierarchy=True)


def test_capacity_hierarchy_case1_a_podgroup_of_a_queue_that_is_not_a_leaf():
    verdict = judged(podgroup("pg2", "q1", "Pending", {"cpu": "1", "memory": "1Gi"}), node("n1", "8", "8Gi"),
                     queue("root"), queue("q1", {"cpu": "4", "memory": "4Gi"}, parent="root"),
                     queue("q2", {"cpu": "4", "memory": "4Gi"}, parent="root"),
                     queue("q11", {"cpu": "1", "memory": "1Gi"}, parent="q1"),
                     queue("q12", {"cpu": "3", "memory": "3Gi"}, parent="q1"), volcano_conf=HIERARCHY)
    assert verdict.outcome == CANNOT_ADMIT
    assert verdict.reasons[0] == ("queue q1 is not a leaf of the queue hierarchy: the capacity plugin enqueues "
                                  "PodGroups of leaf queues only (capacity plugin)")


def test_capacity_hierarchy_case6_an_ancestor_queue_s_capability_is_not_enough():
    """q61 and q62 inherit q6's capability (2 cpu, 4Gi); pg10 takes it first, pg11 (the newer)
    then does not fit q6: it depends on pg10, so it may not be admitted."""
    objects = (node("n1", "8", "8Gi"), queue("root"), queue("q6", {"cpu": "2", "memory": "4Gi"}, parent="root"),
               queue("q61", parent="q6"), queue("q62", parent="q6"))
    pg10 = podgroup("pg10", "q61", "Pending", {"cpu": "2", "memory": "4Gi"})
    assert judged(podgroup("pg11", "q62", "Pending", {"cpu": "2", "memory": "4Gi"}), *objects,
                  volcano_conf=HIERARCHY).outcome == ADMITS
    verdict = judged(podgroup("pg11", "q62", "Pending", {"cpu": "2", "memory": "4Gi"}), *objects, pg10,
                     volcano_conf=HIERARCHY)
    assert verdict.outcome == MAY_NOT_ADMIT
    assert verdict.reasons == (
        "the Pending PodGroups ns1/pg10 come before it in the enqueue order (queue priority and share, then job "
        "priority and age) and would be enqueued first; then its ancestor queue q6: capability 2 cpu, 2 in use by 1 "
        "PodGroup (ns1/pg10); this gang needs 2; capability 4Gi memory, 4Gi in use by 1 PodGroup (ns1/pg10); this "
        "gang needs 4Gi (capacity plugin: queue resource quota insufficient)",)
    inqueue = podgroup("pg10", "q61", "Inqueue", {"cpu": "2", "memory": "4Gi"})
    assert judged(podgroup("pg11", "q62", "Pending", {"cpu": "2", "memory": "4Gi"}), *objects, inqueue,
                  volcano_conf=HIERARCHY).outcome == CANNOT_ADMIT


# -- the scenarios of tests/cases/admission/volcano/: each file's first document is the PodGroup the
#    operator creates and the verdict expected, the others are cluster objects (with _nodes.yaml's)

SCENARIOS = sorted(p for p in CASES.glob("*.yaml") if not p.name.startswith("_"))


def test_the_scenarios_are_found():
    assert len(SCENARIOS) >= 16


def _flowed(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_scenario(path: Path):
    case, *objects = [d for d in yaml.safe_load_all(path.read_text()) if d is not None]
    shared = [d for d in yaml.safe_load_all((CASES / "_nodes.yaml").read_text()) if d is not None]
    verdict = enqueue_verdict(case["podgroup"], None, cluster_of(*shared, *objects))
    assert verdict is not None
    assert (verdict.outcome, verdict.reasons) == (case["expect"]["outcome"],
                                                  tuple(_flowed(r) for r in case["expect"]["reasons"]))


def test_a_plugin_not_evaluated_in_the_refusing_tier_does_not_change_a_refusal():
    """JobEnqueueable: a tier ends at its first refusal, whatever else in it would vote; only an
    earlier tier's permit could have admitted the job first (sla-plugin.yaml)."""
    objects = (node("n1", "8", "8Gi"), queue("q1", {"cpu": "1"}))
    group = podgroup("pg", "q1", "Pending", {"cpu": "2"})
    same_tier = VolcanoConf(("enqueue",), ((PluginOption("sla"), PluginOption("proportion")),), "test")
    assert judged(group, *objects, volcano_conf=same_tier).outcome == CANNOT_ADMIT
    earlier = VolcanoConf(("enqueue",), ((PluginOption("sla"),), (PluginOption("proportion"),)), "test")
    assert judged(group, *objects, volcano_conf=earlier).outcome == MAY_NOT_ADMIT
    later = VolcanoConf(("enqueue",), ((PluginOption("proportion"),), (PluginOption("sla"),)), "test")
    small = podgroup("pg", "q1", "Pending", {"cpu": "500m"})
    assert judged(small, *objects, volcano_conf=later).outcome == ADMITS  # proportion's permit ends the vote
    assert judged(small, *objects, volcano_conf=same_tier).outcome == MAY_NOT_ADMIT  # sla may refuse in its tier
