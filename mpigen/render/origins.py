"""Where a built object's field comes from in the spec: the inverse of this stage, for diagnostics.

``mpigen build`` checks what it builds with the rules ``mpigen validate`` runs (see
:mod:`mpigen.pipeline`); a finding on the built MPIJob, PyTorchJob, TFJob, PodGroup, Deployment
or Service is reported at the spec field that produced the value: a launcher's mpirun line at
``spec.command``, a worker's GPU limit at ``spec.resources.gpu``, a pod template's nodeSelector
entry at ``spec.roles.<role>.nodeSelector.<key>`` or ``spec.nodeSelector.<key>``, the Launcher's
priorityClassName at ``spec.roles.launcher.priorityClassName`` or
``spec.mpi.launcher.priorityClassName`` (else ``spec.priorityClassName``, else
``spec.scheduling.priorityClass``), schedulingPolicy at ``spec.scheduling``, and a value a pod
template patch set at the patch's own line (the last patch that set it: an environment's after
the base's). Each field has candidates, most specific first; the first the spec holds wins, else
the nearest field the spec holds on the way to the first candidate (``spec`` at the least).
"""

from __future__ import annotations

from typing import Any

from ..expand.defaults import gpu_resource_name
from ..expand.roles import REPLICA_TYPES
from ..names import RUNTIME_KINDS, TRAINING_CONTAINER, TRAINJOB_KIND, volume_name
from .pods import CODE_VOLUME, SHM_VOLUME, TOPOLOGY_LABEL, TOPOLOGY_REPLICA_LABEL

Path = tuple[str | int, ...]

REPLICA_KEYS = {"MPIJob": "mpiReplicaSpecs", "PyTorchJob": "pytorchReplicaSpecs", "TFJob": "tfReplicaSpecs"}
# The spec section that configures a replica type (the Workers: the spec itself).
ROLE_SETTINGS: dict[tuple[str, str], Path] = {
    ("MPIJob", "Launcher"): ("mpi", "launcher"),
    ("PyTorchJob", "Master"): ("pytorch", "master"),
    ("TFJob", "Chief"): ("tensorflow", "chief"),
    ("TFJob", "PS"): ("tensorflow", "ps"),
    ("TFJob", "Evaluator"): ("tensorflow", "evaluator"),
}
MPI_FIELDS = {"runLauncherAsWorker": "runLauncherAsWorker", "sshAuthMountPath": "sshAuthMountPath",
              "mpiImplementation": "implementation", "launcherCreationPolicy": "launcherCreationPolicy"}
GANG_MARKS = {"scheduling.x-k8s.io/pod-group", "scheduling.k8s.io/group-name", "volcano.sh/task-spec",
              "kueue.x-k8s.io/queue-name", "kueue.x-k8s.io/priority-class"}
GANG = ("spec", "scheduling", "gang")
KUEUE_QUEUE, KUEUE_PRIORITY = "kueue.x-k8s.io/queue-name", "kueue.x-k8s.io/priority-class"


def spec_field(obj: dict[str, Any], path: Path, metadata: dict[str, Any], spec: dict[str, Any]) -> Path:
    """The field of the spec document (``metadata`` and the effective ``spec`` of one environment,
    as written) that made the value at ``path`` of the built object ``obj``: a path from the
    document's root, which the document holds (``("spec",)`` at the least)."""
    data = {"metadata": metadata, "spec": spec}
    candidates = _candidates(obj, tuple(path), spec)
    for candidate in candidates:
        if _holds(data, candidate) or candidate[:2] == ("spec", "environments"):  # an environment's own patch
            return candidate
    first = candidates[0]  # the spec does not hold it: the nearest field that would
    return next(first[:n] for n in range(len(first), 0, -1) if _holds(data, first[:n]))


def _holds(data: Any, path: Path) -> bool:
    for part in path:
        if isinstance(data, dict) and part in data:
            data = data[part]
        elif isinstance(data, list) and isinstance(part, int) and 0 <= part < len(data):
            data = data[part]
        else:
            return False
    return True


def _value(obj: Any, path: Path) -> Any:
    for part in path:
        try:
            obj = obj[part]
        except (KeyError, IndexError, TypeError):
            return None
    return obj


