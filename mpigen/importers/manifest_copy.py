"""``mpigen import manifest``, a TrainJob's runtime: the TrainingRuntime copy beside it read back as
the settings that make mpigen write it (the inverse of :func:`mpigen.render.trainjob.runtime_copy`).

mpigen writes a TrainingRuntime named after the job (:func:`~mpigen.render.trainjob.copy_name`) when
the spec asks for what only a runtime says: a copy of the runtime the spec names with another
``podGroupPolicy`` and the pods' ``schedulerName`` (the gang), and in each replicated job's pod
template what a runtime patch cannot carry (:mod:`mpigen.render.trainjob_pods`). A TrainingRuntime of
the file that the TrainJob names is such a copy of a known runtime (the cluster file's, the files'
beside, Trainer's defaults) when it has that runtime's labels, ML policy and replicated jobs, all
but their pod templates as that runtime has them (and, with a gang, without a ``dependsOn`` of
status Ready or ``startupPolicy: InOrder``: :func:`~mpigen.render.trainjob.unsequence`), and is named
as mpigen names a copy of it.

Of such a copy, read against the known runtime:

* :func:`copy_gang`: the ``scheduling`` whose plan (:func:`~mpigen.render.trainjob.gang_plan`)
  gives the copy's ``podGroupPolicy`` and its pods' ``schedulerName``;
* :func:`copy_fields`: what each replicated job's pod template has beyond the runtime's, as the
  fields mpigen writes into a copy: the PriorityClass, the host network and DNS policy, the
  runtime class, the topology spread, DRA claims, the training container's image, command and
  args (a job other than the trainer's), env, envFrom, ports, probes, working directory, pull
  policy and resources, the sidecars and init containers after the runtime's own, code sync;
* :func:`copy_patches`: the rest, the pod template patch of each replicated job, from the copy
  mpigen writes for those fields (before any patch) to the copy in the file.
"""

from __future__ import annotations

import copy
from typing import Any

from ..expand.defaults import DEFAULT_SCHEDULER_PLUGINS
from ..expand.trainjob_roles import replicated_jobs
from ..names import OWN_VOLUMES, TRAINING_RUNTIME_KIND
from ..patch.diff import PatchDiffError, create_patch, equal
from ..render.trainjob import copy_name, unsequence
from ..spec.role_rules import CODE_SYNC
from ..spec.trainjob_rules import MPI_VOLUMES
from ..trainer.info import upsert_env
from .manifest_pods import container_resources, env_map, init_containers
from .manifest_layers import Layer

COPY_POD_FIELDS = ("priorityClassName", "runtimeClassName", "topologySpreadConstraints", "resourceClaims")
COPY_CONTAINER_FIELDS = ("envFrom", "livenessProbe", "readinessProbe", "startupProbe", "imagePullPolicy", "workingDir")
HOST_NETWORK_DNS = "ClusterFirstWithHostNet"


def _pod_template(rjob: dict[str, Any]) -> dict[str, Any]:
    return (((rjob.get("template") or {}).get("spec") or {}).get("template")) or {}


def _without_pods(rjob: dict[str, Any]) -> dict[str, Any]:
    out = copy.deepcopy(rjob)
    ((out.get("template") or {}).get("spec") or {}).pop("template", None)
    return out


def copied_from(job: dict[str, Any], runtime: dict[str, Any], runtimes: Any) -> dict[str, Any] | None:
    """The known runtime ``runtime`` (a TrainingRuntime of the TrainJob's file) is mpigen's copy of,
    else None (see the module)."""
    if runtime.get("kind") != TRAINING_RUNTIME_KIND:
        return None
    meta = job.get("metadata") or {}
    for key, known in runtimes.objects.items():
        kind, namespace, name = key
        if known is runtime or (kind == TRAINING_RUNTIME_KIND and namespace != (meta.get("namespace") or "default")):
            continue
        if copy_name(meta.get("name", ""), name) == runtime["metadata"].get("name") and _same_but_pods(
                runtime, known, meta.get("namespace")):
            return known
    return None


