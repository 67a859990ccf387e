"""``mpigen import manifest``, a TrainJob's first two layers: its own fields and its runtime patches,
read into the spec's fields (:mod:`.manifest_trainjob` says how a TrainJob is imported), and the
replicated jobs' fields factored into job-wide ones and ``roles``.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from ..credentials import looks_like_credential
from ..expand.trainjob_roles import INITIALIZER_KEYS, RuntimeRole, canonical_quantity, runtime_roles
from ..names import CLUSTER_TRAINING_RUNTIME_KIND, SPEC_API_VERSION, SPEC_KIND, TRAINER_VERSION, TRAINING_RUNTIME_KIND
from ..render.pods import ISTIO_INJECT
from ..render.trainjob import num_nodes
from ..spec.runtime_rules import launcher_is_node, ml_policies
from ..trainer.framework import mpi_node_pods
from ..trainer.patch import POD_TEMPLATE, PatchError
from ..trainer.patch import merge as merge_patch
from ..trainer.podgroup import VOLCANO_QUEUE_ANNOTATION
from .manifest_gang import KUEUE_PRIORITY, KUEUE_QUEUE
from .manifest_pods import ENV_NAME, Finding, container_resources, dropped, env_map, lost, spec_volumes

FRAMEWORKS = {"torch": "pytorch", "mpi": "mpi"}
TRAINER_CONTROLLER = "trainer.kubeflow.org/trainjob-controller"
"""The TrainJob's ``managedBy`` by default: Trainer's own controller."""
PATCH_POD_FIELDS = {"serviceAccountName": "serviceAccountName", "nodeSelector": "nodeSelector",
                    "affinity": "affinity", "tolerations": "tolerations", "securityContext": "podSecurityContext"}
"""A runtime patch's pod fields that a spec field says as it is: the pod's name -> the spec's."""


@dataclass
class Layer:
    """What one replicated job of the TrainJob's runtime gets: its role, and the spec fields read
    for it (each with the path in the manifest it was read from)."""

    role: RuntimeRole
    fields: dict[str, Any] = field(default_factory=dict)
    origin: dict[str, tuple] = field(default_factory=dict)

    def set(self, key: str, value: Any, where: tuple) -> None:
        self.fields[key] = value
        self.origin[key] = where


def runtime_spec_ref(runtime: dict[str, Any]) -> Any:
    """``spec.runtime`` naming ``runtime``: its name (a ClusterTrainingRuntime), else ``{name, kind}``."""
    name = runtime["metadata"]["name"]
    return name if runtime.get("kind") == CLUSTER_TRAINING_RUNTIME_KIND else {"name": name,
                                                                              "kind": TRAINING_RUNTIME_KIND}


def framework_of(runtime: dict[str, Any]) -> str | None:
    policies = ml_policies(runtime)
    return FRAMEWORKS.get(policies[0]) if len(policies) == 1 else None


# ------------------------------------------------------------------------------ layer 1: the TrainJob


