"""The gang before and after ``mpigen migrate --to trainjob``: the PodGroup the old operator
creates (mpi-operator v0.8.2, training-operator v1.9.4) beside the one Kubeflow Trainer v2.3.0
creates for the migrated TrainJob, compared field by field (``trainjob-gang``: info when equal, a
warning naming each difference). Pure: the comparison is a list of
:class:`~mpigen.migrate.common.Change`."""

from __future__ import annotations

import copy
from typing import Any

from ...diagnostics import Severity, format_path
from ..common import Change, Objects, Path, dropped, mapping


GANG_FIELDS = ("minMember", "minResources", "queue", "priorityClassName")
GANG_REASONS = {
    "minMember": "Trainer's PodGroup counts every pod: no minAvailable",
    "minResources": "Trainer sums every pod's requests: no explicit minResources, no cut at minAvailable",
    "priorityClassName": "Trainer's Volcano PodGroup takes the priorityClassName of the last pod template that sets "
                         "one; mpi-operator took schedulingPolicy.priorityClass, else the launcher's or the workers', "
                         "training-operator schedulingPolicy.priorityClass only",
}


def old_podgroup(old: dict[str, Any], gang: str | None, scheduler_name: str) -> dict[str, Any] | None:
    """The PodGroup the old operator creates for ``old`` (mpi-operator v0.8.2, training-operator
    v1.9.4; as ``mpigen podgroup`` computes it), as if it were not suspended; None without a gang."""
    from ...lint.base import Context, LintOptions
    from ...operator import podgroup as pg
    from ...operator import training_podgroup as tp
    from ...operator.mpi_defaults import set_defaults
    from ...operator.training_defaults import set_defaults as set_training_defaults

    scheduler = Context(old, LintOptions(gang=gang)).gang
    if scheduler is None:
        return None
    job = copy.deepcopy(old)
    mapping(mapping(job.get("spec")).get("runPolicy")).pop("suspend", None)
    try:
        if job["kind"] == "MPIJob":
            return pg.new_pod_group(set_defaults(job), scheduler, {}, scheduler_name=scheduler_name)
        defaulted = set_training_defaults(job)
        if tp.skipped_reason(defaulted):
            return None
        return tp.podgroup(defaulted, scheduler, {}, scheduler_name)
    except (pg.OperatorPanicError, ValueError, TypeError, KeyError, AttributeError):
        return None


def new_podgroup(objects: Objects) -> tuple[dict[str, Any] | None, str | None]:
    """(the PodGroup Trainer v2.3.0 creates for the migrated TrainJob, or None; the framework's
    error, if any), the TrainJob taken as not suspended."""
    from ...load.trainer_runtimes import default_runtimes
    from ...trainer.framework import build
    from ...trainer.info import TrainerError
    from ...trainer.runtimes import runtime_ref, runtime_shape, trainjob_shape

    trainjob = copy.deepcopy(objects[-1])
    trainjob["spec"].pop("suspend", None)
    _, kind, name = runtime_ref(trainjob)
    runtime = objects[0] if len(objects) > 1 else default_runtimes().find(kind, name)
    if runtime is None:
        return None, f"the runtime {name} is not known"
    shape = trainjob_shape(trainjob) + [(("runtime",) + path, message) for path, message in runtime_shape(runtime)]
    if shape:  # the old job had a field of the wrong type there: validation reports it
        path, message = shape[0]
        return None, f"{format_path(path)}: {message}"
    try:
        return build(trainjob, runtime).podgroup, None
    except TrainerError as exc:
        return None, str(exc)


def min_resources_change(at: Path, given: Any, objects: Objects) -> Change:
    """The old ``schedulingPolicy.minResources``: dropped when Trainer's PodGroup for the migrated
    TrainJob has the same (as quantities: mpigen's own jobs write the sum of the pods' requests,
    which is what Trainer computes), else not carried (an error)."""
    group, problem = new_podgroup(objects)
    computed = ((group or {}).get("spec") or {}).get("minResources")
    same = problem is None and group is not None and _resources(given) == _resources(computed)
    if same:
        return dropped(at, "Trainer computes the same minResources from the pods' requests ("
                       + " ".join(f"{name}={value}" for name, value in (computed or {}).items()) + ")")
    return Change(at, "trainjob-not-carried", Severity.ERROR, "minResources cannot be carried: Trainer computes the "
                  "PodGroup's minResources from the pods' requests"
                  + (" (" + " ".join(f"{name}={value}" for name, value in computed.items()) + ")"
                     if isinstance(computed, dict) and computed else ""))