def _same_but_pods(found: dict[str, Any], known: dict[str, Any], namespace: str | None) -> bool:
    """Whether ``found`` is ``known`` as mpigen copies it, but for the pod templates and the
    ``podGroupPolicy`` (see the module)."""
    meta: dict[str, Any] = {"name": found["metadata"].get("name")}
    if namespace:
        meta["namespace"] = namespace
    if (known.get("metadata") or {}).get("labels"):
        meta["labels"] = dict(known["metadata"]["labels"])
    if found.get("metadata") != meta:
        return False
    ours, theirs = copy.deepcopy(found.get("spec") or {}), copy.deepcopy(known.get("spec") or {})
    theirs.pop("podGroupPolicy", None)
    if ours.pop("podGroupPolicy", None) is not None:
        unsequence(theirs)
    ours_jobs, theirs_jobs = replicated_jobs({"spec": ours}), replicated_jobs({"spec": theirs})
    if [_without_pods(r) for r in ours_jobs] != [_without_pods(r) for r in theirs_jobs]:
        return False
    for spec in (ours, theirs):
        (spec.get("template") or {}).get("spec", {}).pop("replicatedJobs", None)
    return equal(ours, theirs)


def copy_gang(spec: dict[str, Any], known: dict[str, Any], found: dict[str, Any]) -> dict[str, Any] | None:
    """The ``scheduling`` (over ``spec``'s, the Kueue gang aside) whose gang makes mpigen write
    ``found``'s ``podGroupPolicy`` and its pods' ``schedulerName`` into a copy of ``known``; None
    when no gang does."""
    from ..expand.defaults import expand
    from ..render.trainjob import gang_plan

    given = dict(spec.get("scheduling") or {})
    policy = (found.get("spec") or {}).get("podGroupPolicy")
    names = {_pod_template(r).get("spec", {}).get("schedulerName") for r in replicated_jobs(found)}
    known_names = [_pod_template(r).get("spec", {}).get("schedulerName") for r in replicated_jobs(known)]
    candidates: list[dict[str, Any]] = [{}] if given.get("gang") == "kueue" else [{}, {"gang": "none"},
                                                                                  {"gang": "volcano"}]
    if given.get("gang") != "kueue" and len(names) == 1 and isinstance(policy, dict) and "coscheduling" in policy:
        seconds = (policy.get("coscheduling") or {}).get("scheduleTimeoutSeconds")
        plugins = {"gang": "scheduler-plugins", "schedulerName": next(iter(names))}
        candidates += [plugins, {**plugins, "scheduleTimeoutSeconds": seconds}]
    for candidate in candidates:
        scheduling = {**{k: v for k, v in given.items() if k != "gang"}, **candidate}
        if given.get("gang") == "kueue":
            scheduling["gang"] = "kueue"
        try:
            _, wanted, scheduler, _ = gang_plan(expand({**spec, "scheduling": scheduling}), known)
        except (KeyError, TypeError, ValueError):
            continue
        if wanted != policy:
            continue
        pods = [_pod_template(r).get("spec", {}).get("schedulerName") for r in replicated_jobs(found)]
        if pods == ([scheduler] * len(pods) if scheduler else known_names):
            order = ("gang", "queue", "priorityClass", "schedulerName", "scheduleTimeoutSeconds")
            return {k: scheduling[k] for k in sorted(scheduling, key=lambda k: order.index(k) if k in order else 9)
                    if k != "schedulerName" or scheduling[k] != DEFAULT_SCHEDULER_PLUGINS}
    return None


# ------------------------------------------------------------------------------ the pods


