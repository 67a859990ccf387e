"""Stage 4, render: an expanded spec with ``spec.runtime`` -> a Kubeflow Trainer v2.3.0 TrainJob
(``trainer.kubeflow.org/v1alpha1``), and the TrainingRuntime beside it when the spec needs one.

What the TrainJob says itself (``pkg/apis/trainer/v1alpha1/trainjob_types.go`` at v2.3.0):

* ``runtimeRef``: ``spec.runtime`` (apiGroup and kind written out);
* ``trainer.image``, ``trainer.command``, ``trainer.env``: the spec's image, command and env
  (Trainer's jobset plugin puts them on the ``node`` container of the trainer job: the torch nodes,
  the MPI launcher, and with ``runLauncherAsNode`` the MPI nodes' env too);
* ``trainer.numNodes``: the pods that run training. PyTorch: ``workers + 1`` (the spec counts the
  workers besides the Master; Trainer's node 0 is the Master). MPI: the ``node`` job gets
  ``numNodes`` pods, one less when the runtime's launcher is a node (``runLauncherAsNode``,
  ``MPI.EnforceMLPolicy``), so ``numNodes`` = ``workers + 1`` there and ``workers`` otherwise:
  the spec's workers are always the node job's pods, as they are an MPIJob's Worker pods;
* ``trainer.resourcesPerNode``: ``spec.resources`` as requests and limits, canonical quantities;
* ``trainer.numProcPerNode``: ``spec.slotsPerWorker`` when given (else the runtime's, which the
  mpi plugin raises to the GPUs per node);
* ``suspend`` (false unless ``runPolicy.suspend``; not written with Kueue, which owns it) and
  ``activeDeadlineSeconds``; the metadata's labels and annotations, Kueue's labels.

What only a pod template can say goes through one ``runtimePatches`` entry (manager
``mpigen.dev/spec``), on every replicated job that runs training (not the initializers): the
pods' labels (the job's and ``spec.labels``) and annotations (``sidecar.istio.io/inject:
"false"``, as for every mpigen job, and ``spec.annotations``), volumes and their mounts on the
``node`` container (``spec.volumes``, ``/dev/shm``), ``nodeSelector``, ``tolerations``,
``imagePullSecrets``, ``serviceAccountName``; the Volcano queue as the JobSet template's
annotation ``scheduling.volcano.sh/queue-name``, where Trainer's volcano plugin reads it.

What neither can say -- a PodGroup policy the runtime lacks (a patch has no ``podGroupPolicy``),
the pods' ``schedulerName`` and ``priorityClassName``, code sync's init container (a patch's init
container has no image), ``workingDir`` and ``imagePullPolicy`` -- makes mpigen write a
**TrainingRuntime named after the job** in its namespace: a copy of the named runtime with those
settings, which the TrainJob's ``runtimeRef`` then names (:func:`plan`, and the info diagnostic
``runtime-copy`` says why). Scheduling, the decision:

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
from ..trainer.info import ANCESTOR_DATASET, ANCESTOR_LABEL, ANCESTOR_MODEL, NODE
from ..trainer.podgroup import VOLCANO_QUEUE_ANNOTATION, policy_kind_of
from ..trainer.runtimes import TRAINER_GROUP
from ..trainer.torch import TORCHTUNE_MODELS, model_of
from .gang import Finding
from .pods import (GIT_SYNC_GROUP, ISTIO_INJECT, container_mounts, env_var, init_containers, job_metadata, pod_volumes,
                   resources)

MANAGER = "mpigen.dev/spec"
"""The ``manager`` of the runtime patch mpigen writes (a domain-prefixed path, as Trainer's webhook requires)."""
GANG = ("spec", "scheduling", "gang")


def runtime_lookup(spec: dict[str, Any], namespace: str | None, runtimes: Runtimes) -> dict[str, Any]:
    ref = spec["runtime"]
    found = runtimes.find(ref["kind"], ref["name"], namespace)
    if found is None:  # the check stage reports it first (runtime-not-found)
        raise ValueError(f"{ref['kind']} {ref['name']} is not among {runtimes.source}")
    return found


def training_jobs(runtime: dict[str, Any]) -> list[dict[str, Any]]:
    """The replicated jobs that run training: every one but the dataset and model initializers."""
    rjobs = (((runtime.get("spec") or {}).get("template") or {}).get("spec") or {}).get("replicatedJobs") or []
    return [rjob for rjob in rjobs if _trains(rjob)]


def _trains(rjob: dict[str, Any]) -> bool:
    labels = ((rjob.get("template") or {}).get("metadata") or {}).get("labels") or {}
    return labels.get(ANCESTOR_LABEL) not in (ANCESTOR_DATASET, ANCESTOR_MODEL)


def _pod(rjob: dict[str, Any]) -> dict[str, Any]:
    return ((((rjob.get("template") or {}).get("spec") or {}).get("template") or {}).get("spec") or {})


def _has_node(rjob: dict[str, Any]) -> bool:
    return any(c.get("name") == NODE for c in _pod(rjob).get("containers") or [])


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


def pod_reasons(spec: dict[str, Any]) -> list[tuple[tuple, str]]:
    """(spec field, why) for each setting of the pods that neither a TrainJob field nor a runtime
    patch can carry: only a runtime's pod templates can."""
    out = []
    if spec.get("priorityClassName"):
        from_gang = spec["scheduling"].get("priorityClass") == spec["priorityClassName"]
        where = ("spec", "scheduling", "priorityClass") if from_gang else ("spec", "priorityClassName")
        out.append((where, "the pods' priorityClassName"))
    if spec.get("code"):
        out.append((("spec", "code"), "code sync's init container (a runtime patch's init container has no image)"))
    elif spec.get("workingDir"):
        out.append((("spec", "workingDir"), "the nodes' workingDir"))
    if spec.get("imagePullPolicy"):
        out.append((("spec", "imagePullPolicy"), "the nodes' imagePullPolicy"))
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
    pod_needs = pod_reasons(spec)
    objects: list[dict[str, Any]] = []
    name = copy_name(metadata["name"], ref["name"])
    if (copy_gang or pod_needs) and ref["kind"] == TRAINING_RUNTIME_KIND and ref["name"] == name:
        findings.append((("spec", "runtime"), "runtime-field", Severity.ERROR,
                         f"the TrainingRuntime mpigen writes beside the TrainJob is named after the job, {name!r}, as "
                         "the runtime it would copy: applying it would replace that runtime; rename the job or the "
                         "runtime"))
    elif copy_gang or pod_needs:
        copied_runtime, dropped = runtime_copy(name, metadata, spec, runtime, policy, scheduler)
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
            findings.append((where, "runtime-copy", Severity.INFO,
                             f"{copied}: {what} can only be said by a runtime's pod templates"))
        ref = {"kind": TRAINING_RUNTIME_KIND, "name": name}
    objects.append(trainjob(metadata, spec, runtime, ref))
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


def trainjob(metadata: dict[str, Any], spec: dict[str, Any], runtime: dict[str, Any],
             ref: dict[str, str]) -> dict[str, Any]:
    trainer: dict[str, Any] = {"image": spec["image"], "command": list(spec["command"])}
    if spec["env"]:
        trainer["env"] = [env_var(k, v) for k, v in spec["env"].items()]
    trainer["numNodes"] = num_nodes(spec, runtime)
    if spec.get("slotsPerWorker") is not None:
        trainer["numProcPerNode"] = spec["slotsPerWorker"]
    per_node = resources(spec, spec["resources"])
    if per_node:
        trainer["resourcesPerNode"] = per_node
    job_spec: dict[str, Any] = {"runtimeRef": {"apiGroup": TRAINER_GROUP, "kind": ref["kind"], "name": ref["name"]},
                                "trainer": trainer}
    template = _patch_template(metadata, spec, runtime)
    if template:
        job_spec["runtimePatches"] = [{"manager": MANAGER, "trainingRuntimeSpec": {"template": template}}]
    run_policy = spec["runPolicy"]
    if "suspend" in run_policy:
        job_spec["suspend"] = run_policy["suspend"]
    if "activeDeadlineSeconds" in run_policy:
        job_spec["activeDeadlineSeconds"] = run_policy["activeDeadlineSeconds"]
    return {"apiVersion": TRAINER_API, "kind": TRAINJOB_KIND, "metadata": job_metadata(metadata), "spec": job_spec}


def _patch_template(metadata: dict[str, Any], spec: dict[str, Any], runtime: dict[str, Any]) -> dict[str, Any]:
    """The runtime patch's ``template``: the JobSet's queue annotation, each training job's pods."""
    template: dict[str, Any] = {}
    scheduling = spec["scheduling"]
    if scheduling.get("queue") and scheduling["gang"] in ("volcano", "none") and _volcano(spec, runtime):
        template["metadata"] = {"annotations": {VOLCANO_QUEUE_ANNOTATION: scheduling["queue"]}}
    user = dict(spec, code=None)  # code sync lives in the runtime copy
    labels = dict(sorted({**(metadata.get("labels") or {}), **spec["labels"]}.items()))
    annotations = dict(sorted({ISTIO_INJECT: "false", **spec["annotations"]}.items()))
    mounts = container_mounts(user)
    volumes = pod_volumes(user)
    jobs = []
    for rjob in training_jobs(runtime):
        pod: dict[str, Any] = {}
        if mounts and _has_node(rjob):
            pod["containers"] = [{"name": NODE, "volumeMounts": [dict(m) for m in mounts]}]
        if spec.get("imagePullSecrets"):
            pod["imagePullSecrets"] = [{"name": n} for n in spec["imagePullSecrets"]]
        if spec.get("nodeSelector"):
            pod["nodeSelector"] = dict(sorted(spec["nodeSelector"].items()))
        if spec.get("serviceAccountName"):
            pod["serviceAccountName"] = spec["serviceAccountName"]
        if spec.get("tolerations"):
            pod["tolerations"] = [dict(t) for t in spec["tolerations"]]
        if volumes:
            pod["volumes"] = copy.deepcopy(volumes)
        meta: dict[str, Any] = {}
        if labels:
            meta["labels"] = dict(labels)
        meta["annotations"] = dict(annotations)
        pod_template: dict[str, Any] = {"metadata": meta}
        if pod:
            pod_template["spec"] = pod
        jobs.append({"name": rjob["name"], "template": {"spec": {"template": pod_template}}})
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
                 policy: dict[str, Any] | None, scheduler: str | None) -> tuple[dict[str, Any], list[str]]:
    """The TrainingRuntime ``name`` (:func:`copy_name`): ``runtime`` with the podGroupPolicy, the
    pods' schedulerName and what only a runtime's pod templates can say (:func:`pod_reasons`);
    and what a gang made it leave out (:func:`unsequence`), as text."""
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
    code = spec.get("code")
    code_spec = dict(spec, volumes=[], shmSize=None)  # the code's volumes only
    for rjob in ((runtime_spec.get("template") or {}).get("spec") or {}).get("replicatedJobs") or []:
        pod = rjob.setdefault("template", {}).setdefault("spec", {}).setdefault("template", {}).setdefault("spec", {})
        if scheduler:
            pod["schedulerName"] = scheduler
        if not _trains(rjob):
            continue
        if spec.get("priorityClassName"):
            pod["priorityClassName"] = spec["priorityClassName"]
        for container in pod.get("containers") or []:
            if container.get("name") != NODE:
                continue
            if spec.get("imagePullPolicy"):
                container["imagePullPolicy"] = spec["imagePullPolicy"]
            if spec.get("workingDir"):
                container["workingDir"] = spec["workingDir"]
            if code:
                container["volumeMounts"] = list(container.get("volumeMounts") or []) + container_mounts(code_spec)
        if code:
            pod["initContainers"] = list(pod.get("initContainers") or []) + init_containers(spec)
            pod["volumes"] = list(pod.get("volumes") or []) + pod_volumes(code_spec)
            if (code.get("git") or {}).get("secret"):
                # git-sync (user 65533) reads the Secret's files through the pod's fsGroup, which
                # every container gets as a supplementary group: a runtime's own fsGroup (the MPI
                # runtimes' 1000, mpiuser's, which their SSH keys need) stays; 65533 when none.
                context = dict(pod.get("securityContext") or {})
                context.setdefault("fsGroup", GIT_SYNC_GROUP)
                context.setdefault("fsGroupChangePolicy", "OnRootMismatch")
                pod["securityContext"] = context
    return {"apiVersion": TRAINER_API, "kind": TRAINING_RUNTIME_KIND, "metadata": meta, "spec": runtime_spec}, dropped

