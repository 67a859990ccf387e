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

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Iterable

from ..diagnostics import Diagnostic, Severity, did_you_mean, format_path
from ..lint.base import LintOptions
from ..load.document import objects
from ..load.trainer_runtimes import is_runtime
from ..load.yaml_loader import Document, decode, iter_text, kubectl_reads
from ..names import CURRENT_API, LEGACY_API, RUNTIME_KINDS, TRAINER_API, TRAINJOB_KIND
from ..pipeline import Options, compile_document, is_spec
from ..spec.schema import schema_diagnostics
from ..lint.admission import admission_problems, trainer_admission_problems
from .admission import GENERATED_SUFFIX, Path, admitted, name_problems, prune_nulls, schema_for, unknown_nulls

@dataclass(frozen=True, slots=True)
class ValidateOptions:
    lint: LintOptions = field(default_factory=LintOptions)
    build: Options = field(default_factory=Options)
    disabled: frozenset[str] = frozenset()
    server_side: bool = False
    """The manifests are applied server-side (the configuration's ``apply: server-side``): an
    unknown field whose value is null, which only client-side ``kubectl apply`` drops, is an error."""


NO_KIND = "no kind"
"""How :class:`Coverage` counts a skipped document that has no ``kind``."""
TEMPLATE = "template"
"""How :class:`Coverage` counts a skipped file that is a Helm (Go) template."""
SKIPPED = ("no-schema", "not-an-object", "template-file")
"""The codes of the notes on skipped objects (``--require-schema`` makes them errors)."""
_TEMPLATE_ACTION = re.compile(r"\{\{-?\s*(?:[.$\"(/]|[A-Za-z_]\w*\b)")
"""A Go template action as Helm charts hold them: ``{{ .Values.x }}``, ``{{- include "..." . }}``,
``{{ $name }}``, ``{{/* a comment */}}``."""


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
    trainjobs: list[tuple[Any, Path, Document]] = []  # checked last, against the file's runtimes too
    runtimes: list[dict[str, Any]] = []
    documents = 0
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
        documents += 1
        if is_spec(data):
            coverage.checked += 1
            diagnostics.extend(compile_document(doc, filename, options.build)[1])
            continue
        if is_json_patch(data):  # a kustomize patch file (mpigen's overlays write them)
            coverage.checked += 1
            diagnostics.extend(_json_patch(data, doc, filename))
            continue
        for prefix, obj in objects(data):
            if _is_trainjob(obj):
                trainjobs.append((obj, prefix, doc))
                continue
            if is_runtime(obj):
                runtimes.append(obj)
            diagnostics.extend(_object(obj, prefix, doc, filename, options, coverage))
    with_file = _with_file_runtimes(options, runtimes)
    for obj, prefix, doc in trainjobs:
        diagnostics.extend(_object(obj, prefix, doc, filename, with_file, coverage))
    if not documents and not diagnostics:
        diagnostics.append(Diagnostic(filename, None, None, "", "empty-file", Severity.INFO,
                                      "the file holds no YAML document (it is empty or only comments): nothing "
                                      "to check"))
    return [d for d in diagnostics if d.code not in options.disabled]


EMPTY_FILE = "empty-file"
"""The code :func:`validate_items` gives a file with no document and nothing else to say."""


def _is_trainjob(obj: Any) -> bool:
    return isinstance(obj, dict) and obj.get("apiVersion") == TRAINER_API and obj.get("kind") == TRAINJOB_KIND


def _with_file_runtimes(options: ValidateOptions, runtimes: list[dict[str, Any]]) -> ValidateOptions:
    """``options`` whose runtimes are also those of the file a TrainJob is in (a TrainingRuntime
    ``mpigen build`` writes beside its TrainJob, in any order): Trainer finds them in the cluster
    once both are applied."""
    if not runtimes:
        return options
    import dataclasses

    from ..lint.base import trainer_runtimes
    from ..load.trainer_runtimes import with_runtimes

    lint = dataclasses.replace(options.lint, trainer_runtimes=with_runtimes(trainer_runtimes(options.lint), runtimes))
    return dataclasses.replace(options, lint=lint)


RUN_RUNTIMES = "those of the files checked"
"""How the runtimes of a run's files are named beside the cluster's (or Trainer's defaults)."""


