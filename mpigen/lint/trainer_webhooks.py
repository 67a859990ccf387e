"""Kubeflow Trainer v2.3.0's admission webhooks, ported: what it refuses before anything is created.

- TrainingRuntime and ClusterTrainingRuntime (``pkg/webhooks/trainingruntime_webhook.go``
  ``validateReplicatedJobs``, lines 66-105; ``clustertrainingruntime_webhook.go`` line 56 calls the
  same): a replicated job labelled ``trainer.kubeflow.org/trainjob-ancestor-step`` (trainer,
  dataset-initializer, model-initializer) has 1 replica and the container that ancestor needs
  (``node``, ``dataset-initializer``, ``model-initializer``). The webhook configuration's
  ``objectSelector`` (``manifests/base/webhook/patch_validating.yaml``) leaves a runtime labelled
  ``trainer.kubeflow.org/webhook-validation: disabled`` unchecked, as the default runtimes are.
- TrainJob (``pkg/webhooks/trainjob_webhook.go`` ``ValidateCreate``, lines 110-121): the runtime
  reference must be a kind Trainer registers (``pkg/runtime/core/registry.go``), then every
  plugin's ``Validate`` runs on the runtime ``Info`` (:func:`mpigen.operator.trainer_info.runtime_info`,
  the runtime with the job's patches merged), in ``pkg/runtime/framework/plugins/``:
  ``jobset/jobset.go`` 91-212 (initializers, runtime patches), ``mpi/mpi.go`` 82-109,
  ``torch/torch.go`` 56-107 and ``torch/torchtune.go`` 35-104, ``xgboost/xgboost.go`` 53-71,
  ``flux/flux.go`` 103-132 and ``volcano/volcano.go`` 87-128 (``jax`` checks nothing).

A TrainJob whose runtime mpigen does not know is checked without the plugins (the webhook would
refuse it for the missing runtime: see the ``trainjob-runtime-missing`` rule). Transition checks
(``checkRuntimePatchesImmutability``: patches of a running job) need the stored object and are
not ported. The plugins run in Go map order upstream; the problems are listed here in the order
above.
"""

from __future__ import annotations

import re
from typing import Any, Iterator

from ..names import RUNTIME_KINDS
from ..operator.trainer_info import (ANCESTOR_LABEL, ANCESTOR_TRAINER, DATASET_INITIALIZER, LAUNCHER,
                                     MODEL_INITIALIZER, NODE, POD_SPEC, TRAINER_GROUP, WEBHOOK_VALIDATION_LABEL,
                                     RuntimeInfo, items, mapping, runtime_ref)
from .k8s_validation import forbidden, invalid, is_dns1123_subdomain, required

Path = tuple[str | int, ...]
Problem = tuple[Path, str]

_ANCESTOR_CONTAINER = {ANCESTOR_TRAINER: NODE, MODEL_INITIALIZER: MODEL_INITIALIZER,
                       DATASET_INITIALIZER: DATASET_INITIALIZER}
INITIALIZER_VOLUME = "initializer"  # pkg/runtime/framework/plugins/jobset/constants VolumeNameInitializer
MPI_RESERVED_ENV = ("OMPI_MCA_orte_default_hostfile", "OMPI_MCA_plm_rsh_args", "OMPI_MCA_orte_keep_fqdn_hostnames",
                    "OMPI_MCA_orte_set_default_slots")
TORCH_RESERVED_ENV = ("PET_NNODES", "PET_NPROC_PER_NODE", "PET_NODE_RANK", "PET_MASTER_ADDR", "PET_MASTER_PORT")
XGBOOST_RESERVED_ENV = ("DMLC_TRACKER_URI", "DMLC_TRACKER_PORT", "DMLC_TASK_ID", "DMLC_NUM_WORKER")
FLUX_INSTALLER = "flux-installer"
VOLCANO_QUEUE_ANNOTATION = "scheduling.volcano.sh/queue-name"
SYSTEM_PRIORITY_CLASSES = ("system-cluster-critical", "system-node-critical")
TORCHTUNE_ENTRYPOINT = ["tune", "run"]
TORCHTUNE_MODELS = ("llama3_2/1B", "llama3_2/3B", "llama3_3/70B", "qwen2_5/1.5B")
TORCHTUNE_IMMUTABLE = ("output_dir", "tokenizer.path", "checkpointer.checkpoint_dir", "tokenizer.merges_file")
_HTTP_PATH = re.compile(r"[A-Za-z0-9/\-._~%!$&'()*+,;=:]+")


