"""A pod template does not opt out of Istio sidecar injection.

In a namespace with Istio injection, every pod gets an Envoy sidecar unless the pod itself says
``sidecar.istio.io/inject: "false"``. The sidecar intercepts the launcher's SSH connections to the
workers and the framework's rendezvous traffic (mpirun, torch.distributed, TF_CONFIG) before it is
ready, and it keeps running after the training container exits, so the launcher Job or the
replica never completes. Istio reads the annotation (or label) on the pod, which the operators
copy from the replica's ``template.metadata``; on the job's own metadata it has no effect
(mpi-operator v0.8.2 ``newWorker``/``newLauncherPodTemplate`` in
``pkg/controller/mpi_job_controller.go`` and training-operator v1.9.4 ``createNewPod`` in
``pkg/controller.v1/common/pod.go`` build pods from the template only).

Fix: add ``sidecar.istio.io/inject: "false"`` to ``template.metadata.annotations`` of every
replica type (mpigen's own MPIJobs always carry it).
"""

from __future__ import annotations

from typing import Iterator

from ...diagnostics import Severity
from ..base import Context, Path
from ._common import ALL_KINDS, current_api, mapping

CODE = "istio-sidecar"
SEVERITY = Severity.WARNING
KINDS = ALL_KINDS

INJECT = "sidecar.istio.io/inject"


def opted_out(metadata: object) -> bool:
    meta = mapping(metadata)
    return mapping(meta.get("annotations")).get(INJECT) == "false" or mapping(meta.get("labels")).get(INJECT) == "false"


def check(ctx: Context) -> Iterator[tuple[Path, str]]:
    if not current_api(ctx):
        return
    on_job = opted_out(ctx.get("metadata"))
    for role, path, template in ctx.pod_templates():
        meta = mapping(template.get("metadata"))
        if opted_out(meta):
            continue
        value = mapping(meta.get("annotations")).get(INJECT)
        harm = "with Istio injection a sidecar breaks the job's connections and keeps its pods running"
        if value is not None:
            message = f"the {role} pod template sets {INJECT}: {value!r}: {harm}; set it to \"false\""
        elif on_job:
            message = (f"the {role} pod template does not set {INJECT}: \"false\" and the annotation on the "
                       f"{ctx.kind}'s own metadata has no effect (Istio reads the pod's); add it to the template's "
                       "metadata.annotations")
        else:
            message = (f"the {role} pod template does not set {INJECT}: \"false\": {harm}; add it to the "
                       "template's metadata.annotations")
        yield path + ("metadata", "annotations", INJECT), message