def trainer_fields(job: dict[str, Any], runtime: dict[str, Any], framework: str, layers: list[Layer],
                   findings: list[Finding]) -> tuple[dict[str, Any], dict[str, Any]]:
    """(the spec's fields from ``trainer``, the limits and requests of ``resourcesPerNode`` that
    its ``resources`` cannot say: requests unlike the limits, for a pod template patch)."""
    trainer = (job.get("spec") or {}).get("trainer") or {}
    where = ("spec", "trainer")
    out: dict[str, Any] = {}
    for key in ("image", "command", "args"):
        if trainer.get(key) is not None and (key != "args" or trainer[key]):
            out[key] = copy.deepcopy(trainer[key])
    if trainer.get("env"):
        env = _env(trainer["env"], where + ("env",), findings)
        if env:
            out["env"] = env
    if "trainer" not in (job.get("spec") or {}) and framework == "pytorch":
        findings.append(lost(where, "no trainer: Trainer's torch plugin gives the trainer's node container the "
                                    "PET_* variables and the port 29500 only when the TrainJob has one, and a spec's "
                                    "TrainJob always has one (numNodes: its workers + 1)"))
    out["workers"] = _workers(job, runtime, framework, findings)
    if trainer.get("numProcPerNode") is not None:
        out["slotsPerWorker"] = trainer["numProcPerNode"]
    patched: dict[str, Any] = {}
    per_node = trainer.get("resourcesPerNode")
    if per_node:
        # Trainer reads the quantities typed: 8 and "8", 4096Mi and 4Gi are the same to it
        resources, _ = container_resources({k: _canonical(v) if k in ("limits", "requests") else v
                                            for k, v in per_node.items()}, None, "nvidia.com/gpu")
        refused = framework == "mpi" and not launcher_is_node(runtime)  # resources would size the nodes too
        if resources is not None and not refused and "claims" not in per_node:
            out["resources"] = resources
        elif set(per_node) <= {"limits", "requests"}:
            patched = {k: dict(v) for k, v in per_node.items() if v}
        else:
            for key in sorted(set(per_node) - {"limits", "requests"}):
                findings.append(lost(where + ("resourcesPerNode", key), f"resourcesPerNode.{key}: Trainer merges the "
                                     "limits and requests of resourcesPerNode into the node containers only"))
    for key in trainer:
        if key not in ("image", "command", "args", "env", "numNodes", "numProcPerNode", "resourcesPerNode"):
            findings.append(lost(where + (key,), f"trainer.{key}: not a field of Trainer {TRAINER_VERSION}'s TrainJob"))
    _initializers(job, layers, findings)
    return out, patched


def _workers(job: dict[str, Any], runtime: dict[str, Any], framework: str, findings: list[Finding]) -> int:
    """``spec.workers`` for the pods Trainer runs. PyTorch: the nodes besides the Master, node 0
    (``numNodes``, else the runtime's). MPI: the node job's pods as the mpi plugin counts them (of
    ``numNodes``, else the runtime's), from which mpigen writes a ``numNodes`` that gives as many."""
    where = ("spec", "trainer", "numNodes")
    given = ((job.get("spec") or {}).get("trainer") or {}).get("numNodes")
    nodes = given if given is not None else ((runtime.get("spec") or {}).get("mlPolicy") or {}).get("numNodes") or 1
    if framework == "pytorch":
        if nodes < 1:
            findings.append(lost(where, f"numNodes {nodes}: a spec's PyTorch TrainJob has its Master, node 0 "
                                        "(numNodes 1 with workers: 0)"))
        return nodes - 1
    pods = mpi_node_pods(job, runtime)
    workers = pods if pods is not None else nodes - 1 if launcher_is_node(runtime) else nodes
    if workers < 1:
        findings.append(lost(where, f"the node job has {workers} pods: mpigen's MPI TrainJob has at least one "
                                    "node pod besides the launcher (workers: 1)"))
        return workers
    written = num_nodes({"framework": framework, "workers": workers}, runtime)
    if given is not None and written != given:
        findings.append(dropped(where, f"numNodes {given} is imported as workers: {workers}, which mpigen writes as "
                                       f"numNodes {written}: on a runtime whose launcher is a node, Trainer gives "
                                       f"the node job max(numNodes - 1, 1) pods, {workers} for both"))
    return workers


def _canonical(values: Any) -> Any:
    """A ResourceList's quantities in their canonical spelling (as they are where one does not parse)."""
    if not isinstance(values, dict):
        return values
    return {name: canonical_quantity(value) or value for name, value in values.items()}