def _candidates(obj: dict[str, Any], path: Path, spec: dict[str, Any]) -> list[Path]:
    kind = obj.get("kind")
    if path[:1] == ("metadata",):
        if path[1:3] in (("labels", KUEUE_QUEUE), ("labels", KUEUE_PRIORITY)):  # Kueue's, from spec.scheduling
            return [path[:3], ("spec", "scheduling", "queue" if path[2] == KUEUE_QUEUE else "priorityClass"), GANG]
        return [path[:3], path[:2], GANG] if path[1:2] == ("labels",) else [path[:3], path[:2]]
    if kind in ("Deployment", "Service"):  # TensorBoard
        if path[-1:] == ("imagePullSecrets",) or "imagePullSecrets" in path:
            return [("spec", "imagePullSecrets")]
        if "volumes" in path or "volumeMounts" in path:
            return [("spec", "tensorboard", "logDir"), ("spec", "volumes")]
        if path[-1:] in (("port",), ("containerPort",)):
            return [("spec", "tensorboard", "port")]
        if "image" in path:
            return [("spec", "tensorboard", "image")]
        return [("spec", "tensorboard")]
    if kind == "PodGroup":  # kube-batch's, written beside the job
        if path[:1] != ("spec",) or len(path) < 2:
            return [GANG]
        field = {"minMember": "minAvailable", "priorityClassName": "priorityClass"}.get(str(path[1]), path[1])
        return [("spec", "scheduling", field), GANG]
    if kind == TRAINJOB_KIND:
        return _trainjob(obj, path, spec)
    if kind in RUNTIME_KINDS:  # the copy written beside a TrainJob
        return _runtime_copy(obj, path, spec)
    key = REPLICA_KEYS.get(str(kind))
    if key and path[:2] == ("spec", key) and len(path) >= 3:
        return _replica(obj, kind, path, spec, main=_training_container(obj, kind, path))
    if path[:3] == ("spec", "runPolicy", "schedulingPolicy"):
        return [("spec", "scheduling") + path[3:4], GANG]
    if path[:2] == ("spec", "runPolicy"):
        return [path[:3], path[:2]]
    if kind == "MPIJob" and path[1:2] == ("slotsPerWorker",):
        return [("spec", "slotsPerWorker"), ("spec", "resources", "gpu"), ("spec", "resources")]
    if kind == "MPIJob" and len(path) > 1 and path[1] in MPI_FIELDS:
        return [("spec", "mpi", MPI_FIELDS[str(path[1])]), ("spec", "mpi")]
    if kind == "PyTorchJob" and path[1:2] in (("nprocPerNode",), ("elasticPolicy",)):
        return [("spec", "pytorch")]
    return [("spec",)]


TRAINING_CONTAINERS = {"PyTorchJob": TRAINING_CONTAINER["pytorch"], "TFJob": TRAINING_CONTAINER["tensorflow"]}


def _training_container(obj: dict[str, Any], kind: Any, path: Path) -> int | None:
    """The index of a replica's training container: an MPIJob's first (mpi-operator's
    ``containers[0]``, which a patch may not move: ``patch-container-order``), a PyTorchJob's or
    TFJob's the one the training-operator finds by its name (a patch may add containers before it)."""
    if kind not in TRAINING_CONTAINERS:
        return 0
    containers = _value(obj, path[:3] + ("template", "spec", "containers"))
    names = [c.get("name") if isinstance(c, dict) else None for c in containers] if isinstance(containers, list) else []
    return names.index(TRAINING_CONTAINERS[kind]) if TRAINING_CONTAINERS[kind] in names else None


TRAINER_FIELDS: dict[str, list[Path]] = {
    "image": [("spec", "image")],
    "command": [("spec", "command")],
    "numNodes": [("spec", "workers")],
    "numProcPerNode": [("spec", "slotsPerWorker")],
}
# A replicated job's pod template in a TrainJob's runtime patch, or in a runtime's template.
PATCH_POD = ("trainingRuntimeSpec", "template", "spec", "replicatedJobs")
RUNTIME_POD = ("spec", "template", "spec", "replicatedJobs")


