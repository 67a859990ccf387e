"""Volcano's objects in a cluster file: Queues, PodGroups and the scheduler's configuration.

* **Queues** (``scheduling.volcano.sh/v1beta1``, ``kubectl get queues -o yaml``): ``spec.capability``,
  ``deserved``, ``guarantee.resource``, ``weight`` (1 when unset, as the CRD defaults it),
  ``priority``, ``parent`` and ``status.state`` (a queue without one is taken as Open: the queue
  controller opens it, ``pkg/controllers/queue/state/factory.go``);
* **PodGroups** (``scheduling.volcano.sh/v1beta1``, ``kubectl get podgroups -A -o yaml``):
  ``spec.queue`` (``default`` when unset, as the CRD defaults it), ``minMember``, ``minResources``,
  ``priorityClassName``, ``status.phase`` (none reads as Pending) and ``status.running``;
* the **scheduler's configuration**: a ConfigMap whose data holds ``volcano-scheduler.conf``
  (``kubectl get configmap -n volcano-system volcano-scheduler-configmap -o yaml``), read as
  ``UnmarshalSchedulerConf`` (``pkg/scheduler/util.go``) reads it: its actions and tiers of
  plugins, with their ``arguments`` and ``enable*`` switches (true when unset, ``defaults.go``).

Each reader reports a malformed object at its line and leaves it out.
"""

from __future__ import annotations

from typing import Any, Callable

import yaml

from ..operator.quantity import Quantity
from ..scheduler.admission.objects import (DEFAULT_QUEUE, PluginOption, VolcanoConf, VolcanoPodGroup,
                                           VolcanoQueue)

VOLCANO_API = "scheduling.volcano.sh/v1beta1"
CONF_KEY = "volcano-scheduler.conf"
QUEUE_STATES = ("Open", "Closed", "Closing", "Unknown")
PODGROUP_PHASES = ("Pending", "Running", "Unknown", "Inqueue", "Completed")
INT32_MAX = 2**31 - 1

Report = Callable[..., None]  # (path, message, severity=ERROR)
Quantities = Callable[[str, Any, tuple], "dict[str, Quantity] | None"]  # (what, raw, path)


