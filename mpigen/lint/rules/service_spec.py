"""A Service's spec is refused by the API server: its ports, type, selector, IPs or policies.

kubectl apply sends a Service to ``ValidateServiceCreate`` (k8s.io/kubernetes v1.35.1
``pkg/apis/core/validation/validation.go``, ``validateService``), after the v1 defaults
(``SetDefaults_Service`` in ``pkg/apis/core/v1/defaults.go``: type ClusterIP, sessionAffinity None,
protocol TCP, targetPort = port, the traffic policies Cluster) and after the strategy copies
``clusterIP`` into ``clusterIPs`` (``pkg/registry/core/service/storage/storage.go``). Ported:
ports are required (but for a headless or ExternalName Service), each with a port number 1-65535,
TCP, UDP or SCTP, a ``targetPort`` that is a port number or an IANA port name, an ``appProtocol``
that is a qualified name, and a DNS-1123 label name, which every port needs when there are several,
unique; no two ports share protocol and port (or node port); ``type`` and ``sessionAffinity`` among
their values (a ClientIP timeout within 1-86400 seconds); ``nodePort`` not with ClusterIP;
NodePort and LoadBalancer not headless; ExternalName with an ``externalName`` (a DNS subdomain) and
no cluster IPs or IP families; ``clusterIP``/``clusterIPs`` IP addresses (``None`` alone), one per
family, at most two, matching ``ipFamilies`` (IPv4, IPv6, unique) and ``ipFamilyPolicy``;
``externalIPs`` usable endpoint IPs; ``loadBalancerSourceRanges``, ``loadBalancerClass`` and
``allocateLoadBalancerNodePorts`` only with LoadBalancer, the ranges CIDRs; ``externalTrafficPolicy``
only for a Service reachable from outside (NodePort, LoadBalancer, external IPs), Cluster or Local;
``healthCheckNodePort`` only with LoadBalancer and Local; ``internalTrafficPolicy`` Cluster or Local;
``trafficDistribution`` PreferClose, PreferSameZone or PreferSameNode; the selector's labels valid;
the topology annotations agree. Node port ranges and IP allocation, which depend on the cluster,
are not checked. The name is ``object-meta``'s. Messages are the API server's.

Fix: name every port of a multi-port Service (lower-case, at most 63 characters) and keep port
numbers within 1-65535; use the values the message lists, and set LoadBalancer-only fields only
on a ``type: LoadBalancer`` Service.
"""

from __future__ import annotations

from typing import Any, Iterator

from ...diagnostics import Severity
from ..base import Context, Path
from ...operator.k8s_validation import (forbidden, go_quote, invalid, is_dns1123_label,
                              is_dns1123_subdomain, is_qualified_name, is_valid_ip_legacy, is_valid_port_name,
                              is_valid_port_num, lists, not_supported, required, validate_labels)
from ._common import is_int, mapping

CODE = "service-spec"
SEVERITY = Severity.ERROR
KINDS = ("Service",)

TYPES = ("ClusterIP", "ExternalName", "LoadBalancer", "NodePort")  # sets.List: sorted
AFFINITIES = ("ClientIP", "None")
PROTOCOLS = ("SCTP", "TCP", "UDP")
FAMILIES = ("IPv4", "IPv6")
FAMILY_POLICIES = ("PreferDualStack", "RequireDualStack", "SingleStack")
TRAFFIC_POLICIES = ("Cluster", "Local")
TRAFFIC_DISTRIBUTIONS = ("PreferClose", "PreferSameZone", "PreferSameNode")  # PreferSameTrafficDistribution GA
MAX_AFFINITY_SECONDS = 86400  # core.MaxClientIPServiceAffinitySeconds
TOPOLOGY_HINTS = "service.kubernetes.io/topology-aware-hints"  # core.DeprecatedAnnotationTopologyAwareHints
TOPOLOGY_MODE = "service.kubernetes.io/topology-mode"  # core.AnnotationTopologyMode
SOURCE_RANGES = "service.beta.kubernetes.io/load-balancer-source-ranges"  # core.AnnotationLoadBalancerSourceRangesKey


