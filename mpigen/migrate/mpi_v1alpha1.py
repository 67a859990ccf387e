"""MPIJob ``kubeflow.org/v1alpha1`` -> ``kubeflow.org/v2beta1`` (mpi-operator v0.8.2).

The old shape (mpi-operator ``pkg/apis/kubeflow/v1alpha1/types.go``, unchanged from v0.2.0 to
v0.2.3): one pod ``template`` for launcher and workers alike, and the size of the job given as
``gpus`` or ``processingUnits`` (a total, divided into workers by the operator) or as ``replicas``
(workers; the GPUs per worker then come from the template's limit), plus ``gpusPerNode``,
``processingUnitsPerNode``, ``processingResourceType``, ``slotsPerWorker``, ``launcherOnMaster``,
``backoffLimit`` and ``activeDeadlineSeconds``.

What the v1alpha1 controller did with them (``pkg/controllers/v1alpha1/mpi_job_controller.go``,
v0.2.3), and so what the v2beta1 job gets:

- Workers and units per worker, ``allocateProcessingUnits``: with ``gpus`` (or
  ``processingUnits``) = *total* and the per-node count *n* (the spec's ``gpusPerNode`` /
  ``processingUnitsPerNode``, else the operator's ``--gpus-per-node`` /
  ``--processing-units-per-node`` flag, default 1): *total* < *n* gives 1 worker with *total*
  units; a multiple of *n* gives *total*/*n* workers with *n* units each; anything else was
  refused by the operator ("not a multiple"), and is refused here. Both fields at once were
  refused too. With ``replicas``: that many workers, the units per worker read from
  ``containers[0]``'s limit of the resource type. With none: no workers.
- The resource type: ``processingResourceType`` (else the ``--processing-resource-type`` flag,
  default ``nvidia.com/gpu``); anything but ``nvidia.com/gpu`` and ``cpu`` fell back to
  ``nvidia.com/gpu`` (``convertProcessingResourceType``). The worker's ``containers[0]`` got that
  limit set to the units per worker (``newWorker``).
- Slots (``newConfigMap``): ``slotsPerWorker``, else the units per worker when positive, else 1.
- The worker ran ``sleep 365d`` (ranks were started with ``kubectl exec``): v2beta1 starts them
  over SSH and runs ``/usr/sbin/sshd -De`` when the worker sets no command, so the command and
  args are removed.
- The launcher (``newLauncher``) was the same template with ``containers[0]``'s resources
  removed, restart policy ``Never`` if the template said so, else ``OnFailure``; with
  ``launcherOnMaster``, the toleration and required node affinity for
  ``node-role.kubernetes.io/master`` replaced the template's.
- ``backoffLimit`` and ``activeDeadlineSeconds`` went to the launcher Job: v2beta1 reads them
  from ``runPolicy``. When the launcher finished the workers were scaled to 0 (``syncHandler``:
  ``if done { workerReplicas = 0 }``): ``runPolicy.cleanPodPolicy: All`` does the same.
"""

from __future__ import annotations

import copy
from typing import Any

from ..operator.quantity import Quantity, QuantityError
from .common import (Change, LegacyFlags, added, dropped, kube_batch_templates, lossy, moved, object_shell,
                     ordered_run_policy, refused, unknown_spec_fields)

TARGET = "kubeflow.org/v2beta1"
SOURCE = "kubeflow.org/v1alpha1"
FIELDS = ("gpus", "gpusPerNode", "processingUnits", "processingUnitsPerNode", "processingResourceType",
          "slotsPerWorker", "launcherOnMaster", "backoffLimit", "activeDeadlineSeconds", "replicas", "template")
GPU, CPU = "nvidia.com/gpu", "cpu"
FLAG_DEFAULT_PER_NODE = 1  # --gpus-per-node and --processing-units-per-node (cmd/mpi-operator.v1alpha1/main.go)
MASTER_LABEL = "node-role.kubernetes.io/master"  # LabelNodeRoleMaster


def launcher_on_master(pod: dict[str, Any], at: tuple, changes: list[Change]) -> None:
    """``launcherOnMaster: true``: the launcher's tolerations and affinity become the old operator's."""
    pod["tolerations"] = [{"key": MASTER_LABEL, "effect": "NoSchedule"}]
    pod["affinity"] = {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {
        "nodeSelectorTerms": [{"matchExpressions": [{"key": MASTER_LABEL, "operator": "Exists"}]}]}}}
    changes.append(moved(at, ("spec", "mpiReplicaSpecs", "Launcher", "template", "spec", "affinity")))
    changes.append(lossy(at, f"launcherOnMaster became a toleration and a required node affinity for "
                         f"{MASTER_LABEL}, as the old operator set them; Kubernetes 1.24 and later no longer "
                         "label control-plane nodes with it (node-role.kubernetes.io/control-plane instead): "
                         "change the key, or remove both to let the launcher run anywhere"))


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _as_int64(value: Any) -> int:
    """``Quantity.AsInt64``: the integer value, 0 when the quantity is not a whole number."""
    try:
        q = Quantity.parse(value)
        whole = q.value()
        return whole if Quantity.parse(str(whole)) == q else 0
    except (QuantityError, OverflowError, ValueError):
        return 0


