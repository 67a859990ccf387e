"""``mpigen import manifest``: an MPIJob, PyTorchJob or TFJob manifest -> the shortest spec that
builds back to the same job (the inverse of render); a TrainJob: :mod:`.manifest_trainjob`.

The job is read as the operator reads it (defaulted by its own rules, :mod:`mpigen.operator`),
then said in the spec's terms, high-level first:

* the job: its name, namespace, labels and annotations; the workers (and a TFJob's chief, parameter
  servers and evaluator); an MPIJob's slots, SSH path, implementation and launcher settings; a
  PyTorchJob's or TFJob's port and restart policy; ``runPolicy`` where it is not mpigen's default
  (an explicit ``cleanPodPolicy: None``, since mpigen's own default is ``Running``);
* the gang (:mod:`.manifest_gang`): the scheduler the pod templates name (or ``--gang``), and each
  ``schedulingPolicy`` value only where the PodGroup would be another without it; Kueue's labels
  as ``gang: kueue``; kube-batch's PodGroup beside the job as ``gang: kube-batch``;
* each role's pods (:mod:`.manifest_pods`, mpigen's own ``shmSize`` and ``code``:
  :mod:`.manifest_features`): the fields of the spec that say them exactly, job-wide where every
  role has the same value and per role (``roles.<role>``) where they differ (:mod:`.manifest_roles`);
* what is left of each pod template: ``podTemplatePatch``, the strategic merge patch of the
  template mpigen generates from those fields into the manifest's (:func:`mpigen.patch.diff.create_patch`),
  job-wide when every role needs the same one.

What cannot be carried is a finding at its path in the manifest, never dropped in silence:
``import-lost`` (an error: the spec has no way to say it, so the job built would be another) and
``import-dropped`` (a warning: not imported, and nothing changes for it: the operator overwrites
it, the API server sets it, a status). Pure: the job in, ``(spec, findings)`` out; whether the
spec builds back to the same job is :mod:`.roundtrip`'s to check.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from ..expand.defaults import DEFAULT_SSH_PATH, PYTORCH_PORT, TENSORFLOW_PORT
from ..expand.roles import roles_of
from ..names import SPEC_API_VERSION, SPEC_KIND, TRAINJOB_KIND
from ..versions import DEFAULT_OPERATOR_VERSION, OperatorVersion
from .manifest_features import features
from .manifest_gang import KUEUE_QUEUE, kube_batch, kube_batch_group, scheduler_name_of, scheduling
from .manifest_pods import Finding, dropped, lost, main_index, program, role_fields, target_template
from .manifest_roles import factor, generated_templates, patches

KINDS = {
    "MPIJob": ("mpi", "mpiReplicaSpecs", (("Launcher", "launcher"), ("Worker", "worker"))),
    "PyTorchJob": ("pytorch", "pytorchReplicaSpecs", (("Master", "master"), ("Worker", "worker"))),
    "TFJob": ("tensorflow", "tfReplicaSpecs",
              (("Chief", "chief"), ("PS", "ps"), ("Worker", "worker"), ("Evaluator", "evaluator"))),
}
"""kind -> (framework, replica specs key, (replica type, role) in the job's order)."""
PORTS = {"pytorch": ("pytorchjob-port", PYTORCH_PORT), "tensorflow": ("tfjob-port", TENSORFLOW_PORT)}
RESTART_POLICY = {"pytorch": "OnFailure", "tensorflow": "Never"}
SERVER_FIELDS = ("uid", "resourceVersion", "generation", "creationTimestamp", "deletionTimestamp",
                 "deletionGracePeriodSeconds", "managedFields", "selfLink")
LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration"
RUN_POLICY_KEYS = ("ttlSecondsAfterFinished", "activeDeadlineSeconds", "backoffLimit")
UNSAID = {
    "elasticPolicy": "elastic training (a PyTorchJob whose workers come and go): mpigen's has a fixed number of "
                     "workers",
    "enableDynamicWorker": "TensorFlow's dynamic workers: mpigen's TFJob has a fixed cluster",
    "managedBy": "another controller manages the job (MultiKueue): a spec's job is the operator's",
}
"""What a spec has no field for, of the fields it meets most, and why."""


@dataclass(frozen=True)
class ImportOptions:
    """How the job's operator runs: its ``--gang-scheduling`` (None: what the pod templates show;
    ``"none"``: none), its scheduler-plugins scheduler name (None: the one the pod templates name,
    else scheduler-plugins-scheduler), the mpi-operator release, the cluster's PriorityClasses
    (None: every class counts 0)."""

    gang: str | None = None
    scheduler_name: str | None = None
    operator_version: OperatorVersion = DEFAULT_OPERATOR_VERSION
    priority_classes: dict[str, int] | None = None
    beside: tuple[dict[str, Any], ...] = ()
    """The other objects of the file: kube-batch's PodGroup of the job (which mpigen writes beside
    it) makes it a spec's ``gang: kube-batch``; a TrainJob's TrainingRuntime copy
    (:mod:`.manifest_trainjob`)."""
    runtimes: Any = None
    """The training runtimes a TrainJob may name, as validate finds them (a
    :class:`~mpigen.load.trainer_runtimes.Runtimes`: the cluster file's, else Trainer's default
    runtimes, with those of the file and of the files beside it); None: Trainer's default runtimes."""


@dataclass
class Role:
    """One replica type of the manifest, as the spec must generate it."""

    name: str  # the spec's role: launcher, worker, master, chief, ps, evaluator
    rtype: str  # the replica type: Launcher, Worker...
    path: tuple  # the template's path in the manifest
    template: dict  # what mpigen must generate (manifest_pods.target_template)
    main: int  # the training container's index
    fields: dict[str, Any] = field(default_factory=dict)  # the spec fields that say it


@dataclass
class Imported:
    spec: dict[str, Any]
    findings: list[Finding]
    """What could not be carried, at its path in the job."""
    gang: str | None
    """The operator's gang scheduler the job was read with (None: none)."""
    options: ImportOptions
    """The options it was read with, the scheduler-plugins scheduler's name found."""
    consumed: list[dict[str, Any]] = field(default_factory=list)
    """The objects of ``options.beside`` the spec says too (kube-batch's PodGroup)."""


def import_job(job: dict[str, Any], options: ImportOptions = ImportOptions()) -> Imported:
    """The spec of one MPIJob (kubeflow.org/v2beta1), PyTorchJob or TFJob (kubeflow.org/v1), or
    TrainJob (trainer.kubeflow.org/v1alpha1: :mod:`.manifest_trainjob`), as the API server stores
    it (nulls dropped), and what could not be carried."""
    from ..lint.base import Context, LintOptions

    kind = job["kind"]
    if kind == TRAINJOB_KIND:
        from .manifest_trainjob import import_trainjob

        return import_trainjob(job, options)
    framework, key, types = KINDS[kind]
    defaulted_job = defaulted(job, options.operator_version)
    findings: list[Finding] = []
    metadata = _metadata(job, findings)
    if "status" in job:
        findings.append(dropped(("status",), "the status is not imported: the operator writes it"))
    gang = options.gang if options.gang is not None else (Context(job, LintOptions()).gang or "none")
    gang = None if gang == "none" else gang
    spec: dict[str, Any] = {"framework": framework}
    replicas = defaulted_job["spec"].get(key) or {}
    if gang == "scheduler-plugins" and options.scheduler_name is None:
        options = replace(options, scheduler_name=scheduler_name_of(replicas))
    scheduler_name = options.scheduler_name
    group = kube_batch_group(job, replicas, options.beside) if gang is None else None
    roles: list[Role] = []
    for rtype, role in types:
        if rtype not in replicas:
            continue
        where = ("spec", key, rtype, "template")
        template, found = target_template(replicas[rtype].get("template") or {}, where, kind=kind, role=rtype.lower(),
                                          job_name=metadata["name"], gang=gang or ("kube-batch" if group else None),
                                          scheduler_name=scheduler_name)
        findings += found
        roles.append(Role(role, rtype, where, template, main_index(template, kind)))
    for rtype in replicas:
        if rtype not in dict(types):
            findings.append(lost(("spec", key, rtype), f"a {kind}'s replica type {rtype}: mpigen writes "
                                 f"{', '.join(t for t, _ in types)}"))
    spec.update(_job_fields(kind, defaulted_job, replicas, options.operator_version, findings))
    spec["scheduling"] = scheduling(job, defaulted_job, gang, metadata, options, findings)
    if group is not None:
        spec["scheduling"] = kube_batch(group, replicas)
    found_features, reduced, own_volumes = features({r.name: r.template for r in roles}, {r.name: r.main for r in roles})
    spec.update(found_features)
    for role in roles:
        role.fields = role_fields(reduced[role.name], role.main, job_labels=metadata.get("labels") or {},
                                  own_volumes=own_volumes)
    if kind == "MPIJob":
        mpigen_line = _mpi_programs(spec, defaulted_job, roles)
    else:
        mpigen_line = _training_programs(spec, framework, roles)
    spec.update(factor(spec, framework, roles))
    generate = dict(spec)
    if kind == "MPIJob":
        generate["slotsPerWorker"] = defaulted_job["spec"]["slotsPerWorker"]
        slots = generate["slotsPerWorker"]
        if spec.get("slotsPerWorker") is None and slots != _default_slots(roles):
            spec["slotsPerWorker"] = slots
    generated = generated_templates(metadata, _clean(generate), options.operator_version)
    if mpigen_line:  # mpigen's own mpirun line: the build writes it again, from the patched pods
        launcher = next(r for r in roles if r.name == "launcher")
        launcher.template["spec"]["containers"][0]["command"] = generated["launcher"]["spec"]["containers"][0].get(
            "command")
    found, job_patch, role_patches = patches(roles, generated, roles_of(spec))
    findings += found
    if job_patch:
        spec["podTemplatePatch"] = job_patch
    for name, patch in role_patches.items():
        spec.setdefault("roles", {}).setdefault(name, {})["podTemplatePatch"] = patch
    return Imported({"apiVersion": SPEC_API_VERSION, "kind": SPEC_KIND, "metadata": metadata, "spec": _clean(spec)},
                    findings, gang, options, [group] if group is not None else [])


def defaulted(job: dict[str, Any], version: OperatorVersion) -> dict[str, Any]:
    """``job`` as its operator defaults it (mpi-operator at ``version``, training-operator v1.9.4)."""
    if job["kind"] == "MPIJob":
        from ..operator.mpi_defaults import set_defaults

        return set_defaults(job, version)
    from ..operator.training_defaults import set_defaults as training_defaults

    return training_defaults(job)


def _clean(spec: dict[str, Any]) -> dict[str, Any]:
    """The spec without its empty blocks, in reading order: what the job runs, the pods' fields,
    the framework's settings, the gang and run policy, then the patch and the roles' own."""
    from ..expand.roles import POD_FIELDS

    head = ("framework", "image", "containerName", "command", "args", "workers", "resources", "slotsPerWorker")
    tail = ("shmSize", "code", "tensorboard", "restartPolicy", "mpi", "pytorch", "tensorflow", "scheduling",
            "runPolicy", "podTemplatePatch", "roles")
    order = [*head, *(f for f in POD_FIELDS if f not in head and f != "podTemplatePatch"), *tail]
    out = {k: spec[k] for k in order if k in spec and spec[k] != {}}
    out.update((k, v) for k, v in spec.items() if k not in order)
    if "roles" in out:
        roles = {name: {k: settings[k] for k in POD_FIELDS if k in settings} for name, settings in out["roles"].items()}
        out["roles"] = {name: settings for name, settings in roles.items() if settings}
        if not out["roles"]:
            del out["roles"]
    return out


# ------------------------------------------------------------------------------- the job


def _metadata(job: dict[str, Any], findings: list[Finding]) -> dict[str, Any]:
    meta = job.get("metadata") or {}
    out: dict[str, Any] = {"name": meta.get("name", "")}
    if meta.get("namespace"):
        out["namespace"] = meta["namespace"]
    if meta.get("labels"):
        out["labels"] = dict(meta["labels"])
    annotations = dict(meta.get("annotations") or {})
    if LAST_APPLIED in annotations:
        findings.append(dropped(("metadata", "annotations", LAST_APPLIED), "kubectl's record of the last "
                                "applied manifest is not imported: kubectl apply writes it again"))
        del annotations[LAST_APPLIED]
    if annotations:
        out["annotations"] = annotations
    for key in meta:
        if key in SERVER_FIELDS:
            findings.append(dropped(("metadata", key), f"metadata.{key} is not imported: the API server sets it"))
        elif key not in ("name", "namespace", "labels", "annotations"):
            findings.append(lost(("metadata", key), f"metadata.{key}: a spec's job has a name, a namespace, "
                                 "labels and annotations only"))
    return out


def _job_fields(kind: str, job: dict[str, Any], replicas: dict[str, Any], version: OperatorVersion,
                findings: list[Finding]) -> dict[str, Any]:
    """The spec's job-level fields of a defaulted job (workers, the framework's block, runPolicy)."""
    spec = job["spec"]
    out: dict[str, Any] = {"workers": (replicas.get("Worker") or {}).get("replicas", 0)}
    out["runPolicy"] = _run_policy(spec.get("runPolicy") or {}, (job.get("metadata") or {}).get("labels") or {},
                                   findings)
    if kind == "MPIJob":
        out["mpi"] = _mpi_block(spec, replicas, version, findings)
    else:
        out.update(_training_blocks(kind, spec, replicas, findings))
    return out


def _run_policy(policy: dict[str, Any], labels: dict[str, Any], findings: list[Finding]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if policy.get("cleanPodPolicy", "None") != "Running":
        out["cleanPodPolicy"] = policy.get("cleanPodPolicy", "None")
    for key in RUN_POLICY_KEYS:
        if key in policy:
            out[key] = policy[key]
    if policy.get("suspend") and KUEUE_QUEUE not in labels:  # Kueue owns it (scheduling() says so)
        out["suspend"] = True
    for key in policy:
        if key not in ("cleanPodPolicy", "suspend", "schedulingPolicy", *RUN_POLICY_KEYS):
            what = UNSAID.get(key, "the spec's runPolicy has cleanPodPolicy, ttlSecondsAfterFinished, "
                                   "activeDeadlineSeconds, backoffLimit and suspend")
            if not (key == "managedBy" and policy[key] in ("kubeflow.org/mpi-operator", "kubeflow.org/training-operator")):
                findings.append(lost(("spec", "runPolicy", key), f"runPolicy.{key}: {what}"))
    return out


def _mpi_block(spec: dict[str, Any], replicas: dict[str, Any], version: OperatorVersion,
               findings: list[Finding]) -> dict[str, Any]:
    mpi: dict[str, Any] = {}
    if spec.get("mpiImplementation", "OpenMPI") != "OpenMPI":
        mpi["implementation"] = spec["mpiImplementation"]
    if spec.get("sshAuthMountPath", DEFAULT_SSH_PATH) != DEFAULT_SSH_PATH:
        mpi["sshAuthMountPath"] = spec["sshAuthMountPath"]
    for key in ("launcherCreationPolicy", "runLauncherAsWorker"):
        if key in spec and not version.has(key):
            findings.append(dropped(("spec", key), f"{key} is not imported: mpi-operator {version} has no such field "
                                    "(its CRD prunes it)"))
    if spec.get("launcherCreationPolicy", "AtStartup") != "AtStartup" and version.has("launcherCreationPolicy"):
        mpi["launcherCreationPolicy"] = spec["launcherCreationPolicy"]
    if spec.get("runLauncherAsWorker") and version.has("runLauncherAsWorker"):
        mpi["runLauncherAsWorker"] = True
    for rtype, policy in (("Launcher", "OnFailure"), ("Worker", "Never")):
        replica = replicas.get(rtype) or {}
        if rtype in replicas and replica.get("restartPolicy") != policy:
            findings.append(lost(("spec", "mpiReplicaSpecs", rtype, "restartPolicy"), f"the {rtype.lower()}'s "
                                 f"restartPolicy {replica.get('restartPolicy')}: mpigen's MPIJob restarts its launcher "
                                 "OnFailure and its workers Never (runPolicy.backoffLimit sets the launcher's retries)"))
    if "Launcher" not in replicas:
        findings.append(lost(("spec", "mpiReplicaSpecs"), "an MPIJob without a Launcher: mpigen's has one"))
    for key in spec:
        if key not in ("slotsPerWorker", "runPolicy", "mpiReplicaSpecs", "mpiImplementation", "sshAuthMountPath",
                       "launcherCreationPolicy", "runLauncherAsWorker"):
            findings.append(lost(("spec", key), f"spec.{key}: {UNSAID.get(key, 'not a field of mpigen MPIJobs')}"))
    return mpi


def _training_blocks(kind: str, spec: dict[str, Any], replicas: dict[str, Any], findings: list[Finding]
                     ) -> dict[str, Any]:
    framework, key, _ = KINDS[kind]
    out: dict[str, Any] = {framework: {}}
    block = out[framework]
    policies = {rtype: r.get("restartPolicy") for rtype, r in replicas.items()}
    if len(set(policies.values())) > 1:
        for rtype in list(policies)[1:]:
            if policies[rtype] != next(iter(policies.values())):
                findings.append(lost(("spec", key, rtype, "restartPolicy"), "replica types with restart policies "
                                     "of their own: a spec's restartPolicy is every replica type's"))
    elif policies and next(iter(policies.values())) != RESTART_POLICY[framework]:
        out["restartPolicy"] = next(iter(policies.values()))
    singles = ("Master",) if kind == "PyTorchJob" else ("Chief", "Evaluator")
    for rtype in singles:
        if rtype in replicas and replicas[rtype].get("replicas") != 1:
            findings.append(lost(("spec", key, rtype, "replicas"), f"{replicas[rtype].get('replicas')} "
                                 f"{rtype} replicas: mpigen's {kind} has one {rtype}"))
    if kind == "PyTorchJob":
        if "Master" not in replicas:
            findings.append(lost(("spec", key), "a PyTorchJob without a Master: mpigen's PyTorchJob always has one"))
        nproc = spec.get("nprocPerNode", "auto")
        if isinstance(nproc, str) and nproc.isdigit() and int(nproc) > 0:
            out["slotsPerWorker"] = int(nproc)  # torchrun's processes per node
        elif nproc != "auto":
            findings.append(lost(("spec", "nprocPerNode"), f"nprocPerNode {nproc!r}: a spec's PyTorchJob runs "
                                 "a number of processes per node (slotsPerWorker) or auto"))
        known = ("runPolicy", key, "nprocPerNode")
    else:
        for rtype, role in (("Chief", "chief"), ("Evaluator", "evaluator")):
            if rtype in replicas:
                block[role] = {}
        if "PS" in replicas:
            block["ps"] = {"replicas": replicas["PS"].get("replicas", 1)}
        if spec.get("successPolicy", "") != "":
            findings.append(lost(("spec", "successPolicy"), f"successPolicy {spec['successPolicy']!r}: mpigen's "
                                 "TFJob uses the operator's default"))
        known = ("runPolicy", key, "successPolicy")
    for name in spec:
        if name not in known:
            findings.append(lost(("spec", name), f"spec.{name}: {UNSAID.get(name, f'not a field of mpigen {kind}s')}"))
    return out


def _default_slots(roles: list[Role]) -> int:
    """mpigen's slots per worker without slotsPerWorker: the worker's GPUs, else 1."""
    from ..render.patching import main_gpus

    worker = next((r for r in roles if r.name == "worker"), None)
    return (main_gpus(worker.template, "nvidia.com/gpu") if worker else 0) or 1


# ------------------------------------------------------------------------------ programs


def _mpi_programs(spec: dict[str, Any], job: dict[str, Any], roles: list[Role]) -> bool:
    """The launcher's command as a spec says it: mpigen's own mpirun line around a program, a
    command that starts MPI itself, or (``mpi.mpirun: false``) any other command as written; a
    worker's command when it is not the sshd mpigen would run. Whether the launcher's is mpigen's
    own mpirun line."""
    from ..render.mpijob import mpirun_command, sshd_command, user_starts_mpi

    mpi = spec["mpi"]
    view = {"workers": spec["workers"], "mpi": {"implementation": mpi.get("implementation", "OpenMPI"),
                                                "sshAuthMountPath": mpi.get("sshAuthMountPath", DEFAULT_SSH_PATH),
                                                "runLauncherAsWorker": bool(mpi.get("runLauncherAsWorker")),
                                                "extraArgs": []}}
    mpigen_line = False
    for role in roles:
        container = role.template["spec"]["containers"][role.main]
        command, args = program(container)
        if role.name == "worker":
            role.fields["command"] = command or []
            if command == sshd_command(view) and not args:
                del role.fields["command"]
        elif not command:
            role.fields["command"] = []
        else:
            env = [e.get("name") for e in container.get("env") or [] if isinstance(e, dict)]
            prefix = mpirun_command(dict(view, command=["-"]), job["spec"]["slotsPerWorker"], env)[:-1]
            rest = command[len(prefix):]
            if command[:len(prefix)] == prefix and rest and not user_starts_mpi(rest):
                role.fields["command"] = rest  # the program under mpigen's own mpirun line
                mpigen_line = True
            else:
                role.fields["command"] = command
                if not user_starts_mpi(command):
                    mpi["mpirun"] = False
        if args:
            role.fields["args"] = args
        if container.get("ports"):
            role.fields["ports"] = list(container["ports"])
    return mpigen_line


def _training_programs(spec: dict[str, Any], framework: str, roles: list[Role]) -> bool:
    """Every pod's command and args; the framework's port (the one training-operator defaults or
    was given) and the other ports of each role."""
    name, default = PORTS[framework]
    port = None
    for role in roles:
        container = role.template["spec"]["containers"][role.main]
        command, args = program(container)
        role.fields["command"] = command or []
        if args:
            role.fields["args"] = args
        ports = list(container.get("ports") or [])
        own = [p for p in ports if isinstance(p, dict) and p.get("name") == name and set(p) == {"name", "containerPort"}]
        if own:
            port = port if port is not None else own[0]["containerPort"]
            if own[0]["containerPort"] == port:
                ports.remove(own[0])
        if ports:
            role.fields["ports"] = ports
        role.fields.pop("name", None)
    if port is not None and port != default:
        spec[framework]["port"] = port
    return False
