"""The job uses an API version the current operators no longer serve.

mpi-operator v0.8.2 serves MPIJob only as ``kubeflow.org/v2beta1`` (its CRD in
``manifests/base/kubeflow.org_mpijobs.yaml``); ``v1alpha1`` and ``v1alpha2`` were mpi-operator's
earlier APIs. ``kubeflow.org/v1`` is two things: mpi-operator's own v1 (v0.2.3 to v0.3.0, its
last release before v2beta1), and the MPIJob the training-operator still serves and runs (v1.9.4
ships it in ``manifests/base/crds/kubeflow.org_mpijobs.yaml``, with its own controller that starts
the ranks with ``kubectl exec``). Both CRDs are named ``mpijobs.kubeflow.org``, so a cluster runs
one or the other: where the training-operator runs MPIJobs, a v1 MPIJob is served and runs as
written; where mpi-operator v0.4.0 or later does, it is rejected. training-operator v1.9.4 serves
PyTorchJob and TFJob only as ``kubeflow.org/v1``
(``manifests/base/crds/kubeflow.org_pytorchjobs.yaml``, ``kubeflow.org_tfjobs.yaml``); ``v1alpha1``,
``v1alpha2``, ``v1beta1`` and ``v1beta2`` were removed. The API server rejects such a manifest
("no matches for kind"), and the old shapes (``gpus``, ``launcherOnMaster``, ``mpiDistribution``,
spec-level ``cleanPodPolicy``...) differ, so no other rule reads them. A version of the group that
never served the kind (a PyTorchJob of ``kubeflow.org/v2beta1``, MPIJob's version) is refused the
same way.

Fix: run ``mpigen migrate`` on the manifest to rewrite it as MPIJob ``kubeflow.org/v2beta1`` (for
mpi-operator, the ranks then start over SSH) or PyTorchJob/TFJob ``kubeflow.org/v1``. A v1 MPIJob
kept for a cluster whose training-operator runs MPIJobs is right there: switch the rule off for it.
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
        yield (("apiVersion",),
               f"MPIJob kubeflow.org/v1 is mpi-operator's API up to v0.3.0 and the MPIJob the training-operator "
               f"(v1.9) still serves and runs: a cluster running mpi-operator {ctx.options.operator_version} serves "
               f"MPIJob only as {CURRENT_API['MPIJob']} (the same CRD name) and rejects it; run `mpigen migrate` to "
               f"rewrite it as {CURRENT_API['MPIJob']} for mpi-operator (the ranks then start over SSH, not kubectl "
               "exec), or keep it for a cluster whose training-operator runs MPIJobs and switch this rule off for "
               "it (annotation mpigen.dev/disable: legacy-api-version)")
        return
    yield (("apiVersion",),
           f"{ctx.kind} {ctx.api_version} is a legacy API that current operators do not serve: the API server rejects "
           f"it; run `mpigen migrate` to rewrite it as {CURRENT_API[ctx.kind]}")