def check(ctx: Context) -> Iterator[tuple[Path, str]]:
    if ctx.api_version != "v1":
        return
    spec = ctx.get("spec")
    spec = spec if isinstance(spec, dict) else {}
    s: Path = ("spec",)
    svc_type = _text(spec, "type") or "ClusterIP"
    ports = [p for p in lists(spec.get("ports"))]
    cluster_ip = _text(spec, "clusterIP")
    cluster_ips = [ip for ip in lists(spec.get("clusterIPs")) if isinstance(ip, str)]
    if cluster_ip and not cluster_ips:
        cluster_ips = [cluster_ip]  # the strategy's normalizeClusterIPs on create
    headless = cluster_ips == ["None"]
    external_ips = lists(spec.get("externalIPs"))
    annotations = mapping(mapping(ctx.get("metadata")).get("annotations"))

    hints, mode = annotations.get(TOPOLOGY_HINTS), annotations.get(TOPOLOGY_MODE)
    if isinstance(hints, str) and isinstance(mode, str) and hints != mode:
        yield (("metadata", "annotations", TOPOLOGY_MODE),
               invalid(mode, f"must match annotations[{TOPOLOGY_HINTS}] when both are specified"))

    if not ports and not headless and svc_type != "ExternalName":
        yield s + ("ports",), required()
    if svc_type in ("LoadBalancer", "NodePort") and headless:
        yield s + ("clusterIPs", 0), invalid("None", f"may not be set to 'None' for {svc_type} services")
    elif svc_type == "ExternalName":
        if cluster_ips:
            yield s + ("clusterIPs",), forbidden("may not be set for ExternalName services")
        if lists(spec.get("ipFamilies")):
            yield s + ("ipFamilies",), forbidden("may not be set for ExternalName services")
        if spec.get("ipFamilyPolicy") is not None:
            yield s + ("ipFamilyPolicy",), forbidden("may not be set for ExternalName services")
        name = _text(spec, "externalName") or ""
        cname = name[:-1] if name.endswith(".") else name
        if cname:
            for message in is_dns1123_subdomain(cname):
                yield s + ("externalName",), invalid(cname, message)
        else:
            yield s + ("externalName",), required()

    yield from _ports(ports, s + ("ports",))
    yield from validate_labels(spec.get("selector"), s + ("selector",))

    affinity = _text(spec, "sessionAffinity") or "None"
    if affinity not in AFFINITIES:
        yield s + ("sessionAffinity",), not_supported(affinity, AFFINITIES)
    elif affinity == "ClientIP":
        timeout = mapping(mapping(spec.get("sessionAffinityConfig")).get("clientIP")).get("timeoutSeconds")
        if is_int(timeout) and not 0 < timeout <= MAX_AFFINITY_SECONDS:
            yield (s + ("sessionAffinityConfig", "clientIP", "timeoutSeconds"),
                   invalid(timeout, f"must be greater than 0 and less than {MAX_AFFINITY_SECONDS}"))

    if svc_type != "ExternalName":
        yield from _cluster_ips(spec, cluster_ip, cluster_ips, headless, s)

    for i, ip in enumerate(external_ips):
        if isinstance(ip, str):
            yield from ((s + ("externalIPs", i), m) for m in _endpoint_ip(ip))

    if svc_type not in TYPES:
        yield s + ("type",), not_supported(svc_type, TYPES)
    if svc_type == "ClusterIP":
        for i, port in enumerate(ports):
            if isinstance(port, dict) and port.get("nodePort", 0) not in (0, None):
                yield s + ("ports", i, "nodePort"), forbidden("may not be used when `type` is 'ClusterIP'")

    yield from _load_balancer(spec, annotations, svc_type, s)

    accessible = svc_type in ("LoadBalancer", "NodePort") or (svc_type == "ClusterIP" and bool(external_ips))
    external_policy = _text(spec, "externalTrafficPolicy") or ""
    if not accessible and external_policy:
        yield s + ("externalTrafficPolicy",), invalid(external_policy, "may only be set for externally-accessible "
                                                                        "services")
    elif accessible and external_policy and external_policy not in TRAFFIC_POLICIES:
        yield s + ("externalTrafficPolicy",), not_supported(external_policy, TRAFFIC_POLICIES)
    health = spec.get("healthCheckNodePort")
    if is_int(health) and health != 0:
        if not (svc_type == "LoadBalancer" and (external_policy or "Cluster") == "Local"):
            yield s + ("healthCheckNodePort",), invalid(health, "may only be set when `type` is 'LoadBalancer' and "
                                                                "`externalTrafficPolicy` is 'Local'")
        else:
            for message in is_valid_port_num(health):
                yield s + ("healthCheckNodePort",), invalid(health, message)
    internal = _text(spec, "internalTrafficPolicy")
    if internal and internal not in TRAFFIC_POLICIES:
        yield s + ("internalTrafficPolicy",), not_supported(internal, TRAFFIC_POLICIES)
    distribution = _text(spec, "trafficDistribution")
    if distribution is not None and distribution not in TRAFFIC_DISTRIBUTIONS:
        yield s + ("trafficDistribution",), not_supported(distribution, TRAFFIC_DISTRIBUTIONS)