def _mapping(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _integer(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and -INT32_MAX - 1 <= value <= INT32_MAX


def _timestamp(obj: dict[str, Any]) -> str:
    created = _mapping(obj.get("metadata")).get("creationTimestamp")
    return str(created) if created is not None else ""


def is_conf(obj: dict[str, Any]) -> bool:
    """A ConfigMap that holds the Volcano scheduler's configuration."""
    return obj.get("kind") == "ConfigMap" and obj.get("apiVersion") == "v1" and CONF_KEY in _mapping(obj.get("data"))


class _Malformed(Exception):
    """A field the admission rules read is malformed: (its path, the message)."""


def _field(values: dict[str, Any], key: str, default: Any, valid: Callable[[Any], bool], at: tuple,
           what: str, wanted: str) -> Any:
    """``values[key]`` (``default`` when unset or null), or :class:`_Malformed` when not ``valid``."""
    value = values.get(key)
    value = default if value is None else value
    if not valid(value):
        raise _Malformed(at + (key,), f"{what}: {'.'.join(map(str, at[-1:]))}.{key} {value!r} {wanted}")
    return value


def _count(value: Any) -> bool:
    return _integer(value) and value >= 0


def read_queue(obj: dict[str, Any], name: str, path: tuple, report: Report,
               quantities: Quantities) -> VolcanoQueue | None:
    """A Queue, or None (reported) when a field the admission rules read is malformed."""
    what = f"Queue {name!r}"
    spec, status = _mapping(obj.get("spec")), _mapping(obj.get("status"))
    guarantee = spec.get("guarantee")
    if guarantee is not None and not isinstance(guarantee, dict):
        report(path + ("spec", "guarantee"), f"{what}: spec.guarantee is not a mapping (it holds resource)")
        return None
    lists = [quantities(f"{what} spec.{key}", spec.get(key), path + ("spec", key)) for key in ("capability", "deserved")]
    lists.append(quantities(f"{what} spec.guarantee.resource", _mapping(guarantee).get("resource"),
                            path + ("spec", "guarantee", "resource")))
    if any(value is None for value in lists):
        return None
    at, status_at = path + ("spec",), path + ("status",)
    try:
        weight = _field(spec, "weight", 1, lambda v: _integer(v) and v >= 1, at, what, "is not an integer of at least 1")
        priority = _field(spec, "priority", 0, _integer, at, what, "is not an integer")
        parent = _field(spec, "parent", "", lambda v: isinstance(v, str), at, what, "is not a queue name")
        state = _field(status, "state", "Open", lambda v: v in (*QUEUE_STATES, ""), status_at, what,
                       f"is none of {', '.join(QUEUE_STATES)}")
    except _Malformed as bad:
        report(*bad.args)
        return None
    capability, deserved, guaranteed = lists
    return VolcanoQueue(name, capability, deserved, guaranteed, state or "Open", parent, weight, priority,
                        _timestamp(obj))


def read_podgroup(obj: dict[str, Any], name: str, path: tuple, report: Report,
                  quantities: Quantities) -> VolcanoPodGroup | None:
    """A PodGroup, or None (reported) when a field the admission rules read is malformed."""
    meta, spec, status = _mapping(obj.get("metadata")), _mapping(obj.get("spec")), _mapping(obj.get("status"))
    namespace = meta.get("namespace") or "default"
    what = f"PodGroup {namespace}/{name}"
    at, status_at = path + ("spec",), path + ("status",)
    try:
        queue = _field(spec, "queue", DEFAULT_QUEUE, lambda v: isinstance(v, str), at, what, "is not a queue name")
        min_member = _field(spec, "minMember", 0, _count, at, what, "is not a count")
        priority_class = _field(spec, "priorityClassName", "", lambda v: isinstance(v, str), at, what, "is not a name")
        phase = _field(status, "phase", "Pending", lambda v: v in (*PODGROUP_PHASES, ""), status_at, what,
                       f"is none of {', '.join(PODGROUP_PHASES)}")
        running = _field(status, "running", 0, _count, status_at, what, "is not a count")
    except _Malformed as bad:
        report(*bad.args)
        return None
    min_resources = None
    if spec.get("minResources") is not None:
        min_resources = quantities(f"{what} spec.minResources", spec["minResources"], at + ("minResources",))
        if min_resources is None:
            return None
    return VolcanoPodGroup(namespace, name, queue or DEFAULT_QUEUE, phase or "Pending", min_member, min_resources,
                           priority_class, _timestamp(obj), running)


def _switch(option: dict[str, Any], key: str, where: str, problems: list[str]) -> bool:
    value = option.get(key)
    if value is None:
        return True
    if not isinstance(value, bool):
        problems.append(f"{where}: {key} {value!r} is not true or false")
    return value is not False


def read_conf(obj: dict[str, Any], name: str, path: tuple, report: Report) -> VolcanoConf | None:
    """The scheduler configuration a ConfigMap holds, or None (reported) when it is malformed."""
    meta = _mapping(obj.get("metadata"))
    where = f"ConfigMap {meta.get('namespace') or 'default'}/{name} {CONF_KEY}"
    at = path + ("data", CONF_KEY)
    text = obj["data"][CONF_KEY]
    try:
        conf = yaml.safe_load(text) if isinstance(text, str) else None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        place = f" at its line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
        report(at, f"{where} is not YAML: {getattr(exc, 'problem', None) or 'unreadable'}{place}")
        return None
    if not isinstance(conf, dict):
        report(at, f"{where} is not a scheduler configuration (a mapping with actions and tiers)")
        return None
    actions, tiers = conf.get("actions"), conf.get("tiers")
    problems: list[str] = []
    if not isinstance(actions, str):
        problems.append("actions is not a comma-separated string")
    if not isinstance(tiers, list):
        problems.append("tiers is not a list")
    parsed: list[tuple[PluginOption, ...]] = []
    for i, tier in enumerate(tiers if isinstance(tiers, list) else []):
        plugins = _mapping(tier).get("plugins")
        if not isinstance(plugins, list):
            problems.append(f"tiers[{i}].plugins is not a list")
            continue
        options = []
        for j, option in enumerate(plugins):
            here = f"tiers[{i}].plugins[{j}]"
            if not isinstance(option, dict) or not isinstance(option.get("name"), str):
                problems.append(f"{here} has no name")
                continue
            arguments = option.get("arguments") or {}
            if not isinstance(arguments, dict):
                problems.append(f"{here}.arguments is not a mapping")
                continue
            options.append(PluginOption(option["name"], arguments,
                                        _switch(option, "enableJobEnqueued", here, problems),
                                        _switch(option, "enableQueueOrder", here, problems),
                                        _switch(option, "enableJobOrder", here, problems),
                                        option.get("enableHierarchy") is True))
        parsed.append(tuple(options))
    if problems:
        report(at, f"{where}: " + "; ".join(problems))
        return None
    names = tuple(a.strip() for a in actions.split(",") if a.strip())
    return VolcanoConf(names, tuple(parsed), f"the scheduler configuration of ConfigMap {meta.get('namespace') or 'default'}/{name}")


def is_volcano(obj: dict[str, Any], kind: str) -> bool:
    return obj.get("kind") == kind and obj.get("apiVersion") == VOLCANO_API

