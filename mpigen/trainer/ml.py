"""The plain, JAX and XGBoost ML-policy plugins of Trainer v2.3.0.

Ports ``PlainML.EnforceMLPolicy`` (``pkg/runtime/framework/plugins/plainml/plainml.go``),
``Jax.EnforceMLPolicy`` (``plugins/jax/jax.go``) and ``XGBoost.EnforceMLPolicy``
(``plugins/xgboost/xgboost.go``) at tag **v2.3.0**:

* **plainml** acts unless the runtime's mlPolicy sets torch, mpi or jax -- so also for xgboost
  and flux runtimes, and for a runtime without mlPolicy: the trainer PodSet's count becomes
  ``trainer.numNodes`` when set, and the trainer container (``node`` of the trainer-ancestor
  job) gets the TrainJob's env;
* **jax**: the count as above; the trainer container gets ``JAX_NUM_PROCESSES`` (the count),
  ``JAX_PROCESS_ID`` (the job completion index), ``JAX_COORDINATOR_ADDRESS``
  (``<job>-node-0-0.<job>:29500``) and the port 29500. (The TrainJob's env comes from the
  jobset plugin's builder.);
* **xgboost**: the count as above; the trainer container gets ``DMLC_TRACKER_URI``
  (``<job>-node-0-0.<job>``), ``DMLC_TRACKER_PORT`` (29500), ``DMLC_TASK_ID`` (the completion
  index) and ``DMLC_NUM_WORKER`` = count x workers per node (the GPUs per node, else 1), and the
  port 29500.

The framework runs these in Go's random map order; plainml and xgboost both act on an xgboost
runtime and both append env, so the order of the TrainJob's variables and the DMLC_* ones in
the container varies from one reconcile to another. mpigen runs them in the registry's source
order (plainml first: the TrainJob's variables, then DMLC_*).
"""

from __future__ import annotations

from typing import Any

from .info import ANCESTOR_TRAINER, NODE, Info, env_vars, int32, num_gpu_per_node, resources_per_node, upsert_env, \
    upsert_ports
from .torch import TRAINER_PORT, completion_index_env

XGBOOST_RESERVED_ENV = ("DMLC_TRACKER_URI", "DMLC_TRACKER_PORT", "DMLC_TASK_ID", "DMLC_NUM_WORKER")


def _trainer(trainjob: dict[str, Any]) -> dict[str, Any] | None:
    trainer = (trainjob.get("spec") or {}).get("trainer")
    return trainer if isinstance(trainer, dict) else None


def _set_count(info: Info, trainjob: dict[str, Any]) -> None:
    trainer = _trainer(trainjob)
    ps = info.pod_set_by_ancestor(ANCESTOR_TRAINER)
    if ps is not None and trainer is not None and trainer.get("numNodes") is not None:
        ps.count = trainer["numNodes"]


def plainml_enforce_ml_policy(info: Info, trainjob: dict[str, Any]) -> None:
    if info.policy("torch") is not None or info.policy("mpi") is not None or info.policy("jax") is not None:
        return
    _set_count(info, trainjob)
    trainer = _trainer(trainjob)
    if trainer is not None:
        container = info.container_by_ancestor(ANCESTOR_TRAINER, NODE)
        if container is not None:
            upsert_env(container.env, *env_vars(trainer.get("env")))


def jax_enforce_ml_policy(info: Info, trainjob: dict[str, Any]) -> None:
    if info.policy("jax") is None:
        return
    _set_count(info, trainjob)
    if _trainer(trainjob) is None:
        return
    container = info.container_by_ancestor(ANCESTOR_TRAINER, NODE)
    if container is None:
        return
    ps = info.pod_set_by_ancestor(ANCESTOR_TRAINER)
    name = trainjob["metadata"]["name"]
    upsert_env(container.env, {"name": "JAX_NUM_PROCESSES", "value": str(ps.count if ps else 1)},
               completion_index_env("JAX_PROCESS_ID"),
               {"name": "JAX_COORDINATOR_ADDRESS", "value": f"{name}-{NODE}-0-0.{name}:{TRAINER_PORT}"})
    upsert_ports(container.ports, {"containerPort": TRAINER_PORT})


def xgboost_enforce_ml_policy(info: Info, trainjob: dict[str, Any]) -> None:
    if info.policy("xgboost") is None:
        return
    ps = info.pod_set_by_ancestor(ANCESTOR_TRAINER)
    if ps is None:
        return
    _set_count(info, trainjob)
    if _trainer(trainjob) is None:
        return
    container = info.container_by_ancestor(ANCESTOR_TRAINER, NODE)
    if container is None:
        return
    gpus = num_gpu_per_node(resources_per_node(info, trainjob))
    per_node = int32(gpus) if gpus > 0 else 1
    total = int32(ps.count * per_node)
    name = trainjob["metadata"]["name"]
    upsert_env(container.env, {"name": "DMLC_TRACKER_URI", "value": f"{name}-{NODE}-0-0.{name}"},
               {"name": "DMLC_TRACKER_PORT", "value": str(TRAINER_PORT)},
               completion_index_env("DMLC_TASK_ID"),
               {"name": "DMLC_NUM_WORKER", "value": str(total)})
    upsert_ports(container.ports, {"containerPort": TRAINER_PORT})
