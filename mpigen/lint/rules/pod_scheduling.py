"""A scheduling field of a pod template is refused by the API server: node selector, tolerations, affinity.

The operator's pods are refused at creation (a Deployment when it is created) when where they may
run is written in a way the Pod rules of Kubernetes v1.35.1 refuse
(``pkg/apis/core/validation/validation.go``, ``ValidatePodSpec``): ``nodeSelector`` keys and values
are label keys and values (``ValidateLabels``: a value of at most 63 characters of letters, digits,
``-``, ``_``, ``.``); ``ValidateTolerations`` (an empty key needs ``operator: Exists``, a value only
with Equal, a label value; ``tolerationSeconds`` only with ``effect: NoExecute``; the operator and
effect among their values: Lt and Gt need TaintTolerationComparisonOperators, alpha and off in
1.35); ``validateAffinity`` (node selector terms and requirements,
``ValidateNodeSelectorRequirement``, ``ValidateNodeFieldSelectorRequirement``, weights 1-100, pod
affinity terms with a topologyKey and valid label selectors); ``validateTopologySpreadConstraints``
(maxSkew above 0, a topologyKey, ``whenUnsatisfiable``, no repeated pair, minDomains, node
policies); ``validateSchedulingGates``; ``priorityClassName``, ``nodeName`` and ``runtimeClassName``
are DNS subdomains and ``preemptionPolicy`` one of its values. ``schedulerName`` has no such check.
Messages are the API server's.

Fix: quote and shorten label values (``gpu: "true"``, not a sentence), use ``operator: Exists`` for
a toleration without a key, put ``tolerationSeconds`` on NoExecute tolerations only, and give
affinity terms a topologyKey.
"""

from __future__ import annotations

from typing import Iterator

from ...diagnostics import Severity
from ..base import Context, Path
from ...operator.k8s_validation import (duplicate, invalid, is_dns1123_label, is_label_value, is_qualified_name, lists,
                              name_is_dns_subdomain, not_supported, required, selector_requirement,
                              validate_label_selector, validate_labels)
from ..pod_template import POD_KINDS, is_int, mapping, pod_templates, text

CODE = "pod-scheduling"
SEVERITY = Severity.ERROR
KINDS = POD_KINDS

EFFECTS = ("NoSchedule", "PreferNoSchedule", "NoExecute")
WHEN_UNSATISFIABLE = ("DoNotSchedule", "ScheduleAnyway")


# the pod spec's fields this rule reads (the others are not looked at)
FIELDS = frozenset(("nodeSelector", "tolerations", "affinity", "topologySpreadConstraints", "schedulingGates",
                    "priorityClassName", "nodeName", "runtimeClassName", "preemptionPolicy"))


def check(ctx: Context) -> Iterator[tuple[Path, str]]:
    for template in pod_templates(ctx):
        spec, base = template.spec, template.spec_path
        if FIELDS.isdisjoint(spec):
            continue
        yield from validate_labels(spec.get("nodeSelector"), base + ("nodeSelector",))
        yield from _tolerations(spec.get("tolerations"), base + ("tolerations",))
        affinity = spec.get("affinity")
        if isinstance(affinity, dict):
            yield from _node_affinity(affinity.get("nodeAffinity"), base + ("affinity", "nodeAffinity"))
            for kind in ("podAffinity", "podAntiAffinity"):
                yield from _pod_affinity(affinity.get(kind), base + ("affinity", kind))
        yield from _spread(spec.get("topologySpreadConstraints"), base + ("topologySpreadConstraints",))
        seen: set[str] = set()
        for i, gate in enumerate(lists(spec.get("schedulingGates"))):
            name = text(mapping(gate), "name")
            if name is not None:
                for message in is_qualified_name(name):
                    yield base + ("schedulingGates", i), invalid(name, message)
                if name in seen:
                    yield base + ("schedulingGates", i), duplicate(name)
                seen.add(name)
        for key in ("priorityClassName", "nodeName", "runtimeClassName"):
            value = text(spec, key)
            if value or (key == "runtimeClassName" and value == "" and key in spec):
                for message in name_is_dns_subdomain(value):
                    yield base + (key,), invalid(value, message)
        preemption = spec.get("preemptionPolicy")
        if preemption == "":
            yield base + ("preemptionPolicy",), required()
        elif isinstance(preemption, str) and preemption not in ("PreemptLowerPriority", "Never"):
            yield base + ("preemptionPolicy",), not_supported(preemption, ("PreemptLowerPriority", "Never"))