def _env(env: list[Any], where: tuple, findings: list[Finding]) -> dict[str, Any] | None:
    """A TrainJob's variables as the spec's ``env`` (a map mpigen writes sorted), else lost."""
    found = env_map(env)
    if found is not None:
        return found
    names = [e.get("name") if isinstance(e, dict) else None for e in env]
    for i, item in enumerate(env):
        if not isinstance(item, dict):
            continue
        plain = set(item) == {"name", "value"} and isinstance(item.get("value"), str)
        source = item.get("valueFrom") if isinstance(item.get("valueFrom"), dict) else {}
        secret = set(item) == {"name", "valueFrom"} and set(source) == {"secretKeyRef"} and \
            isinstance(source["secretKeyRef"], dict) and set(source["secretKeyRef"]) == {"name", "key"}
        if plain and looks_like_credential(str(item.get("name")), item["value"]):
            why = "its value looks like a credential: a spec keeps credentials in a Secret (secretKeyRef)"
        elif not (plain or secret):
            why = "a spec's env is a value or a Secret's key (secretKeyRef with its name and key)"
        elif names.count(item.get("name")) > 1:
            why = "the variable is given twice"
        elif not isinstance(item.get("name"), str) or not ENV_NAME.match(item["name"]):
            why = "not a name a spec's env takes"
        else:
            continue
        findings.append(lost(where + (i,), f"the variable {item.get('name')!r}: {why}"))
        return None
    findings.append(lost(where, "the variables are not sorted by name: mpigen writes a spec's env sorted, and the "
                                "order is the container's"))
    return None


def _initializers(job: dict[str, Any], layers: list[Layer], findings: list[Finding]) -> None:
    """``initializer.dataset`` and ``initializer.model``: the initializer role's ``env`` (and
    ``storageUri`` as its ``STORAGE_URI``, which Trainer sets first)."""
    initializer = (job.get("spec") or {}).get("initializer") or {}
    by_key = {INITIALIZER_KEYS[layer.role.name]: layer for layer in layers if layer.role.initializer_api}
    for key, source in initializer.items():
        where = ("spec", "initializer", key)
        layer = by_key.get(key)
        if not isinstance(source, dict) or not source:
            continue
        if layer is None:
            findings.append(lost(where, f"initializer.{key}: the runtime has no {key}-initializer job that Trainer's "
                                        "initializer API reaches"))
            continue
        env: dict[str, Any] = {}
        if source.get("env"):
            env = _env(source["env"], where + ("env",), findings) or {}
        if source.get("storageUri") is not None:
            if env and (min(env) < "STORAGE_URI" or "STORAGE_URI" in env):
                findings.append(lost(where + ("storageUri",), "storageUri beside variables named before STORAGE_URI "
                                     "(or STORAGE_URI itself): Trainer sets STORAGE_URI first, and mpigen writes an "
                                     "initializer's variables sorted by name, STORAGE_URI among them"))
            env = dict(sorted({**env, "STORAGE_URI": source["storageUri"]}.items()))
        if env:
            layer.set("env", env, where)
        for other in source:
            if other not in ("env", "storageUri"):
                findings.append(lost(where + (other,), f"initializer.{key}.{other}: mpigen writes an initializer's "
                                                       "variables only (a Secret's keys as secretKeyRef in its env)"))


def run_policy(job: dict[str, Any], findings: list[Finding]) -> dict[str, Any]:
    """``spec.runPolicy`` and what the TrainJob's spec has beside it (``managedBy``...)."""
    spec = job.get("spec") or {}
    labels = (job.get("metadata") or {}).get("labels") or {}
    out: dict[str, Any] = {}
    if spec.get("suspend"):
        if KUEUE_QUEUE in labels:
            findings.append(dropped(("spec", "suspend"), "suspend is not imported: Kueue suspends the job when it is "
                                                         "created and resumes it when it admits it"))
        else:
            out["suspend"] = True
    if spec.get("activeDeadlineSeconds"):
        out["activeDeadlineSeconds"] = spec["activeDeadlineSeconds"]
    if spec.get("managedBy") not in (None, TRAINER_CONTROLLER):
        findings.append(lost(("spec", "managedBy"), f"managedBy {spec['managedBy']!r}: another controller manages the "
                                                    "job (MultiKueue); a spec's TrainJob is Trainer's"))
    known = ("runtimeRef", "initializer", "trainer", "runtimePatches", "suspend", "activeDeadlineSeconds", "managedBy")
    for key in spec:
        if key not in known:
            findings.append(lost(("spec", key), f"spec.{key}: not a field of Trainer {TRAINER_VERSION}'s TrainJob"))
    return out