def copy_fields(layers: list[Layer], known: dict[str, Any], found: dict[str, Any]) -> dict[str, Any]:
    """Each replicated job's fields of the copy (into ``layers``: see the module), and the spec's
    ``code`` when every job that trains syncs the same."""
    from .manifest_features import _code

    by_name = {r.get("name"): r for r in replicated_jobs(known)}
    codes: list[Any] = []
    for layer, rjob in zip(layers, replicated_jobs(found)):
        where = ("spec", "template", "spec", "replicatedJobs", [r.get("name") for r in replicated_jobs(found)]
                 .index(rjob.get("name")), "template", "spec", "template")
        ours, theirs = _pod_template(rjob).get("spec") or {}, _pod_template(by_name[rjob["name"]]).get("spec") or {}
        added = _added(ours, theirs, layer.role.main)
        if layer.role.trains and added is not None:
            code = _code(added, 0)
            codes.append(code[0] if code is not None else None)
            if code is not None:
                layer.fields["_code"] = code[0]
        _pod_fields(layer, ours, theirs, where)
        if added is not None:
            _init_fields(layer, added, ours, theirs, where)
        main = layer.role.main
        if main is not None:
            _container_fields(layer, _named(ours.get("containers"), main), _named(theirs.get("containers"), main),
                              ours, where + ("spec", "containers", _index(ours.get("containers"), main)))
    out: dict[str, Any] = {}
    same = codes and codes[0] is not None and all(c is not None and equal(c, codes[0]) for c in codes)
    if same:
        out["code"] = codes[0]
    for layer in layers:
        if layer.fields.pop("_code", None) is not None and same and \
                layer.fields.get("workingDir") == _default_dir(out["code"]):
            del layer.fields["workingDir"]  # mpigen's own with code sync
    return out


def _default_dir(code: dict[str, Any]) -> str | None:
    """The working directory mpigen gives the training containers with ``code``."""
    from ..expand.defaults import expand

    return expand({"framework": "pytorch", "runtime": "-", "code": code}).get("workingDir")


def _named(items: Any, name: str) -> dict[str, Any]:
    return next((c for c in items or [] if isinstance(c, dict) and c.get("name") == name), {})


def _index(items: Any, name: str) -> int:
    return next((i for i, c in enumerate(items or []) if isinstance(c, dict) and c.get("name") == name), 0)


def _added(ours: dict[str, Any], theirs: dict[str, Any], main: str | None) -> dict[str, Any] | None:
    """What the copy appends to a pod of the runtime (init containers, volumes, the training
    container's mounts), as a pod template of its own; None when it does not append to them."""
    inits, known_inits = list(ours.get("initContainers") or []), list(theirs.get("initContainers") or [])
    volumes = [v for v in ours.get("volumes") or [] if v not in (theirs.get("volumes") or [])]
    container = _named(ours.get("containers"), main) if main else {}
    known_mounts = _named(theirs.get("containers"), main).get("volumeMounts") or [] if main else []
    mounts = [m for m in container.get("volumeMounts") or [] if m not in known_mounts]
    if inits[:len(known_inits)] != known_inits:
        return None
    main_container = dict(container, volumeMounts=mounts) if mounts else {k: v for k, v in container.items()
                                                                          if k != "volumeMounts"}
    spec: dict[str, Any] = {"initContainers": inits[len(known_inits):], "volumes": volumes,
                            "containers": [main_container]}
    if ours.get("securityContext"):
        spec["securityContext"] = copy.deepcopy(ours["securityContext"])
    return {"spec": spec}


def _pod_fields(layer: Layer, ours: dict[str, Any], theirs: dict[str, Any], where: tuple) -> None:
    for key in COPY_POD_FIELDS:
        if ours.get(key) is not None and ours.get(key) != theirs.get(key):
            layer.set(key, copy.deepcopy(ours[key]), where + ("spec", key))
    if ours.get("hostNetwork") is True and theirs.get("hostNetwork") is not True:
        layer.set("hostNetwork", True, where + ("spec", "hostNetwork"))
        if ours.get("dnsPolicy") not in (None, HOST_NETWORK_DNS):
            layer.set("dnsPolicy", ours["dnsPolicy"], where + ("spec", "dnsPolicy"))
    elif ours.get("dnsPolicy") is not None and ours.get("dnsPolicy") != theirs.get("dnsPolicy"):
        layer.set("dnsPolicy", ours["dnsPolicy"], where + ("spec", "dnsPolicy"))


