"""Stage 4, render: an expanded spec with ``spec.runtime`` -> a Kubeflow Trainer v2.3.0 TrainJob
(``trainer.kubeflow.org/v1alpha1``), and the TrainingRuntime beside it when the spec needs one.

What the TrainJob says itself (``pkg/apis/trainer/v1alpha1/trainjob_types.go`` at v2.3.0):

* ``runtimeRef``: ``spec.runtime`` (apiGroup and kind written out);
* ``trainer.image``, ``trainer.command``, ``trainer.args``, ``trainer.env``: the trainer job's image,
  command, args and env (Trainer's jobset plugin puts them on the ``node`` container of the trainer
  job: the torch nodes, the MPI launcher, and with ``runLauncherAsNode`` the MPI nodes' env too),
  each when the spec gives it (without ``image`` or ``command`` the runtime's run);
  ``initializer.<dataset|model>.env`` an initializer's (:mod:`.trainjob_pods`);
* ``trainer.numNodes``: the pods that run training. PyTorch: ``workers + 1`` (the spec counts the
  workers besides the Master; Trainer's node 0 is the Master). MPI: the ``node`` job gets
  ``numNodes`` pods, one less when the runtime's launcher is a node (``runLauncherAsNode``,
  ``MPI.EnforceMLPolicy``), so ``numNodes`` = ``workers + 1`` there and ``workers`` otherwise:
  the spec's workers are always the node job's pods, as they are an MPIJob's Worker pods;
* ``trainer.resourcesPerNode``: ``spec.resources`` as requests and limits, canonical quantities
  (left out when the jobs it reaches need other resources, or DRA claims), with the limits and
  requests the pod template patches set on those jobs' ``node`` containers, alike for all of them
  (requests unlike the limits: Trainer merges ``resourcesPerNode`` into the container as such a
  patch would, so no TrainingRuntime copy is needed for them);
* ``trainer.numProcPerNode``: ``spec.slotsPerWorker`` when given (else the runtime's, which the
  mpi plugin raises to the GPUs per node);
* ``suspend`` (false unless ``runPolicy.suspend``; not written with Kueue, which owns it) and
  ``activeDeadlineSeconds``; the metadata's labels and annotations, Kueue's labels.

What only a pod template can say goes through one ``runtimePatches`` entry (manager
``mpigen.dev/spec``), a pod template per replicated job (:func:`mpigen.render.trainjob_pods.patch_template`:
on every job that runs training, the pods' labels and annotations -- ``sidecar.istio.io/inject:
"false"``, as for every mpigen job --, volumes and their mounts on the ``node`` container,
``nodeSelector``, ``tolerations``, ``affinity``, the security contexts, ``imagePullSecrets``,
``serviceAccountName``); and the Volcano queue as the JobSet template's annotation
``scheduling.volcano.sh/queue-name``, where Trainer's volcano plugin reads it.

What neither can say -- a PodGroup policy the runtime lacks (a patch has no ``podGroupPolicy``),
the pods' ``schedulerName``, and what :mod:`.trainjob_pods` finds only a runtime's pod templates
can say (``priorityClassName``, code sync's and the spec's init containers and sidecars, the host
network, ports, probes, a role's own program or resources..., the pod template patches) -- makes
mpigen write a **TrainingRuntime named after the job** in its namespace: a copy of the named
runtime with those settings, which the TrainJob's ``runtimeRef`` then names (the info diagnostic
``runtime-copy`` says why, at each field). Scheduling, the decision:

* ``gang`` omitted: what the runtime gives (no copy for the gang);
* ``volcano`` / ``scheduler-plugins``: when the runtime has not that ``podGroupPolicy`` (or
  another coscheduling timeout than ``scheduleTimeoutSeconds``), or its pod templates do not name
  the scheduler (Trainer's plugins never set ``schedulerName``), the copy has the policy and every
  pod template ``schedulerName: volcano`` / the scheduler-plugins scheduler's name;
* ``none`` on a runtime with a ``podGroupPolicy``: the copy has none (the user asked for no gang);
* ``kueue``: the runtime as it is, the TrainJob labelled for Kueue.

A copy with a gang starts its replicated jobs together (:func:`unsequence`).
"""

