"""``arena submit mpijob|pytorchjob|tfjob ...`` -> an mpigen spec (``mpigen import arena``).

Ported from kubeflow/arena **v0.15.5** (see :mod:`mpigen.importers.arena_flags` for the files): the
spec describes the job arena's Helm chart would create, with arena's effective defaults written out
where they differ from mpigen's (``imagePullPolicy: Always``, ``workingDir: /root``, ``backoffLimit``,
``cleanPodPolicy`` All for MPI, ``shmSize: 2Gi``, a NodePort TensorBoard). Rules:

- The command (the positional arguments, joined by spaces as arena joins them) runs as
  ``[SHELL, -c, COMMAND]`` (``--shell``, default ``sh``), as arena's charts run it.
- MPI: arena's MPIJob (kubeflow.org/v1alpha1) runs the command on the launcher only, so users write
  ``mpirun ...`` themselves. A command that contains ``mpirun``, ``mpiexec`` or ``horovodrun`` is kept
  verbatim as the launcher's command with ``mpi.mpirun: false`` (mpigen adds no mpirun of its own);
  any other command runs under mpigen's mpirun on every slot (a warning says so).
- PyTorch: arena's ``--workers`` counts the master: ``spec.workers`` = workers - 1 (1: master only).
- TensorFlow: 1 worker without ``--ps`` is arena's standalone mode: one Chief, no workers.
- Arena's own bookkeeping (user labels, GPU-count annotations, the ``workers``/``gpus`` variables,
  ``NVIDIA_VISIBLE_DEVICES=void`` without GPUs, hostPID/hostIPC) is not imported.

Pure: argv in, ``(spec, diagnostics)`` out. Every problem is reported, not only the first.
"""

from __future__ import annotations

import re
import shlex
from typing import Any

from ..diagnostics import Diagnostic, Severity
from ..names import SPEC_API_VERSION, SPEC_KIND
from ..operator.quantity import Quantity
from .arena_flags import (FLAGS, KINDS, OTHER_KINDS, UNSUPPORTED, Flag, Values, flags_for, parse_bool,
                          parse_duration_seconds, parse_int, read)

SOURCE = "<arena>"
TAG = "v0.15.5"
_DNS1123 = re.compile(r"[a-z0-9]([-a-z0-9]*[a-z0-9])?")
_CLAIM = re.compile(r"[a-zA-Z0-9][a-zA-Z0-9_.-]+")
_LAUNCHERS = {"mpirun", "mpiexec", "horovodrun"}
_TOLERATION = re.compile(r"([^=:,]*)(?:=([^:]*))?(?::([^,]*))?(?:,(.*))?", re.S)
_EFFECTS = ("NoSchedule", "PreferNoSchedule", "NoExecute")
_BY_NAME = {flag.name: flag for flag in FLAGS}


def _error(sink: list[Diagnostic], code: str, message: str, flag: str = "",
           severity: Severity = Severity.ERROR) -> None:
    sink.append(_diag(code, severity, message, flag))


def _warn(sink: list[Diagnostic], code: str, message: str, flag: str = "",
          severity: Severity = Severity.WARNING) -> None:
    sink.append(_diag(code, severity, message, flag))


class ArenaUsageError(ValueError):
    """The argv is not an ``arena submit <kind> ...`` line at all (a usage error, exit 2)."""


def _diag(code: str, severity: Severity, message: str, path: str = "") -> Diagnostic:
    return Diagnostic(SOURCE, None, None, path, code, severity, message)


def split_command_line(text: str) -> list[str]:
    """A pasted command line (``\\`` line continuations, a ``$``/``➜`` prompt, ``#`` comment lines)
    as the shell would split it."""
    lines = [line for line in text.splitlines() if not line.lstrip().startswith("#")]
    try:
        words = shlex.split("\n".join(lines).replace("\\\n", " "))  # \ + newline: a line continuation
    except ValueError as exc:
        raise ArenaUsageError(f"cannot split the command line: {exc}") from None
    return words[1:] if words[:1] in (["$"], ["➜"], ["%"]) else words