def _init_fields(layer: Layer, added: dict[str, Any], ours: dict[str, Any], theirs: dict[str, Any],
                 where: tuple) -> None:
    """The sidecars and init containers the copy appends to the runtime's (code sync's aside)."""
    items = [c for c in added["spec"]["initContainers"]]
    if not items:
        return
    defined = {v.get("name") for v in (ours.get("volumes") or []) + (theirs.get("volumes") or [])
               if isinstance(v, dict)} | set(MPI_VOLUMES) | set(OWN_VOLUMES)
    defined |= {v.get("name") or v.get("claimName") for v in layer.fields.get("volumes") or [] if isinstance(v, dict)}
    found = init_containers([c for c in items if not (isinstance(c, dict) and c.get("name") == CODE_SYNC)], defined)
    at = len(theirs.get("initContainers") or [])
    for key, value in found.items():
        if value:
            layer.set(key, value, where + ("spec", "initContainers", at))


def _container_fields(layer: Layer, ours: dict[str, Any], theirs: dict[str, Any], pod: dict[str, Any],
                      where: tuple) -> None:
    """The training container's settings the copy says beyond the runtime's."""
    from ..render.trainjob import _by_key, _merged_resources

    if not layer.role.trainer:
        for key in ("image", "command", "args"):
            if ours.get(key) is not None and ours.get(key) != theirs.get(key):
                layer.set(key, copy.deepcopy(ours[key]), where + (key,))
    for key in COPY_CONTAINER_FIELDS:
        if ours.get(key) is not None and ours.get(key) != theirs.get(key):
            layer.set(key, copy.deepcopy(ours[key]), where + (key,))
    ports = [p for p in ours.get("ports") or [] if p not in (theirs.get("ports") or [])]
    if ports and _by_key(list(theirs.get("ports") or []), ports, "containerPort") == ours.get("ports"):
        layer.set("ports", ports, where + ("ports",))
    env = [e for e in ours.get("env") or [] if e not in (theirs.get("env") or [])]
    merged = copy.deepcopy(list(theirs.get("env") or []))
    upsert_env(merged, *copy.deepcopy(env))
    extra = env_map(env) if env and merged == ours.get("env") else None
    if extra:  # over what the initializer API gives an initializer
        layer.set("env", dict(sorted({**layer.fields.get("env", {}), **extra}.items())), where + ("env",))
    known, resources = theirs.get("resources") or {}, ours.get("resources") or {}
    wanted: dict[str, Any] = {}
    for part in ("limits", "requests"):
        values = {k: v for k, v in (resources.get(part) or {}).items() if (known.get(part) or {}).get(k) != v}
        if values:
            wanted[part] = values
    claims = [c for c in resources.get("claims") or [] if c not in (known.get("claims") or [])]
    if claims:
        wanted["claims"] = claims
    if wanted and _merged_resources(known, wanted) == resources:
        said, all_claims = container_resources(wanted, pod.get("resourceClaims"), "nvidia.com/gpu")
        if said is not None and (all_claims or not claims):
            layer.set("resources", said, where + ("resources",))


def copy_templates(metadata: dict[str, Any], spec: dict[str, Any], known: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Each replicated job's pod template in the copy mpigen writes for ``spec`` (a spec naming
    ``known``), before any pod template patch."""
    from ..expand.defaults import expand
    from ..render.trainjob import gang_plan, runtime_copy
    from ..render.trainjob_pods import plan

    expanded = expand(spec)
    _, policy, scheduler, _ = gang_plan(expanded, known)
    _, roles = plan(metadata, expanded, known)
    for pods in roles:
        pods.settings["podTemplatePatches"] = []
        pods.moved = {}
    made, _, _ = runtime_copy(metadata["name"], metadata, expanded, known, policy, scheduler, roles)
    return {r.get("name"): _pod_template(r) for r in replicated_jobs(made)}


def copy_patches(generated: dict[str, dict[str, Any]], found: dict[str, Any]) -> dict[str, dict[str, Any]] | None:
    """Each replicated job's pod template patch from the template mpigen writes (``generated``) to
    the copy's (``found``); None when no strategic merge patch gives it."""
    out = {}
    for rjob in replicated_jobs(found):
        try:
            patch = create_patch(generated.get(rjob["name"]) or {}, _pod_template(rjob))
        except PatchDiffError:
            return None
        if patch:
            out[rjob["name"]] = patch
    return out
