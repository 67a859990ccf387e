"""MPIJob ``kubeflow.org/v1alpha2`` and ``kubeflow.org/v1`` -> ``kubeflow.org/v2beta1`` (mpi-operator v0.8.2).

The old shapes:

- ``v1alpha2`` (mpi-operator ``pkg/apis/kubeflow/v1alpha2/types.go``): ``slotsPerWorker``,
  ``backoffLimit``, ``activeDeadlineSeconds``, ``cleanPodPolicy``, ``mpiReplicaSpecs``
  (``Launcher``, ``Worker``: ``replicas``, ``template``, ``restartPolicy``), ``mainContainer`` and
  ``runPolicy`` (v0.2.x), ``mpiDistribution`` (``OpenMPI``, ``IntelMPI``, ``MPICH``; v0.3.0);
  ``launcherOnMaster`` before v0.2.0.
- ``v1``: training-operator's MPIJob (``pkg/apis/kubeflow.org/v1/mpi_types.go``, v1.9.4) and
  mpi-operator's own v1 (v0.2.3, v0.3.0), the same fields: ``slotsPerWorker``, ``cleanPodPolicy``
  (deprecated), ``mpiReplicaSpecs``, ``mainContainer``, ``runPolicy``.

What the old controllers did, and so what the v2beta1 job gets:

- ``backoffLimit``/``activeDeadlineSeconds`` (v1alpha2): ``runPolicy``'s took precedence when set
  (``newLauncher``, v0.3.0). ``cleanPodPolicy``: the v1alpha2 controller read ``spec.cleanPodPolicy``
  only (default ``None``); training-operator v1.9.4 lets ``runPolicy.cleanPodPolicy`` win
  (``mpijob_controller.go``). The winner goes to ``runPolicy``; a differing loser is reported.
- ``mpiDistribution`` becomes ``mpiImplementation``: ``IntelMPI`` -> ``Intel``; any value other
  than ``IntelMPI`` and ``MPICH`` was run as Open MPI.
- ``mainContainer`` named the worker container the ranks were exec'd into; v2beta1 runs sshd and
  mounts the keys in the Worker's ``containers[0]``, so that container is moved first.
- Workers without a command ran ``sleep 365d`` (their args were replaced), and ranks were started
  with ``kubectl exec``; v2beta1 starts them over SSH and runs ``/usr/sbin/sshd -De`` when the
  worker sets neither command nor args. A ``sleep`` command is removed, as are args without a
  command.
- Restart policies: v2beta1 accepts ``Never`` and ``OnFailure`` only. The v1alpha2 launcher ran
  ``OnFailure`` unless ``Never`` (``setDefaultsTypeLauncher``) and its workers under a StatefulSet
  (the replica's policy was ignored); training-operator's ``Always`` and ``ExitCode`` become
  ``OnFailure``, with a warning.
- ``runPolicy.managedBy: kubeflow.org/training-operator`` becomes ``kubeflow.org/mpi-operator``.
"""

from __future__ import annotations

import copy
import posixpath
from typing import Any

from ..diagnostics import Severity
from .common import (Change, changed, containers, dropped, kube_batch_templates, lossy, moved, object_shell,
                     ordered_run_policy, p, refused, unknown_spec_fields)
from .mpi_v1alpha1 import _ssh_transport, launcher_on_master

TARGET = "kubeflow.org/v2beta1"
FIELDS = {
    "kubeflow.org/v1alpha2": ("slotsPerWorker", "launcherOnMaster", "backoffLimit", "activeDeadlineSeconds",
                              "cleanPodPolicy", "mpiReplicaSpecs", "mainContainer", "runPolicy", "mpiDistribution"),
    "kubeflow.org/v1": ("slotsPerWorker", "cleanPodPolicy", "mpiReplicaSpecs", "mainContainer", "runPolicy"),
}
IMPLEMENTATIONS = {"OpenMPI": "OpenMPI", "IntelMPI": "Intel", "MPICH": "MPICH"}
RESTART = ("Never", "OnFailure")
REPLICA_FIELDS = ("replicas", "template", "restartPolicy")
MANAGED_BY = {"kubeflow.org/training-operator": "kubeflow.org/mpi-operator"}


