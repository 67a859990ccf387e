"""The live cluster read into the Cluster value a cluster file gives.

Each resource of :data:`~mpigen.kube.resources.RESOURCES` the server serves is listed (every
namespace, page by page), or its one named object got, and the objects go, as the documents of a file would, to
:func:`mpigen.load.cluster.read_cluster`: one reader for both, so a file and the live cluster that
holds the same objects give the same Cluster value, and a kind the file reader learns is read live
too. Objects of a list come without ``apiVersion`` and ``kind`` for the built-in kinds; they are set
from discovery, as ``kubectl get -o yaml`` prints them. Each Node and Pod is cut to what the
cluster reader reads of it as its page is decoded (:func:`mpigen.load.large_cluster.cut`, as a
large file's are), and used by the cluster reader while the server prepares the next page: the
Pods of a large cluster are never all held, and their reading waits less for the server.

What cannot be read is said and the rest is used: a group or resource the cluster does not serve
(no Volcano installed) is a note (``cluster-not-served``), a list the user may not read a warning
naming the verb, resource and scope (``cluster-forbidden``). A problem of an object is reported as
the file reader reports it (``cluster``), at the object (``context C: nodes/node-3``).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable, Iterator, Mapping

from ..diagnostics import Diagnostic, Severity
from ..load.cluster import Cluster, read_cluster
from ..load.document import Document
from ..load.large_cluster import cut
from ..load.pause import collector_paused
from ..scheduler.fit import Origin
from .api import Api, Forbidden, NotServed, Served
from .kubeconfig import KubeError, connect
from .resources import RESOURCES, SERVED_BY, Resource


def _plural(kind: str) -> str:
    return kind + ("es" if kind.endswith("s") else "s")


def _kinds(resources: list[Resource]) -> str:
    names = [_plural(r.kind) for r in resources]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _scope(resource: Resource, served: Served) -> str:
    if resource.name:
        return f"{resource.name} in namespace {resource.namespace}"
    return "in all namespaces" if served.namespaced else "at the cluster scope"


def _what(resource: Resource) -> str:
    return f"the {resource.kind} is" if resource.name else f"the {_plural(resource.kind)} are"


def _found(api: Api, path: str, keep: Callable[[dict[str, Any]], dict[str, Any]]) -> list[dict[str, Any]]:
    """What ``keep`` keeps of the object at ``path``, or none (it does not exist)."""
    try:
        return [keep(api.get(path))]
    except NotServed:
        return []


def _kept(served: Served) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """What is kept of each object of a resource served so: :func:`typed`, then cut to what the
    cluster reader reads."""
    return lambda obj: cut(typed(obj, served))


def _object_name(obj: dict[str, Any], resource: Resource) -> str:
    """``nodes/node-3``, ``podgroups.scheduling.volcano.sh/bert -n research``: the object as
    kubectl names it."""
    meta = obj.get("metadata") if isinstance(obj.get("metadata"), dict) else {}
    name = f"{resource.qualified}/{meta.get('name') or '?'}"
    namespace = meta.get("namespace")
    return f"{name} -n {namespace}" if isinstance(namespace, str) and namespace else name


def read_live(kubeconfig: str | None, context: str | None,
              environ: Mapping[str, str]) -> tuple[Cluster, list[Diagnostic]]:
    """The Cluster value of the context (``--kube-context``, else the current one) of the
    kubeconfig (``--kubeconfig``, else ``$KUBECONFIG``, else ``~/.kube/config``, read from
    ``environ``), and what could not be read. :class:`KubeError` when nothing can be."""
    connection = connect(kubeconfig, context, environ)
    api = Api(connection)
    try:
        return read_cluster_with(api)
    finally:
        api.close()


def read_cluster_with(api: Api, served: Mapping[Resource, Served] | None = None
                      ) -> tuple[Cluster, list[Diagnostic]]:
    """:func:`read_live` on a connection already open (``mpigen diagnose`` reads more on it);
    ``served``: where the server serves :data:`RESOURCES`, when discovery has been read already."""
    if served is None:
        served = discover(api, RESOURCES)
    # As a large file is read (mpigen.load.pause): the collections that the pages' millions of
    # objects would trigger find no garbage, and took half of the reading's time (the cluster
    # reader freezes what a large cluster leaves).
    with collector_paused():
        return _read(api, served)


def _read(api: Api, served: Mapping[Resource, Served]) -> tuple[Cluster, list[Diagnostic]]:
    connection = api.connection
    label = f"context {connection.context}"
    diagnostics: list[Diagnostic] = []
    names: dict[int, str] = {}  # a document's line -> its object's name
    listed: set[str] = set()  # the kinds whose lists were read

    def say(code: str, severity: Severity, message: str) -> None:
        diagnostics.append(Diagnostic(label, None, None, "", code, severity, message))

    def documents() -> Iterator[Document]:
        """Each object as a document, as its page arrives: the cluster reader uses a page while the
        server prepares the next. Each document's line is its object's number, so that the file
        reader's diagnostics name the object."""
        count = 0
        absent: dict[str, list[Resource]] = {}
        groups = {r.group for r in served}
        for resource in RESOURCES:
            where = served.get(resource)
            if resource.name and (where is None or resource.with_group not in groups):
                continue  # not there to get (a cluster without Volcano has no Volcano configuration)
            if where is None:
                absent.setdefault(resource.group, []).append(resource)
                continue
            try:  # (a list refused after its first page keeps what the pages before gave)
                if resource.name:
                    pages = iter([_found(api, where.path(resource.resource, resource.namespace, resource.name),
                                         _kept(where))])
                else:
                    pages = api.pages(where.path(resource.resource), resource.field_selector, keep=_kept(where))
                for items in pages:
                    for item in items:
                        count += 1
                        names[count] = _object_name(item, resource)
                        yield Document(item, count - 1, count)
            except Forbidden as exc:
                say("cluster-forbidden", Severity.WARNING, f"may not {resource.verb} {resource.qualified} "
                    f"{_scope(resource, where)}, so {_what(resource)} left out: {exc}")
                continue
            except NotServed:
                absent.setdefault(resource.group, []).append(resource)
                continue
            listed.add(resource.kind)
        for group, resources in absent.items():
            whole = [r for r in RESOURCES if r.group == group]
            who = f" ({SERVED_BY[group]} is not installed)" if group in SERVED_BY else ""
            what = f"API group {group}{who}" if resources == whole else " and ".join(r.qualified for r in resources)
            say("cluster-not-served", Severity.INFO, f"the cluster does not serve {what}: no {_kinds(resources)} are read")

    cluster, found = read_cluster(documents(), label)
    for d in found:
        named = names.get(d.line) if d.file == label and d.line is not None else None
        diagnostics.append(replace(d, file=f"{label}: {named}", line=None, column=None) if named else d)
    origin = Origin(connection.context, "Pod" in listed)
    return replace(cluster, runtimes=replace(cluster.runtimes, where={}), origin=origin), diagnostics


def discover(api: Api, wanted: tuple[Resource, ...]) -> dict[Resource, Served]:
    """Where the server serves each of ``wanted``; :class:`KubeError` when it refuses discovery."""
    try:
        return api.discover(wanted)
    except (Forbidden, NotServed) as exc:
        connection = api.connection
        raise KubeError(f"the cluster at {connection.server} (context {connection.context}) refuses "
                        f"discovery (GET /apis): {exc}") from None


def typed(obj: dict[str, Any], served: Served) -> dict[str, Any]:
    """The object as ``kubectl get -o yaml`` prints it: its ``apiVersion`` and ``kind`` first (a
    list's items of a built-in kind come without them), and without ``metadata.managedFields``
    (kubectl's ``--show-managed-fields=false``), so that a live object is the file's."""
    meta = obj.get("metadata")
    if isinstance(meta, dict) and "managedFields" in meta:
        obj = {**obj, "metadata": {k: v for k, v in meta.items() if k != "managedFields"}}
    if isinstance(obj.get("apiVersion"), str) and isinstance(obj.get("kind"), str):
        return obj
    rest = {k: v for k, v in obj.items() if k not in ("apiVersion", "kind")}
    return {"apiVersion": served.group_version, "kind": served.kind, **rest}
