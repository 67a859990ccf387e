"""GET requests to the API server through the official client's ApiClient: discovery and paginated
lists, as kubectl asks for them. Nothing else is sent: no write, no watch.

Every request has a timeout (:data:`TIMEOUT`: to connect, and between two reads), and a request
that fails to connect is not retried, so an unreachable server is said after a bounded wait.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from .kubeconfig import Connection, KubeError
from .resources import Resource

TIMEOUT = (10.0, 60.0)
"""Seconds to connect, and to wait for the server between two reads of an answer."""
PAGE = 500
"""Objects per page of a list (kubectl's --chunk-size)."""


_POOL = re.compile(r"^\w*Connection(Pool)?\([^)]*\): ")
"""urllib3's prefix of an error (the connection pool, which the message names already)."""


class Forbidden(Exception):
    """The server refuses this request to the user (403): the server's own words."""


class NotServed(Exception):
    """The server does not serve what was asked (404)."""


@dataclass(frozen=True)
class Served:
    """Where the server serves a resource: the version (the group's preferred one that has it, as
    kubectl's REST mapper picks it), and whether it is namespaced."""

    group_version: str  # "v1", "scheduling.volcano.sh/v1beta1"
    kind: str
    namespaced: bool

    def path(self, resource: str, namespace: str = "", name: str = "") -> str:
        """The list of every namespace, or one object."""
        prefix = "/api/" if "/" not in self.group_version else "/apis/"
        within = f"namespaces/{namespace}/" if namespace else ""
        return f"{prefix}{self.group_version}/{within}{resource}" + (f"/{name}" if name else "")


class Api:
    """GET, discovery and paginated lists on one connection."""

    def __init__(self, connection: Connection) -> None:
        from kubernetes.client import ApiClient

        connection.configuration.retries = 0  # a refused or timed-out connection is said at once
        self.connection = connection
        self.client = ApiClient(connection.configuration)
        self.client.user_agent = "mpigen"

    def close(self) -> None:
        self.client.close()

    def _where(self) -> str:
        return f"the cluster at {self.connection.server} (context {self.connection.context})"

    def get(self, path: str, query: list[tuple[str, str]] | None = None) -> dict[str, Any]:
        """The JSON answer of ``GET path?query``; :class:`Forbidden` (403), :class:`NotServed` (404),
        :class:`KubeError` for any other failure."""
        import urllib3

        request = self.client.param_serialize("GET", path, query_params=query or [],
                                              header_params={"Accept": "application/json"},
                                              auth_settings=["BearerToken"])
        try:
            response = self.client.call_api(*request, _request_timeout=TIMEOUT)
            body = response.read()
        except urllib3.exceptions.HTTPError as exc:
            reason = exc.reason if isinstance(exc, urllib3.exceptions.MaxRetryError) and exc.reason else exc
            raise KubeError(f"cannot reach {self._where()}: {_POOL.sub('', str(reason))}") from None
        if response.status == 200:
            try:
                answer = json.loads(body)
            except ValueError:
                answer = None
            if not isinstance(answer, dict):
                raise KubeError(f"{self._where()} answered GET {path} with something else than a JSON object")
            return answer
        message = _status_message(body) or f"{response.status} {response.reason}"
        if response.status == 403:
            raise Forbidden(message)
        if response.status == 404:
            raise NotServed(message)
        if response.status == 401:
            raise KubeError(f"{self._where()} refuses the credentials of the context (401 Unauthorized): {message}")
        raise KubeError(f"{self._where()} answered GET {path} with {response.status} {response.reason}: {message}")

    def list(self, path: str, field_selector: str = "", label_selector: str = "") -> list[dict[str, Any]]:
        """Every object of a list, page by page (``limit``, ``continue``)."""
        items: list[dict[str, Any]] = []
        token = ""
        while True:
            query = [("limit", str(PAGE))]
            if field_selector:
                query.append(("fieldSelector", field_selector))
            if label_selector:
                query.append(("labelSelector", label_selector))
            if token:
                query.append(("continue", token))
            page = self.get(path, query)
            found = page.get("items") or []
            if not isinstance(found, list):
                raise KubeError(f"{self._where()} answered GET {path} with items that are not a list")
            items += [item for item in found if isinstance(item, dict)]
            metadata = page.get("metadata") if isinstance(page.get("metadata"), dict) else {}
            following = metadata.get("continue") or ""
            if not following:
                return items
            if following == token:
                raise KubeError(f"{self._where()} gives the same continue token twice for GET {path}")
            token = following

    def discover(self, wanted: tuple[Resource, ...]) -> dict[Resource, Served]:
        """Where the server serves each of ``wanted`` (those it does not serve are left out): the core
        group from ``/api/v1``, the others from ``/apis`` and ``/apis/GROUP/VERSION``, the group's
        preferred version first, then its others in the server's order."""
        groups: dict[str, list[str]] = {"": ["v1"]}
        for group in self.get("/apis").get("groups") or []:
            if not isinstance(group, dict) or not isinstance(group.get("name"), str):
                continue
            versions = [v.get("groupVersion") for v in group.get("versions") or [] if isinstance(v, dict)]
            preferred = (group.get("preferredVersion") or {}).get("groupVersion")
            ordered = [preferred] + [v for v in versions if v != preferred] if preferred else versions
            groups[group["name"]] = [v for v in ordered if isinstance(v, str)]
        found: dict[Resource, Served] = {}
        for name, versions in groups.items():
            mine = [r for r in wanted if r.group == name]
            for group_version in versions if mine else []:
                try:
                    listed = self.get(f"/api/{group_version}" if not name else f"/apis/{group_version}")
                except NotServed:
                    continue
                for entry in listed.get("resources") or []:
                    if not isinstance(entry, dict):
                        continue
                    for resource in mine:
                        if entry.get("name") == resource.resource and resource not in found:
                            found[resource] = Served(group_version, str(entry.get("kind") or resource.kind),
                                                     entry.get("namespaced") is True)
                if all(r in found for r in mine):
                    break
        return found


def _status_message(body: bytes) -> str:
    """The ``message`` of a Kubernetes Status answer (a refusal, an error), else ""."""
    try:
        status = json.loads(body)
    except ValueError:
        return ""
    message = status.get("message") if isinstance(status, dict) else None
    return message if isinstance(message, str) else ""