from __future__ import annotations

import copy
from typing import Any

from ..diagnostics import Severity
from ..load.trainer_runtimes import GIVE_CLUSTER_RUNTIMES, Runtimes, default_runtimes, is_default
from ..names import TRAINER_API, TRAINING_RUNTIME_KIND, TRAINJOB_KIND
from ..spec.runtime_rules import launcher_is_node
from ..trainer.defaults import runtime_defaults
from ..trainer.info import upsert_env
from ..trainer.podgroup import VOLCANO_QUEUE_ANNOTATION, policy_kind_of
from ..trainer.runtimes import TRAINER_GROUP
from ..trainer.torch import TORCHTUNE_MODELS, model_of
from .gang import Finding
from .patching import patched_template
from .pods import GIT_SYNC_GROUP, container_mounts, env_var, job_metadata, pod_volumes, resources
from .trainjob_pods import RolePods, TrainerAPI, plan

MANAGER = "mpigen.dev/spec"
"""The ``manager`` of the runtime patch mpigen writes (a domain-prefixed path, as Trainer's webhook requires)."""
GANG = ("spec", "scheduling", "gang")


def runtime_lookup(spec: dict[str, Any], namespace: str | None, runtimes: Runtimes) -> dict[str, Any]:
    ref = spec["runtime"]
    found = runtimes.find(ref["kind"], ref["name"], namespace)
    if found is None:  # the check stage reports it first (runtime-not-found)
        raise ValueError(f"{ref['kind']} {ref['name']} is not among {runtimes.source}")
    return found


def _pod(rjob: dict[str, Any]) -> dict[str, Any]:
    return ((((rjob.get("template") or {}).get("spec") or {}).get("template") or {}).get("spec") or {})


def num_nodes(spec: dict[str, Any], runtime: dict[str, Any]) -> int:
    """``trainer.numNodes`` for the spec's workers (see the module's docstring)."""
    if spec["framework"] == "pytorch":
        return spec["workers"] + 1
    return spec["workers"] + 1 if launcher_is_node(runtime) else spec["workers"]


def _described(spec: dict[str, Any]) -> str:
    return f"{spec['runtime']['kind']} {spec['runtime']['name']!r}"


def gang_plan(spec: dict[str, Any], runtime: dict[str, Any]) -> tuple[bool, dict[str, Any] | None, str | None, str]:
    """Whether the runtime must be copied for the spec's gang: (copy?, the copy's podGroupPolicy
    (None: none), the pods' schedulerName (None: unchanged), why)."""
    scheduling = spec["scheduling"]
    gang = scheduling["gang"]
    stored = runtime_defaults(runtime)
    policy = (stored.get("spec") or {}).get("podGroupPolicy")
    current = policy_kind_of(policy)
    described = _described(spec)
    if not spec.get("gangGiven") or gang == "kueue":
        return False, policy, None, ""
    if gang == "none":
        if current is None:
            return False, None, None, ""
        return True, None, None, (f"{described} has a {current} podGroupPolicy and scheduling.gang is none: the "
                                  "TrainJob runs on a copy without one")
    want = "volcano" if gang == "volcano" else "coscheduling"
    scheduler = "volcano" if gang == "volcano" else scheduling["schedulerName"]
    timeout = scheduling.get("scheduleTimeoutSeconds")
    if want == "volcano":
        wanted = copy.deepcopy(policy) if current == "volcano" else {"volcano": {}}
    else:
        seconds = timeout if timeout is not None else (
            policy["coscheduling"]["scheduleTimeoutSeconds"] if current == "coscheduling" else 60)
        wanted = {"coscheduling": {"scheduleTimeoutSeconds": seconds}}
    unnamed = [rjob.get("name") for rjob in
               ((stored["spec"].get("template") or {}).get("spec") or {}).get("replicatedJobs") or []
               if _pod(rjob).get("schedulerName") != scheduler]
    reasons = []
    if current != want:
        reasons.append(f"{described} has {f'a {current}' if current else 'no'} podGroupPolicy and gang "
                       f"{gang} asks for a {want} podGroupPolicy")
    elif want == "coscheduling" and wanted != policy:
        reasons.append(f"{described}'s coscheduling waits {policy['coscheduling']['scheduleTimeoutSeconds']} s and "
                       f"scheduleTimeoutSeconds is {timeout}")
    if unnamed:
        reasons.append(f"its pods of {', '.join(str(n) for n in unnamed)} do not name the scheduler {scheduler} "
                       "(Trainer never sets schedulerName)")
    if not reasons:
        return False, policy, None, ""
    return True, wanted, scheduler, "; ".join(reasons)


