"""Checks several pod rules share, ported from k8s.io/kubernetes v1.35.1 ``pkg/apis/core/validation``.

Resource quantities as the API server keeps them (``SetDefaults_ResourceList`` in
``pkg/apis/core/v1/defaults.go`` rounds them up to milli units), the path checks
(``validateLocalDescendingPath``, ``validatePathNoBacksteps``, ``ValidateLocalNonReservedPath``) and
the downward API selectors of env and volumes (``validateObjectFieldSelector`` with
``podshelper.ConvertDownwardAPIFieldLabel``, ``validateContainerResourceFieldSelector``,
``validateContainerResourceDivisor``).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from ..operator.quantity import Quantity
from ..operator.k8s_validation import invalid, is_qualified_name, not_supported, required

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing on validate's path
if TYPE_CHECKING:
    from typing import Any, Iterator

Path = tuple[str | int, ...]
Finding = tuple[Path, str]

PULL_POLICIES = ("Always", "IfNotPresent", "Never")  # validatePullPolicy's supportedPullPolicies


# ------------------------------------------------------------------ resource quantities

@dataclass(frozen=True, slots=True)
class QuantityValue:
    """A resource quantity as the API server keeps it: rounded up to milli units
    (``SetDefaults_ResourceList``), with its text (``Quantity.String()``)."""

    value: Quantity
    text: str
    negative: bool
    fraction: bool  # not a whole number

    @classmethod
    def of(cls, parsed: Quantity) -> QuantityValue:
        rounded = Quantity(parsed.milli_value(), -3, parsed.format)
        value = parsed if rounded == parsed else rounded
        return cls(value, str(value), value.sign() < 0, value.milli_value() % 1000 != 0)


def quantity(raw: Any) -> QuantityValue | None:
    """A resource value as the API server reads it, or None when it is not a quantity (the schema
    reports that). Manifests repeat the same few values: each text is parsed once."""
    if isinstance(raw, bool) or not isinstance(raw, (str, int, float)):
        return None
    return _quantity(raw)


@functools.lru_cache(maxsize=4096, typed=True)
def _quantity(raw: str | int | float) -> QuantityValue | None:
    try:
        return QuantityValue.of(Quantity.parse(raw if not isinstance(raw, float) else repr(raw)))
    except (ValueError, OverflowError):  # not a quantity; or beyond what an int64 of milli units holds
        return None


# ------------------------------------------------------------------ paths (core validation.go)


def local_descending_path(target: str) -> list[str]:
    """``validateLocalDescendingPath``: relative, and no ``..`` element."""
    errs = ["must be a relative path"] if target.startswith("/") else []
    return errs + path_no_backsteps(target)


def path_no_backsteps(target: str) -> list[str]:
    """``validatePathNoBacksteps``."""
    return ["must not contain '..'"] if ".." in target.split("/") else []


def local_non_reserved_path(target: str) -> list[str]:
    """``ValidateLocalNonReservedPath``."""
    errs = local_descending_path(target)
    if target.startswith("..") and not target.startswith("../"):
        errs.append("must not start with '..'")
    return errs


# ------------------------------------------------------------------ downward API selectors

ENV_FIELD_PATHS = ("metadata.name", "metadata.namespace", "metadata.uid", "spec.nodeName",
                   "spec.serviceAccountName", "status.hostIP", "status.hostIPs", "status.podIP", "status.podIPs")
VOLUME_FIELD_PATHS = ("metadata.annotations", "metadata.labels", "metadata.name", "metadata.namespace",
                      "metadata.uid")
_CONVERTIBLE = frozenset(("metadata.annotations", "metadata.labels", "metadata.name", "metadata.namespace",
                          "metadata.uid", "spec.nodeName", "spec.restartPolicy", "spec.serviceAccountName",
                          "spec.schedulerName", "status.phase", "status.hostIP", "status.hostIPs", "status.podIP",
                          "status.podIPs"))
RESOURCE_FIELD_PATHS = ("limits.cpu", "limits.ephemeral-storage", "limits.memory", "requests.cpu",
                        "requests.ephemeral-storage", "requests.memory")


def _split_subscript(field_path: str) -> tuple[str, str] | None:
    """``fieldpath.SplitMaybeSubscriptedPath``: ``metadata.labels['app']`` -> (path, subscript)."""
    if not field_path.endswith("']"):
        return None
    head, sep, subscript = field_path[:-2].partition("['")
    return (head, subscript) if sep and head else None


def object_field_selector(selector: dict[str, Any], expressions: tuple[str, ...], path: Path) -> Iterator[Finding]:
    """``validateObjectFieldSelector`` on the defaulted selector (apiVersion defaults to v1)."""
    api_version = selector.get("apiVersion") or "v1"
    field_path = selector.get("fieldPath")
    if not isinstance(api_version, str) or not isinstance(field_path, str):
        return
    if not field_path:
        yield path + ("fieldPath",), required()
        return
    split = _split_subscript(field_path)
    # podshelper.ConvertDownwardAPIFieldLabel
    error = None
    if api_version != "v1":
        error = f"unsupported pod version: {api_version}"
    elif split is not None:
        if split[0] not in ("metadata.annotations", "metadata.labels"):
            error = f"field label does not support subscript: {field_path}"
    elif field_path not in _CONVERTIBLE and field_path != "spec.host":
        error = f"field label not supported: {field_path}"
    if error:
        yield path + ("fieldPath",), invalid(field_path, f"error converting fieldPath: {error}")
        return
    if field_path == "spec.host":
        field_path = "spec.nodeName"
    if split is not None:
        key = split[1].lower() if split[0] == "metadata.annotations" else split[1]
        for message in is_qualified_name(key):
            yield path, invalid(key, message)
    elif field_path not in expressions:
        yield path + ("fieldPath",), not_supported(field_path, expressions)


_DIVISORS = ("1", "1k", "1M", "1G", "1T", "1P", "1E", "1Ki", "1Mi", "1Gi", "1Ti", "1Pi", "1Ei")
_DIVISOR_KINDS = {"cpu": ("1m", "1"), "memory": _DIVISORS, "ephemeral-storage": _DIVISORS}


def resource_field_selector(selector: dict[str, Any], path: Path, volume: bool) -> Iterator[Finding]:
    """``validateContainerResourceFieldSelector`` with ``validateContainerResourceDivisor``."""
    resource = selector.get("resource")
    container = selector.get("containerName")
    if not isinstance(resource, str):
        return
    if volume and not container:
        yield path + ("containerName",), required()
    elif not resource:
        yield path + ("resource",), required()
    elif resource not in RESOURCE_FIELD_PATHS and not resource.startswith(("requests.hugepages-", "limits.hugepages-")):
        yield path + ("resource",), not_supported(resource, RESOURCE_FIELD_PATHS)
    divisor = selector.get("divisor")
    if divisor is None or isinstance(divisor, bool) or not isinstance(divisor, (str, int)):
        return
    from ..operator.quantity import Quantity

    try:
        text = str(Quantity.parse(divisor))
    except ValueError:
        return  # the schema reports a value that is not a quantity
    if text == "0":
        return  # unset
    scope, _, kind = resource.partition(".")
    if scope not in ("limits", "requests"):
        return
    if kind.startswith("hugepages-"):
        if text not in _DIVISORS:
            yield path + ("divisor",), invalid(resource, f"only divisor's values {', '.join(_DIVISORS)} are supported "
                                                         "with the hugepages resource")
    elif kind in _DIVISOR_KINDS and text not in _DIVISOR_KINDS[kind]:
        words = "1m and 1" if kind == "cpu" else ", ".join(_DIVISORS)
        what = {"cpu": "cpu", "memory": "memory", "ephemeral-storage": "local ephemeral storage"}[kind]
        yield path + ("divisor",), invalid(resource, f"only divisor's values {words} are supported with the {what} "
                                                     "resource")
