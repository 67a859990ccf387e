"""The jobset plugin of Trainer v2.3.0: the pods' network, the parallelism, and the JobSet itself.

Ports ``JobSet.IdentifyPodNetwork``, ``JobSet.SyncParallelCount`` and ``JobSet.Build``
(``pkg/runtime/framework/plugins/jobset/jobset.go``) and the ``Builder`` (``builder.go``:
``Initializer``, ``Trainer``, ``PodLabels``, ``PodAnnotations``, ``Suspend``) at tag **v2.3.0**:

* **endpoints** of each PodSet: ``<job>-<replicated job>-<replica>-<pod>.<subdomain>`` for every
  replica of the replicated job (the runtime's ``replicas``, default 1) and every pod (the
  PodSet's count); the subdomain is ``spec.network.subdomain`` when set, else the job's name;
* **parallelism** and **completions** of each replicated job = its PodSet's count;
* the JobSet (``jobset.x-k8s.io/v1alpha2``), named and placed as the TrainJob, labelled and
  annotated with the runtime template's (patched) metadata, its spec the runtime's (patched)
  spec where, per replicated job: the PodSet's volumes are upserted into the pod spec, and for
  each of its containers (then init containers, one appended for each the plugins added) the
  command and image when the plugins set one, and the env, ports and volume mounts upserted;
* then the builder: a ``dataset-initializer`` / ``model-initializer`` job gets ``replicas: 1``
  and its container of that name ``STORAGE_URI`` and the initializer's env (and ``envFrom``
  its secret); the **trainer** job (label ``trainer.kubeflow.org/trainjob-ancestor-step:
  trainer``) gets ``replicas: 1`` and its ``node`` container the TrainJob's image, command and
  args when set; that container -- and with ``runLauncherAsNode`` the ``node`` job's ``node``
  container -- the TrainJob's env (upserted: already there from the ML plugins, except for MPI
  and JAX runtimes); every pod template the PodGroup label or annotation;
  ``spec.suspend`` = the TrainJob's ``suspend`` (CRD default false).
"""

from __future__ import annotations

import copy
from typing import Any

from .info import ANCESTOR_DATASET, ANCESTOR_LABEL, ANCESTOR_MODEL, ANCESTOR_TRAINER, DEFAULT_JOB_REPLICAS, NODE, \
    Endpoints, Info, TrainerError, env_vars, pod_spec_of, upsert_env, upsert_ports, upsert_volume_mounts, \
    upsert_volumes

API_VERSION = "jobset.x-k8s.io/v1alpha2"


def identify_pod_network(info: Info, trainjob: dict[str, Any]) -> None:
    """``IdentifyPodNetwork``: each PodSet's endpoints (computed on demand, never listed)."""
    name = trainjob["metadata"]["name"]
    network = info.jobset_spec.get("network") or {}
    subdomain = network.get("subdomain") or name
    for rjob, ps in zip(info.jobset_spec.get("replicatedJobs") or [], info.pod_sets):
        replicas = rjob.get("replicas") if rjob.get("replicas") is not None else DEFAULT_JOB_REPLICAS
        ps.endpoints = Endpoints(name, rjob.get("name") or "", replicas, ps.count, subdomain)


def sync_parallel_count(info: Info) -> None:
    for ps in info.pod_sets:
        for rjob in info.jobset_spec.get("replicatedJobs") or []:
            if rjob.get("name") == ps.name:
                job_spec = rjob["template"]["spec"]
                job_spec["parallelism"] = ps.count
                job_spec["completions"] = ps.count
                break


def _apply_container(target: dict[str, Any], container: Any) -> None:
    if container.command:
        target["command"] = list(container.command)
    if container.image:
        target["image"] = container.image
    for key, items, upsert in (("env", container.env, upsert_env), ("ports", container.ports, upsert_ports),
                               ("volumeMounts", container.volume_mounts, upsert_volume_mounts)):
        merged = list(target.get(key) or [])
        upsert(merged, *items)
        if merged:
            target[key] = merged


def _labels(rjob: dict[str, Any]) -> dict[str, str] | None:
    return (rjob["template"].get("metadata") or {}).get("labels")


