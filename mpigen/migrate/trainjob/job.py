"""The migration of one job to a TrainJob, whatever its kind: what is reported, the TrainJob and
the TrainingRuntime written around what the kind's subclass builds (:mod:`.mpi`,
:mod:`.pytorch`), its pod templates, runPolicy and gang."""

from __future__ import annotations

import copy
from typing import Any

from ...diagnostics import Severity
from ...names import TRAINER_API, TRAINING_RUNTIME_KIND, TRAINJOB_KIND
from ...operator.podgroup import VOLCANO_QUEUE_ANNOTATION
from ...trainer.info import NODE
from ..common import Change, Objects, Path, dropped, lossy, mapping, moved, object_shell, p, refused

PATCH_MANAGER = "mpigen.dev/migrate"
TORCH_RUNTIME = "torch-distributed"
MULTIKUEUE = "kueue.x-k8s.io/multikueue"
# the Trainer fields in their order in trainjob_types.go
TRAINER_FIELDS = ("image", "command", "args", "env", "numNodes", "resourcesPerNode", "numProcPerNode")


def to_runtime(old: Path, new: Path, note: str = "") -> Change:
    """A field moved into the TrainingRuntime written beside the TrainJob (``new``: under its spec)."""
    return Change(old, "migrated-field", Severity.INFO, f"{p(old)} -> the TrainingRuntime's {p(('spec',) + new)}{note}")


def as_list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def with_requests(resources: Any) -> tuple[Any, list[str]]:
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


class Job:
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
        self.min_resources: tuple[Path, Any] | None = None  # schedulingPolicy.minResources, judged once built
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
    def build(self, trainer: dict[str, Any]) -> dict[str, Any] | None:
        """Fill ``trainer`` (the TrainJob's) and return the runtime's spec; None when the job is
        refused (:meth:`refuse` said why). Each kind's subclass does it."""
        raise NotImplementedError

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
        runtime_spec = self.build(trainer)
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

    def volcano_gang(self) -> bool:
        """Whether the old operator gang-scheduled the job with Volcano (``--gang``, else what the
        pod templates show)."""
        from ...lint.base import GANG_VOLCANO, Context, LintOptions

        return Context(self.old, LintOptions(gang=self.gang)).gang == GANG_VOLCANO

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
        containers = as_list(pod.get("containers"))
        taken: dict[str, Any] = {}
        for i, container in enumerate(containers):
            if not isinstance(container, dict):
                continue
            cpath = at + ("template", "spec", "containers", i)
            resources, written = with_requests(container.get("resources"))
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
        from ...lint.base import Context, LintOptions

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
            elif key == "minResources":  # carried when Trainer computes the same (gang.min_resources_change)
                self.min_resources = (at + (key,), value)
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