def run_runtimes(files: Iterable[tuple[str, bytes]]) -> list[dict[str, Any]]:
    """The TrainingRuntimes and ClusterTrainingRuntimes of every file of a run, as the API server
    stores them (nulls dropped): a TrainJob of any file of the run may name one, as it names one
    of the cluster once both are applied (``kubectl apply -f DIR``, a kustomize tree ``mpigen
    build -o`` wrote with the runtime in a file of its own). Only files whose text names a
    runtime kind are read; a kustomize patch (``$patch: delete``) is not a runtime; what cannot
    be read is left to the file's own check to report."""
    found: list[dict[str, Any]] = []
    for name, raw in files:
        text, _ = decode(raw, name)
        if text is not None and RUNTIME_WORD in text:
            found += runtimes_in(iter_text(text, name))
    return found


RUNTIME_WORD = "TrainingRuntime"
"""What the kind of every training runtime says: a text without it holds none."""


def runtimes_in(items: Iterable[Document | Diagnostic]) -> list[dict[str, Any]]:
    """The training runtimes of a text's documents (:func:`run_runtimes`)."""
    found: list[dict[str, Any]] = []
    for item in items:
        if isinstance(item, Diagnostic) or item.data is None or is_spec(item.data):
            continue
        found += [prune_nulls(obj) for _, obj in objects(item.data) if is_runtime(obj) and "$patch" not in obj]
    return found


def with_run_runtimes(options: ValidateOptions, runtimes: list[dict[str, Any]]) -> ValidateOptions:
    """``options`` whose runtimes (the cluster's, else Trainer's defaults) are joined by those of
    the run's files (:func:`run_runtimes`), for the TrainJobs of every file and the specs that
    name a runtime."""
    if not runtimes:
        return options
    import dataclasses

    from ..lint.base import trainer_runtimes
    from ..load.trainer_runtimes import with_runtimes

    base = trainer_runtimes(options.lint)
    joined = with_runtimes(base, runtimes, f"{base.source} and {RUN_RUNTIMES}")
    return dataclasses.replace(options, lint=dataclasses.replace(options.lint, trainer_runtimes=joined),
                               build=dataclasses.replace(options.build, trainer_runtimes=joined))


def validate_bytes(raw: bytes, filename: str, options: ValidateOptions, keep_documents: bool = False,
                   coverage: Coverage | None = None) -> tuple[list[Diagnostic], list[Document]]:
    """One file's bytes through every layer; its documents too when asked (for kubeconform's merge)."""
    text, problems = decode(raw, filename)
    if text is None:
        return [d for d in problems if d.code not in options.disabled], []
    template = _template(text, filename)
    if template is not None:
        if coverage is not None:
            coverage.skipped[TEMPLATE] += 1
        return [d for d in [template] if d.code not in options.disabled], []
    keep: list[Document] | None = [] if keep_documents else None
    return validate_items(iter_text(text, filename), filename, options, keep, coverage), keep or []


KUSTOMIZE_GROUP = "kustomize.config.k8s.io"
"""The group of kustomize's own files (Kustomization, Component): kustomize reads them, the API
server never stores them."""
JSON_PATCH_OPS = {"add": ("value",), "remove": (), "replace": ("value",), "move": ("from",), "copy": ("from",),
                  "test": ("value",)}
"""RFC 6902 section 4: each operation and the members it needs beside ``op`` and ``path``."""


def is_json_patch(data: Any) -> bool:
    """A JSON patch document (RFC 6902) as kustomize's ``patches`` reads one from a file: a list
    of operations, each a mapping with ``op`` and ``path``."""
    return isinstance(data, list) and bool(data) and all(isinstance(op, dict) and "op" in op and "path" in op
                                                         for op in data)


def _json_patch(data: list[dict[str, Any]], doc: Document, filename: str) -> list[Diagnostic]:
    """RFC 6902's rules for each operation: a known ``op``, a ``path`` that is a JSON pointer (empty
    or starting with ``/``), and the members the operation needs (``value``; ``from`` for move and
    copy, a pointer too)."""
    out = []

    def problem(path: Path, message: str) -> None:
        line, col = doc.locate(path)
        out.append(Diagnostic(filename, line, col, format_path(path), "schema", Severity.ERROR, message))

    for i, operation in enumerate(data):
        op = operation["op"]
        if op not in JSON_PATCH_OPS:
            hint = did_you_mean(str(op), JSON_PATCH_OPS)
            problem((i, "op"), f"unknown JSON patch operation {op!r}" + (f" (did you mean {hint}?)" if hint else "")
                    + f"; RFC 6902 has {', '.join(JSON_PATCH_OPS)}")
            continue
        for member in ("path", *(m for m in JSON_PATCH_OPS[op] if m == "from")):
            value = operation.get(member)
            if member in operation and not (isinstance(value, str) and (value == "" or value.startswith("/"))):
                problem((i, member), f"{member} must be a JSON pointer (\"\" or starting with /), got {value!r}")
        for member in JSON_PATCH_OPS[op]:
            if member not in operation:
                problem((i,), f"a JSON patch {op} needs {member!r}")
    return out