# ------------------------------------------------------------------------------- runtimes


def runtime_problems(runtime: dict[str, Any]) -> list[Problem]:
    """``validateReplicatedJobs`` of a TrainingRuntime or ClusterTrainingRuntime."""
    labels = mapping(mapping(runtime.get("metadata")).get("labels"))
    if labels.get(WEBHOOK_VALIDATION_LABEL) == "disabled":
        return []  # the webhook's objectSelector: NotIn [disabled]
    base: Path = ("spec", "template", "spec", "replicatedJobs")
    out: list[Problem] = []
    rjobs = mapping(mapping(mapping(runtime.get("spec")).get("template")).get("spec")).get("replicatedJobs")
    for index, rjob in enumerate(rjobs if isinstance(rjobs, list) else []):
        if not isinstance(rjob, dict):
            continue
        labels = mapping(mapping(rjob.get("template")).get("metadata")).get("labels")
        if not isinstance(labels, dict):
            continue
        ancestor = labels.get(ANCESTOR_LABEL)
        if not isinstance(ancestor, str) or ancestor not in _ANCESTOR_CONTAINER:
            continue
        replicas = rjob.get("replicas", 1)  # the JobSet CRD defaults replicas to 1
        if replicas != 1:
            out.append((base + (index, "replicas"), invalid(replicas, "always must be 1")))
        containers = items(mapping(mapping(mapping(mapping(rjob.get("template")).get("spec")).get("template"))
                                   .get("spec")).get("containers"))
        if not any(c.get("name") == _ANCESTOR_CONTAINER[ancestor] for c in containers):
            out.append((base + (index, *POD_SPEC, "containers"),
                        invalid([c.get("name") for c in containers],
                                f"must contain the required container for the ancestor: {ancestor}")))
    return out


# ------------------------------------------------------------------------------- TrainJob


def supported_runtime(job: dict[str, Any]) -> Problem | None:
    """``ValidateCreate``: "unsupported runtime" unless the reference names a registered kind."""
    group, kind, _ = runtime_ref(job)
    if group == TRAINER_GROUP and kind in RUNTIME_KINDS:
        return None
    return ("spec", "runtimeRef"), f"unsupported runtime: {kind}.{group}" if group else f"unsupported runtime: {kind}"


def trainjob_problems(job: dict[str, Any], info: RuntimeInfo | None,
                      priority_classes: dict[str, int] | None = None) -> list[Problem]:
    """Every refusal of Trainer's TrainJob webhook for ``job`` (as the API server stores it, with
    its CRD defaults) against its runtime's ``Info`` (None: the runtime is not known)."""
    unsupported = supported_runtime(job)
    if unsupported is not None:
        return [unsupported]
    if info is None:
        return []
    out: list[Problem] = []
    out += _jobset(job, info)
    out += _mpi(job, info)
    out += _torch(job, info)
    out += _xgboost(job, info)
    out += _flux(job, info)
    out += _volcano(info, priority_classes)
    return out


def _trainer(job: dict[str, Any]) -> dict[str, Any] | None:
    trainer = mapping(job.get("spec")).get("trainer")
    return trainer if isinstance(trainer, dict) else None


def _env_names(trainer: dict[str, Any]) -> list[str]:
    return [e.get("name") for e in items(trainer.get("env")) if isinstance(e.get("name"), str)]


