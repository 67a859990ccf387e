"""Whether an imported spec builds back to the same job (``mpigen import manifest``'s own check, and
the round-trip tests').

Two jobs are the same when the operator, given either, does the same: their fields after its
defaulting are equal (the pod templates and ``schedulingPolicy`` aside, which are judged by what
they make), and so is every object it creates -- the Service, hostfile ConfigMap, SSH Secret,
PodGroup, Pods and launcher Job that ``mpigen explain --format yaml`` shows (:mod:`mpigen.operator`'s
ports of the controllers; with the job taken as not suspended and, for an MPIJob, its launcher
created at startup, so that every pod template is seen). The one difference allowed is what mpigen
writes on every job on purpose: the pods' annotation ``sidecar.istio.io/inject: "false"``. The
CRDs' own defaults count as written (``suspend: false``, ``runLauncherAsWorker: false``); under
Kueue, which owns it, ``suspend`` is not compared.

Two TrainJobs are the same when Trainer, given either on the runtime it names (the manifest's;
the built one's: the TrainingRuntime copy built beside it, else the runtime it names), creates
the same (:func:`trainjob_differences`): the runtime snapshot, the PodGroup, the MPI Secret and
hostfile and the JobSet that ``mpigen explain --format yaml`` shows (:mod:`mpigen.trainer`'s port
of the runtime framework). The TrainJob itself may say it otherwise (a runtime patch of another
manager, numNodes written out): what it makes is what counts.
"""

from __future__ import annotations

import copy
from typing import Any, Iterator

from ..diagnostics import format_path
from ..operator.podgroup import DEFAULT_SCHEDULER_PLUGINS_NAME
from ..patch.diff import equal
from ..render.pods import ISTIO_INJECT
from .manifest import KINDS, KUEUE_QUEUE, LAST_APPLIED, SERVER_FIELDS, ImportOptions

MAX_PODS = 3
"""Pods created per replica type that are compared (the others differ from them only by index)."""


def differences(manifest: dict[str, Any], built: dict[str, Any], gang: str | None,
                options: ImportOptions = ImportOptions(), limit: int = 5) -> list[str]:
    """Where ``built`` (the job mpigen built from the imported spec) differs from ``manifest`` (the
    job imported), at most ``limit`` of them: ``path: manifest <value>, built <value>``. ``gang``
    is the operator's (None: none)."""
    out: list[str] = []
    left, right = _job(manifest, options), _job(built, options)
    kueue = KUEUE_QUEUE in (left["metadata"].get("labels") or {}) or KUEUE_QUEUE in (right["metadata"].get("labels") or {})
    if kueue:
        for job in (left, right):
            job["spec"].get("runPolicy", {}).pop("suspend", None)
    out += _walk(_without_templates(left), _without_templates(right), ())
    out += _objects_differences(_created(manifest, gang, options), _created(built, gang, options), "the operator",
                                limit - len(out))
    return out[:limit]


def _objects_differences(manifest: list[dict[str, Any]], built: list[dict[str, Any]], creator: str,
                         limit: int) -> list[str]:
    """Where the objects ``creator`` creates for the built job differ from those for the manifest's
    (in their order), at most about ``limit`` of them."""
    out: list[str] = []
    for a, b in _zip(manifest, built):
        if len(out) >= limit:
            break
        if a is None or b is None:
            out.append(f"{creator} creates {_name(a or b)} for the {'manifest' if a else 'built job'} only")
            continue
        out += [f"{_name(a)} {d}" for d in _walk(a, b, ())]
    return out


def beside_differences(manifest: list[dict[str, Any]], built: list[dict[str, Any]]) -> list[str]:
    """Where the objects mpigen builds beside the job (kube-batch's PodGroup) differ from those of
    the manifest's file the spec says (by kind and name; their specs and names compared)."""
    out = []
    for obj in manifest:
        same = next((b for b in built if (b["kind"], b["metadata"].get("name")) ==
                     (obj.get("kind"), (obj.get("metadata") or {}).get("name"))), None)
        if same is None:
            out.append(f"{_name(obj)}: not built")
            continue
        out += [f"{_name(obj)} {d}" for d in _walk({"spec": obj.get("spec")}, {"spec": same.get("spec")}, ())]
    return out


