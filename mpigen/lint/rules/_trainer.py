"""Helpers shared by the Kubeflow Trainer rule modules (not a rule: not listed in RULE_MODULES)."""

from __future__ import annotations

from typing import Any, Iterator

from ...names import RUNTIME_KINDS, TRAINER_API, TRAINJOB_KIND
from ..base import Context, Path

RUNTIME_PATH: Path = ("spec", "template", "spec", "replicatedJobs")
POD_SPEC: Path = ("template", "spec", "template", "spec")
"""Where a replicated job holds its pod spec."""


def mapping(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def items(value: Any) -> list[dict[str, Any]]:
    return [item for item in value if isinstance(item, dict)] if isinstance(value, list) else []


def is_trainjob(ctx: Context) -> bool:
    return ctx.kind == TRAINJOB_KIND and ctx.api_version == TRAINER_API


def is_runtime(ctx: Context) -> bool:
    return ctx.kind in RUNTIME_KINDS and ctx.api_version == TRAINER_API


def replicated_jobs(spec: Any) -> Iterator[tuple[int, dict[str, Any], dict[str, Any]]]:
    """(index, replicated job, pod spec) of a JobSet spec (a runtime's ``spec.template.spec``)."""
    jobs = mapping(spec).get("replicatedJobs")
    for index, job in enumerate(jobs if isinstance(jobs, list) else []):
        if isinstance(job, dict):
            node: Any = job
            for part in POD_SPEC:
                node = mapping(node).get(part)
            yield index, job, mapping(node)


def gang_scheduler(runtime: Any) -> str | None:
    """The PodGroup plugin a runtime's ``podGroupPolicy`` names: coscheduling, volcano or None."""
    from ...trainer.podgroup import policy_kind_of  # Trainer's modules only for Trainer objects

    return policy_kind_of(mapping(mapping(runtime).get("spec")).get("podGroupPolicy"))


def limit_only(resources: Any) -> list[str]:
    """Resource names a container limits without requesting them."""
    limits, requests = mapping(mapping(resources).get("limits")), mapping(mapping(resources).get("requests"))
    return [name for name in limits if name not in requests]


def containers(pod_spec: dict[str, Any]) -> Iterator[tuple[str, int, dict[str, Any]]]:
    for field in ("initContainers", "containers"):
        for index, container in enumerate(pod_spec.get(field) or [] if isinstance(pod_spec.get(field), list) else []):
            if isinstance(container, dict):
                yield field, index, container


__all__ = ["POD_SPEC", "RUNTIME_PATH", "containers", "gang_scheduler", "is_runtime", "is_trainjob", "items", "limit_only",
           "mapping", "replicated_jobs"]