def migrate(old: dict[str, Any]) -> tuple[dict[str, Any] | None, list[Change]]:
    """One v1alpha2 or v1 MPIJob -> the v2beta1 MPIJob and the changes made (see the module docstring)."""
    api = old["apiVersion"]
    spec = old.get("spec")
    if not isinstance(spec, dict):
        return None, [refused(("spec",) if "spec" in old else (), f"MPIJob {api} has no spec to migrate")]
    changes: list[Change] = []
    new = object_shell(old, TARGET, changes)
    changes += unknown_spec_fields(spec, FIELDS[api], f"MPIJob {api}")
    new_spec: dict[str, Any] = {}
    if "slotsPerWorker" in spec:
        new_spec["slotsPerWorker"] = spec["slotsPerWorker"]
    new_spec["runPolicy"] = _run_policy(spec, api, changes)
    if not new_spec["runPolicy"]:
        del new_spec["runPolicy"]
    if "mpiDistribution" in spec:
        value = spec["mpiDistribution"]
        implementation = IMPLEMENTATIONS.get(value) if isinstance(value, str) else None
        if implementation is None:
            implementation = "OpenMPI"
            changes.append(lossy(("spec", "mpiDistribution"), f"mpiDistribution {value!r} is not OpenMPI, "
                                 "IntelMPI or MPICH: the old operator ran Open MPI, and so will v2beta1"))
        new_spec["mpiImplementation"] = implementation
        changes.append(moved(("spec", "mpiDistribution"), ("spec", "mpiImplementation"),
                             note=f": {value} -> {implementation}" if value != implementation else ""))
    replicas = spec.get("mpiReplicaSpecs")
    if not isinstance(replicas, dict):
        return None, changes + [refused(("spec", "mpiReplicaSpecs") if "mpiReplicaSpecs" in spec else ("spec",),
                                        "spec.mpiReplicaSpecs is missing or not a mapping: nothing to migrate")]
    new_spec["mpiReplicaSpecs"] = _replicas(replicas, spec, api, changes)
    changes.append(_ssh_transport())
    changes += kube_batch_templates(new_spec["mpiReplicaSpecs"], ("spec", "mpiReplicaSpecs"), "MPIJob",
                                    "mpi-operator v0.8.2")
    new["spec"] = new_spec
    return new, changes


def _run_policy(spec: dict[str, Any], api: str, changes: list[Change]) -> dict[str, Any]:
    old_policy = spec.get("runPolicy")
    policy = copy.deepcopy(old_policy) if isinstance(old_policy, dict) else {}
    if "runPolicy" in spec and not isinstance(old_policy, dict) and old_policy is not None:
        changes.append(refused(("spec", "runPolicy"), "spec.runPolicy is not a mapping"))
    for key in ("backoffLimit", "activeDeadlineSeconds"):  # v1alpha2 only (FIELDS drops them for v1)
        if key not in spec or api != "kubeflow.org/v1alpha2":
            continue
        if key in policy:
            same = policy[key] == spec[key]
            changes.append(dropped(("spec", key), f"spec.runPolicy.{key} ({policy[key]}) took precedence in the "
                                   "old operator" + ("" if same else f"; {spec[key]} was never used"),
                                   Severity.INFO if same else Severity.WARNING))
        else:
            policy[key] = spec[key]
            changes.append(moved(("spec", key), ("spec", "runPolicy", key)))
    if "cleanPodPolicy" in spec:
        ours = spec["cleanPodPolicy"]
        if "cleanPodPolicy" not in policy:
            policy["cleanPodPolicy"] = ours
            changes.append(moved(("spec", "cleanPodPolicy"), ("spec", "runPolicy", "cleanPodPolicy")))
        elif policy["cleanPodPolicy"] == ours:
            changes.append(dropped(("spec", "cleanPodPolicy"), "the same as spec.runPolicy.cleanPodPolicy"))
        elif api == "kubeflow.org/v1alpha2":
            changes.append(lossy(("spec", "runPolicy", "cleanPodPolicy"), f"the v1alpha2 operator read "
                                 f"spec.cleanPodPolicy ({ours}) and ignored spec.runPolicy.cleanPodPolicy "
                                 f"({policy['cleanPodPolicy']}): {ours} is kept"))
            policy["cleanPodPolicy"] = ours
        else:
            changes.append(lossy(("spec", "cleanPodPolicy"), f"spec.runPolicy.cleanPodPolicy "
                                 f"({policy['cleanPodPolicy']}) takes precedence in training-operator v1.9.4 and is "
                                 f"kept (mpi-operator's own v1, v0.2-v0.3, read spec.cleanPodPolicy: {ours})"))
    elif api == "kubeflow.org/v1alpha2" and policy.get("cleanPodPolicy") not in (None, "None"):
        changes.append(lossy(("spec", "runPolicy", "cleanPodPolicy"), "the v1alpha2 operator ignored "
                             "spec.runPolicy.cleanPodPolicy (it read spec.cleanPodPolicy, default None); v2beta1 "
                             f"applies {policy['cleanPodPolicy']}"))
    managed = policy.get("managedBy")
    if isinstance(managed, str) and managed in MANAGED_BY:
        policy["managedBy"] = MANAGED_BY[managed]
        changes.append(changed(("spec", "runPolicy", "managedBy"), managed, MANAGED_BY[managed],
                               ": v2beta1's operator is mpi-operator"))
    return ordered_run_policy(policy)