def trainjob_differences(manifest: dict[str, Any], runtime: dict[str, Any], built: list[dict[str, Any]],
                         runtimes: Any, priority_classes: dict[str, int] | None = None, limit: int = 5) -> list[str]:
    """Where what Trainer creates for ``built`` (the objects mpigen built from the imported spec:
    the TrainJob, and the TrainingRuntime copy beside it when it names one) differs from what it
    creates for ``manifest`` (the TrainJob imported) on ``runtime`` (the one it names), at most
    ``limit`` of them: the runtime snapshot, the PodGroup, the MPI Secret and hostfile and the
    JobSet that ``mpigen explain --format yaml`` shows (:func:`mpigen.trainer.framework.build`).
    ``runtimes`` (:class:`~mpigen.load.trainer_runtimes.Runtimes`) are where a built TrainJob's
    runtime is looked up when no copy is built beside it. The one difference allowed is mpigen's
    ``sidecar.istio.io/inject: "false"`` on the pods; under Kueue, which suspends a job with a
    queue name when it is created (``jobframework.ApplyDefaultForSuspend``), ``suspend`` is not
    compared."""
    from ..names import TRAINJOB_KIND
    from ..trainer.runtimes import runtime_ref

    job = next((o for o in built if o.get("kind") == TRAINJOB_KIND), None)
    if job is None:
        return ["no TrainJob was built"]
    _, kind, name = runtime_ref(job)
    namespace = (job.get("metadata") or {}).get("namespace")
    beside = next((o for o in built if o.get("kind") == kind and (o.get("metadata") or {}).get("name") == name), None)
    built_runtime = beside if beside is not None else runtimes.find(kind, name, namespace)
    if built_runtime is None:
        return [f"the built TrainJob's {kind} {name} is not known"]
    kueue = any(KUEUE_QUEUE in ((o.get("metadata") or {}).get("labels") or {}) for o in (manifest, job))
    return _objects_differences(_trainer_objects(manifest, runtime, priority_classes, kueue),
                                _trainer_objects(job, built_runtime, priority_classes, kueue), "Trainer", limit)[:limit]


def _trainer_objects(job: dict[str, Any], runtime: dict[str, Any], priority_classes: dict[str, int] | None,
                     kueue: bool) -> list[dict[str, Any]]:
    """What Trainer creates for ``job`` on ``runtime``: the snapshot first, then its objects; the
    JobSet's pods without mpigen's Istio annotation, not suspended under Kueue."""
    from ..trainer.framework import build
    from ..trainer.info import TrainerError

    job = copy.deepcopy(job)
    if kueue:
        job.setdefault("spec", {})["suspend"] = False
    try:
        made = build(job, runtime, priority_classes)
    except TrainerError as exc:
        return [{"kind": "Error", "metadata": {"name": str(exc)}}]
    return [_plain(_without_istio(obj)) for obj in [made.snapshot, *made.objects]]


def _job(job: dict[str, Any], options: ImportOptions) -> dict[str, Any]:
    from .manifest import defaulted

    out = copy.deepcopy(defaulted(job, options.operator_version))
    meta = out.get("metadata") or {}
    out["metadata"] = {k: v for k, v in meta.items() if k in ("name", "namespace", "labels", "annotations")}
    annotations = out["metadata"].get("annotations") or {}
    annotations.pop(LAST_APPLIED, None)
    if not annotations:
        out["metadata"].pop("annotations", None)
    for key in SERVER_FIELDS:
        out["metadata"].pop(key, None)
    out.pop("status", None)
    spec = out["spec"]
    policy = spec.setdefault("runPolicy", {})
    policy.setdefault("suspend", False)
    policy.pop("schedulingPolicy", None)
    if out["kind"] == "MPIJob":
        spec.setdefault("runLauncherAsWorker", False)
        for key in ("launcherCreationPolicy", "runLauncherAsWorker"):  # unknown to the release: pruned
            if not options.operator_version.has(key):
                spec.pop(key, None)
    return out


