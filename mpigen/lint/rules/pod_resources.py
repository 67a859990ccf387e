"""A container's resources in a pod template are refused by the API server.

The operator's pods are refused at creation (a Deployment when it is created) when a container's
``resources`` break the Pod rules of Kubernetes v1.35.1 (``pkg/apis/core/validation/validation.go``,
``validateResourceRequirements`` via ``ValidateContainerResourceRequirements``): every resource name
is a standard container resource (cpu, memory, ephemeral-storage, hugepages-<size>) or a fully
qualified extended resource (``validateContainerResourceName``, ``helper.IsExtendedResourceName``);
no quantity is negative, and an extended resource such as ``nvidia.com/gpu`` is a whole number
(``ValidateResourceQuantityValue``); a request is at most its limit ("must be less than or equal to
cpu limit of 500m"), and for a resource that cannot be overcommitted (extended resources, hugepages)
equals it, and needs a limit (``helper.IsOvercommitAllowed``); hugepages come in whole pages and
with cpu or memory (``validateResourceQuantityHugePageValue``). Quantities are compared after the
API server rounds them up to milli units (``SetDefaults_ResourceList``). Messages are the API
server's; the request-limit message, which the server gives at ``resources.requests``, points at the
request.

Fix: keep each request at or below its limit (or leave the request out: a Pod's request defaults to
its limit), set extended resources such as ``nvidia.com/gpu`` as whole numbers in ``limits`` (with
an equal request, if any), and name resources as the message lists.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Iterator

from ...diagnostics import Severity
from ...operator.quantity import Quantity
from ..base import Context, Path
from ...operator.k8s_validation import forbidden, invalid, is_qualified_name, required
from ..pod_fields import QuantityValue, quantity
from ..pod_template import POD_KINDS, pod_templates

CODE = "pod-resources"
SEVERITY = Severity.ERROR
KINDS = POD_KINDS

CONTAINER_RESOURCES = ("cpu", "memory", "ephemeral-storage")  # standardContainerResources
STANDARD_RESOURCES = frozenset((  # helper.standardResources
    "cpu", "memory", "ephemeral-storage", "requests.cpu", "requests.memory", "requests.ephemeral-storage",
    "limits.cpu", "limits.memory", "limits.ephemeral-storage", "pods", "resourcequotas", "services",
    "replicationcontrollers", "secrets", "configmaps", "persistentvolumeclaims", "storage", "requests.storage",
    "services.nodeports", "services.loadbalancers"))
INTEGER_RESOURCES = frozenset(("pods", "resourcequotas", "services", "replicationcontrollers", "secrets", "configmaps",
                               "persistentvolumeclaims", "services.nodeports", "services.loadbalancers"))


def check(ctx: Context) -> Iterator[tuple[Path, str]]:
    for template in pod_templates(ctx):
        for path, container in template.all_containers:
            resources = container.get("resources")
            if isinstance(resources, dict) and resources:
                yield from requirements(resources, path + ("resources",))


def is_native(name: str) -> bool:
    return "/" not in name or "kubernetes.io/" in name


def is_extended(name: str) -> bool:
    """``helper.IsExtendedResourceName``."""
    return not is_native(name) and not name.startswith("requests.") and not is_qualified_name("requests." + name)


@dataclass(frozen=True, slots=True)
class ResourceKind:
    """What the checks need to know of a resource name."""

    errors: tuple[str, ...]  # validateContainerResourceName's messages
    integer: bool  # helper.IsIntegerResourceName
    hugepages: bool  # helper.IsHugePageResourceName
    overcommit: bool  # helper.IsOvercommitAllowed
    cpu_or_memory: bool


@functools.lru_cache(maxsize=1024)
def resource_kind(name: str) -> ResourceKind:
    """The kind of a resource name (computed once per name)."""
    hugepages = name.startswith("hugepages-")
    return ResourceKind(resource_name(name), name in INTEGER_RESOURCES or is_extended(name), hugepages,
                        is_native(name) and not hugepages, name in ("cpu", "memory"))


def resource_name(name: str) -> tuple[str, ...]:
    """``validateContainerResourceName`` (with ``validateResourceName``)."""
    errors = list(is_qualified_name(name))
    single = "/" not in name
    standard = name in STANDARD_RESOURCES or name.startswith(("hugepages-", "requests.hugepages-"))
    if not errors and single and not standard:
        errors = ["must be a standard resource type or fully qualified"]
    if single:
        if name not in CONTAINER_RESOURCES and not name.startswith("hugepages-"):
            errors.append("must be a standard resource for containers")
    elif not is_native(name) and not is_extended(name):
        errors.append("doesn't follow extended resource name standard")
    return tuple(errors)


def _value(name: str, kind: ResourceKind, q: QuantityValue, path: Path) -> Iterator[tuple[Path, str]]:
    """``ValidateResourceQuantityValue`` and ``validateResourceQuantityHugePageValue``."""
    if q.negative:
        yield path, invalid(q.text, "must be greater than or equal to 0")
    if kind.integer and q.fraction:
        yield path, invalid(q.text, "must be an integer")
    if kind.hugepages and not _whole_pages(name, q.value):
        yield path, invalid(q.text, f"{q.text} is not positive integer multiple of {name}")


def _whole_pages(name: str, q: Quantity) -> bool:
    """``helper.IsHugePageResourceValueDivisible``."""
    try:
        page = Quantity.parse(name[len("hugepages-"):])
        if page.sign() <= 0 or page.milli_value() % 1000:
            return False
        return q.value() % page.value() == 0
    except (ValueError, OverflowError):  # not a size; or beyond an int64 (Go's answer is garbage)
        return False


def requirements(resources: dict, path: Path) -> Iterator[tuple[Path, str]]:
    """``validateResourceRequirements`` for a container (claims are not checked)."""
    limits: dict[str, QuantityValue | None] = {}
    cpu_or_memory = hugepages = False
    for scope in ("limits", "requests"):
        values = resources.get(scope)
        if not isinstance(values, dict):
            continue
        for name, raw in values.items():
            if not isinstance(name, str):
                continue
            kind = resource_kind(name)
            for message in kind.errors:
                yield path + (scope, name), invalid(name, message)
            q = quantity(raw)
            if scope == "limits":
                limits[name] = q
            if q is None:
                continue
            if q.negative or (kind.integer and q.fraction) or kind.hugepages:
                yield from _value(name, kind, q, path + (scope, name))
            hugepages |= kind.hugepages
            cpu_or_memory |= kind.cpu_or_memory
            if scope == "limits":
                continue
            limit = limits.get(name)
            if limit is q:  # the same text: equal (quantities are parsed once per text)
                pass
            elif limit is not None:
                if not kind.overcommit and q.value != limit.value:
                    yield path + (scope, name), invalid(q.text, f"must be equal to {name} limit of {limit.text}")
                elif q.value > limit.value:
                    yield path + (scope, name), invalid(q.text, f"must be less than or equal to {name} limit of "
                                                                f"{limit.text}")
            elif name not in limits and not kind.overcommit:
                yield path + ("limits",), required("Limit must be set for non overcommitable resources")
    if hugepages and not cpu_or_memory:
        yield path, forbidden("HugePages require cpu or memory")