def _tolerations(tolerations: object, path: Path) -> Iterator[tuple[Path, str]]:
    """``ValidateTolerations``."""
    for i, toleration in enumerate(lists(tolerations)):
        if not isinstance(toleration, dict):
            continue
        here = path + (i,)
        key, operator, value = text(toleration, "key"), text(toleration, "operator"), text(toleration, "value")
        effect = text(toleration, "effect")
        if key is None or operator is None or value is None or effect is None:
            continue
        for message in is_qualified_name(key) if key else ():
            yield here + ("key",), invalid(key, message)
        if not key and operator != "Exists":
            yield here + ("operator",), invalid(operator, "operator must be Exists when `key` is empty, which means "
                                                          '"match all values and all keys"')
        if toleration.get("tolerationSeconds") is not None and effect != "NoExecute":
            yield here + ("effect",), invalid(effect, "effect must be 'NoExecute' when `tolerationSeconds` is set")
        if operator in ("Equal", ""):
            errors = is_label_value(value)
            if errors:
                yield here + ("value",), invalid(value, ";".join(errors))
        elif operator == "Exists":
            if value:
                yield here + ("value",), invalid(value, "value must be empty when `operator` is 'Exists'")
        elif operator in ("Lt", "Gt"):  # AllowTaintTolerationComparisonOperators is off
            yield here + ("operator",), not_supported(operator, ("Equal", "Exists", "Lt", "Gt"))
        else:
            yield here + ("operator",), not_supported(operator, ("Equal", "Exists"))
        if effect and effect not in EFFECTS:
            yield here + ("effect",), not_supported(effect, EFFECTS)


def _node_affinity(affinity: object, path: Path) -> Iterator[tuple[Path, str]]:
    """``validateNodeAffinity``: required terms refuse invalid label values, preferred ones allow them."""
    if not isinstance(affinity, dict):
        return
    required_terms = affinity.get("requiredDuringSchedulingIgnoredDuringExecution")
    if isinstance(required_terms, dict):
        at = path + ("requiredDuringSchedulingIgnoredDuringExecution", "nodeSelectorTerms")
        terms = lists(required_terms.get("nodeSelectorTerms"))
        if not terms:
            yield at, required("must have at least one node selector term")
        for i, term in enumerate(terms):
            yield from _node_term(term, at + (i,), check_values=True)
    at = path + ("preferredDuringSchedulingIgnoredDuringExecution",)
    for i, term in enumerate(lists(affinity.get("preferredDuringSchedulingIgnoredDuringExecution"))):
        if not isinstance(term, dict):
            continue
        yield from _weight(term, at + (i,))
        yield from _node_term(term.get("preference"), at + (i, "preference"), check_values=False)


def _weight(term: dict, path: Path) -> Iterator[tuple[Path, str]]:
    weight = term.get("weight")
    if is_int(weight) and not 1 <= weight <= 100:
        yield path + ("weight",), invalid(weight, "must be in the range 1-100")


def _node_term(term: object, path: Path, check_values: bool) -> Iterator[tuple[Path, str]]:
    """``ValidateNodeSelectorTerm``."""
    if not isinstance(term, dict):
        return
    for j, requirement in enumerate(lists(term.get("matchExpressions"))):
        if isinstance(requirement, dict):
            yield from selector_requirement(requirement, path + ("matchExpressions", j), node=True, values=check_values)
    for j, requirement in enumerate(lists(term.get("matchFields"))):
        if not isinstance(requirement, dict):
            continue
        here = path + ("matchFields", j)
        operator, values = requirement.get("operator"), lists(requirement.get("values"))
        if operator in ("In", "NotIn"):
            if len(values) != 1:
                yield here + ("values",), required(
                    "must be only one value when `operator` is 'In' or 'NotIn' for node field selector")
        elif isinstance(operator, str):
            yield here + ("operator",), invalid(operator, "not a valid selector operator")
        key = requirement.get("key")
        if key != "metadata.name" and isinstance(key, str):
            yield here + ("key",), invalid(key, "not a valid field selector key")
        elif key == "metadata.name":
            for k, value in enumerate(values):
                if isinstance(value, str):
                    for message in name_is_dns_subdomain(value):
                        yield here + ("values", k), invalid(value, message)