def pod_reasons(spec: dict[str, Any], roles: list[RolePods]) -> list[tuple[tuple, str]]:
    """(spec field, what and why) for each setting of the pods that neither a TrainJob field nor a
    runtime patch can carry: only a runtime's pod templates can (:mod:`.trainjob_pods`), each said once."""
    out: list[tuple[tuple, str]] = []
    if spec.get("code"):
        out.append((("spec", "code"), "code sync's init container (a runtime patch's init container has no image) can "
                                      "only be said by a runtime's pod templates"))
    for pods in roles:
        out += [r for r in pods.reasons if r not in out]
    return out


def render_trainjob(metadata: dict[str, Any], spec: dict[str, Any], runtimes: Runtimes
                    ) -> tuple[list[dict[str, Any]], list[Finding]]:
    """The TrainingRuntime (when the spec needs one) and the TrainJob, in apply order."""
    runtime = runtime_lookup(spec, metadata.get("namespace"), runtimes)
    findings: list[Finding] = []
    ref = dict(spec["runtime"])
    if is_default(runtime):  # one of Trainer's defaults (the runtimes of the files checked may join them)
        findings.append((("spec", "runtime"), "default-runtime", Severity.INFO,
                         f"{_described(spec)} is taken as {default_runtimes().source} define it: "
                         f"{GIVE_CLUSTER_RUNTIMES}"))
    copy_gang, policy, scheduler, why = gang_plan(spec, runtime)
    api, roles = plan(metadata, spec, runtime)
    pod_needs = pod_reasons(spec, roles)
    objects: list[dict[str, Any]] = []
    name = copy_name(metadata["name"], ref["name"])
    if (copy_gang or pod_needs) and ref["kind"] == TRAINING_RUNTIME_KIND and ref["name"] == name:
        findings.append((("spec", "runtime"), "runtime-field", Severity.ERROR,
                         f"the TrainingRuntime mpigen writes beside the TrainJob is named after the job, {name!r}, as "
                         "the runtime it would copy: applying it would replace that runtime; rename the job or the "
                         "runtime"))
    elif copy_gang or pod_needs:
        copied_runtime, dropped, found = runtime_copy(name, metadata, spec, runtime, policy, scheduler, roles)
        findings += found
        objects.append(copied_runtime)
        copied = (f"mpigen writes the TrainingRuntime {name!r} beside the TrainJob, a copy of {_described(spec)} "
                  "that the TrainJob names")
        if copy_gang:
            findings.append((GANG, "runtime-copy", Severity.INFO,
                             f"{copied}: only a runtime says the podGroupPolicy, and {why}"))
        if dropped:
            findings.append((GANG, "runtime-copy", Severity.INFO,
                             f"the TrainingRuntime {name!r} leaves out {' and '.join(dropped)}: the gang's "
                             "PodGroup counts every pod and no pod is bound before all exist, so the replicated "
                             "jobs start together (as an MPIJob's launcher does under a gang); a launcher is "
                             "restarted until the nodes' SSH servers answer"))
        for where, what in pod_needs:
            findings.append((where, "runtime-copy", Severity.INFO, f"{copied}: {what}"))
        ref = {"kind": TRAINING_RUNTIME_KIND, "name": name}
    objects.append(trainjob(metadata, spec, runtime, ref, api, roles))
    return objects, findings


