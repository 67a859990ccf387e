"""A small Kubernetes API server in the test process, for mpigen.kube's tests.

It serves what the reader asks for and records every request: discovery (``/api/v1``, ``/apis``,
``/apis/GROUP/VERSION``) of the resources it is given, and their lists across all namespaces,
paginated (at most :attr:`FakeApiServer.page` objects a page, whatever ``limit`` asks, as a real
server may; ``continue`` tokens), with field selectors (``a=b``, ``a!=b``, on dotted paths) applied.
A list of a built-in kind carries its items without apiVersion and kind, as the real server's do.
Lists of one namespace (``/api/v1/namespaces/NS/RESOURCE``), label selectors (``a=b``) and one
object got by name (``/api/v1/namespaces/NS/RESOURCE/NAME``, ``/apis/G/V/RESOURCE/NAME``) are
served too. Lists and gets of the resources in ``forbidden`` are refused (403, with the API
server's Status message). HTTPS with a CA
of its own (made with the openssl command, as cluster/pki.py makes the local cluster's); a
request is let in with the bearer token or a client certificate the CA signed, else 401.
"""

from __future__ import annotations

import json
import ssl
import subprocess
import threading
from dataclasses import dataclass, field, replace
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from mpigen.load.cluster import Cluster, read_cluster
from mpigen.load.yaml_loader import load_text

TOKEN = "s3cr3t-token"
BUILT_IN = ("", "scheduling.k8s.io")


@dataclass(frozen=True)
class Kind:
    group: str
    version: str
    resource: str
    kind: str
    namespaced: bool

    @property
    def group_version(self) -> str:
        return f"{self.group}/{self.version}" if self.group else self.version


KINDS = (
    Kind("", "v1", "nodes", "Node", False),
    Kind("", "v1", "pods", "Pod", True),
    Kind("", "v1", "namespaces", "Namespace", False),
    Kind("scheduling.k8s.io", "v1", "priorityclasses", "PriorityClass", False),
    Kind("trainer.kubeflow.org", "v1alpha1", "trainingruntimes", "TrainingRuntime", True),
    Kind("trainer.kubeflow.org", "v1alpha1", "clustertrainingruntimes", "ClusterTrainingRuntime", False),
    Kind("scheduling.volcano.sh", "v1beta1", "queues", "Queue", False),
    Kind("scheduling.volcano.sh", "v1beta1", "podgroups", "PodGroup", True),
    Kind("", "v1", "configmaps", "ConfigMap", True),
    Kind("kueue.x-k8s.io", "v1beta1", "clusterqueues", "ClusterQueue", False),
    Kind("kueue.x-k8s.io", "v1beta1", "cohorts", "Cohort", False),
    Kind("kueue.x-k8s.io", "v1beta1", "localqueues", "LocalQueue", True),
    Kind("kueue.x-k8s.io", "v1beta1", "resourceflavors", "ResourceFlavor", False),
    Kind("kueue.x-k8s.io", "v1beta1", "workloadpriorityclasses", "WorkloadPriorityClass", False),
    Kind("kueue.x-k8s.io", "v1beta1", "workloads", "Workload", True),
    Kind("scheduling.x-k8s.io", "v1alpha1", "elasticquotas", "ElasticQuota", True),
)
"""Every kind the fake can serve (one version each)."""

JOB_KINDS = (
    Kind("kubeflow.org", "v2beta1", "mpijobs", "MPIJob", True),
    Kind("kubeflow.org", "v1", "pytorchjobs", "PyTorchJob", True),
    Kind("kubeflow.org", "v1", "tfjobs", "TFJob", True),
    Kind("trainer.kubeflow.org", "v1alpha1", "trainjobs", "TrainJob", True),
    Kind("", "v1", "services", "Service", True),
    Kind("", "v1", "events", "Event", True),
    Kind("batch", "v1", "jobs", "Job", True),
    Kind("jobset.x-k8s.io", "v1alpha2", "jobsets", "JobSet", True),
    Kind("scheduling.x-k8s.io", "v1alpha1", "podgroups", "PodGroup", True),
)
"""What mpigen diagnose reads besides: the jobs, and what the operators create for them. The
objects of a resource two groups serve (podgroups) are told apart by their apiVersion."""


def openssl(folder: Path, *args: str) -> None:
    subprocess.run(["openssl", *args], cwd=folder, check=True, capture_output=True)


