"""The flags of ``arena submit mpijob|pytorchjob|tfjob``, as data, and a pflag-style argv reader.

Source: kubeflow/arena **v0.15.5** (the newest release tag): ``pkg/argsbuilder/submit.go`` (common
flags), ``submit_sync_code.go``, ``submit_tensorboard.go``, ``submit_mpijob.go``,
``submit_pytorchjob.go``, ``submit_tfjob.go``, the global flags of ``pkg/commands/root.go``, and the
Helm charts ``charts/{mpijob,pytorchjob,tfjob}`` that turn them into manifests. Each :class:`Flag`
says what arena does with the flag and where mpigen puts it; ``docs/arena.md`` is generated from this
table (:func:`flags_markdown`).

The reader follows spf13/pflag as cobra uses it: ``--flag value``, ``--flag=value``, ``-e value``,
``-evalue``, ``-e=value``; a bool flag takes no separate value (``--gang``, ``--gang=false``); string
array flags may repeat; flags and positional arguments may be interleaved; ``--`` ends the flags.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

JOBS = ("mpi", "pytorch", "tf")
KINDS = {"mpijob": "mpi", "mpi": "mpi", "mj": "mpi", "pytorchjob": "pytorch", "pytorch": "pytorch",
         "tfjob": "tf", "tf": "tf"}
OTHER_KINDS = ("horovodjob", "horovod", "hj", "sparkjob", "spark", "volcanojob", "volcano", "vj", "etjob",
               "et", "deepspeedjob", "deepspeed", "dj", "rayjob", "ray")


@dataclass(frozen=True)
class Flag:
    """One arena flag. ``type``: string, int, bool, strings (repeatable), duration.
    ``status``: mapped (onto the spec), ignored (no effect on the manifests), unsupported (an error
    when given a value other than its default)."""

    name: str
    type: str
    jobs: tuple[str, ...]
    default: str
    meaning: str
    maps_to: str
    status: str = "mapped"
    short: str = ""
    aliases: tuple[str, ...] = ()


def _f(name: str, type_: str, jobs: str, default: str, meaning: str, maps_to: str, status: str = "mapped",
       short: str = "", aliases: tuple[str, ...] = ()) -> Flag:
    return Flag(name, type_, tuple(JOBS if jobs == "all" else ("global",) if jobs == "global" else jobs.split()),
                default, meaning, maps_to, status, short, aliases)


UNSUPPORTED = "unsupported"
IGNORED = "ignored"

FLAGS: tuple[Flag, ...] = (
    # pkg/argsbuilder/submit.go: every job
    _f("name", "string", "all", "", "Job name (required); a DNS-1123 label of at most 49 characters.", "metadata.name"),
    _f("image", "string", "all", "", "Image of every pod (required for mpi and pytorch; tf: unless --worker-image).",
       "spec.image (tf: the default of --worker-image and --ps-image)"),
    _f("gpus", "int", "all", "0", "nvidia.com/gpu per worker (pytorch: also the master; tf: also chief, evaluator).",
       "spec.resources.gpu"),
    _f("device", "strings", "all", "", "Other accelerators, NAME=COUNT (e.g. amd.com/gpu=1).", "spec.resources.NAME"),
    _f("workers", "int", "all", "1", "mpi: worker pods. pytorch: pods in all, the master included. tf: worker pods; "
       "1 worker without --ps is a standalone job (one Chief, no workers).",
       "spec.workers (pytorch: workers - 1; tf standalone: 0 and tensorflow.chief)"),
    _f("retry", "int", "all", "0", "backoffLimit of the job (always written).", "spec.runPolicy.backoffLimit"),
    _f("working-dir", "string", "all", "/root", "workingDir of the training containers; synced code is mounted at "
       "<working-dir>/code.", "spec.workingDir, spec.code.mountPath", aliases=("workingDir",)),
    _f("env", "strings", "all", "", "Environment variable NAME=VALUE (an item without = is ignored). With --sync-mode "
       "git, GIT_SYNC_BRANCH, GIT_SYNC_REV and GIT_SYNC_DEPTH configure git-sync.",
       "spec.env; GIT_SYNC_BRANCH/REV -> spec.code.git.revision, GIT_SYNC_DEPTH -> depth", short="e"),
    _f("data", "strings", "all", "", "PVC to mount, CLAIM:MOUNT_PATH.", "spec.volumes[] {claimName, mountPath}",
       short="d"),
    _f("data-dir", "strings", "all", "", "Host path to mount, HOST_PATH[:MOUNT_PATH].",
       "spec.volumes[] {hostPath, mountPath, name: training-data-<i>}", aliases=("dataDir",)),
    _f("annotation", "strings", "all", "", "Annotation KEY=VALUE on the job and its pods.",
       "metadata.annotations and spec.annotations", short="a"),
    _f("label", "strings", "all", "", "Label KEY=VALUE on the job and its pods.", "metadata.labels", short="l"),
    _f("rdma", "bool", "all", "false", "Requests rdma/hca and adds IPC_LOCK (host network).", "", UNSUPPORTED),
    _f("gang", "bool", "all", "false", "Gang scheduling by ACK's Coscheduling plugin: pod labels "
       "pod-group.scheduling.sigs.k8s.io/name and /min-available, the default scheduler.",
       "spec.scheduling.gang: scheduler-plugins, schedulerName: default-scheduler"),
    _f("priority", "string", "all", "", "PriorityClass of the pods.", "spec.priorityClassName", short="p"),
    _f("queue", "bool", "all", "false", "Kube-Queue: the job is created with annotation "
       "scheduling.x-k8s.io/suspend: \"true\" (not a queue name).", "metadata.annotations, spec.annotations"),
    _f("toleration", "strings", "all", "", "KEY=VALUE:EFFECT,OPERATOR, or all (tolerate every taint; later items are "
       "then ignored). arena v0.15.5 ignores any other form; mpigen also reads KEY[=VALUE][:EFFECT] as older arena "
       "releases and the guides do, and warns.", "spec.tolerations"),
    _f("selector", "strings", "all", "", "Node label KEY=VALUE the pods need.", "spec.nodeSelector"),
    _f("config-file", "strings", "all", "", "Local file copied into a ConfigMap and mounted.", "", UNSUPPORTED),
    _f("image-pull-secret", "strings", "all", "", "imagePullSecrets of the pods.", "spec.imagePullSecrets"),
    _f("image-pull-policy", "string", "all", "Always", "imagePullPolicy of the containers.",
       "spec.imagePullPolicy (always written)"),
    _f("shell", "string", "all", "sh", "Shell that runs the command: [SHELL, -c, COMMAND].", "spec.command[0]"),
    _f("scheduler", "string", "all", "", "schedulerName of the pods.", "spec.scheduling.schedulerName (with --gang)"),
    _f("hostNetwork", "bool", "all", "false", "hostNetwork of the pods.", "", UNSUPPORTED),
    _f("hostIPC", "bool", "all", "false", "hostIPC of the pods.", "", UNSUPPORTED),
    _f("hostPID", "bool", "all", "false", "hostPID of the pods.", "", UNSUPPORTED),
    _f("model-name", "string", "all", "", "Registers a model version in arena's model registry.", "", UNSUPPORTED),
    _f("model-source", "string", "all", "", "Source URI of that model version.", "", UNSUPPORTED),
    # submit_sync_code.go
    _f("sync-mode", "string", "all", "", "Code sync by an init container: git (git-sync into /code/<repository "
       "name>) or rsync.", "spec.code.git / spec.code.rsync", aliases=("syncMode",)),
    _f("sync-source", "string", "all", "", "git repository URL, or rsync source.",
       "spec.code.git.repository / spec.code.rsync.source", aliases=("syncSource",)),
    _f("sync-image", "string", "all", "", "Image of the sync init container.", "", UNSUPPORTED, aliases=("syncImage",)),
    # submit_tensorboard.go
    _f("tensorboard", "bool", "all", "false", "A TensorBoard Deployment and NodePort Service reading --logdir.",
       "spec.tensorboard {logDir, serviceType: NodePort}"),
    _f("tensorboard-image", "string", "all", "", "Image of TensorBoard.", "spec.tensorboard.image",
       aliases=("tensorboardImage",)),
    _f("logdir", "string", "all", "/training_logs", "Training log folder TensorBoard reads; outside every --data "
       "PVC, arena mounts a new hostPath /arena_logs/training<random> there.",
       "spec.tensorboard.logDir (outside a PVC: a hostPath volume /arena_logs/<name>)"),
    # submit_mpijob.go
    _f("cpu", "string", "mpi pytorch", "", "CPU per pod.", "spec.resources.cpu"),
    _f("memory", "string", "mpi pytorch", "", "Memory per pod.", "spec.resources.memory"),
    _f("gputopology", "bool", "mpi", "false", "ACK topology-aware GPU scheduling (aliyun.com/gpu, host network).",
       "spec.scheduling.gpuTopology"),
    _f("mounts-on-launcher", "bool", "mpi", "false", "The launcher mounts the PVCs too.", "", UNSUPPORTED),
    _f("clean-task-policy", "string", "all", "All for mpi, Running otherwise", "cleanPodPolicy: None, Running, All "
       "(always written).", "spec.runPolicy.cleanPodPolicy", aliases=("cleanTaskPolicy",)),
    # submit_pytorchjob.go and submit_tfjob.go
    _f("running-timeout", "duration", "pytorch tf", "0s", "activeDeadlineSeconds (a Go duration: 5s, 1m, 2h22m).",
       "spec.runPolicy.activeDeadlineSeconds"),
    _f("ttl-after-finished", "duration", "pytorch tf", "0s", "ttlSecondsAfterFinished (a Go duration).",
       "spec.runPolicy.ttlSecondsAfterFinished"),
    _f("share-memory", "string", "pytorch tf", "2Gi", "Memory-backed emptyDir at /dev/shm (mpi: always 2Gi, none "
       "with --gputopology).", "spec.shmSize"),
    _f("nproc-per-node", "string", "pytorch", "", "auto, cpu, gpu or a number: environment PET_NPROC_PER_NODE.",
       "spec.env.PET_NPROC_PER_NODE"),
    _f("starting-timeout", "duration", "tf", "0s", "Pending deadline enforced by arena's job supervisor.", "",
       UNSUPPORTED),
    _f("worker-image", "string", "tf", "", "Image of workers, chief and evaluator.", "spec.image",
       aliases=("workerImage",)),
    _f("ps-image", "string", "tf", "", "Image of the parameter servers (default --image).",
       "spec.tensorflow.ps.image", aliases=("psImage",)),
    _f("ps", "int", "tf", "0", "Parameter servers.", "spec.tensorflow.ps.replicas"),
    _f("ps-port", "int", "tf", "0", "Port of the parameter servers (0: arena picks a free one).",
       "spec.tensorflow.port (all given ports must be equal)", aliases=("psPort",)),
    _f("worker-port", "int", "tf", "0", "Port of the workers.", "spec.tensorflow.port", aliases=("workerPort",)),
    _f("chief-port", "int", "tf", "0", "Port of the chief.", "spec.tensorflow.port", aliases=("chiefPort",)),
    _f("worker-cpu", "string", "tf", "", "CPU per worker.", "spec.resources.cpu", aliases=("workerCpu",)),
    _f("worker-memory", "string", "tf", "", "Memory per worker.", "spec.resources.memory", aliases=("workerMemory",)),
    _f("ps-cpu", "string", "tf", "", "CPU per parameter server.", "spec.tensorflow.ps.resources.cpu",
       aliases=("psCpu",)),
    _f("ps-memory", "string", "tf", "", "Memory per parameter server.", "spec.tensorflow.ps.resources.memory",
       aliases=("psMemory",)),
    _f("ps-gpus", "int", "tf", "0", "GPUs per parameter server.", "spec.tensorflow.ps.resources.gpu"),
    _f("chief", "bool", "tf", "false", "One Chief (same image and --gpus as a worker).", "spec.tensorflow.chief"),
    _f("evaluator", "bool", "tf", "false", "One Evaluator (same image and --gpus as a worker).",
       "spec.tensorflow.evaluator"),
    _f("chief-cpu", "string", "tf", "", "CPU of the chief.", "spec.tensorflow.chief.resources.cpu",
       aliases=("ChiefCpu",)),
    _f("chief-memory", "string", "tf", "", "Memory of the chief.", "spec.tensorflow.chief.resources.memory",
       aliases=("ChiefMemory",)),
    _f("evaluator-cpu", "string", "tf", "", "CPU of the evaluator.", "spec.tensorflow.evaluator.resources.cpu",
       aliases=("evaluatorCpu",)),
    _f("evaluator-memory", "string", "tf", "", "Memory of the evaluator.",
       "spec.tensorflow.evaluator.resources.memory", aliases=("evaluatorMemory",)),
    _f("worker-cpu-limit", "string", "tf", "", "CPU limit above the request.", "", UNSUPPORTED),
    _f("worker-memory-limit", "string", "tf", "", "Memory limit above the request.", "", UNSUPPORTED),
    _f("ps-cpu-limit", "string", "tf", "", "CPU limit above the request.", "", UNSUPPORTED),
    _f("ps-memory-limit", "string", "tf", "", "Memory limit above the request.", "", UNSUPPORTED),
    _f("chief-cpu-limit", "string", "tf", "", "CPU limit above the request.", "", UNSUPPORTED),
    _f("chief-memory-limit", "string", "tf", "", "Memory limit above the request.", "", UNSUPPORTED),
    _f("evaluator-cpu-limit", "string", "tf", "", "CPU limit above the request.", "", UNSUPPORTED),
    _f("evaluator-memory-limit", "string", "tf", "", "Memory limit above the request.", "", UNSUPPORTED),
    _f("worker-affinity-policy", "string", "tf", "none", "spread or binpack pod affinity.", "", UNSUPPORTED),
    _f("worker-affinity-constraint", "string", "tf", "preferred", "preferred or required.", "", UNSUPPORTED),
    _f("ps-affinity-policy", "string", "tf", "none", "spread or binpack pod affinity.", "", UNSUPPORTED),
    _f("ps-affinity-constraint", "string", "tf", "preferred", "preferred or required.", "", UNSUPPORTED),
    _f("success-policy", "string", "tf", "ChiefWorker", "ChiefWorker or AllWorkers.", "", UNSUPPORTED),
    _f("worker-selector", "strings", "tf", "", "nodeSelector of the workers only.", "", UNSUPPORTED),
    _f("chief-selector", "strings", "tf", "", "nodeSelector of the chief only.", "", UNSUPPORTED),
    _f("evaluator-selector", "strings", "tf", "", "nodeSelector of the evaluator only.", "", UNSUPPORTED),
    _f("ps-selector", "strings", "tf", "", "nodeSelector of the parameter servers only.", "", UNSUPPORTED),
    _f("role-sequence", "string", "tf", "", "Order of roles in arena's own listings (annotation "
       "job-role-sequence).", "", IGNORED),
    # pkg/commands/root.go: global flags, anywhere on the line
    _f("namespace", "string", "global", "", "Namespace of the job.", "metadata.namespace", short="n"),
    _f("loglevel", "string", "global", "info", "arena's own logging.", "", IGNORED),
    _f("pprof", "bool", "global", "false", "arena's CPU profile.", "", IGNORED),
    _f("trace", "bool", "global", "false", "arena's trace.", "", IGNORED),
    _f("arena-namespace", "string", "global", "arena-system", "Namespace of arena's services.", "", IGNORED),
    _f("config", "string", "global", "", "kubeconfig arena uses.", "", IGNORED),
    _f("helm-binary", "bool", "global", "false", "Submit with the helm binary.", "", IGNORED),
)


def flags_for(job: str | None) -> dict[str, Flag]:
    """Every spelling (name, deprecated alias, ``-x`` shorthand) -> flag, for a job (None: global only)."""
    table: dict[str, Flag] = {}
    for flag in FLAGS:
        if "global" in flag.jobs or (job is not None and job in flag.jobs):
            for spelling in (flag.name, *flag.aliases):
                table["--" + spelling] = flag
            if flag.short:
                table["-" + flag.short] = flag
    return table


class ArgvError(Exception):
    """A flag the reader cannot take: (spelling, problem)."""


Values = dict[str, list[str]]  # flag name -> every value given, in order


def read(tokens: list[str], table: dict[str, Flag], values: Values, positional: list[str],
         problems: list[tuple[str, str]], stop_at_word: bool = False) -> int:
    """Read flags and positional arguments from ``tokens`` as pflag does; returns how many tokens
    were used (with ``stop_at_word``: stops before the first positional word)."""
    i = 0
    while i < len(tokens):
        token = tokens[i]
        if token == "--":
            if stop_at_word:
                return i
            positional.extend(tokens[i + 1:])
            return len(tokens)
        if not token.startswith("-") or token == "-":
            if stop_at_word:
                return i
            positional.append(token)
            i += 1
            continue
        if token.startswith("--"):
            spelling, eq, value = token.partition("=")
        else:  # -e VALUE, -eVALUE, -e=VALUE
            spelling, rest = token[:2], token[2:]
            eq, value = ("=", rest[1:]) if rest.startswith("=") else ("=" if rest else "", rest)
        flag = table.get(spelling)
        i += 1
        if flag is None:
            problems.append((spelling, "unknown"))
            continue
        if not eq:
            if flag.type == "bool":
                value = "true"
            elif i < len(tokens):
                value, i = tokens[i], i + 1
            else:
                problems.append((spelling, "needs a value"))
                continue
        values.setdefault(flag.name, []).append(value)
    return i


_DURATION = re.compile(r"([0-9]*(?:\.[0-9]*)?)(ns|us|µs|μs|ms|s|m|h)")
_UNIT = {"ns": 1e-9, "us": 1e-6, "µs": 1e-6, "μs": 1e-6, "ms": 1e-3, "s": 1.0, "m": 60.0, "h": 3600.0}
_BOOLS = {"1": True, "t": True, "T": True, "TRUE": True, "true": True, "True": True,
          "0": False, "f": False, "F": False, "FALSE": False, "false": False, "False": False}


def parse_bool(text: str) -> bool:
    """strconv.ParseBool."""
    if text not in _BOOLS:
        raise ValueError(f"{text!r} is not a boolean")
    return _BOOLS[text]


def parse_int(text: str) -> int:
    """strconv.ParseInt(text, 0, 64), as pflag reads an int flag (0x, 0o, 0b, a leading 0: octal)."""
    try:
        octal = re.fullmatch(r"([+-]?)0([0-7_]+)", text)
        return int(octal.group(1) + "0o" + octal.group(2), 0) if octal else int(text, 0)
    except ValueError:
        raise ValueError(f"{text!r} is not an integer") from None


def parse_duration_seconds(text: str) -> int:
    """time.ParseDuration, then int64(d.Seconds()): the whole seconds arena writes."""
    sign, body = (-1, text[1:]) if text.startswith("-") else (1, text.removeprefix("+"))
    if body == "0":
        return 0
    pos, total = 0, 0.0
    while pos < len(body):
        m = _DURATION.match(body, pos)
        if m is None or m.group(1) in ("", "."):
            raise ValueError(f"{text!r} is not a duration (e.g. 90s, 5m, 2h30m)")
        total += float(m.group(1)) * _UNIT[m.group(2)]
        pos = m.end()
    if not body:
        raise ValueError(f"{text!r} is not a duration (e.g. 90s, 5m, 2h30m)")
    return sign * int(total + 1e-9)


def flags_markdown() -> str:
    """The flag table of docs/arena.md."""
    rows = ["| flag | jobs | arena default | what arena does | mpigen spec |", "|---|---|---|---|---|"]
    for flag in FLAGS:
        names = ", ".join([f"`--{flag.name}`"] + [f"`-{flag.short}`"] * bool(flag.short)
                          + [f"`--{a}`" for a in flag.aliases])
        jobs = "all (global)" if "global" in flag.jobs else "all" if flag.jobs == JOBS else ", ".join(flag.jobs)
        target = {"unsupported": "**error** unless the default", "ignored": "ignored (no effect on the manifests)"}
        mapped = f"`{flag.maps_to}`" if flag.status == "mapped" else target[flag.status]
        default = f"`{flag.default}`" if flag.default else ""
        rows.append(f"| {names} | {jobs} | {default} | {flag.meaning.replace('|', '/')} | {mapped} |")
    return "\n".join(rows) + "\n"
