"""What Trainer v2.3.0's webhooks refuse: a runtime's replicated jobs, a TrainJob for its runtime.

Ports, at tag **v2.3.0**: ``validateReplicatedJobs`` (``pkg/webhooks/trainingruntime_webhook.go``,
also used for ClusterTrainingRuntimes), the deprecation warning of
``ClusterTrainingRuntime.ValidateObjects`` (``pkg/runtime/core/clustertrainingruntime.go``), and
the framework's ``RunCustomValidationPlugins`` on a new TrainJob (``TrainJobValidator.
ValidateCreate``, ``pkg/webhooks/trainjob_webhook.go`` lines 110-121: first the runtime reference
must name a kind Trainer registers, ``pkg/runtime/core/registry.go``): the ``Validate`` of the
plugins in ``pkg/runtime/framework/plugins/`` -- ``jobset/jobset.go`` 91-212 (initializers,
runtime patches), ``torch/torch.go`` 56-107 and ``torch/torchtune.go`` 35-104, ``mpi/mpi.go``
82-109, ``volcano/volcano.go`` 87-128, ``xgboost/xgboost.go`` 53-71 and ``flux/flux.go`` 103-132
(``jax`` checks nothing) -- on the runtime info before any plugin changed it. The plugins run in
Go map order upstream; the problems are listed in the order above.

The webhook configuration's ``objectSelector`` (``manifests/base/webhook/patch_validating.yaml``)
leaves a runtime labelled ``trainer.kubeflow.org/webhook-validation: disabled`` unchecked, as the
default runtimes are. Transition checks (``checkRuntimePatchesImmutability``: patches of a running
job) need the stored object and are not ported.

Each problem is ``(path, message)``, the path a tuple into the TrainJob (``("runtime", ...)``
for the runtime), the message as the webhook words it after the path (``field.Error.ErrorBody``:
:mod:`mpigen.operator.k8s_validation`). ``mpigen validate`` (TrainJobs and runtimes of a file)
and :func:`mpigen.trainer.framework.build` (``explain``, ``podgroup``) both run these.
"""

from __future__ import annotations

import re
from typing import Any

from ..names import RUNTIME_KINDS
from ..operator.k8s_validation import forbidden, invalid, is_dns1123_subdomain, required
from .info import ANCESTOR_DATASET, ANCESTOR_LABEL, ANCESTOR_MODEL, ANCESTOR_TRAINER, LAUNCHER, NODE, Info, \
    num_gpu_per_node, pod_spec_of, resources_per_node
from .ml import XGBOOST_RESERVED_ENV
from .mpi import RESERVED_ENV as MPI_RESERVED_ENV
from .podgroup import VOLCANO_QUEUE_ANNOTATION
from .runtimes import TRAINER_GROUP, runtime_ref
from .torch import RESERVED_ENV as TORCH_RESERVED_ENV
from .torch import TORCHTUNE_ENTRYPOINT, TORCHTUNE_IMMUTABLE_CONFIGS, TORCHTUNE_MODELS, _lora, _qlora, model_of, \
    recipe_and_config

Problem = tuple[tuple, str]
_CONTAINER_FOR = {ANCESTOR_TRAINER: NODE, ANCESTOR_DATASET: ANCESTOR_DATASET, ANCESTOR_MODEL: ANCESTOR_MODEL}
_FILLED_FROM = {ANCESTOR_TRAINER: "the TrainJob's spec.trainer (image, command, args, env, resourcesPerNode)",
                ANCESTOR_DATASET: "the TrainJob's spec.initializer.dataset (storageUri, env)",
                ANCESTOR_MODEL: "the TrainJob's spec.initializer.model (storageUri, env)"}
"""What Trainer's plugins put in the container of each step (what a runtime must name so)."""
INITIALIZER_VOLUME = "initializer"
DEPRECATION_POLICY_URL = ("https://trainer.kubeflow.org/en/latest/operator-guides/runtime.html"
                          "#runtime-deprecation-policy")
WEBHOOK_VALIDATION_LABEL = "trainer.kubeflow.org/webhook-validation"
FLUX_INSTALLER = "flux-installer"
SYSTEM_PRIORITY_CLASSES = ("system-cluster-critical", "system-node-critical")
# validation.IsDomainPrefixedPath: a DNS-1123 subdomain, then a path of url-safe characters
_PATH = re.compile(r"[A-Za-z0-9/\-._~%!$&'()*+,;=:]+")


