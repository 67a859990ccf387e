"""GET requests to the API server through the official client's ApiClient: discovery and paginated
lists, as kubectl asks for them. Nothing else is sent: no write, no watch.

Every request has a timeout (:data:`TIMEOUT`: to connect, and between two reads), and a request
that fails to connect is not retried, so an unreachable server is said after a bounded wait.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Callable, Iterator

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
        return self._answer(path, self._body(path, query))

    def _body(self, path: str, query: list[tuple[str, str]] | None) -> tuple[int, str, bytes]:
        """The status, reason and body of ``GET path?query`` (:class:`KubeError` if it cannot be sent)."""
        import urllib3

        request = self.client.param_serialize("GET", path, query_params=query or [],
                                              header_params={"Accept": "application/json"},
                                              auth_settings=["BearerToken"])
        try:
            response = self.client.call_api(*request, _request_timeout=TIMEOUT)
            return response.status, response.reason, response.read()
        except urllib3.exceptions.HTTPError as exc:
            reason = exc.reason if isinstance(exc, urllib3.exceptions.MaxRetryError) and exc.reason else exc
            raise KubeError(f"cannot reach {self._where()}: {_POOL.sub('', str(reason))}") from None

    def _answer(self, path: str, answered: tuple[int, str, bytes]) -> dict[str, Any]:
        status, reason, body = answered
        if status == 200:
            try:
                answer = json.loads(body)
            except ValueError:
                answer = None
            if not isinstance(answer, dict):
                raise KubeError(f"{self._where()} answered GET {path} with something else than a JSON object")
            return answer
        message = _status_message(body) or f"{status} {reason}"
        if status == 403:
            raise Forbidden(message)
        if status == 404:
            raise NotServed(message)
        if status == 401:
            raise KubeError(f"{self._where()} refuses the credentials of the context (401 Unauthorized): {message}")
        raise KubeError(f"{self._where()} answered GET {path} with {status} {reason}: {message}")

    def list(self, path: str, field_selector: str = "", label_selector: str = "") -> list[dict[str, Any]]:
        """Every object of a list (:meth:`pages`, joined)."""
        return [item for page in self.pages(path, field_selector, label_selector) for item in page]

    def pages(self, path: str, field_selector: str = "", label_selector: str = "",
              keep: Callable[[dict[str, Any]], dict[str, Any]] | None = None) -> Iterator[list[dict[str, Any]]]:
        """The objects of a list, a page at a time (``limit``, ``continue``); ``keep``: what of each
        object to keep, taken as its page is decoded.

        The next page is asked for as soon as a page arrives, before it is decoded: the server
        writes its list metadata, the continue token with it, before the items, so the token is
        read from the page's first bytes (:func:`_continue_in`), and the server prepares the next
        page while this one is decoded and used. The decoded page's own token is checked against it."""
        from concurrent.futures import ThreadPoolExecutor

        def query(token: str) -> list[tuple[str, str]]:
            asked = [("limit", str(PAGE))]
            asked += [("fieldSelector", field_selector)] if field_selector else []
            asked += [("labelSelector", label_selector)] if label_selector else []
            return asked + ([("continue", token)] if token else [])

        token = ""
        with ThreadPoolExecutor(max_workers=1) as fetcher:
            arriving = fetcher.submit(self._body, path, query(token))
            while True:
                answered = arriving.result()
                guess = _continue_in(answered[2]) if answered[0] == 200 else None
                if guess:
                    arriving = fetcher.submit(self._body, path, query(guess))
                page = self._answer(path, answered)
                found = page.get("items") or []
                if not isinstance(found, list):
                    raise KubeError(f"{self._where()} answered GET {path} with items that are not a list")
                metadata = page.get("metadata") if isinstance(page.get("metadata"), dict) else {}
                following = metadata.get("continue") or ""
                if following and following == token:
                    raise KubeError(f"{self._where()} gives the same continue token twice for GET {path}")
                yield [item if keep is None else keep(item) for item in found if isinstance(item, dict)]
                if not following:
                    return
                token = following
                if following != guess:  # not read from the first bytes: asked for now
                    arriving = fetcher.submit(self._body, path, query(token))

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


_LIST_METADATA = re.compile(rb'"metadata":\{([^{}]*)\}')
_CONTINUE = re.compile(rb'"continue":"([^"\\]+)"')


def _continue_in(body: bytes) -> str | None:
    """The continue token of a list page, read from its first bytes (the list's metadata comes
    before its items as the API server writes it); None when it is not there. A guess: the
    decoded page says the token for certain."""
    metadata = _LIST_METADATA.search(body, 0, 4096)
    found = _CONTINUE.search(metadata.group(1)) if metadata else None
    return found.group(1).decode() if found else None


def _status_message(body: bytes) -> str:
    """The ``message`` of a Kubernetes Status answer (a refusal, an error), else ""."""
    try:
        status = json.loads(body)
    except ValueError:
        return ""
    message = status.get("message") if isinstance(status, dict) else None
    return message if isinstance(message, str) else ""