def _text(spec: dict, key: str) -> str | None:
    value = spec.get(key)
    return value if isinstance(value, str) else None


def _ports(ports: list, path: Path) -> Iterator[tuple[Path, str]]:
    """``validateServicePort`` for each port, then the duplicate node ports and (protocol, port) pairs."""
    names: set[str] = set()
    node_ports: set[tuple[str, int]] = set()
    pairs: set[tuple[str, int]] = set()
    for i, port in enumerate(ports):
        if not isinstance(port, dict):
            continue
        at = path + (i,)
        name = port.get("name") or ""
        if isinstance(name, str):
            if len(ports) > 1 and not name:
                yield at + ("name",), required()
            elif name:
                for message in is_dns1123_label(name):
                    yield at + ("name",), invalid(name, message)
                if name in names:
                    yield at + ("name",), f"Duplicate value: {go_quote(name)}"
                names.add(name)
        number = port.get("port", 0)
        if is_int(number):
            for message in is_valid_port_num(number):
                yield at + ("port",), invalid(number, message)
        protocol = port.get("protocol") or "TCP"
        if isinstance(protocol, str) and protocol not in PROTOCOLS:
            yield at + ("protocol",), not_supported(protocol, PROTOCOLS)
        target = port.get("targetPort")
        if target in (None, 0, ""):
            target = number  # SetDefaults_Service
        if is_int(target):
            for message in is_valid_port_num(target):
                yield at + ("targetPort",), invalid(target, message)
        elif isinstance(target, str):
            for message in is_valid_port_name(target):
                yield at + ("targetPort",), invalid(target, message)
        app = port.get("appProtocol")
        if isinstance(app, str):
            for message in is_qualified_name(app):
                yield at + ("appProtocol",), invalid(app, message)
        node_port = port.get("nodePort", 0)
        if is_int(node_port) and node_port != 0 and isinstance(protocol, str):
            if (protocol, node_port) in node_ports:
                yield at + ("nodePort",), f"Duplicate value: {node_port}"
            node_ports.add((protocol, node_port))
        if is_int(number) and isinstance(protocol, str):
            if (protocol, number) in pairs:
                import json

                key = {"Name": "", "Protocol": protocol, "AppProtocol": None, "Port": number, "TargetPort": 0,
                       "NodePort": 0}
                yield at, f"Duplicate value: {json.dumps(key, separators=(',', ':'))}"
            pairs.add((protocol, number))


def _cluster_ips(spec: dict, cluster_ip: str | None, cluster_ips: list[str], headless: bool,
                 s: Path) -> Iterator[tuple[Path, str]]:
    """``ValidateServiceClusterIPsRelatedFields`` on create."""
    given = [ip for ip in lists(spec.get("clusterIPs")) if isinstance(ip, str)]
    if cluster_ip and given and given[0] != cluster_ip:
        yield s + ("clusterIPs",), invalid(given, "first value must match `clusterIP`")
    elif not cluster_ip and given:
        yield s + ("clusterIPs",), invalid(given, "must be empty when `clusterIP` is not specified")
    families = lists(spec.get("ipFamilies"))
    seen: set[str] = set()
    for i, family in enumerate(families):
        if not isinstance(family, str):
            continue
        if family not in FAMILIES:
            yield s + ("ipFamilies", i), not_supported(family, FAMILIES)
        if family in seen:
            yield s + ("ipFamilies", i), f"Duplicate value: {go_quote(family)}"
        seen.add(family)
    policy = spec.get("ipFamilyPolicy")
    if isinstance(policy, str) and policy not in FAMILY_POLICIES:
        yield s + ("ipFamilyPolicy",), not_supported(policy, FAMILY_POLICIES)
    bad = False
    for i, ip in enumerate(cluster_ips):
        if i == 0 and ip == "None":
            if len(cluster_ips) > 1:
                bad = True
                yield s + ("clusterIPs",), invalid(cluster_ips, "'None' must be the first and only value")
            continue
        for message in is_valid_ip_legacy(ip):
            bad = True
            yield s + ("clusterIPs", i), invalid(ip, message)
    if len(cluster_ips) > 2:
        yield s + ("clusterIPs",), invalid(cluster_ips, "may only hold up to 2 values")
    if bad:
        return
    parsed = [_sloppy_ip(ip) for ip in cluster_ips]
    if len(cluster_ips) > 1 and len({ip.version for ip in parsed if ip is not None}) != len(cluster_ips):
        yield s + ("clusterIPs",), invalid(cluster_ips, "may specify no more than one IP for each IP family")
    if not headless and cluster_ips and families:
        for i, (text, ip) in enumerate(zip(cluster_ips, parsed)):
            if i >= len(families) or ip is None:
                break
            if families[i] == "IPv4" and ip.version == 6:
                yield s + ("clusterIPs", i), invalid(text, f"expected an IPv4 value as indicated by `ipFamilies[{i}]`")
            if families[i] == "IPv6" and ip.version != 6:
                yield s + ("clusterIPs", i), invalid(text, f"expected an IPv6 value as indicated by `ipFamilies[{i}]`")


