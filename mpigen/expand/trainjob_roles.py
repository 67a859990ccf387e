"""A TrainJob spec's roles: the replicated jobs of the runtime it names, and each one's settings.

A spec with ``spec.runtime`` compiles to a Kubeflow Trainer v2.3.0 TrainJob (:mod:`mpigen.render.trainjob`),
whose pods are those of its runtime's replicated jobs: ``node`` (torch-distributed), ``node`` and
``launcher`` (deepspeed-distributed, mlx-distributed), ``dataset-initializer``,
``model-initializer`` and ``node`` (the torchtune runtimes)... Each is a role, and
``spec.roles.<replicated job>`` holds its own settings, merged over the job-wide ones as for the
other kinds (:mod:`.roles`: maps merge, lists and values replace, ``null`` removes; resources
replace whole; the job-wide ``podTemplatePatch`` applies first, then the role's).

Which job-wide settings a role gets follows what Trainer does with the TrainJob's own fields:

* the training program -- ``image``, ``command``, ``args`` -- is the **trainer**'s, the job
  labelled ``trainer.kubeflow.org/trainjob-ancestor-step: trainer`` (Trainer's trainer API sets
  its ``node`` container: the torch nodes, the MPI launcher); ``env`` and ``envFrom`` also reach
  the MPI ``node`` job when the runtime runs its launcher as a node (``runLauncherAsNode``: Trainer
  gives that job ``trainer.env`` too), and so do ``resources`` (``trainer.resourcesPerNode``). The
  other MPI nodes run the runtime's image and sshd, as an MPIJob's workers run sshd;
* every other pod setting (placement, security, volumes, init containers and sidecars, labels,
  annotations...) reaches every job that trains;
* the dataset and model initializers get only what ``spec.roles.<initializer>`` says.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from ..trainer.info import ANCESTOR_DATASET, ANCESTOR_LABEL, ANCESTOR_MODEL, ANCESTOR_TRAINER, NODE
from ..trainer.validation import INITIALIZER_VOLUME
from .defaults import gpu_resource_name, resource_list
from .roles import POD_FIELDS, merged_settings, patches_of

PROGRAM = ("image", "command", "args")
"""The trainer job's own: ``trainer.image``, ``trainer.command``, ``trainer.args``."""
REACHED = ("env", "envFrom")
"""Where ``trainer.env`` goes: the trainer job, and the MPI node job of a launcher that is a node."""
INITIALIZERS = (ANCESTOR_DATASET, ANCESTOR_MODEL)
INITIALIZER_KEYS = {ANCESTOR_DATASET: "dataset", ANCESTOR_MODEL: "model"}
"""An initializer's key in a TrainJob's ``initializer``."""


@dataclass(frozen=True, slots=True)
class RuntimeRole:
    """One replicated job of a runtime, as the TrainJob's pods see it."""

    name: str
    ancestor: str | None  # its trainer.kubeflow.org/trainjob-ancestor-step label
    launcher_node: bool  # the MPI node job of a runtime with runLauncherAsNode
    containers: tuple[str, ...]
    init_containers: tuple[str, ...]
    volumes: tuple[str, ...]
    initializer_api: bool = False
    """Trainer's initializer API (``spec.initializer.dataset`` / ``model``) reaches its container:
    the job is named and labelled after the initializer and its container of that name mounts the
    volume ``initializer`` (what the TrainJob webhook requires, ``jobset.go`` ``Validate``)."""

    @property
    def trains(self) -> bool:
        """Not a dataset or model initializer."""
        return self.ancestor not in INITIALIZERS

    @property
    def trainer(self) -> bool:
        return self.ancestor == ANCESTOR_TRAINER

    @property
    def reached(self) -> bool:
        """Whether ``trainer.env`` and ``trainer.resourcesPerNode`` reach its ``node`` container."""
        return self.trainer or self.launcher_node

    @property
    def main(self) -> str | None:
        """Its training container: ``node``, else the initializer's container (named after its
        ancestor, as Trainer's runtime webhook requires), else None."""
        if NODE in self.containers:
            return NODE
        if self.ancestor in INITIALIZERS and self.ancestor in self.containers:
            return self.ancestor
        return None


def _names(items: Any) -> tuple[str, ...]:
    return tuple(i["name"] for i in items if isinstance(i, dict) and isinstance(i.get("name"), str)) \
        if isinstance(items, list) else ()


def replicated_jobs(runtime: dict[str, Any]) -> list[dict[str, Any]]:
    """The runtime's replicated jobs (each a mapping), in its order."""
    rjobs = ((((runtime.get("spec") or {}).get("template") or {}).get("spec") or {}).get("replicatedJobs")) or []
    return [rjob for rjob in rjobs if isinstance(rjob, dict)] if isinstance(rjobs, list) else []


