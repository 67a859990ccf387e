"""Stage 2b, check: the rules a spec must follow beyond its schema.

Each rule reads the effective spec of one environment and yields
``(path, code, severity, message)`` with ``path`` relative to the document root; the caller
maps paths written by an environment back to where that environment wrote them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterator

from ..diagnostics import Severity
from ..expand.defaults import quantity_text
from ..expand.environments import origin
from ..names import DNS1035_MAX, job_name_problem, volume_name
from ..operator.quantity import Quantity, QuantityError
from ..versions import FEATURES, OperatorVersion
from .role_rules import role_places
from .schema import quantity_message

if TYPE_CHECKING:
    from ..load.trainer_runtimes import Runtimes

Finding = tuple[tuple, str, Severity, str]

OPERATOR_ENV = {
    "K_MPI_JOB_ROLE", "OMPI_MCA_orte_keep_fqdn_hostnames", "OMPI_MCA_orte_default_hostfile",
    "OMPI_MCA_plm_rsh_args", "OMPI_MCA_orte_set_default_slots", "I_MPI_HYDRA_HOST_FILE",
    "I_MPI_HYDRA_BOOTSTRAP_EXEC_EXTRA_ARGS", "I_MPI_PERHOST", "HYDRA_HOST_FILE", "HYDRA_LAUNCH_EXTRA_ARGS",
}


def check_spec(doc: dict[str, Any], spec: dict[str, Any], version: OperatorVersion,
               priority_classes: dict[str, int] | None, schema_ok: bool = True,
               env: str | None = None, runtimes: Runtimes | None = None) -> list[Finding]:
    """All findings for one environment's effective ``spec`` of the document ``doc`` (``env``: its
    name, None for the base).

    The rules expect the shape the schema guarantees. When the schema already reported errors
    (``schema_ok`` false), a rule that cannot read the malformed spec contributes nothing: the
    schema's diagnostic says what is wrong. With a valid shape, such a failure is a bug and raises.

    A spec with ``spec.runtime`` (a TrainJob, :mod:`.runtime_rules`, checked against ``runtimes``:
    None for Trainer's default runtimes) is not held to mpi-operator's and training-operator's
    rules: its pods' names, versions and gang are Trainer's.
    """
    findings: list[Finding] = []
    trainjob = spec.get("runtime") is not None
    operator_rules = (_quantities, _workers, _scheduling, _volumes, _env) if trainjob else \
        (_quantities, _hostnames, _workers, _scheduling, _versions, _launcher, _volumes, _env)
    rules = [(rule, (doc, spec, version) + ((env,) if rule is _hostnames else ())) for rule in operator_rules]
    if trainjob:
        from .runtime_rules import check_runtime  # (json, for the default runtimes: only when needed)
        from .trainjob_rules import check_trainjob_pods

        rules += [(check_runtime, (doc, spec, runtimes)), (check_trainjob_pods, (doc, spec, runtimes))]
    from .feature_rules import FEATURE_RULES
    from .patch_rules import PATCH_RULES
    from .role_rules import ROLE_RULES

    rules += [(rule, (doc, spec, version)) for rule in (*FEATURE_RULES, *ROLE_RULES, *PATCH_RULES)]
    rules.append((_priority_classes, (spec, priority_classes)))
    for rule, args in rules:
        try:
            findings.extend(rule(*args))
        except (AttributeError, KeyError, TypeError, ValueError):
            if schema_ok:
                raise
    return findings


def _quantities(doc: dict, spec: dict, version: OperatorVersion) -> Iterator[Finding]:
    places = [(("resources",), spec.get("resources")),
              (("mpi", "launcher", "resources"), ((spec.get("mpi") or {}).get("launcher") or {}).get("resources")),
              (("scheduling", "minResources"), (spec.get("scheduling") or {}).get("minResources"))]
    places += [((framework, role, "resources"), settings.get("resources")) for framework, role, settings in _roles(spec)]
    places += [(path[1:] + ("resources",), settings.get("resources")) for path, settings in role_places(spec)[1:]]
    if spec.get("shmSize") is not None:
        places.append(((), {"shmSize": spec["shmSize"]}))
    for path, resources in places:
        for name, value in (resources or {}).items():
            if isinstance(value, bool) or not isinstance(value, (str, int, float)):
                continue  # the schema reports the type
            try:
                quantity = Quantity.parse(quantity_text(value))
            except QuantityError:
                yield (("spec",) + path + (name,), "quantity", Severity.ERROR, quantity_message(value, name == "gpu"))
                continue
            if quantity.sign() < 0:
                yield (("spec",) + path + (name,), "quantity", Severity.ERROR, f"{value!r} must not be negative")


def _roles(spec: dict) -> list[tuple[str, str, dict]]:
    """(framework, role, settings) of pytorch.master and tensorflow.ps/chief/evaluator when given."""
    out = []
    for framework, roles in (("pytorch", ("master",)), ("tensorflow", ("ps", "chief", "evaluator"))):
        settings = spec.get(framework)
        if isinstance(settings, dict):
            out += [(framework, role, settings[role]) for role in roles if isinstance(settings.get(role), dict)]
    return out


def pod_counts(spec: dict) -> dict[str, int]:
    """Replica type -> pods, as the renderer writes them (for the checks' messages and limits)."""
    framework = spec.get("framework", "mpi")
    workers = spec.get("workers") if isinstance(spec.get("workers"), int) else 0
    if framework == "mpi":
        return {"launcher": 1, "worker": workers}
    if framework == "pytorch":
        return {"master": 1, "worker": workers}
    tf = spec.get("tensorflow") or {}
    counts = {"chief": 1 if "chief" in tf else 0, "ps": (tf.get("ps") or {}).get("replicas", 1) if "ps" in tf else 0,
              "worker": workers, "evaluator": 1 if "evaluator" in tf else 0}
    return {k: v for k, v in counts.items() if v}


def _hostnames(doc: dict, spec: dict, version: OperatorVersion, env: str | None = None) -> Iterator[Finding]:
    """Pod hostnames ``<name>-<role>-<i>`` (and the MPI launcher's ``<name>-launcher``) are
    DNS-1035 labels. One problem, said once where it is: the name's characters, or its length
    (then the same message for every environment), at ``metadata.name``; a hostname too long only
    because of a replica count, at that count, naming the environment that sets it."""
    name = (doc.get("metadata") or {}).get("name")
    workers = spec.get("workers")
    if not isinstance(name, str) or not isinstance(workers, int) or isinstance(workers, bool):
        return
    problem = job_name_problem(name)
    if problem:
        yield (("metadata", "name"), "hostname", Severity.ERROR,
               f"the job name {name!r} {problem}: it must be lower-case letters, digits and '-', start with a "
               "letter and end with a letter or digit, as it begins every pod's hostname"
               + (f" ({name}-worker-0)" if name else "") + "; rename the job")
        return
    # (role, pods, where the count is written): the count sets the last pod's number
    if spec.get("framework", "mpi") == "mpi":  # validateMPIJobName: <name>-worker-<replicas-1>, 1 when 0
        pods = [("worker", max(workers, 1), ("spec", "workers")), ("launcher", None, None)]
    else:  # training-operator names pods and services <job>-<replica type>-<index>
        counts = {"worker": ("spec", "workers"), "ps": ("spec", "tensorflow", "ps", "replicas")}
        pods = [(role, count, counts.get(role)) for role, count in pod_counts(spec).items() if count > 0]
    first = max((f"{name}-{role}" if count is None else f"{name}-{role}-0" for role, count, _ in pods),
                key=len, default="")
    if len(first) > DNS1035_MAX:
        yield (("metadata", "name"), "hostname", Severity.ERROR,
               f"the job name {name!r} is {len(name)} characters long: the pod hostname {first!r} is {len(first)} "
               f"(a DNS-1035 label has at most {DNS1035_MAX}); the operator rejects the job: shorten the name to at "
               f"most {DNS1035_MAX - (len(first) - len(name))} characters")
        return
    for role, count, path in pods:
        last = f"{name}-{role}-{(count or 1) - 1}"
        if count is None or len(last) <= DNS1035_MAX:
            continue
        where = ""
        if env is not None and origin(path[1:], doc.get("spec") or {}, env)[:1] == ("environments",):
            where = f" (environment {env!r})"
        digits = DNS1035_MAX - len(f"{name}-{role}-")
        one, many = ("parameter server", "parameter servers") if role == "ps" else (role, f"{role}s")
        yield (path, "hostname", Severity.ERROR,
               f"{count} {many}{where} make the last {one}'s hostname {last!r} {len(last)} characters long (a "
               f"DNS-1035 label has at most {DNS1035_MAX}); the operator rejects the job: use at most {10 ** digits} "
               f"{many} or shorten the job name to at most {DNS1035_MAX - (len(last) - len(name))} characters")


def _workers(doc: dict, spec: dict, version: OperatorVersion) -> Iterator[Finding]:
    workers = spec.get("workers")
    mpi = spec.get("mpi") or {}
    framework = spec.get("framework", "mpi")
    if framework == "tensorflow" and workers == 0 and "chief" not in (spec.get("tensorflow") or {}):
        yield (("spec", "workers"), "workers", Severity.ERROR,
               "a TFJob with no workers needs a chief (tensorflow.chief) to train; without either the "
               "operator marks it Succeeded at once")
    if framework == "mpi" and workers == 0 and not mpi.get("runLauncherAsWorker") and spec.get("runtime") is None:
        yield (("spec", "workers"), "workers", Severity.ERROR,
               "workers must be at least 1 (or set mpi.runLauncherAsWorker so that the launcher runs the ranks)")


def _scheduling(doc: dict, spec: dict, version: OperatorVersion) -> Iterator[Finding]:
    scheduling = spec.get("scheduling") or {}
    gang = scheduling.get("gang", "none")
    base = ("spec", "scheduling")
    if "schedulerName" in scheduling and gang != "scheduler-plugins":
        yield (base + ("schedulerName",), "scheduler-name", Severity.ERROR,
               "schedulerName names the scheduler-plugins scheduler; it needs gang: scheduler-plugins")
    if spec.get("runtime") is not None and "gang" not in scheduling:
        return  # the runtime's podGroupPolicy: mpigen.spec.runtime_rules
    if gang == "none":
        for key in ("queue", "priorityClass", "minAvailable", "minResources", "scheduleTimeoutSeconds"):
            if key in scheduling:
                yield (base + (key,), "gang-ignored", Severity.WARNING,
                       f"{key} has no effect without a gang scheduler (set scheduling.gang)")
        return
    if gang == "kueue":
        return  # Kueue's own rules: mpigen.spec.feature_rules
    if spec.get("runtime") is not None:  # Trainer's podGroupPolicy: mpigen.spec.runtime_rules
        if gang == "scheduler-plugins" and "queue" in scheduling:
            yield (base + ("queue",), "gang-ignored", Severity.WARNING,
                   "scheduler-plugins has no queues: Trainer's coscheduling PodGroup has none")
        if gang == "volcano" and "scheduleTimeoutSeconds" in scheduling:
            yield (base + ("scheduleTimeoutSeconds",), "gang-ignored", Severity.WARNING,
                   "Volcano ignores scheduleTimeoutSeconds: Trainer's volcano PodGroup has no timeout")
        return
    if gang == "scheduler-plugins":
        for key in ("queue", "priorityClass"):
            if key in scheduling:
                yield (base + (key,), "gang-ignored", Severity.WARNING,
                       f"scheduler-plugins ignores {key}: the operator does not pass it to the PodGroup")
        if scheduling.get("scheduleTimeoutSeconds", 0) == 0:
            yield (base + ("scheduleTimeoutSeconds",) if "scheduleTimeoutSeconds" in scheduling else base,
                   "schedule-timeout-zero", Severity.WARNING,
                   "scheduleTimeoutSeconds is 0 or unset: the operator sends 0 and the coscheduling plugin falls "
                   "back to its default permit wait (60 s); set how long the gang may wait")
    if (spec.get("mpi") or {}).get("launcherCreationPolicy") == "WaitForWorkersReady":
        workers = spec.get("workers")
        min_available = scheduling.get("minAvailable", workers + 1 if isinstance(workers, int) else None)
        if isinstance(workers, int) and isinstance(min_available, int) and min_available > workers > 0:
            yield (("spec", "mpi", "launcherCreationPolicy"), "launcher-wait-gang-deadlock", Severity.ERROR,
                   f"WaitForWorkersReady holds the launcher back until the workers run, but the gang needs "
                   f"{min_available} pods, the launcher included, before any of them is bound: a deadlock; "
                   "use AtStartup with gang scheduling")
    if gang == "volcano" and "scheduleTimeoutSeconds" in scheduling:
        yield (base + ("scheduleTimeoutSeconds",), "gang-ignored", Severity.WARNING,
               "Volcano ignores scheduleTimeoutSeconds: the operator does not pass it to the PodGroup")
    min_available = scheduling.get("minAvailable")
    workers = spec.get("workers")
    if isinstance(min_available, int) and isinstance(workers, int):
        pods = sum(pod_counts(spec).values())
        if min_available > pods:
            yield (base + ("minAvailable",), "min-available", Severity.ERROR,
                   f"minAvailable {min_available} is more than the job's {pods} pods: the gang can never start")


def _versions(doc: dict, spec: dict, version: OperatorVersion) -> Iterator[Finding]:
    mpi = spec.get("mpi") or {}
    scheduling = spec.get("scheduling") or {}
    uses = []
    if mpi.get("runLauncherAsWorker"):
        uses.append((("spec", "mpi", "runLauncherAsWorker"), "runLauncherAsWorker"))
    if mpi.get("launcherCreationPolicy", "AtStartup") != "AtStartup":
        uses.append((("spec", "mpi", "launcherCreationPolicy"), "launcherCreationPolicy"))
    if mpi.get("implementation") in ("MPICH", "Intel"):
        uses.append((("spec", "mpi", "implementation"), f"mpiImplementation: {mpi['implementation']}"))
    if spec.get("framework", "mpi") != "mpi":
        return  # --operator-version is mpi-operator's; training-operator is v1.9.4
    if scheduling.get("gang") == "scheduler-plugins":
        uses.append((("spec", "scheduling", "gang"), "gang scheduling with scheduler-plugins"))
    if "suspend" in (spec.get("runPolicy") or {}):
        uses.append((("spec", "runPolicy", "suspend"), "runPolicy.suspend"))
    for path, feature in uses:
        if not version.has(feature):
            yield (path, "operator-version", Severity.ERROR,
                   f"{feature} needs mpi-operator {FEATURES[feature]} or later "
                   f"(--operator-version is {version})")


def _launcher(doc: dict, spec: dict, version: OperatorVersion) -> Iterator[Finding]:
    mpi = spec.get("mpi") or {}
    for path in (("mpi", "launcher"), ("roles", "launcher")):
        launcher = (spec.get(path[0]) or {}).get(path[1]) or {}
        gpu = (launcher.get("resources") or {}).get("gpu") if isinstance(launcher, dict) else None
        if gpu and not mpi.get("runLauncherAsWorker"):
            yield (("spec",) + path + ("resources", "gpu"), "launcher-gpu", Severity.WARNING,
                   "the launcher only runs mpirun: its GPUs stay idle unless mpi.runLauncherAsWorker is true")


def _volumes(doc: dict, spec: dict, version: OperatorVersion) -> Iterator[Finding]:
    for base, settings in role_places(spec):
        volumes = settings.get("volumes")
        seen_names: dict[str, int] = {}
        seen_paths: dict[str, int] = {}
        for i, volume in enumerate(volumes if isinstance(volumes, list) else []):
            if not isinstance(volume, dict):
                continue
            name = volume_name(volume)
            if name and name in seen_names:
                yield (base + ("volumes", i), "volume-name", Severity.ERROR,
                       f"volume name {name!r} is also the name of volumes[{seen_names[name]}]; give one a distinct "
                       "name")
            seen_names.setdefault(name, i)
            path = volume.get("mountPath")
            if path and path in seen_paths:
                yield (base + ("volumes", i, "mountPath"), "volume-mount-path", Severity.ERROR,
                       f"mount path {path!r} is also used by volumes[{seen_paths[path]}]")
            seen_paths.setdefault(path, i)


def _env(doc: dict, spec: dict, version: OperatorVersion) -> Iterator[Finding]:
    from ..credentials import looks_like_credential

    for base, settings in role_places(spec):
        env = settings.get("env")
        for name, value in (env if isinstance(env, dict) else {}).items():
            if looks_like_credential(name, value):
                secret = name.lower().replace("_", "-")
                yield (base + ("env", name), "plaintext-credential", Severity.ERROR,
                       f"{name} would be written in plain text into the manifests, the job and every pod: keep it "
                       f"in a Secret (kubectl create secret generic {secret} --from-literal=value=...) and write "
                       f"`{name}: {{secretKeyRef: {{name: {secret}, key: value}}}}`")
            if name in OPERATOR_ENV:
                yield (base + ("env", name), "env-reserved", Severity.WARNING,
                       f"the operator sets {name} itself; this value is overridden at run time")


def _priority_classes(spec: dict, priority_classes: dict[str, int] | None) -> Iterator[Finding]:
    if priority_classes is None:
        return
    places = [(("spec", "priorityClassName"), spec.get("priorityClassName")),
              (("spec", "mpi", "launcher", "priorityClassName"),
               ((spec.get("mpi") or {}).get("launcher") or {}).get("priorityClassName")),
              (("spec", "scheduling", "priorityClass"), (spec.get("scheduling") or {}).get("priorityClass"))]
    if (spec.get("scheduling") or {}).get("gang") == "kueue":
        places.pop()  # with Kueue it names a WorkloadPriorityClass, not a PriorityClass
    places += [(("spec", framework, role, "priorityClassName"), settings.get("priorityClassName"))
               for framework, role, settings in _roles(spec)]
    places += [(path + ("priorityClassName",), settings.get("priorityClassName"))
               for path, settings in role_places(spec)[1:]]
    for path, name in places:
        if isinstance(name, str) and name and name not in priority_classes:
            yield (path, "priority-class", Severity.WARNING,
                   f"PriorityClass {name!r} is not in the cluster file: the operator orders it as priority 0 "
                   "and the API server rejects pods that name a missing class")