def _trainjob(obj: dict[str, Any], path: Path, spec: dict[str, Any]) -> list[Path]:
    """A TrainJob built from a spec with ``spec.runtime`` (:mod:`.trainjob`)."""
    runtime = ("spec", "runtime")
    if path[:2] == ("spec", "runtimeRef"):
        return [runtime]
    if path[:2] in (("spec", "suspend"), ("spec", "activeDeadlineSeconds")):
        return [("spec", "runPolicy", str(path[1])), ("spec", "runPolicy")]
    if path[:2] == ("spec", "trainer") and len(path) > 2:
        field = str(path[2])
        if field == "env":
            name = _value(obj, path[:4] + ("name",)) if len(path) > 3 else None
            return _in_roles(spec, "env", name) if isinstance(name, str) else [("spec", "env")]
        if field == "resourcesPerNode":
            name = path[4] if len(path) > 4 else None
            patched = _patched_resource(spec, path[3:5]) if len(path) > 4 else []
            if name == gpu_resource_name(spec):
                name = "gpu"
            return patched + (_in_roles(spec, "resources", name) if isinstance(name, str) else []) + \
                [("spec", "resources")]
        if field in ("image", "command", "args"):
            value = _value(obj, path[:3])
            roles = spec.get("roles") if isinstance(spec.get("roles"), dict) else {}
            return [("spec", "roles", r, field) for r, own in roles.items()
                    if isinstance(own, dict) and own.get(field) == value] + [("spec", field), runtime]
        return TRAINER_FIELDS.get(field, []) + [runtime]
    if path[:3] == ("spec", "initializer") and len(path) > 5 and path[4] == "env":
        role = f"{path[3]}-initializer"
        name = _value(obj, path[:6] + ("name",))
        return [("spec", "roles", role, "env", name), ("spec", "roles", role, "env")]
    if path[:2] == ("spec", "runtimePatches") and path[3:7] == PATCH_POD and len(path) > 8:
        rjob = _value(obj, path[:8])
        return _pod_template(rjob, path[8:], spec, patched=False)
    if path[:2] == ("spec", "runtimePatches") and path[3:6] == ("trainingRuntimeSpec", "template", "metadata"):
        return [("spec", "scheduling", "queue"), GANG]
    return [runtime]


def _patched_resource(spec: dict[str, Any], where: Path) -> list[Path]:
    """The pod template patches that set ``where`` (``(limits|requests, name)``) on a ``node``
    container, which ``trainer.resourcesPerNode`` carries (each role's own first: it applies last)."""
    roles = spec.get("roles") if isinstance(spec.get("roles"), dict) else {}
    places = [(("spec", "roles", r, "podTemplatePatch"), own.get("podTemplatePatch")) for r, own in roles.items()
              if isinstance(own, dict)] + [(("spec", "podTemplatePatch"), spec.get("podTemplatePatch"))]
    out = []
    for place, patch in places:
        containers = _value(patch, ("spec", "containers"))
        for i, item in enumerate(containers if isinstance(containers, list) else []):
            if isinstance(item, dict) and item.get("name") == "node" and _value(item, ("resources",) + where) is not None:
                out.append(place + ("spec", "containers", i, "resources") + tuple(where))
    return out


def _in_roles(spec: dict[str, Any], field: str, name: str) -> list[Path]:
    """``spec.<field>.<name>``, then each role's own ``<field>.<name>`` (a TrainJob field that holds
    what every role it reaches has alike)."""
    roles = spec.get("roles") if isinstance(spec.get("roles"), dict) else {}
    return [("spec", field, name)] + [("spec", "roles", r, field, name) for r, own in roles.items()
                                      if isinstance(own, dict) and name in (own.get(field) or {})] + [("spec", field)]


def _runtime_copy(obj: dict[str, Any], path: Path, spec: dict[str, Any]) -> list[Path]:
    """The TrainingRuntime mpigen writes beside a TrainJob: a copy of ``spec.runtime``'s."""
    if path[:2] == ("spec", "podGroupPolicy"):
        return [("spec", "scheduling", "scheduleTimeoutSeconds"), GANG] if "coscheduling" in path else [GANG]
    if path[:4] == RUNTIME_POD and len(path) > 5:
        return _pod_template(_value(obj, path[:5]), path[5:], spec) + [("spec", "runtime")]
    return [("spec", "runtime")]


