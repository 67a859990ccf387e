"""The torch plugin of Trainer v2.3.0: PyTorch distributed (torchrun) and torchtune.

Ports ``Torch.EnforceMLPolicy`` and ``getNumCPUPerNode``
(``pkg/runtime/framework/plugins/torch/torch.go``) and ``getRecipeAndConfig``,
``isLoraConfigEnabled``, ``isBoolArgEnabled``, ``isUseQLoraFinetune``,
``extractOverridesFromRuntime`` and ``getModelFromRuntimeRef`` (``torchtune.go``), at tag
**v2.3.0**. It acts when the runtime's ``mlPolicy.torch`` is set:

* the trainer PodSet's count becomes ``trainer.numNodes`` when the TrainJob sets it;
* **numProcPerNode** (``PET_NPROC_PER_NODE``): ``trainer.numProcPerNode`` when set (an int),
  else ``auto`` -- which becomes the number of CPUs per node (at least 1) when the node has no
  GPU. GPUs and CPUs are read from ``trainer.resourcesPerNode`` when set, else from the runtime's
  node container (:func:`~mpigen.trainer.info.resources_per_node`): a GPU is any resource whose
  name contains "gpu", in requests else limits; CPUs are the cpu request (rounded up), else the
  cpu limit;
* the trainer container (``node`` of the trainer-ancestor job) gets the TrainJob's env, then
  ``PET_NNODES`` (the PodSet's count), ``PET_NPROC_PER_NODE``, ``PET_NODE_RANK`` (the job
  completion index), and -- unless the command is ``tune run`` -- ``PET_MASTER_ADDR``
  (``<job>-node-0-0.<job>``, whatever the JobSet's subdomain) and ``PET_MASTER_PORT`` (29500),
  plus the container port 29500 (upserted: it replaces a port of that number, or the first port
  without a name);
* ``tune run`` (torchtune): the command gets ``--rdzv_endpoint=<job>-node-0-0.<job>:29500``
  when several nodes or processes, the recipe and ``--config <model><suffix>`` chosen from
  numNodes, numProcPerNode, the GPUs and the LoRA/QLoRA arguments, then the runtime node
  command's ``output_dir=``/``tokenizer.path=``/``checkpointer.checkpoint_dir=``/
  ``tokenizer.merges_file=`` overrides;
* each ``mlPolicy.torch.envInjection`` target container gets the PET_* and master variables too
  (a target that does not exist is an error: nothing is created).
"""

from __future__ import annotations

from typing import Any

from .info import ANCESTOR_TRAINER, NODE, Info, TrainerError, env_vars, int32, num_cpu_per_node, num_gpu_per_node, \
    resources_per_node, upsert_env, upsert_ports

TRAINER_PORT = 29500  # constants.ContainerTrainerPort
COMPLETION_INDEX_PATH = "metadata.annotations['batch.kubernetes.io/job-completion-index']"
TORCHTUNE_ENTRYPOINT = ["tune", "run"]
RESERVED_ENV = ("PET_NNODES", "PET_NPROC_PER_NODE", "PET_NODE_RANK", "PET_MASTER_ADDR", "PET_MASTER_PORT")
TORCHTUNE_IMMUTABLE_CONFIGS = ("output_dir", "tokenizer.path", "checkpointer.checkpoint_dir",
                               "tokenizer.merges_file")
TORCHTUNE_MODELS = ("llama3_2/1B", "llama3_2/3B", "llama3_3/70B", "qwen2_5/1.5B")


def completion_index_env(name: str) -> dict[str, Any]:
    return {"name": name, "valueFrom": {"fieldRef": {"fieldPath": COMPLETION_INDEX_PATH}}}


def num_proc_per_node(info: Info, trainjob: dict[str, Any]) -> int | str:
    """PET_NPROC_PER_NODE: ``trainer.numProcPerNode``, else ``"auto"`` with GPUs, else the CPUs (>= 1)."""
    return _num_proc_per_node(info, trainjob)[0]


def _num_proc_per_node(info: Info, trainjob: dict[str, Any]) -> tuple[int | str, str]:
    """(numProcPerNode, why) -- the why for ``mpigen explain``."""
    trainer = (trainjob.get("spec") or {}).get("trainer") or {}
    if trainer.get("numProcPerNode") is not None:
        return trainer["numProcPerNode"], "trainer.numProcPerNode"
    resources = resources_per_node(info, trainjob)
    where = "trainer.resourcesPerNode" if "resourcesPerNode" in trainer else "the runtime's node container"
    gpus = num_gpu_per_node(resources)
    if gpus == 0:
        cpus = num_cpu_per_node(resources)
        # intstr.FromInt: the count becomes an int32 (a count beyond 2**31 wraps around)
        return int32(max(1, cpus)), f"auto without a GPU: the CPUs per node ({cpus} in {where}), at least 1"
    return "auto", f"torchrun starts one process per GPU: {gpus} per node in {where}"


