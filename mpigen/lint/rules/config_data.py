"""A ConfigMap's or Secret's data is refused by the API server: its keys, size or required entries.

``ValidateConfigMap`` and ``ValidateSecret`` (k8s.io/kubernetes v1.35.1
``pkg/apis/core/validation/validation.go``): every key of ``data``, ``binaryData`` and a Secret's
``stringData`` is a config key (``validation.IsConfigMapKey``: at most 253 characters of letters,
digits, ``-``, ``_`` and ``.``, not ``.`` or ``..``, nor starting with ``..``); a ConfigMap key is
in ``data`` or ``binaryData``, not both; all values together are at most 1 MiB
(``core.MaxSecretSize``; a Secret's ``stringData`` is merged into ``data`` first); and a Secret of
a well-known type holds what its type needs: ``kubernetes.io/tls`` ``tls.crt`` and ``tls.key``,
``kubernetes.io/dockerconfigjson`` a JSON object under ``.dockerconfigjson`` (``kubernetes.io/dockercfg``
under ``.dockercfg``), ``kubernetes.io/basic-auth`` ``username`` or ``password``,
``kubernetes.io/ssh-auth`` a non-empty ``ssh-privatekey``, and ``kubernetes.io/service-account-token``
the annotation ``kubernetes.io/service-account.name``. Base64 that does not decode is the schema
layer's. Secret values never appear in a message. Messages are the API server's.

Fix: name keys with letters, digits, ``-``, ``_`` and ``.`` only, keep a key in one of ``data`` and
``binaryData``, split large content over several objects (or a volume), and give a typed Secret the
keys its type requires (``kubectl create secret tls|docker-registry|generic`` writes them).
"""

from __future__ import annotations

from typing import Any, Iterator

from ...diagnostics import Severity
from ..base import Context, Path
from ...operator.k8s_validation import byte_length, invalid, is_config_map_key, required, too_long
from ._common import mapping

CODE = "config-data"
SEVERITY = Severity.ERROR
KINDS = ("ConfigMap", "Secret")

MAX_SIZE = 1024 * 1024  # core.MaxSecretSize
REDACTED = "<secret contents redacted>"
SERVICE_ACCOUNT_NAME = "kubernetes.io/service-account.name"  # core.ServiceAccountNameKey


def check(ctx: Context) -> Iterator[tuple[Path, str]]:
    if ctx.api_version != "v1":
        return
    if ctx.kind == "ConfigMap":
        yield from _config_map(ctx.obj)
    else:
        yield from _secret(ctx.obj)


def _keys(values: Any, path: Path) -> Iterator[tuple[Path, str]]:
    for key in values if isinstance(values, dict) else ():
        if isinstance(key, str):
            for message in is_config_map_key(key):
                yield path + (key,), invalid(key, message)


def _config_map(obj: dict) -> Iterator[tuple[Path, str]]:
    data, binary = mapping(obj.get("data")), mapping(obj.get("binaryData"))
    yield from _keys(data, ("data",))
    for key in data:
        if key in binary:
            yield ("data", key), invalid(key, "duplicate of key present in binaryData")
    yield from _keys(binary, ("binaryData",))
    size = sum(byte_length(v) for v in data.values() if isinstance(v, str))
    size += sum(len(_decoded(v) or b"") for v in binary.values())
    if size > MAX_SIZE:
        yield (), too_long(MAX_SIZE)


def _decoded(value: Any) -> bytes | None:
    """A base64 value as Go's decoder reads it (line breaks skipped); None when it does not decode."""
    if not isinstance(value, str):
        return None
    import base64
    import binascii

    try:
        return base64.b64decode(value.replace("\r", "").replace("\n", ""), validate=True)
    except (binascii.Error, ValueError):
        return None


def _secret(obj: dict) -> Iterator[tuple[Path, str]]:
    data, strings = mapping(obj.get("data")), mapping(obj.get("stringData"))
    yield from _keys(data, ("data",))
    yield from _keys(strings, ("stringData",))
    merged: dict[str, bytes] = {}  # what the API server validates: stringData over data
    for key, value in data.items():
        decoded = _decoded(value)
        if decoded is not None:
            merged[key] = decoded
    for key, value in strings.items():
        if isinstance(value, str):
            merged[key] = value.encode("utf-8", "surrogatepass")
    if sum(len(v) for v in merged.values()) > MAX_SIZE:
        yield ("data",), too_long(MAX_SIZE)
    kind = obj.get("type")
    present = set(data) | set(strings)
    if kind == "kubernetes.io/service-account-token":
        name = mapping(mapping(obj.get("metadata")).get("annotations")).get(SERVICE_ACCOUNT_NAME)
        if not name:
            yield ("metadata", "annotations", SERVICE_ACCOUNT_NAME), required()
    elif kind in ("kubernetes.io/dockercfg", "kubernetes.io/dockerconfigjson"):
        key = ".dockercfg" if kind == "kubernetes.io/dockercfg" else ".dockerconfigjson"
        if key not in present:
            yield ("data", key), required()
        elif key in merged and not _json_object(merged[key]):
            yield _where(key, strings), invalid(REDACTED, "not a JSON object: the API server cannot read it as a "
                                                          "Docker configuration")
    elif kind == "kubernetes.io/basic-auth":
        if "username" not in present and "password" not in present:
            yield ("data", "username"), required()
            yield ("data", "password"), required()
    elif kind == "kubernetes.io/ssh-auth":
        key = "ssh-privatekey"
        if key not in present or (key in merged and not merged[key]):
            yield ("data", "ssh-privatekey"), required()
    elif kind == "kubernetes.io/tls":
        for key in ("tls.crt", "tls.key"):
            if key not in present:
                yield ("data", key), required()


def _where(key: str, strings: dict) -> Path:
    return ("stringData", key) if key in strings else ("data", key)


def _json_object(raw: bytes) -> bool:
    """``json.Unmarshal`` into a ``map[string]interface{}`` succeeds (Go's JSON has no NaN)."""
    import json

    def no_constants(name: str) -> Any:
        raise ValueError(name)

    try:
        return isinstance(json.loads(raw.decode("utf-8", "replace"), parse_constant=no_constants), dict)
    except ValueError:
        return False
