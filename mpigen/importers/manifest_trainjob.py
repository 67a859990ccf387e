"""``mpigen import manifest``: a Kubeflow Trainer v2.3.0 TrainJob -> the shortest spec that builds
back to the same TrainJob (the inverse of :mod:`mpigen.render.trainjob`).

A TrainJob says little itself: its pods are its runtime's, which it names in ``runtimeRef``, found
as ``mpigen validate`` finds it (in the same file, the files beside it, the cluster file, else
among Trainer's default runtimes: :attr:`ImportOptions.runtimes <mpigen.importers.manifest.ImportOptions>`).
The spec names that runtime in ``spec.runtime``, and its framework is the runtime's ML policy
(``torch``: ``pytorch``; ``mpi``: ``mpi``; any other is ``import-lost``: a spec's TrainJob runs on a
torch or MPI runtime). The TrainJob is then read in the three layers mpigen writes it in
(:mod:`mpigen.render.trainjob_pods`), each into the spec fields that mpigen writes back the same way:

1. **the TrainJob's own fields** (:mod:`.manifest_layers`): ``trainer.image``, ``command``,
   ``args`` and ``env`` (each only when given: without ``image`` and ``command`` the runtime's
   run), ``numNodes`` as ``workers`` (PyTorch: the nodes besides the Master; MPI: the pods of the
   node job, as the mpi plugin counts them), ``numProcPerNode`` as ``slotsPerWorker``,
   ``resourcesPerNode`` as ``resources`` when its requests are its limits, else as a pod template
   patch of the node containers' resources (which mpigen writes back as ``resourcesPerNode``),
   ``initializer.<dataset|model>`` as the initializer's ``env`` (``storageUri`` as its
   ``STORAGE_URI``); ``suspend`` and ``activeDeadlineSeconds`` as ``runPolicy``; Kueue's labels as
   ``gang: kueue``;
2. **the runtime patches**, any manager's, merged as Trainer merges them (:mod:`.manifest_layers`):
   each replicated job's pod labels and annotations, ``nodeSelector``, ``tolerations``,
   ``affinity``, ``serviceAccountName``, ``imagePullSecrets``, the security contexts, the volumes
   with the training container's mounts (``shmSize`` where mpigen's own), job-wide where every
   replicated job that trains has the same value, else under ``roles.<replicated job>``; the
   JobSet template's Volcano queue annotation as ``scheduling.queue``;
3. **the TrainingRuntime copy** (:mod:`.manifest_copy`): a TrainingRuntime of the file that the
   TrainJob names and that is what mpigen writes for a runtime it knows is read back as the
   settings that make mpigen write it (the gang, the PriorityClass, the host network, init
   containers, sidecars, code sync, the training container's own settings; a pod template patch
   for the rest), and the spec names the known runtime. Any other runtime of the file that the
   TrainJob names is named by the spec as it is (``import-other-object``: apply it beside the job,
   and give it to ``mpigen build``).

What cannot be carried is ``import-lost`` at its path in the manifest, never dropped in silence:
another ML policy, metadata of the JobSet or of a Job template, what only a runtime's pod
templates can say on a runtime that is no copy mpigen would write (a spec would run the job on a
copy: another runtime, so another runtime snapshot), the job's labels where its pods lack them
(mpigen puts them on the pods), variables a spec's ``env`` cannot hold, an initializer's
``secretRef``, ``managedBy``, a torch TrainJob without ``trainer`` (whose node container Trainer
gives no torch variables). Pure; the spec is built and compared here only to choose between
the copy's settings and the runtime named as it is (the command compares again, as for every kind).
"""

from __future__ import annotations

import copy
from typing import Any

from ..diagnostics import Severity
from ..load.trainer_runtimes import default_runtimes
from ..render.pods import ISTIO_INJECT
from ..spec.runtime_rules import ml_policies
from ..trainer.podgroup import policy_kind_of
from ..trainer.runtimes import describe_ref, runtime_ref
from .manifest_layers import (Layer, factor, framework_of, kueue, layers_of, run_policy, runtime_patches,
                              runtime_spec_ref, spec_document, trainer_fields)
