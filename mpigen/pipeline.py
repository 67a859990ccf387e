"""The pipeline: load -> check spec -> expand and default -> render -> (validate) -> emit.

Every function here is pure: data in, data plus diagnostics out. The CLI reads files, calls
these and prints.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .diagnostics import Diagnostic, Severity, format_path, has_errors, one_per_problem, sort_diagnostics
from .expand.defaults import expand
from .expand.environments import environment_names, origin, spec_for
from .load.document import Document, LoadResult
from .names import SPEC_API_VERSION, SPEC_KIND
from .render.job import CompiledJob, render_objects
from .spec.schema import SPEC_SCHEMA, schema_diagnostics
from .spec.spec_rules import check_spec
from .versions import DEFAULT_OPERATOR_VERSION, OperatorVersion


@dataclass(frozen=True, slots=True)
class Options:
    operator_version: OperatorVersion = DEFAULT_OPERATOR_VERSION
    priority_classes: dict[str, int] | None = None  # None: no cluster file given


@dataclass(slots=True)
class CompileResult:
    jobs: list[CompiledJob]
    diagnostics: list[Diagnostic]

    @property
    def ok(self) -> bool:
        return not has_errors(self.diagnostics)


def is_spec(data: Any) -> bool:
    return isinstance(data, dict) and data.get("apiVersion") == SPEC_API_VERSION and data.get("kind") == SPEC_KIND


def compile_specs(loaded: LoadResult, filename: str, options: Options) -> CompileResult:
    """Every TrainingJob of one loaded file."""
    diagnostics = list(loaded.diagnostics)
    jobs: list[CompiledJob] = []
    specs = 0
    for doc in loaded.documents:
        if doc.data is None:
            continue
        if not is_spec(doc.data):
            line, col = doc.locate(())
            what = ""
            if isinstance(doc.data, dict):
                what = f" (this document is {doc.data.get('apiVersion', '?')} {doc.data.get('kind', '?')})"
            diagnostics.append(Diagnostic(filename, line, col, "", "not-a-spec", Severity.ERROR,
                                          f"expected an mpigen spec: apiVersion {SPEC_API_VERSION}, kind {SPEC_KIND}"
                                          f"{what}; lint Kubernetes manifests with mpigen validate"))
            continue
        specs += 1
        job, diags = compile_document(doc, filename, options)
        diagnostics.extend(diags)
        if job is not None:
            jobs.append(job)
    if specs == 0 and not has_errors(diagnostics):
        diagnostics.append(Diagnostic(filename, None, None, "", "no-spec", Severity.ERROR,
                                      "the file holds no mpigen spec"))
    names = [job.name for job in jobs]
    for name in sorted({n for n in names if names.count(n) > 1}):
        diagnostics.append(Diagnostic(filename, None, None, "metadata.name", "duplicate-job", Severity.ERROR,
                                      f"two specs in this file are named {name!r}"))
    return CompileResult(jobs, sort_diagnostics(diagnostics))


def _skip_null_override(error: Any) -> bool:
    """In an environment, ``null`` removes a field: it is not a type error."""
    path = list(error.absolute_path)
    return error.instance is None and len(path) >= 4 and path[:2] == ["spec", "environments"]


def compile_document(doc: Document, filename: str, options: Options) -> tuple[CompiledJob | None, list[Diagnostic]]:
    """One TrainingJob -> its objects (the job first), for the base and every environment."""
    data = doc.data
    diagnostics = schema_diagnostics(data, doc, filename, SPEC_SCHEMA, skip=_skip_null_override)
    spec = data.get("spec")
    if not isinstance(spec, dict) or not isinstance(data.get("metadata"), dict):
        return None, diagnostics
    envs = [None] + [e for e in environment_names(spec) if isinstance(spec["environments"][e], dict)]

    def located(path: tuple, env: str | None, code: str, severity: Severity, message: str) -> Diagnostic:
        if path[:1] == ("spec",):
            path = ("spec",) + tuple(origin(path[1:], spec, env))
        line, col = doc.locate(path, key=code in ("unknown-field",))
        return Diagnostic(filename, line, col, format_path(path), code, severity, message)

    diagnostics.extend(_yaml11_numbers(doc, filename))
    effective = {env: spec_for(spec, env) for env in envs}
    schema_ok = not has_errors(diagnostics)
    for env in envs:
        if env is not None:
            diagnostics.extend(_required_after_merge(effective[env], env, doc, filename))
        for path, code, severity, message in check_spec(data, effective[env], options.operator_version,
                                                        options.priority_classes, schema_ok):
            diagnostics.append(located(path, env, code, severity, message))
    diagnostics = one_per_problem(diagnostics)
    if has_errors(diagnostics):
        return None, diagnostics

    outputs: dict[str | None, list[dict[str, Any]]] = {}
    for env in envs:
        expanded = expand(effective[env])
        objects, findings = render_objects(data["metadata"], expanded, options.operator_version,
                                           options.priority_classes)
        for path, code, severity, message in findings:
            diagnostics.append(located(path, env, code, severity, message))
        for code, message in _server_errors(objects):
            diagnostics.append(located(("spec",), env, code, Severity.ERROR, message))
        outputs[env] = objects
    if has_errors(diagnostics):
        return None, diagnostics
    compiled = CompiledJob(data["metadata"]["name"], filename, outputs.pop(None),
                           {env: objs for env, objs in outputs.items() if env is not None})
    return compiled, diagnostics


def _server_errors(objects: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """The API server's own validation (the ``pod-*`` rules and the other rules that port it,
    ``SERVER_RULES``) on every object built: a spec value the schema and the spec's checks let
    through but the API server refuses (a label value with a space, a toleration without key or
    operator, a Service name over 63 characters, ...) would otherwise be refused only when the
    objects are applied, or when the operator creates the pods. Reported at the spec, naming the
    field of the built object."""
    from .lint.runner import server_rules

    found = []
    for obj in objects:
        for path, code, severity, message in server_rules(obj):
            if severity is Severity.ERROR:
                where = format_path(tuple(path))
                what = "have its pods refused" if code.startswith("pod-") else "be refused"
                found.append((code, f"the {obj['kind']} {obj['metadata']['name']} would {what} by the API server: "
                                    f"{where}: {message}"))
    return found


def _yaml11_numbers(doc: Document, filename: str) -> list[Diagnostic]:
    """Environment values that YAML 1.1 silently turned into another number (``12:30`` -> 750)."""
    out = []
    for path, text in doc.plain.items():
        in_env = path[:2] == ("spec", "env") or (path[:2] == ("spec", "environments") and path[3:4] == ("env",))
        value = doc.data
        for part in path:
            value = value[part]
        if in_env and isinstance(value, int) and not isinstance(value, bool) and text != str(value):
            line, col = doc.locate(path)
            out.append(Diagnostic(filename, line, col, format_path(path), "yaml-number", Severity.ERROR,
                                  f"YAML 1.1 reads the unquoted {text} as the number {value}: "
                                  f'write "{text}" in quotes if you mean the text'))
    return out


def _required_after_merge(spec: dict[str, Any], env: str, doc: Document, filename: str) -> list[Diagnostic]:
    """A null in an environment may remove a required field."""
    out = []
    for name in ("framework", "image", "command", "workers"):
        if name not in spec:
            path = ("spec", "environments", env, name)
            line, col = doc.locate(path, key=True)
            out.append(Diagnostic(filename, line, col, format_path(path), "missing-field", Severity.ERROR,
                                  f"environment {env!r} removes the required field {name!r}"))
    return out
