"""Argo CD's settings for the training jobs and their PodGroups: the argocd-cm ConfigMap of
``mpigen argocd``.

* ``resource.customizations.health.<group>_<Kind>``: the Lua health check of each kind, the file
  ``resource_customizations/<group>/<Kind>/health.lua`` as it is. The scripts use only Lua's base
  and table libraries, which Argo CD opens for an argocd-cm script without
  ``resource.customizations.useOpenLibs`` (argoproj/argo-cd v3.5.1, util/lua/lua.go).
* ``resource.customizations.ignoreDifferences.<group>_<Kind>``: ``jqPathExpressions``, the rules
  of ``ignore_differences.yaml`` for that kind, in the file's order.

Both key forms are those of Argo CD's documentation at v3.5.1 (docs/operator-manual/health.md,
docs/user-guide/diffing.md, docs/operator-manual/argocd-cm.yaml). The ConfigMap is built as data
for the one YAML emitter; its keys are sorted, as ``kubectl get -o yaml`` shows them.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable

import yaml

from ..emit.yaml_emit import dump

CONFIGMAP = "argocd-cm"
CUSTOMIZATIONS = "resource_customizations"
HEALTH_SCRIPT = "health.lua"
HEALTH_KEY = "resource.customizations.health."
IGNORE_KEY = "resource.customizations.ignoreDifferences."


@dataclass(frozen=True, slots=True)
class IgnoreRule:
    """A field some controller writes after apply, per kind (``group/Kind``) the jq path expressions
    that remove it."""

    name: str
    why: str
    source: str
    jq: dict[str, tuple[str, ...]]


def _package() -> Traversable:
    return resources.files(__package__)


def customizations() -> Traversable:
    """The ``resource_customizations`` folder, in Argo CD's layout."""
    return _package().joinpath(CUSTOMIZATIONS)


@functools.cache
def health_checks() -> dict[str, str]:
    """``group/Kind`` -> its health script, sorted by group and kind."""
    scripts = {}
    for group in customizations().iterdir():
        for kind in group.iterdir() if group.is_dir() else ():
            script = kind.joinpath(HEALTH_SCRIPT)
            if script.is_file():
                scripts[f"{group.name}/{kind.name}"] = script.read_text("utf-8")
    return dict(sorted(scripts.items()))


@functools.cache
def ignore_rules() -> tuple[IgnoreRule, ...]:
    """The rules of ``ignore_differences.yaml``, in its order."""
    data = yaml.safe_load(_package().joinpath("ignore_differences.yaml").read_text("utf-8"))
    return tuple(IgnoreRule(rule["name"], rule["why"], rule["source"],
                            {kind: tuple(expressions) for kind, expressions in rule["jq"].items()})
                 for rule in data)


def ignore_differences() -> dict[str, list[str]]:
    """``group/Kind`` -> its jq path expressions, the rules' in their order, sorted by kind."""
    by_kind: dict[str, list[str]] = {}
    for rule in ignore_rules():
        for kind, expressions in rule.jq.items():
            by_kind.setdefault(kind, []).extend(expressions)
    return dict(sorted(by_kind.items()))


def settings_name(kind: str) -> str:
    """``kubeflow.org/MPIJob`` -> ``kubeflow.org_MPIJob``, a kind as argocd-cm's keys name it."""
    group, _, name = kind.rpartition("/")
    return f"{group}_{name}"


def configmap(namespace: str) -> dict:
    """The argocd-cm ConfigMap, in ``namespace`` (Argo CD's), with every health check and
    ignoreDifferences setting."""
    data = {HEALTH_KEY + settings_name(kind): script for kind, script in health_checks().items()}
    data.update({IGNORE_KEY + settings_name(kind): dump({"jqPathExpressions": expressions})
                 for kind, expressions in ignore_differences().items()})
    return {
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {"name": CONFIGMAP, "namespace": namespace,
                     "labels": {"app.kubernetes.io/name": CONFIGMAP, "app.kubernetes.io/part-of": "argocd"}},
        "data": dict(sorted(data.items())),
    }