def make_pki(folder: Path) -> Path:
    """A CA, a serving certificate for 127.0.0.1 and a client certificate (user ``jane``), EC keys."""
    folder.mkdir(parents=True, exist_ok=True)
    ec = ("-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes")
    openssl(folder, "req", "-x509", *ec, "-keyout", "ca.key", "-out", "ca.crt", "-days", "3650", "-subj", "/CN=fake-ca")
    leaves = (("server", "/CN=fake-apiserver", "subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n"),
              ("client", "/CN=jane/O=researchers", "extendedKeyUsage=clientAuth\n"))
    for name, subject, ext in leaves:
        (folder / f"{name}.ext").write_text(ext)
        openssl(folder, "req", "-new", *ec, "-keyout", f"{name}.key", "-out", f"{name}.csr", "-subj", subject)
        openssl(folder, "x509", "-req", "-in", f"{name}.csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial",
                "-days", "3650", "-extfile", f"{name}.ext", "-out", f"{name}.crt")
    return folder


def _field(obj: Any, path: str) -> str:
    for part in path.split("."):
        obj = obj.get(part) if isinstance(obj, dict) else None
    return "" if obj is None else str(obj)


def selected(obj: dict[str, Any], selector: str) -> bool:
    """Whether ``obj`` passes a field selector of ``a=b``, ``a==b`` and ``a!=b`` terms."""
    for term in filter(None, selector.split(",")):
        if "!=" in term:
            key, value = term.split("!=", 1)
            if _field(obj, key) == value:
                return False
        else:
            key, value = term.replace("==", "=").split("=", 1)
            if _field(obj, key) != value:
                return False
    return True


def labelled(obj: dict[str, Any], selector: str) -> bool:
    """Whether ``obj``'s labels pass a label selector of ``a=b`` terms."""
    labels = (obj.get("metadata") or {}).get("labels") or {}
    terms = (term.split("=", 1) for term in filter(None, selector.split(",")))
    return all(labels.get(key) == value for key, value in terms)