def runtime_roles(runtime: dict[str, Any]) -> tuple[RuntimeRole, ...]:
    """The roles of a TrainJob on ``runtime``: its replicated jobs, in its order."""
    mpi = ((runtime.get("spec") or {}).get("mlPolicy") or {}).get("mpi")
    launcher_node = isinstance(mpi, dict) and mpi.get("runLauncherAsNode") is True
    out = []
    for rjob in replicated_jobs(runtime):
        if not isinstance(rjob.get("name"), str):
            continue
        labels = ((rjob.get("template") or {}).get("metadata") or {}).get("labels") or {}
        ancestor = labels.get(ANCESTOR_LABEL) if isinstance(labels, dict) else None
        pod = (((rjob.get("template") or {}).get("spec") or {}).get("template") or {}).get("spec") or {}
        pod = pod if isinstance(pod, dict) else {}
        ancestor = ancestor if isinstance(ancestor, str) else None
        out.append(RuntimeRole(rjob["name"], ancestor, launcher_node and rjob["name"] == NODE,
                               _names(pod.get("containers")), _names(pod.get("initContainers")),
                               _names(pod.get("volumes")), _initializer_api(rjob["name"], ancestor, pod)))
    return tuple(out)


def _initializer_api(name: str, ancestor: str | None, pod: dict[str, Any]) -> bool:
    if ancestor not in INITIALIZERS or name != ancestor:
        return False
    containers = pod.get("containers") if isinstance(pod.get("containers"), list) else []
    return any(isinstance(c, dict) and c.get("name") == ancestor and INITIALIZER_VOLUME in _names(c.get("volumeMounts"))
               for c in containers)


def trainjob_settings(spec: dict[str, Any], role: RuntimeRole) -> dict[str, Any]:
    """The effective settings of a TrainJob role's pods (see the module's docstring), in the shape
    of :func:`mpigen.expand.roles.role_settings`."""
    if role.trains:
        inherit = [k for k in POD_FIELDS if (k not in PROGRAM or role.trainer) and (k not in REACHED or role.reached)]
    else:
        inherit = []
    own = (spec.get("roles") or {}).get(role.name)
    own = own if isinstance(own, dict) else {}
    resources = (spec.get("resources") or {}) if role.reached else {}
    return merged_settings(spec, own, inherit, resources, spec.get("priorityClassName") if role.trains else None,
                           patches_of(spec, role.name, job_wide=role.trains))


def trainjob_role_settings(spec: dict[str, Any], runtime: dict[str, Any]) -> list[tuple[RuntimeRole, dict[str, Any]]]:
    """(role, its settings) for every replicated job of ``runtime``, in its order."""
    return [(role, trainjob_settings(spec, role)) for role in runtime_roles(runtime)]


@dataclass
class TrainerAPI:
    """What the TrainJob's own fields say of its pods (:func:`trainer_api`)."""

    image: str | None  # None: the spec gives none, the runtime's runs
    command: list[str] | None  # None: the spec gives none, the runtime's runs ([]: the image's entrypoint)
    args: list[str] | None
    env: dict[str, Any]
    resources: dict[str, Any] | None  # the spec's form; None: no resourcesPerNode
    initializer: dict[str, dict[str, Any]] = field(default_factory=dict)  # dataset|model -> env
    patched: dict[str, Any] = field(default_factory=dict)
    """Limits and requests the pod template patches give the node containers ``resourcesPerNode``
    reaches (:func:`patched_resources`), which go into ``resourcesPerNode`` too."""


def trainer_api(spec: dict[str, Any], roles: list[tuple[RuntimeRole, dict[str, Any]]]) -> TrainerAPI:
    """``trainer.*`` and ``initializer.*.env`` from the roles' settings: the program of the (first)
    trainer job; the variables every job ``trainer.env`` reaches has alike; their resources when
    they are the same and none claims a DRA device (``newRuntimeInfo`` merges ``resourcesPerNode``
    into each of their node containers and writes back its limits and requests only, dropping the
    claims), with what their pod template patches say of those containers' resources alike
    (:func:`patched_resources`); each initializer's variables where the initializer API reaches
    its container."""
    trainers = [s for r, s in roles if r.trainer]
    reached = [s for r, s in roles if r.reached]
    first = trainers[0] if trainers else spec
    env = dict(sorted((spec.get("env") or {}).items()))
    resources: dict[str, Any] | None = spec.get("resources") or {}
    patched: dict[str, Any] = {}
    if reached:
        env = {k: v for k, v in reached[0]["env"].items() if all(k in s["env"] and s["env"][k] == v for s in reached)}
        same = all(_canonical(spec, s["resources"]) == _canonical(spec, reached[0]["resources"]) for s in reached)
        claims = any(s.get("resourceClaims") for s in reached)
        resources = reached[0]["resources"] if same and not claims else None
        found = [patched_resources(s["podTemplatePatches"]) for s in reached]
        if resources is not None and found[0] and all(f == found[0] for f in found):
            patched = found[0]
    initializer = {INITIALIZER_KEYS[r.name]: s["env"] for r, s in roles if r.initializer_api and s["env"]}
    command = first.get("command")
    return TrainerAPI(first.get("image") or None, list(command) if command is not None else None,
                      first.get("args") if trainers else None, env, resources, initializer, patched)


