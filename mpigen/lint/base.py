"""The lint framework: one module per rule, its docstring the user documentation.

A rule module in ``mpigen/lint/rules/`` defines::

    \"\"\"<Title: one line.>

    <One paragraph: what goes wrong at run time and why.>

    Fix: <what to change.>
    \"\"\"
    CODE = "kebab-case-code"
    SEVERITY = Severity.WARNING          # or ERROR
    KINDS = ("MPIJob",)                  # kinds it reads: MPIJob, PyTorchJob, TFJob
    def check(ctx: Context) -> Iterator[tuple[Path, str]]:   # (JSON path in the object, message)

A rule whose verdict depends on what is known of the cluster may yield ``(path, message,
severity)`` for a finding of a lower severity than ``SEVERITY`` (a note where the cluster is not
known, say); ``SEVERITY`` is the highest it reports.

Rules read the object as the API server would store it (nulls dropped), never modify it, and
must not crash on odd shapes: the schema layer has already reported those, so a rule simply
yields nothing for what it cannot read (``ctx.get`` helps).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Mapping

from ..diagnostics import Severity
from ..versions import DEFAULT_OPERATOR_VERSION, OperatorVersion

if TYPE_CHECKING:
    from types import ModuleType

    from ..load.trainer_runtimes import Runtimes
    from ..trainer.info import Info

Path = tuple[str | int, ...]

GANG_VOLCANO = "volcano"
GANG_SCHEDULER_PLUGINS = "scheduler-plugins"


@dataclass(frozen=True, slots=True)
class LintOptions:
    """What a rule may need to know about the cluster; None means unknown."""

    gang: str | None = None  # the operator's --gang-scheduling: volcano, scheduler-plugins, none
    scheduler_name: str | None = None  # scheduler-plugins scheduler name
    priority_classes: dict[str, int] | None = None
    operator_version: OperatorVersion = DEFAULT_OPERATOR_VERSION
    trainer_runtimes: Runtimes | None = None
    """The TrainingRuntimes and ClusterTrainingRuntimes of the cluster; None: none were given, and
    Kubeflow Trainer's default ClusterTrainingRuntimes stand in (:func:`trainer_runtimes`)."""
    namespaces: Mapping[str, Mapping[str, str]] | None = None
    """The labels of the cluster's Namespaces by name; None: none were given (a namespace not
    among them is not known either)."""


def trainer_runtimes(options: LintOptions) -> Runtimes:
    """The runtimes a TrainJob is checked against: the cluster's, else Trainer's defaults."""
    from ..load.trainer_runtimes import runtimes_or_defaults

    return runtimes_or_defaults(options.trainer_runtimes)


class _once:  # noqa: N801 - used as a decorator, like functools.cached_property
    """``functools.cached_property`` without its lock (Python 3.11 takes one on every first
    read, a measurable cost when every rule reads ``ctx.kind`` of thousands of objects)."""

    def __init__(self, function: Callable[[Any], Any]):
        self.function = function
        self.name = function.__name__
        self.__doc__ = function.__doc__

    def __get__(self, instance: Any, owner: type | None = None) -> Any:
        if instance is None:
            return self
        value = instance.__dict__[self.name] = self.function(instance)
        return value


