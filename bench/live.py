"""The live row of `make bench` (`--only live`): `mpigen podgroup SPEC --kube-context` reading the
local cluster (cluster/, `make cluster`) beside `json.load` of the same lists as kubectl prints them.

The cluster is given the generated GPU cluster's Nodes and Pods (bench/cluster.py), created for the
row. With no local cluster running, the row starts one of etcd and the API server only (the CRDs,
namespaces and fixtures of `make cluster`, no controller or scheduler: Volcano's scheduler would
spend a core of this machine going over the 15,000 Pods every second) and stops it after, objects
and all; in a cluster already running (`make cluster`: the full one, said in the row's name) it
deletes the objects after and leaves it running. The peer's file
is `kubectl get RESOURCE -A -o json` of every list mpigen reads (mpigen.kube.resources: the Pods
with the same field selector), joined in one List, as the cluster rows' JSON file is.

What is changed of a generated object to create it: the fields the server sets (uid,
resourceVersion, creationTimestamp, managedFields) and the owner references (the garbage collector
would delete a Pod whose owner does not exist) are dropped; of a Pod, the priority the Priority
admission plugin computes from its class (which is created) and the status, and it is given to the
default scheduler (Volcano's webhook refuses a Pod whose PodGroup does not exist), its mounts of
the ServiceAccount token volumes the server adds are dropped (the generator lists the mounts only), and tolerations
without a time for the taints of a node without a kubelet (these Nodes have none: no Pod is evicted
while the row runs). A Node keeps its status, as a kubelet creates it.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any, Callable, Iterable

from bench.cluster import objects
from bench.measure import Command, Failed, in_turns, output_of, peak_rss
from bench.table import Row

LABEL = "bench.mpigen.dev/live"
CONTEXT = "mpigen-local"
CHUNK = 500  # objects per `kubectl create`
NO_KUBELET = ("node.kubernetes.io/not-ready", "node.kubernetes.io/unreachable")
WAIT = 120  # seconds, for deletions


def creatable(obj: dict[str, Any]) -> dict[str, Any]:
    """A generated object as it can be created (the module's docstring says what is changed)."""
    obj = json.loads(json.dumps(obj))
    meta = obj["metadata"]
    for field in ("uid", "resourceVersion", "creationTimestamp", "managedFields", "ownerReferences"):
        meta.pop(field, None)
    meta.setdefault("labels", {})[LABEL] = "true"
    if obj["kind"] == "Pod":
        spec = obj["spec"]
        spec.pop("priority", None)
        spec.pop("preemptionPolicy", None)
        spec["schedulerName"] = "default-scheduler"
        volumes = {volume["name"] for volume in spec.get("volumes", [])}
        for container in spec.get("containers", []) + spec.get("initContainers", []):
            if "volumeMounts" in container:
                container["volumeMounts"] = [m for m in container["volumeMounts"] if m["name"] in volumes]
        spec["tolerations"] = [*spec.get("tolerations", []),
                               *({"key": key, "operator": "Exists", "effect": "NoExecute"} for key in NO_KUBELET)]
        obj.pop("status", None)
    return obj


def _chunks(items: list[dict[str, Any]], size: int) -> Iterable[list[dict[str, Any]]]:
    for start in range(0, len(items), size):
        yield items[start:start + size]


def populate(kubectl: Callable[..., Any], nodes: int, pods: int, log: Callable[[str], None]) -> None:
    """The generated Nodes and Pods created in the cluster, with their Namespaces and PriorityClasses."""
    made = [creatable(obj) for obj in objects(nodes, pods)]
    namespaces = sorted({o["metadata"]["namespace"] for o in made if o["kind"] == "Pod"} - {"default", "kube-system"})
    present = set(kubectl("get", "priorityclasses", "-o", "jsonpath={.items[*].metadata.name}").stdout.split())
    classes = sorted({o["spec"]["priorityClassName"] for o in made if o["kind"] == "Pod"
                      and o["spec"].get("priorityClassName")} - present)
    first = [{"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": ns, "labels": {LABEL: "true"}}}
             for ns in namespaces]
    first += [{"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass", "value": 1000,
               "metadata": {"name": name, "labels": {LABEL: "true"}}} for name in classes]
    log(f"live: creating {len(namespaces)} namespaces, {len(classes)} PriorityClasses")
    # Applied, not created: an API-only cluster left running keeps them (see clean).
    kubectl("apply", "--server-side", "--field-manager=mpigen-bench", "-f", "-",
            stdin=json.dumps({"apiVersion": "v1", "kind": "List", "items": first}))
    # A Pod names its ServiceAccount; with no controller-manager to create it (an API-only cluster)
    # it is created here, and applied where the controller already did.
    accounts = [{"apiVersion": "v1", "kind": "ServiceAccount", "metadata": {"name": "default", "namespace": ns}}
                for ns in sorted({o["metadata"]["namespace"] for o in made if o["kind"] == "Pod"})]
    kubectl("apply", "--server-side", "--field-manager=mpigen-bench", "-f", "-",
            stdin=json.dumps({"apiVersion": "v1", "kind": "List", "items": accounts}))
    log(f"live: creating {nodes} Nodes and {pods} Pods")
    for chunk in _chunks(made, CHUNK):
        kubectl("create", "-f", "-", stdin=json.dumps({"apiVersion": "v1", "kind": "List", "items": chunk}),
                timeout=600)


