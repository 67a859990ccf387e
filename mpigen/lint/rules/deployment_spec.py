"""A Deployment's spec is refused by the API server: replicas, selector, strategy, deadlines.

The API server validates an apps/v1 Deployment with ``ValidateDeploymentSpec`` (k8s.io/kubernetes
v1.35.1 ``pkg/apis/apps/validation/validation.go``) after the v1 defaults (``SetDefaults_Deployment``
in ``pkg/apis/apps/v1/defaults.go``: 1 replica, strategy RollingUpdate with maxUnavailable and
maxSurge 25%, revisionHistoryLimit 10, progressDeadlineSeconds 600). Ported: ``replicas``,
``minReadySeconds``, ``revisionHistoryLimit`` and ``progressDeadlineSeconds`` are not negative, and
``progressDeadlineSeconds`` is greater than ``minReadySeconds``; the selector is a valid label
selector that selects something (``ValidateLabelSelector``, "empty selector is invalid for
deployment"); the strategy is Recreate (without ``rollingUpdate``) or RollingUpdate, whose
``maxUnavailable`` and ``maxSurge`` are non-negative integers or percentages
(``ValidatePositiveIntOrPercent``), not both 0, ``maxUnavailable`` at most 100%
(``ValidateRollingUpdateDeployment``). The pod template is the ``pod-*`` rules', its labels
matching the selector included (``pod-spec``); the name is ``object-meta``'s (mpigen's TensorBoard
is a Deployment). Messages are the API server's.

Fix: give the Deployment a selector with the template's labels, non-negative counts, a
progressDeadlineSeconds above minReadySeconds, and a RollingUpdate that may add or remove at
least one pod (``maxSurge: 1`` or ``maxUnavailable: 1``).
"""

from __future__ import annotations

import re
from typing import Any, Iterator

from ...diagnostics import Severity
from ..base import Context, Path
from ...operator.k8s_validation import forbidden, go_value, invalid, regex_error, validate_label_selector
from ._common import is_int

CODE = "deployment-spec"
SEVERITY = Severity.ERROR
KINDS = ("Deployment",)

STRATEGIES = ("Recreate", "RollingUpdate")
DEFAULT_PERCENT = "25%"
NEGATIVE = "must be greater than or equal to 0"  # apimachinery isNegativeErrorMsg
_PERCENT_FMT = "[0-9]+%"
_PERCENT = re.compile(_PERCENT_FMT)


def check(ctx: Context) -> Iterator[tuple[Path, str]]:
    if ctx.api_version != "apps/v1":
        return
    spec = ctx.get("spec")
    if not isinstance(spec, dict):
        return  # the schema reports it
    s: Path = ("spec",)
    for key in ("replicas", "minReadySeconds", "revisionHistoryLimit", "progressDeadlineSeconds"):
        value = spec.get(key)
        if is_int(value) and value < 0:
            yield s + (key,), invalid(value, NEGATIVE)
    deadline, min_ready = spec.get("progressDeadlineSeconds", 600), spec.get("minReadySeconds", 0)
    if is_int(deadline) and is_int(min_ready) and deadline <= min_ready:
        yield s + ("progressDeadlineSeconds",), invalid(deadline, "must be greater than minReadySeconds")
    selector = spec.get("selector")
    if isinstance(selector, dict):
        yield from validate_label_selector(selector, s + ("selector",))
        expressions = selector.get("matchExpressions")
        labels = selector.get("matchLabels")
        if not (isinstance(labels, dict) and labels) and not (isinstance(expressions, list) and expressions):
            yield s + ("selector",), invalid(selector, "empty selector is invalid for deployment")
    yield from _strategy(spec.get("strategy"), s + ("strategy",))


def _strategy(strategy: Any, path: Path) -> Iterator[tuple[Path, str]]:
    """``ValidateDeploymentStrategy`` on the defaulted strategy."""
    strategy = strategy if isinstance(strategy, dict) else {}
    kind = strategy.get("type") or "RollingUpdate"
    rolling = strategy.get("rollingUpdate")
    if not isinstance(kind, str):
        return
    if kind == "Recreate":
        if rolling is not None:
            yield path + ("rollingUpdate",), forbidden("may not be specified when strategy `type` is 'Recreate'")
    elif kind == "RollingUpdate":
        rolling = rolling if isinstance(rolling, dict) else {}
        values = {key: rolling.get(key, DEFAULT_PERCENT) for key in ("maxUnavailable", "maxSurge")}
        for key, value in values.items():
            yield from _int_or_percent(value, path + ("rollingUpdate", key))
        if _int_or_percent_value(values["maxUnavailable"]) == 0 and _int_or_percent_value(values["maxSurge"]) == 0:
            yield (path + ("rollingUpdate", "maxUnavailable"),
                   invalid(values["maxUnavailable"], "may not be 0 when `maxSurge` is 0"))
        unavailable = values["maxUnavailable"]
        if isinstance(unavailable, str) and _PERCENT.fullmatch(unavailable) and int(unavailable[:-1]) > 100:
            yield path + ("rollingUpdate", "maxUnavailable"), invalid(unavailable, "must not be greater than 100%")
    else:
        import json

        shown = {"Type": kind, "RollingUpdate": None if rolling is None else
                 {"MaxUnavailable": rolling.get("maxUnavailable", 0), "MaxSurge": rolling.get("maxSurge", 0)}}
        yield path, (f"Unsupported value: {json.dumps(shown, separators=(',', ':'))}: supported values: "
                     + ", ".join(go_value(v) for v in STRATEGIES))


def _int_or_percent(value: Any, path: Path) -> Iterator[tuple[Path, str]]:
    """``ValidatePositiveIntOrPercent``."""
    if isinstance(value, str) and not _PERCENT.fullmatch(value):
        yield path, invalid(value, regex_error("a valid percent string must be a numeric string followed by an "
                                               "ending '%'", _PERCENT_FMT, "1%", "93%"))
    elif is_int(value) and value < 0:
        yield path, invalid(value, NEGATIVE)


def _int_or_percent_value(value: Any) -> int:
    """``getIntOrPercentValue``: a percent's number, an int, else 0 (``IntValue`` of other text)."""
    if isinstance(value, str):
        if _PERCENT.fullmatch(value):
            return int(value[:-1])
        return int(value) if re.fullmatch(r"[+-]?[0-9]+", value) else 0
    return value if is_int(value) else 0