def runtime_problems(runtime: dict[str, Any]) -> list[Problem]:
    """``validateReplicatedJobs``: a job labelled as the trainer, dataset or model initializer
    must have ``replicas: 1`` (the JobSet CRD's default) and the container of its role (``node``,
    ``dataset-initializer``, ``model-initializer``)."""
    out: list[Problem] = []
    if ((runtime.get("metadata") or {}).get("labels") or {}).get(WEBHOOK_VALIDATION_LABEL) == "disabled":
        return out  # the webhook's objectSelector: NotIn [disabled]
    rjobs = (((runtime.get("spec") or {}).get("template") or {}).get("spec") or {}).get("replicatedJobs") or []
    base = ("runtime", "spec", "template", "spec", "replicatedJobs")
    for i, rjob in enumerate(rjobs):
        labels = ((rjob.get("template") or {}).get("metadata") or {}).get("labels")
        ancestor = (labels or {}).get(ANCESTOR_LABEL)
        if ancestor not in _CONTAINER_FOR:
            continue
        replicas = rjob.get("replicas", 1)
        if replicas != 1:
            out.append((base + (i, "replicas"), invalid(replicas, "always must be 1")))
        containers = pod_spec_of(rjob).get("containers") or []
        if not any(c.get("name") == _CONTAINER_FOR[ancestor] for c in containers):
            out.append((base + (i, "template", "spec", "template", "spec", "containers"),
                        invalid([c.get("name") for c in containers],
                                f"must contain the required container for the ancestor: {ancestor}")
                        + f"; name the container that runs the {ancestor} step {_CONTAINER_FOR[ancestor]!r} (Trainer "
                          f"puts {_FILLED_FROM[ancestor]} there)"))
    return out


def deprecation_warning(runtime: dict[str, Any]) -> str | None:
    labels = (runtime.get("metadata") or {}).get("labels") or {}
    if runtime.get("kind") == "ClusterTrainingRuntime" and labels.get("trainer.kubeflow.org/support") == "deprecated":
        name = runtime["metadata"].get("name", "")
        return (f"Referenced ClusterTrainingRuntime \"{name}\" is deprecated and will be removed in a future "
                f"release of Kubeflow Trainer. See runtime deprecation policy: "
                f"{DEPRECATION_POLICY_URL}")
    return None


def _containers(rjob: dict[str, Any]) -> list[dict[str, Any]]:
    pod = pod_spec_of(rjob)
    return list(pod.get("initContainers") or []) + list(pod.get("containers") or [])


def _jobset(info: Info, trainjob: dict[str, Any]) -> list[Problem]:
    out: list[Problem] = []
    spec = trainjob.get("spec") or {}
    names = {r.get("name"): {c.get("name") for c in _containers(r)}
             for r in info.jobset_spec.get("replicatedJobs") or []}
    initializer = spec.get("initializer") or {}
    for key, role in (("dataset", ANCESTOR_DATASET), ("model", ANCESTOR_MODEL)):
        if not isinstance(initializer, dict) or initializer.get(key) is None:
            continue
        config = "datasetConfig" if key == "dataset" else "modelConfig"
        if role not in names:
            out.append((("spec", "runtimeRef"),
                        f"must have {role} job when trainJob is configured with input {config}"))
        elif role not in names[role]:
            out.append((("spec", "runtimeRef"), f"must have container with name - {role} in the {role} job"))
        else:
            mounted = any(m.get("name") == INITIALIZER_VOLUME
                          for r in info.jobset_spec["replicatedJobs"] if r.get("name") == role
                          for c in pod_spec_of(r).get("containers") or [] if c.get("name") == role
                          for m in c.get("volumeMounts") or [])
            if not mounted:
                out.append((("spec", "runtimeRef"), f"must have volumeMount with name - {INITIALIZER_VOLUME} in "
                                                    f"container {role} of the {role} job"))
    for i, runtime_patch in enumerate(spec.get("runtimePatches") or []):
        manager = (runtime_patch or {}).get("manager", "")
        out += [(("spec", "runtimePatches", i, "manager"), problem) for problem in _domain_prefixed_path(manager)]
        template = (((runtime_patch or {}).get("trainingRuntimeSpec") or {}).get("template") or {})
        for rjob in (template.get("spec") or {}).get("replicatedJobs") or []:
            containers = names.get(rjob.get("name"))
            if containers is None:
                out.append((("spec", "runtimePatches"),
                            "must not have replicated job that doesn't exist in the runtime job template"))
                continue
            pod = ((((rjob.get("template") or {}).get("spec") or {}).get("template") or {}).get("spec") or {})
            for c in pod.get("initContainers") or []:
                if c.get("name") not in containers:
                    out.append((("spec", "runtimePatches"), "must not have initContainer that doesn't exist in the "
                                                            f"runtime job {rjob.get('name')}"))
            for c in pod.get("containers") or []:
                if c.get("name") not in containers:
                    out.append((("spec", "runtimePatches"), "must not have container that doesn't exist in the "
                                                            f"runtime job {rjob.get('name')}"))
                elif c.get("env") and c.get("name") in (ANCESTOR_DATASET, ANCESTOR_MODEL, NODE):
                    out.append((("spec", "runtimePatches"), f"must not have envs for the {ANCESTOR_DATASET}, "
                                                            f"{ANCESTOR_MODEL}, {NODE} containers"))
    return out