def copy_name(job: str, runtime: str) -> str:
    """The name of the TrainingRuntime copy: the job's, but for a torchtune runtime's copy.

    Trainer reads a torchtune job's model from the name of the runtime it names
    (``getModelFromRuntimeRef`` in ``torch/torchtune.go``: the second and third of exactly three
    ``-``-separated fields, ``torchtune-llama3.2-1b`` -> ``llama3_2/1B``), and its webhook refuses
    a TrainJob whose runtime name gives no supported model. A copy of such a runtime keeps those
    two fields after the job's name, whose ``-`` become ``.`` (a TrainJob's name is an RFC 1035
    label, so no other job's copy gets the same name): ``llama-ft`` -> ``llama.ft-llama3.2-1b``.
    """
    fields = runtime.split("-")
    if model_of(runtime) in TORCHTUNE_MODELS:
        return f"{job.replace('-', '.')}-{fields[1]}-{fields[2]}"
    return job


def trainjob(metadata: dict[str, Any], spec: dict[str, Any], runtime: dict[str, Any], ref: dict[str, str],
             api: TrainerAPI, roles: list[RolePods]) -> dict[str, Any]:
    trainer: dict[str, Any] = {}
    if api.image:
        trainer["image"] = api.image
    if api.command is not None:
        trainer["command"] = list(api.command)
    if api.args:
        trainer["args"] = list(api.args)
    if api.env:
        trainer["env"] = [env_var(k, v) for k, v in api.env.items()]
    trainer["numNodes"] = num_nodes(spec, runtime)
    if spec.get("slotsPerWorker") is not None:
        trainer["numProcPerNode"] = spec["slotsPerWorker"]
    per_node = resources(spec, api.resources) if api.resources is not None else None
    for part, values in api.patched.items():  # the pod template patches' own, over the spec's resources
        per_node[part] = dict(sorted({**per_node.get(part, {}), **values}.items()))
    if per_node:
        trainer["resourcesPerNode"] = per_node
    job_spec: dict[str, Any] = {"runtimeRef": {"apiGroup": TRAINER_GROUP, "kind": ref["kind"], "name": ref["name"]}}
    if api.initializer:
        job_spec["initializer"] = {key: {"env": [env_var(k, v) for k, v in env.items()]}
                                   for key, env in sorted(api.initializer.items())}
    job_spec["trainer"] = trainer
    template = _patch_template(spec, runtime, roles)
    if template:
        job_spec["runtimePatches"] = [{"manager": MANAGER, "trainingRuntimeSpec": {"template": template}}]
    run_policy = spec["runPolicy"]
    if "suspend" in run_policy:
        job_spec["suspend"] = run_policy["suspend"]
    if "activeDeadlineSeconds" in run_policy:
        job_spec["activeDeadlineSeconds"] = run_policy["activeDeadlineSeconds"]
    return {"apiVersion": TRAINER_API, "kind": TRAINJOB_KIND, "metadata": job_metadata(metadata), "spec": job_spec}


def _patch_template(spec: dict[str, Any], runtime: dict[str, Any], roles: list[RolePods]) -> dict[str, Any]:
    """The runtime patch's ``template``: the JobSet's queue annotation, each replicated job's pods
    (:func:`mpigen.render.trainjob_pods.patch_template`)."""
    template: dict[str, Any] = {}
    scheduling = spec["scheduling"]
    if scheduling.get("queue") and scheduling["gang"] in ("volcano", "none") and _volcano(spec, runtime):
        template["metadata"] = {"annotations": {VOLCANO_QUEUE_ANNOTATION: scheduling["queue"]}}
    jobs = [{"name": pods.role.name, "template": {"spec": {"template": copy.deepcopy(pods.patch)}}}
            for pods in roles if pods.patch]
    if jobs:
        template["spec"] = {"replicatedJobs": jobs}
    return template


