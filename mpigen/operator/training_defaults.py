"""PyTorchJob and TFJob kubeflow.org/v1 defaulting, ported from training-operator v1.9.4.

Ports ``SetDefaults_PyTorchJob`` (``pkg/apis/kubeflow.org/v1/pytorch_defaults.go``),
``SetDefaults_TFJob`` (``tensorflow_defaults.go``) and their helpers in
``defaulting_utils.go``, tag **v1.9.4** (the same files as v1.9.0's); constants from
``pytorch_types.go`` / ``tensorflow_types.go``. The generated ``SetObjectDefaults_*`` call nothing else. There is no
defaulting webhook: the operator applies these through ``r.Scheme.Default(job)`` at the top of
every Reconcile, on its in-memory copy (so they decide what it creates, but the stored job is
never changed).

What is filled, on a copy (the input is never modified; pod templates are copied only where a
port is added):

* ``runPolicy.cleanPodPolicy`` ``None`` (``runPolicy`` is a value struct: created if missing);
  an explicit ``""`` is a non-nil pointer in Go and stays;
* replica type keys matched case-insensitively are renamed to the canonical spelling
  (``worker`` -> ``Worker``; PyTorchJob: Master, Worker; TFJob: PS, Worker, Chief, Master,
  Evaluator). A key in another spelling *replaces* a canonical one already present. If two
  non-canonical spellings of one type are present (``worker`` and ``WORKER``), Go renames the
  one its map iteration meets first (random); mpigen takes the first in document order;
* every replica spec: ``replicas`` 1, ``restartPolicy`` (PyTorchJob ``OnFailure``, TFJob
  ``Never``), and the port ``{name: pytorchjob-port, containerPort: 23456}`` /
  ``{name: tfjob-port, containerPort: 2222}`` appended to the container named ``pytorch`` /
  ``tensorflow`` -- or, when there is none, to the FIRST container -- unless it already has a
  port of that name;
* PyTorchJob ``elasticPolicy`` (when present): ``minReplicas``/``maxReplicas`` each default to
  the other, or both to the Worker's replicas; ``nprocPerNode`` ``"auto"`` unless set or
  ``elasticPolicy.nProcPerNode`` is set;
* TFJob ``successPolicy`` ``""`` (a pointer: written out as the empty string).

Where Go panics (a replica spec that is ``null``, a pod template without containers -- the
webhook refuses both -- or an elasticPolicy without min/max and without a Worker) an
:class:`~mpigen.operator.podgroup.OperatorPanicError` is raised.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mpigen.operator.podgroup import OperatorPanicError

PYTORCHJOB = "PyTorchJob"
TFJOB = "TFJob"
CLEAN_POD_POLICY_NONE = "None"
DEFAULT_NPROC_PER_NODE = "auto"
SUCCESS_POLICY_DEFAULT = ""

# kind -> (replica specs key, canonical replica types in Go's order, default container name,
#          default port name, default port, default restart policy)
FRAMEWORKS: dict[str, dict[str, Any]] = {
    PYTORCHJOB: {"key": "pytorchReplicaSpecs", "types": ("Master", "Worker"), "container": "pytorch",
                 "port_name": "pytorchjob-port", "port": 23456, "restart_policy": "OnFailure"},
    TFJOB: {"key": "tfReplicaSpecs", "types": ("PS", "Worker", "Chief", "Master", "Evaluator"),
            "container": "tensorflow", "port_name": "tfjob-port", "port": 2222, "restart_policy": "Never"},
}


def _mapping(value: object) -> dict:
    return dict(value) if isinstance(value, Mapping) else {}


def camel_case_replica_types(specs: Mapping, types: tuple[str, ...]) -> dict:
    """``setTypeNameToCamelCase`` for each canonical type, on a copy of the replica specs map."""
    out = dict(specs)
    for typ in types:
        for key in list(out):
            if isinstance(key, str) and key.lower() == typ.lower() and key != typ:
                out[typ] = out.pop(key)
                break
    return out


def default_container_index(pod_spec: Mapping, name: str) -> int:
    """``getDefaultContainerIndex``: the container called ``name``, else 0."""
    for i, container in enumerate(pod_spec.get("containers") or []):
        if isinstance(container, Mapping) and container.get("name") == name:
            return i
    return 0


def _defaulted_port(pod_spec: Mapping, fw: Mapping, where: str) -> dict:
    """``setPyTorchDefaultPort`` / ``setTensorflowDefaultPort`` on a copy of a pod spec."""
    containers = list(pod_spec.get("containers") or [])
    index = default_container_index(pod_spec, fw["container"])
    if index >= len(containers):
        raise OperatorPanicError(
            f"{where} has no containers: the operator's defaulting indexes containers[0] "
            "(index out of range, the operator would crash; its webhook refuses such a job)")
    container = _mapping(containers[index])
    ports = list(container.get("ports") or [])
    if any(isinstance(p, Mapping) and p.get("name") == fw["port_name"] for p in ports):
        return dict(pod_spec)
    container["ports"] = ports + [{"name": fw["port_name"], "containerPort": fw["port"]}]
    containers[index] = container
    return dict(pod_spec, containers=containers)


def _defaulted_replica(spec: Any, fw: Mapping, where: str) -> dict:
    if not isinstance(spec, Mapping):
        raise OperatorPanicError(
            f"{where} is null: the operator's defaulting dereferences it (nil pointer dereference, "
            "the operator would crash; its webhook refuses such a job)")
    out = dict(spec)
    if out.get("replicas") is None:
        out["replicas"] = 1
    if not out.get("restartPolicy"):
        out["restartPolicy"] = fw["restart_policy"]
    template = _mapping(out.get("template"))
    template["spec"] = _defaulted_port(_mapping(template.get("spec")), fw, where + ".template.spec")
    out["template"] = template
    return out


def set_elastic_policy(spec: dict) -> None:
    """``setElasticPolicy`` on a (copied) PyTorchJob spec, in place."""
    policy = spec.get("elasticPolicy")
    if not isinstance(policy, Mapping):
        return
    policy = spec["elasticPolicy"] = dict(policy)
    has_max, has_min = policy.get("maxReplicas") is not None, policy.get("minReplicas") is not None
    if has_max and has_min:
        return
    if has_max:
        policy["minReplicas"] = policy["maxReplicas"]
    elif has_min:
        policy["maxReplicas"] = policy["minReplicas"]
    else:
        worker = (spec.get("pytorchReplicaSpecs") or {}).get("Worker")
        if not isinstance(worker, Mapping):
            raise OperatorPanicError(
                "elasticPolicy without minReplicas/maxReplicas and no Worker: setElasticPolicy "
                "dereferences the missing Worker (nil pointer dereference, the operator would crash)")
        policy["minReplicas"] = policy["maxReplicas"] = worker.get("replicas")


def set_default_nproc_per_node(spec: dict) -> None:
    """``setDefaultNprocPerNode`` on a (copied) PyTorchJob spec, in place."""
    policy = spec.get("elasticPolicy")
    if policy is None or (isinstance(policy, Mapping) and policy.get("nProcPerNode") is None):
        if spec.get("nprocPerNode") is None:
            spec["nprocPerNode"] = DEFAULT_NPROC_PER_NODE


def set_defaults(job: Mapping) -> dict:
    """``SetDefaults_PyTorchJob`` or ``SetDefaults_TFJob`` (by ``kind``) on a copy of ``job``.

    ``spec`` and ``spec.runPolicy`` are created if missing (value structs in Go); the replica
    specs map is never created. Raises ``ValueError`` for another kind.
    """
    kind = job.get("kind")
    if kind not in FRAMEWORKS:
        raise ValueError(f"set_defaults handles PyTorchJob and TFJob, not {kind!r}")
    fw = FRAMEWORKS[kind]
    out = dict(job)
    spec = out["spec"] = _mapping(job.get("spec"))
    run_policy = spec["runPolicy"] = _mapping(spec.get("runPolicy"))
    if run_policy.get("cleanPodPolicy") is None:
        run_policy["cleanPodPolicy"] = CLEAN_POD_POLICY_NONE
    if kind == TFJOB and spec.get("successPolicy") is None:
        spec["successPolicy"] = SUCCESS_POLICY_DEFAULT
    specs = spec.get(fw["key"])
    if isinstance(specs, Mapping):
        specs = camel_case_replica_types(specs, fw["types"])
        spec[fw["key"]] = {rtype: _defaulted_replica(replica, fw, f"spec.{fw['key']}.{rtype}")
                           for rtype, replica in specs.items()}
    if kind == PYTORCHJOB:
        set_elastic_policy(spec)
        set_default_nproc_per_node(spec)
    return out
