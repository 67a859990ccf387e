"""A PyTorchJob ``kubeflow.org/v1`` as a TrainJob: Master and Workers one ``node`` job on
``torch-distributed``, the rest of the pod template in ``runtimePatches``, or a TrainingRuntime
beside it when something needs one (see :mod:`mpigen.migrate.trainjob`)."""

from __future__ import annotations

import copy
from typing import Any

from ...diagnostics import Severity
from ...names import TRAINJOB_KIND
from ...trainer.info import ANCESTOR_LABEL, ANCESTOR_TRAINER, NODE
from ..common import Change, Path, dropped, lossy, mapping, p
from .job import Job, as_list, with_requests

PYTORCH_PORT_NAME = "pytorchjob-port"
TORCHRUN = ("torchrun", "torch.distributed.run", "torch.distributed.launch")
# PodSpecPatch (trainjob_types.go): the pod fields a runtime patch can set
PATCH_POD_FIELDS = ("serviceAccountName", "volumes", "imagePullSecrets", "securityContext", "nodeSelector",
                    "affinity", "tolerations", "schedulingGates", "terminationGracePeriodSeconds")
PATCH_CONTAINER_FIELDS = ("volumeMounts", "securityContext")  # ContainerPatch (env goes to trainer.env)
TRAINER_CONTAINER_FIELDS = ("name", "image", "command", "args", "env", "resources")
VOLCANO_TASK_SPEC = "volcano.sh/task-spec"  # volcano batch/v1alpha1 TaskSpecKey


class PyTorchJob(Job):
    """A PyTorchJob's migration."""

    def build(self, trainer: dict[str, Any]) -> dict[str, Any] | None:
        spec = self.spec
        base = ("spec", "pytorchReplicaSpecs")
        replicas = self._without_task_spec(mapping(spec.get("pytorchReplicaSpecs")), base)
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
        containers = as_list(mapping(template.get("spec")).get("containers"))
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
            trainer["resourcesPerNode"], _ = with_requests(taken["resources"])
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

    def _without_task_spec(self, replicas: dict[str, Any], base: Path) -> dict[str, Any]:
        """The replica specs without the Volcano task name a template carries under a Volcano gang:
        training-operator wrote ``volcano.sh/task-spec: <replica type>`` on every pod itself,
        whatever the template said (``VolcanoControl.DecoratePodTemplateSpec``,
        ``pkg/controller.v1/control/podgroup_control.go``), and Trainer's Volcano PodGroup has no
        tasks. mpigen's own PyTorchJobs carry it, Master's and Worker's different: one node job
        runs both."""
        if not self.volcano_gang():
            return replicas
        out = dict(replicas)
        for role, replica in replicas.items():
            annotations = mapping(mapping(mapping(replica).get("template")).get("metadata")).get("annotations")
            if not isinstance(annotations, dict) or VOLCANO_TASK_SPEC not in annotations:
                continue
            out[role] = copy.deepcopy(replica)
            metadata = out[role]["template"]["metadata"]
            del metadata["annotations"][VOLCANO_TASK_SPEC]
            if not metadata["annotations"]:
                del metadata["annotations"]
            self.info(dropped(base + (role, "template", "metadata", "annotations", VOLCANO_TASK_SPEC),
                              f"training-operator set {VOLCANO_TASK_SPEC} on every pod itself (the replica type, "
                              "Volcano's task name), and Trainer's Volcano PodGroup has no tasks"))
        return out

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
        words = [w for w in as_list(trainer.get("command")) + as_list(trainer.get("args")) if isinstance(w, str)]
        if any(any(t in w for t in TORCHRUN) for w in words[:4]):
            return
        self.changes.append(lossy(cpath + ("command",) if "command" in trainer else cpath,
                                  "training-operator gave every pod MASTER_ADDR, MASTER_PORT, WORLD_SIZE and RANK; "
                                  "Trainer gives PET_NNODES, PET_NPROC_PER_NODE, PET_NODE_RANK, PET_MASTER_ADDR and "
                                  "PET_MASTER_PORT (29500), which torchrun reads: start the program with torchrun (or "
                                  "python -m torch.distributed.run), which sets RANK and WORLD_SIZE per process"))

    def _torch_ports(self, template: dict[str, Any], cpath: Path) -> None:
        for container in as_list(template["spec"].get("containers")):
            if not isinstance(container, dict) or container.get("name") != NODE:
                continue
            ports = as_list(container.get("ports"))
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
        containers = as_list(pod.get("containers"))
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

