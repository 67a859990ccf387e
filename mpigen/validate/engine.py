"""The validation layers, in order, for every document of a file.

1. YAML: syntax, duplicate keys, object tags, bombs (the loader), YAML 1.1 traps (in messages).
2. Schema, with the API server's semantics: a null is dropped as the server drops it; an unknown
   field is an error, because the server would prune it silently.
3. The operator's admission rules (mpi-operator's ``validation.go``) on the defaulted object.
4. The lint rules (``mpigen/lint/rules``).

An mpigen spec (``mpigen.dev/v1alpha1`` ``TrainingJob``) goes through the spec compiler's checks
instead. Everything is collected; nothing stops at the first problem.
"""

from __future__ import annotations

import functools

from ..check.schema import schema_diagnostics, schemas_folder
from ..diagnostics import Diagnostic, Severity, format_path
from ..lint.base import LintOptions
from ..load.yaml_loader import Document, decode, iter_text
from ..pipeline import Options, compile_document, is_spec
from ..record import FrozenRecord

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing on validate's path
if TYPE_CHECKING:
    from typing import Any, Iterable

Path = tuple[str | int, ...]


class ValidateOptions(FrozenRecord):
    __slots__ = ("lint", "build", "disabled")
    lint: LintOptions
    build: Options
    disabled: frozenset[str]

    def __init__(self, lint: LintOptions | None = None, build: Options | None = None,
                 disabled: frozenset[str] = frozenset()) -> None:
        object.__setattr__(self, "lint", LintOptions() if lint is None else lint)
        object.__setattr__(self, "build", Options() if build is None else build)
        object.__setattr__(self, "disabled", disabled)


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


def validate_items(items: Iterable[Document | Diagnostic], filename: str, options: ValidateOptions,
                   keep: list[Document] | None = None) -> list[Diagnostic]:
    """Every layer over a stream of documents (and the loader's diagnostics), one document at a time.

    Documents are let go once checked unless ``keep`` is given to collect them.
    """
    diagnostics: list[Diagnostic] = []
    for item in items:
        if isinstance(item, Diagnostic):
            diagnostics.append(item)
            continue
        doc, data = item, item.data
        if keep is not None:  # kept (to place kubeconform's findings): positions now, nodes let go
            doc.settle()
            keep.append(doc)
        if data is None:
            continue
        if is_spec(data):
            diagnostics.extend(compile_document(doc, filename, options.build)[1])
            continue
        if isinstance(data, dict) and isinstance(data.get("kind"), str) and data["kind"].endswith("List") \
                and isinstance(data.get("items"), list):
            for i, obj in enumerate(data["items"]):
                diagnostics.extend(_object(obj, ("items", i), doc, filename, options))
            continue
        diagnostics.extend(_object(data, (), doc, filename, options))
    return [d for d in diagnostics if d.code not in options.disabled]


def validate_bytes(raw: bytes, filename: str, options: ValidateOptions,
                   keep_documents: bool = False) -> tuple[list[Diagnostic], list[Document]]:
    """One file's bytes through every layer; its documents too when asked (for kubeconform's merge)."""
    text, problems = decode(raw, filename)
    if text is None:
        return [d for d in problems if d.code not in options.disabled], []
    keep: list[Document] | None = [] if keep_documents else None
    return validate_items(iter_text(text, filename), filename, options, keep), keep or []