def _replicas(replicas: dict[str, Any], spec: dict[str, Any], api: str, changes: list[Change]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    base = ("spec", "mpiReplicaSpecs")
    for name, replica in replicas.items():
        if name not in ("Launcher", "Worker"):
            changes.append(dropped(base + (name,), "MPIJob replica types are Launcher and Worker (the old "
                                   "operator ignored it)", Severity.WARNING))
            continue
        if not isinstance(replica, dict):
            out[name] = copy.deepcopy(replica)
            continue
        for key in replica:
            if key not in REPLICA_FIELDS:
                changes.append(dropped(base + (name, key), f"not a field of an MPIJob {api} replica spec (the "
                                       "old operator ignored it)", Severity.WARNING))
        new = {k: copy.deepcopy(v) for k, v in replica.items() if k in REPLICA_FIELDS}
        _restart_policy(new, name, api, changes)
        if name == "Worker":
            _worker_command(new, _main_container(new, spec, changes), changes)
        out[name] = new
    if spec.get("launcherOnMaster") is True and isinstance(out.get("Launcher"), dict):
        template = out["Launcher"].setdefault("template", {})
        pod = template.setdefault("spec", {}) if isinstance(template, dict) else None
        if isinstance(pod, dict):
            launcher_on_master(pod, ("spec", "launcherOnMaster"), changes)
    elif "launcherOnMaster" in spec:
        changes.append(dropped(("spec", "launcherOnMaster"), "false is the default"))
    return out


def _restart_policy(replica: dict[str, Any], name: str, api: str, changes: list[Change]) -> None:
    value = replica.get("restartPolicy")
    if "restartPolicy" not in replica or value in RESTART:
        return
    at = ("spec", "mpiReplicaSpecs", name, "restartPolicy")
    if api == "kubeflow.org/v1alpha2" and name == "Worker":
        del replica["restartPolicy"]
        changes.append(dropped(at, "the v1alpha2 operator ignored it (its workers ran under a StatefulSet); "
                               "v2beta1 accepts Never or OnFailure"))
        return
    replica["restartPolicy"] = "OnFailure"
    if api == "kubeflow.org/v1alpha2":  # setDefaultsTypeLauncher: anything but Never ran as OnFailure
        changes.append(changed(at, value, "OnFailure", ", as the v1alpha2 operator ran it"))
    else:
        changes.append(lossy(at, f"restartPolicy {value}: v2beta1 accepts Never or OnFailure only; OnFailure "
                             "was chosen (restarts a failed pod, not a succeeded one): check it fits"))


def _worker_command(replica: dict[str, Any], index: int, changes: list[Change]) -> None:
    """The first container (at ``index`` in the old object) gets no idle command."""
    found = containers(replica)
    first = found[0] if found and isinstance(found[0], dict) else None
    if first is None:
        return
    at = ("spec", "mpiReplicaSpecs", "Worker", "template", "spec", "containers", index)
    command = first.get("command")
    if not command and "args" in first:
        del first["args"]
        changes.append(dropped(at + ("args",), "the old operator replaced it with `sleep 365d` (no command); "
                               "v2beta1 runs sshd when the worker sets neither command nor args"))
    elif isinstance(command, list) and command and isinstance(command[0], str) \
            and posixpath.basename(command[0]) == "sleep":
        for key in ("command", "args"):
            if key in first:
                del first[key]
                changes.append(dropped(at + (key,), "the worker only had to stay alive for kubectl exec; "
                                       "v2beta1 runs sshd when the worker sets neither command nor args"))


def _main_container(replica: dict[str, Any], spec: dict[str, Any], changes: list[Change]) -> int:
    """Move the ``mainContainer`` first; the index it had (0 when nothing moved)."""
    if "mainContainer" not in spec:
        return 0
    name, at = spec["mainContainer"], ("spec", "mainContainer")
    found = containers(replica)
    names = [c.get("name") if isinstance(c, dict) else None for c in found]
    if name not in names:
        changes.append(dropped(at, f"no Worker container is named {name!r}; v2beta1 uses the Worker's first "
                               "container", Severity.WARNING))
        return 0
    index = names.index(name)
    if index == 0:
        changes.append(dropped(at, "v2beta1 always uses the first container, which this one is"))
        return 0
    found.insert(0, found.pop(index))
    path = ("spec", "mpiReplicaSpecs", "Worker", "template", "spec", "containers")
    changes.append(moved(at, path + (0,), note=f": v2beta1 runs sshd and mounts the SSH keys in the first "
                         f"container, so {name!r} ({p(path + (index,))}) was moved first"))
    return index