def clean(kubectl: Callable[..., Any], namespaces: bool = True) -> None:
    """What :func:`populate` created, deleted: the Pods of each namespace in one request and at once
    (no kubelet would confirm a graceful end; kubectl would delete them one by one), then the rest;
    not the namespaces when ``namespaces`` is false (an API-only cluster has no namespace controller
    to finish deleting them: they would stay, being deleted, and no Pod could be created in them)."""
    names = kubectl("get", "namespaces", "-o", "jsonpath={.items[*].metadata.name}").stdout.split()
    for namespace in names:
        kubectl("delete", "--raw", f"/api/v1/namespaces/{namespace}/pods?labelSelector={LABEL}%3Dtrue"
                "&gracePeriodSeconds=0", check=False, timeout=WAIT * 5)
    kinds = "namespaces,priorityclasses,nodes" if namespaces else "priorityclasses,nodes"
    kubectl("delete", kinds, f"-l={LABEL}=true", f"--timeout={WAIT}s", check=False, timeout=WAIT * 5)


def listing(kubectl: Callable[..., Any], path: Path) -> int:
    """Every list mpigen reads from the cluster, as `kubectl get -o json` prints them, in one List at
    ``path``; the objects it holds."""
    from mpigen.kube.resources import RESOURCES

    items: list[Any] = []
    for resource in RESOURCES:
        if resource.name:  # one object got, not a list: a ConfigMap of Volcano's
            continue
        argv = ["get", resource.qualified, "-o", "json", "--chunk-size=500"]
        argv += ["-A"] if resource.resource not in ("nodes", "namespaces", "priorityclasses") else []
        argv += [f"--field-selector={resource.field_selector}"] if resource.field_selector else []
        done = kubectl(*argv, check=False, timeout=600)
        if done.returncode == 0:  # else not served (no such resource type): mpigen notes it and goes on
            items += json.loads(done.stdout)["items"]
    path.write_text(json.dumps({"apiVersion": "v1", "kind": "List", "items": items, "metadata": {}}))
    return len(items)


def live_rows(work: Path, mpigen: list[str], spec: str, nodes: int, pods: int, repeat: int,
              log: Callable[[str], None] = print) -> list[Row]:
    """The row: mpigen reading the local cluster holding ``nodes`` Nodes and ``pods`` Pods, beside
    json.load of kubectl's listing of the same objects (JSON goal: <= 2x the wall time and the peak)."""
    from cluster import local

    running = local.load_state() if local.healthy(local.load_state()) else None
    kind = "the running local cluster" if running and not running.get("api_only") else "an API-only local cluster"
    name = f"podgroup --kube-context: {kind} with {nodes} nodes, {pods} pods (kubectl -o json)"
    started = running is None
    if started:
        try:
            local.up(log, api_only=True)
        except Exception as exc:  # noqa: BLE001 - a cluster that cannot start is a row not measured
            return [Row(name, None, note=f"(the local cluster did not start: {exc})")]
    try:
        if not started:  # a cluster left running: a run stopped before its end may have left objects
            clean(local.kubectl, namespaces=not running.get("api_only"))
        populate(local.kubectl, nodes, pods, log)
        peer_file = work / "live.json"
        count = listing(local.kubectl, peer_file)
        env = {**os.environ, "KUBECONFIG": str(local.KUBECONFIG)}
        ours = Command(mpigen + ["podgroup", spec, "--kube-context", CONTEXT], ok=(0, 1), env=env)
        code, output = output_of(ours)
        if code not in (0, 1):  # 1: the gang does not fit; 2: the cluster could not be read
            return [Row(name, None, note=f"(mpigen exited {code}: {output.strip()[-300:]})")]
        peer = Command([sys.executable, "-c", f"import json; json.load(open({str(peer_file)!r}))"])
        mine, theirs = in_turns([ours, peer], repeat)
        rss, peer_rss = peak_rss(ours), peak_rss(peer)
        return [Row(f"{name}, {count} objects listed", mine.wall, theirs.wall, "json.load", 2.0,
                    cpu=(mine.cpu, theirs.cpu), extra_goal="peak <= 2.00x", extra_met=rss <= 2.0 * peer_rss,
                    note=f"(peak {rss} MiB / {peer_rss} MiB = {rss / peer_rss:.2f}x)")]
    except Failed as error:
        return [Row(name, None, note=f"({error.reason})")]
    except local.ClusterError as error:  # a kubectl call that failed
        return [Row(name, None, note=f"({str(error)[:300]})")]
    finally:
        if started:  # its objects go with it (the run's folder, etcd's data included, is removed)
            local.down(log)
        else:
            clean(local.kubectl, namespaces=not running.get("api_only"))