def _jobset(job: dict[str, Any], info: RuntimeInfo) -> Iterator[Problem]:
    """``jobset.go`` ``Validate`` (91-212)."""
    names = {ps.name: {n for n in ps.container_names(init=True) + ps.container_names() if isinstance(n, str)}
             for ps in info.pod_sets}
    initializer = mapping(mapping(job.get("spec")).get("initializer"))
    ref_path: Path = ("spec", "runtimeRef")
    for key, step, config in (("dataset", DATASET_INITIALIZER, "datasetConfig"), ("model", MODEL_INITIALIZER, "modelConfig")):
        if key not in initializer:
            continue
        if step not in names:
            yield ref_path, f"must have {step} job when trainJob is configured with input {config}"
        elif step not in names[step]:
            yield ref_path, f"must have container with name - {step} in the {step} job"
        else:
            mounts = [m for ps in info.pod_sets if ps.name == step
                      for c in items(ps.pod_spec.get("containers")) if c.get("name") == step
                      for m in items(c.get("volumeMounts"))]
            if not any(m.get("name") == INITIALIZER_VOLUME for m in mounts):
                yield ref_path, (f"must have volumeMount with name - {INITIALIZER_VOLUME} in container {step} "
                                 f"of the {step} job")
    patches_path: Path = ("spec", "runtimePatches")
    for index, patch in enumerate(items(mapping(job.get("spec")).get("runtimePatches"))):
        manager = patch.get("manager")
        if isinstance(manager, str):
            yield from ((patches_path + (index, "manager"), message) for message in _domain_prefixed_path(manager))
        for rjob in items(mapping(mapping(mapping(patch.get("trainingRuntimeSpec")).get("template")).get("spec"))
                          .get("replicatedJobs")):
            # The webhook looks the job and its containers up in the merged template, which the patch
            # itself completes (see the trainjob-patch-target-missing rule): only the env check bites.
            containers = names.get(rjob["name"], set()) if isinstance(rjob.get("name"), str) else set()
            pod_patch = mapping(mapping(mapping(mapping(rjob.get("template")).get("spec")).get("template")).get("spec"))
            for container in items(pod_patch.get("containers")):
                if isinstance(container.get("name"), str) and container["name"] in containers and container.get("env") and \
                        container.get("name") in (DATASET_INITIALIZER, MODEL_INITIALIZER, NODE):
                    yield patches_path, (f"must not have envs for the {DATASET_INITIALIZER}, {MODEL_INITIALIZER}, "
                                         f"{NODE} containers")


def _domain_prefixed_path(value: str) -> Iterator[str]:
    """``validation.IsDomainPrefixedPath`` (apimachinery ``pkg/util/validation/validation.go`` 96-118)."""
    if not value:
        yield required()
        return
    host, slash, path = value.partition("/")
    if not slash or not host or not path:
        yield invalid(value, 'must be a domain-prefixed path (such as "acme.io/foo")')
        return
    for message in is_dns1123_subdomain(host):
        yield invalid(host, message)
    if not _HTTP_PATH.fullmatch(path):
        yield invalid(path, "Invalid path (regex used for validation is "
                            "'[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+')")


def _reserved(trainer: dict[str, Any] | None, reserved: tuple[str, ...]) -> Iterator[Problem]:
    if trainer is None:
        return
    found = sorted({name for name in _env_names(trainer) if name in reserved})
    if found:
        yield (("spec", "trainer", "env"),
               f"must not have reserved envs, invalid envs configured: [{' '.join(found)}]")


def _mpi(job: dict[str, Any], info: RuntimeInfo) -> Iterator[Problem]:
    """``mpi.go`` ``Validate`` (82-109)."""
    mpi = mapping(info.ml_policy).get("mpi")
    if not isinstance(mpi, dict):
        return
    trainer = _trainer(job)
    if trainer is not None and mpi.get("runLauncherAsNode", False) is True:
        nodes = trainer.get("numNodes", 1)
        if isinstance(nodes, int) and nodes >= 2 and (info.pod_set(LAUNCHER) is None or info.pod_set(NODE) is None):
            yield (("spec", "trainer", "numNodes"),
                   invalid(nodes, "must have 1 when MPI trainingRuntime with enabled runLauncherAsNode does not have "
                                  "either launcher and node"))
    yield from _reserved(trainer, MPI_RESERVED_ENV)


