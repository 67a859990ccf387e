"""``mpigen migrate --to trainjob``: an MPIJob ``kubeflow.org/v2beta1`` or a PyTorchJob
``kubeflow.org/v1`` rewritten as a Kubeflow Trainer v2.3.0 ``TrainJob``
(``trainer.kubeflow.org/v1alpha1``), with a ``TrainingRuntime`` beside it when the old job's pod
templates need what a TrainJob cannot say.

The specifications, read at their tags:

- the old jobs: mpi-operator v0.8.0 (``pkg/apis/kubeflow/v2beta1/types.go``, ``default.go``,
  ``pkg/controller/mpi_job_controller.go``: the launcher Job takes ``runPolicy.backoffLimit``, the
  workers run ``/usr/sbin/sshd -De`` when their first container has neither command nor args) and
  training-operator v1.9.0 (``pkg/apis/kubeflow.org/v1/pytorch_types.go``, ``common_types.go``);
- the new ones: Trainer v2.3.0 ``pkg/apis/trainer/v1alpha1/trainjob_types.go`` (``trainer``:
  image, command, args, env, numNodes, resourcesPerNode, numProcPerNode; ``runtimePatches``;
  ``suspend``, ``activeDeadlineSeconds``, ``managedBy``), ``trainingruntime_types.go``
  (``mlPolicy.mpi``: numProcPerNode, mpiImplementation -- the CRD allows only ``OpenMPI`` --,
  sshAuthMountPath, runLauncherAsNode; ``podGroupPolicy``), the plugins ported in
  :mod:`mpigen.trainer` and JobSet v0.12.0 (``pkg/controllers/jobset_controller.go``: a finished
  JobSet deletes its active Jobs; ``pkg/webhooks/jobset_webhook.go``: a pod template without
  ``restartPolicy`` gets ``OnFailure``).

The choices (the README's "migrate --to trainjob" section says why):

- **MPIJob**: always a TrainingRuntime beside the TrainJob, named after the job in its namespace.
  Trainer's default MPI runtimes (``deepspeed-distributed``, ``mlx-distributed``) run their own
  images on the nodes, count the launcher as a node and mount the keys at
  ``/home/mpiuser/.ssh``, none of which a TrainJob can change; the runtime beside has a ``node``
  job built from the Worker template and a ``launcher`` job (the trainer) from the Launcher
  template, each first container renamed ``node`` (where the MPI plugin mounts the keys).
  The TrainJob carries the launcher's image, command and args, ``numNodes`` and
  ``numProcPerNode`` (``slotsPerWorker``).
- **PyTorchJob**: Master and Workers become one ``node`` job of ``numNodes`` = their replicas;
  the TrainJob runs on ``torch-distributed`` with the container's image, command, args, env and
  resources in ``trainer`` and the rest of the pod template in ``runtimePatches``, unless
  something needs a runtime (a gang, another container, a field no patch can set, a restart
  policy, a TTL or backoff limit): then on a TrainingRuntime beside, copied from
  ``torch-distributed``.
- Requests: Trainer's PodGroup counts the pods' **requests** only, while the old operators counted
  limits where a container has no request (the pod's own defaulting copies them). Every request
  a container lacks is written out from its limit, so the gang is the same.
- The gang scheduler is the one the pod templates show (or ``--gang``); Trainer sets no
  ``schedulerName``, so the runtime's pod templates get the one the old operator set.
- Older apiVersions are refused: run ``mpigen migrate`` first (one step at a time keeps every
  report at a field of the file it is about).

Pure: every change is a :class:`~mpigen.migrate.common.Change` at the old field.
"""

from __future__ import annotations

import copy
from typing import Any

from ..diagnostics import Severity
from ..names import CURRENT_API, TRAINER_API, TRAINING_RUNTIME_KIND, TRAINJOB_KIND
from ..operator.podgroup import DEFAULT_SCHEDULER_PLUGINS_NAME, VOLCANO_QUEUE_ANNOTATION
from ..trainer.info import ANCESTOR_LABEL, ANCESTOR_TRAINER, LAUNCHER, NODE
from .common import Change, Objects, Path, dropped, lossy, mapping, moved, object_shell, p, refused

PATCH_MANAGER = "mpigen.dev/migrate"
TORCH_RUNTIME = "torch-distributed"
MULTIKUEUE = "kueue.x-k8s.io/multikueue"
PYTORCH_PORT_NAME = "pytorchjob-port"
TORCHRUN = ("torchrun", "torch.distributed.run", "torch.distributed.launch")
SSHD = ["/usr/sbin/sshd"], ["-De"]
# PodSpecPatch (trainjob_types.go): the pod fields a runtime patch can set
PATCH_POD_FIELDS = ("serviceAccountName", "volumes", "imagePullSecrets", "securityContext", "nodeSelector",
                    "affinity", "tolerations", "schedulingGates", "terminationGracePeriodSeconds")
PATCH_CONTAINER_FIELDS = ("volumeMounts", "securityContext")  # ContainerPatch (env goes to trainer.env)
# the Trainer fields in their order in trainjob_types.go
TRAINER_FIELDS = ("image", "command", "args", "env", "numNodes", "resourcesPerNode", "numProcPerNode")
TRAINER_CONTAINER_FIELDS = ("name", "image", "command", "args", "env", "resources")


def handles(obj: dict[str, Any]) -> bool:
    return obj.get("kind") in ("MPIJob", "PyTorchJob", "TFJob")