from .manifest_pods import Finding, dropped, lost


def import_trainjob(job: dict[str, Any], options: Any) -> Any:
    """The spec of one TrainJob (trainer.kubeflow.org/v1alpha1) as the API server stores it (nulls
    dropped), and what could not be carried (:class:`mpigen.importers.manifest.Imported`)."""
    from .manifest import Imported, _metadata
    from .manifest_copy import copied_from

    findings: list[Finding] = []
    metadata = _metadata(job, findings)
    if "status" in job:
        findings.append(dropped(("status",), "the status is not imported: Trainer writes it"))
    runtimes = options.runtimes if options.runtimes is not None else default_runtimes()
    _, kind, name = runtime_ref(job)
    named = runtimes.find(kind, name, metadata.get("namespace"))
    if named is None:  # validate says so first (trainjob-runtime-missing)
        findings.append(lost(("spec", "runtimeRef", "name"), f"{describe_ref(job)} is not among {runtimes.source}"))
        return Imported({}, findings, None, options)
    if framework_of(named) is None:
        policies = ml_policies(named)
        findings.append(lost(("spec", "runtimeRef", "name"), f"{describe_ref(job)} has "
                             f"{'the ML policy ' + ', '.join(policies) if policies else 'no ML policy'}: a spec's "
                             "TrainJob runs on a torch runtime (framework: pytorch) or an MPI one (framework: mpi)"))
        return Imported({}, findings, None, options)
    beside = in_file(named, options.beside)
    known = copied_from(job, named, runtimes) if beside is not None else None
    if known is not None:
        found = _imported(job, metadata, findings, named, known, options, runtimes)
        if found is not None:
            found.consumed = [beside]
            return found
    return _imported(job, metadata, findings, named, None, options, runtimes)


def in_file(runtime: dict[str, Any], objects: tuple[dict[str, Any], ...]) -> dict[str, Any] | None:
    """The object of ``objects`` that is ``runtime`` (the same kind, namespace and name), if any."""
    from ..load.trainer_runtimes import is_runtime, runtime_key

    def key(obj: dict[str, Any]) -> Any:
        meta = obj.get("metadata") if isinstance(obj.get("metadata"), dict) else {}
        return runtime_key(obj.get("kind", ""), meta.get("name", ""), meta.get("namespace"))

    return next((obj for obj in objects if is_runtime(obj) and key(obj) == key(runtime)), None)


def _imported(job: dict[str, Any], metadata: dict[str, Any], findings: list[Finding], named: dict[str, Any],
              known: dict[str, Any] | None, options: Any, runtimes: Any) -> Any:
    """The spec naming ``known`` with the settings of the copy ``named`` (None when they do not
    give that copy back), or, without ``known``, naming ``named`` as it is."""
    from .manifest import Imported
    from .manifest_copy import copy_fields, copy_gang, copy_patches, copy_templates

    findings, metadata = list(findings), copy.deepcopy(metadata)
    base = known or named
    framework = framework_of(base)
    spec: dict[str, Any] = {"framework": framework, "runtime": runtime_spec_ref(base)}
    layers = layers_of(base)
    fields, patched = trainer_fields(job, base, str(framework), layers, findings)
    spec.update(fields)
    policy = run_policy(job, findings)
    if policy:
        spec["runPolicy"] = policy
    scheduling = kueue(metadata)
    volcano = policy_kind_of((named.get("spec") or {}).get("podGroupPolicy")) == "volcano"
    scheduling.update(runtime_patches(job, layers, metadata.get("labels") or {}, volcano, findings,
                                      queued="queue" in scheduling))
    _shm_size(spec, layers, findings)
    if known is not None:
        gang = copy_gang({**spec, "scheduling": scheduling}, known, named)
        if gang is None:
            return None
        scheduling = gang
        spec.update(copy_fields(layers, known, named))
    roles = factor(layers, spec)
    if roles:
        spec["roles"] = roles
    if scheduling.get("gang") in ("volcano", "scheduler-plugins") and spec.get("priorityClassName") \
            and "priorityClass" not in scheduling:  # the gang's PriorityClass is the pods' (mpigen.expand.defaults)
        scheduling = {"gang": scheduling["gang"], "priorityClass": spec.pop("priorityClassName"),
                      **{k: v for k, v in scheduling.items() if k != "gang"}}
    if scheduling:
        spec["scheduling"] = scheduling
    if patched:
        _resource_patch(spec, patched, layers)
    if any(severity is Severity.ERROR for _, _, severity, _ in findings):
        return Imported(spec_document(metadata, spec), findings, None, options) if known is None else None
    if known is not None:
        patches = copy_patches(copy_templates(metadata, spec, known), named)
        if patches is None:
            return None
        for name, patch in patches.items():
            settings = spec.setdefault("roles", {}).setdefault(name, {})
            settings["podTemplatePatch"] = _combined(settings.get("podTemplatePatch"), patch)
        built = _built(spec_document(metadata, spec), options, runtimes)
        from .roundtrip import trainjob_differences

        if built is None or trainjob_differences(job, named, built[0], runtimes, options.priority_classes):
            return None
    else:
        findings += _direct_losses(job, named, spec_document(metadata, spec), layers, options, runtimes)
    return Imported(spec_document(metadata, spec), findings, None, options)