@dataclass
class FakeApiServer:
    pki: Path
    objects: dict[str, list[dict[str, Any]]] = field(default_factory=dict)  # resource -> objects
    served: tuple[Kind, ...] = KINDS
    forbidden: set[str] = field(default_factory=set)  # resources whose list is refused
    page: int = 2
    requests: list[tuple[str, str, dict[str, list[str]]]] = field(default_factory=list)  # method, path, query

    def __post_init__(self) -> None:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:  # quiet
                pass

            def do_GET(self) -> None:  # noqa: N802 - http.server's name
                url = urlsplit(self.path)
                query = parse_qs(url.query, keep_blank_values=True)
                fake.requests.append(("GET", url.path, query))
                status, body = fake.answer(url.path, query, self.headers.get("Authorization", ""),
                                           bool(self.connection.getpeercert()))
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def _refuse(self) -> None:
                fake.requests.append((self.command, urlsplit(self.path).path, {}))
                self.send_response(405)
                self.send_header("Content-Length", "0")
                self.end_headers()

            do_POST = do_PUT = do_PATCH = do_DELETE = _refuse

        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(self.pki / "server.crt", self.pki / "server.key")
        context.load_verify_locations(self.pki / "ca.crt")
        context.verify_mode = ssl.CERT_OPTIONAL
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.socket = context.wrap_socket(self.httpd.socket, server_side=True)
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"https://127.0.0.1:{self.httpd.server_address[1]}"

    def __enter__(self) -> FakeApiServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def answer(self, path: str, query: dict[str, list[str]], authorization: str,
               certified: bool) -> tuple[int, dict[str, Any]]:
        if authorization != f"Bearer {TOKEN}" and not certified:
            return 401, status(401, "Unauthorized", "Unauthorized")
        if path == "/apis":
            groups: dict[str, list[str]] = {}
            for k in self.served:
                if k.group:
                    groups.setdefault(k.group, [])
                    if k.group_version not in groups[k.group]:
                        groups[k.group].append(k.group_version)
            return 200, {"kind": "APIGroupList", "apiVersion": "v1", "groups": [
                {"name": g, "versions": [{"groupVersion": v, "version": v.split("/")[1]} for v in vs],
                 "preferredVersion": {"groupVersion": vs[0], "version": vs[0].split("/")[1]}}
                for g, vs in groups.items()]}
        for k in self.served:
            prefix = f"/api/{k.group_version}" if not k.group else f"/apis/{k.group_version}"
            if path == prefix:
                return 200, {"kind": "APIResourceList", "apiVersion": "v1", "groupVersion": k.group_version,
                             "resources": [{"name": o.resource, "kind": o.kind, "namespaced": o.namespaced,
                                            "verbs": ["get", "list", "watch"]}
                                           for o in self.served if o.group_version == k.group_version]}
            if path == f"{prefix}/{k.resource}":
                return self.list(k, query)
            parts = path.removeprefix(f"{prefix}/").split("/")  # [namespaces, NS,] RESOURCE[, NAME]
            if not path.startswith(f"{prefix}/"):
                continue
            if k.namespaced and len(parts) == 4 and parts[0] == "namespaces" and parts[2] == k.resource:
                return self.get(k, parts[1], parts[3])
            if k.namespaced and len(parts) == 3 and parts[0] == "namespaces" and parts[2] == k.resource:
                return self.list(k, query, parts[1])
            if not k.namespaced and len(parts) == 2 and parts[0] == k.resource:
                return self.get(k, "", parts[1])
        return 404, status(404, "NotFound", "the server could not find the requested resource")

    def held(self, kind: Kind) -> list[dict[str, Any]]:
        """The objects of ``kind``'s resource of its group and version."""
        return [o for o in self.objects.get(kind.resource, []) if o.get("apiVersion", kind.group_version)
                == kind.group_version]

    def get(self, kind: Kind, namespace: str, name: str) -> tuple[int, dict[str, Any]]:
        if kind.resource in self.forbidden:
            return 403, status(403, "Forbidden", f'{kind.resource} "{name}" is forbidden: User "jane" cannot get '
                                                 f'resource "{kind.resource}" in API group "{kind.group}" in the '
                                                 f'namespace "{namespace}"')
        for obj in self.held(kind):
            if obj["metadata"]["name"] == name and obj["metadata"].get("namespace", "") == namespace:
                return 200, obj
        return 404, status(404, "NotFound", f'{kind.resource} "{name}" not found')

    def list(self, kind: Kind, query: dict[str, list[str]], namespace: str = "") -> tuple[int, dict[str, Any]]:
        if kind.resource in self.forbidden:
            name = f"{kind.resource}.{kind.group}" if kind.group else kind.resource
            scope = f'in the namespace "{namespace}"' if namespace else "at the cluster scope"
            return 403, status(403, "Forbidden", f'{name} is forbidden: User "jane" cannot list resource '
                                                 f'"{kind.resource}" in API group "{kind.group}" {scope}')
        selector = (query.get("fieldSelector") or [""])[0]
        labels = (query.get("labelSelector") or [""])[0]
        items = [o for o in self.held(kind) if selected(o, selector) and labelled(o, labels)
                 and (not namespace or o["metadata"].get("namespace") == namespace)]
        start = int((query.get("continue") or ["0"])[0] or 0)
        limit = min(int((query.get("limit") or ["0"])[0] or 0) or len(items), self.page)
        page = items[start:start + limit]
        if kind.group in BUILT_IN:
            page = [{k: v for k, v in o.items() if k not in ("apiVersion", "kind")} for o in page]
        more = start + limit < len(items)
        return 200, {"apiVersion": kind.group_version, "kind": f"{kind.kind}List",
                     "metadata": {"resourceVersion": "42", **({"continue": str(start + limit)} if more else {})},
                     "items": page}


def status(code: int, reason: str, message: str) -> dict[str, Any]:
    return {"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure", "message": message,
            "reason": reason, "code": code}


def kubeconfig(path: Path, server: str, pki: Path, user: dict[str, Any], context: str = "fake",
               others: tuple[str, ...] = ()) -> Path:
    """A kubeconfig whose current context ``context`` reaches ``server`` as ``user``; ``others``:
    more contexts to the same cluster and user."""
    config = {
        "apiVersion": "v1", "kind": "Config", "current-context": context,
        "clusters": [{"name": "fake", "cluster": {"server": server, "certificate-authority": str(pki / "ca.crt")}}],
        "users": [{"name": "jane", "user": user}],
        "contexts": [{"name": name, "context": {"cluster": "fake", "user": "jane"}} for name in (context, *others)],
    }
    path.write_text(json.dumps(config))
    return path


# --- what a live read is compared with (here and in tests/e2e/test_live.py, on the local cluster)


def from_file(text: str) -> tuple[Cluster, list]:
    """The Cluster value (and the findings) of a cluster file's text."""
    loaded = load_text(text, "cluster.yaml")
    assert loaded.diagnostics == []
    return read_cluster(loaded.documents, "cluster.yaml")


def content(cluster: Cluster) -> Cluster:
    """The Cluster value without where its runtimes were written (a file's lines; nowhere, live)."""
    return replace(cluster, runtimes=replace(cluster.runtimes, source="", filename="", where={}))