def _volcano(spec: dict[str, Any], runtime: dict[str, Any]) -> bool:
    """Whether the TrainJob's PodGroup is Volcano's (the spec asks for it, or the runtime gives it)."""
    if spec["scheduling"]["gang"] == "volcano":
        return True
    return not spec.get("gangGiven") and policy_kind_of((runtime.get("spec") or {}).get("podGroupPolicy")) == "volcano"


def unsequence(runtime_spec: dict[str, Any]) -> list[str]:
    """Drop what makes JobSet wait for a replicated job to be Ready before creating the next --
    a ``dependsOn`` of status ``Ready`` and ``startupPolicy`` ``InOrder`` -- from a runtime that
    gets a gang; what was dropped, as text.

    A gang's PodGroup counts the pods of every replicated job, and the gang scheduler binds none
    until all exist: a launcher created only once the nodes are Ready (Trainer's
    ``deepspeed-distributed`` and ``mlx-distributed``) is never created (the lint rule
    ``trainer-depends-on-gang-deadlock``, seen on the local cluster). Without it the launcher
    starts beside the nodes, as an MPIJob's launcher does under a gang (``launcherCreationPolicy:
    AtStartup``), and its container is restarted until the nodes' SSH servers answer (JobSet
    v0.12.0 defaults a pod template's ``restartPolicy`` to ``OnFailure``, ``pkg/webhooks/
    jobset_webhook.go``). A dependency on a job being ``Complete`` (the nodes after the dataset and
    model initializers) is kept: the training needs what they fetch, so that runtime cannot be
    gang-scheduled, and the lint rule says so."""
    template = (runtime_spec.get("template") or {}).get("spec") or {}
    dropped = []
    for rjob in template.get("replicatedJobs") or []:
        depends = rjob.get("dependsOn")
        if not isinstance(depends, list):
            continue
        ready = [d for d in depends if isinstance(d, dict) and d.get("status") == "Ready"]
        if not ready:
            continue
        kept = [d for d in depends if d not in ready]
        if kept:
            rjob["dependsOn"] = kept
        else:
            del rjob["dependsOn"]
        dropped.append(f"{rjob.get('name')}'s dependsOn ({', '.join(str(d.get('name')) + ' Ready' for d in ready)})")
    startup = template.get("startupPolicy")
    if isinstance(startup, dict) and startup.get("startupPolicyOrder") == "InOrder":
        del template["startupPolicy"]
        dropped.append("startupPolicy InOrder")
    return dropped


def runtime_copy(name: str, metadata: dict[str, Any], spec: dict[str, Any], runtime: dict[str, Any],
                 policy: dict[str, Any] | None, scheduler: str | None, roles: list[RolePods]
                 ) -> tuple[dict[str, Any], list[str], list[Finding]]:
    """The TrainingRuntime ``name`` (:func:`copy_name`): ``runtime`` with the podGroupPolicy, the
    pods' schedulerName and what only a runtime's pod templates can say (:mod:`.trainjob_pods`),
    then each replicated job's pod template patches; what a gang made it leave out
    (:func:`unsequence`), as text; and what applying the patches found, at their place in the spec."""
    source = copy.deepcopy(runtime)
    meta: dict[str, Any] = {"name": name}
    if metadata.get("namespace"):
        meta["namespace"] = metadata["namespace"]
    labels = (source.get("metadata") or {}).get("labels")
    if labels:
        meta["labels"] = dict(labels)
    runtime_spec: dict[str, Any] = {}
    for key, value in (source.get("spec") or {}).items():  # the policy where the runtime has it, else after mlPolicy
        if key == "podGroupPolicy":
            continue
        if key == "template" and policy is not None:
            runtime_spec["podGroupPolicy"] = policy
        runtime_spec[key] = value
    dropped = []
    if policy is not None:
        runtime_spec.setdefault("podGroupPolicy", policy)
        dropped = unsequence(runtime_spec)
    by_name = {pods.role.name: pods for pods in roles}
    findings: list[Finding] = []
    for rjob in ((runtime_spec.get("template") or {}).get("spec") or {}).get("replicatedJobs") or []:
        pod = rjob.setdefault("template", {}).setdefault("spec", {}).setdefault("template", {}).setdefault("spec", {})
        if scheduler:
            pod["schedulerName"] = scheduler
        pods = by_name.get(rjob.get("name"))
        if pods is not None:
            findings += _copied_pods(rjob["template"]["spec"], spec, pods)
    return ({"apiVersion": TRAINER_API, "kind": TRAINING_RUNTIME_KIND, "metadata": meta, "spec": runtime_spec},
            dropped, findings)


