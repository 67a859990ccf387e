"""The job uses an API version the current operators no longer serve.

mpi-operator v0.8.2 serves MPIJob only as ``kubeflow.org/v2beta1`` (its CRD in
``manifests/base/kubeflow.org_mpijobs.yaml``); ``v1alpha1`` and ``v1alpha2`` were mpi-operator's
earlier APIs, and ``kubeflow.org/v1`` is the training-operator's legacy MPIJob (v1.9.4 still ships
it in ``manifests/base/crds/kubeflow.org_mpijobs.yaml``, the same CRD name, so a cluster runs one or
the other). training-operator v1.9.4 serves PyTorchJob and TFJob only as ``kubeflow.org/v1``
(``manifests/base/crds/kubeflow.org_pytorchjobs.yaml``, ``kubeflow.org_tfjobs.yaml``); ``v1alpha1``,
``v1alpha2``, ``v1beta1`` and ``v1beta2`` were removed. The API server rejects such a manifest
("no matches for kind"), and the old shapes (``gpus``, ``launcherOnMaster``, ``mpiDistribution``,
spec-level ``cleanPodPolicy``...) differ, so no other rule reads them. A version of the group that
never served the kind (a PyTorchJob of ``kubeflow.org/v2beta1``, MPIJob's version) is refused the
same way.

Fix: run ``mpigen migrate`` on the manifest to rewrite it as MPIJob ``kubeflow.org/v2beta1`` or
PyTorchJob/TFJob ``kubeflow.org/v1``.
"""

from __future__ import annotations

from typing import Iterator

from ...diagnostics import Severity
from ...names import CURRENT_API, LEGACY_API
from ..base import Context, Path
from ._common import ALL_KINDS

CODE = "legacy-api-version"
SEVERITY = Severity.ERROR
KINDS = ALL_KINDS
GROUP = "kubeflow.org/"

def check(ctx: Context) -> Iterator[tuple[Path, str]]:
    if ctx.api_version not in LEGACY_API.get(ctx.kind, ()):
        if ctx.api_version.startswith(GROUP) and ctx.api_version != CURRENT_API[ctx.kind]:
            yield (("apiVersion",), f"no operator serves {ctx.kind} as {ctx.api_version}: the API server rejects it "
                                    f"(no matches for kind); write apiVersion: {CURRENT_API[ctx.kind]}")
        return
    if ctx.kind == "MPIJob" and ctx.api_version == "kubeflow.org/v1":
        what = ("is the training-operator's legacy MPIJob, which a cluster running mpi-operator v0.8.2 "
                "(kubeflow.org/v2beta1, same CRD name) rejects")
    else:
        what = "is a legacy API that current operators do not serve: the API server rejects it"
    yield (("apiVersion",),
           f"{ctx.kind} {ctx.api_version} {what}; run `mpigen migrate` to rewrite it as {CURRENT_API[ctx.kind]}")