def _domain_prefixed_path(value: str) -> list[str]:
    """``validation.IsDomainPrefixedPath`` (apimachinery ``pkg/util/validation/validation.go`` 96-118)."""
    if not value:
        return [required()]
    host, sep, path = value.partition("/")
    if not sep or not host or not path:
        return [invalid(value, 'must be a domain-prefixed path (such as "acme.io/foo")')]
    out = [invalid(host, message) for message in is_dns1123_subdomain(host)]
    if not _PATH.fullmatch(path):
        out.append(invalid(path, "Invalid path (regex used for validation is '[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+')"))
    return out


def _reserved(trainjob: dict[str, Any], reserved: tuple[str, ...]) -> list[str]:
    trainer = (trainjob.get("spec") or {}).get("trainer") or {}
    return sorted({e.get("name") for e in trainer.get("env") or [] if e.get("name") in reserved})


def _torch(info: Info, trainjob: dict[str, Any]) -> list[Problem]:
    torch = info.policy("torch")
    if torch is None:
        return []
    out: list[Problem] = []
    for target in (torch.get("envInjection") or {}).get("targets") or []:
        for name in target.get("containerNames") or []:
            if info.container_by_pod_set_name(target.get("jobName", ""), name) is None:
                out.append((("spec", "runtimeRef"), f"envInjection target podSet {target.get('jobName', '')!r} "
                                                    f"container {name!r} not found in runtime template"))
    trainer = (trainjob.get("spec") or {}).get("trainer")
    if not isinstance(trainer, dict):
        return out
    reserved = _reserved(trainjob, TORCH_RESERVED_ENV)
    if reserved:
        out.append((("spec", "trainer", "env"), f"must not have reserved envs, invalid envs configured: "
                                                f"[{' '.join(reserved)}]"))
    if trainer.get("command") == TORCHTUNE_ENTRYPOINT:
        out += _torchtune(info, trainjob)
    return out


def _torchtune(info: Info, trainjob: dict[str, Any]) -> list[Problem]:
    spec = trainjob["spec"]
    trainer = spec["trainer"]
    out: list[Problem] = []
    model = model_of((spec.get("runtimeRef") or {}).get("name", ""))
    name = (spec.get("runtimeRef") or {}).get("name", "")
    if model not in TORCHTUNE_MODELS:
        out.append((("spec", "runtimeRef", "name"), invalid(name, f"must have a supported pretrained model, invalid "
                                                                  f"model configured: {model}")))
    nodes = trainer.get("numNodes", 1) if trainer.get("numNodes") is not None else 1
    if nodes > 1 and model != "llama3_3/70B":
        out.append((("spec", "trainer", "numNodes"), invalid(nodes, f"must be 1 for {model} model")))
    nproc = trainer["numProcPerNode"] if trainer.get("numProcPerNode") is not None else "auto"
    gpus = num_gpu_per_node(resources_per_node(info, trainjob))
    _, config = recipe_and_config(nodes, nproc, gpus, trainjob)
    if "_qlora" in config:
        if model == "qwen2_5/1.5B":
            out.append((("spec", "runtimeRef", "name"), invalid(name, f"QLoRA is not supported for {model} model")))
        if "_qlora_single_device" not in config and model in ("llama3_2/1B", "llama3_2/3B"):
            out.append((("spec", "trainer", "numProcPerNode"),
                        invalid(nproc, f"must be auto or 1 for {model} model when using QLoRA")))
            out.append((("spec", "trainer", "resourcesPerNode"),
                        f"must have gpu resource with value 1 for {model} model when using QLoRA"))
    args = list(trainer.get("args") or [])
    if nodes > 1 and (_lora(args) or _qlora(args)):
        out.append((("spec", "trainer", "numNodes"),
                    invalid(nodes, "LoRA fine-tuning is not supported for multi-node training in TorchTune")))
    for i, arg in enumerate(args):
        key = arg.split("=", 1)[0]
        if key in TORCHTUNE_IMMUTABLE_CONFIGS:
            out.append((("spec", "trainer", "args", i),
                        invalid(arg, f"must not set immutable config {key!r} in trainer args; it is managed by the "
                                     "runtime")))
    return out