def _resources(value: Any) -> dict[str, Any] | None:
    """Resource quantities as exact numbers, zeros left out; None when one does not parse."""
    from ...operator.podgroup import _parse

    out = {}
    for name, quantity in (value.items() if isinstance(value, dict) else ()):
        try:
            amount = _parse(quantity).as_fraction()
        except (ValueError, TypeError):
            return None
        if amount != 0:
            out[name] = amount
    return out


def _gang_facts(group: dict[str, Any] | None) -> dict[str, Any]:
    if group is None:
        return {}
    spec = group.get("spec") or {}
    facts: dict[str, Any] = {"kind": group["apiVersion"].split("/")[0], "minMember": spec.get("minMember", 0)}
    facts["minResources"] = _resources(spec.get("minResources")) or {}
    if facts["kind"] == "scheduling.volcano.sh":
        facts["queue"] = spec.get("queue") or "default"  # Volcano's webhook defaults an empty queue
        facts["priorityClassName"] = spec.get("priorityClassName") or ""
    return facts


def _show_facts(facts: dict[str, Any], group: dict[str, Any] | None) -> str:
    return ", ".join(f"{key} {_show_value(group, key, facts)}" for key in GANG_FIELDS
                     if key in facts and (key != "priorityClassName" or facts[key]))


def compare_gang(old: dict[str, Any], objects: Objects, gang: str | None, scheduler_name: str) -> list[Change]:
    """Whether the TrainJob explains to the same gang as the old job: the PodGroups' minMember,
    minResources (as quantities), queue and priority class. One change: info when they agree,
    a warning naming each difference otherwise."""
    before = old_podgroup(old, gang, scheduler_name)
    after, problem = new_podgroup(objects)
    policy = mapping(mapping(old.get("spec")).get("runPolicy")).get("schedulingPolicy")
    at: Path = ("spec", "runPolicy", "schedulingPolicy") if isinstance(policy, dict) else ("spec",)
    if problem is not None:
        return [Change(at, "trainjob-gang", Severity.WARNING,
                       f"the TrainJob's PodGroup could not be computed: {problem}")]
    a, b = _gang_facts(before), _gang_facts(after)
    kind = old["kind"]
    if not a and not b:
        return [Change(at, "trainjob-gang", Severity.INFO,
                       f"no gang before or after: the {kind} had no PodGroup, nor has the TrainJob")]
    if a == b:
        return [Change(at, "trainjob-gang", Severity.INFO,
                       f"the same gang: the TrainJob's PodGroup equals the {kind}'s ({_show_facts(b, after)})")]
    if not b:
        why = "the TrainJob has no PodGroup"
    elif not a:
        why = f"the {kind} had no PodGroup"
    else:
        why = "; ".join(f"{key} {_show_value(before, key, a)} -> {_show_value(after, key, b)}"
                        + (f" ({GANG_REASONS[key]})" if key in GANG_REASONS else "")
                        for key in ("kind",) + GANG_FIELDS if a.get(key) != b.get(key))
    return [Change(at, "trainjob-gang", Severity.WARNING,
                   f"the TrainJob's gang differs from the {kind}'s: {why}; the diagnostics at the fields that could "
                   "not be carried say more")]


def _show_value(group: dict[str, Any] | None, key: str, facts: dict[str, Any]) -> str:
    if key == "kind":
        return facts.get("kind", "none")
    if key == "queue":
        return str(facts.get("queue"))
    value = ((group or {}).get("spec") or {}).get(key)
    if isinstance(value, dict):  # minResources: as the PodGroup writes them
        return " ".join(f"{name}={quantity}" for name, quantity in value.items()) or "none"
    return "none" if value in (None, "") else str(value)
