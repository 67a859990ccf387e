"""Nodes and pods as kube-scheduler v1.35 reads them, and the filters that decide whether one pod
may go to one node.

* **Requests** (:func:`pod_requests`): ``resource.PodRequests`` of
  ``k8s.io/component-helpers/resource/helpers.go``, as ``computePodResourceRequest`` in
  ``pkg/scheduler/framework/plugins/noderesources/fit.go`` calls it: the containers' requests
  added, the init containers' taken as a maximum (a restartable init container, a sidecar, adds
  to both), pod-level ``resources`` (PodLevelResources, beta and on in 1.35) replacing the sum for
  cpu, memory and hugepages, then ``overhead`` added. Before that the API server's
  ``SetDefaults_Pod`` (``pkg/apis/core/v1/defaults.go``) has filled every request a limit stands
  for (a GPU written only as a limit is requested).
* **Amounts** (:func:`amount`): ``framework.Resource``: cpu in millicores (``MilliValue``), every
  other resource as ``Value()``. Only cpu, memory, ephemeral-storage and the scalar resources
  (extended resources such as ``nvidia.com/gpu``, ``hugepages-*``, ``attachable-volumes-*``) are
  compared; ``pods`` counts one per pod (``fitsRequest``: "Too many pods").
* **Filters** (:func:`rejection`), in the default profile's order: NodeUnschedulable
  (``spec.unschedulable`` unless the pod tolerates ``node.kubernetes.io/unschedulable:NoSchedule``),
  NodeName, TaintToleration (every ``NoSchedule``/``NoExecute`` taint tolerated;
  ``Toleration.ToleratesTaint`` of ``k8s.io/api/core/v1/toleration.go``; the Gt/Lt operators of
  the alpha TaintTolerationComparisonOperators gate are off), NodeAffinity (``nodeSelector`` and
  the required ``nodeSelectorTerms``, ``k8s.io/component-helpers/scheduling/corev1/nodeaffinity``).
  The DefaultTolerationSeconds admission plugin's ``not-ready``/``unreachable`` ``NoExecute``
  tolerations are added to every pod.
* **Host ports** (NodePorts): two pods asking the same host port (protocol and port, on the same
  or any host IP) never share a node; with ``hostNetwork`` every container port is a host port
  (``SetDefaults_Pod``).

Not evaluated, and named as such: required pod affinity and anti-affinity, topology spread
constraints that refuse (``DoNotSchedule``), and DRA ``resourceClaims``. Volumes (PVC binding and
zones) are not considered.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

from ..operator.podgroup import _parse as parse_quantity
from ..operator.quantity import Quantity

CPU, MEMORY, EPHEMERAL_STORAGE, PODS = "cpu", "memory", "ephemeral-storage", "pods"
SCHEDULING_EFFECTS = ("NoSchedule", "NoExecute")
UNSCHEDULABLE_TAINT_KEY = "node.kubernetes.io/unschedulable"
DEFAULT_TOLERATIONS = (  # plugin/pkg/admission/defaulttolerationseconds
    {"key": "node.kubernetes.io/not-ready", "operator": "Exists", "effect": "NoExecute"},
    {"key": "node.kubernetes.io/unreachable", "operator": "Exists", "effect": "NoExecute"},
)


def counted(name: str) -> bool:
    """Whether ``fitsRequest`` compares this resource (``pods`` is counted per pod instead)."""
    return name in (CPU, MEMORY, EPHEMERAL_STORAGE) or "/" in name or name.startswith(("hugepages-",
                                                                                      "attachable-volumes-"))


def amount(name: str, quantity: Quantity) -> int:
    """The integer the scheduler compares: millicores for cpu, ``Value()`` for the rest."""
    return quantity.milli_value() if name == CPU else quantity.value()


def shown(name: str, value: int, like: Quantity | None = None) -> str:
    """An amount of :func:`amount` as a quantity, in the format of ``like`` (e.g. ``64Gi``)."""
    if name == CPU:
        return str(Quantity(value, -3))
    return str(Quantity(value, 0, like.format if like is not None else "DecimalSI"))


_BINARY_UNITS = ("", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei")


def bytes_shown(value: float) -> str:
    """An amount of bytes (memory, ephemeral-storage) as a reader takes it in: exact when a user
    would write it so, a whole number of Mi in binary units (``64Gi``), a number of up to seven
    digits as it is (``2000``), a round decimal in decimal units (``2G``); else, as a sum over a
    cluster's nodes or a total multiplied by an overcommit factor is, in the largest binary unit
    it reaches, to six significant digits (``393.703Ti``, not ``432880890933248``)."""
    if value == int(value):
        units = int(value)
        if units % (1 << 20) == 0:
            return str(Quantity(units, 0, "BinarySI"))
        if abs(units) < 10**7:
            return str(units)
        decimal = str(Quantity(units, 0, "DecimalSI"))
        if len(decimal.lstrip("-")) <= 7:
            return decimal
    power = min(len(_BINARY_UNITS) - 1, max(0, (int(abs(value)).bit_length() - 1) // 10))
    return f"{value / 1024 ** power:.6g}{_BINARY_UNITS[power]}"


@dataclass(frozen=True)
class Taint:
    key: str
    value: str
    effect: str

    def __str__(self) -> str:
        return f"{self.key}={self.value}:{self.effect}" if self.value else f"{self.key}:{self.effect}"


@dataclass(frozen=True)
class Node:
    """A Node of the cluster file: what the filters read, and what its bound Pods request."""

    name: str
    labels: Mapping[str, str] = field(default_factory=dict)
    taints: tuple[Taint, ...] = ()
    unschedulable: bool = False
    allocatable: Mapping[str, Quantity] = field(default_factory=dict)
    requested: Mapping[str, Quantity] = field(default_factory=dict)  # by the Pods bound to it
    pods: int = 0  # Pods bound to it


HostPort = tuple[str, str, int]  # (host IP, protocol, port)


@dataclass(frozen=True)
class PodShape:
    """What the filters read of one pod."""

    requests: Mapping[str, Quantity]
    node_selector: Mapping[str, str] = field(default_factory=dict)
    node_affinity: tuple[Mapping[str, Any], ...] | None = None  # required nodeSelectorTerms
    tolerations: tuple[Mapping[str, Any], ...] = DEFAULT_TOLERATIONS
    node_name: str | None = None
    host_ports: frozenset[HostPort] = frozenset()
    unmodeled: tuple[str, ...] = ()  # constraints the filters here do not evaluate

    def amounts(self) -> dict[str, int]:
        """Resource -> the amount compared, for every counted resource requested (non-zero)."""
        out = {name: amount(name, q) for name, q in self.requests.items() if counted(name)}
        return {name: value for name, value in out.items() if value > 0}


def _mapping(value: Any) -> Mapping[str, Any]:
    if value.__class__ is dict:  # (the ABC's isinstance costs ten times more)
        return value
    return value if value is not None and isinstance(value, Mapping) else {}


_PARSED: dict[str, Quantity] = {}  # text -> its quantity: a cluster's pods repeat a few values
_PARSED_MAX = 4096


def _quantity(raw: Any) -> Quantity:
    """``parse_quantity``, a text's quantity remembered (quantities are immutable)."""
    if raw.__class__ is not str:
        return parse_quantity(raw)
    found = _PARSED.get(raw)
    if found is None:
        found = parse_quantity(raw)
        if len(_PARSED) < _PARSED_MAX:
            _PARSED[raw] = found
    return found


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _add(total: dict[str, Quantity], more: Mapping[str, Quantity]) -> None:
    for name, q in more.items():
        total[name] = total[name].add(q) if name in total else q