def _load_balancer(spec: dict, annotations: dict, svc_type: str, s: Path) -> Iterator[tuple[Path, str]]:
    ranges = lists(spec.get("loadBalancerSourceRanges"))
    if ranges:
        if svc_type != "LoadBalancer":
            yield s + ("loadBalancerSourceRanges",), forbidden("may only be used when `type` is 'LoadBalancer'")
        for i, value in enumerate(ranges):
            if isinstance(value, str) and not _sloppy_cidr(value.strip()):
                yield s + ("loadBalancerSourceRanges", i), invalid(value.strip(), _CIDR_ERROR)
    elif isinstance(annotations.get(SOURCE_RANGES), str):
        at = ("metadata", "annotations", SOURCE_RANGES)
        if svc_type != "LoadBalancer":
            yield at, forbidden("may only be used when `type` is 'LoadBalancer'")
        value = annotations[SOURCE_RANGES].strip()
        for cidr in value.split(",") if value else ():
            if not _sloppy_cidr(cidr.strip()):
                yield at, invalid(cidr.strip(), _CIDR_ERROR)
    if spec.get("allocateLoadBalancerNodePorts") is not None and svc_type != "LoadBalancer":
        yield s + ("allocateLoadBalancerNodePorts",), forbidden("may only be used when `type` is 'LoadBalancer'")
    lb_class = spec.get("loadBalancerClass")
    if isinstance(lb_class, str):
        if svc_type != "LoadBalancer":
            yield s + ("loadBalancerClass",), forbidden("may only be used when `type` is 'LoadBalancer'")
        else:
            for message in is_qualified_name(lb_class):
                yield s + ("loadBalancerClass",), invalid(lb_class, message)


_CIDR_ERROR = "must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)"


def _sloppy_ip(value: str) -> Any:
    """``netutils.ParseIPSloppy``: an IP (an ``ipaddress`` address), IPv4 octets with leading zeros
    allowed; None when it is not one."""
    import ipaddress

    if "%" in value:
        return None
    try:
        return ipaddress.ip_address(value)
    except ValueError:
        pass
    parts = value.split(".")
    if len(parts) == 4 and all(p.isdigit() and p.isascii() and int(p) <= 255 for p in parts):
        return ipaddress.IPv4Address(".".join(str(int(p)) for p in parts))
    return None


def _sloppy_cidr(value: str) -> bool:
    """``netutils.ParseCIDRSloppy`` succeeds: an IP (leading zeros allowed), ``/`` and a prefix length."""
    ip_text, slash, bits = value.partition("/")
    ip = _sloppy_ip(ip_text)
    if not slash or ip is None or not bits.isdigit() or not bits.isascii():
        return False
    return int(bits) <= (32 if ip.version == 4 else 128)


def _endpoint_ip(value: str) -> Iterator[str]:
    """``IsValidIPForLegacyField``, then ``ValidateEndpointIP``."""
    problems = is_valid_ip_legacy(value)
    if problems:
        yield from (invalid(value, m) for m in problems)
        return
    ip = _sloppy_ip(value)
    if ip is None:
        return
    mapped = getattr(ip, "ipv4_mapped", None) or ip  # Go's net.IP treats ::ffff:a.b.c.d as IPv4
    if mapped.is_unspecified:
        yield invalid(value, f"may not be unspecified ({value})")
    if mapped.is_loopback:
        yield invalid(value, "may not be in the loopback range (127.0.0.0/8, ::1/128)")
    if mapped.is_link_local:
        yield invalid(value, "may not be in the link-local range (169.254.0.0/16, fe80::/10)")
    if _link_local_multicast(mapped):
        yield invalid(value, "may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)")


def _link_local_multicast(ip: Any) -> bool:
    import ipaddress

    if ip.version == 4:
        return ip in ipaddress.ip_network("224.0.0.0/24")
    return ip.packed[0] == 0xFF and (ip.packed[1] & 0x0F) == 0x02
