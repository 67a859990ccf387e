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
from ..names import TRAINING_API
from .pods import container, job_metadata, job_run_policy, pod_template

CONTAINER = {"pytorch": "pytorch", "tensorflow": "tensorflow"}
PORT_NAME = {"pytorch": "pytorchjob-port", "tensorflow": "tfjob-port"}
KIND = {"pytorch": "PyTorchJob", "tensorflow": "TFJob"}
REPLICA_SPECS = {"pytorch": "pytorchReplicaSpecs", "tensorflow": "tfReplicaSpecs"}
DEFAULT_NPROC_PER_NODE = "auto"


def replica_types(spec: dict[str, Any]) -> list[tuple[str, int, dict[str, Any]]]:
    """(replica type, replicas, settings with image/resources/priorityClassName), in reading order."""
    framework = spec["framework"]
    settings = spec[framework]
    worker = {"image": spec["image"], "resources": spec["resources"], "priorityClassName": spec["priorityClassName"]}
    out: list[tuple[str, int, dict[str, Any]]] = []
    if framework == "pytorch":
        out.append(("Master", 1, settings["master"]))
        if spec["workers"] > 0:
            out.append(("Worker", spec["workers"], worker))
        return out
    if "chief" in settings:
        out.append(("Chief", 1, settings["chief"]))
    if "ps" in settings:
        out.append(("PS", settings["ps"]["replicas"], settings["ps"]))
    if spec["workers"] > 0:
        out.append(("Worker", spec["workers"], worker))
    if "evaluator" in settings:
        out.append(("Evaluator", 1, settings["evaluator"]))
    return out


def gpu_pods(spec: dict[str, Any]) -> int:
    return sum(n for _, n, role in replica_types(spec) if gpus(role["resources"]))


def render_training_job(metadata: dict[str, Any], spec: dict[str, Any]) -> dict[str, Any]:
    """The PyTorchJob or TFJob for an expanded spec, before gang scheduling is applied."""
    framework = spec["framework"]
    labels = dict(sorted((metadata.get("labels") or {}).items()))
    meta = job_metadata(metadata)
    run_policy = job_run_policy(spec)

    port = [{"containerPort": spec[framework]["port"], "name": PORT_NAME[framework]}]
    total_gpu_pods = gpu_pods(spec)
    replica_specs: dict[str, Any] = {}
    for rtype, replicas, role in replica_types(spec):
        main = container(spec, CONTAINER[framework], role["image"], list(spec["command"]), role["resources"],
                         env=True, ports=[dict(p) for p in port])
        template = pod_template(spec, labels, main, role.get("priorityClassName"), job_name=metadata["name"],
                                gpu_pods=total_gpu_pods)
        replica_specs[rtype] = {"replicas": replicas, "restartPolicy": spec["restartPolicy"], "template": template}

    job_spec: dict[str, Any] = {"runPolicy": run_policy}
    if framework == "pytorch":
        job_spec["nprocPerNode"] = DEFAULT_NPROC_PER_NODE
    else:
        job_spec["successPolicy"] = ""
    job_spec[REPLICA_SPECS[framework]] = replica_specs
    return {"apiVersion": TRAINING_API, "kind": KIND[framework], "metadata": meta, "spec": job_spec}
