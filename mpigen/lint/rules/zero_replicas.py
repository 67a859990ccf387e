"""A replica type declares ``replicas: 0``.

The operators reject most of these, and the rest start a job that does nothing. mpi-operator
v0.8.2 marks the MPIJob Failed without creating anything: the Launcher "must be 1", Worker
replicas "must be greater than or equal to 1" (``validateLauncherReplicaSpec`` and
``validateWorkerReplicaSpec`` in ``pkg/apis/kubeflow/validation/validation.go``).
training-operator v1.9.4's webhook rejects a PyTorchJob whose Master is not 1 or whose Worker is
below 1 (``validatePyTorchReplicaSpecs`` in ``pkg/webhooks/pytorch/pytorchjob_webhook.go``). It
accepts a TFJob, but a Chief, Master, or (without them) Worker with 0 replicas has nothing left to
run, so the TFJob is marked Succeeded at once (``UpdateJobStatus`` in
``pkg/controller.v1/tensorflow/tfjob_controller.go``: ``expected == 0``); a PS or Evaluator with
0 replicas simply creates no pods.

Fix: give the replica type at least 1 replica (the launcher, a PyTorchJob master, a TFJob chief
exactly 1), or remove the replica type.
"""

from __future__ import annotations

from typing import Iterator

from ...diagnostics import Severity
from ..base import Context, Path
from ._common import ALL_KINDS, current_api

CODE = "zero-replicas"
SEVERITY = Severity.ERROR
KINDS = ALL_KINDS


def effect(ctx: Context, role: str, roles: set[str]) -> str:
    if ctx.kind == "MPIJob":
        return "mpi-operator rejects the MPIJob and creates nothing"
    if ctx.kind == "PyTorchJob":
        return "the training-operator's webhook rejects the PyTorchJob"
    if role.lower() in ("chief", "master") or (role.lower() == "worker" and not roles & {"chief", "master"}):
        return "the training-operator marks the TFJob Succeeded at once, without training"
    return f"the TFJob gets no {role} pods"


def fix(ctx: Context, role: str) -> str:
    if (ctx.kind, role) in (("MPIJob", "Launcher"), ("PyTorchJob", "Master")) or \
            (ctx.kind == "TFJob" and role.lower() in ("chief", "master")):
        return "set replicas to 1"
    return f"set replicas to at least 1 or remove the {role} replica type"


def check(ctx: Context) -> Iterator[tuple[Path, str]]:
    if not current_api(ctx):
        return
    base, specs = ctx.replica_specs
    roles = {role.lower() for role in specs}
    for role, spec in specs.items():
        value = spec.get("replicas")
        if value == 0 and not isinstance(value, bool):
            yield (base + (role, "replicas"), f"{role} has replicas: 0: {effect(ctx, role, roles)}; {fix(ctx, role)}")
