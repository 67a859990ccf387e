"""An ``arena submit`` line's flag values -> the mpigen spec of the job arena would create (the
rules are :mod:`mpigen.importers.arena`'s)."""

from __future__ import annotations

import re
import shlex
from typing import Any

from ..diagnostics import Diagnostic
from ..names import SPEC_API_VERSION, SPEC_KIND
from ..operator.quantity import Quantity
from .arena_flags import UNSUPPORTED, Flag
from .arena_values import _BY_NAME, TAG, FlagReader, _error, _warn

_DNS1123 = re.compile(r"[a-z0-9]([-a-z0-9]*[a-z0-9])?")
_CLAIM = re.compile(r"[a-zA-Z0-9][a-zA-Z0-9_.-]+")
_LAUNCHERS = {"mpirun", "mpiexec", "horovodrun"}
_TOLERATION = re.compile(r"([^=:,]*)(?:=([^:]*))?(?::([^,]*))?(?:,(.*))?", re.S)
_EFFECTS = ("NoSchedule", "PreferNoSchedule", "NoExecute")


class _Builder(FlagReader):
    """The spec of one ``arena submit`` line, and every problem of its flags."""

    def build(self) -> tuple[dict[str, Any], list[Diagnostic]]:
        self.unsupported()
        name = self.string("name")
        if not name:
            _error(self.diagnostics, "arena-required", "--name is required", "--name")
        elif len(name) > 49 or not _DNS1123.fullmatch(name):
            _error(self.diagnostics, "arena-value", f"--name {name!r}: a job name is lower-case letters, digits and '-', starts and "
                       "ends with a letter or digit, at most 49 characters", "--name")
        metadata: dict[str, Any] = {"name": name}
        if self.string("namespace"):
            metadata["namespace"] = self.string("namespace")
        labels = self.pairs("label")
        if labels:
            metadata["labels"] = labels
        annotations = self.pairs("annotation")
        if self.queue():
            annotations["scheduling.x-k8s.io/suspend"] = "true"
        if annotations:
            metadata["annotations"] = annotations
        spec: dict[str, Any] = {"framework": {"mpi": "mpi", "pytorch": "pytorch", "tf": "tensorflow"}[self.job]}
        image = self.string("worker-image") if self.job == "tf" and self.string("worker-image") else self.string("image")
        if not image:
            _error(self.diagnostics, "arena-required", "--image is required" + (" (or --worker-image)" if self.job == "tf" else ""),
                       "--image")
        spec["image"] = image
        spec["imagePullPolicy"] = self.string("image-pull-policy")
        if self.strings("image-pull-secret"):
            spec["imagePullSecrets"] = list(self.strings("image-pull-secret"))
        spec["command"] = self.command()
        working_dir = self.string("working-dir")
        if working_dir:
            spec["workingDir"] = working_dir
        spec["workers"] = self.workers()
        spec["resources"] = self.resources()
        if not spec["resources"]:
            del spec["resources"]
        if self.string("priority"):
            spec["priorityClassName"] = self.string("priority")
        selector = self.pairs("selector")
        if selector:
            spec["nodeSelector"] = selector
        tolerations = self.tolerations()
        if tolerations:
            spec["tolerations"] = tolerations
        code, env = self.code(working_dir)
        if env:
            spec["env"] = env
        if annotations:
            spec["annotations"] = dict(annotations)
        volumes = self.volumes()
        tensorboard = self.tensorboard(volumes, name)
        if volumes:
            spec["volumes"] = volumes
        shm = self.shm_size()
        if shm:
            spec["shmSize"] = shm
        if code:
            spec["code"] = code
        if tensorboard:
            spec["tensorboard"] = tensorboard
        if self.job == "mpi" and self.user_mpirun(spec["command"]):
            spec["mpi"] = {"mpirun": False}
        if self.job == "tf":
            spec.update(self.tensorflow(spec))
        scheduling = self.scheduling()
        if scheduling:
            spec["scheduling"] = scheduling
        spec["runPolicy"] = self.run_policy()
        unique = list(dict.fromkeys(self.diagnostics))  # a flag read twice reports its problem once
        return {"apiVersion": SPEC_API_VERSION, "kind": SPEC_KIND, "metadata": metadata, "spec": spec}, unique

    def unsupported(self) -> None:
        for name in self.values:
            flag: Flag = _BY_NAME[name]
            if flag.status != UNSUPPORTED:
                continue
            given = self.strings(name) if flag.type == "strings" else [self.string(name)]
            if flag.type == "bool":
                given = [v for v in given if self.boolean(name)]
            elif flag.type == "duration":
                given = [v for v in given if self.seconds(name)]
            elif flag.type != "strings":
                given = [v for v in given if v != flag.default and v != ""]
            if given and not (name.endswith("-limit") and self.string(name) == self.string(name[:-6])):
                _error(self.diagnostics, "arena-unsupported", f"--{name}: mpigen cannot express this ({flag.meaning})", f"--{name}")

    def command(self) -> list[str]:
        if not self.positional:
            _error(self.diagnostics, "arena-required", "the training command is missing: arena needs it after the flags",
                       "command")
        return [self.string("shell") or "sh", "-c", " ".join(self.positional)]

    def user_mpirun(self, command: list[str]) -> bool:
        try:
            words = shlex.split(command[2])
        except ValueError:
            words = command[2].split()
        if any(word.rsplit("/", 1)[-1] in _LAUNCHERS for word in words):
            return True
        if command[2]:
            _warn(self.diagnostics, "arena-differs", "the command has no mpirun: arena ran it once, on the launcher; mpigen runs "
                      "it under mpirun on every slot", "command")
        return False

    def workers(self) -> int:
        workers = self.integer("workers")
        if self.job == "pytorch":
            if workers < 1:
                _error(self.diagnostics, "arena-value", f"--workers {workers}: arena's --workers counts the master, at least 1",
                           "--workers")
            return max(workers - 1, 0)
        if self.job == "mpi" and workers < 1:
            _error(self.diagnostics, "arena-value", f"--workers {workers}: an MPI job needs at least 1 worker", "--workers")
        if workers < 0:
            _error(self.diagnostics, "arena-value", f"--workers {workers} is negative", "--workers")
        return max(workers, 0)

    def gpus(self, name: str = "gpus") -> int:
        gpus = self.integer(name)
        if gpus < 0:
            _error(self.diagnostics, "arena-value", f"--{name} {gpus} is negative", f"--{name}")
        return max(gpus, 0)

    def resources(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        gpus = self.gpus()
        if gpus:
            out["gpu"] = gpus
        cpu, memory = ("worker-cpu", "worker-memory") if self.job == "tf" else ("cpu", "memory")
        for key, flag in (("cpu", cpu), ("memory", memory)):
            if self.quantity(flag):
                out[key] = self.string(flag)
        for device, count in self.pairs("device").items():
            try:
                out[device] = int(count) if count.isdigit() else count
                Quantity.parse(count)
            except ValueError:
                _error(self.diagnostics, "arena-value", f"--device {device}={count}: not a count", "--device")
        return out

    def tolerations(self) -> list[dict[str, str]]:
        """submit.go setTolerations + parseTolerationString (util.go)."""
        out: list[dict[str, str]] = []
        for item in self.strings("toleration"):
            if item == "all":
                out.append({"operator": "Exists"})
                break
            key, value, effect, operator = _TOLERATION.fullmatch(item).groups(default="")
            if not ("=" in item and ":" in item and "," in item):
                _warn(self.diagnostics, "arena-differs", f"--toleration {item!r}: arena {TAG} ignores a toleration not written "
                          "KEY=VALUE:EFFECT,OPERATOR; imported as older arena releases and the guides read it",
                          "--toleration")
            toleration = {"key": key, "operator": operator or ("Equal" if value else "Exists")}
            if value:
                toleration["value"] = value
            if effect:
                toleration["effect"] = effect
            if effect and effect not in _EFFECTS or toleration["operator"] not in ("Equal", "Exists") or not key:
                _error(self.diagnostics, "arena-value", f"--toleration {item!r}: not KEY=VALUE:EFFECT,OPERATOR with an effect "
                           f"{'/'.join(_EFFECTS)} and an operator Equal/Exists", "--toleration")
                continue
            out.append(toleration)
        return out

    def code(self, working_dir: str) -> tuple[dict[str, Any], dict[str, Any]]:
        """submit_sync_code.go, and git-sync's environment read from --env (the init container gets it)."""
        env: dict[str, Any] = dict(self.pairs("env"))
        if self.job == "pytorch" and self.string("nproc-per-node"):
            nproc = self.string("nproc-per-node")
            if nproc not in ("auto", "cpu", "gpu") and not re.fullmatch(r"[+-]?[0-9]+", nproc):
                _error(self.diagnostics, "arena-value", f"--nproc-per-node {nproc!r}: auto, cpu, gpu or a number",
                           "--nproc-per-node")
            env["PET_NPROC_PER_NODE"] = nproc
        mode, source = self.string("sync-mode"), self.string("sync-source")
        if not mode:
            if source:
                _warn(self.diagnostics, "arena-ignored", "--sync-source without --sync-mode: arena ignores it", "--sync-source")
            return {}, env
        if mode not in ("git", "rsync"):
            _error(self.diagnostics, "arena-value", f"--sync-mode {mode!r}: arena supports git and rsync", "--sync-mode")
            return {}, env
        if not source:
            _error(self.diagnostics, "arena-required", "--sync-source is required with --sync-mode", "--sync-source")
        code: dict[str, Any] = {"mountPath": f"{working_dir}/code" if working_dir else "/code"}
        if mode == "rsync":
            code["rsync"] = {"source": source}
            return code, env
        git: dict[str, Any] = {"repository": source}
        revision = env.pop("GIT_SYNC_REV", None) or env.pop("GIT_SYNC_BRANCH", None)
        env.pop("GIT_SYNC_BRANCH", None)
        if revision:
            git["revision"] = revision
        depth = env.pop("GIT_SYNC_DEPTH", None)
        if depth is not None:
            try:
                git["depth"] = int(depth)
            except ValueError:
                _error(self.diagnostics, "arena-value", f"--env GIT_SYNC_DEPTH={depth}: not a number", "--env")
        for secret in ("GIT_SYNC_USERNAME", "GIT_SYNC_PASSWORD"):
            if env.pop(secret, None) is not None:
                _error(self.diagnostics, "arena-credential", f"--env {secret}: a git credential on the command line; put the "
                           "username and password in a Secret (keys username, password) and name it in "
                           "spec.code.git.secret", "--env")
        code["git"] = git
        return code, env

    def volumes(self) -> list[dict[str, Any]]:
        """--data (util.ValidateDatasets) and --data-dir (util.ParseDataDirRaw)."""
        out: list[dict[str, Any]] = []
        seen: set[str] = set()
        for item in self.strings("data"):
            parts = item.split(":")
            if len(parts) != 2 or not _CLAIM.fullmatch(parts[0]) or not _mount_ok(parts[1]) or parts[0] in seen:
                problem = "is repeated" if len(parts) == 2 and parts[0] in seen else "is not CLAIM:/ABSOLUTE/PATH"
                _error(self.diagnostics, "arena-value", f"--data {item!r} {problem}", "--data")
                continue
            seen.add(parts[0])
            out.append({"claimName": parts[0], "mountPath": parts[1]})
        for index, item in enumerate(self.strings("data-dir")):
            parts = item.split(":")
            if len(parts) > 2 or not all(_mount_ok(p) for p in parts):
                _error(self.diagnostics, "arena-value", f"--data-dir {item!r} is not /HOST/PATH[:/CONTAINER/PATH]", "--data-dir")
                continue
            out.append({"hostPath": parts[0], "mountPath": parts[-1], "name": f"training-data-{index}"})
            _warn(self.diagnostics, "arena-differs", f"--data-dir {item!r}: a hostPath volume; the data must be on every node",
                      "--data-dir")
        return out

    def tensorboard(self, volumes: list[dict[str, Any]], name: str) -> dict[str, Any]:
        """submit_tensorboard.go processTensorboard: a log folder outside every PVC gets a hostPath."""
        logdir = self.string("logdir")
        if not self.boolean("tensorboard"):
            if self.given("logdir") or self.given("tensorboard-image"):
                _warn(self.diagnostics, "arena-ignored", "--logdir and --tensorboard-image without --tensorboard: arena ignores "
                          "them", "--logdir")
            return {}
        if not logdir.startswith("/"):
            _error(self.diagnostics, "arena-unsupported", f"--logdir {logdir!r}: mpigen's TensorBoard reads an absolute path on a "
                       "volume", "--logdir")
            return {}
        in_pvc = any("claimName" in v and (logdir + "/").startswith(v["mountPath"].rstrip("/") + "/")
                     for v in volumes)  # whole path parts: /database is not under /data
        if not in_pvc:
            volumes.append({"hostPath": f"/arena_logs/{name}", "mountPath": logdir, "name": "training-logs-volume"})
            _warn(self.diagnostics, "arena-differs", f"--logdir {logdir} is on no --data PVC: arena mounts a new hostPath "
                      f"/arena_logs/training<random> there, mpigen /arena_logs/{name}; TensorBoard sees only the logs "
                      "of pods on its own node. Put the logs on a PVC.", "--logdir")
        out: dict[str, Any] = {"logDir": logdir}
        if self.string("tensorboard-image"):
            out["image"] = self.string("tensorboard-image")
        out["serviceType"] = "NodePort"
        return out

    def shm_size(self) -> str:
        if self.job == "mpi":
            return "" if self.boolean("gputopology") else "2Gi"
        return self.quantity("share-memory")

    def tensorflow(self, spec: dict[str, Any]) -> dict[str, Any]:
        """submit_tfjob.go setStandaloneMode, transform, check; the chart's per-role resources."""
        ps, chief, evaluator = self.integer("ps"), self.boolean("chief"), self.boolean("evaluator")
        if ps < 0:
            _error(self.diagnostics, "arena-value", f"--ps {ps} is negative", "--ps")
        if ps < 1 and spec["workers"] == 1:
            chief, spec["workers"] = True, 0
        if spec["workers"] == 0 and not chief:
            _error(self.diagnostics, "arena-value", "--workers must be greater than 0 in distributed training", "--workers")
        gpu = {"gpu": spec["resources"]["gpu"]} if "gpu" in spec.get("resources", {}) else {}
        tensorflow: dict[str, Any] = {}
        ports = {self.integer(p) for p in ("worker-port", "ps-port", "chief-port")} - {0}
        if len(ports) > 1:
            _error(self.diagnostics, "arena-unsupported", "--worker-port, --ps-port, --chief-port differ: mpigen gives every role "
                       "one port", "--worker-port")
        elif ports:
            tensorflow["port"] = ports.pop()
        if ps > 0:
            image = self.string("ps-image") or self.string("image")
            if not image:
                _error(self.diagnostics, "arena-required", "--ps-image (or --image) is required with --ps", "--ps-image")
            ps_gpus = self.gpus("ps-gpus")
            resources: dict[str, Any] = {"gpu": ps_gpus} if ps_gpus else {}
            resources.update(self.role_resources("ps"))
            tensorflow["ps"] = {"replicas": ps, "image": image, "resources": resources}
        for role, present in (("chief", chief), ("evaluator", evaluator)):
            if present:
                tensorflow[role] = {"resources": {**gpu, **self.role_resources(role)}}
        return {"tensorflow": tensorflow} if tensorflow else {}

    def role_resources(self, role: str) -> dict[str, str]:
        return {key: self.string(f"{role}-{key}") for key in ("cpu", "memory") if self.quantity(f"{role}-{key}")}

    def scheduling(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        scheduler = self.string("scheduler")
        if self.boolean("gang"):
            out["gang"] = "scheduler-plugins"
            out["schedulerName"] = scheduler or "default-scheduler"
        elif scheduler and scheduler != "default-scheduler":
            _error(self.diagnostics, "arena-unsupported", f"--scheduler {scheduler} without --gang: mpigen sets a scheduler name "
                       "only for a gang scheduler", "--scheduler")
        if self.job == "mpi" and self.boolean("gputopology"):
            out["gpuTopology"] = True
        return out

    def run_policy(self) -> dict[str, Any]:
        policy = self.string("clean-task-policy")
        if policy not in ("None", "Running", "All"):
            _error(self.diagnostics, "arena-value", f"--clean-task-policy {policy!r}: None, Running or All", "--clean-task-policy")
        retry = self.integer("retry")
        if retry < 0:
            _error(self.diagnostics, "arena-value", f"--retry {retry} is negative", "--retry")
        out: dict[str, Any] = {"cleanPodPolicy": policy, "backoffLimit": max(retry, 0)}
        if self.job != "mpi":
            for key, flag in (("activeDeadlineSeconds", "running-timeout"), ("ttlSecondsAfterFinished",
                                                                             "ttl-after-finished")):
                seconds = self.seconds(flag)
                if seconds < 0:
                    _error(self.diagnostics, "arena-value", f"--{flag} is negative", f"--{flag}")
                elif seconds:
                    out[key] = seconds
        return out


def _mount_ok(path: str) -> bool:
    """validateMountDestination: absolute, and not /."""
    return path.startswith("/") and path.rstrip("/") != ""
