"""TrainJobs and training runtimes among loaded documents: which runtime a TrainJob runs on, and
whether both have the shape the runtime framework reads.

A runtime is found as the TrainJob controller looks it up (``TrainJobReconciler.Reconcile`` and
``TrainingRuntime.NewObjects``, ``pkg/controller/trainjob_controller.go``,
``pkg/runtime/core/trainingruntime.go``, Trainer v2.3.0): ``spec.runtimeRef`` names the group
(default ``trainer.kubeflow.org``: anything else is an "unsupported runtime"), the kind (default
``ClusterTrainingRuntime``; or ``TrainingRuntime``, which must be in the TrainJob's namespace) and
the name. Documents are taken as ``kubectl get -o yaml`` prints them: objects, ``kind: List`` (or
``*List``) with ``items``, or separate documents.

The runtimes themselves are read by :mod:`mpigen.load.trainer_runtimes` (the cluster file's, else
Trainer's default runtimes), which finds a TrainJob's as above (:meth:`~mpigen.load.trainer_runtimes.Runtimes.find`).

The shape checks (:func:`trainjob_shape`, :func:`runtime_shape`) cover exactly what the port
reads: a field of the wrong JSON type there is reported with its path instead of reaching the
port (the API server's schema would have refused it; the full schema check is ``mpigen
validate``'s).
"""

from __future__ import annotations

from typing import Any

from ..names import CLUSTER_TRAINING_RUNTIME_KIND
from ..operator.podgroup import _parse as parse_quantity
from ..operator.quantity import QuantityError

TRAINER_GROUP = "trainer.kubeflow.org"

Problem = tuple[tuple, str]


def runtime_ref(trainjob: dict[str, Any]) -> tuple[str, str, str]:
    """(apiGroup, kind, name) of a TrainJob's ``spec.runtimeRef`` with the CRD's defaults
    (``trainer.kubeflow.org``, ``ClusterTrainingRuntime``; ``trainjob_types.go`` RuntimeRef); a
    field that is not a string reads as "" (the schema check reports it)."""
    spec = trainjob.get("spec")
    ref = spec.get("runtimeRef") if isinstance(spec, dict) else None
    ref = ref if isinstance(ref, dict) else {}
    group, kind, name = (ref.get("apiGroup") or TRAINER_GROUP, ref.get("kind") or CLUSTER_TRAINING_RUNTIME_KIND,
                         ref.get("name"))
    return (group if isinstance(group, str) else "", kind if isinstance(kind, str) else "",
            name if isinstance(name, str) else "")


def describe_ref(trainjob: dict[str, Any]) -> str:
    group, kind, name = runtime_ref(trainjob)
    return f"{kind} {name}" if group == TRAINER_GROUP else f"{kind}.{group} {name}"


# ------------------------------------------------------------------ shapes


class _Quantity:
    pass


QUANTITY = _Quantity()
_STR_MAP = ("map", str)


def _quantities() -> tuple:
    return ("map", QUANTITY)


_ENV = {"name": str, "value": str, "valueFrom": {
    "fieldRef": {"fieldPath": str}, "resourceFieldRef": {"containerName": str, "resource": str, "divisor": QUANTITY},
    "configMapKeyRef": {"name": str, "key": str, "optional": bool},
    "secretKeyRef": {"name": str, "key": str, "optional": bool}}}
_RESOURCES = {"limits": _quantities(), "requests": _quantities(), "claims": [{"name": str}]}
_CONTAINER = {"name": str, "image": str, "command": [str], "args": [str], "env": [_ENV],
              "ports": [{"name": str, "containerPort": int}], "volumeMounts": [{"name": str, "mountPath": str}],
              "resources": _RESOURCES, "restartPolicy": str}
_META = {"name": str, "namespace": str, "labels": _STR_MAP, "annotations": _STR_MAP}
_POD_SPEC = {"containers": [_CONTAINER], "initContainers": [_CONTAINER], "volumes": [{"name": str}],
             "priorityClassName": str, "resources": _RESOURCES, "overhead": _quantities()}
_REPLICATED_JOB = {"name": str, "replicas": int, "template": {
    "metadata": _META, "spec": {"parallelism": int, "template": {"metadata": _META, "spec": _POD_SPEC}}}}
_RUNTIME = {"metadata": _META, "spec": {
    "mlPolicy": {"numNodes": int, "torch": {"envInjection": {"targets": [{"jobName": str, "containerNames": [str]}]}},
                 "mpi": {"numProcPerNode": int, "mpiImplementation": str, "sshAuthMountPath": str,
                         "runLauncherAsNode": bool},
                 "jax": {}, "xgboost": {}, "flux": {}},
    "podGroupPolicy": {"coscheduling": {"scheduleTimeoutSeconds": int},
                       "volcano": {"networkTopology": {"mode": str, "highestTierAllowed": int}}},
    "template": {"metadata": _META, "spec": {"replicatedJobs": [_REPLICATED_JOB], "network": {"subdomain": str}}}}}