def _copied_pods(job: dict[str, Any], spec: dict[str, Any], pods: RolePods) -> list[Finding]:
    """One replicated job's pod template in the copy (``job``: its Job template's spec): what the
    copy says of the role's pods (:class:`~mpigen.render.trainjob_pods.RolePods`), code sync's
    container, volume and mount on a job that trains, then the runtime patch's part the pod
    template patches also set, then those patches."""
    pod = job["template"]["spec"]
    pod.update(copy.deepcopy(pods.pod))
    code = spec.get("code") if pods.role.trains else None
    code_spec = dict(spec, volumes=[], shmSize=None)  # the code's volumes only
    for container in pod.get("containers") or []:
        if container.get("name") != pods.role.main:
            continue
        runtime_ports = container.get("ports") or []
        container.update(copy.deepcopy(pods.container))
        if pods.env:
            env = list(container.get("env") or [])
            upsert_env(env, *copy.deepcopy(pods.env))
            container["env"] = env
        if pods.resources:
            container["resources"] = _merged_resources(container.get("resources") or {}, pods.resources)
        if "ports" in pods.container:  # the runtime's, then the spec's: merged by containerPort
            container["ports"] = _by_key([p for p in runtime_ports if isinstance(p, dict)],
                                         pods.container["ports"], "containerPort")
        if code:
            container["volumeMounts"] = list(container.get("volumeMounts") or []) + container_mounts(code_spec)
    if pods.init:
        pod["initContainers"] = list(pod.get("initContainers") or []) + copy.deepcopy(pods.init)
    if code:
        pod["volumes"] = list(pod.get("volumes") or []) + pod_volumes(code_spec)
        if (code.get("git") or {}).get("secret"):
            # git-sync (user 65533) reads the Secret's files through the pod's fsGroup, which
            # every container gets as a supplementary group: a runtime's own fsGroup (the MPI
            # runtimes' 1000, mpiuser's, which their SSH keys need) stays; 65533 when none.
            context = dict(pod.get("securityContext") or {})
            context.setdefault("fsGroup", GIT_SYNC_GROUP)
            context.setdefault("fsGroupChangePolicy", "OnRootMismatch")
            pod["securityContext"] = context
    if not pods.moved and not pods.patches:
        return []
    from ..patch import apply_pod_template_patch

    template = job["template"]
    if pods.moved:
        template, _ = apply_pod_template_patch(template, pods.moved)
    template, findings = patched_template(template, pods.settings)
    job["template"] = template
    return findings


def _merged_resources(current: dict[str, Any], wanted: dict[str, Any]) -> dict[str, Any]:
    """A container's resources with ``wanted`` over them: limits and requests per resource name
    (as Trainer merges ``resourcesPerNode``), the claims by name."""
    out = dict(current)
    for part in ("limits", "requests"):
        if wanted.get(part):
            out[part] = {**(current.get(part) or {}), **wanted[part]}
    if wanted.get("claims"):
        out["claims"] = _by_key([c for c in current.get("claims") or [] if isinstance(c, dict)], wanted["claims"],
                                "name")
    return out


def _by_key(items: list[dict[str, Any]], wanted: list[dict[str, Any]], key: str) -> list[dict[str, Any]]:
    """``items`` with each of ``wanted`` in place of the item of the same ``key``, else after them."""
    out = list(items)
    for item in copy.deepcopy(wanted):
        at = next((i for i, old in enumerate(out) if old.get(key) == item.get(key)), None)
        if at is None:
            out.append(item)
        else:
            out[at] = item
    return out