def _template(text: str, filename: str) -> Diagnostic | None:
    """A Helm chart's template (or another Go template): Go template actions that leave the text
    no YAML a reader can load. It is said once, as not checked, rather than as the YAML errors its
    actions make; a file whose actions sit in strings (an Argo Workflow's ``{{inputs...}}``)
    loads, and is checked as it is."""
    action = _TEMPLATE_ACTION.search(text)
    if action is None or not any(isinstance(item, Diagnostic) and item.severity is Severity.ERROR
                                 for item in iter_text(text, filename)):
        return None
    line = text.count("\n", 0, action.start()) + 1
    column = action.start() - (text.rfind("\n", 0, action.start()) + 1) + 1
    return Diagnostic(filename, line, column, "", "template-file", Severity.INFO,
                      "a Helm or other Go template ({{ ... }}), not YAML a cluster reads: not checked; check what it "
                      "renders (helm template CHART | mpigen validate -), or leave it out with --exclude")


def _object(obj: Any, prefix: Path, doc: Document, filename: str, options: ValidateOptions,
            coverage: Coverage) -> list[Diagnostic]:
    generated = False  # whether the API server names the object (from metadata.generateName)

    def located(path: Path, code: str, severity: Severity, message: str) -> Diagnostic:
        if generated and tuple(path[:2]) == ("metadata", "name"):  # the name is made of generateName
            path = ("metadata", "generateName", *path[2:])
        line, col = doc.locate(prefix + tuple(path))
        return Diagnostic(filename, line, col, format_path(prefix + tuple(path)), code, severity, message)

    if not isinstance(obj, dict) or not isinstance(obj.get("apiVersion"), str) or not isinstance(obj.get("kind"), str):
        kind = obj.get("kind") if isinstance(obj, dict) else None
        coverage.skipped[kind if isinstance(kind, str) and kind else NO_KIND] += 1
        return [located((), "not-an-object", Severity.INFO,
                        "not a Kubernetes object (no apiVersion and kind): skipped")]
    api_version, kind = obj["apiVersion"], obj["kind"]
    stored = prune_nulls(obj) if doc.has_nulls else obj  # rules and checks never modify it
    stored, generated = admitted(stored)  # named, and what the mutating webhooks fill
    schema = schema_for(api_version, kind)
    # Objects the API server stores need a name (a Kustomization, read by kustomize only, does not).
    stored_by_server = schema is not None and api_version.partition("/")[0] != KUSTOMIZE_GROUP
    out: list[Diagnostic] = [located(path, "missing-field", Severity.ERROR, message)
                             for path, message in (name_problems(stored) if stored_by_server else [])]
    schema_paths: set[str] = set()  # where the schema or the operator's validation reported a problem
    missing: set[tuple[str, str]] = set()  # (mapping, key) the schema reported as a missing required field
    if schema is None:
        from ..lint.runner import rules_for

        # Nothing below would check it (a kind is known in its own group and version only); a
        # job kind of an unknown version is an error below.
        if not rules_for(api_version, kind) and kind not in CURRENT_API:
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
        if doc.has_nulls:
            out += _unknown_nulls(obj, schema, prefix, doc, filename, options.server_side)
    job = CURRENT_API.get(kind) == api_version
    if kind in CURRENT_API and not job and api_version not in LEGACY_API[kind]:  # legacy-api-version: a lint rule
        out.append(located(("apiVersion",), "unknown-api", Severity.ERROR,
                           f"unknown {kind} apiVersion {api_version!r}: no operator serves it (the API server rejects "
                           f"it: no matches for kind); write apiVersion: {CURRENT_API[kind]}"))
    if job and not isinstance(stored.get("spec"), dict) and not out and not schema_paths:
        out.append(located((), "missing-field", Severity.ERROR, f"missing required field 'spec': the operator "
                           f"creates nothing for a {kind} without one"))
        schema_paths.add(format_path(prefix))
    elif job and kind == "MPIJob":  # mpi-operator's validation.go, before the lint rules read the job
        for path, code, severity, message in admission_problems(stored, options.lint.operator_version):
            if format_path(prefix + path) not in schema_paths:
                out.append(located(path, code, severity, message))
                schema_paths.add(format_path(prefix + path))
    if api_version == TRAINER_API and kind in (TRAINJOB_KIND, *RUNTIME_KINDS) and isinstance(stored.get("spec"), dict):
        for path, code, severity, message in trainer_admission(stored, options):
            if format_path(prefix + path) not in schema_paths or severity is Severity.INFO:
                out.append(located(path, code, severity, message))
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
    if format_path(prefix + ("apiVersion",)) in linted:  # legacy-api-version said it: one mistake, one error
        out = [d for d in out if d.code != "unknown-api"]
    if job and kind != "MPIJob" and not schema_paths and not missing and isinstance(stored.get("spec"), dict):
        # The training-operator's validating webhook (it reads a job of the schema's shape only), where
        # no lint rule (container-name, zero-replicas, hostname, object-meta, pod-containers) already
        # said the same at the same field in its own, more precise terms.
        for path, code, severity, message in admission_problems(stored, options.lint.operator_version):
            if format_path(prefix + tuple(path)) not in linted:
                out.append(located(path, code, severity, message))
    coverage.checked += 1
    return _generated_name(out, format_path(prefix + ("metadata", "generateName")), stored["metadata"]["name"]) \
        if generated else out