def migrate(old: dict[str, Any], gang: str | None = None,
            scheduler_name: str = DEFAULT_SCHEDULER_PLUGINS_NAME) -> tuple[Objects | None, list[Change]]:
    """One old job -> ([TrainingRuntime,] TrainJob) and the changes; None when it cannot be
    migrated (the changes then hold the reasons, errors). ``gang``: the old operator's gang
    scheduler (``volcano``, ``scheduler-plugins``, ``none``; None: what the pod templates show).
    See :func:`migrated` for where each part of the new objects comes from."""
    objects, changes, _ = migrated(old, gang, scheduler_name)
    return objects, changes


def migrated(old: dict[str, Any], gang: str | None = None, scheduler_name: str = DEFAULT_SCHEDULER_PLUGINS_NAME
             ) -> tuple[Objects | None, list[Change], list[dict[Path, Path]]]:
    """:func:`migrate`, and for each new object where its parts come from: a path in it (a
    prefix) -> the path of the old job it was made of (the rest of the path is the same below
    it); a path no prefix covers comes from the same path of the old job (metadata...)."""
    kind, api = old["kind"], old["apiVersion"]
    want = CURRENT_API[kind]
    if kind == "TFJob":
        reason = refused(("kind",), "Kubeflow Trainer v2.3.0 has no TensorFlow runtime (its default runtimes are "
                         "torch, DeepSpeed, MLX, JAX, XGBoost and torchtune): a TFJob cannot become a TrainJob; keep "
                         "it on training-operator")
    elif api != want:
        reason = refused(("apiVersion",), f"{kind} {api} is not {want}: run mpigen migrate on it first (without "
                         "--to), then mpigen migrate --to trainjob on the result")
    elif not isinstance(old.get("spec"), dict):
        reason = refused(("spec",) if "spec" in old else (), f"{kind} {api} has no spec to migrate")
    else:
        reason = None
    if reason is not None:
        return None, [reason], []
    job = _Job(old, gang, scheduler_name)
    objects, changes = job.run()
    return objects, changes, [job.origins[obj["kind"]] for obj in objects or []]


def to_runtime(old: Path, new: Path, note: str = "") -> Change:
    """A field moved into the TrainingRuntime written beside the TrainJob (``new``: under its spec)."""
    return Change(old, "migrated-field", Severity.INFO, f"{p(old)} -> the TrainingRuntime's {p(('spec',) + new)}{note}")


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _with_requests(resources: Any) -> tuple[Any, list[str]]:
    """A copy of ``resources`` whose requests hold every limit it lacks (as the API server's pod
    defaulting writes them); the names written."""
    if not isinstance(resources, dict):
        return copy.deepcopy(resources), []
    out = copy.deepcopy(resources)
    limits = mapping(out.get("limits"))
    requests = out.get("requests") if isinstance(out.get("requests"), dict) else {}
    missing = [name for name in limits if name not in requests]
    if missing:
        out["requests"] = {**requests, **{name: limits[name] for name in missing}}
    return out, missing


