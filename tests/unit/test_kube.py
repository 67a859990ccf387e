"""mpigen.kube: the live cluster (--kube-context, --kubeconfig) read into the Cluster value a
cluster file gives, against an in-process fake API server (tests/fake_apiserver.py) reached with
generated kubeconfigs (a token, a client certificate, an exec credential plugin)."""

from __future__ import annotations

import copy
import json
import re
import socket
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
import yaml

from mpigen.diagnostics import Severity
from mpigen.io import ClusterInput, UsageError, load_cluster
from mpigen.kube import KubeError, read_live
from mpigen.kube import api as kube_api
from mpigen.kube.kubeconfig import chosen_context, kubeconfig_paths
from mpigen.kube.resources import NOT_FINISHED, RESOURCES
from mpigen.load.cluster import Cluster
from mpigen.main import main
from tests.fake_apiserver import KINDS, TOKEN, FakeApiServer, content, from_file, kubeconfig, make_pki

ROOT = Path(__file__).resolve().parents[2]
RUNTIMES = json.loads((ROOT / "mpigen/data/trainer/v2.3.0/runtimes.json").read_text())["items"]
VOLCANO_CONF = yaml.safe_load((ROOT / "tests/cases/cluster/volcano/scheduler-configmap.yaml").read_text())
CONF_PATH = "/api/v1/namespaces/volcano-system/configmaps/volcano-scheduler-configmap"


def node(name: str, gpus: str = "8", **spec: Any) -> dict[str, Any]:
    return {"apiVersion": "v1", "kind": "Node", "metadata": {"name": name, "labels": {"pool": "gpu"}},
            "spec": spec, "status": {"allocatable": {"cpu": "64", "memory": "512Gi", "nvidia.com/gpu": gpus,
                                                     "pods": "110"}}}


def pod(name: str, namespace: str, node_name: str | None, phase: str, cpu: str = "4") -> dict[str, Any]:
    spec: dict[str, Any] = {"containers": [{"name": "c", "image": "img",
                                            "resources": {"requests": {"cpu": cpu, "nvidia.com/gpu": "2"},
                                                          "limits": {"nvidia.com/gpu": "2"}}}]}
    if node_name:
        spec["nodeName"] = node_name
    return {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name, "namespace": namespace},
            "spec": spec, "status": {"phase": phase}}


def custom(group_version: str, kind: str, name: str, namespace: str | None = None, **body: Any) -> dict[str, Any]:
    meta = {"name": name, **({"namespace": namespace} if namespace else {})}
    return {"apiVersion": group_version, "kind": kind, "metadata": meta, **body}


def objects() -> dict[str, list[dict[str, Any]]]:
    """What the fake cluster holds, by resource: enough of each to need two pages or more."""
    runtime = copy.deepcopy(RUNTIMES[3])  # torch-distributed
    namespaced = copy.deepcopy(runtime)
    namespaced["kind"] = "TrainingRuntime"
    namespaced["metadata"] = {"name": "team-torch", "namespace": "research"}
    volcano, kueue = "scheduling.volcano.sh/v1beta1", "kueue.x-k8s.io/v1beta1"
    return {
        "nodes": [node("node-0"), node("node-1", taints=[{"key": "dedicated", "value": "x", "effect": "NoSchedule"}]),
                  node("node-2", unschedulable=True)],
        "pods": [pod("a", "default", "node-0", "Running"), pod("b", "research", "node-0", "Pending", "1"),
                 pod("unbound", "default", None, "Pending"), pod("done", "default", "node-0", "Succeeded"),
                 pod("failed", "research", "node-1", "Failed"), pod("c", "research", "node-1", "Running", "2")],
        "namespaces": [{"apiVersion": "v1", "kind": "Namespace",
                        "metadata": {"name": "research", "labels": {"istio-injection": "enabled"}}},
                       {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "default"}},
                       {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "kube-system"}}],
        "priorityclasses": [custom("scheduling.k8s.io/v1", "PriorityClass", n, value=v)
                            for n, v in (("high", 1000), ("low", 10), ("system-node-critical", 2000001000))],
        "clustertrainingruntimes": [runtime],
        "trainingruntimes": [namespaced],
        "queues": [custom(volcano, "Queue", "research", spec={"capability": {"nvidia.com/gpu": "8"}, "weight": 1},
                          status={"state": "Open"})],
        "podgroups": [custom(volcano, "PodGroup", "bert", "research", spec={"minMember": 3, "queue": "research"},
                             status={"phase": "Pending"})],
        "clusterqueues": [custom(kueue, "ClusterQueue", "team", spec={"namespaceSelector": {}, "cohort": "org"})],
        "cohorts": [custom(kueue, "Cohort", "org", spec={"parentName": "company"})],
        "workloadpriorityclasses": [custom(kueue, "WorkloadPriorityClass", "urgent", value=1000)],
        "localqueues": [custom(kueue, "LocalQueue", "team", "research", spec={"clusterQueue": "team"})],
        "resourceflavors": [custom(kueue, "ResourceFlavor", "default-flavor", spec={})],
        "workloads": [custom(kueue, "Workload", "job-bert", "research", spec={"queueName": "team"})],
        "elasticquotas": [custom("scheduling.x-k8s.io/v1alpha1", "ElasticQuota", "quota", "research",
                                 spec={"max": {"nvidia.com/gpu": "8"}})],
        "configmaps": [copy.deepcopy(VOLCANO_CONF)],
    }


