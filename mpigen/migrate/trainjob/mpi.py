"""An MPIJob ``kubeflow.org/v2beta1`` as a TrainJob: always on a TrainingRuntime beside it, its
``node`` job built from the Worker template and its ``launcher`` job (the trainer) from the
Launcher template (see :mod:`mpigen.migrate.trainjob`)."""

from __future__ import annotations

from typing import Any

from ...diagnostics import Severity
from ...names import TRAINING_RUNTIME_KIND, TRAINJOB_KIND
from ...trainer.info import ANCESTOR_LABEL, ANCESTOR_TRAINER, LAUNCHER, NODE
from ..common import Change, dropped, mapping, p
from .job import Job, as_list

SSHD = ["/usr/sbin/sshd"], ["-De"]


class MpiJob(Job):
    """An MPIJob's migration."""

    def build(self, trainer: dict[str, Any]) -> dict[str, Any] | None:
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
            first = next(iter(as_list(node_template["spec"].get("containers"))), None)
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
        image = next((c.get("image") for c in as_list(launcher_template["spec"].get("containers"))
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