def _generated_name(found: list[Diagnostic], at: str, name: str) -> list[Diagnostic]:
    """The diagnostics of an object the API server names from its ``generateName``: a problem of
    the name is one of the prefix too, and is said once; a message that quotes the name says how
    it was made."""
    from dataclasses import replace

    seen: set[str] = set()
    out = []
    for diagnostic in found:
        if diagnostic.path == at:
            if diagnostic.code in seen:
                continue
            seen.add(diagnostic.code)
            if name in diagnostic.message:
                diagnostic = replace(diagnostic, message=f"{diagnostic.message}; the API server names the object "
                                     f"metadata.generateName and 5 random characters (here {GENERATED_SUFFIX})")
        out.append(diagnostic)
    return out


def _unknown_nulls(obj: dict[str, Any], schema: str, prefix: Path, doc: Document, filename: str,
                   server_side: bool) -> list[Diagnostic]:
    """``unknown-null-field``: a field the schema does not know, whose value is null. Client-side
    ``kubectl apply`` drops it (as :func:`prune_nulls` does) and succeeds, so the schema layer does
    not see it; ``kubectl create``, server-side apply and the GitOps tools that apply server-side
    refuse the object ("strict decoding error: unknown field", "field not declared in schema")."""
    out = []
    for path, known in unknown_nulls(obj, schema):
        full = prefix + path
        line, col = doc.locate(full, key=True)
        close = did_you_mean(str(path[-1]), known)
        hint = f" (did you mean {close!r}?)" if close else ""
        refused = ("this repository is applied server-side (apply: server-side), which refuses the object" if server_side
                   else "`kubectl create` and server-side apply (`kubectl apply --server-side`, GitOps tools that "
                        "apply server-side) refuse the object")
        out.append(Diagnostic(filename, line, col, format_path(full), "unknown-null-field",
                              Severity.ERROR if server_side else Severity.WARNING,
                              f"unknown field {str(path[-1])!r}{hint} is null: client-side `kubectl apply` drops it, "
                              f"but {refused} (\"unknown field\", \"field not declared in schema\"); remove it"))
    return out


def trainer_admission(obj: dict[str, Any], options: ValidateOptions
                      ) -> list[tuple[Path, str, Severity, str]]:
    """Kubeflow Trainer's webhooks (:func:`mpigen.lint.admission.trainer_admission_problems`) on a
    TrainJob or a runtime; for a TrainJob checked against one of Trainer's default runtimes, an
    info note that says so."""
    found = trainer_admission_problems(obj, options.lint)
    if obj["kind"] == TRAINJOB_KIND:
        from ..lint.base import Context
        from ..load.trainer_runtimes import GIVE_CLUSTER_RUNTIMES, default_runtimes, is_default

        runtime = Context(obj, options.lint).trainer_runtime
        if runtime is not None and is_default(runtime):
            found.append((("spec", "runtimeRef"), "default-runtime", Severity.INFO,
                          f"the runtime {runtime['metadata']['name']!r} was checked as {default_runtimes().source} "
                          f"define it: {GIVE_CLUSTER_RUNTIMES}"))
    return found


def _missing_key(message: str) -> str:
    """The key of a schema ``missing-field`` message: "missing required field 'name'" -> name
    (a pod rule's "Required value" for that key is the same problem)."""
    quoted = message.rpartition("missing required field ")[2]
    return quoted[1:-1] if len(quoted) >= 2 and quoted[0] == quoted[-1] and quoted[0] in "'\"" else quoted
