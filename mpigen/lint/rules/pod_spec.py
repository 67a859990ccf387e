"""A pod-level field of a pod template is refused by the API server: labels, DNS, hostname, policies.

The operator's pods are refused at creation (a Deployment when it is created) when a field of the
pod spec or the template's metadata breaks the Pod rules of Kubernetes v1.35.1
(``pkg/apis/core/validation/validation.go``): the template's labels and annotation keys
(``ValidatePodTemplateSpec``: ``ValidateLabels``, ``ValidateAnnotations``: a label value of at most
63 characters of letters, digits, ``-``, ``_``, ``.``); ``validateDNSPolicy`` and
``validatePodDNSConfig`` (``dnsPolicy: None`` needs ``dnsConfig.nameservers``; at most 3
nameservers, each an IP; at most 32 search domains, each a DNS subdomain; option names);
``hostname`` and ``subdomain`` DNS-1123 labels and ``validatePodHostName`` (hostnameOverride, on by
default in 1.35); ``activeDeadlineSeconds`` within 1-2147483647; ``serviceAccountName`` a DNS
subdomain; ``ValidateHostAliases``; ``validateReadinessGates``; ``validateOS``. A Deployment's
template also needs ``restartPolicy: Always``, no ``activeDeadlineSeconds`` and labels its selector
matches (``ValidatePodTemplateSpecForReplicaSet``, ``pkg/apis/apps/validation``). The operators
overwrite a job's ``restartPolicy`` (set it on the replica spec), and mpi-operator its pods'
hostname, subdomain and, with hostNetwork, dnsPolicy: those template values are not checked.
Messages are the API server's.

Fix: quote and shorten label values, use a dnsPolicy the message lists (ClusterFirstWithHostNet with
hostNetwork), give ``dnsPolicy: None`` its nameservers, and keep names lower-case DNS labels.
"""

from __future__ import annotations

from typing import Iterator

from ...diagnostics import Severity
from ..base import Context, Path
from ...operator.k8s_validation import (byte_length, forbidden, inclusive_range_error, invalid, is_dns1123_label,
                              is_dns1123_subdomain, is_dns1123_subdomain_with_underscore, is_qualified_name,
                              is_valid_ip_legacy, lists, name_is_dns_subdomain, not_supported, required, too_long,
                              validate_labels)
from ..pod_template import POD_KINDS, PodTemplate, is_int, mapping, pod_templates, text

CODE = "pod-spec"
SEVERITY = Severity.ERROR
KINDS = POD_KINDS

DNS_POLICIES = ("ClusterFirstWithHostNet", "ClusterFirst", "Default", "None")
MAX_INT32 = 2147483647
ANNOTATIONS_MAX_BYTES = 256 * 1024  # apimachinery TotalAnnotationSizeLimitB


# the pod spec's fields this rule reads (the others are not looked at)
FIELDS = frozenset(("restartPolicy", "activeDeadlineSeconds", "dnsPolicy", "dnsConfig", "hostname", "subdomain",
                    "hostnameOverride", "serviceAccountName", "hostAliases", "readinessGates", "os"))


def check(ctx: Context) -> Iterator[tuple[Path, str]]:
    for template in pod_templates(ctx):
        if template.metadata:
            yield from _metadata(template)
        if not FIELDS.isdisjoint(template.spec):
            yield from _spec(template)
        if not template.for_pod:
            yield from _selected(ctx.get("spec", "selector"), template)


def _selected(selector: object, template: PodTemplate) -> Iterator[tuple[Path, str]]:
    """``ValidatePodTemplateSpecForReplicaSet``: a Deployment's selector must match its template's
    labels (``labels.Selector.Matches``; an invalid selector is the schema's or
    ``ValidateLabelSelector``'s to report, as an empty one is)."""
    if not isinstance(selector, dict):
        return
    labels = mapping(template.metadata.get("labels"))
    match = mapping(selector.get("matchLabels"))
    matches = all(labels.get(key) == value for key, value in match.items())
    for expr in lists(selector.get("matchExpressions")) if matches else ():
        if not isinstance(expr, dict) or not isinstance(expr.get("key"), str):
            return
        key, operator, values = expr["key"], expr.get("operator"), lists(expr.get("values"))
        if operator == "In":
            matches = key in labels and labels[key] in values
        elif operator == "NotIn":
            matches = key not in labels or labels[key] not in values
        elif operator in ("Exists", "DoesNotExist"):
            matches = (key in labels) == (operator == "Exists")
        else:
            return  # not a selector the API server reads this far
        if not matches:
            break
    if not matches:
        yield template.path + ("metadata", "labels"), invalid(labels, "`selector` does not match template `labels`")


def _metadata(template: PodTemplate) -> Iterator[tuple[Path, str]]:
    """``ValidatePodTemplateSpec``'s labels and ``ValidateAnnotations`` (keys, total size)."""
    meta = template.path + ("metadata",)
    yield from validate_labels(template.metadata.get("labels"), meta + ("labels",))
    annotations = template.metadata.get("annotations")
    if not isinstance(annotations, dict):
        return
    size = 0
    for key, value in annotations.items():
        if not isinstance(key, str):
            continue
        for message in is_qualified_name(key.lower()):
            yield meta + ("annotations", key), invalid(key, message)
        size += len(key) + (len(value) if isinstance(value, str) else 0)
    if size * 4 > ANNOTATIONS_MAX_BYTES:  # a character is at most 4 bytes: count them only then
        size = sum(byte_length(k) + (byte_length(v) if isinstance(v, str) else 0)
                   for k, v in annotations.items() if isinstance(k, str))
        if size > ANNOTATIONS_MAX_BYTES:
            yield meta + ("annotations",), too_long(ANNOTATIONS_MAX_BYTES)


