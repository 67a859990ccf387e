"""mpi-operator multiplies this quantity in the job's own pod template: the workers request N times it.

Since v0.5.0 the operator computes the PodGroup's minResources with ``addResources``
(``pkg/controller/podgroup.go``), which copies each container's Quantity by value and calls
``quantity.Mul(replicas)`` on the copy. A Quantity that Go's ``ParseQuantity`` keeps as an
arbitrary-precision decimal rather than an int64 — a fraction of a binary suffix (``1.5Gi``,
``0.5Ki``), more than 18 digits, finer than a nano — shares that decimal with its copies, so the
multiplication lands in the MPIJob's template itself, and the worker Pods created right after in
the same sync request replicas x the value (2 workers of ``1.5Gi`` each request ``3Gi``).
Requests, and limits standing in for a missing request, are affected, whenever a gang scheduler
computes minResources (no explicit ``schedulingPolicy.minResources``). Found by mpigen's
differential tests against the real controller (tests/oracle).

Fix: write the same value so that Go keeps it as an int64: ``1.5Gi`` is ``1536Mi``, ``0.5Ki`` is
``512`` (mpigen's own manifests always do), or set ``schedulingPolicy.minResources`` explicitly.
"""

from __future__ import annotations

from typing import Iterator

from ...diagnostics import Severity
from ...operator.quantity import Quantity, QuantityError, go_stores_as_decimal
from ..base import Context, Path
from ._common import current_api, mapping, replicas, scheduling_policy

CODE = "decimal-quantity-multiplied"
SEVERITY = Severity.ERROR
KINDS = ("MPIJob",)


def check(ctx: Context) -> Iterator[tuple[Path, str]]:
    if not current_api(ctx) or ctx.gang is None or ctx.options.operator_version.legacy:
        return
    _, policy = scheduling_policy(ctx)
    if "minResources" in policy or policy.get("minAvailable") == 0:
        return
    base, specs = ctx.replica_specs
    for role, replica in specs.items():
        count = replicas(replica, 1 if role == "Launcher" else 0)
        if count is None or count == 1:
            continue  # Mul(1) changes nothing
        for i, container in ctx.containers(mapping(replica.get("template"))):
            resources = mapping(container.get("resources"))
            requests, limits = mapping(resources.get("requests")), mapping(resources.get("limits"))
            merged = [("requests", n, v) for n, v in requests.items()]
            merged += [("limits", n, v) for n, v in limits.items() if n not in requests]
            for part, name, value in merged:
                if isinstance(value, str) and go_stores_as_decimal(value):
                    yield (base + (role, "template", "spec", "containers", i, "resources", part, name),
                           f"{name} {value} is kept by Go as a decimal, which the operator multiplies in place while "
                           f"computing minResources: each of the {count} {role.lower()} pods would request "
                           f"{count} x {value}; write it as {_int64_form(value)}")


def _int64_form(value: str) -> str:
    try:
        return Quantity.parse(value).canonical()
    except QuantityError:
        return "an integer quantity"