class Context:
    """One Kubernetes object under lint (what rules compute from it is kept in ``__dict__``)."""

    def __init__(self, obj: dict[str, Any], options: LintOptions | None = None) -> None:
        self.obj = obj
        self.options = LintOptions() if options is None else options

    def __repr__(self) -> str:
        return f"Context(obj={self.obj!r}, options={self.options!r})"

    @_once
    def api_version(self) -> str:
        return str(self.obj.get("apiVersion", ""))

    @_once
    def kind(self) -> str:  # read by almost every rule: computed once per object
        return str(self.obj.get("kind", ""))

    @property
    def name(self) -> str:
        meta = self.obj.get("metadata")
        return str(meta.get("name", "")) if isinstance(meta, dict) else ""

    def get(self, *path: str | int, default: Any = None) -> Any:
        """The value at ``path``, or ``default`` when any step is missing or of the wrong type."""
        node: Any = self.obj
        for part in path:
            if isinstance(part, int):
                if not isinstance(node, list) or not -len(node) <= part < len(node):
                    return default
            elif not isinstance(node, dict) or part not in node:
                return default
            node = node[part]
        return node

    @_once
    def replica_specs(self) -> tuple[Path, dict[str, Any]]:
        """(path, {role: replica spec}) of an MPIJob, PyTorchJob or TFJob; ((), {}) when absent."""
        key = {"MPIJob": "mpiReplicaSpecs", "PyTorchJob": "pytorchReplicaSpecs", "TFJob": "tfReplicaSpecs"}.get(self.kind)
        specs = self.get("spec", key) if key else None
        if not isinstance(specs, dict):
            return (), {}
        return ("spec", key), {role: r for role, r in specs.items() if isinstance(r, dict)}

    def pod_templates(self) -> Iterator[tuple[str, Path, dict[str, Any]]]:
        """(role, path of the template, template) for every replica type with a template mapping."""
        base, specs = self.replica_specs
        for role, replica in specs.items():
            template = replica.get("template")
            if isinstance(template, dict):
                yield role, base + (role, "template"), template

    def containers(self, template: dict[str, Any]) -> Iterator[tuple[int, dict[str, Any]]]:
        containers = template.get("spec", {}).get("containers") if isinstance(template.get("spec"), dict) else None
        for i, container in enumerate(containers if isinstance(containers, list) else []):
            if isinstance(container, dict):
                yield i, container

    @_once
    def trainer_runtime(self) -> dict[str, Any] | None:
        """The runtime a TrainJob names, from :func:`trainer_runtimes`; None when it is not there."""
        from ..trainer.runtimes import TRAINER_GROUP, runtime_ref

        group, kind, name = runtime_ref(self.obj)
        if group != TRAINER_GROUP or not name:
            return None
        namespace = self.get("metadata", "namespace")
        return trainer_runtimes(self.options).find(kind, name, namespace if isinstance(namespace, str) else None)

    @_once
    def trainer_info(self) -> Info | None:
        """Trainer's runtime ``Info`` of a TrainJob (its runtime with the job's patches merged:
        :func:`mpigen.trainer.framework.runtime_info`); None without its runtime."""
        from ..trainer.framework import runtime_info

        return None if self.trainer_runtime is None else runtime_info(self.obj, self.trainer_runtime)

    @_once
    def gang(self) -> str | None:
        """The gang scheduler: configured, else inferred from the pod templates; None when none."""
        if self.options.gang:
            return None if self.options.gang == "none" else self.options.gang
        def mapping(value: Any) -> dict[str, Any]:
            return value if isinstance(value, dict) else {}

        for _, _, template in self.pod_templates():
            meta, spec = mapping(template.get("metadata")), mapping(template.get("spec"))
            if spec.get("schedulerName") == "kube-batch":
                return None  # kube-batch (legacy) shares Volcano's group annotation; no operator gang
            if spec.get("schedulerName") == "volcano" or "scheduling.k8s.io/group-name" in mapping(meta.get("annotations")):
                return GANG_VOLCANO
            if "scheduling.x-k8s.io/pod-group" in mapping(meta.get("labels")):
                return GANG_SCHEDULER_PLUGINS
        return None


@dataclass(frozen=True, slots=True)
class Rule:
    code: str
    severity: Severity
    kinds: tuple[str, ...]
    title: str
    explanation: str
    fix: str
    check: Callable[[Context], Iterable[tuple[Path, str]]]

    @classmethod
    def from_module(cls, module: ModuleType) -> Rule:
        doc = (module.__doc__ or "").strip()
        title, _, rest = doc.partition("\n")
        explanation, _, fix = rest.strip().partition("Fix:")
        return cls(module.CODE, module.SEVERITY, tuple(module.KINDS), title.strip(),
                   " ".join(explanation.split()), " ".join(fix.split()), module.check)


def load_rules() -> list[Rule]:
    """Every rule listed in ``mpigen.lint.rules.RULE_MODULES``, in that order."""
    from .rules import RULE_MODULES

    return [Rule.from_module(importlib.import_module(f"mpigen.lint.rules.{name}")) for name in RULE_MODULES]