def enforce_ml_policy(info: Info, trainjob: dict[str, Any]) -> None:
    """``Torch.EnforceMLPolicy``: changes ``info`` (and, for torchtune, the TrainJob's command)."""
    torch = info.policy("torch")
    if torch is None:
        return
    spec = trainjob.get("spec") or {}
    trainer = spec.get("trainer")
    name = trainjob["metadata"]["name"]
    trainer_ps = info.pod_set_by_ancestor(ANCESTOR_TRAINER)
    if trainer_ps is not None and isinstance(trainer, dict) and trainer.get("numNodes") is not None:
        trainer_ps.count = trainer["numNodes"]
    nproc, info.num_proc_reason = _num_proc_per_node(info, trainjob)
    info.num_proc_per_node = nproc
    gpus = num_gpu_per_node(resources_per_node(info, trainjob))
    container = None
    if isinstance(trainer, dict):
        container = info.container_by_ancestor(ANCESTOR_TRAINER, NODE)
        if container is not None:
            upsert_env(container.env, *env_vars(trainer.get("env")))
    nodes = trainer_ps.count if trainer_ps is not None else 1
    pet = [{"name": "PET_NNODES", "value": str(nodes)}, {"name": "PET_NPROC_PER_NODE", "value": str(nproc)},
           completion_index_env("PET_NODE_RANK")]
    master = [{"name": "PET_MASTER_ADDR", "value": f"{name}-{NODE}-0-0.{name}"},
              {"name": "PET_MASTER_PORT", "value": str(TRAINER_PORT)}]
    if container is not None:
        upsert_env(container.env, *pet)
        command = trainer.get("command")
        if command != TORCHTUNE_ENTRYPOINT:
            upsert_env(container.env, *master)
        else:
            trainer["command"] = list(command) + torchtune_arguments(info, trainjob, nodes, nproc, gpus)
        upsert_ports(container.ports, {"containerPort": TRAINER_PORT})
    for target in (torch.get("envInjection") or {}).get("targets") or []:
        for container_name in target.get("containerNames") or []:
            found = info.container_by_pod_set_name(target.get("jobName", ""), container_name)
            if found is None:
                raise TrainerError(f"envInjection target podSet {target.get('jobName', '')!r} container "
                                   f"{container_name!r} not found in runtime template", ("runtime", "spec", "mlPolicy",
                                                                                        "torch", "envInjection"))
            upsert_env(found.env, *pet)
            upsert_env(found.env, *master)


# ------------------------------------------------------------------ torchtune


def model_of(runtime_name: str) -> str:
    """``getModelFromRuntimeRef``: ``torchtune-llama3.2-1b`` -> ``llama3_2/1B``; "" unless 3 parts."""
    fields = runtime_name.split("-")
    if len(fields) != 3:
        return ""
    return f"{fields[1].replace('.', '_')}/{fields[2].upper()}"


def _lora(args: list[str]) -> bool:
    return any("model.lora_attn_modules" in arg for arg in args)


def _bool_arg(args: list[str], item: str) -> bool:
    for arg in args:
        key, sep, value = arg.partition("=")
        if sep and item in key and value.strip().lower() == "true":
            return True
    return False


def _qlora(args: list[str]) -> bool:
    return not _bool_arg(args, "model.use_dora") and _bool_arg(args, "model.quantize_base")


def recipe_and_config(nodes: int, nproc: int | str, gpus: int, trainjob: dict[str, Any]) -> tuple[str, str]:
    """``getRecipeAndConfig``."""
    spec = trainjob.get("spec") or {}
    args = list((spec.get("trainer") or {}).get("args") or [])
    recipe, suffix = "full_finetune_distributed", "_full"
    if nodes == 1 and (nproc == 1 or gpus == 1):
        if _qlora(args):
            recipe, suffix = "lora_finetune_single_device", "_qlora_single_device"
        elif _lora(args):
            recipe, suffix = "lora_finetune_single_device", "_lora_single_device"
        else:
            recipe, suffix = "full_finetune_single_device", "_full_single_device"
    elif nodes == 1 and _qlora(args):
        recipe, suffix = "lora_finetune_distributed", "_qlora"
    elif nodes == 1 and _lora(args):
        recipe, suffix = "lora_finetune_distributed", "_lora"
    elif nodes > 1:
        suffix = "_full_multinode"
    return recipe, model_of((spec.get("runtimeRef") or {}).get("name", "")) + suffix


def _runtime_overrides(info: Info) -> list[str]:
    """``extractOverridesFromRuntime``: the trainer node command's immutable config arguments."""
    out = []
    for rjob in info.jobset_spec.get("replicatedJobs") or []:
        labels = ((rjob.get("template") or {}).get("metadata") or {}).get("labels")
        if not labels or labels.get("trainer.kubeflow.org/trainjob-ancestor-step") != ANCESTOR_TRAINER:
            continue
        for c in rjob["template"]["spec"]["template"]["spec"].get("containers") or []:
            if c.get("name") == NODE:
                out += [a for a in c.get("command") or [] if a.split("=")[0] in TORCHTUNE_IMMUTABLE_CONFIGS]
    return out


def torchtune_arguments(info: Info, trainjob: dict[str, Any], nodes: int, nproc: int | str, gpus: int) -> list[str]:
    """What ``tune run`` gets appended: rendezvous endpoint, recipe, config, runtime overrides."""
    name = trainjob["metadata"]["name"]
    out = []
    if nodes > 1 or (isinstance(nproc, int) and nproc > 1) or (isinstance(nproc, str) and gpus > 1):
        out.append(f"--rdzv_endpoint={name}-{NODE}-0-0.{name}:{TRAINER_PORT}")
    recipe, config = recipe_and_config(nodes, nproc, gpus, trainjob)
    return out + [recipe, "--config", config] + _runtime_overrides(info)