def _max(total: dict[str, Quantity], other: Mapping[str, Quantity]) -> None:
    for name, q in other.items():
        if name not in total or q.cmp(total[name]) > 0:
            total[name] = q


def _defaulted(resources: Any) -> dict[str, Quantity]:
    """A container's requests once ``SetDefaults_Pod`` has copied its limits into missing requests."""
    resources = _mapping(resources)
    merged = dict(_mapping(resources.get("limits")))
    merged.update(_mapping(resources.get("requests")))
    return {name: _quantity(raw) for name, raw in merged.items() if raw is not None}


def _pod_level_resource(name: str) -> bool:  # IsSupportedPodLevelResource
    return name in (CPU, MEMORY) or name.startswith("hugepages-")


def pod_requests(spec: Mapping[str, Any]) -> dict[str, Quantity]:
    """``PodRequests`` of a pod spec, requests defaulted from limits as the API server does.
    Raises ``ValueError`` (``QuantityError``) for a value that is not a quantity."""
    total: dict[str, Quantity] = {}
    for container in _list(spec.get("containers")):
        _add(total, _defaulted(_mapping(container).get("resources")))
    sidecars: dict[str, Quantity] = {}
    init_peak: dict[str, Quantity] = {}
    for container in _list(spec.get("initContainers")):
        container = _mapping(container)
        requests = _defaulted(container.get("resources"))
        if container.get("restartPolicy") == "Always":  # a sidecar runs beside everything after it
            _add(total, requests)
            _add(sidecars, requests)
            running = dict(sidecars)
        else:
            running = dict(requests)
            _add(running, sidecars)
        _max(init_peak, running)
    _max(total, init_peak)
    pod_level = _defaulted(spec.get("resources"))
    for name, q in pod_level.items():
        if _pod_level_resource(name):
            total[name] = q
    _add(total, {name: _quantity(raw) for name, raw in _mapping(spec.get("overhead")).items()
                 if raw is not None})
    return total


