"""One open connection to a live cluster on which a command asks for objects one by one: ``mpigen
diagnose`` gets a job, lists what the operator created for it in its namespace, and reads the
whole cluster as ``--kube-context`` does (:func:`~mpigen.kube.reader.read_cluster_with`), on the same
connection and with one discovery.

Only ``get`` and ``list`` are sent, each with the timeout of :mod:`.api`. A request the user may
not make (403) is raised as :class:`Refused`, naming the verb, the resource and the namespace, so
the caller can say what it could not read and go on with the rest; a resource the cluster does not
serve is :meth:`Live.serves`' answer, and an object that does not exist is None.
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Iterator, Mapping

from ..diagnostics import Diagnostic
from ..load.cluster import Cluster
from .api import Api, Forbidden, NotServed, Served
from .kubeconfig import connect
from .reader import RESOURCES, discover, read_cluster_with, typed
from .resources import Resource


@dataclass(frozen=True)
class Refused(Exception):
    """The server refuses a request to the user (403)."""

    verb: str  # get, list
    resource: str  # as kubectl and RBAC name it: pods, podgroups.scheduling.volcano.sh
    namespace: str  # "" at the cluster scope
    message: str  # the server's words

    def __str__(self) -> str:
        where = f"in namespace {self.namespace}" if self.namespace else "at the cluster scope"
        return f"may not {self.verb} {self.resource} {where}: {self.message}"


class Live:
    """A connection, and where the server serves the resources asked for when it was opened."""

    def __init__(self, api: Api, served: Mapping[Resource, Served]) -> None:
        self.api = api
        self.served = dict(served)

    @property
    def context(self) -> str:
        return self.api.connection.context

    @property
    def namespace(self) -> str:
        """The context's namespace ("" when it names none)."""
        return self.api.connection.namespace

    @property
    def server(self) -> str:
        return self.api.connection.server

    def serves(self, resource: Resource) -> bool:
        return resource in self.served

    def get(self, resource: Resource, namespace: str, name: str) -> dict[str, Any] | None:
        """The object, typed (apiVersion and kind set); None when it does not exist or the cluster
        does not serve its resource. :class:`Refused` (403)."""
        where = self.served.get(resource)
        if where is None:
            return None
        scope = namespace if where.namespaced else ""
        try:
            return typed(self.api.get(where.path(resource.resource, scope, name)), where)
        except NotServed:
            return None
        except Forbidden as exc:
            raise Refused("get", resource.qualified, scope, str(exc)) from None

    def list(self, resource: Resource, namespace: str, label_selector: str = "",
             field_selector: str = "") -> list[dict[str, Any]]:
        """The objects of the resource in ``namespace`` (every page), typed; none when the cluster does
        not serve it. :class:`Refused` (403)."""
        where = self.served.get(resource)
        if where is None:
            return []
        scope = namespace if where.namespaced else ""
        path = where.path(resource.resource, scope)
        try:
            return [typed(item, where) for item in self.api.list(path, field_selector, label_selector)]
        except NotServed:
            return []
        except Forbidden as exc:
            raise Refused("list", resource.qualified, scope, str(exc)) from None

    def cluster(self) -> tuple[Cluster, list[Diagnostic]]:
        """What ``--kube-context`` reads of the whole cluster (:func:`~mpigen.kube.reader.read_live`)."""
        return read_cluster_with(self.api, {r: s for r, s in self.served.items() if r in RESOURCES})


@contextmanager
def open_live(kubeconfig: str | None, context: str | None, environ: Mapping[str, str],
              wanted: tuple[Resource, ...]) -> Iterator[Live]:
    """A connection to the context (``--kube-context``, else the current one) of the kubeconfig
    (``--kubeconfig``, else ``$KUBECONFIG``, else ``~/.kube/config``), with discovery read for
    ``wanted`` and for what :meth:`Live.cluster` reads. :class:`~mpigen.kube.KubeError` when the
    cluster cannot be read at all."""
    api = Api(connect(kubeconfig, context, environ))
    try:
        yield Live(api, discover(api, tuple(dict.fromkeys(RESOURCES + wanted))))
    finally:
        api.close()