def _shm_size(spec: dict[str, Any], layers: list[Layer], findings: list[Finding]) -> None:
    """``shmSize``, a job-wide field: every replicated job that trains has mpigen's ``/dev/shm``
    of that size, and no other has one."""
    sizes = [layer.fields.get("shmSize") for layer in layers if layer.role.trains]
    if not any("shmSize" in layer.fields for layer in layers):
        return
    if sizes and sizes[0] is not None and all(size == sizes[0] for size in sizes) and \
            not any("shmSize" in layer.fields for layer in layers if not layer.role.trains):
        spec["shmSize"] = sizes[0]
        for layer in layers:
            layer.fields.pop("shmSize", None)
        return
    for layer in layers:
        if "shmSize" in layer.fields:
            layer.fields.pop("shmSize")
            findings.append(lost(layer.origin["shmSize"], f"the pods of {layer.role.name} have mpigen's /dev/shm and "
                                 "not every replicated job that trains has the same: a spec's shmSize is all of theirs"))


def _resource_patch(spec: dict[str, Any], patched: dict[str, Any], layers: list[Layer]) -> None:
    """``resourcesPerNode``'s limits and requests that ``resources`` cannot say, as a pod template
    patch of the node containers it reaches (job-wide when it reaches every job that trains)."""
    patch = {"spec": {"containers": [{"name": "node", "resources": copy.deepcopy(patched)}]}}
    reached = [layer.role.name for layer in layers if layer.role.reached]
    trains = [layer.role.name for layer in layers if layer.role.trains]
    if reached == trains:
        spec["podTemplatePatch"] = patch
        return
    for name in reached:
        spec.setdefault("roles", {}).setdefault(name, {})["podTemplatePatch"] = copy.deepcopy(patch)


def _combined(first: dict[str, Any] | None, second: dict[str, Any]) -> dict[str, Any]:
    """One pod template patch saying both ``first`` (the node container's resources, or None) and
    ``second`` (the rest): mappings merged, the containers merged by name."""
    if not first:
        return second
    out = copy.deepcopy(second)
    for key, value in first.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _combined(value, out[key])
        elif key == "containers" and isinstance(out.get(key), list):
            for item in value:
                same = next((c for c in out[key] if isinstance(c, dict) and c.get("name") == item.get("name")), None)
                if same is None:
                    out[key].append(copy.deepcopy(item))
                else:
                    same.update({k: v for k, v in item.items() if k not in same})
        elif key not in out:
            out[key] = copy.deepcopy(value)
    return out