def _host_ports(spec: Mapping[str, Any]) -> frozenset[HostPort]:
    host_network = spec.get("hostNetwork") is True
    containers = [_mapping(c) for c in _list(spec.get("containers"))]
    containers += [c for c in map(_mapping, _list(spec.get("initContainers"))) if c.get("restartPolicy") == "Always"]
    ports = set()
    for container in containers:
        for port in map(_mapping, _list(container.get("ports"))):
            number = port.get("hostPort") or (port.get("containerPort") if host_network else None)
            if isinstance(number, int) and not isinstance(number, bool) and number > 0:
                ports.add((str(port.get("hostIP") or "0.0.0.0"), str(port.get("protocol") or "TCP"), number))
    return frozenset(ports)


def ports_conflict(a: Iterable[HostPort], b: Iterable[HostPort]) -> bool:
    """``HostPortInfo.CheckConflict``: the same protocol and port, on the same IP or on 0.0.0.0."""
    by_port: dict[tuple[str, int], set[str]] = {}
    for ip, protocol, port in a:
        by_port.setdefault((protocol, port), set()).add(ip)
    for ip, protocol, port in b:
        ips = by_port.get((protocol, port))
        if ips and (ip == "0.0.0.0" or "0.0.0.0" in ips or ip in ips):
            return True
    return False


def _unmodeled(spec: Mapping[str, Any]) -> tuple[str, ...]:
    affinity = _mapping(spec.get("affinity"))
    out = []
    for kind in ("podAffinity", "podAntiAffinity"):
        if _list(_mapping(affinity.get(kind)).get("requiredDuringSchedulingIgnoredDuringExecution")):
            out.append(f"required {kind}")
    if any(_mapping(c).get("whenUnsatisfiable", "DoNotSchedule") == "DoNotSchedule"
           for c in _list(spec.get("topologySpreadConstraints"))):
        out.append("topologySpreadConstraints")
    if _list(spec.get("resourceClaims")):
        out.append("resourceClaims")
    return tuple(out)