def _pod_affinity(affinity: object, path: Path) -> Iterator[tuple[Path, str]]:
    """``validatePodAffinity`` / ``validatePodAntiAffinity``."""
    if not isinstance(affinity, dict):
        return
    at = path + ("requiredDuringSchedulingIgnoredDuringExecution",)
    for i, term in enumerate(lists(affinity.get("requiredDuringSchedulingIgnoredDuringExecution"))):
        yield from _pod_term(term, at + (i,))
    at = path + ("preferredDuringSchedulingIgnoredDuringExecution",)
    for i, term in enumerate(lists(affinity.get("preferredDuringSchedulingIgnoredDuringExecution"))):
        if isinstance(term, dict):
            yield from _weight(term, at + (i,))
            yield from _pod_term(term.get("podAffinityTerm"), at + (i, "podAffinityTerm"))


def _pod_term(term: object, path: Path) -> Iterator[tuple[Path, str]]:
    """``validatePodAffinityTerm`` (matchLabelKeys and mismatchLabelKeys are not checked)."""
    if not isinstance(term, dict):
        return
    yield from validate_label_selector(term.get("labelSelector"), path + ("labelSelector",))
    yield from validate_label_selector(term.get("namespaceSelector"), path + ("namespaceSelector",))
    for j, namespace in enumerate(lists(term.get("namespaces"))):
        if isinstance(namespace, str):
            for message in is_dns1123_label(namespace):
                yield path + ("namespaces", j), invalid(namespace, message)
    key = text(term, "topologyKey")
    if key == "":
        yield path + ("topologyKey",), required("can not be empty")
    elif key is not None:
        for message in is_qualified_name(key):
            yield path + ("topologyKey",), invalid(key, message)


def _spread(constraints: object, path: Path) -> Iterator[tuple[Path, str]]:
    """``validateTopologySpreadConstraints`` (matchLabelKeys are not checked)."""
    items = [c if isinstance(c, dict) else {} for c in lists(constraints)]
    for i, constraint in enumerate(items):
        here = path + (i,)
        skew = constraint.get("maxSkew")
        if is_int(skew) and skew <= 0:
            yield here + ("maxSkew",), invalid(skew, "must be greater than zero")
        key, when = text(constraint, "topologyKey"), text(constraint, "whenUnsatisfiable")
        if key == "":
            yield here + ("topologyKey",), required("can not be empty")
        if when is not None and when not in WHEN_UNSATISFIABLE:
            yield here + ("whenUnsatisfiable",), not_supported(when, WHEN_UNSATISFIABLE)
        if key is not None and when is not None and any(
                c.get("topologyKey") == key and c.get("whenUnsatisfiable") == when for c in items[i + 1:]):
            yield here, duplicate(f"{{{key}, {when}}}")
        domains = constraint.get("minDomains")
        if is_int(domains):
            if domains <= 0:
                yield here + ("minDomains",), invalid(domains, "must be greater than zero")
            if when != "DoNotSchedule":
                yield here + ("minDomains",), invalid(domains, f"can only use minDomains if "
                                                               f"whenUnsatisfiable=DoNotSchedule, not {when}")
        for policy in ("nodeAffinityPolicy", "nodeTaintsPolicy"):
            value = constraint.get(policy)
            if isinstance(value, str) and value not in ("Honor", "Ignore"):
                yield here + (policy,), not_supported(value, ("Honor", "Ignore"))
        yield from validate_label_selector(constraint.get("labelSelector"), here + ("labelSelector",))
