"""TFJob and PyTorchJob ``kubeflow.org/v1alpha2``, ``v1beta1``, ``v1beta2`` -> ``kubeflow.org/v1``.

The old shapes, from the operators' own types:

- tf-operator ``pkg/apis/tensorflow/v1alpha2/types.go`` (v0.3.0), ``v1beta1/types.go`` (v0.4.0) and
  pytorch-operator ``pkg/apis/pytorch/v1alpha2`` and ``v1beta1`` (v0.4.0): ``cleanPodPolicy``,
  ``ttlSecondsAfterFinished`` and the replica specs (``tfReplicaSpecs`` / ``pytorchReplicaSpecs``:
  ``replicas``, ``template``, ``restartPolicy``).
- ``v1beta2`` (tf-operator v0.5.3, pytorch-operator v0.6.0) adds ``activeDeadlineSeconds`` and
  ``backoffLimit``.

training-operator v1.9.4 (``pkg/apis/kubeflow.org/v1/tensorflow_types.go``, ``pytorch_types.go``,
``common_types.go``) keeps the replica specs as they were and gathers the job-level policies in
``spec.runPolicy``. Replica type names, container names (``tensorflow``, ``pytorch``), default
ports and restart policies are the same. One default changed: the old TFJob defaulted
``cleanPodPolicy`` to ``Running`` (``SetDefaults_TFJob`` in every old ``defaults.go``), v1.9.4 to
``None`` (``tensorflow_defaults.go``), so a TFJob that did not set it gets ``Running`` written
out. PyTorchJob defaulted to ``None`` before and after.

``kubeflow.org/v1alpha1`` (tf-operator v0.1, a list of ``replicaSpecs`` with ``tfReplicaType``,
``terminationPolicy``...) has another shape altogether and is not migrated.
"""

from __future__ import annotations

import copy
from typing import Any

from ..diagnostics import Severity
from .common import (Change, added, dropped, kube_batch_templates, lossy, moved, object_shell,
                     ordered_run_policy, refused, unknown_spec_fields)

TARGET = "kubeflow.org/v1"
REPLICAS_FIELD = {"TFJob": "tfReplicaSpecs", "PyTorchJob": "pytorchReplicaSpecs"}
OLD_DEFAULT_CLEAN_POD_POLICY = {"TFJob": "Running", "PyTorchJob": "None"}
NEW_DEFAULT_CLEAN_POD_POLICY = "None"  # training-operator v1.9.4 SetDefaults_TFJob / SetDefaults_PyTorchJob
POLICY_FIELDS = {
    "kubeflow.org/v1alpha2": ("cleanPodPolicy", "ttlSecondsAfterFinished"),
    "kubeflow.org/v1beta1": ("cleanPodPolicy", "ttlSecondsAfterFinished"),
    "kubeflow.org/v1beta2": ("activeDeadlineSeconds", "backoffLimit", "cleanPodPolicy", "ttlSecondsAfterFinished"),
}
REPLICA_FIELDS = ("replicas", "template", "restartPolicy")
SOURCES = tuple(POLICY_FIELDS)


def handles(obj: dict[str, Any]) -> bool:
    return obj.get("kind") in REPLICAS_FIELD and obj.get("apiVersion") in (*SOURCES, "kubeflow.org/v1alpha1")


def migrate(old: dict[str, Any]) -> tuple[dict[str, Any] | None, list[Change]]:
    """One old TFJob or PyTorchJob -> the training-operator v1.9.4 object and the changes made."""
    kind, api = old["kind"], old["apiVersion"]
    if api == "kubeflow.org/v1alpha1":
        return None, [refused(("apiVersion",), f"{kind} {api} (a list of replicaSpecs with "
                              "tfReplicaType/terminationPolicy) has another shape: rewrite it by hand as "
                              f"{kind} {TARGET}, or as an mpigen spec")]
    changes: list[Change] = []
    new = object_shell(old, TARGET, changes)
    spec = old.get("spec")
    if not isinstance(spec, dict):
        return None, [refused(("spec",) if "spec" in old else (), f"{kind} {api} has no spec to migrate")]
    field = REPLICAS_FIELD[kind]
    known = POLICY_FIELDS[api] + (field,)
    changes += unknown_spec_fields(spec, known, f"{kind} {api}")
    policy: dict[str, Any] = {}
    for key in POLICY_FIELDS[api]:
        if key in spec:
            policy[key] = copy.deepcopy(spec[key])
            changes.append(moved(("spec", key), ("spec", "runPolicy", key)))
    if "cleanPodPolicy" not in policy and OLD_DEFAULT_CLEAN_POD_POLICY[kind] != NEW_DEFAULT_CLEAN_POD_POLICY:
        policy["cleanPodPolicy"] = OLD_DEFAULT_CLEAN_POD_POLICY[kind]
        changes.append(added(("spec",), ("spec", "runPolicy", "cleanPodPolicy"), policy["cleanPodPolicy"],
                             f"the {kind} {api} default (training-operator v1.9.4 defaults to "
                             f"{NEW_DEFAULT_CLEAN_POD_POLICY}, which would leave finished pods running)"))
    new_spec: dict[str, Any] = {}
    if policy:
        new_spec["runPolicy"] = ordered_run_policy(policy)
    replicas = spec.get(field)
    if isinstance(replicas, dict):
        new_replicas: dict[str, Any] = {}
        for name, replica in replicas.items():
            if isinstance(replica, dict):
                for key in replica:
                    if key not in REPLICA_FIELDS:
                        changes.append(dropped(("spec", field, name, key), f"not a field of a {kind} {api} "
                                               "replica spec (the old operator ignored it)", Severity.WARNING))
                new_replicas[name] = {k: copy.deepcopy(v) for k, v in replica.items() if k in REPLICA_FIELDS}
            else:
                new_replicas[name] = copy.deepcopy(replica)
        new_spec[field] = new_replicas
        changes += kube_batch_templates(replicas, ("spec", field), kind, "training-operator v1.9.4")
    elif field in spec:
        new_spec[field] = copy.deepcopy(replicas)
    else:
        changes.append(lossy(("spec",), f"spec.{field} is missing: the {kind} runs nothing"))
    new["spec"] = new_spec
    return new, changes
