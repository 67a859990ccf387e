"""Stage 4, render: one expanded spec -> every object it compiles to, in apply order.

The job (MPIJob, PyTorchJob or TFJob), then what its scheduling backend needs beside it
(kube-batch's PodGroup), then TensorBoard's Deployment and Service. A spec with ``spec.runtime``
gives a Kubeflow Trainer TrainJob instead (:mod:`.trainjob`), after the TrainingRuntime written
beside it when it needs one (the runtime must exist before the TrainJob naming it is admitted). A spec's objects for the
base and each environment together are a :class:`CompiledJob`, which :mod:`.kustomize` writes as
a tree.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from typing import TYPE_CHECKING

from ..diagnostics import Severity
from ..versions import OperatorVersion
from .gang import Finding, apply_gang, apply_kube_batch, apply_kueue, apply_training_gang

if TYPE_CHECKING:
    from ..load.trainer_runtimes import Runtimes


@dataclass(slots=True)
class CompiledJob:
    """One spec's outputs: the base objects and each environment's."""

    name: str
    source: str
    base: list[dict[str, Any]]
    environments: dict[str, list[dict[str, Any]]] = field(default_factory=dict)

    def objects(self, env: str | None) -> list[dict[str, Any]]:
        return self.base if env is None else self.environments[env]


def render_objects(metadata: dict[str, Any], spec: dict[str, Any], version: OperatorVersion,
                   priority_classes: dict[str, int] | None, runtimes: Runtimes | None = None
                   ) -> tuple[list[dict[str, Any]], list[Finding]]:
    """``runtimes``: the training runtimes a spec with ``spec.runtime`` names (None: Trainer's
    default runtimes)."""
    scheduling = spec["scheduling"]
    gang = scheduling["gang"]
    findings: list[Finding] = []
    extra: list[dict[str, Any]] = []
    beside: list[dict[str, Any]] = []
    if spec.get("runtime") is not None:
        from ..load.trainer_runtimes import runtimes_or_defaults
        from .trainjob import render_trainjob

        built, findings = render_trainjob(metadata, spec, runtimes_or_defaults(runtimes))
        *beside, job = built
    else:
        if spec["framework"] == "mpi":
            from .mpijob import render_mpijob

            job, findings = render_mpijob(metadata, spec, version)
        else:
            from .training import render_training_job

            job, findings = render_training_job(metadata, spec)
        if _errors(findings) or not _holds_its_schema(job, spec):
            return [job], findings  # the patched pods are no job to decorate: the checks say why
        if gang in ("volcano", "scheduler-plugins"):
            apply = apply_gang if spec["framework"] == "mpi" else apply_training_gang
            args = (version,) if spec["framework"] == "mpi" else ()
            job, found = apply(job, scheduling, priority_classes, *args)
            findings += found
    if gang == "kube-batch":
        job, extra = apply_kube_batch(job, scheduling)
    elif gang == "kueue":
        job = apply_kueue(job, scheduling)
    findings += _count_overflow(job, spec)
    objects = [*beside, job, *extra]
    if spec.get("tensorboard"):
        from .addons import tensorboard_objects

        objects += tensorboard_objects(metadata, spec)
    return objects, findings


def _errors(findings: list[Finding]) -> bool:
    """A patch the pods could not take: there is no job to decorate for a gang."""
    return any(severity is Severity.ERROR for _, _, severity, _ in findings)


def _holds_its_schema(job: dict[str, Any], spec: dict[str, Any]) -> bool:
    """Whether the job is what its CRD's schema allows. What mpigen generates is, by construction;
    what a pod template patch writes need not be (a quantity that is none, containers that are no
    list), and the gang's sums and decorations read it: the validate-output stage then reports the
    schema's findings at the patch's lines, and nothing else is built."""
    if not any(view.get("podTemplatePatches") for view in (spec.get("roles") or {}).values()):
        return True
    from ..spec.schema import schema_problems

    group, _, version = job["apiVersion"].rpartition("/")
    return not schema_problems(job, f"{group}/{job['kind'].lower()}_{version}.json")


INT32_MAX = 2**31 - 1


def _count_overflow(job: dict[str, Any], spec: dict[str, Any]) -> list[Finding]:
    """A count mpigen writes into a 32-bit field, beyond what it holds: a TrainJob's numNodes, or
    the gang's minAvailable (kube-batch's minMember), every pod of the job when the spec sets none.
    ``count-overflow`` at ``workers``, as validate reports what the operators compute from the
    replicas (the rule of that code)."""
    scheduling = spec["scheduling"]
    if job["kind"] == "TrainJob":
        value, what = job["spec"]["trainer"].get("numNodes", 0), "trainer.numNodes"
    elif scheduling["gang"] in ("volcano", "scheduler-plugins", "kube-batch") and "minAvailable" not in scheduling:
        key = next(k for k in job["spec"] if k.endswith("ReplicaSpecs"))
        value = sum(replica.get("replicas", 1) for replica in job["spec"][key].values())
        what = "the gang's minMember (every pod of the job)"
    else:
        return []
    if value <= INT32_MAX:
        return []
    return [(("spec", "workers"), "count-overflow", Severity.ERROR,
             f"workers: {spec['workers']} makes {what} {value}, beyond a 32-bit count ({INT32_MAX}): it cannot be "
             "written; use fewer workers")]