_PATCH_POD_SPEC = {"containers": [{"name": str, "env": [_ENV], "volumeMounts": [{"name": str, "mountPath": str}]}],
                   "initContainers": [{"name": str, "env": [_ENV],
                                       "volumeMounts": [{"name": str, "mountPath": str}]}],
                   "volumes": [{"name": str}], "nodeSelector": _STR_MAP}
_INITIALIZER = {"storageUri": str, "env": [_ENV], "secretRef": {"name": str}}
_TRAINJOB = {"metadata": _META, "spec": {
    "runtimeRef": {"name": str, "apiGroup": str, "kind": str}, "suspend": bool,
    "trainer": {"image": str, "command": [str], "args": [str], "env": [_ENV], "numNodes": int, "numProcPerNode": int,
                "resourcesPerNode": _RESOURCES},
    "initializer": {"dataset": _INITIALIZER, "model": _INITIALIZER},
    "runtimePatches": [{"manager": str, "trainingRuntimeSpec": {"template": {
        "metadata": {"labels": _STR_MAP, "annotations": _STR_MAP},
        "spec": {"replicatedJobs": [{"name": str, "template": {"metadata": {"labels": _STR_MAP}, "spec": {
            "template": {"metadata": {"labels": _STR_MAP, "annotations": _STR_MAP}, "spec": _PATCH_POD_SPEC}}}}]}}}}]}}
_TYPE_NAMES = {str: "a string", int: "an integer", bool: "true or false"}


def _check(value: Any, schema: Any, path: tuple, out: list[Problem]) -> None:
    if value is None:
        return  # null is "not set" for every field the port reads
    if schema is QUANTITY:
        if isinstance(value, bool) or not isinstance(value, (str, int, float)):
            out.append((path, "expected a quantity (such as 500m, 2 or 16Gi)"))
            return
        try:
            parse_quantity(value)
        except (QuantityError, ValueError) as exc:
            out.append((path, f"quantity {value!r}: {exc}"))
    elif isinstance(schema, tuple):  # ("map", value schema)
        if not isinstance(value, dict):
            out.append((path, "expected a mapping"))
            return
        for key, item in value.items():
            _check(item, schema[1], path + (key,), out)
    elif isinstance(schema, list):
        if not isinstance(value, list):
            out.append((path, "expected a list"))
            return
        for i, item in enumerate(value):
            if item is None and isinstance(schema[0], dict):
                out.append((path + (i,), "expected a mapping"))
            _check(item, schema[0], path + (i,), out)
    elif isinstance(schema, dict):
        if not isinstance(value, dict):
            out.append((path, "expected a mapping"))
            return
        for key, sub in schema.items():
            if key in value:
                _check(value[key], sub, path + (key,), out)
    elif schema is int and (isinstance(value, bool) or not isinstance(value, int)):
        out.append((path, "expected an integer"))
    elif schema is not int and not isinstance(value, schema):
        out.append((path, f"expected {_TYPE_NAMES.get(schema, schema.__name__)}"))


def trainjob_shape(trainjob: dict[str, Any]) -> list[Problem]:
    """Fields of a TrainJob that the port reads and that have the wrong JSON type (or are missing)."""
    out: list[Problem] = []
    _check(trainjob, _TRAINJOB, (), out)
    if not out:
        if not (trainjob.get("metadata") or {}).get("name"):
            out.append((("metadata", "name"), "a TrainJob needs a name"))
        if not isinstance(trainjob.get("spec"), dict):
            out.append((("spec",), "a TrainJob needs a spec"))
        elif not ((trainjob["spec"].get("runtimeRef") or {}).get("name")):
            out.append((("spec", "runtimeRef", "name"), "a TrainJob names its runtime (spec.runtimeRef.name)"))
    return out


def runtime_shape(runtime: dict[str, Any]) -> list[Problem]:
    """Fields of a TrainingRuntime or ClusterTrainingRuntime that the port reads and that have the
    wrong JSON type; every replicated job needs a name and containers with names."""
    out: list[Problem] = []
    _check(runtime, _RUNTIME, (), out)
    if out:
        return out
    rjobs = (((runtime.get("spec") or {}).get("template") or {}).get("spec") or {}).get("replicatedJobs") or []
    for i, rjob in enumerate(rjobs):
        path = ("spec", "template", "spec", "replicatedJobs", i)
        if not rjob.get("name"):
            out.append((path + ("name",), "a replicated job needs a name"))
        pod = ((((rjob.get("template") or {}).get("spec") or {}).get("template") or {}).get("spec") or {})
        for kind in ("containers", "initContainers"):
            for j, container in enumerate(pod.get(kind) or []):
                if not container.get("name"):
                    out.append((path + ("template", "spec", "template", "spec", kind, j, "name"),
                                "a container needs a name"))
    return out
