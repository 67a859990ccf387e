"""Helpers shared by the rule modules (not a rule: it is not listed in RULE_MODULES).

Everything here reads plain dicts defensively: a value of the wrong type reads as "absent".
"""

from __future__ import annotations

import posixpath
import shlex
from typing import Any, Iterator

from ...names import CURRENT_API
from ...operator.podgroup import DEFAULT_SCHEDULER_PLUGINS_NAME
from ...operator.quantity import Quantity
from ..base import GANG_VOLCANO, Context, Path

ALL_KINDS = ("MPIJob", "PyTorchJob", "TFJob")
OBJECT_KINDS = ALL_KINDS + ("Deployment", "Service", "ConfigMap", "Secret", "PriorityClass", "PodGroup", "Queue",
                            "Workload")
"""Every kind mpigen has a schema for (the Volcano, scheduler-plugins, kube-batch and Kubernetes'
own scheduling.k8s.io PodGroups share a kind; the Workload is scheduling.k8s.io's)."""
ROOT_SSH_PATH = "/root/.ssh"  # mpi-operator v0.8.2 rootSSHPath, the default sshAuthMountPath


def current_api(ctx: Context) -> bool:
    """The object has the apiVersion the rules are written for; legacy versions have other shapes
    and are reported by legacy-api-version alone."""
    return CURRENT_API.get(ctx.kind) == ctx.api_version


def is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def mapping(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def replicas(replica: Any, default: int) -> int | None:
    """A replica spec's replicas, ``default`` when unset, None when unreadable."""
    value = mapping(replica).get("replicas", default)
    return value if is_int(value) else None


def mpi_role(ctx: Context, role: str) -> tuple[Path, dict[str, Any]] | None:
    """(path, spec) of an MPIJob replica type; mpi-operator's map keys are case-sensitive."""
    base, specs = ctx.replica_specs
    return (base + (role,), specs[role]) if role in specs else None


def pod_spec(template: Any) -> dict[str, Any]:
    return mapping(mapping(template).get("spec"))


def first_container(template: Any) -> dict[str, Any] | None:
    """containers[0]: the only container mpi-operator gives the SSH mount, hostfile and MPI env."""
    containers = pod_spec(template).get("containers")
    if isinstance(containers, list) and containers and isinstance(containers[0], dict):
        return containers[0]
    return None


def gpu_resources(container: Any) -> dict[str, int]:
    """GPUs a container asks for: resources named ``*/gpu`` (nvidia.com/gpu, amd.com/gpu, ...).

    Limits first (extended resources must have limits; requests, if set, must equal them),
    then requests for names without a limit. Unreadable quantities count 0.
    """
    resources = mapping(mapping(container).get("resources"))
    merged = dict(mapping(resources.get("requests")))
    merged.update(mapping(resources.get("limits")))
    out = {}
    for name, raw in merged.items():
        if not (isinstance(name, str) and name.endswith("/gpu")) or isinstance(raw, bool):
            continue
        if isinstance(raw, (int, str)):
            try:
                count = Quantity.parse(str(raw)).value()
            except ValueError:
                continue
            if count > 0:
                out[name] = count
    return out


def scheduling_policy(ctx: Context) -> tuple[Path, dict[str, Any]]:
    path = ("spec", "runPolicy", "schedulingPolicy")
    return path, mapping(ctx.get(*path))


def gang_scheduler_name(ctx: Context) -> str | None:
    """The schedulerName the operator gives pods under ``ctx.gang``; None without a gang."""
    if ctx.gang is None:
        return None
    if ctx.gang == GANG_VOLCANO:
        return GANG_VOLCANO
    return ctx.options.scheduler_name or DEFAULT_SCHEDULER_PLUGINS_NAME


def argv(container: dict[str, Any]) -> Iterator[tuple[str, int, str]]:
    """(field, index, word) of a container's command then args: the process's argv."""
    for field in ("command", "args"):
        words = container.get(field)
        for i, word in enumerate(words if isinstance(words, list) else []):
            if isinstance(word, str):
                yield field, i, word


# ------------------------------------------------------------------ shell words

SHELLS = {"sh", "bash", "dash", "ash", "zsh", "ksh"}
SEPARATORS = {";", "&&", "||", "|", "&", "(", ")", "{", "}"}


def shell_words(script: str) -> list[str] | None:
    """A ``sh -c`` script split into words, separators (``;``, ``&&``, newlines...) as words."""
    lexer = shlex.shlex(script.replace("\n", " ; "), posix=True, punctuation_chars=";&|()")
    lexer.whitespace_split = True
    try:
        return list(lexer)
    except ValueError:  # unbalanced quotes
        return None


def simple_commands(words: list[str]) -> Iterator[list[str]]:
    """Split shell words at separators into simple commands."""
    current: list[str] = []
    for word in words:
        if word in SEPARATORS or set(word) <= set(";&|()"):
            if current:
                yield current
            current = []
        else:
            current.append(word)
    if current:
        yield current


def shell_script(words: list[str]) -> str | None:
    """The script of ``sh -c SCRIPT`` (also ``bash -ec``, ``/bin/sh -lc``); None otherwise."""
    if not words or posixpath.basename(words[0]) not in SHELLS:
        return None
    for i, word in enumerate(words[1:], start=1):
        if not word.startswith("-"):
            return None
        if not word.startswith("--") and "c" in word[1:]:
            return words[i + 1] if i + 1 < len(words) else None
    return None