def kueue(metadata: dict[str, Any]) -> dict[str, Any]:
    """``scheduling`` of Kueue's labels, taken out of the job's (mpigen writes them from it)."""
    labels = metadata.get("labels") or {}
    if KUEUE_QUEUE not in labels:
        return {}
    out = {"gang": "kueue", "queue": labels.pop(KUEUE_QUEUE)}
    if KUEUE_PRIORITY in labels:
        out["priorityClass"] = labels.pop(KUEUE_PRIORITY)
    if not labels:
        metadata.pop("labels")
    return out


# ------------------------------------------------------------------------------ layer 2: the runtime patches


def runtime_patches(job: dict[str, Any], layers: list[Layer], job_labels: dict[str, Any], volcano: bool,
                    findings: list[Finding], queued: bool = False) -> dict[str, Any]:
    """Each replicated job's fields from the TrainJob's runtime patches (into ``layers``), and
    ``scheduling`` of the JobSet template's metadata: the Volcano queue, on a runtime with a
    volcano podGroupPolicy, when Kueue's (``queued``) is not the spec's ``scheduling.queue``."""
    by_name = {layer.role.name: layer for layer in layers}
    scheduling: dict[str, Any] = {}
    pods: dict[str, list[tuple[dict[str, Any], tuple]]] = {}  # each replicated job's, patch by patch
    for i, entry in enumerate((job.get("spec") or {}).get("runtimePatches") or []):
        where = ("spec", "runtimePatches", i, "trainingRuntimeSpec", "template")
        template = ((entry or {}).get("trainingRuntimeSpec") or {}).get("template") or {}
        meta = template.get("metadata") or {}
        for kind in ("labels", "annotations"):
            for key, value in (meta.get(kind) or {}).items():
                if kind == "annotations" and key == VOLCANO_QUEUE_ANNOTATION and volcano and not queued:
                    scheduling["queue"] = value
                    continue
                why = (" but the Volcano queue, on a runtime with a volcano podGroupPolicy and without Kueue's queue "
                       "(scheduling.queue is one of them)" if key == VOLCANO_QUEUE_ANNOTATION else "")
                findings.append(lost(where + ("metadata", kind, key), f"the JobSet's {kind[:-1]} {key}: a spec "
                                     f"says the TrainJob's and its pods' labels and annotations, not the JobSet's{why}"))
        for key in meta:
            if key not in ("labels", "annotations"):
                findings.append(lost(where + ("metadata", key), f"the JobSet template's metadata.{key}"))
        for j, rjob in enumerate((template.get("spec") or {}).get("replicatedJobs") or []):
            at = where + ("spec", "replicatedJobs", j)
            layer = by_name.get((rjob or {}).get("name"))
            if layer is None:  # the webhook refuses it (validate said so first)
                findings.append(lost(at + ("name",), f"no replicated job {rjob.get('name')!r} in the runtime"))
                continue
            job_template = rjob.get("template") or {}
            for key in job_template.get("metadata") or {}:
                findings.append(lost(at + ("template", "metadata", key), f"the {layer.role.name} Jobs' {key}: a spec "
                                     "says its pods' labels and annotations, not its Jobs'"))
            pod = (job_template.get("spec") or {}).get("template") or {}
            pods.setdefault(layer.role.name, []).append((pod, at + ("template", "spec", "template")))
    for name, patched in pods.items():
        try:
            merged = _merged_pods(patched)
        except PatchError as exc:  # Trainer's merge fails too: validate refuses the job first
            findings.append(lost(patched[-1][1], f"the runtime patches of {name}: {exc}"))
            continue
        _pod_patch(merged, _origins(patched, merged), by_name[name], job_labels, findings)
    return scheduling


def _merged_pods(patched: list[tuple[dict[str, Any], tuple]]) -> dict[str, Any]:
    """One replicated job's pod templates of the runtime patches, merged as ``mergeRuntimePatches``
    merges them into the runtime's, one after the other (a strategic merge patch: maps merged,
    containers and volumes by name, mounts by path, other lists replaced). Raises ``PatchError``."""
    merged = patched[0][0]
    for pod, _ in patched[1:]:
        merged = merge_patch(merged if isinstance(merged, dict) else {}, pod if isinstance(pod, dict) else {},
                             POD_TEMPLATE)
    return merged