def _canonical(spec: dict[str, Any], resources: dict[str, Any]) -> dict[str, str] | None:
    try:
        return resource_list(resources, gpu_resource_name(spec))
    except ValueError:  # a quantity the check stage reports
        return None


# ------------------------------------------------------------------ the node containers' patched resources

_PARTS = ("limits", "requests")


def patched_resources(patches: list[tuple[tuple, dict[str, Any]]]) -> dict[str, Any] | None:
    """The limits and requests a role's pod template patches (in order) set on its ``node``
    container, merged per resource name as a strategic merge patch merges them, quantities
    canonical; ``{}`` when none sets them, None when one sets them other than plainly (a
    directive on the way, claims, a value that is not a quantity).

    Trainer merges ``trainer.resourcesPerNode`` into that container the same way (limits and
    requests per name), so what the patches set there is said by ``resourcesPerNode``: the
    TrainJob needs no TrainingRuntime copy for it (:func:`without_patched_resources`)."""
    out: dict[str, dict[str, str]] = {}
    for _, patch in patches:
        item = _node_item(patch)
        if item is None:
            return None
        resources = item.get("resources") if item else None
        if resources is None:
            continue
        if not isinstance(resources, dict) or not set(resources) <= set(_PARTS):
            return None
        for part, values in resources.items():
            if not isinstance(values, dict) or not values:
                return None
            for name, value in values.items():
                quantity = canonical_quantity(value)
                if not isinstance(name, str) or name.startswith("$") or quantity is None:
                    return None
                out.setdefault(part, {})[name] = quantity
    return {part: dict(sorted(out[part].items())) for part in _PARTS if part in out}


def _node_item(patch: dict[str, Any]) -> dict[str, Any] | None:
    """The patch's item of the ``node`` container (``{}``: none); None when a directive could
    change it (``$patch`` on the patch, its spec or the item, ``$retainKeys``) or the patch holds it twice."""
    pod = patch.get("spec")
    if "$patch" in patch or (pod is not None and not isinstance(pod, dict)):
        return None
    pod = pod or {}
    if "$patch" in pod or "$retainKeys" in pod:
        return None
    containers = pod.get("containers")
    if containers is None:
        return {}
    if not isinstance(containers, list):
        return None
    items = [c for c in containers if isinstance(c, dict) and c.get("name") == NODE]
    if len(items) > 1 or (items and any(isinstance(k, str) and k.startswith("$") for k in items[0])):
        return None
    return items[0] if items else {}


def canonical_quantity(value: Any) -> str | None:
    """A quantity (a string or a number) in its canonical spelling; None when it is none."""
    from ..operator.quantity import Quantity, QuantityError
    from .defaults import quantity_text

    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        return None
    try:
        return Quantity.parse(quantity_text(value)).canonical()
    except (QuantityError, ValueError):
        return None


def without_patched_resources(patches: list[tuple[tuple, dict[str, Any]]]) -> list[tuple[tuple, dict[str, Any]]]:
    """``patches`` without the ``node`` container's resources (said by ``resourcesPerNode``),
    each patch left empty by that dropped."""
    out = []
    for place, patch in patches:
        patch = copy.deepcopy(patch)
        pod = patch.get("spec") or {}
        containers = pod.get("containers") or []
        for item in containers:
            if isinstance(item, dict) and item.get("name") == NODE:
                item.pop("resources", None)
        pod_items = [c for c in containers if not (isinstance(c, dict) and c == {"name": NODE})]
        if "containers" in pod:
            if pod_items:
                pod["containers"] = pod_items
            else:
                del pod["containers"]
        if "spec" in patch and not pod:
            del patch["spec"]
        if patch:
            out.append((place, patch))
    return out