def _object(obj: Any, prefix: Path, doc: Document, filename: str, options: ValidateOptions) -> list[Diagnostic]:
    def located(path: Path, code: str, severity: Severity, message: str) -> Diagnostic:
        line, col = doc.locate(prefix + tuple(path))
        return Diagnostic(filename, line, col, format_path(prefix + tuple(path)), code, severity, message)

    if not isinstance(obj, dict) or not isinstance(obj.get("apiVersion"), str) or not isinstance(obj.get("kind"), str):
        return [located((), "not-an-object", Severity.INFO,
                        "not a Kubernetes object (no apiVersion and kind): skipped")]
    api_version, kind = obj["apiVersion"], obj["kind"]
    stored = prune_nulls(obj) if doc.has_nulls else obj  # rules and checks never modify it
    schema = schema_for(api_version, kind)
    # Objects the API server stores need a name (a Kustomization, read by kustomize only, does not).
    out: list[Diagnostic] = [located(path, "missing-field", Severity.ERROR, message)
                             for path, message in (_name_problems(stored) if schema else [])]
    schema_paths: set[str] = set()  # where the schema or the operator's validation reported a problem
    missing: set[tuple[str, str]] = set()  # (mapping, key) the schema reported as a missing required field
    if schema is None:
        from ..lint.runner import rules

        if not any(kind in rule.kinds for rule in rules()):
            out.append(located((), "no-schema", Severity.INFO,
                               f"mpigen has no schema for {api_version} {kind}: not checked"))
    else:
        for diagnostic in schema_diagnostics(stored, doc, filename, schema, prefix=prefix):
            out.append(diagnostic)
            schema_paths.add(diagnostic.path)
            if diagnostic.code == "missing-field":
                missing.add((diagnostic.path, _missing_key(diagnostic.message)))
    if api_version == "kubeflow.org/v2beta1" and kind == "MPIJob" and isinstance(stored.get("spec"), dict):
        from ..operator.mpi_defaults import set_defaults
        from ..operator.mpi_validation import validate_mpijob

        version = options.lint.operator_version
        for path, message in validate_mpijob(set_defaults(stored, version)):
            if format_path(prefix + path) not in schema_paths:
                out.append(located(path, "mpijob-invalid", Severity.ERROR,
                                   f"the operator rejects this MPIJob: {message}"))
                schema_paths.add(format_path(prefix + path))
    from ..lint.runner import lint_object

    for path, code, severity, message in lint_object(stored, options.lint, options.disabled):
        full = prefix + tuple(path)
        if format_path(full) in schema_paths or (full and (format_path(full[:-1]), full[-1]) in missing):
            continue  # the schema or the operator's own validation already reported this field
        out.append(located(path, code, severity, message))
    return out


def _missing_key(message: str) -> str:
    """The key of a schema ``missing-field`` message: "missing required field 'name'" -> name
    (a pod rule's "Required value" for that key is the same problem)."""
    quoted = message.rpartition("missing required field ")[2]
    return quoted[1:-1] if len(quoted) >= 2 and quoted[0] == quoted[-1] and quoted[0] in "'\"" else quoted


MPIJOB_API = "kubeflow.org/v2beta1"


def checked_mpijob(doc: Document, filename: str, version: tuple[int, int, int] = (0, 8, 0)
                   ) -> tuple[dict[str, Any] | None, list[Diagnostic]]:
    """An MPIJob document as the operator receives it (nulls dropped), or None with the reasons
    the API server (schema) or the operator (validation.go) would refuse it."""
    from ..operator.mpi_defaults import set_defaults
    from ..operator.mpi_validation import validate_mpijob

    stored = prune_nulls(doc.data)
    schema = schema_for(MPIJOB_API, "MPIJob")
    diagnostics = schema_diagnostics(stored, doc, filename, schema) if schema else []
    for path, message in _name_problems(stored):
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


def _name_problems(obj: dict[str, Any]) -> list[tuple[Path, str]]:
    """The API server refuses an object without a name ("resource name may not be empty")."""
    meta = obj.get("metadata")
    if isinstance(meta, dict) and (meta.get("name") or meta.get("generateName")):
        return []
    if isinstance(meta, dict) or "metadata" not in obj:
        return [(("metadata",) if "metadata" in obj else (), "missing required field 'metadata.name': the API "
                 "server refuses an object without a name")]
    return []  # metadata of the wrong type: the schema reports it


TRAINING_API = "kubeflow.org/v1"


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
