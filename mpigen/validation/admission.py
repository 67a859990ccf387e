"""What the API server and the operators accept: an object as the server stores it (nulls dropped),
as its checks see it (named, and filled by the mutating webhooks: :func:`admitted`), its shipped
schema, and whether the API server refuses it for want of a name (the operators' admission rules,
which refuse a job before anything is created, are :mod:`mpigen.lint.admission`).

Used by :mod:`.engine`, for ``mpigen validate`` and for the jobs ``podgroup`` and ``explain``
read (:func:`mpigen.validation.find_jobs`): one verdict on a job, whichever command reads it.
"""

from __future__ import annotations

from typing import Any

from ..names import JOBSET_API
from ..spec.schema import load_schema, local_ref
from ..spec.schema import schema_name as schema_for

Path = tuple[str | int, ...]


def prune_nulls(value: Any) -> Any:
    """What the API server stores: mapping entries whose value is null are dropped."""
    if isinstance(value, dict):
        return {k: prune_nulls(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [prune_nulls(v) for v in value]
    return value


def unknown_nulls(obj: Any, schema: str) -> list[tuple[Path, list[str]]]:
    """(path, the fields known there) of every mapping entry of ``obj`` whose value is null and whose
    key the schema does not declare where it stands: what ``prune_nulls`` drops silently, as
    client-side ``kubectl apply`` does, and what every other way of applying refuses (a strict
    decoder's "unknown field", server-side apply's "field not declared in schema"). A null below a
    non-null unknown field is not looked at (the schema reports that field)."""
    root = load_schema(schema)
    found: dict[Path, list[str]] = {}
    _nulls(obj, [root], root, (), found)
    return list(found.items())


def _nulls(value: Any, schemas: list[Any], root: dict[str, Any], path: Path, found: dict[Path, list[str]]) -> None:
    branches = [b for s in schemas for b in _branches(s, root)]
    if isinstance(value, dict):
        for key, sub in value.items():
            known = _declared(branches, key)
            if known is None:  # an open object (preserve-unknown-fields): anything goes below
                continue
            if not known:
                if sub is None:
                    found.setdefault(path + (key,), sorted({n for b in branches for n in b.get("properties", {})}))
                continue
            if sub is not None:
                _nulls(sub, known, root, path + (key,), found)
    elif isinstance(value, list):
        items = [b["items"] for b in branches if isinstance(b.get("items"), dict)]
        if items:
            for i, item in enumerate(value):
                _nulls(item, items, root, path + (i,), found)


def _branches(schema: Any, root: dict[str, Any]) -> list[dict[str, Any]]:
    """The schema and its allOf/anyOf/oneOf alternatives, local ``$ref``s followed."""
    if not isinstance(schema, dict):
        return []
    target = local_ref(schema, root)
    if target is not None:
        return _branches(target, root)
    out = [schema]
    for keyword in ("allOf", "anyOf", "oneOf"):
        for sub in schema.get(keyword) or ():
            out += _branches(sub, root)
    return out


def _declared(branches: list[dict[str, Any]], key: str) -> list[Any] | None:
    """The schemas of ``key`` in the object schemas among ``branches``: [] when none declares it
    and every one is closed (``additionalProperties: false``), None when one is open."""
    objects = [b for b in branches if "properties" in b or "additionalProperties" in b]
    if not objects:  # a free-form object, or not an object at all (the schema says so)
        return None
    known = []
    for branch in objects:
        extra = branch.get("additionalProperties")
        if key in branch.get("properties", {}):
            known.append(branch["properties"][key])
        elif isinstance(extra, dict):
            known.append(extra)
        elif extra is not False:
            return None
    return known


def name_problems(obj: dict[str, Any]) -> list[tuple[Path, str]]:
    """The API server refuses an object without a name ("resource name may not be empty")."""
    meta = obj.get("metadata")
    if isinstance(meta, dict) and (meta.get("name") or meta.get("generateName")):
        return []
    if isinstance(meta, dict) or "metadata" not in obj:
        return [(("metadata",) if "metadata" in obj else (), "missing required field 'metadata.name': the API "
                 "server refuses an object without a name")]
    return []  # metadata of the wrong type: the schema reports it


GENERATED_SUFFIX = "xxxxx"
"""What stands for the 5 random characters the API server appends to ``metadata.generateName``
(``names.SimpleNameGenerator``, k8s.io/apiserver ``pkg/storage/names``; ``x`` is one of them)."""
MAX_GENERATED_PREFIX = 63 - len(GENERATED_SUFFIX)
"""The generator cuts a longer ``generateName`` to this many characters first."""
JOBSET_RULE_NAME = "failurePolicyRule{}"
"""JobSet v0.12.0's name of an unnamed failure policy rule (``defaultRuleNameFmt``)."""


def admitted(obj: dict[str, Any]) -> tuple[dict[str, Any], bool]:
    """The object as the API server's validation and the validating webhooks receive it, and
    whether its name was generated. ``obj`` itself when nothing changes (it is never modified).

    * A ``metadata.generateName`` without a ``name``: the API server names the object
      (``rest.BeforeCreate``) before it validates it and before any validating webhook runs, with
      the prefix (cut to 58 characters) and 5 random characters (:data:`GENERATED_SUFFIX`).
    * JobSet v0.12.0's mutating webhook (``jobSetWebhook.Default``, ``pkg/webhooks/
      jobset_webhook.go``), which runs before the CRD's schema is checked: an unnamed
      ``failurePolicy.rules[i]`` is ``failurePolicyRule<i>`` (the schema requires a name);
      ``successPolicy`` ``{operator: All}``, ``startupPolicy`` ``{startupPolicyOrder: AnyOrder}``,
      each replicated job's ``completionMode: Indexed`` and pod ``restartPolicy: OnFailure``,
      ``network.enableDNSHostnames`` and ``publishNotReadyAddresses`` true, and each volume claim
      policy's ``retentionPolicy.whenDeleted: Delete``, when not set.

    The other pinned operators' mutating webhooks change nothing a check reads: Kubeflow
    Trainer v2.3.0's TrainJob defaulter only stamps ``runtimePatches[].time`` (now), its runtimes
    have none, and mpi-operator v0.8.2 and the training-operator v1.9.4 have no mutating webhook
    (their defaults are the controllers', applied after admission).
    """
    meta = obj.get("metadata")
    generate = meta.get("generateName") if isinstance(meta, dict) and not meta.get("name") else None
    generated = isinstance(generate, str) and bool(generate)
    jobset = obj.get("apiVersion") == JOBSET_API and obj.get("kind") == "JobSet" and isinstance(obj.get("spec"), dict)
    if not generated and not jobset:
        return obj, False
    import copy

    out = copy.deepcopy(obj)
    if generated:
        out["metadata"]["name"] = generate[:MAX_GENERATED_PREFIX] + GENERATED_SUFFIX
    if jobset:
        _jobset_defaults(out["spec"])
    return out, generated


def _jobset_defaults(spec: dict[str, Any]) -> None:
    """JobSet v0.12.0's ``jobSetWebhook.Default`` on a JobSet's spec, in place (what is not of the
    expected shape is left to the schema to report)."""
    spec.setdefault("successPolicy", {"operator": "All"})
    spec.setdefault("startupPolicy", {"startupPolicyOrder": "AnyOrder"})
    for rjob in _items(spec.get("replicatedJobs")):
        job = rjob.get("template") if isinstance(rjob, dict) else None
        job_spec = job.get("spec") if isinstance(job, dict) else None
        if not isinstance(job_spec, dict):
            continue
        job_spec.setdefault("completionMode", "Indexed")
        pod = job_spec.get("template")
        pod_spec = pod.get("spec") if isinstance(pod, dict) else None
        if isinstance(pod_spec, dict) and pod_spec.get("restartPolicy") in (None, ""):
            pod_spec["restartPolicy"] = "OnFailure"
    network = spec.setdefault("network", {})
    if isinstance(network, dict):
        network.setdefault("enableDNSHostnames", True)
        network.setdefault("publishNotReadyAddresses", True)
    policy = spec.get("failurePolicy")
    rules = policy.get("rules") if isinstance(policy, dict) else None
    for i, rule in enumerate(_items(rules)):
        if isinstance(rule, dict) and rule.get("name") in (None, ""):
            rule["name"] = JOBSET_RULE_NAME.format(i)
    for claim_policy in _items(spec.get("volumeClaimPolicies")):
        if isinstance(claim_policy, dict):
            claim_policy.setdefault("retentionPolicy", {"whenDeleted": "Delete"})


def _items(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []
