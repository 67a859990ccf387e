"""A container's environment in a pod template is refused by the API server.

The operator's pods are refused at creation (a Deployment when it is created) when an ``env`` or
``envFrom`` entry breaks the Pod rules of Kubernetes v1.35.1
(``pkg/apis/core/validation/validation.go``): ``ValidateEnv`` (a name is required;
RelaxedEnvironmentVariableValidation is GA in 1.34, so any printable ASCII but ``=`` is allowed,
``validation.IsRelaxedEnvVarName``), ``validateEnvVarValueFrom`` (exactly one of fieldRef,
resourceFieldRef, configMapKeyRef, secretKeyRef, fileKeyRef, and not together with ``value``),
``validateObjectFieldSelector`` (the fields the downward API exposes to env: metadata.name,
metadata.namespace, metadata.uid, metadata.labels['...'], metadata.annotations['...'],
spec.nodeName, spec.serviceAccountName, status.hostIP(s), status.podIP(s)),
``validateContainerResourceFieldSelector`` and ``validateContainerResourceDivisor``,
``validateConfigMapKeySelector`` and ``validateSecretKeySelector`` (the object's name is a DNS
subdomain, so it must be given; a key of letters, digits, ``-``, ``_`` and ``.``),
``validateFileKeySelector`` with ``validateFileKeyRefVolumes`` (EnvFiles is on by default in 1.35:
the volume must be an emptyDir of the pod), and ``ValidateEnvFrom`` (one of configMapRef and
secretRef, with a name). Messages are the API server's.

Fix: give every variable a name and either ``value`` or one ``valueFrom`` source, with the
ConfigMap's or Secret's ``name`` and ``key``; use a field path the message lists.
"""

from __future__ import annotations

from typing import Iterator

from ...diagnostics import Severity
from ..base import Context, Path
from ...operator.k8s_validation import (invalid, is_config_map_key, is_dns1123_label, is_relaxed_env_var_name, lists,
                              name_is_dns_subdomain, named, not_found, required)
from ..pod_fields import ENV_FIELD_PATHS, object_field_selector, path_no_backsteps, resource_field_selector
from ..pod_template import POD_KINDS, PodTemplate, pod_templates, text

CODE = "pod-env"
SEVERITY = Severity.ERROR
KINDS = POD_KINDS

SOURCES = ("fieldRef", "resourceFieldRef", "configMapKeyRef", "secretKeyRef", "fileKeyRef")


def check(ctx: Context) -> Iterator[tuple[Path, str]]:
    for template in pod_templates(ctx):
        for path, container in template.all_containers:
            if "env" in container:
                yield from _env(template, path + ("env",), container["env"])
            if "envFrom" in container:
                yield from _env_from(path + ("envFrom",), container["envFrom"])


def _env(template: PodTemplate, path: Path, variables: object) -> Iterator[tuple[Path, str]]:
    """``ValidateEnv``."""
    for i, variable in enumerate(lists(variables)):
        if not isinstance(variable, dict):
            continue
        name = variable.get("name", "")
        if name == "":
            yield path + (i, "name"), required()
        elif isinstance(name, str):
            for message in is_relaxed_env_var_name(name):
                yield path + (i, "name"), invalid(name, message)
        value_from = variable.get("valueFrom")
        if isinstance(value_from, dict):
            yield from _value_from(template, path + (i,), value_from, variable.get("value"))


def _value_from(template: PodTemplate, here: Path, source: dict, value: object) -> Iterator[tuple[Path, str]]:
    """``validateEnvVarValueFrom``, with validateFileKeyRefVolumes for a fileKeyRef."""
    path = here + ("valueFrom",)
    given = [key for key in SOURCES if isinstance(source.get(key), dict)]
    if not given:
        yield path, invalid("", "must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef`, "
                                "`secretKeyRef` or `fileKeyRef`")
    elif isinstance(value, str) and value:
        yield path, invalid("", "may not be specified when `value` is not empty")
    elif len(given) > 1:
        yield path, invalid("", "may not have more than one field specified at a time")
    for key in given:
        selector, at = source[key], path + (key,)
        if key == "fieldRef":
            yield from object_field_selector(selector, ENV_FIELD_PATHS, at)
        elif key == "resourceFieldRef":
            yield from resource_field_selector(selector, at, volume=False)
        elif key == "fileKeyRef":
            yield from _file_key(template, selector, at)
        else:
            yield from _key_selector(selector, at)


def _key_selector(selector: dict, path: Path) -> Iterator[tuple[Path, str]]:
    """``validateConfigMapKeySelector`` / ``validateSecretKeySelector``: the name is checked even
    when empty (``ValidateSecretName("")`` fails), the key is required."""
    name = text(selector, "name")
    if name is not None:
        for message in name_is_dns_subdomain(name):
            yield path + ("name",), invalid(name, message)
    yield from named(selector.get("key", ""), path + ("key",), is_config_map_key)


def _file_key(template: PodTemplate, selector: dict, path: Path) -> Iterator[tuple[Path, str]]:
    """``validateFileKeySelector`` and ``validateFileKeyRefVolumes``."""
    volume = text(selector, "volumeName")
    yield from named(selector.get("key", ""), path + ("key",), is_relaxed_env_var_name)
    yield from named(volume, path + ("volumeName",), is_dns1123_label)
    yield from named(selector.get("path", ""), path + ("path",), path_no_backsteps)
    if volume:  # an empty name is reported as required only
        target = template.volumes.get(volume)
        if target is None:
            yield path + ("volumeName",), not_found(volume)
        elif not _is_empty_dir(target):
            yield path + ("volumeName",), invalid(volume, "referenced volume must be of type emptyDir")


def _is_empty_dir(volume: dict) -> bool:
    """An emptyDir, or a volume without a source (``SetDefaults_Volume`` makes it an emptyDir)."""
    return isinstance(volume.get("emptyDir"), dict) or not any(
        isinstance(v, dict) for k, v in volume.items() if k != "name")


def _env_source_name(name: str) -> tuple[str, ...]:
    """``ValidateConfigMapName`` / ``ValidateSecretName`` with prefix=true, as ``validateConfigMapEnvSource``
    and ``validateSecretEnvSource`` call them."""
    return name_is_dns_subdomain(name, prefix=True)


def _env_from(path: Path, sources: object) -> Iterator[tuple[Path, str]]:
    """``ValidateEnvFrom`` (Go reports a missing or second source at the list's path)."""
    for i, source in enumerate(lists(sources)):
        if not isinstance(source, dict):
            continue
        here = path + (i,)
        prefix = text(source, "prefix")
        if prefix:
            for message in is_relaxed_env_var_name(prefix):
                yield here + ("prefix",), invalid(prefix, message)
        given = [key for key in ("configMapRef", "secretRef") if isinstance(source.get(key), dict)]
        for key in given:
            yield from named(source[key].get("name", ""), here + (key, "name"), _env_source_name)
        if not given:
            yield here, invalid("", "must specify one of: `configMapRef` or `secretRef`")
        elif len(given) > 1:
            yield here, invalid("", "may not have more than one field specified at a time")