def _without_templates(job: dict[str, Any]) -> dict[str, Any]:
    key = KINDS[job["kind"]][1]
    out = copy.deepcopy(job)
    for replica in (out["spec"].get(key) or {}).values():
        if isinstance(replica, dict):
            replica.pop("template", None)
    return out


def _created(job: dict[str, Any], gang: str | None, options: ImportOptions) -> list[dict[str, Any]]:
    """The objects the operator creates for ``job``, not suspended, its launcher at startup."""
    from ..operator import mpi_controller, training_controller
    from ..operator.podgroup import OperatorPanicError

    job = copy.deepcopy(job)
    spec = job.setdefault("spec", {})
    spec.setdefault("runPolicy", {})["suspend"] = False
    scheduler_name = options.scheduler_name or DEFAULT_SCHEDULER_PLUGINS_NAME
    try:
        if job["kind"] == "MPIJob":
            spec["launcherCreationPolicy"] = "AtStartup"
            objects = list(mpi_controller.created_objects(job, gang, scheduler_name=scheduler_name,
                                                          priority_classes=options.priority_classes,
                                                          version=options.operator_version, max_workers=MAX_PODS))
        else:
            objects = list(training_controller.created_objects(job, gang, scheduler_name=scheduler_name,
                                                               priority_classes=options.priority_classes,
                                                               max_pods=MAX_PODS))
    except (mpi_controller.NotCreated, training_controller.NotCreated, OperatorPanicError) as exc:
        return [{"kind": "Error", "metadata": {"name": str(exc)}}]
    return [_plain(_without_istio(obj)) for obj in objects]


def _without_istio(obj: dict[str, Any]) -> dict[str, Any]:
    """The object without mpigen's ``sidecar.istio.io/inject: "false"`` on its pods (a Pod, a Job's
    pod template, a JobSet's)."""
    obj = copy.deepcopy(obj)
    templates = [obj]
    if obj.get("kind") == "Job":
        templates.append(obj["spec"].get("template") or {})
    if obj.get("kind") == "JobSet":
        templates += [((rjob.get("template") or {}).get("spec") or {}).get("template") or {}
                      for rjob in obj["spec"].get("replicatedJobs") or []]
    for holder in templates:
        annotations = (holder.get("metadata") or {}).get("annotations")
        if isinstance(annotations, dict) and annotations.get(ISTIO_INJECT) == "false":
            del annotations[ISTIO_INJECT]
            if not annotations:
                del holder["metadata"]["annotations"]
                if not holder["metadata"]:
                    del holder["metadata"]
    return obj


def _plain(value: Any) -> Any:
    """JSON data: the controllers' lazy values (a hostfile, a TF_CONFIG) as the text they stand for."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return str(value)


def _zip(left: list, right: list) -> Iterator[tuple[Any, Any]]:
    for i in range(max(len(left), len(right))):
        yield (left[i] if i < len(left) else None), (right[i] if i < len(right) else None)


def _name(obj: dict[str, Any]) -> str:
    return f"{obj.get('kind')} {(obj.get('metadata') or {}).get('name')}"


def _walk(a: Any, b: Any, path: tuple) -> list[str]:
    if equal(a, b):
        return []
    if isinstance(a, dict) and isinstance(b, dict):
        out = []
        for key in list(a) + [k for k in b if k not in a]:
            if key not in b or key not in a:
                out.append(f"{format_path(path + (key,))}: manifest {_short(a.get(key, '(none)'))}, "
                           f"built {_short(b.get(key, '(none)'))}")
            else:
                out += _walk(a[key], b[key], path + (key,))
        return out
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return [d for i, (x, y) in enumerate(zip(a, b)) for d in _walk(x, y, path + (i,))]
    return [f"{format_path(path) or '(the object)'}: manifest {_short(a)}, built {_short(b)}"]


def _short(value: Any) -> str:
    import json

    text = json.dumps(value, sort_keys=True) if not isinstance(value, str) or value != "(none)" else value
    return text if len(text) <= 120 else text[:117] + "..."