def allocate(spec: dict[str, Any], flags: LegacyFlags, resource: str, changes: list[Change]) -> tuple[int, int] | None:
    """``allocateProcessingUnits``: (workers, units per worker), or None (refused, reason in changes)."""
    gpus, units = spec.get("gpus"), spec.get("processingUnits")
    if gpus is not None and units is not None:
        changes.append(refused(("spec", "processingUnits"), "gpus and processingUnits are both set; the old "
                               "operator refused the job (\"Cannot specify both GPUs and ProcessingUnits\"): "
                               "keep one of them"))
        return None
    if gpus is not None or units is not None:
        field, total = ("gpus", gpus) if gpus is not None else ("processingUnits", units)
        per_field = "gpusPerNode" if field == "gpus" else "processingUnitsPerNode"
        flag = "--gpus-per-node" if field == "gpus" else "--processing-units-per-node"
        given = flags.gpus_per_node if field == "gpus" else flags.processing_units_per_node
        per_node = spec.get(per_field)
        if _int(total) is None or total < 0 or (per_node is not None and (_int(per_node) is None or per_node < 0)):
            changes.append(refused(("spec", field), f"{field} and {per_field} must be non-negative integers"))
            return None
        if per_node is None:
            per_node = given if given is not None else FLAG_DEFAULT_PER_NODE
            if given is None and total > per_node:
                changes.append(lossy(("spec", field), f"{field}: {total} was divided by the operator's {flag} "
                                     f"flag, which the manifest does not show; mpigen assumed its default, "
                                     f"{per_node}: {total} workers with {per_node} {resource} each. If your "
                                     f"operator ran with another value, run again with {flag} N"))
        if total < per_node:
            return 1, total
        if per_node == 0:
            changes.append(refused(("spec", per_field), f"{per_field} is 0: the old operator divided {field} by it "
                                   "and crashed; set the number per node"))
            return None
        if total % per_node:
            changes.append(refused(("spec", field), f"{field}: {total} is not a multiple of {per_field} "
                                   f"({per_node}); the old operator refused the job (\"specified #{field} is not "
                                   f"a multiple\"): choose the workers and the {resource} per worker yourself "
                                   "(spec.mpiReplicaSpecs.Worker.replicas and its limit)"))
            return None
        return total // per_node, per_node
    if spec.get("replicas") is not None:
        workers = _int(spec["replicas"])
        if workers is None or workers < 0:
            changes.append(refused(("spec", "replicas"), "replicas must be a non-negative integer"))
            return None
        limits = _limits(spec.get("template"))
        return workers, _as_int64(limits[resource]) if resource in limits else 0
    return 0, 0


def _limits(template: Any) -> dict[str, Any]:
    pod = template.get("spec") if isinstance(template, dict) else None
    first = pod.get("containers") if isinstance(pod, dict) else None
    first = first[0] if isinstance(first, list) and first and isinstance(first[0], dict) else {}
    limits = (first.get("resources") or {}).get("limits") if isinstance(first.get("resources"), dict) else None
    return limits if isinstance(limits, dict) else {}