def import_arena(argv: list[str]) -> tuple[dict[str, Any], list[Diagnostic]]:
    """Translate an arena command line (with or without the leading ``arena``) into a spec."""
    tokens = list(argv)
    if tokens and tokens[0].rsplit("/", 1)[-1] == "arena":
        tokens = tokens[1:]
    values: Values = {}
    positional: list[str] = []
    problems: list[tuple[str, str]] = []
    words: list[str] = []
    i = 0
    while len(words) < 2 and i < len(tokens):  # global flags may come before `submit` and the kind
        i += read(tokens[i:], flags_for(None), values, positional, problems, stop_at_word=True)
        if i < len(tokens):
            if tokens[i] == "--":
                break
            words.append(tokens[i])
            i += 1
    if not words or words[0] != "submit":
        raise ArenaUsageError("expected an arena command line: [arena] submit mpijob|pytorchjob|tfjob FLAGS... COMMAND")
    if len(words) < 2:
        raise ArenaUsageError("arena submit needs a job kind: mpijob (mpi), pytorchjob (pytorch), tfjob (tf)")
    if words[1] not in KINDS:
        if words[1] in OTHER_KINDS:
            return {}, [_diag("arena-kind", Severity.ERROR, f"arena submit {words[1]}: mpigen imports only mpijob, "
                              "pytorchjob and tfjob")]
        raise ArenaUsageError(f"arena submit {words[1]}: not an arena job kind (mpijob, pytorchjob, tfjob)")
    job = KINDS[words[1]]
    read(tokens[i:], flags_for(job), values, positional, problems)
    return _Builder(job, values, positional, problems).build()


class _Builder:
    def __init__(self, job: str, values: Values, positional: list[str], problems: list[tuple[str, str]]):
        self.job, self.values, self.positional = job, values, positional
        self.diagnostics: list[Diagnostic] = []
        for spelling, problem in problems:
            if problem == "unknown":
                _error(self.diagnostics, "arena-flag", f"unknown flag {spelling} for arena submit {self.kind} (arena {TAG})", spelling)
            else:
                _error(self.diagnostics, "arena-value", f"flag {spelling} needs a value", spelling)

    @property
    def kind(self) -> str:
        return {"mpi": "mpijob", "pytorch": "pytorchjob", "tf": "tfjob"}[self.job]

    # ------------------------------------------------------------ typed flag values

    def given(self, name: str) -> bool:
        return name in self.values

    def string(self, name: str) -> str:
        got = self.values.get(name)
        if got:
            return got[-1]
        default = _BY_NAME[name].default
        if name == "clean-task-policy":
            return "All" if self.job == "mpi" else "Running"
        return default

    def strings(self, name: str) -> list[str]:
        return self.values.get(name, [])

    def typed(self, name: str, parse: Any) -> Any:
        text = self.string(name)
        try:
            return parse(text)
        except ValueError as exc:
            _error(self.diagnostics, "arena-value", f"--{name}: {exc}", f"--{name}")
            return parse(_BY_NAME[name].default)

    def integer(self, name: str) -> int:
        return self.typed(name, parse_int)

    def boolean(self, name: str) -> bool:
        return self.typed(name, parse_bool)

    def queue(self) -> bool:
        """arena's ``--queue``: Kube-Queue's switch, which people take for a queue name."""
        meaning = ("arena's --queue is not a queue name: it is Kube-Queue's switch, which creates the job suspended "
                   "(annotation scheduling.x-k8s.io/suspend: \"true\") until kube-queue admits it")
        text = self.string("queue")
        try:
            enabled = parse_bool(text)
        except ValueError:
            _error(self.diagnostics, "arena-value", f"--queue {text!r}: {meaning}; to run the job in a Volcano queue "
                   f"or a Kueue LocalQueue named {text!r}, drop --queue and set spec.scheduling.queue (with "
                   "scheduling.gang) in the spec", "--queue")
            return False
        if enabled:
            _warn(self.diagnostics, "arena-queue", f"{meaning}; the imported spec does the same, so the job starts "
                  "only on a cluster running kube-queue (for a Volcano queue or a Kueue LocalQueue, drop --queue and "
                  "set spec.scheduling.queue)", "--queue")
        return enabled

    def seconds(self, name: str) -> int:
        return self.typed(name, parse_duration_seconds)

    def quantity(self, name: str) -> str:
        text = self.string(name)
        if text:
            try:
                Quantity.parse(text)
            except ValueError:
                _error(self.diagnostics, "arena-value", f"--{name}: {text!r} is not a Kubernetes quantity", f"--{name}")
        return text

    def pairs(self, name: str) -> dict[str, str]:
        """transformSliceToMap(values, "="): an item without = is dropped by arena."""
        out: dict[str, str] = {}
        for item in self.strings(name):
            key, eq, value = item.partition("=")
            if eq:
                out[key] = value
            else:
                _warn(self.diagnostics, "arena-ignored", f"--{name} {item!r} has no '=': arena ignores it", f"--{name}")
        return out

    # ------------------------------------------------------------ the spec

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