def _pod_template(rjob: Any, rest: Path, spec: dict[str, Any], patched: bool = True) -> list[Path]:
    """``rest``: a path in a replicated job (``template.spec.template...``): the spec field behind
    it, read as a role's pod template is read (:func:`_replica`), the role being the replicated
    job and its training container the one named ``node`` (else the initializer's, named after the
    job); ``patched``: whether the role's pod template patches were applied to it (the copy's)."""
    if rest[:3] != ("template", "spec", "template") or not isinstance(rjob, dict) or \
            not isinstance(rjob.get("name"), str):
        return [("spec", "runtime")]
    template = ((rjob.get("template") or {}).get("spec") or {}).get("template")
    containers = _value(template, ("spec", "containers"))
    names = [c.get("name") if isinstance(c, dict) else None for c in containers] if isinstance(containers, list) else []
    main = next((i for want in ("node", rjob["name"]) for i, n in enumerate(names) if n == want), None)
    job = {"kind": TRAINJOB_KIND, "spec": {"pods": {rjob["name"]: {"template": template}}}}
    return _replica(job, TRAINJOB_KIND, ("spec", "pods", rjob["name"], "template") + tuple(rest[3:]), spec,
                    patched=patched, main=main)


def _replica(obj: dict[str, Any], kind: Any, path: Path, spec: dict[str, Any], patched: bool = True,
             main: int | None = 0) -> list[Path]:
    """``path``: in the replica spec of ``role`` (``spec.<replica specs>.<role>...``); ``patched``:
    whether its pod template patches were applied; ``main``: the index of its training container."""
    role, rest = str(path[2]), path[3:]
    name = ROLE_NAMES.get(role, role.lower())  # the role's name in spec.roles
    settings = ROLE_SETTINGS.get((str(kind), role), ())
    # what the spec does not write: a runtime's own (a TrainJob's pods), else the role's section
    section = ("spec", "runtime") if kind == TRAINJOB_KIND else ("spec",) + settings

    def own(*field: str | int) -> list[Path]:
        """The role's own setting (``roles.<role>``, then the older ``<framework>.<role>``), then the
        spec's (which the role inherits)."""
        mine = [("spec", "roles", name) + field]
        if settings:
            mine.append(section + field)
        return mine + [("spec",) + field]

    if rest[:1] == ("replicas",):
        if role == "Worker":
            return [("spec", "workers")]
        return [section + ("replicas",), section] if settings else [("spec",)]
    if rest[:1] == ("restartPolicy",):
        return [("spec", "restartPolicy")]
    if rest[:1] != ("template",):
        return [section]
    template = rest[1:]
    found = _patch_origin(_value(obj, path[:4]), template, spec, name) if patched else None
    if found is not None:
        return [found]
    if template[:2] in (("metadata", "labels"), ("metadata", "annotations")):
        key = template[2] if len(template) > 2 else None
        if key in (TOPOLOGY_LABEL, TOPOLOGY_REPLICA_LABEL):
            return [("spec", "scheduling", "gpuTopology")]
        if key in GANG_MARKS:
            return [GANG]
        field = str(template[1])
        mine = own(field, key) + [("metadata", field, key)] if key is not None else []
        return mine + own(field) + [("metadata", field)]
    if template[:1] != ("spec",):
        return [section]
    pod = template[1:]
    field = pod[0] if pod else None
    prefix = path[: len(path) - len(pod)]  # the pod spec's path in obj
    if field == "initContainers":
        return _init_container(_value(obj, prefix + pod[:2] + ("name",)), pod[2:], spec, name)
    if field == "containers":
        if main is None or pod[1:2] != (main,):
            return [section]  # a container the spec does not write (a patch's is found above)
        return _container(obj, kind, role, prefix + pod[:2], pod[2:], spec, own)
    if field == "volumes":
        return _volume(_value(obj, prefix + pod[:2] + ("name",)), spec, name)
    if field in ("nodeSelector", "tolerations", "imagePullSecrets"):
        return own(*pod[:2]) + own(str(field))
    if field == "priorityClassName":
        return own("priorityClassName") + [("spec", "scheduling", "priorityClass")]
    if field == "schedulerName":
        return [("spec", "scheduling", "schedulerName"), GANG]
    if field in ("hostNetwork", "dnsPolicy"):
        return own(str(field)) + own("hostNetwork") + [("spec", "scheduling", "gpuTopology")]
    if field == "securityContext":
        return own("podSecurityContext", *pod[1:2]) + own("podSecurityContext") + \
            [("spec", "code", "git", "secret"), ("spec", "code")]
    if field in ("serviceAccountName", "affinity", "topologySpreadConstraints", "runtimeClassName",
                 "resourceClaims"):
        return own(*pod[:2]) + own(str(field))
    return [section]


ROLE_NAMES = {replica_type: role for role, replica_type in REPLICA_TYPES.items()}
"""A replica type's role in ``spec.roles`` (a TrainJob's: the replicated job's name, in lower case)."""


