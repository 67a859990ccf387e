"""Stage 4, render: an expanded spec -> a complete, explicit PyTorchJob or TFJob (kubeflow.org/v1).

Everything training-operator v1.9.4's defaulting would fill in (``SetDefaults_PyTorchJob``,
``SetDefaults_TFJob`` in ``pkg/apis/kubeflow.org/v1``) is written out: cleanPodPolicy, every
replica count (PyTorch's Master exactly 1), restartPolicy, the port named ``pytorchjob-port`` /
``tfjob-port`` on the container named ``pytorch`` / ``tensorflow``, PyTorch's ``nprocPerNode``
and TensorFlow's ``successPolicy``. So ``set_defaults`` adds nothing (a test checks it).

Every pod runs ``spec.command`` with ``spec.env``; the operator adds the rendezvous environment
itself (MASTER_ADDR, MASTER_PORT, WORLD_SIZE, RANK for PyTorch; TF_CONFIG for TensorFlow), which
``mpigen explain`` shows.
"""

from __future__ import annotations

from typing import Any

from ..expand.defaults import gpus
from ..names import TRAINING_API, TRAINING_CONTAINER
from ..expand.roles import REPLICA_TYPES, role_view
from .patching import Finding, patched_template
from .pods import container, job_metadata, job_run_policy, pod_template

PORT_NAME = {"pytorch": "pytorchjob-port", "tensorflow": "tfjob-port"}
KIND = {"pytorch": "PyTorchJob", "tensorflow": "TFJob"}
REPLICA_SPECS = {"pytorch": "pytorchReplicaSpecs", "tensorflow": "tfReplicaSpecs"}
DEFAULT_NPROC_PER_NODE = "auto"


def replica_types(spec: dict[str, Any]) -> list[tuple[str, str, int]]:
    """(replica type, role, replicas) of the job, in reading order."""
    framework = spec["framework"]
    counts = {"worker": spec["workers"]}
    counts.update({role: settings["replicas"] for role, settings in spec[framework].items()
                   if isinstance(settings, dict)})
    order = ("master", "worker") if framework == "pytorch" else ("chief", "ps", "worker", "evaluator")
    return [(REPLICA_TYPES[role], role, counts[role]) for role in order
            if role in spec["roles"] and counts.get(role, 0) > 0]


def gpu_pods(spec: dict[str, Any]) -> int:
    return sum(n for _, role, n in replica_types(spec) if gpus(spec["roles"][role]["resources"]))


def render_training_job(metadata: dict[str, Any], spec: dict[str, Any]) -> tuple[dict[str, Any], list[Finding]]:
    """The PyTorchJob or TFJob for an expanded spec, before gang scheduling is applied, and what
    applying the spec's pod template patches found."""
    framework = spec["framework"]
    labels = dict(sorted((metadata.get("labels") or {}).items()))
    meta = job_metadata(metadata)
    run_policy = job_run_policy(spec)
    findings: list[Finding] = []

    port = {"containerPort": spec[framework]["port"], "name": PORT_NAME[framework]}
    total_gpu_pods = gpu_pods(spec)
    replica_specs: dict[str, Any] = {}
    for rtype, role, replicas in replica_types(spec):
        view = role_view(spec, role)
        main = container(view, TRAINING_CONTAINER[framework], list(view["command"] or []), ports=[dict(port)])
        template, found = patched_template(
            pod_template(view, labels, main, job_name=metadata["name"], gpu_pods=total_gpu_pods), view)
        findings += found
        replica_specs[rtype] = {"replicas": replicas, "restartPolicy": spec["restartPolicy"], "template": template}

    job_spec: dict[str, Any] = {"runPolicy": run_policy}
    if framework == "pytorch":
        slots = spec.get("slotsPerWorker")
        job_spec["nprocPerNode"] = DEFAULT_NPROC_PER_NODE if slots is None else str(slots)
    else:
        job_spec["successPolicy"] = ""
    job_spec[REPLICA_SPECS[framework]] = replica_specs
    return {"apiVersion": TRAINING_API, "kind": KIND[framework], "metadata": meta, "spec": job_spec}, findings
