"""The local cluster is what `make cluster` promises (the names are fixed: checks outside the
repository rely on them)."""

from __future__ import annotations

from cluster import local
from cluster.objects import POOL_NODES
from cluster.procs import listening_addresses
from tests.e2e.conftest import Kube

LOOPBACK = {"127.0.0.1", "::1"}


def test_every_process_listens_on_loopback_only(kube: Kube) -> None:
    state = local.load_state()
    wide = {}
    for proc in local.processes(state):
        assert proc.alive(), f"{proc.name} is not running (log: {proc.log})"
        outside = {f"{a}:{p}" for a, p in listening_addresses(proc.pid) if a not in LOOPBACK}
        if outside:
            wide[proc.name] = sorted(outside)
    assert not wide, f"listening beyond loopback: {wide}"


def test_nodes(kube: Kube) -> None:
    """node-0..node-3, untainted, and the production pools of cluster/objects.py beside them
    (cpu-0, gpu-0..gpu-3), each tainted for its pool; every node Ready."""
    nodes = {n["metadata"]["name"]: n for n in kube.get("nodes")["items"]}
    pools = {n.name: n for n in POOL_NODES}
    assert sorted(nodes) == sorted(["node-0", "node-1", "node-2", "node-3", *pools])
    for name, node in nodes.items():
        if name in pools:
            assert node["status"]["allocatable"] == pools[name].capacity
            assert node["metadata"]["labels"].items() >= pools[name].labels.items()
            taints = [f"{t['key']}={t['value']}:{t['effect']}" for t in node["spec"]["taints"]]
            assert taints == list(pools[name].taints), name
        else:
            assert node["status"]["allocatable"] == {"cpu": "64", "memory": "512Gi", "nvidia.com/gpu": "8",
                                                     "pods": "110"}
            assert not node["spec"].get("taints"), name
        ready = [c for c in node["status"]["conditions"] if c["type"] == "Ready"]
        assert ready and ready[0]["status"] == "True"


def test_every_node_keeps_a_lease(kube: Kube) -> None:
    """kwok renews each node's Lease as a kubelet does; without one the node lifecycle controller
    took every node for unreachable each 50 s and tainted it until kwok made it Ready again."""
    nodes = {n["metadata"]["name"] for n in kube.get("nodes")["items"]}
    leases = {lease["metadata"]["name"]: lease["spec"] for lease in kube.get("leases", "-n", "kube-node-lease")["items"]}
    assert nodes <= set(leases), sorted(nodes - set(leases))
    assert all(leases[name].get("renewTime") for name in nodes)


def test_namespaces_and_the_default_queue(kube: Kube) -> None:
    assert {"volcano": "volcano", "scheduler-plugins": "scheduler-plugins", "none": "default"}.items() <= \
        kube.namespaces.items()
    for name in ("volcano", "scheduler-plugins", "default"):
        kube.kubectl("get", "namespace", name)
    queue = kube.get("queue", "default")
    assert queue["status"]["state"] == "Open"


def test_kueue_and_its_queues(kube: Kube) -> None:
    """Kueue runs beside the operators: the namespace kueue, its LocalQueue user-queue pointing at
    the ClusterQueue cluster-queue, which Kueue reports Active."""
    assert kube.namespaces["kueue"] == "kueue"
    cluster_queue = kube.get("clusterqueues.kueue.x-k8s.io", "cluster-queue")
    active = [c for c in cluster_queue["status"].get("conditions", []) if c["type"] == "Active"]
    assert active and active[0]["status"] == "True", cluster_queue["status"]
    local_queue = kube.get("localqueues.kueue.x-k8s.io", "user-queue", "-n", "kueue")
    assert local_queue["spec"]["clusterQueue"] == "cluster-queue"


def test_a_second_make_cluster_reuses_the_running_one(kube: Kube) -> None:
    before = local.load_state()
    messages: list[str] = []
    after = local.up(messages.append)
    assert messages == ["reusing the running cluster"]
    assert after["processes"] == before["processes"]
