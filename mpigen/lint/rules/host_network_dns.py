"""A hostNetwork pod keeps a DNS policy that cannot resolve the job's Services.

A pod with ``hostNetwork: true`` and dnsPolicy ``ClusterFirst`` (the default) falls back to the
node's resolver (Kubernetes ``dnsPolicy`` documentation: such pods "fallback to the behavior of
the Default policy"), which does not know the per-replica Services the training-operator creates
(``<job>-master-0``, ``<job>-worker-0``, used in MASTER_ADDR and TF_CONFIG; ``common/service.go``).
training-operator v1.9.4 does not change the policy (nothing in ``pkg/`` sets DNSPolicy), so the
replicas cannot find each other. dnsPolicy ``None`` (with an explicit dnsConfig) is left alone.

An MPIJob's pods get ``ClusterFirstWithHostNet`` from mpi-operator itself, which sets it on every
hostNetwork launcher and worker whatever the template says (``newWorker`` and
``newLauncherPodTemplate`` in mpi-operator v0.8.2 ``pkg/controller/mpi_job_controller.go``, since
v0.4.0): another dnsPolicy written there (``None`` and ``Default`` included) is not what runs.

Fix: set ``dnsPolicy: ClusterFirstWithHostNet`` next to ``hostNetwork: true`` in the pod template
(an MPIJob: that, or no dnsPolicy).
"""

from __future__ import annotations

from typing import Iterator

from ...diagnostics import Severity
from ..base import Context, Path
from ._common import current_api, pod_spec

CODE = "host-network-dns"
SEVERITY = Severity.WARNING
KINDS = ("MPIJob", "PyTorchJob", "TFJob")


def check(ctx: Context) -> Iterator[tuple[Path, str]]:
    if not current_api(ctx):
        return
    for role, path, template in ctx.pod_templates():
        spec = pod_spec(template)
        policy = spec.get("dnsPolicy")
        if spec.get("hostNetwork") is not True or policy == "ClusterFirstWithHostNet":
            continue
        if ctx.kind == "MPIJob":
            if policy is not None:
                yield (path + ("spec", "dnsPolicy"),
                       f"mpi-operator replaces the {role} pod template's dnsPolicy {policy} with "
                       "ClusterFirstWithHostNet on the host network: what is written here does not run; "
                       "remove it or write ClusterFirstWithHostNet")
        elif policy != "None":
            shown = f"dnsPolicy {policy}" if policy else "no dnsPolicy (ClusterFirst)"
            yield (path + ("spec", "dnsPolicy"),
                   f"the {role} pod template uses hostNetwork with {shown}: its pods resolve names with the "
                   "node's DNS and cannot find the job's Services; set dnsPolicy: ClusterFirstWithHostNet")