def _patch_origin(template: Any, path: Path, spec: dict[str, Any], role: str) -> Path | None:
    """Where a pod template patch of ``role`` set the value at ``path`` of the (patched)
    ``template``, as a path of the spec document (the last patch that set it: they apply in order);
    None if none did."""
    from ..expand.environments import placed_patches

    places = [(where, patch) for where, patch, own in placed_patches(spec) if own in (None, role)]
    if not places or not isinstance(template, dict):
        return None
    from ..patch import patch_origin

    for where, patch in reversed(places):
        found = patch_origin(template, tuple(path), patch)
        if found is not None:
            return where + tuple(found)
    return None


def _init_container(name: Any, rest: Path, spec: dict[str, Any], role: str) -> list[Path]:
    """An init container: code sync's, a sidecar or one of ``initContainers``, by its name."""
    if name == "code-sync" and spec.get("code"):
        return [("spec", "code")]
    for base in (("spec", "roles", role), ("spec",)):
        settings = _value({"spec": spec}, base)
        for field in ("sidecars", "initContainers"):
            items = settings.get(field) if isinstance(settings, dict) else None
            for i, item in enumerate(items if isinstance(items, list) else []):
                if isinstance(item, dict) and item.get("name") == name:
                    return [base + (field, i) + tuple(rest), base + (field, i)]
    return [("spec", "initContainers")]


def _container(obj: dict[str, Any], kind: Any, role: str, container: Path, rest: Path, spec: dict[str, Any],
               own: Any) -> list[Path]:
    """``container``: the path of a training container in ``obj``; ``rest``: the path inside it."""
    field = rest[0] if rest else None
    if field == "image":
        return own("image")
    if field == "command":
        if kind == "MPIJob" and role == "Worker":  # sshd, as the SSH path says, unless the role names one
            return [("spec", "roles", "worker", "command"), ("spec", "mpi", "sshAuthMountPath"), ("spec", "mpi")]
        return own("command")
    if field == "args":
        return own("args")
    if field == "workingDir":
        return own("workingDir") + [("spec", "code", "mountPath"), ("spec", "code")]
    if field == "env":
        name = _value(obj, container + ("env", rest[1], "name")) if len(rest) > 1 else None
        return own("env", name) + own("env") if isinstance(name, str) else own("env")
    if field == "ports":
        framework = {"PyTorchJob": "pytorch", "TFJob": "tensorflow"}.get(str(kind))
        index = rest[1] if len(rest) > 1 and isinstance(rest[1], int) else None
        if framework and index == 0:  # the operator's port comes first
            return [("spec", framework, "port"), ("spec", framework)]
        if index is not None:
            return own("ports", index - (1 if framework else 0)) + own("ports")
        return own("ports") + ([("spec", framework)] if framework else [])
    if field == "resources":
        if rest[1:2] == ("claims",):
            return own("resourceClaims")
        name = rest[2] if len(rest) > 2 else None
        if name == gpu_resource_name(spec):
            name = "gpu"  # spec.resources.gpu: nvidia.com/gpu, or aliyun.com/gpu under ACK GPU topology
        mine = own("resources", name) if isinstance(name, str) else []
        return mine + own("resources")
    if field == "volumeMounts":
        return _volume(_value(obj, container + tuple(rest[:2]) + ("name",)), spec,
                       ROLE_NAMES.get(role, role.lower()))
    if field in ("imagePullPolicy", "envFrom", "securityContext", "livenessProbe", "readinessProbe", "startupProbe"):
        return own(*rest[:2]) + own(str(field))
    return own()


def _volume(name: Any, spec: dict[str, Any], role: str | None = None) -> list[Path]:
    """The spec field behind a pod volume (or a mount of it) named ``name``: the role's own
    ``volumes`` (which replace the job's), else the job's."""
    if name == CODE_VOLUME:
        return [("spec", "code")]
    if name == SHM_VOLUME:
        return [("spec", "shmSize")]
    own = (spec.get("roles") or {}).get(role) if role else None
    bases = [("spec", "roles", role)] if isinstance(own, dict) and "volumes" in own else []
    for base in bases + [("spec",)]:
        volumes = _value({"spec": spec}, base + ("volumes",))
        for i, volume in enumerate(volumes if isinstance(volumes, list) else []):
            if isinstance(volume, dict) and volume_name(volume) == name:
                return [base + ("volumes", i)]
    return [bases[0] + ("volumes",)] if bases else [("spec", "volumes")]
