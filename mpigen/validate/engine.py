"""The validation layers, in order, for every document of a file.

1. YAML: syntax, duplicate keys, object tags, bombs (the loader), YAML 1.1 traps (in messages).
2. Schema, with the API server's semantics: a null is dropped as the server drops it; an unknown
   field is an error, because the server would prune it silently; the object is read as kubectl
   reads it (an unquoted ``y`` is a boolean); what the server's decoder refuses beyond the schema
   (an int32 field's 3000000000, base64 that does not decode) is an error too.
3. The operator's admission rules (mpi-operator's ``validation.go``) on the defaulted object.
4. The lint rules (``mpigen/lint/rules``), among them the API server's own validation of the
   objects' metadata, pod templates, Services, Deployments, ConfigMaps, Secrets, PriorityClasses;
   then what training-operator's validating webhook refuses that no rule reported.

An mpigen spec (``mpigen.dev/v1alpha1`` ``TrainingJob``) goes through the spec compiler's checks
instead. Everything is collected; nothing stops at the first problem.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Iterable

from ..diagnostics import Diagnostic, Severity, format_path
from ..lint.base import LintOptions
from ..load.yaml_loader import Document, decode, iter_text, kubectl_reads
from ..names import MPIJOB_API, TRAINING_API, TRAINING_KINDS
from ..pipeline import Options, compile_document, is_spec
from ..spec.schema import schema_diagnostics
from .admission import Path, name_problems, prune_nulls, schema_for

@dataclass(frozen=True, slots=True)
class ValidateOptions:
    lint: LintOptions = field(default_factory=LintOptions)
    build: Options = field(default_factory=Options)
    disabled: frozenset[str] = frozenset()


NO_KIND = "no kind"
"""How :class:`Coverage` counts a skipped document that has no ``kind``."""
SKIPPED = ("no-schema", "not-an-object")
WEBHOOK_CODE = "training-job-invalid"
"""The code of what training-operator v1.9.0's validating webhook refuses (as ``podgroup`` and
``explain`` report it, :func:`mpigen.validate.admission.checked_training_job`)."""
"""The codes of the notes on skipped objects (``--require-schema`` makes them errors)."""


@dataclass(slots=True)
class Coverage:
    """The objects checked, and those skipped by kind: an object no schema and no lint rule of
    mpigen knows (a DaemonSet), or a document that is not a Kubernetes object. An mpigen spec and
    each item of a ``kind: List`` count as one object each."""

    checked: int = 0
    skipped: Counter[str] = field(default_factory=Counter)

    def add(self, other: Coverage) -> None:
        self.checked += other.checked
        self.skipped.update(other.skipped)


def validate_items(items: Iterable[Document | Diagnostic], filename: str, options: ValidateOptions,
                   keep: list[Document] | None = None, coverage: Coverage | None = None) -> list[Diagnostic]:
    """Every layer over a stream of documents (and the loader's diagnostics), one document at a time.

    Documents are let go once checked unless ``keep`` is given to collect them; ``coverage``, when
    given, counts the objects checked and skipped.
    """
    coverage = Coverage() if coverage is None else coverage
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
            coverage.checked += 1
            diagnostics.extend(compile_document(doc, filename, options.build)[1])
            continue
        if isinstance(data, dict) and isinstance(data.get("kind"), str) and data["kind"].endswith("List") \
                and isinstance(data.get("items"), list):
            for i, obj in enumerate(data["items"]):
                diagnostics.extend(_object(obj, ("items", i), doc, filename, options, coverage))
            continue
        diagnostics.extend(_object(data, (), doc, filename, options, coverage))
    return [d for d in diagnostics if d.code not in options.disabled]


def validate_bytes(raw: bytes, filename: str, options: ValidateOptions, keep_documents: bool = False,
                   coverage: Coverage | None = None) -> tuple[list[Diagnostic], list[Document]]:
    """One file's bytes through every layer; its documents too when asked (for kubeconform's merge)."""
    text, problems = decode(raw, filename)
    if text is None:
        return [d for d in problems if d.code not in options.disabled], []
    keep: list[Document] | None = [] if keep_documents else None
    return validate_items(iter_text(text, filename), filename, options, keep, coverage), keep or []


def _object(obj: Any, prefix: Path, doc: Document, filename: str, options: ValidateOptions,
            coverage: Coverage) -> list[Diagnostic]:
    def located(path: Path, code: str, severity: Severity, message: str) -> Diagnostic:
        line, col = doc.locate(prefix + tuple(path))
        return Diagnostic(filename, line, col, format_path(prefix + tuple(path)), code, severity, message)

    if not isinstance(obj, dict) or not isinstance(obj.get("apiVersion"), str) or not isinstance(obj.get("kind"), str):
        kind = obj.get("kind") if isinstance(obj, dict) else None
        coverage.skipped[kind if isinstance(kind, str) and kind else NO_KIND] += 1
        return [located((), "not-an-object", Severity.INFO,
                        "not a Kubernetes object (no apiVersion and kind): skipped")]
    api_version, kind = obj["apiVersion"], obj["kind"]
    stored = prune_nulls(obj) if doc.has_nulls else obj  # rules and checks never modify it
    schema = schema_for(api_version, kind)
    # Objects the API server stores need a name (a Kustomization, read by kustomize only, does not).
    out: list[Diagnostic] = [located(path, "missing-field", Severity.ERROR, message)
                             for path, message in (name_problems(stored) if schema else [])]
    schema_paths: set[str] = set()  # where the schema or the operator's validation reported a problem
    missing: set[tuple[str, str]] = set()  # (mapping, key) the schema reported as a missing required field
    if schema is None:
        from ..lint.runner import rules

        if not any(kind in rule.kinds for rule in rules()):  # nothing below would check it
            coverage.skipped[kind] += 1
            return [located((), "no-schema", Severity.INFO,
                            f"mpigen has no schema for {api_version} {kind}: not checked")]
    else:
        sent = kubectl_reads(stored, doc.plain, prefix) if doc.plain else stored  # y/n are booleans to kubectl
        for diagnostic in schema_diagnostics(sent, doc, filename, schema, prefix=prefix):
            out.append(diagnostic)
            schema_paths.add(diagnostic.path)
            if diagnostic.code == "missing-field":
                missing.add((diagnostic.path, _missing_key(diagnostic.message)))
    if api_version == MPIJOB_API and kind == "MPIJob" and isinstance(stored.get("spec"), dict):
        from ..operator.mpi_defaults import set_defaults
        from ..operator.mpi_validation import validate_mpijob

        version = options.lint.operator_version
        for path, message in validate_mpijob(set_defaults(stored, version)):
            if format_path(prefix + path) not in schema_paths:
                out.append(located(path, "mpijob-invalid", Severity.ERROR,
                                   f"the operator rejects this MPIJob: {message}"))
                schema_paths.add(format_path(prefix + path))
    from ..lint.runner import lint_object

    linted: set[str] = set()  # where a lint rule reported an error
    for path, code, severity, message in lint_object(stored, options.lint, options.disabled):
        full = prefix + tuple(path)
        if format_path(full) in schema_paths or (full and (format_path(full[:-1]), full[-1]) in missing):
            continue  # the schema or the operator's own validation already reported this field
        out.append(located(path, code, severity, message))
        if severity is Severity.ERROR:
            linted.add(format_path(full))
    if api_version == TRAINING_API and kind in TRAINING_KINDS and not schema_paths and not missing \
            and isinstance(stored.get("spec"), dict):
        from ..operator.training_controller import webhook_problems

        # The training-operator's validating webhook, where no lint rule (container-name, zero-replicas,
        # hostname, pod-containers) already said the same at the same field.
        for path, message in webhook_problems(stored):
            if format_path(prefix + tuple(path)) not in linted:
                out.append(located(path, WEBHOOK_CODE, Severity.ERROR,
                                   f"the training-operator's webhook rejects this {kind}: {message}"))
    coverage.checked += 1
    return out


def _missing_key(message: str) -> str:
    """The key of a schema ``missing-field`` message: "missing required field 'name'" -> name
    (a pod rule's "Required value" for that key is the same problem)."""
    quoted = message.rpartition("missing required field ")[2]
    return quoted[1:-1] if len(quoted) >= 2 and quoted[0] == quoted[-1] and quoted[0] in "'\"" else quoted
