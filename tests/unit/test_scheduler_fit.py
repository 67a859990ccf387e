"""mpigen.scheduler: the scheduler's filters on one pod and one node, and whether a gang fits."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from mpigen.load.cluster import read_cluster
from mpigen.load.yaml_loader import load_text
from mpigen.operator import mpi_controller as ctl
from mpigen.operator import training_controller as tc
from mpigen.operator.quantity import Quantity
from mpigen.scheduler.nodes import bytes_shown
from mpigen.scheduler.fit import CANNOT_FIT, FITS, MAY_NOT_FIT, Origin, Role, gang_fit, node_list
from mpigen.scheduler.gang import gang_of
from mpigen.scheduler.nodes import Node, Taint, pod_requests, pod_shape, rejection, tolerates
from tests.work import lines_run

KWOK = Path(__file__).resolve().parents[1] / "cases" / "cluster" / "kwok-nodes.yaml"
GPU = "nvidia.com/gpu"


def q(text: str) -> Quantity:
    return Quantity.parse(text)


def kwok() -> tuple[Node, ...]:
    """The four nodes of make cluster: 64 cpu, 512Gi, 8 nvidia.com/gpu, 110 pods each."""
    cluster, diags = read_cluster(load_text(KWOK.read_text(), "kwok.yaml").documents, "kwok.yaml")
    assert diags == []
    return cluster.nodes


def node(name: str, cpu: str = "64", memory: str = "512Gi", gpu: str | None = "8", pods: str = "110",
         **fields: Any) -> Node:
    allocatable = {"cpu": q(cpu), "memory": q(memory), "pods": q(pods)}
    if gpu is not None:
        allocatable[GPU] = q(gpu)
    return Node(name, allocatable=allocatable, **fields)


def spec(limits: dict[str, str] | None = None, **pod: Any) -> dict[str, Any]:
    container: dict[str, Any] = {"name": "main", "image": "img"}
    if limits:
        container["resources"] = {"limits": dict(limits)}
    return {"containers": [container], **pod}


def role(name: str, count: int, limits: dict[str, str] | None = None, **pod: Any) -> Role:
    return Role(name, count, pod_shape(spec(limits, **pod)))


WORKER = {GPU: "8", "cpu": "16", "memory": "64Gi"}
LAUNCHER = {"cpu": "1", "memory": "1Gi"}


# --- the gang of the e2e test (tests/e2e/test_gang.py), on the real cluster's Nodes

def test_a_gang_that_fits_gets_a_placement() -> None:
    verdict = gang_fit([role("worker", 4, WORKER), role("launcher", 1, LAUNCHER)], 5, kwok())
    assert verdict.outcome == FITS
    assert verdict.reasons == ("node-0..node-3: 1 worker each; launcher on node-0",)


def test_one_worker_too_many_cannot_fit_with_a_proof() -> None:
    verdict = gang_fit([role("worker", 5, WORKER), role("launcher", 1, LAUNCHER)], 6, kwok())
    assert verdict.outcome == CANNOT_FIT
    assert verdict.reasons == ("5 workers need 8 nvidia.com/gpu each; each of the 4 nodes can hold at most 1 "
                               "(8 nvidia.com/gpu allocatable): room for 4 of 5",)
    assert verdict.message() == (
        "the gang cannot fit the cluster file's 4 nodes (allocatable; the Pods on them are not in the file): 5 "
        "workers need 8 nvidia.com/gpu each; each of the 4 nodes can hold at most 1 (8 nvidia.com/gpu "
        "allocatable): room for 4 of 5")
    diagnostic = verdict.diagnostic("job.yaml", 3, 1, "")
    assert (diagnostic.code, diagnostic.severity.value) == ("gang-cannot-fit", "error")


def test_a_resource_total_the_nodes_do_not_have() -> None:
    # each role fits on its own; together they ask 33 GPUs of 32
    roles = [role("master", 1, {GPU: "1"}), role("worker", 4, {GPU: "8"}), role("launcher", 1, LAUNCHER)]
    verdict = gang_fit(roles, 6, kwok())
    assert verdict.outcome == CANNOT_FIT
    assert verdict.reasons == ("the gang's 6 pods ask 33 nvidia.com/gpu, the 4 schedulable nodes have 32 in all",)


def test_cpu_and_memory_totals_keep_their_units() -> None:
    nodes = [node("a", cpu="3500m", memory="6Gi"), node("b", cpu="3500m", memory="6Gi")]
    verdict = gang_fit([role("worker", 3, {"cpu": "2500m", "memory": "1Gi"})], 3, nodes)
    assert verdict.reasons == ("3 workers need 2500m cpu each; each of the 2 nodes can hold at most 1 (3500m cpu "
                               "allocatable): room for 2 of 3",)
    verdict = gang_fit([role("small", 4, {"memory": "2Gi"}), role("big", 1, {"memory": "5Gi"})], 5, nodes)
    assert verdict.reasons == ("the gang's 5 pods ask 13Gi memory, the 2 schedulable nodes have 12Gi in all",)


def test_no_node_matches_the_node_selector() -> None:
    verdict = gang_fit([role("worker", 2, WORKER, nodeSelector={"gpu": "a100"})], 2, kwok())
    assert verdict.outcome == CANNOT_FIT
    assert verdict.reasons == ("no node matches the workers' nodeSelector gpu=a100",)
    labelled = [node("node-0", labels={"gpu": "a100"}), node("node-1"), node("node-2", labels={"gpu": "a100"})]
    verdict = gang_fit([role("worker", 3, WORKER, nodeSelector={"gpu": "a100"})], 3, labelled)
    assert verdict.reasons == ("3 workers need 8 nvidia.com/gpu each; node-0, node-2: at most 1 each (8 "
                               "nvidia.com/gpu allocatable), node-1: none (nodeSelector gpu=a100 not matched): room "
                               "for 2 of 3",)


def test_a_taint_not_tolerated() -> None:
    taint = (Taint("dedicated", "training", "NoSchedule"),)
    nodes = [node(f"n{i}", taints=taint) for i in range(3)]
    verdict = gang_fit([role("worker", 2, WORKER)], 2, nodes)
    assert verdict.reasons == ("every node has the taint dedicated=training:NoSchedule, which the workers do not "
                               "tolerate",)
    tolerated = [{"key": "dedicated", "operator": "Equal", "value": "training", "effect": "NoSchedule"}]
    assert gang_fit([role("worker", 2, WORKER, tolerations=tolerated)], 2, nodes).outcome == FITS
    # PreferNoSchedule does not filter; a taint on some nodes leaves the others
    soft = [node("a", taints=(Taint("x", "", "PreferNoSchedule"),)), node("b", taints=taint)]
    verdict = gang_fit([role("worker", 2, WORKER)], 2, soft)
    assert verdict.reasons == ("2 workers need 8 nvidia.com/gpu each; a: at most 1 (8 nvidia.com/gpu allocatable), "
                               "b: none (taint dedicated=training:NoSchedule not tolerated): room for 1 of 2",)


def test_the_words_name_where_the_nodes_were_read() -> None:
    """The cluster file's Nodes, or a live cluster's (mpigen.kube): whose nodes, and what stands for
    the Pods when none is bound (not in the file; none bound; not listed)."""
    roles, nodes = [role("worker", 5, WORKER), role("launcher", 1, LAUNCHER)], kwok()
    assert gang_fit(roles, 6, nodes).message().startswith(
        "the gang cannot fit the cluster file's 4 nodes (allocatable; the Pods on them are not in the file): ")
    listed = gang_fit(roles, 6, nodes, 0, Origin("prod", pods_listed=True))
    assert listed.message().startswith(
        "the gang cannot fit the 4 nodes of context prod (allocatable; no Pod is bound to them): ")
    assert gang_fit(roles, 6, nodes, 0, Origin("prod")).basis == "allocatable; the Pods on them could not be listed"
    bound = gang_fit(roles, 6, nodes, 3, Origin("prod"))
    assert bound.basis == "allocatable less the requests of the 3 Pod(s) bound to them"
    assert gang_fit(roles, 6, [], 0, Origin("prod")).reasons == ("the cluster of context prod has no Nodes",)
    elsewhere = gang_fit([role("worker", 1, WORKER, nodeName="node-9")], 1, nodes, 0, Origin("prod"))
    assert elsewhere.reasons == ("the worker's spec.nodeName node-9 is not a node of the cluster of context prod",)


def test_unschedulable_nodes() -> None:
    nodes = [node(f"node-{i}", unschedulable=True) for i in range(4)]
    verdict = gang_fit([role("worker", 1, WORKER)], 1, nodes)
    assert verdict.reasons == ("every node is unschedulable (spec.unschedulable: cordoned)",)
    cordon = [{"key": "node.kubernetes.io/unschedulable", "operator": "Exists", "effect": "NoSchedule"}]
    assert gang_fit([role("worker", 1, WORKER, tolerations=cordon)], 1, nodes).outcome == FITS
    one = gang_fit([role("worker", 1, WORKER)], 1, [node("solo", unschedulable=True)])
    assert one.reasons == ("the only node, solo, is unschedulable (spec.unschedulable: cordoned)",)


def test_ten_thousand_workers_cost_what_two_do() -> None:
    """The work (lines of Python run, counted, not timed) does not grow with the replicas."""
    def fit(workers: int, cpu: str, nodes: list) -> tuple:
        return lines_run(gang_fit, [role("worker", workers, {"cpu": cpu}), role("launcher", 1, LAUNCHER)],
                         workers + 1, nodes)

    fit(2, "100m", kwok())  # what is computed once (cached) is not counted below
    _, two = fit(2, "100m", kwok())
    verdict, lines = fit(10_000, "100m", kwok())
    assert verdict.reasons == ("10000 workers; each of the 4 nodes can hold at most 110 (110 pods allocatable): "
                               "room for 440 of 10000",)
    assert lines - two < 100, (two, lines)
    nodes = [node(f"node-{i}", pods="1000000000") for i in range(4)]
    _, two = fit(2, "1n", nodes)
    verdict, lines = fit(10**12, "1n", nodes)
    assert verdict.outcome == CANNOT_FIT  # 4e9 pods at most: arithmetic, no loop over replicas
    assert lines - two < 100, (two, lines)
    _, two = fit(2, "1m", nodes)
    verdict, lines = fit(10_000, "1m", nodes)
    assert verdict.reasons == ("10000 workers on node-0; launcher on node-0",)
    assert lines - two < 100, (two, lines)


def test_the_launcher_goes_where_there_is_room_for_it() -> None:
    nodes = [node("gpu-0", cpu="16"), node("gpu-1", cpu="16"), node("cpu-0", gpu=None, labels={"pool": "cpu"})]
    verdict = gang_fit([role("worker", 2, WORKER), role("launcher", 1, LAUNCHER)], 3, nodes)
    assert verdict.reasons == ("gpu-0, gpu-1: 1 worker each; launcher on cpu-0",)
    verdict = gang_fit([role("worker", 2, WORKER), role("launcher", 1, LAUNCHER, nodeSelector={"pool": "gpu"})], 3,
                       nodes)
    assert verdict.outcome == CANNOT_FIT
    assert verdict.reasons == ("no node matches the launcher's nodeSelector pool=gpu",)


def test_first_fit_without_a_placement_may_not_fit() -> None:
    # 7 + 5 + 4 + 4 cpu on two nodes of 10: no bound is broken, and no placement exists
    nodes = [node("a", cpu="10"), node("b", cpu="10")]
    roles = [role("x", 1, {"cpu": "7"}), role("y", 1, {"cpu": "5"}), role("z", 2, {"cpu": "4"})]
    verdict = gang_fit(roles, 4, nodes)
    assert verdict.outcome == MAY_NOT_FIT
    assert verdict.reasons == ("placing the largest pods first (x on a; y on b; z on b (1 of 2)) leaves 1 of 2 zs "
                               "without a node; no simple bound proves that no placement exists",)
    diagnostic = verdict.diagnostic("job.yaml", 1, 1, "")
    assert (diagnostic.code, diagnostic.severity.value) == ("gang-may-not-fit", "warning")


def test_constraints_not_evaluated_make_a_fit_uncertain() -> None:
    anti = {"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
        {"labelSelector": {"matchLabels": {"app": "x"}}, "topologyKey": "kubernetes.io/hostname"}]}}
    verdict = gang_fit([role("worker", 2, WORKER, affinity=anti)], 2, kwok())
    assert verdict.outcome == MAY_NOT_FIT
    assert verdict.reasons == ("mpigen does not evaluate the workers' required podAntiAffinity; without that: "
                               "node-0, node-1: 1 worker each",)
    assert gang_fit([role("worker", 5, WORKER, affinity=anti)], 5, kwok()).outcome == CANNOT_FIT


def test_min_member_below_the_pod_count() -> None:
    roles = [role("worker", 6, WORKER), role("launcher", 1, LAUNCHER)]
    verdict = gang_fit(roles, 4, kwok())
    assert verdict.outcome == FITS
    assert verdict.reasons == ("node-0..node-2: 1 worker each (3 of 6); launcher on node-0",)
    verdict = gang_fit(roles, 6, kwok())
    assert verdict.reasons == ("the gang needs 6 of the job's 7 pods (minMember) and at most 5 fit",
                               "6 workers need 8 nvidia.com/gpu each; each of the 4 nodes can hold at most 1 "
                               "(8 nvidia.com/gpu allocatable): room for 4 of 6")
    verdict = gang_fit(roles, 8, kwok())
    assert verdict.reasons == ("the PodGroup waits for 8 pods (minMember) and the operator creates 7",)


def test_pods_bound_to_the_nodes_take_their_room() -> None:
    busy = node("node-0", requested={GPU: q("4"), "cpu": q("2")}, pods=3)
    verdict = gang_fit([role("worker", 2, {GPU: "4"})], 2, [busy])
    assert verdict.reasons == ("2 workers need 4 nvidia.com/gpu each; the only node, node-0, can hold at most 1 "
                               "(8 nvidia.com/gpu allocatable, 4 requested by its Pods): room for 1 of 2",)
    assert gang_fit([role("worker", 4, {"cpu": "1"})], 4, [node("node-0", pods="3")]).reasons == (
        "4 workers; the only node, node-0, can hold at most 3 (3 pods allocatable): room for 3 of 4",)
    crowded = Node("node-0", allocatable={"cpu": q("64"), "pods": q("110")}, pods=109)
    assert gang_fit([role("worker", 2, {"cpu": "1"})], 2, [crowded]).reasons == (
        "2 workers; the only node, node-0, can hold at most 1 (110 pods allocatable, 109 Pod(s) bound): "
        "room for 1 of 2",)


def test_host_ports_allow_one_pod_per_node() -> None:
    ports = {"containers": [{"name": "main", "ports": [{"containerPort": 23456}]}], "hostNetwork": True}
    shape = pod_shape(ports)
    assert shape.host_ports == frozenset({("0.0.0.0", "TCP", 23456)})
    verdict = gang_fit([Role("worker", 5, shape)], 5, kwok())
    assert verdict.reasons == ("5 workers; each of the 4 nodes can hold at most 1 (one per node: host port 23456): "
                               "room for 4 of 5",)
    # two roles asking the same host port never share a node
    verdict = gang_fit([Role("master", 1, shape), Role("worker", 3, shape)], 4, kwok())
    assert verdict.reasons == ("master on node-0; node-1..node-3: 1 worker each",)


def test_several_roles_of_a_pytorchjob_from_the_operator_objects() -> None:
    def replica(n: int) -> dict[str, Any]:
        return {"replicas": n, "template": {"spec": {"containers": [
            {"name": "pytorch", "image": "img", "resources": {"limits": WORKER}}]}}}

    job = {"apiVersion": "kubeflow.org/v1", "kind": "PyTorchJob", "metadata": {"name": "pt", "namespace": "ml"},
           "spec": {"pytorchReplicaSpecs": {"Master": replica(1), "Worker": replica(3)}}}
    gang = gang_of(job, list(tc.created_objects(job, "volcano", max_pods=1)))
    assert (gang.group, gang.min_member, [(r.name, r.count) for r in gang.roles]) == (
        "pt", 4, [("master", 1), ("worker", 3)])
    assert gang_fit(gang.roles, gang.min_member, kwok()).reasons == ("master on node-0; node-1..node-3: 1 worker each",)
    job["spec"]["pytorchReplicaSpecs"]["Worker"]["replicas"] = 4
    gang = gang_of(job, list(tc.created_objects(job, "scheduler-plugins", scheduler_name="sp", max_pods=1)))
    assert gang_fit(gang.roles, gang.min_member, kwok()).reasons == (
        "the gang's 5 pods ask 40 nvidia.com/gpu, the 4 schedulable nodes have 32 in all",)
    assert gang_of(job, list(tc.created_objects(job, None, max_pods=1))) is None  # no gang, no PodGroup


def test_a_tfjob_with_chief_ps_and_workers() -> None:
    def replica(n: int, limits: dict[str, str]) -> dict[str, Any]:
        return {"replicas": n, "template": {"spec": {"containers": [
            {"name": "tensorflow", "image": "img", "resources": {"limits": limits}}]}}}

    job = {"apiVersion": "kubeflow.org/v1", "kind": "TFJob", "metadata": {"name": "tf"},
           "spec": {"tfReplicaSpecs": {"Chief": replica(1, {"cpu": "4"}), "PS": replica(2, {"cpu": "8"}),
                                       "Worker": replica(8, {GPU: "4", "cpu": "8"})}}}
    gang = gang_of(job, list(tc.created_objects(job, "volcano", max_pods=1)))
    assert (gang.min_member, [(r.name, r.count) for r in gang.roles]) == (11, [("ps", 2), ("worker", 8), ("chief", 1)])
    verdict = gang_fit(gang.roles, gang.min_member, kwok())  # the GPU workers first, two a node; then the rest
    assert verdict.reasons == ("2 ps on node-0; node-0..node-3: 2 workers each; chief on node-0",)
    job["spec"]["tfReplicaSpecs"]["Worker"]["replicas"] = 9
    verdict = gang_fit(gang_of(job, list(tc.created_objects(job, "volcano", max_pods=1))).roles, 12, kwok())
    assert verdict.reasons == ("9 workers need 4 nvidia.com/gpu each; each of the 4 nodes can hold at most 2 "
                               "(8 nvidia.com/gpu allocatable): room for 8 of 9",)


def test_an_mpijob_launcher_counts_when_it_carries_the_group() -> None:
    job = {"apiVersion": "kubeflow.org/v2beta1", "kind": "MPIJob", "metadata": {"name": "pi"},
           "spec": {"mpiReplicaSpecs": {
               "Launcher": {"replicas": 1, "template": {"spec": {"containers": [
                   {"name": "l", "image": "img", "resources": {"limits": LAUNCHER}}]}}},
               "Worker": {"replicas": 4, "template": {"spec": {"containers": [
                   {"name": "w", "image": "img", "resources": {"limits": WORKER}}]}}}}}}
    gang = gang_of(job, list(ctl.created_objects(job, "volcano", max_workers=1, lazy=True)))
    assert (gang.min_member, [(r.name, r.count) for r in gang.roles]) == (5, [("worker", 4), ("launcher", 1)])
    job["spec"]["launcherCreationPolicy"] = "WaitForWorkersReady"  # no launcher before the workers run
    gang = gang_of(job, list(ctl.created_objects(job, "volcano", max_workers=1, lazy=True)))
    assert [(r.name, r.count) for r in gang.roles] == [("worker", 4)]
    assert gang_fit(gang.roles, gang.min_member, kwok()).reasons == (
        "the PodGroup waits for 5 pods (minMember) and the operator creates 4",)


# --- one pod, one node

def test_pod_requests_as_the_scheduler_sums_them() -> None:
    pod = {
        "containers": [{"name": "a", "resources": {"limits": {"cpu": "1", GPU: "2"}, "requests": {"cpu": "500m"}}},
                       {"name": "b", "resources": {"requests": {"cpu": "250m", "memory": "1Gi"}}}],
        "initContainers": [
            {"name": "init", "resources": {"requests": {"cpu": "2", "memory": "512Mi"}}},
            {"name": "sidecar", "restartPolicy": "Always", "resources": {"requests": {"cpu": "100m"}}},
            {"name": "late-init", "resources": {"requests": {"memory": "3Gi"}}}],
        "overhead": {"cpu": "10m"},
    }
    # containers 750m + sidecar 100m; init peak: 2 cpu, then 3Gi + the sidecar's 100m; overhead last
    assert pod_requests(pod) == {"cpu": q("2010m"), GPU: q("2"), "memory": q("3Gi")}
    pod["resources"] = {"limits": {"cpu": "4"}}  # pod-level resources replace the sum (cpu, memory, hugepages)
    assert pod_requests(pod)["cpu"] == q("4010m")
    assert pod_requests({"containers": [{"name": "a", "resources": {"limits": {"cpu": 0.5}}}]}) == {"cpu": q("500m")}


def test_tolerations() -> None:
    taint = Taint("k", "v", "NoSchedule")
    assert tolerates({"operator": "Exists"}, taint)
    assert tolerates({"key": "k", "operator": "Exists", "effect": "NoSchedule"}, taint)
    assert tolerates({"key": "k", "value": "v"}, taint)
    assert not tolerates({"key": "k", "value": "w"}, taint)
    assert not tolerates({"key": "k", "operator": "Exists", "effect": "NoExecute"}, taint)
    assert not tolerates({"key": "k", "operator": "Gt", "value": "1"}, taint)
    # the not-ready NoExecute taint is tolerated by every pod (DefaultTolerationSeconds), its NoSchedule twin not
    shape = pod_shape(spec())
    assert rejection(shape, node("a", taints=(Taint("node.kubernetes.io/not-ready", "", "NoExecute"),))) is None
    not_ready = node("a", taints=(Taint("node.kubernetes.io/not-ready", "", "NoSchedule"),))
    assert rejection(shape, not_ready).kind == "taint"


@pytest.mark.parametrize("expression, matches", [
    ({"key": "zone", "operator": "In", "values": ["a", "b"]}, True),
    ({"key": "zone", "operator": "NotIn", "values": ["a"]}, False),
    ({"key": "missing", "operator": "NotIn", "values": ["a"]}, True),
    ({"key": "zone", "operator": "Exists"}, True),
    ({"key": "zone", "operator": "DoesNotExist"}, False),
    ({"key": "gpus", "operator": "Gt", "values": ["4"]}, True),
    ({"key": "gpus", "operator": "Lt", "values": ["4"]}, False),
    ({"key": "zone", "operator": "Gt", "values": ["4"]}, False),
])
def test_required_node_affinity(expression: dict[str, Any], matches: bool) -> None:
    affinity = {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {
        "nodeSelectorTerms": [{"matchExpressions": [expression]}]}}}
    target = node("n", labels={"zone": "a", "gpus": "8"})
    assert (rejection(pod_shape(spec(affinity=affinity)), target) is None) is matches


def test_node_affinity_terms_are_alternatives_and_fields_name_the_node() -> None:
    terms = [{"matchExpressions": [{"key": "zone", "operator": "In", "values": ["b"]}]},
             {"matchFields": [{"key": "metadata.name", "operator": "In", "values": ["n"]}]}]
    affinity = {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": terms}}}
    shape = pod_shape(spec(affinity=affinity))
    assert rejection(shape, node("n", labels={"zone": "a"})) is None
    assert rejection(shape, node("m", labels={"zone": "a"})).text == "required nodeAffinity not matched"
    empty = {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [{}]}}}
    assert rejection(pod_shape(spec(affinity=empty)), node("n")) is not None  # an empty term matches nothing
    verdict = gang_fit([Role("worker", 1, shape)], 1, [node("m")])
    assert verdict.reasons == ("no node matches the worker's required nodeAffinity",)


def test_node_names_are_shortened() -> None:
    assert node_list(["node-0", "node-1", "node-2", "node-3"]) == "node-0..node-3"
    assert node_list(["node-0", "node-1", "node-3"]) == "node-0, node-1, node-3"
    assert node_list(["a-08", "a-09", "a-10", "b"]) == "a-08..a-10, b"
    assert node_list(["a-8", "a-9", "a-10"]) == "a-8, a-9, a-10"
    assert node_list([f"n{i}" for i in range(0, 40, 2)]) == "n0, n2, n4, n6, n8 and 15 more"


@pytest.mark.parametrize("value, text", [
    (0, "0"), (2000, "2000"), (1234567, "1234567"), (64 << 30, "64Gi"), (-(64 << 30), "-64Gi"),
    (2 * 10**9, "2G"), (1.5 * 2**30, "1536Mi"),  # an integral float is exact
    (12345678, "11.7738Mi"), (432880890933248, "393.703Ti"), (-8374145132480102, "-7.43773Pi"),
    ((64 << 30) * 1.2, "76.8Gi"), (0.5, "0.5"), (2**70 + 1, "1024Ei"),
])
def test_bytes_are_shown_exactly_when_a_user_would_write_them_so_else_in_units(value, text):
    assert bytes_shown(value) == text
