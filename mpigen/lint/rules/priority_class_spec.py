"""A PriorityClass is refused by the API server: a value above one billion, a ``system-`` name.

``ValidatePriorityClass`` (k8s.io/kubernetes v1.35.1 ``pkg/apis/scheduling/validation/validation.go``):
a user's PriorityClass has a value of at most 1000000000 (``scheduling.HighestUserDefinablePriority``;
higher values are the system's), a name starting with ``system-`` is reserved for the two classes
Kubernetes itself creates, ``system-node-critical`` and ``system-cluster-critical``, with their own
values (``IsKnownSystemPriorityClass`` in ``pkg/apis/scheduling/v1/helpers.go``), and
``preemptionPolicy`` is PreemptLowerPriority or Never (``ValidatePreemptionPolicy``). The name
itself is ``object-meta``'s. Messages are the API server's.

Fix: keep user priorities at or below 1000000000 (order your classes within that range), choose a
name without the ``system-`` prefix, and use a preemptionPolicy the message lists.
"""

from __future__ import annotations

from typing import Iterator

from ...diagnostics import Severity
from ..base import Context, Path
from ...operator.k8s_validation import forbidden, not_supported, required
from ._common import is_int

CODE = "priority-class-spec"
SEVERITY = Severity.ERROR
KINDS = ("PriorityClass",)

HIGHEST_USER_PRIORITY = 1000000000  # scheduling.HighestUserDefinablePriority
SYSTEM_PREFIX = "system-"
SYSTEM_CLASSES = {"system-node-critical": 2 * HIGHEST_USER_PRIORITY + 1000,
                  "system-cluster-critical": 2 * HIGHEST_USER_PRIORITY}  # helpers.go systemPriorityClasses
PREEMPTION_POLICIES = ("PreemptLowerPriority", "Never")


def check(ctx: Context) -> Iterator[tuple[Path, str]]:
    if ctx.api_version != "scheduling.k8s.io/v1":
        return
    value = ctx.obj.get("value", 0)
    if not is_int(value):
        return  # the schema reports it
    name = ctx.name
    if name.startswith(SYSTEM_PREFIX):
        default = ctx.obj.get("globalDefault") is True
        if name not in SYSTEM_CLASSES:
            error = f"{name} is not a known system priority class"
        elif SYSTEM_CLASSES[name] != value:
            error = f"value of {name} PriorityClass must be {SYSTEM_CLASSES[name]}"
        elif default:
            error = f"globalDefault of {name} PriorityClass must be false"
        else:
            error = ""
        if error:
            yield (("metadata", "name"), forbidden(f"priority class names with '{SYSTEM_PREFIX}' prefix are reserved "
                                                   f"for system use only. error: {error}"))
    elif value > HIGHEST_USER_PRIORITY:
        yield ("value",), forbidden(f"maximum allowed value of a user defined priority is {HIGHEST_USER_PRIORITY}")
    policy = ctx.obj.get("preemptionPolicy")
    if policy == "":
        yield ("preemptionPolicy",), required()
    elif isinstance(policy, str) and policy not in PREEMPTION_POLICIES:
        yield ("preemptionPolicy",), not_supported(policy, PREEMPTION_POLICIES)