def _built(document: dict[str, Any], options: Any, runtimes: Any) -> tuple[list[dict[str, Any]], list[Any]] | None:
    """The objects ``mpigen build`` makes of the spec ``document`` (its base), and its
    diagnostics; None when it refuses the spec."""
    from ..emit.yaml_emit import dump
    from ..load.yaml_loader import load_text
    from ..pipeline import Options, compile_specs

    built = compile_specs(load_text(dump(document), "imported.yaml"), "imported.yaml",
                          Options(options.operator_version, options.priority_classes, runtimes))
    return (built.jobs[0].base, built.diagnostics) if built.ok else None


def _direct_losses(job: dict[str, Any], runtime: dict[str, Any], document: dict[str, Any], layers: list[Layer],
                   options: Any, runtimes: Any) -> list[Finding]:
    """What the spec naming ``runtime`` as it is cannot say: what would make mpigen write a copy
    (another runtime), and each replicated job's pods where they differ from the manifest's."""
    from ..names import TRAINJOB_KIND
    from ..patch.diff import PatchDiffError, create_patch
    from ..trainer.framework import pod_templates
    from ..trainer.info import TrainerError

    built = _built(document, options, runtimes)
    if built is None:
        return []  # the command builds the spec and reports why
    objects, diagnostics = built
    if len(objects) > 1 and objects[0].get("kind") != TRAINJOB_KIND:
        reasons = sorted({d.message.partition(": ")[2] for d in diagnostics if d.code == "runtime-copy"})
        return [lost(("spec", "runtimeRef", "name"), f"{describe_ref(job)} is no TrainingRuntime copy mpigen would "
                     f"write, and a spec saying this job makes mpigen write one (another runtime): {'; '.join(reasons)}")]
    trainjob = next(o for o in objects if o.get("kind") == TRAINJOB_KIND)
    try:
        wanted, made = pod_templates(job, runtime), pod_templates(trainjob, runtime)
    except TrainerError:
        return []  # the command's comparison says so
    out: list[Finding] = []
    labels = document["metadata"].get("labels") or {}  # the job's own (Kueue's are the gang's)
    for layer in layers:
        target = copy.deepcopy(wanted.get(layer.role.name) or {})
        if layer.role.trains:
            meta = target.setdefault("metadata", {})
            meta.setdefault("annotations", {}).setdefault(ISTIO_INJECT, "false")
            for key, value in labels.items():  # said once, at the job's label
                if (meta.get("labels") or {}).get(key) != value:
                    out.append(lost(("metadata", "labels", key), f"the pods of {layer.role.name} do not have the "
                                    f"label {key}: {value}: mpigen puts a job's labels on the pods of every replicated "
                                    "job that trains (the runtime patch)"))
                    meta.setdefault("labels", {})[key] = value
        try:
            patch = create_patch(made.get(layer.role.name) or {}, target)
        except PatchDiffError as exc:
            out.append(lost(_where(job, layer.role.name), f"the pods of {layer.role.name}: {exc}"))
            continue
        if patch:
            out.append(lost(_where(job, layer.role.name), f"the pods of {layer.role.name}: only a TrainingRuntime's pod "
                            "template can say what the spec's fields do not (the pod template patch "
                            f"{_summary(patch)}), and the job would run on a copy of {describe_ref(job)}, another "
                            "runtime"))
    return out


def _summary(patch: dict[str, Any]) -> str:
    import json

    text = json.dumps(patch, sort_keys=True)
    return text if len(text) <= 200 else text[:197] + "..."


def _where(job: dict[str, Any], role: str) -> tuple:
    """The pod template of ``role`` in the TrainJob's first runtime patch that has one, else its runtimeRef."""
    for i, entry in enumerate((job.get("spec") or {}).get("runtimePatches") or []):
        rjobs = ((((entry or {}).get("trainingRuntimeSpec") or {}).get("template") or {}).get("spec") or {}).get(
            "replicatedJobs") or []
        for j, rjob in enumerate(rjobs):
            if isinstance(rjob, dict) and rjob.get("name") == role:
                return ("spec", "runtimePatches", i, "trainingRuntimeSpec", "template", "spec", "replicatedJobs", j)
    return ("spec", "runtimeRef", "name")