def _spec(template: PodTemplate) -> Iterator[tuple[Path, str]]:
    spec, base = template.spec, template.spec_path
    overwritten = template.kind == "MPIJob"  # newWorker / newLauncherPodTemplate set hostname and subdomain
    policy = text(spec, "restartPolicy")
    if not template.for_pod and policy and policy != "Always":
        yield base + ("restartPolicy",), not_supported(policy, ("Always",))
    deadline = spec.get("activeDeadlineSeconds")
    if is_int(deadline):
        if not template.for_pod:
            yield base + ("activeDeadlineSeconds",), forbidden("activeDeadlineSeconds in ReplicaSet is not Supported")
        elif not 1 <= deadline <= MAX_INT32:
            yield base + ("activeDeadlineSeconds",), invalid(deadline, inclusive_range_error(1, MAX_INT32))
    dns_policy = text(spec, "dnsPolicy")
    if overwritten and template.host_network:
        dns_policy = "ClusterFirstWithHostNet"
    elif dns_policy and dns_policy not in DNS_POLICIES:
        yield base + ("dnsPolicy",), not_supported(dns_policy, DNS_POLICIES)
    yield from _dns_config(spec.get("dnsConfig"), dns_policy, base + ("dnsConfig",), "dnsConfig" in spec)
    for key in ("hostname", "subdomain"):
        value = text(spec, key)
        if value and not overwritten:
            for message in is_dns1123_label(value):
                yield base + (key,), invalid(value, message)
    yield from _hostname_override(spec, base)
    account = text(spec, "serviceAccountName")
    if account:
        for message in name_is_dns_subdomain(account):
            yield base + ("serviceAccountName",), invalid(account, message)
    for i, alias in enumerate(lists(spec.get("hostAliases"))):
        alias = mapping(alias)
        ip = text(alias, "ip")
        if ip is not None:
            for message in is_valid_ip_legacy(ip):
                yield base + ("hostAliases", i, "ip"), invalid(ip, message)
        for j, name in enumerate(lists(alias.get("hostnames"))):
            if isinstance(name, str):
                for message in is_dns1123_subdomain(name):
                    yield base + ("hostAliases", i, "hostnames", j), invalid(name, message)
    for i, gate in enumerate(lists(spec.get("readinessGates"))):
        condition = text(mapping(gate), "conditionType")
        if condition is not None:
            for message in is_qualified_name(condition):
                yield base + ("readinessGates", i, "conditionType"), invalid(condition, message)
    os = spec.get("os")
    if isinstance(os, dict):
        name = text(os, "name")
        if name == "":
            yield base + ("os", "name"), required()
        elif name is not None and name not in ("linux", "windows"):
            yield base + ("os", "name"), not_supported(name, ("linux", "windows"))


def _dns_config(config: object, policy: str | None, path: Path, given: bool) -> Iterator[tuple[Path, str]]:
    """``validatePodDNSConfig`` (RelaxedDNSSearchValidation is GA in 1.34: ``_`` and ``.`` allowed)."""
    if policy == "None":
        if not given:
            yield path, required("must provide `dnsConfig` when `dnsPolicy` is None")
            return
        if not lists(mapping(config).get("nameservers")):
            yield path + ("nameservers",), required("must provide at least one DNS nameserver when `dnsPolicy` is None")
            return
    if not isinstance(config, dict):
        return
    nameservers = lists(config.get("nameservers"))
    if len(nameservers) > 3:
        yield path + ("nameservers",), invalid(nameservers, "must not have more than 3 nameservers")
    for i, server in enumerate(nameservers):
        if isinstance(server, str):
            for message in is_valid_ip_legacy(server):
                yield path + ("nameservers", i), invalid(server, message)
    searches = lists(config.get("searches"))
    if len(searches) > 32:
        yield path + ("searches",), invalid(searches, "must not have more than 32 search paths")
    if all(isinstance(s, str) for s in searches) and len(" ".join(searches)) > 2048:
        yield path + ("searches",), invalid(searches, "must not have more than 2048 characters (including spaces) "
                                                      "in the search list")
    for i, search in enumerate(searches):
        if isinstance(search, str) and search != ".":
            trimmed = search[:-1] if search.endswith(".") else search
            for message in is_dns1123_subdomain_with_underscore(trimmed):
                yield path + ("searches", i), invalid(trimmed, message)
    for i, option in enumerate(lists(config.get("options"))):
        if isinstance(option, dict) and not option.get("name"):
            yield path + ("options", i), required("must not be empty")


def _hostname_override(spec: dict, base: Path) -> Iterator[tuple[Path, str]]:
    """``validatePodHostName`` (HostnameOverride is beta and on in 1.35)."""
    override = spec.get("hostnameOverride")
    if not isinstance(override, str):
        return
    at = base + ("hostnameOverride",)
    if spec.get("setHostnameAsFQDN") is True:
        yield at, forbidden("may not be specified when setHostnameAsFQDN is true")
    if spec.get("hostNetwork") is True:
        yield at, forbidden("may not be specified when hostNetwork is true")
    if byte_length(override) > 64:
        yield at, too_long(64)
    for message in is_dns1123_subdomain(override):
        yield at, invalid(override, message)
