"""What the API server and the operators accept: an object as the server stores it (nulls dropped),
its shipped schema, and whether an MPIJob, PyTorchJob or TFJob is refused before anything is
created (the schema, then mpi-operator's ``validation.go`` or the training-operator's webhook).

Used by every layer that needs a job as the operator receives it: :mod:`.engine` (``mpigen
validate``), and through :mod:`mpigen.validate` the ``podgroup`` and ``explain`` commands.
"""

from __future__ import annotations

import functools
from typing import Any

from ..diagnostics import Diagnostic, Severity, format_path
from ..load.document import Document
from ..names import MPIJOB_API, TRAINING_API
from ..spec.schema import schema_diagnostics, schemas_folder
from ..versions import DEFAULT_OPERATOR_VERSION, OperatorVersion

Path = tuple[str | int, ...]


@functools.lru_cache(maxsize=1)
def _available_schemas() -> frozenset[str]:
    root = schemas_folder()
    names = set()
    for folder in root.iterdir():
        if folder.is_dir() and not folder.name.startswith(("_", ".")):
            names.update(f"{folder.name}/{f.name}" for f in folder.iterdir() if f.name.endswith(".json"))
    return frozenset(names)


def schema_for(api_version: str, kind: str) -> str | None:
    """The shipped schema of an apiVersion and kind, in kubeconform's layout; None if there is none."""
    group, _, version = api_version.rpartition("/")
    name = f"{group or version}/{kind.lower()}_{version}.json"
    return name if name in _available_schemas() else None


def prune_nulls(value: Any) -> Any:
    """What the API server stores: mapping entries whose value is null are dropped."""
    if isinstance(value, dict):
        return {k: prune_nulls(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [prune_nulls(v) for v in value]
    return value


def checked_mpijob(doc: Document, filename: str, version: OperatorVersion = DEFAULT_OPERATOR_VERSION
                   ) -> tuple[dict[str, Any] | None, list[Diagnostic]]:
    """An MPIJob document as the operator receives it (nulls dropped), or None with the reasons
    the API server (schema) or the operator (validation.go) would refuse it."""
    from ..operator.mpi_defaults import set_defaults
    from ..operator.mpi_validation import validate_mpijob

    stored = prune_nulls(doc.data)
    schema = schema_for(MPIJOB_API, "MPIJob")
    diagnostics = schema_diagnostics(stored, doc, filename, schema) if schema else []
    for path, message in name_problems(stored):
        line, col = doc.locate(path)
        diagnostics.append(Diagnostic(filename, line, col, format_path(path), "missing-field", Severity.ERROR,
                                      message))
    if not diagnostics and isinstance(stored.get("spec"), dict):
        for path, message in validate_mpijob(set_defaults(stored, version)):
            line, col = doc.locate(path)
            diagnostics.append(Diagnostic(filename, line, col, format_path(path), "mpijob-invalid", Severity.ERROR,
                                          f"the operator rejects this MPIJob and creates nothing for it: {message}"))
    if not isinstance(stored.get("spec"), dict) and not diagnostics:
        line, col = doc.locate(())
        diagnostics.append(Diagnostic(filename, line, col, "spec", "missing-field", Severity.ERROR,
                                      "missing required field 'spec'"))
    return (None if diagnostics else stored), diagnostics


def name_problems(obj: dict[str, Any]) -> list[tuple[Path, str]]:
    """The API server refuses an object without a name ("resource name may not be empty")."""
    meta = obj.get("metadata")
    if isinstance(meta, dict) and (meta.get("name") or meta.get("generateName")):
        return []
    if isinstance(meta, dict) or "metadata" not in obj:
        return [(("metadata",) if "metadata" in obj else (), "missing required field 'metadata.name': the API "
                 "server refuses an object without a name")]
    return []  # metadata of the wrong type: the schema reports it


def checked_training_job(doc: Document, filename: str) -> tuple[dict[str, Any] | None, list[Diagnostic]]:
    """A PyTorchJob/TFJob as the API server stores it (nulls dropped), or None with the reasons the
    API server (schema) or the training-operator's webhook would refuse it."""
    from ..operator.training_controller import webhook_problems

    stored = prune_nulls(doc.data)
    schema = schema_for(TRAINING_API, stored["kind"])
    diagnostics = schema_diagnostics(stored, doc, filename, schema) if schema else []
    if not diagnostics and (not isinstance(stored.get("metadata"), dict) or not isinstance(stored.get("spec"), dict)):
        line, col = doc.locate(())
        diagnostics.append(Diagnostic(filename, line, col, "", "missing-field", Severity.ERROR,
                                      f"a {stored['kind']} needs metadata and spec"))
    if diagnostics:
        return None, diagnostics
    for path, message in webhook_problems(stored):
        line, col = doc.locate(path)
        diagnostics.append(Diagnostic(filename, line, col, format_path(path), "training-job-invalid", Severity.ERROR,
                                      f"the training-operator's webhook rejects this {stored['kind']} and nothing is "
                                      f"created: {message}"))
    return (None if diagnostics else stored), diagnostics