def _torch(job: dict[str, Any], info: RuntimeInfo) -> Iterator[Problem]:
    """``torch.go`` ``Validate`` (56-107) and ``torchtune.go`` ``validateTorchTune`` (35-104)."""
    torch = mapping(info.ml_policy).get("torch")
    if not isinstance(torch, dict):
        return
    for target in items(mapping(torch.get("envInjection")).get("targets")):
        names = target.get("containerNames")
        for container in names if isinstance(names, list) else []:
            ps = info.pod_set(target.get("jobName"))
            if ps is None or container not in ps.container_names() + ps.container_names(init=True):
                yield (("spec", "runtimeRef"), f"envInjection target podSet {target.get('jobName')!r} container "
                                               f"{container!r} not found in runtime template")
    trainer = _trainer(job)
    if trainer is None:
        return
    yield from _reserved(trainer, TORCH_RESERVED_ENV)
    if trainer.get("command") == TORCHTUNE_ENTRYPOINT:
        yield from _torchtune(job, trainer, info)


def _gpus(resources: dict[str, Any]) -> int:
    """``runtime.GetNumGPUPerNode``: the first resource whose name contains "gpu", requests before limits."""
    from ..operator.quantity import Quantity, QuantityError

    def count(values: Any) -> int:
        for name, value in mapping(values).items():
            if isinstance(name, str) and "gpu" in name.lower():
                try:
                    return Quantity.parse(value).value() if isinstance(value, (str, int)) else 0
                except QuantityError:
                    return 0
        return 0

    requested = count(resources.get("requests"))
    return requested if requested or not count(resources.get("limits")) else count(resources.get("limits"))


def _trainer_resources(job: dict[str, Any], info: RuntimeInfo) -> dict[str, Any]:
    """``ExtractResourcePerNodeFromRuntime``, unless the TrainJob gives ``resourcesPerNode``."""
    own = mapping(_trainer(job)).get("resourcesPerNode")
    if isinstance(own, dict):
        return own
    for rjob in items(info.spec.get("replicatedJobs")):
        labels = mapping(mapping(mapping(rjob.get("template")).get("metadata")).get("labels"))
        if rjob.get("name") == NODE or labels.get(ANCESTOR_LABEL) == ANCESTOR_TRAINER:
            for container in items(mapping(mapping(mapping(mapping(rjob.get("template")).get("spec"))
                                                   .get("template")).get("spec")).get("containers")):
                if container.get("name") == NODE and isinstance(container.get("resources"), dict):
                    return container["resources"]
    return {}


def _torchtune_model(name: str) -> str:
    fields = name.split("-")
    return f"{fields[1].replace('.', '_')}/{fields[2].upper()}" if len(fields) == 3 else ""


def _bool_arg(args: list[Any], item: str) -> bool:
    for arg in args:
        key, eq, value = str(arg).partition("=")
        if eq and item in key and value.strip().lower() == "true":
            return True
    return False


