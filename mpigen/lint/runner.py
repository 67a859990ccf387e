"""Run the lint rules over one object."""

from __future__ import annotations

import functools
from typing import Any

from ..config import disabled_by_annotation
from ..diagnostics import Severity
from ..names import CURRENT_API
from ..spec.schema import schema_name
from .base import Context, LintOptions, Path, Rule, load_rules

Finding = tuple[Path, str, Severity, str]  # (JSON path, code, severity, message)
JOB_GROUP = "kubeflow.org/"


@functools.lru_cache(maxsize=1)
def rules() -> tuple[Rule, ...]:
    return tuple(load_rules())


@functools.lru_cache(maxsize=None)
def rules_for(api_version: str, kind: str) -> tuple[Rule, ...]:
    """The rules that read objects of ``kind`` in this group and version, in catalogue order (the
    others are not even asked). A rule reads a kind in the versions mpigen has a schema for (and
    ``legacy-api-version`` a job kind in any version of kubeflow.org): the same kind name in another
    group or version (scheduling.k8s.io's PodGroup beside Volcano's, a Service of a CRD) is another
    object."""
    if schema_name(api_version, kind) is None and not (kind in CURRENT_API and api_version.startswith(JOB_GROUP)):
        return ()
    return tuple(rule for rule in rules() if kind in rule.kinds)


def lint_object(obj: dict[str, Any], options: LintOptions = LintOptions(),
                disabled: frozenset[str] = frozenset()) -> list[Finding]:
    """Every finding of every enabled rule that reads this object's kind.

    ``disabled`` holds codes switched off for the run; the object's own
    ``mpigen.dev/disable`` annotation adds to it (``all`` switches every rule off).
    """
    off = disabled | disabled_by_annotation(obj)
    if "all" in off:
        return []
    ctx = Context(obj, options)
    findings: list[Finding] = []
    for rule in rules_for(ctx.api_version, ctx.kind):
        if rule.code in off:
            continue
        for found in rule.check(ctx):
            severity = found[2] if len(found) > 2 else rule.severity  # type: ignore[misc]
            findings.append((tuple(found[0]), rule.code, severity, found[1]))
    return findings
