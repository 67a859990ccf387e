"""A container port of a pod template is refused by the API server: its name, number or protocol.

The operator's pods are refused at creation (a Deployment when it is created) when a port breaks the
Pod rules of Kubernetes v1.35.1 (``pkg/apis/core/validation/validation.go``):
``validateContainerPorts`` (a port name is an IANA service name, ``validation.IsValidPortName``: at
most 15 characters, lower-case letters, digits and ``-``, at least one letter, no ``-`` at either
end or twice in a row; names unique within a container; ``containerPort`` 1-65535, ``hostPort``
0-65535; ``protocol`` TCP, UDP or SCTP), ``checkHostPortConflicts`` (one protocol/hostIP/hostPort
per pod, ``Duplicate value``) and ``validatePodHostNetworkDeps`` (with ``hostNetwork: true`` a
``hostPort`` must equal its ``containerPort``). As on the server, a missing protocol is TCP, and in
a hostNetwork Pod a missing ``hostPort`` takes the ``containerPort``. Messages are the API server's.

Fix: shorten or rename the port (``horovod-rdzv``, not ``horovod-rendezvous-port``), use a distinct
name per port, a port number in range, TCP/UDP/SCTP, and with hostNetwork leave ``hostPort`` unset
or equal to ``containerPort``.
"""

from __future__ import annotations

from typing import Iterator

from ...diagnostics import Severity
from ..base import Context, Path
from ...operator.k8s_validation import duplicate, invalid, is_valid_port_name, is_valid_port_num, lists, not_supported, required
from ..pod_template import POD_KINDS, PodTemplate, is_int, pod_templates, text

CODE = "pod-ports"
SEVERITY = Severity.ERROR
KINDS = POD_KINDS

PROTOCOLS = ("SCTP", "TCP", "UDP")


def check(ctx: Context) -> Iterator[tuple[Path, str]]:
    for template in pod_templates(ctx):
        yield from _template(template)


def _template(template: PodTemplate) -> Iterator[tuple[Path, str]]:
    host_network = template.host_network
    # defaultHostNetworkPorts (SetDefaults_Pod) fills hostPort in Pods, not in a Deployment's template
    default_host_port = host_network and template.for_pod
    used: set[str] = set()  # checkHostPortConflicts over every regular container
    for path, container in template.containers:
        if "ports" not in container:
            continue
        yield from _ports(path + ("ports",), container)
        yield from _host_ports(path + ("ports",), container, used, default_host_port)
        if host_network:
            yield from _host_network(path + ("ports",), container, default_host_port)
    for path, container in template.init_containers:
        if "ports" not in container:
            continue
        yield from _ports(path + ("ports",), container)
        # validateInitContainers: init containers run one by one, each is checked on its own
        yield from _host_ports(path + ("ports",), container, set(), default_host_port)


def _ports(path: Path, container: dict) -> Iterator[tuple[Path, str]]:
    """``validateContainerPorts``."""
    names: set[str] = set()
    for i, port in enumerate(lists(container.get("ports"))):
        if not isinstance(port, dict):
            continue
        here = path + (i,)
        name = text(port, "name")
        if name:
            messages = is_valid_port_name(name)
            for message in messages:
                yield here + ("name",), invalid(name, message)
            if not messages:
                if name in names:
                    yield here + ("name",), duplicate(name)
                names.add(name)
        number = port.get("containerPort", 0)
        if not is_int(number):
            pass  # the schema reports it
        elif number == 0:
            yield here + ("containerPort",), required()
        else:
            for message in is_valid_port_num(number):
                yield here + ("containerPort",), invalid(number, message)
        host = port.get("hostPort", 0)
        if is_int(host) and host != 0:
            for message in is_valid_port_num(host):
                yield here + ("hostPort",), invalid(host, message)
        protocol = text(port, "protocol")
        if protocol and protocol not in PROTOCOLS:  # "" is defaulted to TCP
            yield here + ("protocol",), not_supported(protocol, PROTOCOLS)


def _host_port(port: dict, default_host_port: bool) -> object:
    host = port.get("hostPort", 0)
    return port.get("containerPort", 0) if host == 0 and default_host_port else host


def _host_ports(path: Path, container: dict, used: set[str], default_host_port: bool) -> Iterator[tuple[Path, str]]:
    """``AccumulateUniqueHostPorts``: protocol/hostIP/hostPort once per pod."""
    for i, port in enumerate(lists(container.get("ports"))):
        if not isinstance(port, dict):
            continue
        host = _host_port(port, default_host_port)
        if not is_int(host) or host == 0:
            continue
        key = f"{port.get('protocol') or 'TCP'}/{port.get('hostIP') or ''}/{host}"
        if key in used:
            yield path + (i, "hostPort"), duplicate(key)
        used.add(key)


def _host_network(path: Path, container: dict, default_host_port: bool) -> Iterator[tuple[Path, str]]:
    """``validatePodHostNetworkDeps``: a template may leave hostPort 0, a Pod has it defaulted."""
    for i, port in enumerate(lists(container.get("ports"))):
        if not isinstance(port, dict):
            continue
        host, number = _host_port(port, default_host_port), port.get("containerPort", 0)
        if is_int(host) and is_int(number) and host != 0 and host != number:
            yield path + (i, "hostPort"), invalid(host, "must match `containerPort` when `hostNetwork` is true")