class _Job:
    """The migration of one job: the objects it builds and the changes it reports."""

    def __init__(self, old: dict[str, Any], gang: str | None, scheduler_name: str) -> None:
        self.old = old
        self.kind = old["kind"]
        self.spec: dict[str, Any] = old["spec"]
        self.changes: list[Change] = []
        self.gang = gang
        self.scheduler_name = scheduler_name
        self.meta = mapping(old.get("metadata"))
        self.name = self.meta.get("name") if isinstance(self.meta.get("name"), str) else ""
        self.namespace = self.meta.get("namespace") if isinstance(self.meta.get("namespace"), str) else None
        self.runtime_reasons: list[str] = []  # why a TrainingRuntime is written beside
        self.patch: dict[str, Any] | None = None  # PyTorchJob: the runtime patch over torch-distributed
        self.template_at: Path = ()  # PyTorchJob: the pod template the node job runs
        self.pods = 0  # the TrainJob's pods: the PodGroup's minMember
        # where each part of the new objects comes from: new path (a prefix) -> old path
        self.origins: dict[str, dict[Path, Path]] = {TRAINJOB_KIND: {}, TRAINING_RUNTIME_KIND: {}}

    # -------------------------------------------------------------- reporting
    def error(self, at: Path, message: str) -> None:
        """What the TrainJob cannot carry: the output is written, the run fails."""
        self.changes.append(Change(at, "trainjob-not-carried", Severity.ERROR, message))

    def refuse(self, at: Path, message: str) -> None:
        """What makes the job no TrainJob at all: the caller returns None, nothing is written."""
        self.changes.append(refused(at, message))

    def info(self, change: Change) -> None:
        self.changes.append(change)

    def move(self, old: Path, new: Path, note: str = "") -> None:
        """A field moved into the TrainJob."""
        self.origins[TRAINJOB_KIND][new] = old
        self.info(moved(old, new, note=note))

    def to_runtime(self, old: Path, new: Path, note: str = "") -> None:
        """A field moved into the TrainingRuntime (``new``: under its spec)."""
        self.origins[TRAINING_RUNTIME_KIND][("spec",) + new] = old
        self.info(to_runtime(old, new, note))

    # -------------------------------------------------------------- the whole job
    def run(self) -> tuple[Objects | None, list[Change]]:
        trainjob = object_shell(self.old, TRAINER_API, self.changes)
        trainjob["kind"] = TRAINJOB_KIND
        shell = next(i for i, c in enumerate(self.changes) if c.code == "migrated-api")
        self.changes[shell] = Change(("apiVersion",), "migrated-api", Severity.INFO,
                                     f"{self.kind} {self.old['apiVersion']} -> TrainJob {TRAINER_API} "
                                     "(Kubeflow Trainer v2.3.0)")
        self._metadata_notes()
        spec: dict[str, Any] = {}
        trainer: dict[str, Any] = {}
        runtime_spec = self._mpi(trainer) if self.kind == "MPIJob" else self._pytorch(trainer)
        if runtime_spec is None:  # refused
            return None, self.changes
        self._run_policy(spec, runtime_spec)
        self._gang(runtime_spec)
        objects: Objects = []
        if self.kind == "MPIJob" or self.runtime_reasons:
            runtime = self._runtime_object(runtime_spec)
            objects.append(runtime)
            spec = {"runtimeRef": {"name": self.name, "kind": TRAINING_RUNTIME_KIND}, **spec}
            self.info(Change(("spec",), "trainingruntime-beside", Severity.INFO,
                             f"a TrainingRuntime {self.name!r} is written beside the TrainJob (runtimeRef names it): "
                             + "; ".join(self.runtime_reasons)))
        else:
            spec = {"runtimeRef": {"name": TORCH_RUNTIME}, **spec}
            if self.patch:
                spec["runtimePatches"] = [{"manager": PATCH_MANAGER, "trainingRuntimeSpec": {"template": {"spec": {
                    "replicatedJobs": [{"name": NODE, "template": {"spec": {"template": self.patch}}}]}}}}]
                self.origins[TRAINJOB_KIND][("spec", "runtimePatches", 0, "trainingRuntimeSpec", "template", "spec",
                                          "replicatedJobs", 0, "template", "spec", "template")] = self.template_at
                self.info(Change(("spec", "pytorchReplicaSpecs"), "migrated-field", Severity.INFO,
                                 "the rest of the pod template -> spec.runtimePatches (manager "
                                 f"{PATCH_MANAGER}) over the torch-distributed runtime's node job"))
        trainer = {key: trainer[key] for key in TRAINER_FIELDS if key in trainer}
        trainjob["spec"] = {"runtimeRef": spec.pop("runtimeRef"), **({"trainer": trainer} if trainer else {}), **spec}
        objects.append(trainjob)
        return objects, self.changes

    def _metadata_notes(self) -> None:
        labels = mapping(self.meta.get("labels"))
        for key in labels:
            if key.startswith("kueue.x-k8s.io/"):
                self.info(Change(("metadata", "labels", key), "migrated-field", Severity.INFO,
                                 f"metadata.labels.{key} kept on the TrainJob: Kueue's TrainJob integration reads it "
                                 "there as it read it on the old job"))

    def _runtime_object(self, runtime_spec: dict[str, Any]) -> dict[str, Any]:
        metadata: dict[str, Any] = {"name": self.name}
        if self.namespace:
            metadata["namespace"] = self.namespace
        order = ("mlPolicy", "podGroupPolicy", "template")
        return {"apiVersion": TRAINER_API, "kind": TRAINING_RUNTIME_KIND, "metadata": metadata,
                "spec": {k: runtime_spec[k] for k in order if k in runtime_spec}}

    # -------------------------------------------------------------- pod templates
    def _template(self, replica: Any, at: Path, main: int, move: tuple[str, ...],
                  job: int) -> tuple[dict[str, Any], dict[str, Any]]:
        """A replica's pod template for the runtime's replicated job ``job`` (its ``main`` container
        renamed ``node``, the fields in ``move`` taken out, requests written from limits) and the
        fields taken out."""
        self.origins[TRAINING_RUNTIME_KIND][("spec", "template", "spec", "replicatedJobs", job, "template", "spec",
                                             "template")] = at + ("template",)
        template = copy.deepcopy(mapping(mapping(replica).get("template")))
        if not isinstance(template.get("spec"), dict):
            template["spec"] = {}
        pod = template["spec"]
        containers = _list(pod.get("containers"))
        taken: dict[str, Any] = {}
        for i, container in enumerate(containers):
            if not isinstance(container, dict):
                continue
            cpath = at + ("template", "spec", "containers", i)
            resources, written = _with_requests(container.get("resources"))
            if written:
                container["resources"] = resources
                self.info(Change(cpath + ("resources", "limits"), "added-field", Severity.INFO,
                                 f"requests of {', '.join(written)} written from the limits (the API server gives a "
                                 "pod these requests; Trainer's PodGroup counts requests only, the old operator the "
                                 "limits where a request was missing)"))
            if i != main:
                continue
            if container.get("name") != NODE:
                self.info(Change(cpath + ("name",), "migrated-field", Severity.INFO,
                                 f"container {container.get('name')!r} renamed {NODE!r}: Trainer puts the trainer's "
                                 f"fields and {'the MPI keys' if self.kind == 'MPIJob' else 'the PET_* environment'} "
                                 f"in the container named {NODE}"))
            container["name"] = NODE
            for key in move:
                if key in container:
                    taken[key] = container.pop(key)
        pod["containers"] = containers
        return template, taken

    def _restart_policy(self, replica: dict[str, Any], template: dict[str, Any], at: Path, default: str,
                        job: int) -> None:
        """The replica's restartPolicy (which the old operators gave its pods, over the template's)
        into the runtime's pod template; a Job's pods take OnFailure or Never, and JobSet's webhook
        gives a template without one OnFailure."""
        policy = replica.get("restartPolicy", default)
        if policy not in ("OnFailure", "Never"):
            self.error(at + ("restartPolicy",), f"restartPolicy {policy!r} cannot be carried: Trainer runs the pods "
                       "in Jobs, whose pods restart OnFailure or Never; set one of these")
            return
        pod = template["spec"]
        target = ("template", "spec", "replicatedJobs", job, "template", "spec", "template", "spec", "restartPolicy")
        if policy == "OnFailure" and pod.get("restartPolicy") in (None, policy):
            if "restartPolicy" in replica:
                self.info(dropped(at + ("restartPolicy",), "OnFailure is what JobSet gives a Job's pods"))
            return
        pod["restartPolicy"] = policy
        if "restartPolicy" in replica:
            self.to_runtime(at + ("restartPolicy",), target)
        else:
            self.info(Change(at, "added-field", Severity.INFO,
                             f"the TrainingRuntime's {p(('spec',) + target)}: {policy} added: the old operator's "
                             "default for this replica (JobSet's is OnFailure)"))

    # -------------------------------------------------------------- MPIJob
    def _mpi(self, trainer: dict[str, Any]) -> dict[str, Any] | None:
        spec = self.spec
        replicas = mapping(spec.get("mpiReplicaSpecs"))
        launcher, worker = replicas.get("Launcher"), replicas.get("Worker")
        base = ("spec", "mpiReplicaSpecs")
        if not isinstance(launcher, dict):
            self.refuse(base, "the MPIJob has no Launcher: a TrainJob on an MPI runtime needs one")
            return None
        for role in replicas:
            if role not in ("Launcher", "Worker"):
                self.error(base + (role,), f"replica type {role!r} is not an MPIJob role: dropped")
        implementation = spec.get("mpiImplementation", "OpenMPI")
        if implementation != "OpenMPI":
            self.refuse(("spec", "mpiImplementation"),
                        f"mpiImplementation {implementation}: Trainer v2.3.0's mpi policy runs OpenMPI only (its CRD "
                        "allows nothing else, and the plugin refuses any other): keep the job on mpi-operator")
            return None
        if "mpiImplementation" in spec:
            self.to_runtime(("spec", "mpiImplementation"), ("mlPolicy", "mpi", "mpiImplementation"))
        workers = worker.get("replicas", 0) if isinstance(worker, dict) else 0
        if isinstance(workers, bool) or not isinstance(workers, int):
            self.error(base + ("Worker", "replicas"), f"Worker.replicas {workers!r} is not a number: no nodes")
            workers = 0
        launcher_as_worker = spec.get("runLauncherAsWorker") is True
        nodes = workers + (1 if launcher_as_worker else 0)
        slots = spec.get("slotsPerWorker", 1)
        mpi: dict[str, Any] = {"numProcPerNode": slots, "mpiImplementation": "OpenMPI",
                               "sshAuthMountPath": spec.get("sshAuthMountPath") or "/root/.ssh",
                               "runLauncherAsNode": launcher_as_worker}
        for key, old_key in (("numProcPerNode", "slotsPerWorker"), ("sshAuthMountPath", "sshAuthMountPath"),
                             ("runLauncherAsNode", "runLauncherAsWorker"), ("mpiImplementation", "mpiImplementation")):
            if old_key in spec:
                self.origins[TRAINING_RUNTIME_KIND][("spec", "mlPolicy", "mpi", key)] = ("spec", old_key)
        trainer["numNodes"] = nodes
        self.pods = workers + 1  # the nodes and the launcher (one of the nodes with runLauncherAsWorker)
        self.move(base + ("Worker", "replicas") if isinstance(worker, dict) and "replicas" in worker else base,
                  ("spec", "trainer", "numNodes"),
                  note=f" ({nodes}{', the launcher counted: runLauncherAsWorker' if launcher_as_worker else ''}"
                  "; Trainer's node job gets that many pods)")
        if "slotsPerWorker" in spec:
            self.move(("spec", "slotsPerWorker"), ("spec", "trainer", "numProcPerNode"),
                      note=" (and the runtime's mlPolicy.mpi.numProcPerNode: the hostfile's slots)")
        trainer["numProcPerNode"] = slots
        if "sshAuthMountPath" in spec:
            self.to_runtime(("spec", "sshAuthMountPath"), ("mlPolicy", "mpi", "sshAuthMountPath"))
        if "runLauncherAsWorker" in spec:
            self.to_runtime(("spec", "runLauncherAsWorker"), ("mlPolicy", "mpi", "runLauncherAsNode"))
            if launcher_as_worker and workers == 0:
                self.error(("spec", "runLauncherAsWorker"), "with no workers, Trainer still runs one node pod besides "
                           "the launcher (numNodes - 1, at least 1)")
        self.runtime_reasons.append("Trainer's default MPI runtimes run their own images on the nodes, count the "
                                    "launcher as a node and mount the SSH keys at /home/mpiuser/.ssh, which a "
                                    "TrainJob cannot change; the runtime beside runs the MPIJob's own pod templates")
        jobs = []
        if isinstance(worker, dict):
            wpath = base + ("Worker",)
            node_template, _ = self._template(worker, wpath, 0, (), 0)
            self._restart_policy(worker, node_template, wpath, "Never", 0)
            first = next(iter(_list(node_template["spec"].get("containers"))), None)
            if isinstance(first, dict) and not first.get("command") and not first.get("args"):
                first["command"], first["args"] = list(SSHD[0]), list(SSHD[1])
                target = ("spec", "template", "spec", "replicatedJobs", 0, "template", "spec", "template", "spec",
                          "containers", 0)
                self.info(Change(wpath + ("template", "spec", "containers", 0), "added-field", Severity.INFO,
                                 f"the TrainingRuntime's {p(target + ('command',))} and args: /usr/sbin/sshd -De "
                                 "added: mpi-operator ran it in a worker with neither command nor args; Trainer "
                                 "runs the container as it is"))
            jobs.append({"name": NODE, "template": {"spec": {"template": node_template}}})
        lpath = base + ("Launcher",)
        if launcher.get("replicas", 1) != 1:
            self.info(dropped(lpath + ("replicas",), "an MPIJob has one launcher, a TrainJob's launcher job too"))
        launcher_template, taken = self._template(launcher, lpath, 0, ("command", "args"), len(jobs))
        image = next((c.get("image") for c in _list(launcher_template["spec"].get("containers"))
                      if isinstance(c, dict) and c.get("name") == NODE), None)
        cpath = lpath + ("template", "spec", "containers", 0)
        if isinstance(image, str):
            trainer["image"] = image
            self.origins[TRAINJOB_KIND][("spec", "trainer", "image")] = cpath + ("image",)
            self.info(Change(cpath + ("image",), "migrated-field", Severity.INFO,
                             f"{p(cpath + ('image',))} -> spec.trainer.image (kept in the runtime's launcher too)"))
        for key in ("command", "args"):
            if key in taken:
                trainer[key] = taken[key]
                self.move(cpath + (key,), ("spec", "trainer", key))
        self._restart_policy(launcher, launcher_template, lpath, "OnFailure", len(jobs))
        launcher_job: dict[str, Any] = {"name": LAUNCHER, "template": {
            "metadata": {"labels": {ANCESTOR_LABEL: ANCESTOR_TRAINER}}, "spec": {"template": launcher_template}}}
        if spec.get("launcherCreationPolicy") == "WaitForWorkersReady":
            launcher_job = {"name": LAUNCHER, "dependsOn": [{"name": NODE, "status": "Ready"}],
                            "template": launcher_job["template"]}
            self.to_runtime(("spec", "launcherCreationPolicy"),
                            ("template", "spec", "replicatedJobs", len(jobs), "dependsOn"),
                            note=": the launcher job starts once the node job is Ready")
        elif "launcherCreationPolicy" in spec:
            self.info(dropped(("spec", "launcherCreationPolicy"), "AtStartup: the runtime's launcher job has no "
                              "dependsOn, so it starts with the nodes"))
        jobs.append(launcher_job)
        for key in spec:
            if key not in ("mpiReplicaSpecs", "mpiImplementation", "slotsPerWorker", "sshAuthMountPath",
                           "runLauncherAsWorker", "launcherCreationPolicy", "runPolicy"):
                self.error(("spec", key), f"spec.{key} is not a field mpigen knows how to carry to a TrainJob: "
                           "dropped")
        # newRuntimeInfo (pkg/runtime/core/trainingruntime.go) gives the trainer-ancestor job -- the
        # launcher here -- mlPolicy.numNodes pods; the mpi plugin gives the node job trainer.numNodes.
        return {"mlPolicy": {"numNodes": 1, "mpi": mpi},
                "template": {"spec": {"network": {"publishNotReadyAddresses": True}, "replicatedJobs": jobs,
                                      "successPolicy": {"operator": "All", "targetReplicatedJobs": [LAUNCHER]}}}}

    # -------------------------------------------------------------- PyTorchJob
    def _pytorch(self, trainer: dict[str, Any]) -> dict[str, Any] | None:
        spec = self.spec
        base = ("spec", "pytorchReplicaSpecs")
        replicas = mapping(spec.get("pytorchReplicaSpecs"))
        roles = [r for r in ("Master", "Worker") if isinstance(replicas.get(r), dict)]
        if not roles:
            self.refuse(base, "the PyTorchJob has no Master or Worker to migrate")
            return None
        for role in replicas:
            if role not in ("Master", "Worker"):
                self.error(base + (role,), f"replica type {role!r} is not a PyTorchJob role: dropped")
        counts = {r: replicas[r].get("replicas", 1) for r in roles}
        for role, count in counts.items():
            if isinstance(count, bool) or not isinstance(count, int):
                self.error(base + (role, "replicas"), f"{role}.replicas {count!r} is not a number: not counted")
        nodes = sum(c for c in counts.values() if isinstance(c, int) and not isinstance(c, bool))
        trainer["numNodes"] = self.pods = nodes
        for role in roles:
            self.move(base + (role, "replicas") if "replicas" in replicas[role] else base + (role,),
                      ("spec", "trainer", "numNodes"),
                      note=f" ({' + '.join(f'{counts[r]} {r}' for r in roles)} = {nodes}: Trainer runs one "
                      "node job; the pod of completion index 0 is the master, PET_MASTER_ADDR)")
        main_role = roles[0]
        at = base + (main_role,)
        self.template_at = at + ("template",)
        template = mapping(replicas[main_role].get("template"))
        containers = _list(mapping(template.get("spec")).get("containers"))
        index = next((i for i, c in enumerate(containers) if isinstance(c, dict) and c.get("name") == "pytorch"), 0)
        if not containers:
            self.refuse(at + ("template", "spec", "containers"), "the pod template has no container")
            return None
        for role in roles[1:]:
            self._same_template(replicas[main_role], replicas[role], at, base + (role,))
        runtime_template, taken = self._template(replicas[main_role], at, index,
                                                 ("command", "args", "env", "resources"), 0)
        cpath = at + ("template", "spec", "containers", index)
        image = containers[index].get("image") if isinstance(containers[index], dict) else None
        if isinstance(image, str):
            trainer["image"] = image
            self.origins[TRAINJOB_KIND][("spec", "trainer", "image")] = cpath + ("image",)
            self.info(Change(cpath + ("image",), "migrated-field", Severity.INFO,
                             f"{p(cpath + ('image',))} -> spec.trainer.image"))
        for key in ("command", "args", "env"):
            if key in taken:
                trainer[key] = taken[key]
                self.move(cpath + (key,), ("spec", "trainer", key))
        if "resources" in taken:
            trainer["resourcesPerNode"], _ = _with_requests(taken["resources"])
            self.move(cpath + ("resources",), ("spec", "trainer", "resourcesPerNode"))
        self._torch_environment(trainer, cpath)
        nproc = spec.get("nprocPerNode")
        if nproc is not None:
            if isinstance(nproc, int) or (isinstance(nproc, str) and nproc.isdigit()):
                trainer["numProcPerNode"] = int(nproc)
                self.move(("spec", "nprocPerNode"), ("spec", "trainer", "numProcPerNode"))
            elif nproc == "auto":
                self.info(dropped(("spec", "nprocPerNode"), "auto is Trainer's default (PET_NPROC_PER_NODE auto "
                                  "with GPUs, else the CPUs per node)"))
            else:
                self.changes.append(lossy(("spec", "nprocPerNode"), f"nprocPerNode {nproc!r} dropped: Trainer takes "
                                          "a number, else auto with GPUs and the CPUs per node without"))
        if "elasticPolicy" in spec:
            self.error(("spec", "elasticPolicy"), "Trainer v2.3.0 has no elastic training (no elasticPolicy, no "
                       "HPA): the TrainJob runs a fixed numNodes; dropped")
        for key in spec:
            if key not in ("pytorchReplicaSpecs", "runPolicy", "nprocPerNode", "elasticPolicy"):
                self.error(("spec", key), f"spec.{key} is not a field mpigen knows how to carry to a TrainJob: "
                           "dropped")
        for role in roles:
            self._restart_policy(replicas[role], runtime_template, base + (role,), "OnFailure", 0)
        self._torch_ports(runtime_template, cpath)
        self.patch = self._patchable(runtime_template)
        return {"mlPolicy": {"numNodes": nodes, "torch": {}},
                "template": {"spec": {"replicatedJobs": [{"name": NODE, "template": {
                    "metadata": {"labels": {ANCESTOR_LABEL: ANCESTOR_TRAINER}},
                    "spec": {"template": runtime_template}}}]}}}

    def _same_template(self, main: dict[str, Any], other: dict[str, Any], main_at: Path, at: Path) -> None:
        """A Worker template that differs from the Master's cannot be carried: one node job runs both."""
        a, b = mapping(main.get("template")), mapping(other.get("template"))
        for part in sorted(set(a) | set(b)):
            if part != "spec":
                if a.get(part) != b.get(part):
                    self.error(at + ("template", part), f"the {at[-1]} pod template's {part} differs from the "
                               f"{main_at[-1]}'s: Trainer runs every node from one template (the {main_at[-1]}'s)")
                continue
            pa, pb = mapping(a.get("spec")), mapping(b.get("spec"))
            for key in sorted(set(pa) | set(pb)):
                if pa.get(key) != pb.get(key):
                    self.error(at + ("template", "spec", key),
                               f"the {at[-1]} pod template's {key} differs from the {main_at[-1]}'s: Trainer runs "
                               f"every node from one template (the {main_at[-1]}'s)")
        if main.get("restartPolicy", "OnFailure") != other.get("restartPolicy", "OnFailure"):
            self.error(at + ("restartPolicy",), f"the {at[-1]}'s restartPolicy differs from the {main_at[-1]}'s: one "
                       "node job runs both")

    def _torch_environment(self, trainer: dict[str, Any], cpath: Path) -> None:
        """training-operator set MASTER_ADDR, MASTER_PORT, WORLD_SIZE and RANK; Trainer sets PET_* for torchrun."""
        words = [w for w in _list(trainer.get("command")) + _list(trainer.get("args")) if isinstance(w, str)]
        if any(any(t in w for t in TORCHRUN) for w in words[:4]):
            return
        self.changes.append(lossy(cpath + ("command",) if "command" in trainer else cpath,
                                  "training-operator gave every pod MASTER_ADDR, MASTER_PORT, WORLD_SIZE and RANK; "
                                  "Trainer gives PET_NNODES, PET_NPROC_PER_NODE, PET_NODE_RANK, PET_MASTER_ADDR and "
                                  "PET_MASTER_PORT (29500), which torchrun reads: start the program with torchrun (or "
                                  "python -m torch.distributed.run), which sets RANK and WORLD_SIZE per process"))

    def _torch_ports(self, template: dict[str, Any], cpath: Path) -> None:
        for container in _list(template["spec"].get("containers")):
            if not isinstance(container, dict) or container.get("name") != NODE:
                continue
            ports = _list(container.get("ports"))
            kept = [port for port in ports if not (isinstance(port, dict) and port.get("name") == PYTORCH_PORT_NAME)]
            if len(kept) != len(ports):
                i = next(i for i, port in enumerate(ports)
                         if isinstance(port, dict) and port.get("name") == PYTORCH_PORT_NAME)
                self.changes.append(lossy(cpath + ("ports", i), "the pytorchjob-port (training-operator's "
                                          "MASTER_PORT) dropped: Trainer's master port is 29500 (PET_MASTER_PORT)"))
                if kept:
                    container["ports"] = kept
                else:
                    del container["ports"]

    def _patchable(self, template: dict[str, Any]) -> dict[str, Any] | None:
        """The runtime patch that carries the rest of the pod template onto torch-distributed;
        None when it cannot (the reasons go to :attr:`runtime_reasons`)."""
        pod = template.get("spec") or {}
        patch_pod: dict[str, Any] = {}
        reasons = []
        for key, value in pod.items():
            if key == "containers":
                continue
            if key == "restartPolicy" and value == "OnFailure":
                continue  # what JobSet gives the pods anyway
            if key in PATCH_POD_FIELDS:
                patch_pod[key] = copy.deepcopy(value)
            else:
                reasons.append(f"the pod template's {key}")
        containers = _list(pod.get("containers"))
        if len(containers) != 1:
            reasons.append("the pod template's other containers")
        patch_containers = []
        for container in containers:
            if not isinstance(container, dict) or container.get("name") != NODE:
                continue
            entry = {"name": NODE}
            for key, value in container.items():
                if key in PATCH_CONTAINER_FIELDS:
                    entry[key] = copy.deepcopy(value)
                elif key not in TRAINER_CONTAINER_FIELDS:
                    reasons.append(f"the container's {key}")
            if len(entry) > 1:
                patch_containers.append(entry)
        if patch_containers:
            patch_pod["containers"] = patch_containers
        patch: dict[str, Any] = {}
        metadata = template.get("metadata")
        if isinstance(metadata, dict):
            kept_meta = {k: copy.deepcopy(v) for k, v in metadata.items() if k in ("labels", "annotations") and v}
            if set(metadata) - {"labels", "annotations"}:
                reasons.append("the pod template's metadata")
            if kept_meta:
                patch["metadata"] = kept_meta
        if patch_pod:
            patch["spec"] = patch_pod
        if reasons:
            self.runtime_reasons.append(f"{', '.join(dict.fromkeys(reasons))} cannot be said by a TrainJob or a "
                                        "runtime patch")
            return None
        return patch

    # -------------------------------------------------------------- runPolicy
    def _run_policy(self, spec: dict[str, Any], runtime_spec: dict[str, Any]) -> None:
        policy = mapping(self.spec.get("runPolicy"))
        at = ("spec", "runPolicy")
        jobset = runtime_spec["template"]["spec"]
        trainer_index, trainer_job = next((i, j) for i, j in enumerate(jobset["replicatedJobs"])
                                          if ((j.get("template") or {}).get("metadata") or {}).get("labels"))
        mpi = self.kind == "MPIJob"
        if "cleanPodPolicy" not in policy:
            self.info(Change(at if "runPolicy" in self.spec else ("spec",), "migrated-field", Severity.INFO,
                             f"cleanPodPolicy unset: the {self.kind}'s default None left running pods when the job "
                             "finished; a finished JobSet deletes them (as Running did)"))
        for key, value in policy.items():
            path = at + (key,)
            if key == "suspend":
                spec["suspend"] = value
                self.move(path, ("spec", "suspend"))
            elif key == "activeDeadlineSeconds":
                spec["activeDeadlineSeconds"] = value
                self.move(path, ("spec", "activeDeadlineSeconds"),
                          note=" (counted from the TrainJob's start, reset when it is resumed)")
            elif key == "managedBy":
                if value == MULTIKUEUE:
                    spec["managedBy"] = value
                    self.move(path, ("spec", "managedBy"))
                elif value in ("kubeflow.org/mpi-operator", "kubeflow.org/training-operator"):
                    self.info(dropped(path, "the old operator's name; the TrainJob controller manages a TrainJob "
                                      "by default"))
                else:
                    self.error(path, f"managedBy {value!r}: a TrainJob takes trainer.kubeflow.org/trainjob-controller "
                               f"or {MULTIKUEUE} only; dropped")
            elif key == "backoffLimit":
                trainer_job["template"]["spec"]["backoffLimit"] = value
                if mpi:
                    self.to_runtime(path, ("template", "spec", "replicatedJobs", trainer_index, "template", "spec",
                                           "backoffLimit"),
                                    note=": mpi-operator gave it to the launcher Job too")
                else:
                    self.runtime_reasons.append("runPolicy.backoffLimit goes to the node job")
                    self.changes.append(lossy(path, "runPolicy.backoffLimit -> the TrainingRuntime's node job "
                                              "backoffLimit: the Job counts its failed pods, training-operator counted "
                                              "the restarts of every replica"))
            elif key == "ttlSecondsAfterFinished":
                jobset["ttlSecondsAfterFinished"] = value
                if not mpi:
                    self.runtime_reasons.append("runPolicy.ttlSecondsAfterFinished goes to the JobSet")
                self.origins[TRAINING_RUNTIME_KIND][("spec", "template", "spec", "ttlSecondsAfterFinished")] = path
                self.changes.append(lossy(path, "runPolicy.ttlSecondsAfterFinished -> the TrainingRuntime's "
                                          "spec.template.spec.ttlSecondsAfterFinished: the JobSet and its pods are "
                                          "deleted then, but the TrainJob itself stays until you delete it (TrainJob "
                                          "has no TTL)"))
            elif key == "cleanPodPolicy":
                if value == "Running":
                    self.info(dropped(path, "Running is what the JobSet does: when it finishes it deletes its "
                                      "active Jobs, and their running pods with them"))
                else:
                    self.error(path, f"cleanPodPolicy {value!r} cannot be carried: a finished JobSet deletes its "
                               "running pods and keeps the finished ones (as cleanPodPolicy Running did)")
            elif key == "schedulingPolicy":
                continue  # _gang
            else:
                self.error(path, f"runPolicy.{key} has no TrainJob equivalent: dropped")

    # -------------------------------------------------------------- gang
    def _gang(self, runtime_spec: dict[str, Any]) -> None:
        from ..lint.base import Context, LintOptions

        gang = Context(self.old, LintOptions(gang=self.gang)).gang
        at = ("spec", "runPolicy", "schedulingPolicy")
        policy = mapping(mapping(self.spec.get("runPolicy")).get("schedulingPolicy"))
        if gang is None:
            for key in policy:
                self.changes.append(lossy(at + (key,), f"schedulingPolicy.{key} dropped: the pod templates name no "
                                          "gang scheduler, so the old operator made no PodGroup (give --gang if it "
                                          "ran with --gang-scheduling)"))
            return
        if self.kind != "MPIJob":
            self.runtime_reasons.append(f"the gang ({gang}) is the runtime's podGroupPolicy, which torch-distributed "
                                        "lacks")
        templates = [j["template"]["spec"]["template"] for j in runtime_spec["template"]["spec"]["replicatedJobs"]]
        scheduler = "volcano" if gang == "volcano" else self.scheduler_name
        written = False
        for template in templates:
            pod = template["spec"]
            if pod.get("schedulerName") is None:
                pod["schedulerName"] = scheduler
                written = True
        if written:
            self.info(Change(("spec",), "added-field", Severity.INFO,
                             f"schedulerName: {scheduler} added to the runtime's pod templates: the old operator set "
                             "it, Trainer does not"))
        if gang == "volcano":
            runtime_spec["podGroupPolicy"] = {"volcano": {}}
            queue = policy.get("queue") or mapping(self.meta.get("annotations")).get(VOLCANO_QUEUE_ANNOTATION)
            if queue:
                runtime_spec["template"].setdefault("metadata", {}).setdefault("annotations", {})[
                    VOLCANO_QUEUE_ANNOTATION] = queue
                where = at + ("queue",) if policy.get("queue") else ("metadata", "annotations",
                                                                     VOLCANO_QUEUE_ANNOTATION)
                self.to_runtime(where, ("template", "metadata", "annotations", VOLCANO_QUEUE_ANNOTATION),
                                note=" (Trainer's Volcano PodGroup takes its queue there)")
        else:
            timeout = policy.get("scheduleTimeoutSeconds")
            runtime_spec["podGroupPolicy"] = {"coscheduling": {"scheduleTimeoutSeconds": timeout if timeout is not None
                                                               else 0 if self.kind == "MPIJob" else 60}}
            if timeout is not None:
                self.to_runtime(at + ("scheduleTimeoutSeconds",),
                                ("podGroupPolicy", "coscheduling", "scheduleTimeoutSeconds"))
            if policy.get("queue"):
                self.changes.append(lossy(at + ("queue",), "schedulingPolicy.queue dropped: a scheduler-plugins "
                                          "PodGroup has no queue"))
        for index, rjob in enumerate(runtime_spec["template"]["spec"]["replicatedJobs"]):
            if rjob.pop("dependsOn", None) is not None:  # only WaitForWorkersReady's launcher has one
                self.origins[TRAINING_RUNTIME_KIND].pop(("spec", "template", "spec", "replicatedJobs", index,
                                                         "dependsOn"), None)
                self.changes[:] = [c for c in self.changes if tuple(c.path) != ("spec", "launcherCreationPolicy")]
                self.changes.append(lossy(("spec", "launcherCreationPolicy"), "WaitForWorkersReady dropped: with a "
                                          "gang, a launcher job that dependsOn the node job never starts (Trainer's "
                                          "PodGroup counts the launcher's pod, which JobSet creates only once the "
                                          "nodes are Ready: trainer-depends-on-gang-deadlock); the launcher starts "
                                          "beside the nodes and must wait for their SSH servers itself"))
        kind = next(iter(runtime_spec["podGroupPolicy"]))
        self.info(Change(at if policy else ("spec",), "migrated-field", Severity.INFO,
                         f"the gang ({gang}) -> the TrainingRuntime's spec.podGroupPolicy.{kind}"))
        for key, value in policy.items():
            if key == "minAvailable" and value == self.pods:
                self.info(dropped(at + (key,), f"Trainer's PodGroup counts every pod of the TrainJob: {value}"))
            elif key == "minAvailable":
                self.error(at + (key,), f"minAvailable {value} cannot be carried: Trainer's PodGroup counts every pod "
                           f"of the TrainJob (minMember {self.pods})")
            elif key == "minResources":
                self.error(at + (key,), "minResources cannot be carried: Trainer computes the PodGroup's minResources "
                           "from the pods' requests")
            elif key == "priorityClass":
                last = [t["spec"].get("priorityClassName") for t in templates if t["spec"].get("priorityClassName")]
                if gang == "volcano" and last and last[-1] == value:
                    self.info(dropped(at + (key,), f"Trainer's Volcano PodGroup takes {value} from the pod templates' "
                                      "priorityClassName (the last replicated job's that sets one)"))
                else:
                    self.changes.append(lossy(at + (key,), "schedulingPolicy.priorityClass dropped: Trainer's "
                                              "Volcano PodGroup takes the priorityClassName of the last pod template "
                                              "that sets one; set it in the runtime's pod templates"))
            elif key not in ("queue", "scheduleTimeoutSeconds"):
                self.error(at + (key,), f"schedulingPolicy.{key} has no TrainingRuntime equivalent: dropped")