def _origins(patched: list[tuple[dict[str, Any], tuple]], merged: dict[str, Any]) -> Any:
    """Where a path of the merged pod template is in the manifest: in the last runtime patch that
    says it (a container or volume found there by its name), else the last patch's pod template."""
    def origin(*path: Any) -> tuple:
        for pod, where in reversed(patched):
            found = _found(pod, merged, path)
            if found is not None:
                return where + found
        return patched[-1][1] + path

    return origin


def _found(pod: Any, merged: Any, path: tuple) -> tuple | None:
    """``path`` of ``merged`` as the path of the same place in ``pod`` (None: ``pod`` does not say it)."""
    out: list[Any] = []
    for step in path:
        if isinstance(step, int):
            item = merged[step] if isinstance(merged, list) and step < len(merged) else None
            if not isinstance(pod, list) or not isinstance(item, dict) or "name" not in item:
                return None
            index = next((i for i, other in enumerate(pod)
                          if isinstance(other, dict) and other.get("name") == item["name"]), None)
            if index is None:
                return None
            pod, merged = pod[index], item
            out.append(index)
        else:
            if not isinstance(pod, dict) or step not in pod:
                return None
            pod, merged = pod[step], merged.get(step) if isinstance(merged, dict) else None
            out.append(step)
    return tuple(out)


def _pod_patch(pod: dict[str, Any], at: Any, layer: Layer, job_labels: dict[str, Any],
               findings: list[Finding]) -> None:
    """One replicated job's pod template in the runtime patches (merged): the spec fields it says
    (see the module); ``at(*path)`` is where a path of it is in the manifest."""
    from ..render.pods import SHM_VOLUME
    from .manifest_features import SHM_PATH, _shm

    role = layer.role
    meta = pod.get("metadata") or {}
    labels = dict(meta.get("labels") or {})
    if role.trains:
        for key, value in job_labels.items():
            if labels.get(key) == value:
                del labels[key]
    if labels:
        layer.set("labels", dict(sorted(labels.items())), at("metadata", "labels"))
    annotations = {k: v for k, v in (meta.get("annotations") or {}).items()
                   if not (role.trains and k == ISTIO_INJECT and v == "false")}
    if annotations:
        layer.set("annotations", dict(sorted(annotations.items())), at("metadata", "annotations"))
    for key in meta:
        if key not in ("labels", "annotations"):
            findings.append(lost(at("metadata", key), f"a pod template's metadata.{key}"))
    spec = pod.get("spec") or {}
    for key, value in spec.items():
        if key in PATCH_POD_FIELDS:
            layer.set(PATCH_POD_FIELDS[key], copy.deepcopy(value), at("spec", key))
        elif key == "imagePullSecrets" and all(isinstance(s, dict) and set(s) == {"name"} for s in value or []):
            layer.set("imagePullSecrets", [s["name"] for s in value], at("spec", key))
        elif key not in ("volumes", "containers"):
            findings.append(lost(at("spec", key), f"{key} in a runtime patch: mpigen writes it in a "
                                 "TrainingRuntime copy's pod template, and the TrainJob would run on another runtime"))
    mounts: list[Any] = []
    for k, container in enumerate(spec.get("containers") or []):
        if not isinstance(container, dict) or container.get("name") != role.main:
            findings.append(lost(at("spec", "containers", k), "the container "
                                 f"{container.get('name') if isinstance(container, dict) else '?'!r} in a runtime "
                                 "patch: a spec's runtime patch reaches the training container only"))
            continue
        for key, value in container.items():
            if key == "volumeMounts":
                mounts = list(value or [])
            elif key == "securityContext":
                layer.set("securityContext", copy.deepcopy(value), at("spec", "containers", k, key))
            elif key != "name":
                findings.append(lost(at("spec", "containers", k, key), f"the training container's {key} in a "
                                     "runtime patch: Trainer's webhook refuses it (set by the TrainJob's fields)"))
    volumes = list(spec.get("volumes") or [])
    if volumes or mounts:
        # mpigen's /dev/shm: the last volume, mounted last (the mount is in the copy when a pod
        # template patch of the containers moved the runtime patch's there)
        shm_mount = {"name": SHM_VOLUME, "mountPath": SHM_PATH}
        unmounted = not any(isinstance(m, dict) and m.get("name") == SHM_VOLUME for m in mounts)
        shm = _shm({"spec": {"volumes": volumes, "containers": [{"volumeMounts": mounts + [shm_mount] if unmounted
                                                                  else mounts}]}}, 0)
        if shm is not None:
            volumes, mounts = volumes[:-1], (mounts if unmounted else mounts[:-1])
            layer.set("shmSize", shm, at("spec", "volumes", len(volumes)))
        said = spec_volumes(volumes, mounts)
        if said is None:
            findings.append(lost(at("spec", "volumes"), "the volumes and the training container's mounts: a "
                                 f"spec's volumes are mounted once each by name (mounts other than at {SHM_PATH} "
                                 "of volumes the patch defines)"))
        elif said:
            layer.set("volumes", said, at("spec", "volumes"))