def _torchtune(job: dict[str, Any], trainer: dict[str, Any], info: RuntimeInfo) -> Iterator[Problem]:
    name = runtime_ref(job)[2]
    model = _torchtune_model(name)
    if model not in TORCHTUNE_MODELS:
        yield (("spec", "runtimeRef", "name"),
               invalid(name, f"must have a supported pretrained model, invalid model configured: {model}"))
    nodes = trainer.get("numNodes", 1)
    nodes = nodes if isinstance(nodes, int) else 1
    if nodes > 1 and model != "llama3_3/70B":
        yield ("spec", "trainer", "numNodes"), invalid(nodes, f"must be 1 for {model} model")
    args = trainer.get("args") if isinstance(trainer.get("args"), list) else []
    lora = any("model.lora_attn_modules" in str(arg) for arg in args)
    qlora = not _bool_arg(args, "model.use_dora") and _bool_arg(args, "model.quantize_base")
    procs = trainer.get("numProcPerNode")
    gpus = _gpus(_trainer_resources(job, info))
    # getRecipeAndConfig: only its config suffix matters here
    if nodes == 1 and (procs == 1 or gpus == 1):
        suffix = "_qlora_single_device" if qlora else "_lora_single_device" if lora else "_full_single_device"
    elif nodes == 1 and qlora:
        suffix = "_qlora"
    elif nodes == 1 and lora:
        suffix = "_lora"
    else:
        suffix = "_full_multinode" if nodes > 1 else "_full"
    if "_qlora" in suffix:
        if model == "qwen2_5/1.5B":
            yield ("spec", "runtimeRef", "name"), invalid(name, f"QLoRA is not supported for {model} model")
        if suffix != "_qlora_single_device" and model in ("llama3_2/1B", "llama3_2/3B"):
            yield (("spec", "trainer", "numProcPerNode"),
                   invalid(procs if procs is not None else "auto", f"must be auto or 1 for {model} model when using QLoRA"))
            yield (("spec", "trainer", "resourcesPerNode"),
                   f"must have gpu resource with value 1 for {model} model when using QLoRA")
    if nodes > 1 and (lora or qlora):
        yield (("spec", "trainer", "numNodes"),
               invalid(nodes, "LoRA fine-tuning is not supported for multi-node training in TorchTune"))
    for index, arg in enumerate(args):
        key = str(arg).split("=", 1)[0]
        if key in TORCHTUNE_IMMUTABLE:
            yield (("spec", "trainer", "args", index),
                   invalid(arg, f"must not set immutable config {key!r} in trainer args; it is managed by the runtime"))


def _xgboost(job: dict[str, Any], info: RuntimeInfo) -> Iterator[Problem]:
    """``xgboost.go`` ``Validate`` (53-71): one Forbidden per reserved variable, at its index."""
    if not isinstance(mapping(info.ml_policy).get("xgboost"), dict):
        return
    trainer = _trainer(job)
    for index, env in enumerate(items(trainer.get("env")) if trainer is not None else []):
        if env.get("name") in XGBOOST_RESERVED_ENV:
            yield ("spec", "trainer", "env", index), forbidden(f"{env['name']} is reserved for the XGBoost runtime")


def _flux(job: dict[str, Any], info: RuntimeInfo) -> Iterator[Problem]:
    """``flux.go`` ``Validate`` (103-132)."""
    flux = mapping(info.ml_policy).get("flux")
    if not isinstance(flux, dict):
        return
    procs = flux.get("numProcPerNode", 1)  # the CRD's default
    trainer = _trainer(job)
    if trainer is not None and "numProcPerNode" in trainer:
        procs = trainer["numProcPerNode"]
    if isinstance(procs, int) and procs < 1:
        yield ("spec", "trainer", "numProcPerNode"), invalid(procs, "must be greater than or equal to 1 for Flux TrainJob")
    for ps in info.pod_sets:
        if ps.name == NODE and FLUX_INSTALLER in ps.container_names(init=True):
            yield ("spec", "trainer", "initContainers"), invalid(FLUX_INSTALLER, "InitContainer 'flux-installer' is reserved")


def _volcano(info: RuntimeInfo, priority_classes: dict[str, int] | None) -> Iterator[Problem]:
    """``volcano.go`` ``Validate`` (87-128). The PriorityClass lookup needs the cluster's classes:
    without them (None) it is not checked. A system class on any replicated job ends the check
    there (``return``, line 114), so the replicated jobs after it are not looked at."""
    if not isinstance(mapping(info.pod_group_policy).get("volcano"), dict):
        return
    if info.annotations.get(VOLCANO_QUEUE_ANNOTATION) == "":
        yield (("spec", "annotations", VOLCANO_QUEUE_ANNOTATION), invalid("", "Volcano queue name must not be empty"))
    if priority_classes is None:
        return
    for ps in info.pod_sets:
        name = ps.pod_spec.get("priorityClassName")
        if not isinstance(name, str):
            continue
        if name in SYSTEM_PRIORITY_CLASSES:
            return
        if name not in priority_classes:
            yield (("spec", "templateSpec", "priorityClassName"),
                   invalid(name, f'PriorityClass "{name}" doesn\'t exist: priorityclasses.scheduling.k8s.io '
                                 f'"{name}" not found'))
