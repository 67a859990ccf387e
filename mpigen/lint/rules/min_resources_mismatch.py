"""An explicit schedulingPolicy.minResources differs from what the pods actually request.

The gang scheduler admits a PodGroup only when its minResources fit: Volcano's enqueue action
checks them against the queue, the coscheduling plugin against the cluster (scheduler-plugins
``pkg/coscheduling/core/core.go`` ``PreFilter``). Without an explicit value mpi-operator v0.8.2
computes it from the pod templates: the resources of minMember pods, the lower-priority replica
type cut first (``calculatePGMinResources``/``calPGMinResource`` in ``pkg/controller/podgroup.go``,
ported in ``mpigen.operator.podgroup``). An explicit value replaces that sum. When it is smaller,
the gang is admitted but cannot fit and its pods wait half-scheduled; when larger, it is never
admitted. Compared by value on the defaulted job, with the cluster's PriorityClass values when
mpigen knows them (``cluster`` setting); otherwise any order of the templates' classes is
accepted. MPIJob only, and only with a gang scheduler.

Fix: remove ``schedulingPolicy.minResources`` so that the operator computes it, or set it to the
value in the message.
"""

from __future__ import annotations

from typing import Iterator

from ...diagnostics import Severity
from ...operator.mpi_defaults import set_defaults
from ...operator.podgroup import calculate_min_available, calculate_min_resources
from ...operator.quantity import Quantity
from ..base import Context, Path
from ._common import current_api, pod_spec, scheduling_policy

CODE = "min-resources-mismatch"
SEVERITY = Severity.WARNING
KINDS = ("MPIJob",)


def same(a: dict[str, Quantity], b: dict[str, Quantity]) -> bool:
    return all(a.get(k, Quantity()).cmp(b.get(k, Quantity())) == 0 for k in set(a) | set(b))


def show(resources: dict[str, Quantity]) -> str:
    return "{" + ", ".join(f"{name}: {q}" for name, q in sorted(resources.items())) + "}"


def check(ctx: Context) -> Iterator[tuple[Path, str]]:
    path, policy = scheduling_policy(ctx)
    if "minResources" not in policy or ctx.gang is None or not current_api(ctx):
        return
    known = ctx.options.priority_classes
    names = [pod_spec(t).get("priorityClassName") for _, _, t in ctx.pod_templates()]
    named = sorted({n if isinstance(n, str) else "" for n in names})
    # Unknown PriorityClass values: equal priorities, or any one class outranking the others.
    assumptions = [known] if known is not None else [{}] + [{n: 1} for n in named if n and len(named) > 1]
    version = ctx.options.operator_version
    try:
        job = set_defaults(ctx.obj, ctx.options.operator_version)
        # The same job without the explicit value (copies only along the changed path).
        run_policy = job["spec"]["runPolicy"]
        bare_policy = {k: v for k, v in run_policy["schedulingPolicy"].items() if k != "minResources"}
        bare = dict(job, spec=dict(job["spec"], runPolicy=dict(run_policy, schedulingPolicy=bare_policy)))
        min_member = calculate_min_available(job)
        explicit = calculate_min_resources(min_member, job, {}, version, gang=ctx.gang)
        if explicit is None:
            return
        computed = []
        for pcs in assumptions:  # in turn: the first that matches ends the check
            value = calculate_min_resources(min_member, bare, pcs, version, gang=ctx.gang)
            if value is not None and same(explicit, value):
                return
            if value is not None:
                computed.append(value)
    except (AttributeError, KeyError, TypeError, ValueError):  # shapes the schema layer reports
        return
    if not computed:
        return
    options = " or ".join(dict.fromkeys(show(c) for c in computed))
    low = any(explicit.get(k, Quantity()).cmp(q) < 0 for k, q in computed[0].items())
    effect = ("the gang can be admitted without room for its pods" if low
              else "the gang waits for resources its pods never use")
    target = show(computed[0]) if len(computed) == 1 else "the value that matches the PriorityClasses"
    yield (path + ("minResources",),
           f"schedulingPolicy.minResources is {show(explicit)} but the {min_member} pods of the gang request "
           f"{options}: {effect}; remove minResources or set it to {target}")