def as_file(held: dict[str, list[dict[str, Any]]]) -> str:
    """The same objects as `kubectl get ... -o yaml` prints them, one List per resource, in the
    order the reader lists them, joined by --- lines."""
    order = [r.resource for r in RESOURCES]
    return "---\n".join(yaml.safe_dump({"apiVersion": "v1", "kind": "List", "items": held[name]}, sort_keys=False)
                        for name in order if held.get(name))


def said(diagnostics: list) -> list[tuple[str, Severity, str]]:
    return [(d.code, d.severity, d.message) for d in diagnostics]


@pytest.fixture(scope="module")
def pki(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_pki(tmp_path_factory.mktemp("pki"))


@pytest.fixture
def server(pki: Path):
    with FakeApiServer(pki, objects()) as fake:
        yield fake


def token_config(tmp_path: Path, fake: FakeApiServer, pki: Path, **kwargs: Any) -> Path:
    return kubeconfig(tmp_path / "kubeconfig", fake.url, pki, {"token": TOKEN}, **kwargs)


def live(config: Path, context: str | None = None) -> tuple[Cluster, list]:
    return read_live(str(config), context, {})


# --- the same Cluster value as the file of the same objects


def test_the_live_cluster_is_the_file_of_the_same_objects(tmp_path: Path, server: FakeApiServer, pki: Path) -> None:
    found, diagnostics = live(token_config(tmp_path, server, pki))
    expected, file_diagnostics = from_file(as_file(objects()))
    assert content(found) == content(expected)
    # what the file reader says of the objects, it says of them live (at the object, not a line)
    assert said(d for d in diagnostics if d.code == "cluster") == said(file_diagnostics)
    assert all(d.line is None and re.match(r"context fake: [a-z0-9.-]+/[\w.-]+( -n \w+)?$", d.file)
               for d in diagnostics if d.code == "cluster")
    assert [d for d in diagnostics if d.code != "cluster"] == []
    # what it holds, spelled out: the bound and unfinished Pods on their nodes, labels, runtimes of both kinds
    assert [(n.name, n.pods, str(n.requested.get("cpu"))) for n in found.nodes] == [
        ("node-0", 2, "5"), ("node-1", 1, "2"), ("node-2", 0, "None")]
    assert found.bound_pods == 3 and found.priority_classes["high"] == 1000
    assert found.namespaces["research"] == {"istio-injection": "enabled"}
    assert sorted(found.runtimes.objects) == [("ClusterTrainingRuntime", "", "torch-distributed"),
                                              ("TrainingRuntime", "research", "team-torch")]
    assert found.origin.context == "fake" and found.origin.pods_listed


def test_nodes_and_pods_are_held_as_the_cluster_reader_reads_them(tmp_path: Path, server: FakeApiServer, pki: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Each Node and Pod is cut to what the cluster reader reads of it as its page arrives
    (mpigen.load.large_cluster.KEEP): a container's name and image are not held; other kinds whole."""
    from mpigen.kube import reader

    held = []
    read_cluster = reader.read_cluster

    def reading(documents: Any, label: str) -> Any:
        def watched() -> Any:
            for document in documents:
                held.append(document.data)
                yield document
        return read_cluster(watched(), label)

    monkeypatch.setattr(reader, "read_cluster", reading)
    found, _ = live(token_config(tmp_path, server, pki))
    assert found.bound_pods == 3  # read from the cut Pods
    pods = [obj for obj in held if obj["kind"] == "Pod"]
    assert [pod["metadata"]["name"] for pod in pods] == ["a", "b", "unbound", "c"]
    assert pods[0] == {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "a", "namespace": "default"},
                       "spec": {"containers": [{"resources": {"requests": {"cpu": "4", "nvidia.com/gpu": "2"},
                                                              "limits": {"nvidia.com/gpu": "2"}}}],
                                "nodeName": "node-0"},
                       "status": {"phase": "Running"}}
    assert [obj for obj in held if obj["kind"] == "Node"] == objects()["nodes"]  # nothing of these to cut
    assert [obj for obj in held if obj["kind"] == "Namespace"] == objects()["namespaces"]


def test_the_cluster_reader_reads_each_page_as_it_arrives(tmp_path: Path, server: FakeApiServer, pki: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """The objects go to the cluster reader as their pages arrive, not once every list is read: the
    first Node is read before the Pods are asked for, the first Pod before the last page of Pods."""
    from mpigen.kube import reader

    asked_when_read = {}
    read_cluster = reader.read_cluster

    def reading(documents: Any, label: str) -> Any:
        def watched() -> Any:
            for document in documents:
                asked_when_read.setdefault(document.data["kind"], len(server.requests))
                yield document
        return read_cluster(watched(), label)

    monkeypatch.setattr(reader, "read_cluster", reading)
    found, _ = live(token_config(tmp_path, server, pki))
    assert found.bound_pods == 3
    pods_asked = [i for i, (_, path, _) in enumerate(server.requests) if path == "/api/v1/pods"]
    assert len(pods_asked) == 2  # two pages
    assert asked_when_read["Node"] <= pods_asked[0]
    assert asked_when_read["Pod"] <= pods_asked[1] + 1  # the second page, asked for before the first is read


def test_lists_are_paginated_and_only_read(tmp_path: Path, server: FakeApiServer, pki: Path) -> None:
    """limit and continue, kubectl's field selector for the Pods, discovery, and nothing but GET."""
    live(token_config(tmp_path, server, pki))
    lists = [(path, query) for method, path, query in server.requests if query]
    assert {method for method, _, _ in server.requests} == {"GET"}
    assert all(query["limit"] == ["500"] for _, query in lists)
    pages = {}
    for path, query in lists:
        pages.setdefault(path.rsplit("/", 1)[1], []).append(query.get("continue", [""])[0])
    held = objects()
    assert len(pages) == len([r for r in RESOURCES if r.verb == "list"])
    for resource, tokens in pages.items():  # the fake gives 2 a page: every page asked for, in turn
        count = 4 if resource == "pods" else len(held[resource])  # 4 Pods are not finished
        assert tokens == [""] + [str(2 * i) for i in range(1, (count + 1) // 2)], resource
    assert {q["fieldSelector"][0] for p, q in lists if p == "/api/v1/pods"} == {NOT_FINISHED}
    gets = [path for method, path, query in server.requests if not query]
    assert gets.pop() == CONF_PATH  # the Volcano scheduler's ConfigMap, by name, after the lists
    discovery = gets
    assert discovery == ["/apis", "/api/v1", "/apis/scheduling.k8s.io/v1", "/apis/trainer.kubeflow.org/v1alpha1",
                         "/apis/scheduling.volcano.sh/v1beta1", "/apis/kueue.x-k8s.io/v1beta1",
                         "/apis/scheduling.x-k8s.io/v1alpha1"]


def test_every_request_has_a_timeout(tmp_path: Path, server: FakeApiServer, pki: Path,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    from kubernetes.client import ApiClient

    timeouts = []
    call_api = ApiClient.call_api

    def spy(self: Any, *args: Any, **kwargs: Any) -> Any:
        timeouts.append(kwargs.get("_request_timeout"))
        return call_api(self, *args, **kwargs)

    monkeypatch.setattr(ApiClient, "call_api", spy)
    live(token_config(tmp_path, server, pki))
    assert len(timeouts) == len(server.requests) > len(RESOURCES)
    assert set(timeouts) == {kube_api.TIMEOUT} and all(kube_api.TIMEOUT)


# --- credentials


def test_a_client_certificate(tmp_path: Path, server: FakeApiServer, pki: Path) -> None:
    config = kubeconfig(tmp_path / "kubeconfig", server.url, pki,
                        {"client-certificate": "client.crt", "client-key": str(pki / "client.key")})
    (tmp_path / "client.crt").write_bytes((pki / "client.crt").read_bytes())  # relative to the kubeconfig's folder
    found, _ = live(config)
    assert content(found) == content(from_file(as_file(objects()))[0])


def test_inline_certificate_data(tmp_path: Path, server: FakeApiServer, pki: Path) -> None:
    import base64

    def data(name: str) -> str:
        return base64.b64encode((pki / name).read_bytes()).decode()

    config = kubeconfig(tmp_path / "kubeconfig", server.url, pki,
                        {"client-certificate-data": data("client.crt"), "client-key-data": data("client.key")})
    spec = json.loads(config.read_text())
    spec["clusters"][0]["cluster"] = {"server": server.url, "certificate-authority-data": data("ca.crt")}
    config.write_text(json.dumps(spec))
    assert [n.name for n in live(config)[0].nodes] == ["node-0", "node-1", "node-2"]


EXEC_PLUGIN = """\
import json, os, sys
info = json.loads(os.environ["KUBERNETES_EXEC_INFO"])
with open(sys.argv[1], "a") as runs:
    runs.write(info["apiVersion"] + "\\n")
if sys.argv[2] == "fail":
    print("no login session: run `login` first", file=sys.stderr)
    sys.exit(1)
print(json.dumps({"apiVersion": info["apiVersion"], "kind": "ExecCredential", "status": {"token": sys.argv[2]}}))
"""


def exec_config(tmp_path: Path, fake: FakeApiServer, pki: Path, token: str) -> tuple[Path, Path]:
    (tmp_path / "plugin.py").write_text(EXEC_PLUGIN)
    runs = tmp_path / "runs"
    user = {"exec": {"apiVersion": "client.authentication.k8s.io/v1", "command": sys.executable,
                     "args": [str(tmp_path / "plugin.py"), str(runs), token], "interactiveMode": "Never"}}
    return kubeconfig(tmp_path / "kubeconfig", fake.url, pki, user), runs


def test_an_exec_credential_plugin_runs_once(tmp_path: Path, server: FakeApiServer, pki: Path) -> None:
    config, runs = exec_config(tmp_path, server, pki, TOKEN)
    found, _ = live(config)
    assert [n.name for n in found.nodes] == ["node-0", "node-1", "node-2"]
    assert runs.read_text() == "client.authentication.k8s.io/v1\n"


def test_an_exec_plugin_that_fails_is_exit_2_with_its_words(tmp_path: Path, server: FakeApiServer, pki: Path,
                                                          capsys: pytest.CaptureFixture) -> None:
    config, _ = exec_config(tmp_path, server, pki, "fail")
    assert main(["explain", str(ROOT / "specs/horovod-volcano.yaml"), "--kubeconfig", str(config)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("mpigen: context 'fake' of ") and err.count("\n") == 1
    assert "the credentials could not be had: exec: process returned 1. no login session: run `login` first" in err
    assert server.requests == []


def test_credentials_the_server_refuses_are_exit_2(tmp_path: Path, server: FakeApiServer, pki: Path,
                                                   capsys: pytest.CaptureFixture) -> None:
    config = kubeconfig(tmp_path / "kubeconfig", server.url, pki, {"token": "wrong"})
    assert main(["podgroup", str(ROOT / "specs/horovod-volcano.yaml"), "--kubeconfig", str(config)]) == 2
    assert capsys.readouterr().err == (f"mpigen: the cluster at {server.url} (context fake) refuses the credentials "
                                       "of the context (401 Unauthorized): Unauthorized\n")


# --- what cannot be read is said, and the rest is used


def test_a_forbidden_list_and_absent_groups(tmp_path: Path, pki: Path) -> None:
    served = tuple(k for k in KINDS if k.group not in ("kueue.x-k8s.io", "scheduling.x-k8s.io"))
    with FakeApiServer(pki, objects(), served=served, forbidden={"podgroups", "pods", "configmaps"}) as fake:
        found, diagnostics = live(token_config(tmp_path, fake, pki))
    lines = [d.format() for d in diagnostics if d.code != "cluster"]
    assert lines == [
        'context fake: warning cluster-forbidden may not list pods in all namespaces, so the Pods are left out: '
        'pods is forbidden: User "jane" cannot list resource "pods" in API group "" at the cluster scope',
        'context fake: warning cluster-forbidden may not list podgroups.scheduling.volcano.sh in all namespaces, so '
        'the PodGroups are left out: podgroups.scheduling.volcano.sh is forbidden: User "jane" cannot list resource '
        '"podgroups" in API group "scheduling.volcano.sh" at the cluster scope',
        'context fake: warning cluster-forbidden may not get configmaps volcano-scheduler-configmap in namespace '
        'volcano-system, so the ConfigMap is left out: configmaps "volcano-scheduler-configmap" is forbidden: User '
        '"jane" cannot get resource "configmaps" in API group "" in the namespace "volcano-system"',
        "context fake: info cluster-not-served the cluster does not serve API group kueue.x-k8s.io (Kueue is not "
        "installed): no ClusterQueues, Cohorts, LocalQueues, ResourceFlavors, WorkloadPriorityClasses and Workloads "
        "are read",
        "context fake: info cluster-not-served the cluster does not serve API group scheduling.x-k8s.io "
        "(scheduler-plugins is not installed): no ElasticQuotas are read",
    ]
    assert [n.name for n in found.nodes] == ["node-0", "node-1", "node-2"] and found.bound_pods == 0
    assert found.priority_classes["high"] == 1000 and not found.origin.pods_listed
    assert not [path for _, path, _ in fake.requests if "kueue" in path or "x-k8s" in path]


def test_the_volcano_configuration_is_got_only_where_volcano_is_served(tmp_path: Path, pki: Path) -> None:
    """By name, where Volcano's Helm chart puts it; a cluster without Volcano is not asked for it,
    and a Volcano without that ConfigMap runs the chart's default configuration (as a file without it)."""
    served = tuple(k for k in KINDS if k.group != "scheduling.volcano.sh")
    with FakeApiServer(pki, objects(), served=served) as fake:
        found, _ = live(token_config(tmp_path, fake, pki))
    assert found.volcano_conf is None and CONF_PATH not in [path for _, path, _ in fake.requests]
    with FakeApiServer(pki, {**objects(), "configmaps": []}) as fake:
        found, diagnostics = live(token_config(tmp_path, fake, pki))
    assert found.volcano_conf is None and CONF_PATH in [path for _, path, _ in fake.requests]
    assert [d for d in diagnostics if d.code != "cluster"] == []
    with FakeApiServer(pki, objects()) as fake:
        assert live(token_config(tmp_path, fake, pki))[0].volcano_conf is not None


def test_a_resource_its_group_does_not_serve(tmp_path: Path, pki: Path) -> None:
    served = tuple(k for k in KINDS if k.resource != "workloads")
    with FakeApiServer(pki, objects(), served=served) as fake:
        _, diagnostics = live(token_config(tmp_path, fake, pki))
    assert [d.message for d in diagnostics if d.code == "cluster-not-served"] == [
        "the cluster does not serve workloads.kueue.x-k8s.io: no Workloads are read"]


def test_a_problem_of_an_object_is_said_at_the_object(tmp_path: Path, pki: Path) -> None:
    held = objects()
    held["nodes"][1]["status"]["allocatable"]["cpu"] = "lots"
    with FakeApiServer(pki, held) as fake:
        found, diagnostics = live(token_config(tmp_path, fake, pki))
    assert "context fake: nodes/node-1: error cluster Node 'node-1' status.allocatable: 'lots' is not a quantity " \
           "(status.allocatable.cpu)" in [d.format() for d in diagnostics]
    assert [n.name for n in found.nodes] == ["node-0", "node-2"]


# --- an unreachable server: exit 2 with its address, after a bounded wait


def test_a_closed_port_is_exit_2_with_the_address(tmp_path: Path, pki: Path, capsys: pytest.CaptureFixture) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]  # closed again when the test reaches it
    config = kubeconfig(tmp_path / "kubeconfig", f"https://127.0.0.1:{port}", pki, {"token": TOKEN})
    assert main(["explain", str(ROOT / "specs/horovod-volcano.yaml"), "--kubeconfig", str(config)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"mpigen: cannot reach the cluster at https://127.0.0.1:{port} (context fake): ")
    assert "Connection refused" in err and err.count("\n") == 1


def test_without_the_kube_extra_a_live_option_says_what_to_install(tmp_path: Path, pki: Path,
                                                                   capsys: pytest.CaptureFixture,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """The Kubernetes client is the kube extra's, not every install's: without it a live option is
    exit 2 naming the extra, never a traceback (None in sys.modules makes its import fail)."""
    for module in [name for name in sys.modules if name == "kubernetes" or name.startswith("kubernetes.")]:
        monkeypatch.delitem(sys.modules, module)
    monkeypatch.setitem(sys.modules, "kubernetes", None)
    config = kubeconfig(tmp_path / "kubeconfig", "https://127.0.0.1:1", pki, {"token": TOKEN})
    assert main(["explain", str(ROOT / "specs/horovod-volcano.yaml"), "--kubeconfig", str(config)]) == 2
    message = ("mpigen: reading a live cluster (--kube-context, --kubeconfig, mpigen diagnose) needs the Kubernetes "
               "client, which mpigen's kube extra installs: pip install 'mpigen[kube]' (or, in a checkout, pip install "
               "'.[kube]')\n")
    assert capsys.readouterr().err == message
    assert main(["diagnose", "mpijob/bert", "-n", "research", "--kubeconfig", str(config)]) == 2
    assert capsys.readouterr().err == message


def test_a_server_that_never_answers_is_given_up_once(tmp_path: Path, pki: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """The wait is bounded by the request's timeout, and a connection that timed out is not tried
    again: one connection, then exit 2 (counted, not timed)."""
    monkeypatch.setattr(kube_api, "TIMEOUT", (0.3, 0.3))
    accepted, stop = [], threading.Event()
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(8)
        listener.settimeout(0.05)

        def accept() -> None:
            while not stop.is_set():
                try:
                    accepted.append(listener.accept()[0])
                except OSError:
                    continue

        thread = threading.Thread(target=accept, daemon=True)
        thread.start()
        url = f"https://127.0.0.1:{listener.getsockname()[1]}"
        with pytest.raises(KubeError, match=re.escape(f"cannot reach the cluster at {url} (context fake): ") +
                           ".*timed out"):
            live(kubeconfig(tmp_path / "kubeconfig", url, pki, {"token": TOKEN}))
        stop.set()
        thread.join()
    assert len(accepted) == 1
    for connection in accepted:
        connection.close()


# --- the kubeconfig, as kubectl reads it


def _config(path: Path, current: str | None, *contexts: str) -> str:
    spec = {"apiVersion": "v1", "kind": "Config", "clusters": [], "users": [],
            "contexts": [{"name": c, "context": {"cluster": c, "user": c}} for c in contexts]}
    if current:
        spec["current-context"] = current
    path.write_text(yaml.safe_dump(spec))
    return str(path)


def test_which_kubeconfig_files(tmp_path: Path) -> None:
    a, b = _config(tmp_path / "a", None, "one"), _config(tmp_path / "b", "two", "two")
    missing = str(tmp_path / "missing")
    assert kubeconfig_paths(a, {"KUBECONFIG": b}) == [a]  # --kubeconfig first
    assert kubeconfig_paths(None, {"KUBECONFIG": f"{missing}:{a}::{b}:{a}"}) == [a, b]  # a path list
    (tmp_path / ".kube").mkdir()
    home = _config(tmp_path / ".kube" / "config", "one", "one")
    assert kubeconfig_paths(None, {"HOME": str(tmp_path)}) == [home]
    with pytest.raises(KubeError, match="--kubeconfig .*missing: no such file"):
        kubeconfig_paths(missing, {})
    with pytest.raises(KubeError, match=r"no kubeconfig: \$KUBECONFIG"):
        kubeconfig_paths(None, {"KUBECONFIG": missing})


def test_the_first_file_to_set_current_context_wins(tmp_path: Path) -> None:
    """kubectl's merge: the first file's current-context (the client library alone takes the last's)."""
    a = _config(tmp_path / "a", None, "one")
    b = _config(tmp_path / "b", "two", "two")
    c = _config(tmp_path / "c", "one", "three")
    assert chosen_context([a, b, c], None) == "two"
    assert chosen_context([a, b, c], "three") == "three"
    with pytest.raises(KubeError, match=r"context 'four' is not in .* \(contexts: one, two, three\)"):
        chosen_context([a, b, c], "four")
    with pytest.raises(KubeError, match="sets no current-context: name one with --kube-context"):
        chosen_context([a], None)


def test_kube_context_picks_a_context(tmp_path: Path, server: FakeApiServer, pki: Path) -> None:
    config = token_config(tmp_path, server, pki, context="first", others=("second",))
    found, _ = read_live(None, "second", {"KUBECONFIG": str(config)})
    assert found.origin.context == "second"


# --- the options, on every command that takes --cluster


CLUSTER_COMMANDS = ("build", "check", "explain", "podgroup", "validate", "import manifest")


def test_every_command_with_cluster_takes_the_live_options() -> None:
    from mpigen.main import cli

    def options(group: Any, prefix: str = "") -> dict[str, set[str]]:
        import click

        ctx = click.Context(group)
        found: dict[str, set[str]] = {}
        for name in group.list_commands(ctx):
            command = group.get_command(ctx, name)
            if isinstance(command, click.Group):
                found |= options(command, f"{prefix}{name} ")
            else:
                found[prefix + name] = {o for p in command.params for o in p.opts}
        return found

    found = options(cli)
    with_cluster = sorted(name for name, opts in found.items() if "--cluster" in opts)
    assert with_cluster == sorted(CLUSTER_COMMANDS)
    assert all({"--kube-context", "--kubeconfig"} <= found[name] for name in with_cluster)


@pytest.mark.parametrize("argv", [["build", "specs/horovod-volcano.yaml"], ["validate", "specs/horovod-volcano.yaml"],
                                  ["explain", "specs/horovod-volcano.yaml"],
                                  ["check", "specs/horovod-volcano.yaml", "-o", "out"]],
                         ids=lambda argv: argv[0])
def test_cluster_and_a_live_option_is_a_usage_error(argv: list[str], capsys: pytest.CaptureFixture,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    assert main([*argv, "--cluster", "specs/cluster/priorityclasses.yaml", "--kube-context", "prod"]) == 2
    assert capsys.readouterr().err.endswith(
        "mpigen: --cluster and --kube-context do not go together: the cluster is read from a file or live, not both\n")


def test_a_live_option_wins_over_the_configurations_cluster(tmp_path: Path) -> None:
    from mpigen.config import Config
    from mpigen.io import configured

    config = Config(path=tmp_path / ".mpigen.yaml", cluster="cluster.yaml")
    assert configured(config, None, ClusterInput())[1] == ClusterInput(str(tmp_path / "cluster.yaml"))
    assert configured(config, None, ClusterInput(context="prod"))[1] == ClusterInput(context="prod")


def test_explain_live_and_from_the_file(tmp_path: Path, server: FakeApiServer, pki: Path,
                                        capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same verdict on the same objects; only the words of where the Nodes come from differ."""
    monkeypatch.chdir(ROOT)
    config = token_config(tmp_path, server, pki)
    (tmp_path / "cluster.yaml").write_text(as_file(objects()))
    spec = "specs/horovod-volcano.yaml"
    code = main(["explain", spec, "--kubeconfig", str(config)])
    live_out, live_err = capsys.readouterr()
    assert main(["explain", spec, "--cluster", str(tmp_path / "cluster.yaml")]) == code
    file_out, file_err = capsys.readouterr()
    assert "On the 3 nodes of context fake (allocatable less the requests of the 3 Pod(s) bound to them)" in live_out
    assert "; the cluster of context fake's 1 Queue, 1 PodGroup and 4 Pods): admits the gang" in live_out
    assert live_out.replace("the 3 nodes of context fake", "the cluster file's 3 nodes") \
        .replace("the cluster of context fake's", "the cluster file's") == file_out
    # the file's findings at a line and a path in its lists, the live ones at the object
    at_line = re.escape(str(tmp_path / "cluster.yaml")) + r":\d+:\d+: "
    file_lines = [re.sub(r" \(items\[\d+\]\)$", "", re.sub(at_line, "", line)).replace("(items[0].", "(")
                  for line in file_err.splitlines()]
    live_lines = [re.sub(r"^context fake: \S+( -n \S+)?: ", "", line).replace("the cluster of context fake's",
                                                                            "the cluster file's")
                  for line in live_err.splitlines()]
    assert sorted(live_lines) == sorted(file_lines)


def test_io_load_cluster_turns_an_unreadable_cluster_into_a_usage_error(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="no such file"):
        load_cluster(ClusterInput(kubeconfig=str(tmp_path / "nope")))


# --- the ClusterRole of docs/cluster.md


def test_the_documented_cluster_role_grants_exactly_what_is_listed() -> None:
    readme = (ROOT / "docs" / "cluster.md").read_text()
    blocks = [yaml.safe_load_all(block) for block in re.findall(r"```yaml\n(.*?)```", readme, re.S)
              if "kind: ClusterRole\n" in block]
    assert len(blocks) == 1
    documents = list(blocks[0])
    (role,) = [d for d in documents if d["kind"] == "ClusterRole"]
    granted = {(group, resource, verb, name) for rule in role["rules"] for group in rule["apiGroups"]
               for resource in rule["resources"] for verb in rule["verbs"] for name in rule.get("resourceNames", [""])}
    assert granted == {(r.group, r.resource, r.verb, r.name) for r in RESOURCES}
    (binding,) = [d for d in documents if d["kind"] == "ClusterRoleBinding"]
    assert binding["roleRef"] == {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole",
                                  "name": role["metadata"]["name"]}


def test_managed_fields_are_left_out_as_kubectl_get_leaves_them_out(tmp_path: Path, pki: Path) -> None:
    """The API server sends every object's metadata.managedFields; ``kubectl get -o yaml`` does not
    print them, so the live value is the file's only without them (the runtimes keep whole objects)."""
    managed = [{"manager": "kubectl", "operation": "Apply", "apiVersion": "v1", "fieldsType": "FieldsV1",
                "fieldsV1": {"f:metadata": {}}}]
    served = {resource: [dict(o, metadata={**o["metadata"], "managedFields": managed}) for o in items]
              for resource, items in objects().items()}
    with FakeApiServer(pki, served) as fake:
        found, _ = live(token_config(tmp_path, fake, pki))
    expected, _ = from_file(as_file(objects()))
    assert content(found) == content(expected)


def test_the_next_page_is_asked_for_with_the_token_of_the_pages_first_bytes() -> None:
    from mpigen.kube.api import _continue_in

    page = b'{"kind":"PodList","apiVersion":"v1","metadata":{"resourceVersion":"7","continue":"eyJ2Ijo","remainingItemCount":3},"items":[]}'
    assert _continue_in(page) == "eyJ2Ijo"
    assert _continue_in(b'{"kind":"PodList","metadata":{"resourceVersion":"7"},"items":[{"metadata":{"continue":"x"}}]}') \
        is None  # an item's metadata is not the list's
    assert _continue_in(b'{"items":[]}') is None


def test_a_wrong_guess_of_the_next_token_is_corrected_by_the_decoded_page() -> None:
    """The token read from a page's first bytes is a guess: the decoded metadata decides, and the
    page it names is asked for (here the first bytes name a page that does not exist)."""
    from mpigen.kube.api import Api

    pages = {"": (b'{"metadata":{"continue":"bogus"},"items":[{"n":1}],"metadata":{"continue":"2"}}'),
             "2": b'{"metadata":{},"items":[{"n":2}]}',
             "bogus": b'{"metadata":{},"items":[{"n":99}]}'}
    asked = []

    class Pages(Api):
        def __init__(self) -> None:
            pass

        def _body(self, path: str, query: list[tuple[str, str]] | None) -> tuple[int, str, bytes]:
            token = dict(query or []).get("continue", "")
            asked.append(token)
            return 200, "OK", pages[token]

    assert Pages().list("/api/v1/pods") == [{"n": 1}, {"n": 2}]
    assert asked[0] == "" and "2" in asked
    assert list(Pages().pages("/api/v1/pods", keep=lambda item: {"kept": item["n"]})) == [[{"kept": 1}], [{"kept": 2}]]