def _initializer(spec: dict[str, Any], trainjob: dict[str, Any]) -> None:
    """``Builder.Initializer``."""
    initializer = (trainjob.get("spec") or {}).get("initializer") or {}
    for rjob in spec.get("replicatedJobs") or []:
        labels = _labels(rjob)
        if not labels:
            continue
        for ancestor, key in ((ANCESTOR_DATASET, "dataset"), (ANCESTOR_MODEL, "model")):
            if labels.get(ANCESTOR_LABEL) != ancestor:
                continue
            rjob["replicas"] = 1
            source = initializer.get(key) if isinstance(initializer, dict) else None
            for container in pod_spec_of(rjob).get("containers") or []:
                if container.get("name") != ancestor or not isinstance(source, dict):
                    continue
                env = list(container.get("env") or [])
                if source.get("storageUri") is not None:
                    upsert_env(env, {"name": "STORAGE_URI", "value": source["storageUri"]})
                upsert_env(env, *env_vars(source.get("env")))
                if env:
                    container["env"] = env
                if isinstance(source.get("secretRef"), dict):
                    container["envFrom"] = list(container.get("envFrom") or []) + [
                        {"secretRef": {"name": source["secretRef"].get("name", "")}}]


def _trainer(spec: dict[str, Any], info: Info, trainjob: dict[str, Any]) -> None:
    """``Builder.Trainer``."""
    trainer = (trainjob.get("spec") or {}).get("trainer")
    trainer = trainer if isinstance(trainer, dict) else None
    mpi = info.policy("mpi") or {}
    launcher_as_node = mpi.get("runLauncherAsNode") is True
    for rjob in spec.get("replicatedJobs") or []:
        ancestor = (_labels(rjob) or {}).get(ANCESTOR_LABEL, "")
        containers = [c for c in pod_spec_of(rjob).get("containers") or [] if c.get("name") == NODE]
        if ancestor == ANCESTOR_TRAINER:
            rjob["replicas"] = 1
            for container in containers:
                if trainer is None:
                    continue
                for key in ("image", "command", "args"):
                    if trainer.get(key) is not None:
                        container[key] = copy.deepcopy(trainer[key])
        if ancestor == ANCESTOR_TRAINER or launcher_as_node and rjob.get("name") == NODE:
            for container in containers:
                if trainer is not None:
                    env = list(container.get("env") or [])
                    upsert_env(env, *env_vars(trainer.get("env")))
                    if env:
                        container["env"] = env


def trainjob_fields(spec: dict[str, Any], info: Info, trainjob: dict[str, Any]) -> None:
    """The builder's ``Initializer`` and ``Trainer``: the TrainJob's own fields written into the
    JobSet spec ``spec`` (in place)."""
    _initializer(spec, trainjob)
    _trainer(spec, info, trainjob)


def build(info: Info, trainjob: dict[str, Any]) -> list[dict[str, Any]]:
    """``JobSet.Build`` for a new TrainJob (no JobSet exists yet)."""
    spec = copy.deepcopy(info.jobset_spec)
    rjobs = spec.get("replicatedJobs") or []
    if len(rjobs) < len(info.pod_sets):
        raise TrainerError(f"runtime template has {len(rjobs)} replicatedJobs but runtime info has "
                           f"{len(info.pod_sets)} podSets")
    for rjob, ps in zip(rjobs, info.pod_sets):
        pod = pod_spec_of(rjob)
        volumes = list(pod.get("volumes") or [])
        upsert_volumes(volumes, *ps.volumes)
        if volumes:
            pod["volumes"] = volumes
        containers = pod.get("containers") or []
        for i, container in enumerate(ps.containers):
            if i >= len(containers):
                raise TrainerError(f"index out of range [{i}] with length {len(containers)}")
            _apply_container(containers[i], container)
        inits = pod.setdefault("initContainers", [])
        for i, container in enumerate(ps.init_containers):
            if i >= len(inits):
                inits.append({"name": container.name})
            _apply_container(inits[i], container)
        if not inits:
            del pod["initContainers"]
    trainjob_fields(spec, info, trainjob)
    for rjob in rjobs:
        template = rjob["template"]["spec"].setdefault("template", {})
        meta = template.setdefault("metadata", {})
        if info.pod_labels:
            meta["labels"] = {**(meta.get("labels") or {}), **info.pod_labels}
        if info.pod_annotations:
            meta["annotations"] = {**(meta.get("annotations") or {}), **info.pod_annotations}
        if not meta:
            del template["metadata"]
    spec["suspend"] = (trainjob.get("spec") or {}).get("suspend")
    if spec["suspend"] is None:
        del spec["suspend"]
    metadata: dict[str, Any] = {"name": trainjob["metadata"]["name"], "namespace": trainjob["metadata"]["namespace"]}
    if info.labels:
        metadata["labels"] = dict(info.labels)
    if info.annotations:
        metadata["annotations"] = dict(info.annotations)
    return [{"apiVersion": API_VERSION, "kind": "JobSet", "metadata": metadata, "spec": spec}]