def _mpi(info: Info, trainjob: dict[str, Any]) -> list[Problem]:
    mpi = info.policy("mpi")
    if mpi is None:
        return []
    out: list[Problem] = []
    trainer = (trainjob.get("spec") or {}).get("trainer")
    if not isinstance(trainer, dict):
        return out
    nodes = trainer.get("numNodes", 1) if trainer.get("numNodes") is not None else 1
    if nodes >= 2 and mpi.get("runLauncherAsNode") is True and (
            info.pod_set_by_name(LAUNCHER) is None or info.pod_set_by_name(NODE) is None):
        out.append((("spec", "trainer", "numNodes"), invalid(nodes, "must have 1 when MPI trainingRuntime with enabled "
                                                                    "runLauncherAsNode does not have either launcher "
                                                                    "and node")))
    reserved = _reserved(trainjob, MPI_RESERVED_ENV)
    if reserved:
        out.append((("spec", "trainer", "env"), f"must not have reserved envs, invalid envs configured: "
                                                f"[{' '.join(reserved)}]"))
    return out


def _volcano(info: Info, priority_classes: dict[str, int] | None) -> list[Problem]:
    if not isinstance((info.pod_group_policy or {}).get("volcano"), dict):
        return []
    out: list[Problem] = []
    if info.annotations.get(VOLCANO_QUEUE_ANNOTATION, None) == "":
        out.append((("spec", "annotations", VOLCANO_QUEUE_ANNOTATION),
                    invalid("", "Volcano queue name must not be empty")))
    if priority_classes is None:  # the cluster's PriorityClasses are not known: not checked
        return out
    for rjob in info.jobset_spec.get("replicatedJobs") or []:
        name = pod_spec_of(rjob).get("priorityClassName")
        if name is None:
            continue
        if name in SYSTEM_PRIORITY_CLASSES:
            return out  # Go returns here: the later replicated jobs are not checked
        if name not in priority_classes:
            out.append((("spec", "templateSpec", "priorityClassName"),
                        invalid(name, f'PriorityClass "{name}" doesn\'t exist: priorityclasses.scheduling.k8s.io '
                                      f'"{name}" not found')))
    return out


def _xgboost(info: Info, trainjob: dict[str, Any]) -> list[Problem]:
    if info.policy("xgboost") is None:
        return []
    trainer = (trainjob.get("spec") or {}).get("trainer")
    if not isinstance(trainer, dict):
        return []
    return [(("spec", "trainer", "env", i), forbidden(f"{e.get('name')} is reserved for the XGBoost runtime"))
            for i, e in enumerate(trainer.get("env") or []) if e.get("name") in XGBOOST_RESERVED_ENV]


def _flux(info: Info, trainjob: dict[str, Any]) -> list[Problem]:
    flux = info.policy("flux")
    if flux is None:
        return []
    out: list[Problem] = []
    procs = flux.get("numProcPerNode", 1)  # the CRD's default
    trainer = (trainjob.get("spec") or {}).get("trainer")
    if isinstance(trainer, dict) and "numProcPerNode" in trainer:
        procs = trainer["numProcPerNode"]
    if isinstance(procs, int) and procs < 1:
        out.append((("spec", "trainer", "numProcPerNode"),
                    invalid(procs, "must be greater than or equal to 1 for Flux TrainJob")))
    node = info.pod_set_by_name(NODE)
    if node is not None and any(c.name == FLUX_INSTALLER for c in node.init_containers):
        out.append((("spec", "trainer", "initContainers"),
                    invalid(FLUX_INSTALLER, f"InitContainer '{FLUX_INSTALLER}' is reserved")))
    return out


def supported_runtime(trainjob: dict[str, Any]) -> Problem | None:
    """``ValidateCreate``: "unsupported runtime" unless the reference names a registered kind."""
    group, kind, _ = runtime_ref(trainjob)
    if group == TRAINER_GROUP and kind in RUNTIME_KINDS:
        return None
    return ("spec", "runtimeRef"), f"unsupported runtime: {kind}.{group}" if group else f"unsupported runtime: {kind}"


def trainjob_problems(info: Info, trainjob: dict[str, Any], priority_classes: dict[str, int] | None) -> list[Problem]:
    """``RunCustomValidationPlugins`` for a new TrainJob, ``info`` fresh from ``new_runtime_info``."""
    return (_jobset(info, trainjob) + _torch(info, trainjob) + _mpi(info, trainjob)
            + _volcano(info, priority_classes) + _xgboost(info, trainjob) + _flux(info, trainjob))


__all__ = ["runtime_problems", "deprecation_warning", "supported_runtime", "trainjob_problems"]
