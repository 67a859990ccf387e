"""The CEL validation rules of the shipped CRD schemas (``x-kubernetes-validations``), ported.

The API server evaluates these rules after the structural schema, on the object as stored. Each
rule the pinned CRDs carry is ported here by hand, keyed by its exact CEL text; where it applies
comes from the schema itself (the node that carries it), so a rule moved by an upstream bump is
still found. Transition rules (those that read ``oldSelf``, such as ``self == oldSelf``: "field
is immutable") compare an update with the stored object and never fail on create, which is all
an offline check sees: they are not ported. ``tests/unit/test_schema_rules.py`` fails when a
shipped schema carries a rule that is neither ported nor a transition rule.

A port answers True (the rule holds), False (it fails: the API server refuses the object with the
rule's message) or None (the value is not of the shape the rule reads: the structural schema
reports that, and the API server would not get to the rule either).

CEL's ``matches`` is RE2's unanchored search; every pattern ported here is anchored with ``^`` and
``$`` (end of text in RE2), which ``re.fullmatch`` expresses exactly.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Any, Callable, Iterator

Path = tuple[str | int, ...]


@dataclass(frozen=True, slots=True)
class Port:
    """A ported rule: ``check(self)`` -> True, False or None; ``at`` is where a failure is shown,
    below the node that carries the rule (the API server names that node)."""

    check: Callable[[Any], bool | None]
    at: Path = ()


def _name(value: Any) -> str | None:
    meta = value.get("metadata") if isinstance(value, dict) else None
    name = meta.get("name") if isinstance(meta, dict) else None
    return name if isinstance(name, str) else None


def _dns_label(value: Any) -> bool | None:
    name = _name(value)
    return None if name is None else re.fullmatch(r"[a-z]([-a-z0-9]*[a-z0-9])?", name) is not None


def _at_most_63(value: Any) -> bool | None:
    name = _name(value)
    return None if name is None else len(name) <= 63  # CEL size() of a string: code points


def _storage_uri(value: Any) -> bool | None:
    if not isinstance(value, str):
        return None
    return value == "" or re.fullmatch(r"[A-Za-z][A-Za-z0-9+.-]*://.+", value) is not None


def _managed_by(value: Any) -> bool | None:
    return value in ("trainer.kubeflow.org/trainjob-controller", "kueue.x-k8s.io/multikueue") \
        if isinstance(value, str) else None


def _has_last_updated_time(value: Any) -> bool | None:
    return "lastUpdatedTime" in value if isinstance(value, dict) else None


def _one_ml_policy(value: Any) -> bool | None:
    if not isinstance(value, dict):
        return None
    return sum(key in value for key in ("torch", "mpi", "jax", "xgboost", "flux")) <= 1


def _at_least_one(value: Any) -> bool | None:
    return value >= 1 if isinstance(value, int) and not isinstance(value, bool) else None


def _no_node_container(value: Any) -> bool | None:
    return "node" not in value if isinstance(value, list) else None


def _startup_policy_or_depends_on(value: Any) -> bool | None:
    if not isinstance(value, dict):
        return None
    startup = value.get("startupPolicy")
    if not isinstance(startup, dict) or startup.get("startupPolicyOrder") != "InOrder":
        return True
    jobs = value.get("replicatedJobs")
    return not any(isinstance(job, dict) and "dependsOn" in job for job in jobs) if isinstance(jobs, list) else None


def _no_template_namespace(value: Any) -> bool | None:
    templates = value.get("templates") if isinstance(value, dict) else None
    if not isinstance(templates, list):
        return None
    for template in templates:
        meta = template.get("metadata") if isinstance(template, dict) else None
        namespace = meta.get("namespace") if isinstance(meta, dict) else None
        if isinstance(namespace, str) and namespace:
            return False
    return True


PORTS: dict[str, Port] = {
    # Kubeflow Trainer v2.3.0, pkg/apis/trainer/v1alpha1/trainjob_types.go (TrainJob, its XValidation markers)
    "self.metadata.name.matches('^[a-z]([-a-z0-9]*[a-z0-9])?$')": Port(_dns_label, ("metadata", "name")),
    "size(self.metadata.name) <= 63": Port(_at_most_63, ("metadata", "name")),
    # trainjob_types.go: DatasetInitializer.StorageUri and ModelInitializer.StorageUri
    "self == '' || self.matches('^[A-Za-z][A-Za-z0-9+.-]*://.+$')": Port(_storage_uri),
    # trainjob_types.go: TrainJobSpec.ManagedBy
    "self in ['trainer.kubeflow.org/trainjob-controller', 'kueue.x-k8s.io/multikueue']": Port(_managed_by),
    # trainjob_types.go: TrainerStatus
    "has(self.lastUpdatedTime)": Port(_has_last_updated_time),
    # pkg/apis/trainer/v1alpha1/trainingruntime_types.go: MLPolicy
    "[has(self.torch), has(self.mpi), has(self.jax), has(self.xgboost),has(self.flux)].filter(x, x).size() <= 1":
        Port(_one_ml_policy),
    # trainingruntime_types.go: FluxMLPolicySource.NumProcPerNode
    "self >= 1": Port(_at_least_one),
    # trainingruntime_types.go: EnvInjectionTarget.ContainerNames
    "!self.exists(c, c == 'node')": Port(_no_node_container),
    # JobSet v0.12.0, api/jobset/v1alpha2/jobset_types.go: JobSetSpec (also in the runtimes' template.spec)
    "!(has(self.startupPolicy) && self.startupPolicy.startupPolicyOrder == 'InOrder' && "
    "self.replicatedJobs.exists(x, has(x.dependsOn)))": Port(_startup_policy_or_depends_on),
    # jobset_types.go: VolumeClaimPolicy
    "self.templates.all(t, !has(t.metadata.namespace) || size(t.metadata.namespace) == 0)":
        Port(_no_template_namespace),
}


def is_transition_rule(rule: str) -> bool:
    """A rule that compares with the stored object (``oldSelf``): it never fails on create."""
    return re.search(r"\boldSelf\b", rule) is not None


# A schema reduced to the rules it carries: (rules at this node, {property: node}, items node,
# additionalProperties node); None where no rule lies below.
_Node = tuple[tuple[tuple[str, str], ...], dict[str, Any], Any, Any]


def rule_tree(schema: Any) -> _Node | None:
    """Where the schema carries rules that can fail on create, and nothing else."""
    if not isinstance(schema, dict):
        return None
    rules = tuple((r["rule"], str(r.get("message") or f"failed rule: {r['rule']}"))
                  for r in schema.get("x-kubernetes-validations", [])
                  if isinstance(r, dict) and isinstance(r.get("rule"), str) and not is_transition_rule(r["rule"]))
    properties = {name: sub for name, sub in ((n, rule_tree(s)) for n, s in schema.get("properties", {}).items())
                  if sub is not None}
    items = rule_tree(schema.get("items"))
    extra = rule_tree(schema.get("additionalProperties"))
    if not rules and not properties and items is None and extra is None:
        return None
    return rules, properties, items, extra


@functools.lru_cache(maxsize=None)
def tree_for(schema_name: str) -> _Node | None:
    from .schema import load_schema

    return rule_tree(load_schema(schema_name))


def failures(instance: Any, tree: _Node | None, path: Path = ()) -> Iterator[tuple[Path, str, str]]:
    """(path, message, rule) of every ported rule the instance fails, in document order."""
    if tree is None:
        return
    rules, properties, items, extra = tree
    for rule, message in rules:
        port = PORTS.get(rule)
        if port is not None and port.check(instance) is False:
            yield path + port.at, message, rule
    if isinstance(instance, dict):
        for key, value in instance.items():
            # A structural schema has properties or additionalProperties, never both.
            sub = properties.get(key) if extra is None else extra
            if sub is not None:
                yield from failures(value, sub, path + (key,))
    elif isinstance(instance, list) and items is not None:
        for i, value in enumerate(instance):
            yield from failures(value, items, path + (i,))
