"""A probe or lifecycle hook of a pod template is refused by the API server.

The operator's pods are refused at creation (a Deployment when it is created) when a container's
probes or lifecycle hooks break the Pod rules of Kubernetes v1.35.1
(``pkg/apis/core/validation/validation.go``): ``validateProbe`` and ``validateHandler`` (exactly one
handler: exec, httpGet, tcpSocket or grpc; no negative delays, periods or thresholds; a probe's
terminationGracePeriodSeconds above 0), ``validateLivenessProbe`` and ``validateStartupProbe``
(successThreshold 1), ``validateReadinessProbe`` (no terminationGracePeriodSeconds),
``validateExecAction`` (a command), ``validateHTTPGetAction`` (scheme HTTP or HTTPS, header names),
``ValidatePortNumOrName`` (a port number 1-65535, or a port *name*: a quoted ``"8080"`` is a name
and is refused), ``validateLifecycle`` and ``validateSleepAction`` (a sleep within the pod's
terminationGracePeriodSeconds), and ``validateInitContainers`` (an init container that is not a
sidecar, ``restartPolicy: Always``, may have no probes nor lifecycle). Unset periods, thresholds,
path and scheme take the API server's defaults. Messages are the API server's.

Fix: give each probe or hook one handler, write port numbers unquoted, and keep thresholds, delays
and periods as the message says.
"""

from __future__ import annotations

from typing import Iterator

from ...diagnostics import Severity
from ..base import Context, Path
from ...operator.k8s_validation import (forbidden, invalid, is_http_header_name, is_valid_port_name, is_valid_port_num, lists,
                              not_supported, required)
from ..pod_template import POD_KINDS, PodTemplate, is_int, mapping, pod_templates, text

CODE = "pod-probes"
SEVERITY = Severity.ERROR
KINDS = POD_KINDS

PROBES = ("livenessProbe", "readinessProbe", "startupProbe")
CONTAINER_FIELDS = frozenset(PROBES + ("lifecycle",))
PROBE_HANDLERS = ("exec", "httpGet", "tcpSocket", "grpc")  # handlerFromProbe, in validateHandler's order
HOOK_HANDLERS = ("exec", "httpGet", "tcpSocket", "sleep")  # handlerFromLifecycle
# SetDefaults_Probe fills 0 with these; a negative value stays and is refused
PROBE_FIELDS = {"initialDelaySeconds": 0, "timeoutSeconds": 1, "periodSeconds": 10, "successThreshold": 1,
                "failureThreshold": 3}


def check(ctx: Context) -> Iterator[tuple[Path, str]]:
    for template in pod_templates(ctx):
        for path, container in template.containers:
            if not CONTAINER_FIELDS.isdisjoint(container):
                yield from _container(template, path, container)
        for path, container in template.init_containers:
            if CONTAINER_FIELDS.isdisjoint(container):
                continue
            if container.get("restartPolicy") == "Always":  # a sidecar: checked as a regular container
                yield from _container(template, path, container)
                continue
            for key in ("lifecycle",) + PROBES:
                if isinstance(container.get(key), dict):
                    yield path + (key,), forbidden("may not be set for init containers without restartPolicy=Always")


def _container(template: PodTemplate, path: Path, container: dict) -> Iterator[tuple[Path, str]]:
    lifecycle = container.get("lifecycle")
    if isinstance(lifecycle, dict):
        for hook in ("postStart", "preStop"):
            if isinstance(lifecycle.get(hook), dict):
                yield from _handler(template, lifecycle[hook], path + ("lifecycle", hook), HOOK_HANDLERS)
    for key in PROBES:
        probe = container.get(key)
        if isinstance(probe, dict):
            yield from _probe(template, key, probe, path + (key,))


def _probe(template: PodTemplate, key: str, probe: dict, path: Path) -> Iterator[tuple[Path, str]]:
    """``validateProbe`` and the liveness/readiness/startup specifics."""
    yield from _handler(template, probe, path, PROBE_HANDLERS)
    for name in PROBE_FIELDS:
        value = probe.get(name, 0)
        if is_int(value) and value < 0:
            yield path + (name,), invalid(value, "must be greater than or equal to 0")
    grace = probe.get("terminationGracePeriodSeconds")
    if is_int(grace) and grace <= 0:
        yield path + ("terminationGracePeriodSeconds",), invalid(grace, "must be greater than 0")
    if key == "readinessProbe":
        if is_int(grace):
            yield path + ("terminationGracePeriodSeconds",), invalid(grace, "must not be set for readinessProbes")
    else:
        threshold = probe.get("successThreshold", 0) or PROBE_FIELDS["successThreshold"]
        if is_int(threshold) and threshold >= 0 and threshold != 1:
            yield path + ("successThreshold",), invalid(threshold, "must be 1")


def _handler(template: PodTemplate, handler: dict, path: Path, kinds: tuple[str, ...]) -> Iterator[tuple[Path, str]]:
    """``validateHandler``: the first handler given is checked, each further one is refused."""
    given = [kind for kind in kinds if isinstance(handler.get(kind), dict)]
    if not given:
        yield path, required("must specify a handler type")
        return
    for kind in given[1:]:
        yield path + (kind,), forbidden("may not specify more than 1 handler type")
    kind = given[0]
    action, at = handler[kind], path + (kind,)
    if kind == "exec":
        if not lists(action.get("command")):
            yield at + ("command",), required()
    elif kind == "httpGet":
        yield from _port(action, at)
        scheme = text(action, "scheme")
        if scheme and scheme not in ("HTTP", "HTTPS"):  # "" is defaulted to HTTP
            yield at + ("scheme",), not_supported(scheme, ("HTTP", "HTTPS"))
        for i, header in enumerate(lists(action.get("httpHeaders"))):
            name = text(mapping(header), "name")
            if name is not None:
                for message in is_http_header_name(name):
                    yield at + ("httpHeaders", i, "name"), invalid(name, message)
    elif kind in ("tcpSocket", "grpc"):
        yield from _port(action, at)
    elif kind == "sleep":
        seconds, grace = action.get("seconds"), template.grace_period
        if is_int(seconds) and grace is not None and not 0 <= seconds <= grace:
            # AllowPodLifecycleSleepActionZeroValue: PodLifecycleSleepActionAllowZero is GA in 1.34
            yield at + ("seconds",), invalid(seconds, "must be non-negative and less than "
                                                      f"terminationGracePeriodSeconds ({grace})")


def _port(action: dict, path: Path) -> Iterator[tuple[Path, str]]:
    """``ValidatePortNumOrName`` (an int-or-string: a quoted number is a name)."""
    port = action.get("port")
    if is_int(port):
        for message in is_valid_port_num(port):
            yield path + ("port",), invalid(port, message)
    elif isinstance(port, str):
        for message in is_valid_port_name(port):
            yield path + ("port",), invalid(port, message)