def pod_shape(spec: Mapping[str, Any]) -> PodShape:
    """What the filters read of a pod spec (as the operator creates it, defaulted as the API
    server defaults a Pod). Raises ``ValueError`` for a resource value that is not a quantity."""
    required = _mapping(_mapping(_mapping(spec.get("affinity")).get("nodeAffinity"))
                        .get("requiredDuringSchedulingIgnoredDuringExecution"))
    terms = required.get("nodeSelectorTerms") if required else None
    return PodShape(
        requests=pod_requests(spec),
        node_selector={str(k): str(v) for k, v in _mapping(spec.get("nodeSelector")).items()},
        node_affinity=tuple(map(_mapping, _list(terms))) if terms is not None else None,
        tolerations=tuple(map(_mapping, _list(spec.get("tolerations")))) + DEFAULT_TOLERATIONS,
        node_name=spec.get("nodeName") if isinstance(spec.get("nodeName"), str) and spec.get("nodeName") else None,
        host_ports=_host_ports(spec),
        unmodeled=_unmodeled(spec),
    )


def tolerates(toleration: Mapping[str, Any], taint: Taint) -> bool:
    """``Toleration.ToleratesTaint``."""
    effect, key = toleration.get("effect") or "", toleration.get("key") or ""
    if (effect and effect != taint.effect) or (key and key != taint.key):
        return False
    operator = toleration.get("operator") or "Equal"
    if operator == "Exists":
        return True
    return operator == "Equal" and (toleration.get("value") or "") == taint.value


def _requirement(expression: Mapping[str, Any], value: str | None) -> bool:
    """One ``NodeSelectorRequirement`` against a label's (or field's) value (None: absent)."""
    operator, values = expression.get("operator"), [str(v) for v in _list(expression.get("values"))]
    if operator == "In":
        return value is not None and value in values
    if operator == "NotIn":
        return value is None or value not in values
    if operator == "Exists":
        return value is not None
    if operator == "DoesNotExist":
        return value is None
    if operator in ("Gt", "Lt") and value is not None and len(values) == 1:
        try:
            have, bound = int(value), int(values[0])
        except ValueError:
            return False
        return have > bound if operator == "Gt" else have < bound
    return False


def _term_matches(term: Mapping[str, Any], node: Node) -> bool:
    """A ``nodeSelectorTerm``: every expression and field matches; an empty term matches nothing."""
    expressions, fields = _list(term.get("matchExpressions")), _list(term.get("matchFields"))
    if not expressions and not fields:
        return False
    for expression in map(_mapping, expressions):
        if not _requirement(expression, node.labels.get(str(expression.get("key")))):
            return False
    for expression in map(_mapping, fields):
        if expression.get("key") != "metadata.name" or not _requirement(expression, node.name):
            return False
    return True


@dataclass(frozen=True)
class Rejection:
    """Why a filter refuses a node: ``kind`` (unschedulable, nodeName, taint, nodeSelector,
    nodeAffinity) and the text that says it of one node."""

    kind: str
    text: str


def rejection(shape: PodShape, node: Node) -> Rejection | None:
    """The first filter that refuses ``node`` for a pod of ``shape``, or None."""
    if node.unschedulable and not any(tolerates(t, Taint(UNSCHEDULABLE_TAINT_KEY, "", "NoSchedule"))
                                      for t in shape.tolerations):
        return Rejection("unschedulable", "unschedulable (spec.unschedulable)")
    if shape.node_name is not None and node.name != shape.node_name:
        return Rejection("nodeName", f"not spec.nodeName {shape.node_name}")
    for taint in node.taints:
        if taint.effect in SCHEDULING_EFFECTS and not any(tolerates(t, taint) for t in shape.tolerations):
            return Rejection("taint", f"taint {taint} not tolerated")
    for key, value in shape.node_selector.items():
        if node.labels.get(key) != value:
            selector = ", ".join(f"{k}={v}" for k, v in shape.node_selector.items())
            return Rejection("nodeSelector", f"nodeSelector {selector} not matched")
    if shape.node_affinity is not None and not any(_term_matches(t, node) for t in shape.node_affinity):
        return Rejection("nodeAffinity", "required nodeAffinity not matched")
    return None