def migrate(old: dict[str, Any], flags: LegacyFlags = LegacyFlags()) -> tuple[dict[str, Any] | None, list[Change]]:
    """One v1alpha1 MPIJob -> the v2beta1 MPIJob and the changes made (see the module docstring)."""
    spec = old.get("spec")
    if not isinstance(spec, dict):
        return None, [refused(("spec",) if "spec" in old else (), f"MPIJob {SOURCE} has no spec to migrate")]
    template = spec.get("template")
    pod = template.get("spec") if isinstance(template, dict) else None
    if not isinstance(pod, dict) or not isinstance(pod.get("containers"), list) or not pod["containers"] \
            or not all(isinstance(c, dict) for c in pod["containers"]):
        return None, [refused(("spec", "template"), "spec.template.spec.containers is missing or empty: the old "
                              "operator had nothing to run")]
    changes: list[Change] = []
    new = object_shell(old, TARGET, changes)
    changes += unknown_spec_fields(spec, FIELDS, f"MPIJob {SOURCE}")
    resource = spec.get("processingResourceType") or flags.processing_resource_type or GPU
    if resource not in (GPU, CPU):
        changes.append(lossy(("spec", "processingResourceType"), f"processingResourceType {resource!r}: the old "
                             f"operator used {GPU} for any type but {GPU} and cpu, and so does the migration"))
        resource = GPU
    allocation = allocate(spec, flags, resource, changes)
    if allocation is None:
        return None, changes
    workers, units = allocation
    for key in ("gpus", "processingUnits", "replicas"):
        if key in spec:
            changes.append(moved(("spec", key), ("spec", "mpiReplicaSpecs", "Worker", "replicas"),
                                 note=f": {workers} workers with {units} {resource} each"))
    for key in ("gpusPerNode", "processingUnitsPerNode", "processingResourceType"):
        if key in spec:
            changes.append(dropped(("spec", key), "used to divide the job into workers; the Worker's replicas "
                                   "and resource limit now say it"))
    slots = spec["slotsPerWorker"] if "slotsPerWorker" in spec else (units if units > 0 else 1)
    if "slotsPerWorker" not in spec:
        changes.append(added(("spec",), ("spec", "slotsPerWorker"), slots,
                             "the old operator's slots: the units per worker, else 1 (v2beta1 defaults to 1)"))
    policy: dict[str, Any] = {"cleanPodPolicy": "All"}
    changes.append(added(("spec",), ("spec", "runPolicy", "cleanPodPolicy"), "All",
                         "the old operator scaled the workers to 0 when the launcher finished"))
    for key in ("backoffLimit", "activeDeadlineSeconds"):
        if key in spec:
            policy[key] = spec[key]
            changes.append(moved(("spec", key), ("spec", "runPolicy", key)))
    launcher = _launcher(template, spec, changes)
    replica_specs: dict[str, Any] = {"Launcher": launcher}
    if workers > 0:
        replica_specs["Worker"] = _worker(template, workers, units, resource, changes)
    else:
        changes.append(lossy(("spec",), "neither gpus, processingUnits nor replicas: the old operator started no "
                             "workers, and the MPIJob gets no Worker; add spec.mpiReplicaSpecs.Worker"))
    changes.append(moved(("spec", "template"), ("spec", "mpiReplicaSpecs"), note=" Launcher and Worker"))
    changes.append(_ssh_transport())
    changes += kube_batch_templates({"Launcher": launcher, "Worker": replica_specs.get("Worker")},
                                    ("spec", "mpiReplicaSpecs"), "MPIJob", "mpi-operator v0.8.2")
    new["spec"] = {"slotsPerWorker": slots, "runPolicy": ordered_run_policy(policy), "mpiReplicaSpecs": replica_specs}
    return new, changes


def _launcher(template: dict[str, Any], spec: dict[str, Any], changes: list[Change]) -> dict[str, Any]:
    launcher = copy.deepcopy(template)
    pod = launcher["spec"]
    restart = "Never" if pod.get("restartPolicy") == "Never" else "OnFailure"
    if "restartPolicy" in pod:
        del pod["restartPolicy"]
        changes.append(moved(("spec", "template", "spec", "restartPolicy"),
                             ("spec", "mpiReplicaSpecs", "Launcher", "restartPolicy"), note=f": {restart}"))
    first = pod["containers"][0]
    if "resources" in first:
        del first["resources"]
        changes.append(dropped(("spec", "template", "spec", "containers", 0, "resources"),
                               "the old operator ran the launcher without resources (kept for the Worker)"))
    if spec.get("launcherOnMaster") is True:
        launcher_on_master(pod, ("spec", "launcherOnMaster"), changes)
    elif "launcherOnMaster" in spec:
        changes.append(dropped(("spec", "launcherOnMaster"), "false is the default"))
    return {"replicas": 1, "restartPolicy": restart, "template": launcher}


def _worker(template: dict[str, Any], workers: int, units: int, resource: str,
            changes: list[Change]) -> dict[str, Any]:
    worker = copy.deepcopy(template)
    pod = worker["spec"]
    pod.pop("restartPolicy", None)  # the old StatefulSet forced Always; v2beta1 takes the replica's
    first = pod["containers"][0]
    for key in ("command", "args"):
        if key in first:
            del first[key]
            changes.append(dropped(("spec", "template", "spec", "containers", 0, key), "the old operator ran "
                                   "`sleep 365d` in the workers; v2beta1 runs sshd when the worker sets no "
                                   "command (kept for the Launcher)"))
    if units > 0:
        if not isinstance(first.get("resources"), dict):
            first["resources"] = {}  # null or not a map: the old operator wrote its own limits
        resources = first["resources"]
        if not isinstance(resources.get("limits"), dict):
            resources["limits"] = {}
        limits = resources["limits"]
        if limits.get(resource) not in (None, units, str(units)):
            changes.append(lossy(("spec", "template", "spec", "containers", 0, "resources", "limits", resource),
                                 f"the old operator replaced this limit with {units} (the units per worker); "
                                 "so does the migration"))
        limits[resource] = units
    return {"replicas": workers, "template": worker}


def _ssh_transport() -> Change:
    return lossy(("apiVersion",), "the old operator started the ranks with kubectl exec; v2beta1 starts them over "
                 "SSH: the worker image needs sshd (the operator runs /usr/sbin/sshd -De when the worker sets no "
                 "command) and the launcher image an SSH client; the operator mounts the keys at "
                 "spec.sshAuthMountPath (default /root/.ssh)")