# ------------------------------------------------------------------------------ the spec's job-wide fields and roles

TRAINER_ONLY = ("image", "command", "args")
REACHED_ONLY = ("env", "envFrom", "resources")
TRAINJOB_WIDE = ("image", "command", "args", "env", "resources")
"""Job-wide only as the TrainJob's own fields say them (``trainer.*``): a replicated job's own
value of these is said under ``roles``, never made job-wide (mpigen would write it into the TrainJob)."""


def factor(layers: list[Layer], spec: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Each field job-wide where every replicated job that takes it from the job has the same
    value (training jobs; the program: the trainer's; env, envFrom and resources: those
    ``trainer.env`` reaches), else under ``roles.<replicated job>`` (an initializer's always).
    ``spec`` gets the job-wide ones (where it has none of its own, and not of :data:`TRAINJOB_WIDE`);
    the roles' are returned."""
    own: dict[str, dict[str, Any]] = {layer.role.name: {} for layer in layers}
    names: list[str] = []
    for layer in layers:
        names += [k for k in layer.fields if k not in names]
    for key in names:
        takers = [layer for layer in layers if _takes(layer.role, key)]
        values = [layer.fields.get(key) for layer in takers]
        job_wide = spec.get(key)
        if job_wide is None and key not in TRAINJOB_WIDE and takers and values[0] is not None \
                and all(v == values[0] for v in values):
            spec[key] = job_wide = values[0]
        for layer in layers:
            value = layer.fields.get(key)
            inherited = job_wide if _takes(layer.role, key) else None
            if key == "env" and isinstance(value, dict) and isinstance(inherited, dict):
                extra = {k: v for k, v in value.items() if inherited.get(k) != v}
                if extra:
                    own[layer.role.name][key] = extra
            elif value != inherited and value is not None:
                own[layer.role.name][key] = value
    return {name: settings for name, settings in own.items() if settings}


def _takes(role: RuntimeRole, key: str) -> bool:
    """Whether ``role`` takes the job-wide ``key`` (:func:`mpigen.expand.trainjob_roles.trainjob_settings`)."""
    if not role.trains:
        return False
    if key in TRAINER_ONLY:
        return role.trainer
    if key in REACHED_ONLY:
        return role.reached
    return True


def layers_of(runtime: dict[str, Any]) -> list[Layer]:
    return [Layer(role) for role in runtime_roles(runtime)]


def spec_document(metadata: dict[str, Any], spec: dict[str, Any]) -> dict[str, Any]:
    from .manifest import _clean

    head = {k: spec[k] for k in ("framework", "runtime") if k in spec}
    return {"apiVersion": SPEC_API_VERSION, "kind": SPEC_KIND, "metadata": metadata,
            "spec": {**head, **_clean({k: v for k, v in spec.items() if k not in head})}}
