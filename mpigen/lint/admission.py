"""What an operator refuses before it creates anything for a job, as diagnostics' codes and texts:
mpi-operator's ``validation.go`` (port: :mod:`mpigen.operator.mpi_validation`), the
training-operator's validating webhook (port: ``webhook_problems`` in
:mod:`mpigen.operator.training_controller`) and Kubeflow Trainer v2.3.0's webhooks on a TrainJob
and its runtimes (ports: :mod:`mpigen.trainer.validation`, :mod:`mpigen.trainer.framework`).

One function for every reader of a job: ``mpigen validate`` (and through it ``explain`` and
``podgroup``) on a manifest, and ``mpigen build`` on what it builds.
"""

from __future__ import annotations

from typing import Any

from ..diagnostics import Severity
from ..versions import DEFAULT_OPERATOR_VERSION, OperatorVersion
from .base import Context, LintOptions, Path


def admission_problems(stored: dict[str, Any], version: OperatorVersion = DEFAULT_OPERATOR_VERSION
                       ) -> list[tuple[Path, str, Severity, str]]:
    """(path, code, severity, message) of what the operator refuses before it creates anything, for a job
    with a spec, as the API server stores it: mpi-operator's ``validation.go`` on the defaulted
    MPIJob (``mpijob-invalid``), the training-operator's validating webhook on a PyTorchJob or
    TFJob as submitted (``training-job-invalid``)."""
    if stored.get("kind") == "MPIJob":
        from ..operator.mpi_defaults import set_defaults
        from ..operator.mpi_validation import validate_mpijob

        return [(path, "mpijob-invalid", Severity.ERROR, f"the operator rejects this MPIJob: {message}")
                for path, message in validate_mpijob(set_defaults(stored, version))]
    from ..operator.training_controller import webhook_problems

    kind = stored["kind"]
    return [(path, "training-job-invalid", Severity.ERROR, f"the training-operator's webhook rejects this {kind} and "
                                                           f"nothing is created: {message}")
            for path, message in webhook_problems(stored)]


def trainer_admission_problems(obj: dict[str, Any], options: LintOptions) -> list[tuple[Path, str, Severity, str]]:
    """(path, code, severity, message) of what Kubeflow Trainer's webhooks refuse: a TrainingRuntime
    or ClusterTrainingRuntime (``trainingruntime-invalid``), a TrainJob against the runtime it
    names, the options' runtimes' or Trainer's default runtimes (``trainjob-invalid``). For an
    object of the shape the ports read (:func:`mpigen.trainer.runtimes.runtime_shape`; the schema
    reports the others)."""
    from ..names import TRAINJOB_KIND

    if obj["kind"] != TRAINJOB_KIND:
        from ..trainer.defaults import runtime_defaults
        from ..trainer.runtimes import runtime_shape
        from ..trainer.validation import runtime_problems

        if runtime_shape(obj):
            return []  # the schema check reports the field of the wrong type
        return [(path[1:], "trainingruntime-invalid", Severity.ERROR,
                 f"Trainer's webhook rejects this {obj['kind']}: {message}")
                for path, message in runtime_problems(runtime_defaults(obj))]
    from ..trainer.framework import webhook_problems

    ctx = Context(obj, options)
    return [(path, "trainjob-invalid", Severity.ERROR, f"Trainer's webhook rejects this TrainJob: {message}")
            for path, message in webhook_problems(obj, ctx.trainer_runtime, options.priority_classes)]
