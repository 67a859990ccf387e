"""A PyTorchJob or TFJob replica has no container named pytorch / tensorflow.

training-operator v1.9.4 only configures the container with the framework's fixed name: the
default port and the rendezvous environment (MASTER_ADDR, MASTER_PORT, WORLD_SIZE, RANK for
``pytorch``; TF_CONFIG for ``tensorflow``) go to that container alone, and its admission webhook
rejects a replica without one: "must have at least one container with name pytorch"
(``validatePyTorchReplicaSpecs`` in ``pkg/webhooks/pytorch/pytorchjob_webhook.go``,
``validateTFReplicaSpecs`` in ``pkg/webhooks/tensorflow/tfjob_webhook.go``; the names are
``PyTorchJobDefaultContainerName`` and ``TFJobDefaultContainerName`` in ``pkg/apis/kubeflow.org/v1``).

Fix: name the training container ``pytorch`` (PyTorchJob) or ``tensorflow`` (TFJob).
"""

from __future__ import annotations

from typing import Iterator

from ...diagnostics import Severity
from ..base import Context, Path
from ._common import current_api, pod_spec

CODE = "container-name"
SEVERITY = Severity.ERROR
KINDS = ("PyTorchJob", "TFJob")

NAMES = {"PyTorchJob": "pytorch", "TFJob": "tensorflow"}


def check(ctx: Context) -> Iterator[tuple[Path, str]]:
    if not current_api(ctx):
        return
    wanted = NAMES[ctx.kind]
    for role, path, template in ctx.pod_templates():
        containers = pod_spec(template).get("containers")
        if not isinstance(containers, list) or not containers:
            continue  # the schema layer reports a missing container list
        names = [c.get("name") for c in containers if isinstance(c, dict)]
        if wanted not in names:
            shown = ", ".join(repr(n) for n in names if isinstance(n, str)) or "none"
            yield (path + ("spec", "containers"),
                   f"the {role} replica has no container named {wanted!r} (found {shown}): the training-operator "
                   f"rejects the {ctx.kind} and only configures that container; rename the training container "
                   f"to {wanted!r}")
