"""The pipeline: load -> check spec -> expand and default -> render -> validate output -> emit.

Every function here is pure: data in, data plus diagnostics out. The CLI reads files, calls
these and prints. The validate-output stage runs ``mpigen validate``'s checks on every object
built and reports each finding at the spec's line (:func:`output_findings`): an error there
fails the build.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .diagnostics import Diagnostic, Severity, format_path, has_errors, one_per_problem, sort_diagnostics
from .expand.defaults import expand
from .expand.environments import environment_names, origin, spec_for
from .load.document import Document, LoadResult
from .names import CURRENT_API, RUNTIME_KINDS, SPEC_API_VERSION, SPEC_KIND, TRAINER_API, TRAINJOB_KIND
from .render.job import CompiledJob, render_objects
from .spec.schema import SPEC_SCHEMA, schema_diagnostics
from .spec.spec_rules import check_spec
from .versions import DEFAULT_OPERATOR_VERSION, OperatorVersion

if TYPE_CHECKING:
    from .load.trainer_runtimes import Runtimes


@dataclass(frozen=True, slots=True)
class Options:
    operator_version: OperatorVersion = DEFAULT_OPERATOR_VERSION
    priority_classes: dict[str, int] | None = None  # None: no cluster file given
    trainer_runtimes: Runtimes | None = None  # the cluster file's; None: Trainer's default runtimes
    disabled: frozenset[str] = frozenset()  # lint codes switched off in the validate-output stage (configuration)


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


def _skip_null_override(path: tuple, value: Any) -> bool:
    """In an environment, ``null`` removes a field: it is not a type error."""
    return value is None and len(path) >= 4 and path[:2] == ("spec", "environments")


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
    reported: dict[str | None, set[str]] = {env: set() for env in envs}  # codes found, per environment
    for env in envs:
        if env is not None:
            diagnostics.extend(_required_after_merge(effective[env], env, doc, filename))
        for path, code, severity, message in check_spec(data, effective[env], options.operator_version,
                                                        options.priority_classes, schema_ok, env,
                                                        options.trainer_runtimes):
            diagnostics.append(located(path, env, code, severity, message))
            reported[env].add(code)
    diagnostics = one_per_problem(diagnostics)
    if has_errors(diagnostics):
        return None, diagnostics

    outputs: dict[str | None, list[dict[str, Any]]] = {}
    built: list[tuple[str | None, BuiltFinding]] = []
    for env in envs:
        expanded = expand(effective[env])
        objects, findings = render_objects(data["metadata"], expanded, options.operator_version,
                                           options.priority_classes, options.trainer_runtimes)
        for path, code, severity, message in findings:
            diagnostics.append(located(path, env, code, severity, message))
            reported[env].add(code)
        # What the spec stage already said in the spec's own terms is not said again.
        built += [(env, f) for f in output_findings(objects, data["metadata"], effective[env], expanded, options)
                  if f.code not in reported[env]]
        outputs[env] = objects
    for path, env, code, severity, message in _merged(built):
        diagnostics.append(located(path, env, code, severity, message))
    if has_errors(diagnostics):
        return None, diagnostics
    compiled = CompiledJob(data["metadata"]["name"], filename, outputs.pop(None),
                           {env: objs for env, objs in outputs.items() if env is not None})
    return compiled, diagnostics


@dataclass(frozen=True, slots=True)
class BuiltFinding:
    """A finding of ``mpigen validate``'s checks on an object ``build`` emits, at the spec field
    behind it (``spec_path``, from the document's root, in the environment's effective spec)."""

    spec_path: tuple[str | int, ...]
    code: str
    severity: Severity
    message: str
    kind: str
    name: str
    path: str  # where in the built object


def output_findings(objects: list[dict[str, Any]], metadata: dict[str, Any], spec: dict[str, Any],
                    expanded: dict[str, Any], options: Options) -> list[BuiltFinding]:
    """The validate-output stage: what ``mpigen validate`` reports on the objects built from one
    environment's ``spec``, each placed at the spec field that produced the value
    (:mod:`.render.origins`).

    The checks are validate's after its YAML and schema layers: the operators' admission rules
    (mpi-operator's ``validation.go``, the training-operator's webhook) and every lint rule (the
    API server's Pod rules among them), with the options validate is given for the cluster the
    spec describes (its scheduler-plugins scheduler name, ``--cluster``,
    ``--operator-version``). The YAML and schema layers are not run again: the objects are built as
    data, written by the one emitter, and hold their schemas by construction; the property test
    (tests/integration/test_build_validate_agree.py) checks that, and that validate finds nothing
    build does not report. A code in ``options.disabled`` (the configuration's ``disable``) is not
    reported, as validate does not report it."""
    from .lint.admission import admission_problems, trainer_admission_problems
    from .lint.base import LintOptions
    from .lint.runner import lint_object
    from .render.origins import spec_field

    scheduling = expanded["scheduling"]
    lint = LintOptions(scheduler_name=scheduling.get("schedulerName") if scheduling["gang"] == "scheduler-plugins"
                       else None, priority_classes=options.priority_classes,
                       operator_version=options.operator_version,
                       trainer_runtimes=_with_beside(options.trainer_runtimes, objects))
    out = []
    patched = _has_patches(spec)
    for obj in objects:
        found = admission_problems(obj, options.operator_version) if obj["kind"] in CURRENT_API else []
        if patched and (obj["kind"] in CURRENT_API or obj["kind"] in RUNTIME_KINDS):  # a runtime: the copy
            found = _schema_findings(obj) + found
        if obj["apiVersion"] == TRAINER_API and obj["kind"] in (TRAINJOB_KIND, *RUNTIME_KINDS):  # Trainer's webhooks
            found += trainer_admission_problems(obj, lint)
        found = [f for f in found if f[1] not in options.disabled]
        found += lint_object(obj, lint, options.disabled)
        for path, code, severity, message in found:
            out.append(BuiltFinding(spec_field(obj, path, metadata, spec), code, severity, message, obj["kind"],
                                    obj["metadata"]["name"], format_path(path)))
    return out


def _has_patches(spec: dict[str, Any]) -> bool:
    """Whether the spec patches a pod template (job-wide or for a role, in the base or its environment)."""
    from .expand.environments import placed_patches

    return bool(placed_patches(spec))


def _schema_findings(obj: dict[str, Any]) -> list[tuple]:
    """The job's CRD schema on a job whose pod templates a patch changed (a TrainJob's: the
    TrainingRuntime copy's): what mpigen builds holds its schema by construction, what a patch
    writes need not (a field the pod has not, a value of the wrong type)."""
    from .spec.schema import schema_problems

    group, _, version = obj["apiVersion"].rpartition("/")
    return [(path, code, Severity.ERROR, f"{message} (the {obj['kind']} CRD's schema)")
            for path, code, message, _ in schema_problems(obj, f"{group}/{obj['kind'].lower()}_{version}.json")]


def _with_beside(runtimes: Runtimes | None, objects: list[dict[str, Any]]) -> Runtimes | None:
    """The runtimes a built TrainJob is checked against: ``runtimes`` (None: Trainer's default
    runtimes) and the TrainingRuntime built beside it."""
    if not any(obj["kind"] in RUNTIME_KINDS for obj in objects):
        return runtimes
    from .load.trainer_runtimes import runtimes_or_defaults, with_runtimes

    return with_runtimes(runtimes_or_defaults(runtimes), objects)


def _merged(found: list[tuple[str | None, BuiltFinding]]) -> list[tuple]:
    """One message per spec field, code and finding: the same problem in several pod templates
    (a nodeSelector entry is in each) or environments is said once, naming where it was found
    and, unless the base has it, in which environments: (spec path, the environment to place it
    in, code, severity, message)."""
    from .lint.rules import OBJECT_SERVER_RULES

    groups: dict[tuple, dict[str, list[str]]] = {}
    envs: dict[tuple, list[str | None]] = {}
    for env, f in found:
        key = (f.spec_path, f.code, f.severity, f.message)
        paths = groups.setdefault(key, {}).setdefault(f"{f.kind} {f.name}", [])
        if f.path not in paths:
            paths.append(f.path)
        if env not in envs.setdefault(key, []):
            envs[key].append(env)
    out = []
    for key, objects in groups.items():
        spec_path, code, severity, message = key
        where = "; ".join(f"{obj} at {', '.join(paths)}" for obj, paths in objects.items())
        named = sorted(e for e in envs[key] if e is not None)
        scope = "" if None in envs[key] else f"in environment{'s' if len(named) > 1 else ''} {', '.join(named)}, "
        verb = (" would have its pods refused by the API server" if code.startswith("pod-") else
                " would be refused by the API server" if code.replace("-", "_") in OBJECT_SERVER_RULES else "")
        out.append((spec_path, None if None in envs[key] else named[0], code, severity,
                    f"{scope}the built {where}{verb}: {message}"))
    return out


def _env_value(path: tuple) -> bool:
    """Whether ``path`` is a variable's value in an ``env`` of the spec: job-wide or a role's, in
    the base or an environment."""
    if len(path) < 3 or path[0] != "spec" or path[-2] != "env":
        return False
    owner = path[1:-2]
    if owner[:1] == ("environments",) and len(owner) >= 2:
        owner = owner[2:]
    return owner == () or (len(owner) == 2 and owner[0] == "roles")


def _yaml11_numbers(doc: Document, filename: str) -> list[Diagnostic]:
    """Environment variables' values that YAML 1.1 silently turned into another number (``12:30``
    -> 750), job-wide and per role, in the base and the environments."""
    out = []
    for path, text in doc.plain.items():
        in_env = _env_value(path)
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
    """A null in an environment may remove a required field (one the base lacks is the base's error):
    ``image`` and ``command`` are required unless ``spec.runtime`` names a Trainer runtime."""
    out = []
    base = doc.data["spec"]
    required = ("framework", "workers") + (("image", "command") if spec.get("runtime") is None else ())
    for name in required:
        if name not in spec and name in base:
            path = ("spec", "environments", env, name)
            line, col = doc.locate(path, key=True)
            out.append(Diagnostic(filename, line, col, format_path(path), "missing-field", Severity.ERROR,
                                  f"environment {env!r} removes the required field {name!r}"))
    return out
